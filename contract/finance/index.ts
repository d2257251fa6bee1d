import { initContract } from '@ts-rest/core';
import { accountsContract } from './accounts.js';
import { bankAccountsContract } from './bank-accounts.js';
import { bankRulesContract, bankTransactionsContract } from './bank-transactions.js';
import { billsContract } from './bills.js';
import { booksContract } from './books.js';
import { exchangeRatesContract, revaluationsContract } from './exchange-rates.js';
import { journalContract } from './journal.js';
import { recurringBillsContract } from './recurring-bills.js';
import { reportsContract } from './reports.js';
import { vatContract } from './vat.js';
import { vendorsContract } from './vendors.js';

const c = initContract();

/**
 * The finance domain: one router per resource.
 * Typed by the resources' routers, so that declaration files name them rather than spell every
 * route out again.
 */
export const financeContract: {
  vendors: typeof vendorsContract;
  bills: typeof billsContract;
  accounts: typeof accountsContract;
  journal: typeof journalContract;
  reports: typeof reportsContract;
  vat: typeof vatContract;
  recurringBills: typeof recurringBillsContract;
  bankAccounts: typeof bankAccountsContract;
  bankTransactions: typeof bankTransactionsContract;
  bankRules: typeof bankRulesContract;
  books: typeof booksContract;
  exchangeRates: typeof exchangeRatesContract;
  revaluations: typeof revaluationsContract;
} = c.router({
  vendors: vendorsContract,
  bills: billsContract,
  accounts: accountsContract,
  journal: journalContract,
  reports: reportsContract,
  vat: vatContract,
  recurringBills: recurringBillsContract,
  bankAccounts: bankAccountsContract,
  bankTransactions: bankTransactionsContract,
  bankRules: bankRulesContract,
  books: booksContract,
  exchangeRates: exchangeRatesContract,
  revaluations: revaluationsContract,
});

export * from './accounts.js';
export * from './bank-accounts.js';
export * from './bank-transactions.js';
export * from './bills.js';
export * from './books.js';
export * from './exchange-rates.js';
export * from './journal.js';
export * from './recurring-bills.js';
export * from './reports.js';
export * from './shared.js';
export * from './vat.js';
export * from './vendors.js';
