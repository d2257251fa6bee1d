import { createExpressEndpoints } from '@ts-rest/express';
import { contract } from '../../contract/index.js';
import type { DomainModule } from '../platform/module.js';
import { importRoutes } from './routes.js';

type Options = Parameters<typeof createExpressEndpoints<typeof contract.imports>>[3];

/**
 * CSV imports (docs/decisions.md D160): `POST /v1/imports/{kind}`. The platform reads and checks the file
 * (server/platform/imports.ts); each domain names what it imports and writes it through its own
 * services (its module's `imports`); this module only serves the routes.
 */
export const importsModule: DomainModule = {
  name: 'imports',
  mount: (app, deps, options) =>
    createExpressEndpoints(contract.imports, importRoutes(deps), app, options as unknown as Options),
};
