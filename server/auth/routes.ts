import { initServer } from '@ts-rest/express';
import type { Request } from 'express';
import { contract } from '../../contract/index.js';
import { consume, isBlocked } from '../platform/rate-limit.js';
import { rateLimited } from '../platform/middleware.js';
import { created, ok, success } from '../platform/answers.js';
import { ctxFor, dbOf, type Deps } from '../platform/deps.js';
import { ApiError, invalid } from '../platform/errors.js';
import { forgetCredential } from './credential-cache.js';
import * as passwordReset from './password-reset.js';
import * as auth from './service.js';
import * as team from './team/service.js';
import * as twoFactor from './two-factor/service.js';

const s = initServer();

/** The context of an unauthenticated request: no business yet. */
const sourceOf = (req: Express.Request, deps: Deps) => ({
  db: dbOf(req, deps),
  clock: deps.clock,
  config: deps.config,
  secrets: deps.secrets,
});

/** Where a request came from, kept with the access token it gets. */
const clientOf = (req: Request): auth.SignInClient => ({
  ip: req.ip,
  userAgent: req.get('user-agent'),
});

function authOf(req: Express.Request) {
  if (!req.auth) throw new Error('unauthenticated request reached an authenticated handler');
  return req.auth;
}

/** The access token or key the caller authenticated with. */
function credentialOf(req: Express.Request): string {
  if (!req.auth) throw new Error('unauthenticated request reached an authenticated handler');
  return req.auth.credentialId;
}

