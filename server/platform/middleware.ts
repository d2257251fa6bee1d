import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Deps } from './deps.js';
import type { Logger } from './logger.js';
import { ApiError } from './errors.js';
import { routeOf } from './metrics.js';
import { consume, type RateLimitOutcome } from './rate-limit.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const PROBES = new Set(['/healthz', '/readyz']);

/**
 * Public routes whose path carries a capability token (docs/decisions.md D28): the open pixel and click
 * links, unsubscribe, hosted documents and invitations. Anyone holding the path can act on it.
 */
const CAPABILITY_ROUTES: readonly [RegExp, string][] = [
  [/^\/t\/o\/[^/]*/, '/t/o/:token'],
  [/^\/t\/c\/[^/]*/, '/t/c/:token'],
  [/^\/u\/[^/]*/, '/u/:token'],
  [/^\/i\/[^/]*/, '/i/:token'],
  [/^\/q\/[^/]*/, '/q/:token'],
  [/^\/c\/[^/]*/, '/c/:token'],
  [/^\/invitations\/[^/]*/, '/invitations/:token'],
];

/** The path as the request log shows it: a capability route by its template, never its token. */
export function loggedPath(path: string): string {
  for (const [route, template] of CAPABILITY_ROUTES) {
    if (route.test(path)) return path.replace(route, template);
  }
  return path;
}

/** Echoes a sane `X-Request-Id` or makes one, and gives the request a logger that carries it. */
export function requestContext(deps: Deps): RequestHandler {
  return (req, res, next) => {
    const given = req.get('x-request-id');
    req.requestId = given && REQUEST_ID.test(given) ? given : randomUUID();
    // The child logger is made on first use: most requests at warn level never log.
    let log: Logger | undefined;
    Object.defineProperty(req, 'log', {
      get: () => (log ??= deps.log.child({ requestId: req.requestId })),
      configurable: true,
    });
    req.credentials = {};
    res.setHeader('X-Request-Id', req.requestId);
    // Load balancers and orchestrators poll the probes every few seconds: debug, not info.
    const level = PROBES.has(req.path) ? 'debug' : 'info';
    if (!deps.log.isLevelEnabled(level)) return next();
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      req.log[level](
        {
          method: req.method,
          route: routeOf(req),
          path: loggedPath(req.path),
          status: res.statusCode,
          ms: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
          businessId: req.auth?.businessId,
        },
        'request',
      );
    });
    next();
  };
}

export function setRateLimitHeaders(res: Response, outcome: RateLimitOutcome): void {
  res.setHeader('X-RateLimit-Limit', String(outcome.limit));
  res.setHeader('X-RateLimit-Remaining', String(outcome.remaining));
  res.setHeader('X-RateLimit-Reset', String(outcome.resetSeconds));
}

export function rateLimited(outcome: RateLimitOutcome, message = 'Rate limit exceeded'): ApiError {
  return new ApiError('RATE_LIMITED', message, undefined, { 'Retry-After': String(outcome.resetSeconds) });
}

/**
 * Counts every request against its business's plan, or against its IP when it carries no valid
 * credential. Counters that cannot be reached fail open (logged): availability over strictness.
 */
export function rateLimit(deps: Deps): RequestHandler {
  return (req, res, next) => {
    const auth = req.credentials.bearer ?? req.credentials.apiKey;
    const limiter = auth
      ? // The configuration refuses a DEFAULT_PLAN without a limit, so that one always exists.
        (deps.limiters.plans[auth.plan] ?? deps.limiters.plans[deps.config.DEFAULT_PLAN]!)
      : deps.limiters.anonymous;
    const key = auth ? `biz:${auth.businessId}` : `ip:${req.ip}`;
    consume(limiter, key).then(
      (outcome) => {
        setRateLimitHeaders(res, outcome);
        next(outcome.allowed ? undefined : rateLimited(outcome));
      },
      (err: unknown) => {
        req.log.error({ err }, 'rate-limit store unavailable');
        next();
      },
    );
  };
}

/** The values `Bms-Environment` may take (compared trimmed and case-insensitively, as the pinning does). */
export const ENVIRONMENTS = ['live', 'sandbox'] as const;

/**
 * A request may pin its environment with `Bms-Environment`; a value that names neither is refused
 * (400 BAD_REQUEST naming the header and its values) rather than ignored, so that a typo such as
 * `test` or `staging` never runs against an environment the caller did not mean.
 */
export function refuseUnknownEnvironment(req: Request, _res: Response, next: NextFunction): void {
  const wanted = req.get('bms-environment');
  if (wanted === undefined || (ENVIRONMENTS as readonly string[]).includes(wanted.trim().toLowerCase())) {
    return next();
  }
  next(
    new ApiError(
      'BAD_REQUEST',
      `Unknown Bms-Environment: use ${ENVIRONMENTS.join(' or ')}, or leave the header out`,
      [{ field: 'Bms-Environment', message: `Must be one of: ${ENVIRONMENTS.join(', ')}` }],
    ),
  );
}

/** A request with a body must send it as JSON (unless a route's own reader took it: a CSV import). */
export function requireJsonBody(req: Request, _res: Response, next: NextFunction): void {
  if (req.rawBody !== undefined) return next();
  const hasBody = Number(req.get('content-length') ?? 0) > 0 || req.get('transfer-encoding') !== undefined;
  if (hasBody && !req.is(['application/json', 'application/*+json'])) {
    next(new ApiError('BAD_REQUEST', 'Request bodies must be JSON with Content-Type: application/json'));
    return;
  }
  next();
}

export function notFoundRoute(req: Request, _res: Response, next: NextFunction): void {
  next(new ApiError('NOT_FOUND', `No route for ${req.method} ${req.path}`));
}

/** NUL, or a UTF-16 surrogate without its pair: text PostgreSQL refuses (or would store altered). */
const UNSAFE_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The fields (dotted paths) of a parsed body or query whose keys or strings are unsafe text. */
function unsafeFields(value: unknown, path: string, found: string[], depth = 0): string[] {
  if (found.length >= 20 || depth > 32 || Buffer.isBuffer(value)) return found;
  if (typeof value === 'string') {
    if (UNSAFE_TEXT.test(value)) found.push(path || 'body');
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => unsafeFields(item, path ? `${path}.${i}` : String(i), found, depth + 1));
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const field = path ? `${path}.${key}` : key;
      if (UNSAFE_TEXT.test(key)) found.push(field);
      else unsafeFields(item, field, found, depth + 1);
    }
  }
  return found;
}

/**
 * Hostile text never reaches the database (docs/decisions.md D37), for every route at once: a path with
 * a malformed percent-escape is 400; a path segment that decodes to NUL or an unpaired surrogate
 * names nothing that can exist (404); such a string (or key) in the query or body is 422 naming
 * the field.
 */
export function refuseUnsafeText(req: Request, _res: Response, next: NextFunction): void {
  for (const segment of req.path.split('/')) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      next(new ApiError('BAD_REQUEST', 'Malformed percent-escape in the request path'));
      return;
    }
    if (UNSAFE_TEXT.test(decoded)) {
      next(new ApiError('NOT_FOUND', 'Resource not found'));
      return;
    }
  }
  const fields = [...unsafeFields(req.query, '', []), ...unsafeFields(req.body, '', [])];
  if (fields.length > 0) {
    next(
      new ApiError(
        'VALIDATION_ERROR',
        'Request validation failed',
        fields.map((field) => ({ field, message: 'Must not contain NUL characters or unpaired surrogates' })),
      ),
    );
    return;
  }
  next();
}
