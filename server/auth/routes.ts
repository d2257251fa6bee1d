import { initServer } from '@ts-rest/express';
import { contract } from '../../contract/index.js';
import { consume, isBlocked } from '../platform/rate-limit.js';
import { rateLimited } from '../platform/middleware.js';
import { created, ok, success } from '../platform/answers.js';
import { ctxFor, dbOf, type Deps } from '../platform/deps.js';
import { ApiError, invalid } from '../platform/errors.js';
import { forgetCredential } from './credential-cache.js';
import * as auth from './service.js';
import * as team from './team/service.js';

const s = initServer();

/** The context of an unauthenticated request: no business yet. */
const sourceOf = (req: Express.Request, deps: Deps): auth.AuthSource => ({
  db: dbOf(req, deps),
  clock: deps.clock,
  config: deps.config,
});

/** The access token or key the caller authenticated with. */
function credentialOf(req: Express.Request): string {
  if (!req.auth) throw new Error('unauthenticated request reached an authenticated handler');
  return req.auth.credentialId;
}

export const authRoutes = (deps: Deps) => {
  const ctx = ctxFor(deps);
  const { limiters } = deps;
  const maxFailures = deps.config.SIGNIN_MAX_FAILURES;

  return s.router(contract.auth, {
    register: async ({ body, req }) => {
      const outcome = await consume(limiters.register, `ip:${req.ip}`);
      if (!outcome.allowed)
        throw rateLimited(outcome, 'Too many registrations from this address; try again later');
      const session = await auth.register(sourceOf(req, deps), body);
      return created(success({ data: session }));
    },

    signIn: async ({ body, req }) => {
      const email = body.email.toLowerCase();
      const blocked =
        (await isBlocked(limiters.signInFailuresByIp, `ip:${req.ip}`, maxFailures)) ??
        (await isBlocked(limiters.signInFailuresByEmail, `email:${email}`, maxFailures));
      if (blocked) throw rateLimited(blocked, 'Too many failed sign-in attempts; try again later');
      const session = await auth.signIn(sourceOf(req, deps), body);
      if (!session) {
        await Promise.all([
          limiters.signInFailuresByIp.penalty(`ip:${req.ip}`, 1),
          limiters.signInFailuresByEmail.penalty(`email:${email}`, 1),
        ]);
        throw new ApiError('UNAUTHORIZED', 'Invalid email or password', undefined, {
          'WWW-Authenticate': 'Bearer',
        });
      }
      return ok(success({ data: session }));
    },

    getSession: async ({ req }) => {
      if (!req.auth) throw new Error('unauthenticated request reached an authenticated handler');
      return ok(success({ data: await auth.getSession(ctx(req), req.auth) }));
    },

    switchEnvironment: async ({ body, req }) => {
      if (!req.auth) throw new Error('unauthenticated request reached an authenticated handler');
      return ok(success({ data: await auth.switchEnvironment(ctx(req), req.auth, body.environment) }));
    },

    logout: async ({ req }) => {
      await auth.logout(ctx(req), credentialOf(req));
      forgetCredential(deps, credentialOf(req));
      return ok(success({ message: 'Signed out' }));
    },

    createApiKey: async ({ body, req }) =>
      created(success({ data: await auth.createApiKey(ctx(req), body) })),

    listApiKeys: async ({ req }) => ok(success({ data: await auth.listApiKeys(ctx(req)) })),

    revokeApiKey: async ({ params, req }) => {
      await auth.revokeApiKey(ctx(req), params.id);
      forgetCredential(deps, params.id);
      return ok(success({ message: 'API key revoked' }));
    },

    getBusiness: async ({ req }) => ok(success({ data: await auth.getBusiness(ctx(req)) })),

    updateBusiness: async ({ body, req }) => ok(success({ data: await auth.updateBusiness(ctx(req), body) })),

    // Throttled as sign-in is: a wrong token counts as a failed attempt of the address.
    acceptInvitation: async ({ body, req }) => {
      const blocked = await isBlocked(limiters.signInFailuresByIp, `ip:${req.ip}`, maxFailures);
      if (blocked) throw rateLimited(blocked, 'Too many failed attempts; try again later');
      const session = await team.acceptInvitation(sourceOf(req, deps), body);
      if (!session) {
        await limiters.signInFailuresByIp.penalty(`ip:${req.ip}`, 1);
        throw invalid('token', 'This invitation is unknown, already used or expired');
      }
      return ok(success({ data: session }));
    },
  });
};
