import { createExpressEndpoints } from '@ts-rest/express';
import express, { type Express, type RequestHandler } from 'express';
import { contract } from '../contract/index.js';
import { requireAuth, resolveCredentials } from './auth/middleware.js';
import { authRoutes } from './auth/routes.js';
import { notFoundRoute, rateLimit, requestContext, requireJsonBody } from './common/middleware.js';
import { migrationsCurrent } from './db/migrate.js';
import type { Deps } from './deps.js';
import { docsRouter } from './docs.js';
import { errorHandler } from './errors.js';
import { generalRoutes } from './general/routes.js';
import { loyaltyRoutes } from './loyalty/routes.js';
import { webhooksRoutes } from './webhooks/routes.js';

export const OPENAPI_PATH = new URL('../openapi.json', import.meta.url);

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
  app.use(docsRouter(OPENAPI_PATH));

  app.use(resolveCredentials(deps));
  app.use(rateLimit(deps));
  app.use(requireJsonBody);
  app.use(express.json({ limit: '1mb', type: ['application/json', 'application/*+json'] }));
  for (const middleware of options.beforeRoutes ?? []) app.use(middleware);

  createExpressEndpoints(
    contract,
    {
      auth: authRoutes(deps),
      general: generalRoutes(deps),
      webhooks: webhooksRoutes(deps),
      loyalty: loyaltyRoutes(deps),
    },
    app,
    {
      logInitialization: false,
      globalMiddleware: [requireAuth],
      requestValidationErrorHandler: (err, _req, _res, next) => next(err),
    },
  );

  app.use(notFoundRoute);
  app.use(errorHandler);
  return app;
}

function trustProxy(value: string): boolean | number | string {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}
