import type { Deps } from '../platform/deps.js';
import { customersRoutes } from './customers/routes.js';
import { invoicesRoutes } from './invoices/routes.js';
import { productsRoutes } from './products/routes.js';
import { quotesRoutes } from './quotes/routes.js';

export const generalRoutes = (deps: Deps) => ({
  customers: customersRoutes(deps),
  products: productsRoutes(deps),
  invoices: invoicesRoutes(deps),
  quotes: quotesRoutes(deps),
});
