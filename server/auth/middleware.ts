import type { AppRoute } from '@ts-rest/core';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { contract } from '../../contract/index.js';
import type { RouteMetadata } from '../../contract/common/metadata.js';
import { actorOf, operationOf, recordDenied, resourceIdOf } from '../platform/audit.js';
import type { AuthInfo, Deps } from '../platform/deps.js';
import { ApiError } from '../platform/errors.js';
import { resolveCached, resolveCachedToConfirm } from './credential-cache.js';
import { checkPermission } from './permissions.js';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Resolves whatever credential the request presents, before rate limiting (which counts per
 * business) and before routing. Whether a route needs it is decided by `requireAuth`.
 */
export function resolveCredentials(deps: Deps): RequestHandler {
  return (req, _res, next) => {
    const authorization = req.get('authorization');
    const apiKey = req.get('x-api-key');
    const lookups: Promise<void>[] = [];
    if (authorization !== undefined) {
      const secret = BEARER.exec(authorization)?.[1];
      lookups.push(
        (secret ? resolveCached(deps, secret) : Promise.resolve(null)).then((auth) => {
          req.credentials.bearer = auth;
        }),
      );
    }
    if (apiKey !== undefined && confirmsAccessItself(req)) {
      lookups.push(
        resolveCachedToConfirm(deps, apiKey).then(({ auth, confirm }) => {
          req.credentials.apiKey = auth && auth.kind === 'apiKey' ? auth : null;
          req.credentials.confirmApiKey = confirm;
        }),
      );
    } else if (apiKey !== undefined) {
      lookups.push(
        resolveCached(deps, apiKey).then((auth) => {
          req.credentials.apiKey = auth && auth.kind === 'apiKey' ? auth : null;
        }),
      );
    }
    Promise.all(lookups).then(() => next(), next);
  };
}

const EARN = contract.publicLoyalty.publicEarn;

/**
 * The public earn reads its business's access generation in its first statement and confirms a
 * cached key with it before it writes (docs/decisions.md D234), saving the point of sale a round trip.
 * Not with an `Idempotency-Key`: a replay answers before the route runs, so its key is confirmed here.
 */
const confirmsAccessItself = (req: Request) =>
  req.method === EARN.method && req.path === EARN.path && req.get('idempotency-key') === undefined;

const unauthorized = (what: 'access token or API key' | 'API key', challenge: string) =>
  new ApiError('UNAUTHORIZED', `Invalid or expired ${what}`, undefined, { 'WWW-Authenticate': challenge });

const forbidden = (message: string) => new ApiError('FORBIDDEN', message);

/**
 * A request may pin the environment it means (`Bms-Environment: live|sandbox`, as the SDK sends
 * when told one): a credential of the other environment is then unknown to it, so a test key left in
 * a live configuration fails at once rather than writing to the sandbox.
 */
function pinned(req: Request, auth: AuthInfo | null | undefined): AuthInfo | null | undefined {
  const wanted = req.get('bms-environment');
  if (!auth || wanted === undefined) return auth;
  return wanted.trim().toLowerCase() === auth.environment ? auth : null;
}

/**
 * What a person reaches while their business requires a second factor they have not turned on: who
 * they are, turning it on, their sessions and password, and signing out.
 */
const WHILE_TWO_FACTOR_PENDING: ReadonlySet<AppRoute> = new Set<AppRoute>([
  contract.auth.getSession,
  contract.auth.logout,
  contract.auth.getTwoFactor,
  contract.auth.startTwoFactorEnrolment,
  contract.auth.confirmTwoFactor,
  contract.auth.listSessions,
  contract.auth.revokeSession,
  contract.auth.revokeOtherSessions,
  contract.auth.changePassword,
]);

const twoFactorPending = (auth: AuthInfo): boolean =>
  auth.twoFactor !== undefined && auth.twoFactor.required && !auth.twoFactor.enabled;

/**
 * Refuses a valid credential the operation is out of reach of (its role, scope or kind) with 403,
 * once the attempt is in its business's audit log (docs/decisions.md D60, "Refused attempts in the
 * audit trail"). The row is written on its own, there being no request transaction yet; a failure to write
 * it is logged and the refusal answered all the same.
 */
function refuse(deps: Deps, req: Request, auth: AuthInfo, refusal: ApiError, next: NextFunction): void {
  recordRefusal(deps, req, auth).then(
    () => next(refusal),
    (err: unknown) => {
      req.log.error({ err }, 'could not record a refused attempt in the audit log');
      next(refusal);
    },
  );
}

