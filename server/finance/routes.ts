import { initServer } from '@ts-rest/express';
import type { Response } from 'express';
import { contract } from '../../contract/index.js';
import { created, ok, success } from '../platform/answers.js';
import { ctxFor, type Deps } from '../platform/deps.js';
import * as accounts from './accounts/service.js';
import * as bankAccounts from './bank-accounts/service.js';
import { reconciliation } from './bank-accounts/reconciliation.js';
import { importStatement } from './bank-accounts/statements.js';
import * as bankRules from './bank-rules/service.js';
import * as bankTransactions from './bank-transactions/service.js';
import { suggestionsFor } from './bank-transactions/suggestions.js';
import * as bills from './bills/service.js';
import * as exchangeRates from './exchange-rates/service.js';
import * as revaluations from './revaluations/service.js';
import * as books from './books/service.js';
import * as booksPdf from './books/pdf.js';
import * as journal from './journal/service.js';
import * as recurringBills from './recurring-bills/service.js';
import * as reports from './reports/service.js';
import * as vat from './vat/service.js';
import * as vendors from './vendors/service.js';

const s = initServer();

/** A PDF answer, shown in the browser and saved under its file name. */
function pdf(res: Response, file: { filename: string; content: Buffer }) {
  res.setHeader('Content-Disposition', `inline; filename="${file.filename}"`);
  return { status: 200 as const, body: file.content as unknown as Blob };
}