export const authRoutes = (deps: Deps) => {
  const ctx = ctxFor(deps);
  const { limiters } = deps;
  const maxFailures = deps.config.SIGNIN_MAX_FAILURES;

  /** Counts a failed attempt (wrong password or code) of the address and of the email. */
  const countFailure = (req: Request, email: string) =>
    Promise.all([
      limiters.signInFailuresByIp.penalty(`ip:${req.ip}`, 1),
      limiters.signInFailuresByEmail.penalty(`email:${email.toLowerCase()}`, 1),
    ]);

  /** Refuses with 429 while the address or the email is over its failed attempts. */
  const refuseWhileBlocked = async (req: Request, email: string | undefined) => {
    const blocked =
      (await isBlocked(limiters.signInFailuresByIp, `ip:${req.ip}`, maxFailures)) ??
      (email === undefined
        ? null
        : await isBlocked(limiters.signInFailuresByEmail, `email:${email.toLowerCase()}`, maxFailures));
    if (blocked) throw rateLimited(blocked, 'Too many failed sign-in attempts; try again later');
  };

  /**
   * The person whose access token a public request carries (accepting an invitation as oneself);
   * undefined without one, or for an API key or a token no longer valid.
   */
  const signedInAs = async (req: Request): Promise<string | undefined> => {
    const match = /^Bearer (\S+)$/i.exec(req.get('authorization') ?? '');
    if (!match?.[1]) return undefined;
    const found = await auth.resolveCredential(sourceOf(req, deps), match[1]);
    return found?.kind === 'user' ? found.userId : undefined;
  };

  /**
   * Runs an account change of the signed-in person that checks a password or code: throttled as
   * sign-in is, and a wrong one counts.
   */
  const checkingSecrets = async <T>(req: Request, work: () => Promise<T>): Promise<T> => {
    await refuseWhileBlocked(req, await auth.emailOf(ctx(req), authOf(req)));
    try {
      return await work();
    } catch (err) {
      if (err instanceof twoFactor.FailedAttempt) await countFailure(req, err.email);
      throw err;
    }
  };

  return s.router(contract.auth, {
    register: async ({ body, req }) => {
      const outcome = await consume(limiters.register, `ip:${req.ip}`);
      if (!outcome.allowed)
        throw rateLimited(outcome, 'Too many registrations from this address; try again later');
      const session = await auth.register(sourceOf(req, deps), body, clientOf(req));
      return created(success({ data: session }));
    },

    signIn: async ({ body, req }) => {
      await refuseWhileBlocked(req, body.email);
      const session = await auth.signIn(sourceOf(req, deps), body, clientOf(req));
      if (!session) {
        await countFailure(req, body.email);
        throw new ApiError(
          'UNAUTHORIZED',
          body.code === undefined ? 'Invalid email or password' : 'Invalid email, password or code',
          undefined,
          { 'WWW-Authenticate': 'Bearer' },
        );
      }
      return ok(success({ data: session }));
    },

    completeSignIn: async ({ body, req }) => {
      await refuseWhileBlocked(req, undefined);
      const outcome = await twoFactor.completeSignIn(sourceOf(req, deps), body, clientOf(req));
      if ('session' in outcome) return ok(success({ data: outcome.session }));
      if (outcome.failure === 'wrong') await countFailure(req, outcome.email);
      else await limiters.signInFailuresByIp.penalty(`ip:${req.ip}`, 1);
      throw new ApiError(
        'UNAUTHORIZED',
        outcome.failure === 'wrong'
          ? 'Invalid code, or a code used already'
          : 'This sign-in challenge is unknown, answered or expired: sign in again with the password',
        undefined,
        { 'WWW-Authenticate': 'Bearer' },
      );
    },

    getTwoFactor: async ({ req }) => ok(success({ data: await twoFactor.status(ctx(req), authOf(req)) })),

    startTwoFactorEnrolment: async ({ req }) =>
      ok(success({ data: await twoFactor.startEnrolment(ctx(req), authOf(req)) })),

    confirmTwoFactor: async ({ body, req }) => {
      const codes = await checkingSecrets(req, () => twoFactor.confirm(ctx(req), authOf(req), body.code));
      forgetCredential(deps, authOf(req).credentialId);
      return ok(success({ data: codes }));
    },

    disableTwoFactor: async ({ body, req }) => {
      const status = await checkingSecrets(req, () => twoFactor.disable(ctx(req), authOf(req), body));
      forgetCredential(deps, authOf(req).credentialId);
      return ok(success({ data: status }));
    },

    regenerateRecoveryCodes: async ({ body, req }) =>
      ok(
        success({
          data: await checkingSecrets(req, () =>
            twoFactor.regenerateRecoveryCodes(ctx(req), authOf(req), body.code),
          ),
        }),
      ),

    listSessions: async ({ req }) => ok(success({ data: await auth.listSessions(ctx(req), authOf(req)) })),

    revokeSession: async ({ params, req }) => {
      await auth.revokeSession(ctx(req), authOf(req), params.id);
      forgetCredential(deps, params.id);
      return ok(success({ message: 'Session revoked' }));
    },

    revokeOtherSessions: async ({ req }) => {
      const revoked = await auth.revokeOtherSessions(ctx(req), authOf(req));
      for (const id of revoked) forgetCredential(deps, id);
      return ok(success({ data: { revoked: revoked.length } }));
    },

    changePassword: async ({ body, req }) => {
      const revoked = await checkingSecrets(req, () => auth.changePassword(ctx(req), authOf(req), body));
      for (const id of revoked) forgetCredential(deps, id);
      return ok(success({ data: { revoked: revoked.length } }));
    },

    // Each request counts as a sign-in attempt of the address and the email: it sends a mail.
    forgotPassword: async ({ body, req }) => {
      await refuseWhileBlocked(req, body.email);
      await countFailure(req, body.email);
      await passwordReset.requestReset(
        { db: dbOf(req, deps), clock: deps.clock, jobs: deps.jobs },
        body.email,
      );
      return {
        status: 202 as const,
        body: success({
          message: 'If an account exists for that address, a reset link has been mailed to it',
        }),
      };
    },

    // Throttled as sign-in is: a wrong token counts as a failed attempt of the address.
    resetPassword: async ({ body, req }) => {
      await refuseWhileBlocked(req, undefined);
      const revoked = await passwordReset.resetPassword(sourceOf(req, deps), body, {
        requestId: req.requestId,
      });
      if (!revoked) {
        await limiters.signInFailuresByIp.penalty(`ip:${req.ip}`, 1);
        throw invalid('token', 'This reset link is unknown, already used or expired: ask for a new one');
      }
      for (const id of revoked) forgetCredential(deps, id);
      return ok(success({ message: 'Password changed: sign in with the new one' }));
    },

    getSession: async ({ req }) => {
      if (!req.auth) throw new Error('unauthenticated request reached an authenticated handler');
      return ok(success({ data: await auth.getSession(ctx(req), req.auth) }));
    },

    switchEnvironment: async ({ body, req }) => {
      if (!req.auth) throw new Error('unauthenticated request reached an authenticated handler');
      return ok(
        success({ data: await auth.switchEnvironment(ctx(req), req.auth, body.environment, clientOf(req)) }),
      );
    },

    logout: async ({ req }) => {
      await auth.logout(ctx(req), credentialOf(req));
      forgetCredential(deps, credentialOf(req));
      return ok(success({ message: 'Signed out' }));
    },

    createApiKey: async ({ body, req }) =>
      created(success({ data: await auth.createApiKey(ctx(req), body, authOf(req).userId ?? null) })),

    listApiKeys: async ({ req }) => ok(success({ data: await auth.listApiKeys(ctx(req)) })),

    revokeApiKey: async ({ params, req }) => {
      await auth.revokeApiKey(ctx(req), params.id);
      forgetCredential(deps, params.id);
      return ok(success({ message: 'API key revoked' }));
    },

    getBusiness: async ({ req }) => ok(success({ data: await auth.getBusiness(ctx(req)) })),

    updateBusiness: async ({ body, req }) =>
      ok(success({ data: await auth.updateBusiness(ctx(req), authOf(req), body) })),

    // Throttled as sign-in is: a wrong token counts as a failed attempt of the address.
    describeInvitation: async ({ body, req }) => {
      await refuseWhileBlocked(req, undefined);
      const preview = await team.describeInvitation(sourceOf(req, deps), body.token);
      if (!preview) {
        await limiters.signInFailuresByIp.penalty(`ip:${req.ip}`, 1);
        throw invalid('token', 'This invitation is unknown, already used or expired');
      }
      return ok(success({ data: preview }));
    },

    // Throttled as sign-in is: a wrong token counts for the address, a wrong password for it and
    // the invited email.
    acceptInvitation: async ({ body, req }) => {
      const source = sourceOf(req, deps);
      const preview = await team.describeInvitation(source, body.token);
      await refuseWhileBlocked(req, preview?.email);
      const outcome = await team.acceptInvitation(source, body, clientOf(req), await signedInAs(req));
      if ('session' in outcome) return ok(success({ data: outcome.session }));
      if (outcome.failure === 'password') {
        await countFailure(req, outcome.email);
        throw new ApiError('UNAUTHORIZED', 'Invalid password for the invited email', undefined, {
          'WWW-Authenticate': 'Bearer',
        });
      }
      await limiters.signInFailuresByIp.penalty(`ip:${req.ip}`, 1);
      throw invalid('token', 'This invitation is unknown, already used or expired');
    },
  });
};
