import { createExpressEndpoints } from '@ts-rest/express';
import { contract } from '../../contract/index.js';
import type { DomainModule } from '../platform/module.js';
import { marketingRoutes } from './routes.js';

export { compileTemplate, type MergeFields } from './render.js';

/** Marketing: sender domains, segments of contacts and email templates. */
export const marketingModule: DomainModule = {
  name: 'marketing',
  mount: (app, deps, options) =>
    createExpressEndpoints(contract.marketing, marketingRoutes(deps), app, options),
};
