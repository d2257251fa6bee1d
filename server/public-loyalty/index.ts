import { createExpressEndpoints } from '@ts-rest/express';
import { withCsvExports } from '../platform/exports.js';
import { contract } from '../../contract/index.js';
import type { DomainModule } from '../platform/module.js';
import { publicLoyaltyRoutes } from './routes.js';

/** The public loyalty interface of points of sale and storefronts (`X-Api-Key`). */
export const publicLoyaltyModule: DomainModule = {
  name: 'public-loyalty',
  mount: (app, deps, options) =>
    createExpressEndpoints(
      contract.publicLoyalty,
      withCsvExports(deps, contract.publicLoyalty, publicLoyaltyRoutes(deps)),
      app,
      options,
    ),
};
