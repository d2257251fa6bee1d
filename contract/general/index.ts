import { initContract } from '@ts-rest/core';
import { ROUTER_OPTIONS } from '../common/metadata.js';
import { customersContract } from './customers.js';
import { invoicesContract } from './invoices.js';
import { productsContract } from './products.js';

const c = initContract();

export const generalContract = c.router(
  {
    customers: customersContract,
    products: productsContract,
    invoices: invoicesContract,
  },
  ROUTER_OPTIONS,
);

export * from './customers.js';
export * from './invoices.js';
export * from './products.js';
