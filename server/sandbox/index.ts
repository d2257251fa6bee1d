import { createExpressEndpoints } from '@ts-rest/express';
import { contract } from '../../contract/index.js';
import type { DomainModule } from '../platform/module.js';
import { sandboxRoutes } from './routes.js';

type Options = Parameters<typeof createExpressEndpoints<typeof contract.sandbox>>[3];

/** The sandbox: what an integrator tests against (captured mail). */
export const sandboxModule: DomainModule = {
  name: 'sandbox',
  // A router whose every route has a typed query reads Express's untyped middleware as narrower
  // than it is; the middleware (authentication, idempotency) takes any request.
  mount: (app, deps, options) =>
    createExpressEndpoints(contract.sandbox, sandboxRoutes(deps), app, options as unknown as Options),
};
