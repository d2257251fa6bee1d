import { initServer } from '@ts-rest/express';
import type { Request } from 'express';
import { contract } from '../../contract/index.js';
import { consume, reserveAttempt, type AttemptCounter, type Reservation } from '../platform/rate-limit.js';
import { rateLimited } from '../platform/middleware.js';
import { created, ok, success } from '../platform/answers.js';
import { ctxFor, dbOf, type Deps } from '../platform/deps.js';
import { ApiError, invalid } from '../platform/errors.js';
import { forgetCredential } from './credential-cache.js';
import * as passwordReset from './password-reset.js';
import * as apiKeys from './api-keys.js';
import * as business from './business.js';
import * as payments from '../platform/payments/connection.js';
import { resolveCredential } from './credentials.js';
import * as password from './password.js';
import { register } from './provisioning.js';
import * as sessions from './sessions.js';
import * as signIn from './sign-in.js';
import type { SignInClient } from './tokens.js';
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
const clientOf = (req: Request): SignInClient => ({
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

  /** The sign-in counters: failed attempts of the address, and of the email. */
  const byIp = (req: Request): AttemptCounter => ({
    limiter: limiters.signInFailuresByIp,
    key: `ip:${req.ip}`,
  });
  const byEmail = (email: string): AttemptCounter => ({
    limiter: limiters.signInFailuresByEmail,
    key: `email:${email.toLowerCase()}`,
  });

  /**
   * Counts an attempt at a secret (a password, code or token) on the counters before it is checked;
   * 429, with nothing checked, once one of them is over the limit (docs/decisions.md D210, "Attempts
   * at a secret are counted before they are checked").
   */
  const attempt = async (counters: AttemptCounter[]): Promise<Reservation> => {
    const reserved = await reserveAttempt(counters, maxFailures);
    if (!reserved.allowed)
      throw rateLimited(reserved.outcome, 'Too many failed sign-in attempts; try again later');
    return reserved.reservation;
  };

  /**
   * Runs the check the `reserved` attempts were counted for; they are given back unless it failed
   * (`failed(value)`, or a wrong password or code thrown), so only failures stay counted.
   */
  const settle = async <T>(
    reserved: Reservation[],
    check: () => Promise<T>,
    failed: (value: T) => boolean = () => false,
  ): Promise<T> => {
    let failure = true;
    try {
      const value = await check();
      failure = failed(value);
      return value;
    } catch (err) {
      failure = err instanceof twoFactor.FailedAttempt;
      throw err;
    } finally {
      if (!failure) await Promise.all(reserved.map((r) => r.refund()));
    }
  };

  const guarded = async <T>(
    counters: AttemptCounter[],
    check: () => Promise<T>,
    failed?: (value: T) => boolean,
  ): Promise<T> => settle([await attempt(counters)], check, failed);

  /**
   * The person whose access token a public request carries (accepting an invitation as oneself);
   * undefined without one, or for an API key or a token no longer valid.
   */
  const signedInAs = async (req: Request): Promise<string | undefined> => {
    const match = /^Bearer (\S+)$/i.exec(req.get('authorization') ?? '');
    if (!match?.[1]) return undefined;
    const found = await resolveCredential(sourceOf(req, deps), match[1]);
    return found?.kind === 'user' ? found.userId : undefined;
  };

  /**
   * Runs an account change of the signed-in person that checks a password or code: throttled as
   * sign-in is, and a wrong one counts.
   */
  const checkingSecrets = async <T>(req: Request, work: () => Promise<T>): Promise<T> => {
    const email = await password.emailOf(ctx(req), authOf(req));
    return guarded([byIp(req), ...(email === undefined ? [] : [byEmail(email)])], work);
  };

  return s.router(contract.auth, {
    register: async ({ body, req }) => {
      const outcome = await consume(limiters.register, `ip:${req.ip}`);
      if (!outcome.allowed)
        throw rateLimited(outcome, 'Too many registrations from this address; try again later');
      const session = await register(sourceOf(req, deps), body, clientOf(req));
      return created(success({ data: session }));
    },

    signIn: async ({ body, req }) => {
      const session = await guarded(
        [byIp(req), byEmail(body.email)],
        () => signIn.signIn(sourceOf(req, deps), body, clientOf(req)),
        (result) => result === null,
      );
      if (!session) {
        throw new ApiError(
          'UNAUTHORIZED',
          body.code === undefined ? 'Invalid email or password' : 'Invalid email, password or code',
          undefined,
          { 'WWW-Authenticate': 'Bearer' },
        );
      }
      return ok(success({ data: session }));
    },

    // An answer counts for the address, then (its challenge known) for the email, then on the
    // challenge itself, all before the code is checked; an unknown challenge stays counted for the address.
    completeSignIn: async ({ body, req }) => {
      const source = sourceOf(req, deps);
      const byAddress = await attempt([byIp(req)]);
      const found = await twoFactor.findChallenge(source, body.challengeToken);
      const outcome: twoFactor.CompletedSignIn = found
        ? await settle(
            [byAddress, await attempt([byEmail(found.email)])],
            () => twoFactor.answerChallenge(source, found, body.code, clientOf(req)),
            (answered) => 'failure' in answered,
          )
        : { failure: 'unknown' };
      if ('session' in outcome) return ok(success({ data: outcome.session }));
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

    startTwoFactorEnrolment: async ({ body, req }) =>
      ok(
        success({
          data: await checkingSecrets(req, () => twoFactor.startEnrolment(ctx(req), authOf(req), body)),
        }),
      ),

    confirmTwoFactor: async ({ body, req }) => {
      const codes = await checkingSecrets(req, () => twoFactor.confirm(ctx(req), authOf(req), body));
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

    listSessions: async ({ req }) =>
      ok(success({ data: await sessions.listSessions(ctx(req), authOf(req)) })),

    revokeSession: async ({ params, req }) => {
      await sessions.revokeSession(ctx(req), authOf(req), params.id);
      forgetCredential(deps, params.id);
      return ok(success({ message: 'Session revoked' }));
    },

    revokeOtherSessions: async ({ req }) => {
      const revoked = await sessions.revokeOtherSessions(ctx(req), authOf(req));
      for (const id of revoked) forgetCredential(deps, id);
      return ok(success({ data: { revoked: revoked.length } }));
    },

    changePassword: async ({ body, req }) => {
      const revoked = await checkingSecrets(req, () => password.changePassword(ctx(req), authOf(req), body));
      for (const id of revoked) forgetCredential(deps, id);
      return ok(success({ data: { revoked: revoked.length } }));
    },

    // Each request counts as a sign-in attempt of the address and the email, never given back: it
    // sends a mail.
    forgotPassword: async ({ body, req }) => {
      await attempt([byIp(req), byEmail(body.email)]);
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
      const revoked = await guarded(
        [byIp(req)],
        () => passwordReset.resetPassword(sourceOf(req, deps), body, { requestId: req.requestId }),
        (result) => result === null,
      );
      if (!revoked) {
        throw invalid('token', 'This reset link is unknown, already used or expired: ask for a new one');
      }
      for (const id of revoked) forgetCredential(deps, id);
      return ok(success({ message: 'Password changed: sign in with the new one' }));
    },

    getSession: async ({ req }) => {
      if (!req.auth) throw new Error('unauthenticated request reached an authenticated handler');
      return ok(success({ data: await signIn.getSession(ctx(req), req.auth) }));
    },

    switchEnvironment: async ({ body, req }) => {
      if (!req.auth) throw new Error('unauthenticated request reached an authenticated handler');
      return ok(
        success({
          data: await signIn.switchEnvironment(ctx(req), req.auth, body.environment, clientOf(req)),
        }),
      );
    },

    logout: async ({ req }) => {
      await signIn.logout(ctx(req), credentialOf(req));
      forgetCredential(deps, credentialOf(req));
      return ok(success({ message: 'Signed out' }));
    },

    createApiKey: async ({ body, req }) =>
      created(success({ data: await apiKeys.createApiKey(ctx(req), body, authOf(req).userId ?? null) })),

    listApiKeys: async ({ req }) => ok(success({ data: await apiKeys.listApiKeys(ctx(req)) })),

    revokeApiKey: async ({ params, req }) => {
      await apiKeys.revokeApiKey(ctx(req), params.id);
      forgetCredential(deps, params.id);
      return ok(success({ message: 'API key revoked' }));
    },

    getBusiness: async ({ req }) => ok(success({ data: await business.getBusiness(ctx(req)) })),

    updateBusiness: async ({ body, req }) =>
      ok(success({ data: await business.updateBusiness(ctx(req), authOf(req), body) })),
    getPaymentSettings: async ({ req }) => ok(success({ data: await payments.paymentSettings(ctx(req)) })),
    updatePaymentSettings: async ({ body, req }) =>
      ok(success({ data: await payments.connectProvider(ctx(req), body) })),
    checkPaymentSettings: async ({ req }) => ok(success({ data: await payments.checkConnection(ctx(req)) })),

    // Throttled as sign-in is: a wrong token counts as a failed attempt of the address.
    describeInvitation: async ({ body, req }) => {
      const preview = await guarded(
        [byIp(req)],
        () => team.describeInvitation(sourceOf(req, deps), body.token),
        (found) => found === null,
      );
      if (!preview) {
        throw invalid('token', 'This invitation is unknown, already used or expired');
      }
      return ok(success({ data: preview }));
    },

    // Throttled as sign-in is: a wrong token counts for the address, a wrong password for it and
    // the invited email.
    acceptInvitation: async ({ body, req }) => {
      const source = sourceOf(req, deps);
      const byAddress = await attempt([byIp(req)]);
      const preview = await team.describeInvitation(source, body.token);
      const reserved = preview ? [byAddress, await attempt([byEmail(preview.email)])] : [byAddress];
      const signedIn = await signedInAs(req);
      const outcome = await settle(
        reserved,
        () => team.acceptInvitation(source, body, clientOf(req), signedIn),
        (accepted) => 'failure' in accepted,
      );
      if ('session' in outcome) return ok(success({ data: outcome.session }));
      if (outcome.failure === 'password') {
        throw new ApiError('UNAUTHORIZED', 'Invalid password for the invited email', undefined, {
          'WWW-Authenticate': 'Bearer',
        });
      }
      throw invalid('token', 'This invitation is unknown, already used or expired');
    },
  });
};
