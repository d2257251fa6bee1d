import { createExpressEndpoints } from '@ts-rest/express';
import { contract } from '../../contract/index.js';
import type { DomainModule } from '../platform/module.js';
import { importRoutes } from './routes.js';

type Options = Parameters<typeof createExpressEndpoints<typeof contract.imports>>[3];

/**
 * CSV imports (docs/decisions.md D160): `POST /v1/imports/{kind}`. This module reads the file
 * (`body.ts`), checks it (`csv.ts`) and runs the import (`run.ts`); each domain names what it imports
 * (its module's `imports`, an `ImportTarget` of server/platform/import-target.ts) and writes it
 * through its own services.
 */
export const importsModule: DomainModule = {
  name: 'imports',
  mount: (app, deps, options) =>
    createExpressEndpoints(contract.imports, importRoutes(deps), app, options as unknown as Options),
};

export { importBody, uploadBody } from './body.js';
