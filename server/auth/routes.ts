import { initServer } from '@ts-rest/express';
import { contract } from '../../contract/index.js';
import { consume, isBlocked } from '../platform/rate-limit.js';
import { rateLimited } from '../platform/middleware.js';
import { dbOf, type Deps } from '../platform/deps.js';
import { ApiError } from '../platform/errors.js';
import { forgetCredential } from './credential-cache.js';
import * as auth from './service.js';

const s = initServer();

function settingsOf(deps: Deps): auth.AuthSettings {
  return {
    signupEnabled: deps.config.SIGNUP_ENABLED,
    defaultPlan: deps.config.DEFAULT_PLAN,
    tokenTtlSeconds: deps.config.ACCESS_TOKEN_TTL,
  };
}

function callerOf(req: Express.Request): auth.AuthInfo {
  if (!req.auth) throw new Error('unauthenticated request reached an authenticated handler');
  return req.auth;
}

export const authRoutes = (deps: Deps) => {
  const { limiters } = deps;
  const maxFailures = deps.config.SIGNIN_MAX_FAILURES;

  return s.router(contract.auth, {
    register: async ({ body, req }) => {
      const outcome = await consume(limiters.register, `ip:${req.ip}`);
      if (!outcome.allowed)
        throw rateLimited(outcome, 'Too many registrations from this address; try again later');
      const session = await auth.register(deps.db, deps.clock, settingsOf(deps), body);
      return { status: 201, body: { result: 'success', data: session } };
    },

    signIn: async ({ body, req }) => {
      const email = body.email.toLowerCase();
      const blocked =
        (await isBlocked(limiters.signInFailuresByIp, `ip:${req.ip}`, maxFailures)) ??
        (await isBlocked(limiters.signInFailuresByEmail, `email:${email}`, maxFailures));
      if (blocked) throw rateLimited(blocked, 'Too many failed sign-in attempts; try again later');
      const session = await auth.signIn(deps.db, deps.clock, settingsOf(deps), body);
      if (!session) {
        await Promise.all([
          limiters.signInFailuresByIp.penalty(`ip:${req.ip}`, 1),
          limiters.signInFailuresByEmail.penalty(`email:${email}`, 1),
        ]);
        throw new ApiError('UNAUTHORIZED', 'Invalid email or password', undefined, {
          'WWW-Authenticate': 'Bearer',
        });
      }
      return { status: 200, body: { result: 'success', data: session } };
    },

    logout: async ({ req }) => {
      await auth.logout(dbOf(req, deps), deps.clock, callerOf(req));
      forgetCredential(deps, callerOf(req).credentialId);
      return { status: 200, body: { result: 'success', message: 'Signed out' } };
    },

    createApiKey: async ({ body, req }) => ({
      status: 201,
      body: {
        result: 'success',
        data: await auth.createApiKey(dbOf(req, deps), deps.clock, callerOf(req).businessId, body),
      },
    }),

    listApiKeys: async ({ req }) => ({
      status: 200,
      body: { result: 'success', data: await auth.listApiKeys(dbOf(req, deps), callerOf(req).businessId) },
    }),

    revokeApiKey: async ({ params, req }) => {
      await auth.revokeApiKey(dbOf(req, deps), deps.clock, callerOf(req).businessId, params.id);
      forgetCredential(deps, params.id);
      return { status: 200, body: { result: 'success', message: 'API key revoked' } };
    },
  });
};
