import { initContract } from '@ts-rest/core';
import { creditNotesContract } from './credit-notes.js';
import { customersContract } from './customers.js';
import { invoicesContract } from './invoices.js';
import { paymentsContract } from './payments.js';
import { productsContract } from './products.js';
import { quotesContract } from './quotes.js';
import { statementsContract } from './statements.js';
import { recurringInvoicesContract } from './recurring-invoices.js';

const c = initContract();

/**
 * The general group: one router per resource.
 * Typed by the resources' routers, so that declaration files name them rather than spell every
 * route out again.
 */
export const generalContract: {
  customers: typeof customersContract;
  products: typeof productsContract;
  invoices: typeof invoicesContract;
  quotes: typeof quotesContract;
  creditNotes: typeof creditNotesContract;
  statements: typeof statementsContract;
  recurringInvoices: typeof recurringInvoicesContract;
  payments: typeof paymentsContract;
} = c.router({
  customers: customersContract,
  products: productsContract,
  invoices: invoicesContract,
  quotes: quotesContract,
  creditNotes: creditNotesContract,
  statements: statementsContract,
  recurringInvoices: recurringInvoicesContract,
  payments: paymentsContract,
});

export * from './credit-notes.js';
export * from './customers.js';
export * from './invoices.js';
export * from './payments.js';
export * from './products.js';
export * from './quotes.js';
export * from './statements.js';
export * from './recurring-invoices.js';