export const financeRoutes = (deps: Deps) => {
  const ctx = ctxFor(deps);
  return s.router(contract.finance, {
    vendors: {
      listVendors: async ({ query, req }) => ok(success(await vendors.listVendors(ctx(req), query))),
      createVendor: async ({ body, req }) => {
        const vendor = await vendors.createVendor(ctx(req), body);
        return created(success({ vendor_id: vendor.id, message: 'Vendor created', vendor }));
      },
      getVendor: async ({ params, req }) =>
        ok(success({ vendor: await vendors.getVendor(ctx(req), params.id) })),
      updateVendor: async ({ params, body, req }) =>
        ok(
          success({
            message: 'Vendor updated',
            vendor: await vendors.updateVendor(ctx(req), params.id, body),
          }),
        ),
    },
    bankAccounts: {
      listBankAccounts: async ({ query, req }) =>
        ok(success(await bankAccounts.listBankAccounts(ctx(req), query))),
      createBankAccount: async ({ body, req }) =>
        created(
          success({
            message: 'Bank account created',
            bank_account: await bankAccounts.createBankAccount(ctx(req), body),
          }),
        ),
      getBankAccount: async ({ params, req }) =>
        ok(success({ bank_account: await bankAccounts.getBankAccount(ctx(req), params.id) })),
      updateBankAccount: async ({ params, body, req }) =>
        ok(
          success({
            message: 'Bank account updated',
            bank_account: await bankAccounts.updateBankAccount(ctx(req), params.id, body),
          }),
        ),
      importStatement: async ({ params, query, body, req }) =>
        ok(success({ report: await importStatement(ctx(req), params.id, body, query) })),
      getReconciliation: async ({ params, query, req }) =>
        ok(success({ reconciliation: await reconciliation(ctx(req), params.id, query.as_of) })),
    },
    bankTransactions: {
      listBankTransactions: async ({ query, req }) =>
        ok(success(await bankTransactions.listBankTransactions(ctx(req), query))),
      acceptBankSuggestions: async ({ body, req }) => {
        const accepted = await bankTransactions.acceptBankSuggestions(ctx(req), body);
        return ok(success({ message: `${accepted} suggestions accepted`, accepted }));
      },
      getBankTransaction: async ({ params, req }) =>
        ok(success({ bank_transaction: await bankTransactions.getBankTransaction(ctx(req), params.id) })),
      getBankTransactionSuggestions: async ({ params, req }) =>
        ok(success({ suggestions: await suggestionsFor(ctx(req), params.id) })),
      matchBankTransaction: async ({ params, body, req }) =>
        ok(
          success({
            message: 'Line matched',
            bank_transaction: await bankTransactions.matchBankTransaction(ctx(req), params.id, body),
          }),
        ),
      categoriseBankTransaction: async ({ params, body, req }) =>
        ok(
          success({
            message: 'Line categorised',
            bank_transaction: await bankTransactions.categoriseBankTransaction(ctx(req), params.id, body),
          }),
        ),
      excludeBankTransaction: async ({ params, req }) =>
        ok(
          success({
            message: 'Line excluded',
            bank_transaction: await bankTransactions.excludeBankTransaction(ctx(req), params.id),
          }),
        ),
      unmatchBankTransaction: async ({ params, req }) =>
        ok(
          success({
            message: 'Match undone',
            bank_transaction: await bankTransactions.unmatchBankTransaction(ctx(req), params.id),
          }),
        ),
    },
    exchangeRates: {
      listExchangeRates: async ({ query, req }) =>
        ok(success(await exchangeRates.listExchangeRates(ctx(req), query))),
      createExchangeRate: async ({ body, req }) =>
        created(
          success({
            message: 'Exchange rate set',
            exchange_rate: await exchangeRates.createExchangeRate(ctx(req), body),
          }),
        ),
      lookupExchangeRate: async ({ query, req }) =>
        ok(success({ exchange_rate: await exchangeRates.lookupExchangeRate(ctx(req), query) })),
    },
    revaluations: {
      createRevaluation: async ({ body, req }) =>
        created(
          success({
            message: 'Revaluation posted',
            revaluation: await revaluations.createRevaluation(ctx(req), body),
          }),
        ),
      listRevaluations: async ({ query, req }) =>
        ok(success(await revaluations.listRevaluations(ctx(req), query))),
    },
    bankRules: {
      listBankRules: async ({ query, req }) => ok(success(await bankRules.listBankRules(ctx(req), query))),
      createBankRule: async ({ body, req }) => {
        const { rule, suggested } = await bankRules.createBankRule(ctx(req), body);
        return created(success({ message: 'Bank rule created', bank_rule: rule, suggested }));
      },
      getBankRule: async ({ params, req }) =>
        ok(success({ bank_rule: await bankRules.getBankRule(ctx(req), params.id) })),
      updateBankRule: async ({ params, body, req }) =>
        ok(
          success({
            message: 'Bank rule updated',
            bank_rule: await bankRules.updateBankRule(ctx(req), params.id, body),
          }),
        ),
      deleteBankRule: async ({ params, req }) => {
        await bankRules.deleteBankRule(ctx(req), params.id);
        return ok(success({ message: 'Bank rule deleted' }));
      },
    },
    bills: {
      listBills: async ({ query, req }) => ok(success(await bills.listBills(ctx(req), query))),
      createBill: async ({ body, req }) => {
        const bill = await bills.createBill(ctx(req), body);
        return created(success({ bill_id: bill.id, message: 'Bill created', bill }));
      },
      getBill: async ({ params, req }) => ok(success({ bill: await bills.getBill(ctx(req), params.id) })),
      updateBill: async ({ params, body, req }) =>
        ok(success({ message: 'Bill updated', bill: await bills.updateBill(ctx(req), params.id, body) })),
      deleteBill: async ({ params, req }) => {
        await bills.deleteBill(ctx(req), params.id);
        return ok(success({ message: 'Bill deleted' }));
      },
      approveBill: async ({ params, req }) =>
        ok(success({ message: 'Bill approved', bill: await bills.approveBill(ctx(req), params.id) })),
      voidBill: async ({ params, req }) =>
        ok(success({ message: 'Bill voided', bill: await bills.voidBill(ctx(req), params.id) })),
      payBill: async ({ params, body, req }) =>
        ok(success({ message: 'Payment recorded', ...(await bills.payBill(ctx(req), params.id, body)) })),
    },
    recurringBills: {
      listRecurringBills: async ({ query, req }) =>
        ok(success(await recurringBills.listRecurringBills(ctx(req), query))),
      createRecurringBill: async ({ body, req }) => {
        const schedule = await recurringBills.createRecurringBill(ctx(req), body);
        return created(
          success({
            recurring_bill_id: schedule.id,
            message: 'Recurring bill created',
            recurring_bill: schedule,
          }),
        );
      },
      getRecurringBill: async ({ params, req }) =>
        ok(success({ recurring_bill: await recurringBills.getRecurringBill(ctx(req), params.id) })),
      updateRecurringBill: async ({ params, body, req }) =>
        ok(
          success({
            message: 'Recurring bill updated',
            recurring_bill: await recurringBills.updateRecurringBill(ctx(req), params.id, body),
          }),
        ),
      pauseRecurringBill: async ({ params, req }) =>
        ok(
          success({
            message: 'Recurring bill paused',
            recurring_bill: await recurringBills.pauseRecurringBill(ctx(req), params.id),
          }),
        ),
      resumeRecurringBill: async ({ params, req }) =>
        ok(
          success({
            message: 'Recurring bill resumed',
            recurring_bill: await recurringBills.resumeRecurringBill(ctx(req), params.id),
          }),
        ),
      endRecurringBill: async ({ params, req }) =>
        ok(
          success({
            message: 'Recurring bill ended',
            recurring_bill: await recurringBills.endRecurringBill(ctx(req), params.id),
          }),
        ),
    },
    accounts: {
      listAccounts: async ({ req }) => ok(success({ accounts: await accounts.listAccounts(ctx(req)) })),
      createAccount: async ({ body, req }) =>
        created(
          success({ message: 'Account created', account: await accounts.createAccount(ctx(req), body) }),
        ),
      getTrialBalance: async ({ query, req }) =>
        ok(success({ data: await accounts.getTrialBalance(ctx(req), query) })),
    },
    books: {
      getBalanceSheet: async ({ query, req }) => ok(success(await books.balanceSheet(ctx(req), query))),
      getBalanceSheetPdf: async ({ query, req, res }) =>
        pdf(res, await booksPdf.balanceSheetPdf(ctx(req), query)),
      getProfitLossPdf: async ({ query, req, res }) =>
        pdf(res, await booksPdf.profitLossPdf(ctx(req), query)),
      getCashFlow: async ({ query, req }) => ok(success(await books.cashFlow(ctx(req), query))),
      getAgedReceivables: async ({ query, req }) => ok(success(await books.agedReceivables(ctx(req), query))),
      getAgedPayables: async ({ query, req }) => ok(success(await books.agedPayables(ctx(req), query))),
      getGeneralLedger: async ({ query, req }) => ok(success(await books.generalLedger(ctx(req), query))),
      getVatReturn: async ({ query, req }) => ok(success(await books.vatReturn(ctx(req), query))),
      getLockDate: async ({ req }) => ok(success({ data: await books.getLockDate(ctx(req)) })),
      setLockDate: async ({ body, req }) => {
        const data = await books.setLockDate(ctx(req), req.auth?.role, body.lock_date);
        const message = data.lock_date
          ? `The books are locked up to and including ${data.lock_date}`
          : 'No period is locked';
        return ok(success({ message, data }));
      },
    },
    reports: {
      getSalesSchedule: async ({ query, req }) =>
        ok(success({ data: await reports.salesSchedule(ctx(req), query) })),
      getRevenueCalculator: async ({ query, req }) =>
        ok(success({ data: await reports.revenueCalculator(ctx(req), query) })),
      getProfitLoss: async ({ query, req }) => ok({ data: await reports.profitLoss(ctx(req), query) }),
    },
    vat: {
      getVatThreshold: async ({ req }) => ok(success({ data: await vat.getVatThreshold(ctx(req)) })),
      createVatThreshold: async ({ body, req }) =>
        created(success({ data: await vat.createVatThreshold(ctx(req), body) })),
      updateVatThreshold: async ({ params, body, req }) =>
        ok(success({ data: await vat.updateVatThreshold(ctx(req), params.publicId, body) })),
      markVatRegistered: async ({ params, body, req }) =>
        ok(success({ data: await vat.markVatRegistered(ctx(req), params.publicId, body) })),
    },
    journal: {
      listJournal: async ({ query, req }) => ok(success(await journal.listJournal(ctx(req), query))),
      createJournalEntry: async ({ body, req }) => {
        const entry = await journal.createManualEntry(ctx(req), body);
        return created(success({ entry_id: entry.id, message: 'Entry posted', entry }));
      },
    },
  });
};
