import { createExpressEndpoints } from '@ts-rest/express';
import { withCsvExports } from '../platform/exports.js';
import { contract } from '../../contract/index.js';
import type { DomainModule } from '../platform/module.js';
import { auditRoutes } from './routes.js';

type Options = Parameters<typeof createExpressEndpoints<typeof contract.auditLog>>[3];

/**
 * The audit log's reading (docs/decisions.md D59). The platform writes the trail (server/platform/audit.ts,
 * its table `audit_log` is the platform's); this module only serves `GET /v1/audit-log`.
 */
export const auditModule: DomainModule = {
  name: 'audit',
  // A router whose every route has a typed query reads Express's untyped middleware as narrower
  // than it is; the middleware (authentication, idempotency) takes any request.
  mount: (app, deps, options) =>
    createExpressEndpoints(
      contract.auditLog,
      withCsvExports(deps, contract.auditLog, auditRoutes(deps)),
      app,
      options as unknown as Options,
    ),
};