/** The audit row of a refused attempt of the request's operation (docs/decisions.md D60). */
function recordRefusal(
  deps: Deps,
  req: Request,
  auth: AuthInfo,
  params: Record<string, string> = req.params,
): Promise<void> {
  const route = (req as Request & { tsRestRoute: AppRoute }).tsRestRoute;
  return recordDenied(deps.db, {
    businessId: auth.businessId,
    actor: actorOf(auth),
    operation: operationOf(route),
    resourceId: resourceIdOf(params, undefined),
    requestId: req.requestId,
    at: deps.clock.now(),
  });
}

/**
 * An operation the role may reach can still refuse the actor with 403 by a rule of its own (only an
 * owner makes an owner): that refusal is recorded too, once the answer is sent, its request's
 * transaction being rolled back by then (the row must outlive it, and on the embedded database
 * could not be written beside it).
 */
function recordLaterRefusal(deps: Deps, req: Request, res: Response, auth: AuthInfo): void {
  // Kept now: the router no longer holds the path's parameters once the answer is sent.
  const params = req.params;
  res.once('finish', () => {
    if (res.statusCode !== 403) return;
    recordRefusal(deps, req, auth, params).catch((err: unknown) => {
      req.log.error({ err }, 'could not record a refused attempt in the audit log');
    });
  });
}

/**
 * Accepts the credential: the request is now its business's, and the answer says which environment;
 * then a second factor the business requires must be on, and the role must hold the operation's
 * permission (contract/permissions.ts).
 */
function accept(deps: Deps, req: Request, res: Response, auth: AuthInfo, next: NextFunction): void {
  req.auth = auth;
  res.setHeader('Bms-Environment', auth.environment);
  const route = (req as Request & { tsRestRoute: AppRoute }).tsRestRoute;
  if (twoFactorPending(auth) && !WHILE_TWO_FACTOR_PENDING.has(route)) {
    // A step the person has yet to take, not a lack of permission: not an attempt to record.
    return next(
      forbidden(
        'This business requires two-factor sign-in: turn it on first (POST /v1/auth/two-factor/enrolment, ' +
          'then POST /v1/auth/two-factor/confirm)',
      ),
    );
  }
  const refusal = checkPermission(route, auth);
  if (refusal) return refuse(deps, req, auth, refusal, next);
  recordLaterRefusal(deps, req, res, auth);
  next();
}

/**
 * Enforces the route's contract metadata (`auth: user | token | apiKey | none`); a valid credential
 * refused here is recorded in the audit log.
 */
export const requireAuth =
  (deps: Deps) =>
  (req: Request, res: Response, next: NextFunction): void =>
    authenticate(deps, req, res, next);

function authenticate(deps: Deps, req: Request, res: Response, next: NextFunction): void {
  const route = (req as Request & { tsRestRoute: AppRoute }).tsRestRoute;
  const { auth } = route.metadata as RouteMetadata;

  if (auth === 'none') return next();
  const bearer = pinned(req, req.credentials.bearer);
  const apiKey = pinned(req, req.credentials.apiKey);

  if (auth === 'apiKey') {
    if (!apiKey) return next(unauthorized('API key', 'ApiKey header="X-Api-Key"'));
    return accept(deps, req, res, apiKey, next);
  }

  if (bearer === undefined && apiKey) {
    return refuse(
      deps,
      req,
      apiKey,
      forbidden(
        auth === 'user'
          ? 'This operation needs an access token from sign-in, not an API key'
          : 'API keys are accepted here only as Authorization: Bearer, with the scope full (an X-Api-Key header ' +
              'reaches only /v1/public/loyalty)',
      ),
      next,
    );
  }
  if (!bearer) return next(unauthorized('access token or API key', 'Bearer'));
  if (auth === 'user' && bearer.kind !== 'user') {
    return refuse(
      deps,
      req,
      bearer,
      forbidden('This operation needs an access token from sign-in, not an API key'),
      next,
    );
  }
  if (bearer.kind === 'apiKey' && bearer.scope !== 'full') {
    return refuse(
      deps,
      req,
      bearer,
      forbidden(
        `This API key has the scope ${bearer.scope}, which reaches only /v1/public/loyalty (as X-Api-Key); ` +
          'this operation needs an access token or a key with the scope full',
      ),
      next,
    );
  }
  accept(deps, req, res, bearer, next);
}
