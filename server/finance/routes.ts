import { initServer } from '@ts-rest/express';
import { contract } from '../../contract/index.js';
import { created, ok, success } from '../platform/answers.js';
import { ctxFor, type Deps } from '../platform/deps.js';
import * as accounts from './accounts/service.js';
import * as bankAccounts from './bank-accounts/service.js';
import * as bills from './bills/service.js';
import * as journal from './journal/service.js';
import * as recurringBills from './recurring-bills/service.js';
import * as reports from './reports/service.js';
import * as vat from './vat/service.js';
import * as vendors from './vendors/service.js';

const s = initServer();

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
