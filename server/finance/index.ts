import { createExpressEndpoints } from '@ts-rest/express';
import { contract } from '../../contract/index.js';
import type { DomainModule } from '../platform/module.js';
import { invoicePostings } from './postings.js';
import { financeRoutes } from './routes.js';

/** Finance: vendors, bills and their payments, and the ledger every document posts to. */
export const financeModule: DomainModule = {
  name: 'finance',
  mount: (app, deps, options) => createExpressEndpoints(contract.finance, financeRoutes(deps), app, options),
  subscriptions: invoicePostings,
};
