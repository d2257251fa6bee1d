import { createExpressEndpoints } from '@ts-rest/express';
import { withCsvExports } from '../platform/exports.js';
import { contract } from '../../contract/index.js';
import type { DomainModule } from '../platform/module.js';
import { runMovedClocks } from './clock/service.js';
import { sandboxRoutes } from './routes.js';

type Options = Parameters<typeof createExpressEndpoints<typeof contract.sandbox>>[3];

const MINUTE = 60_000;

/**
 * The staging sandbox (docs/decisions.md D73 to D83): captured mail, reset with demo data, the test clock.
 * The sandbox itself is a business of its own (`environment = 'sandbox'`), made at the first sandbox sign-in
 * (auth); this module holds only what an integrator does to it.
 */
export const sandboxModule: DomainModule = {
  name: 'sandbox',
  // A router whose every route has a typed query reads Express's untyped middleware as narrower
  // than it is; the middleware (authentication, idempotency) takes any request.
  mount: (app, deps, options) =>
    createExpressEndpoints(
      contract.sandbox,
      withCsvExports(deps, contract.sandbox, sandboxRoutes(deps)),
      app,
      options as unknown as Options,
    ),
  periodic: [{ name: 'sandbox clocks', everyMs: () => MINUTE, run: runMovedClocks }],
};
