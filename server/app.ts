import { isUtf8 } from 'node:buffer';
import { existsSync } from 'node:fs';
import type { RequestValidationError } from '@ts-rest/express';
import cors from 'cors';
import helmet from 'helmet';
import express, { type Express, type RequestHandler } from 'express';
import { requireAuth, resolveCredentials } from './auth/index.js';
import type { EndpointOptions } from './platform/module.js';
import {
  notFoundRoute,
  rateLimit,
  refuseUnknownEnvironment,
  refuseUnsafeText,
  requestContext,
  requireJsonBody,
} from './platform/middleware.js';
import { migrationsCurrent } from './platform/db/migrate.js';
import type { Deps } from './platform/deps.js';
import { dashboardRouter } from './platform/dashboard.js';
import { docsRouter } from './platform/docs.js';
import { errorHandler, notUtf8, refusalOfRequest } from './platform/errors.js';
import { idempotency } from './platform/idempotency.js';
import { importBody } from './imports/index.js';
import { metricsRoute, requestMetrics } from './platform/metrics.js';

/** openapi.json at the project root, whether this module runs from server/ or from the build in dist/server/. */
export const OPENAPI_PATH = [
  new URL('../openapi.json', import.meta.url),
  new URL('../../openapi.json', import.meta.url),
].find((url) => existsSync(url))!;

export interface AppOptions {
  /** Extra middleware before the routes; tests add an OpenAPI response validator here. */
  beforeRoutes?: RequestHandler[];
}

export function createApp(deps: Deps, options: AppOptions = {}): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', trustProxy(deps.config.TRUST_PROXY));
  app.set('etag', false);

  app.use(requestContext(deps));
  app.use(securityHeaders());
  // Before the request histogram, so that scrapes are not counted; refused scrapes go on to a 404.
  app.use(metricsRoute(deps));
  app.use(requestMetrics(deps.state));

  // Not rate limited, no credentials needed.
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', (req, res) => {
    migrationsCurrent(deps.db).then(
      (current) => res.status(current ? 200 : 503).json({ status: current ? 'ready' : 'migrations pending' }),
      (err: unknown) => {
        req.log.warn({ err }, 'readiness check failed');
        res.status(503).json({ status: 'database unavailable' });
      },
    );
  });
  app.get('/', (_req, res) => res.redirect(302, '/docs'));
  app.use(docsRouter(OPENAPI_PATH));
  app.use(dashboardRouter());
  // API answers are per caller and may carry credentials or secrets: never stored by any cache.
  app.use('/v1', (_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });

  // Storefront widgets call the public loyalty interface from browsers; no other group is exposed.
  app.use('/v1/public', publicCors(deps.config.CORS_ORIGINS));
  app.use(resolveCredentials(deps));
  app.use(rateLimit(deps));
  app.use('/v1', refuseUnknownEnvironment);
  for (const module of deps.modules) module.pages?.(app, deps);
  // CSV imports take a file (text/csv or a form), read before the JSON rule.
  app.use('/v1/imports', importBody);
  for (const module of deps.modules)
    for (const upload of module.uploads ?? []) app.use(upload.path, upload.read);
  app.use(requireJsonBody);
  app.use(
    express.json({
      limit: '1mb',
      type: ['application/json', 'application/*+json'],
      verify: (req, _res, buf) => {
        // The parser would decode broken bytes as U+FFFD and store them so (docs/decisions.md D27).
        if (!isUtf8(buf)) throw notUtf8();
        req.rawBody = buf;
      },
    }),
  );
  app.use(refuseUnsafeText);
  for (const middleware of options.beforeRoutes ?? []) app.use(middleware);

  const endpointOptions: EndpointOptions = {
    logInitialization: false,
    globalMiddleware: [requireAuth(deps), idempotency(deps)],
    requestValidationErrorHandler: (err: RequestValidationError, req, _res, next) =>
      next(refusalOfRequest(err, req.query)),
  };
  // Express tries routes in the order they were added: the modules' order (server/domains.ts).
  for (const module of deps.modules) module.mount?.(app, deps, endpointOptions);

  app.use(notFoundRoute);
  app.use(errorHandler);
  return app;
}

/**
 * Security headers on every response (docs/decisions.md D38): nosniff, no referrer, no framing, HSTS.
 * Pages (the API reference) also get a Content-Security-Policy that lets them run only their own
 * scripts and styles from this origin, with no inline script and no third-party origin. JSON
 * answers are never rendered, so they skip the page-only headers and stay small on the hot paths.
 */
function securityHeaders(): RequestHandler {
  const common = {
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
  } as const;
  const forPages = helmet({
    ...common,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Swagger UI sets style attributes on its elements.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
  });
  const forApi = helmet({
    ...common,
    contentSecurityPolicy: false,
    crossOriginOpenerPolicy: false,
    crossOriginResourcePolicy: false,
    originAgentCluster: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  });
  return (req, res, next) => (req.path.startsWith('/v1/') ? forApi : forPages)(req, res, next);
}

/**
 * CORS for /v1/public/* from the configured origins: preflights are answered here (before
 * authentication, which a browser's preflight never carries); other origins get no CORS headers.
 */
function publicCors(origins: readonly string[]): RequestHandler {
  if (origins.length === 0) return (_req, _res, next) => next();
  /** An origin as a browser serialises it (lower-case scheme and host, no default port). */
  const originKey = (origin: string) => {
    try {
      return new URL(origin).origin;
    } catch {
      return origin;
    }
  };
  const any = origins.includes('*');
  const allowed = new Set(origins.filter((o) => o !== '*').map(originKey));
  const handler = cors({
    origin: (origin, callback) =>
      callback(null, origin !== undefined && (any || allowed.has(originKey(origin)))),
    methods: ['GET', 'POST'],
    allowedHeaders: ['X-Api-Key', 'Content-Type', 'Idempotency-Key', 'X-Request-Id'],
    exposedHeaders: [
      'X-Request-Id',
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
      'Retry-After',
      'Idempotent-Replayed',
    ],
    maxAge: 600,
  });
  return (req, res, next) => {
    // The CORS headers depend on Origin, also when there are none (another or no origin): a shared
    // cache must not hand an answer without them to an allowed origin.
    res.vary('Origin');
    handler(req, res, next);
  };
}

function trustProxy(value: string): boolean | number | string {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}
