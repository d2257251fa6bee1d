import { createExpressEndpoints } from '@ts-rest/express';
import { contract } from '../../contract/index.js';
import type { DomainModule } from '../platform/module.js';
import { seedGeneralDemo } from './demo.js';
import { generalRoutes } from './routes.js';

/** The general group: customers, products, invoices. It announces the invoice hooks. */
export const generalModule: DomainModule = {
  name: 'general',
  tables: [
    'customers',
    'products',
    'invoices',
    'invoice_items',
    'payments',
    'quotes',
    'quote_items',
    'sequences',
  ],
  views: ['customer_directory'],
  mount: (app, deps, options) => createExpressEndpoints(contract.general, generalRoutes(deps), app, options),
  seedDemo: seedGeneralDemo,
};

export { customerForEmail, unsubscribeCustomer } from './customers/service.js';
export { salesItems, type SalesItem } from './invoices/sales.js';
