import { expect } from 'vitest';
import { contract, unwrap } from '../../client/index.js';
import { registerBusiness, type TestBusiness } from '../support/business.js';
import {
  billBody,
  billOf,
  createAccount,
  createBill,
  createEntry,
  createRecurringBill,
  createVendor,
  uniqueAccountCode,
} from '../support/finance.js';
import { describeRouteSecurity, type Answer } from '../support/security.js';
import { useTestServer } from '../support/setup.js';

const server = useTestServer({ worker: false });

const {
  vendors,
  bankAccounts,
  bankTransactions,
  bankRules,
  bills,
  recurringBills,
  accounts,
  journal,
  reports,
  vat,
  books,
  exchangeRates,
  revaluations,
} = contract.finance;

/** A day not yet revalued: a revaluation is once per business and day. */
let revaluationDay = 0;
const nextRevaluationDay = () => {
  const day = new Date(Date.UTC(2020, 0, 1) + 86_400_000 * revaluationDay++);
  return day.toISOString().slice(0, 10);
};

/** A list another business filtered by this business's ids or codes: answered, and empty. */
const emptyList =
  (key: 'bills' | 'entries' | 'recurring_bills' | 'bank_transactions') =>
  (answer: Answer): void => {
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ result: 'success', [key]: [], total_count: 0 });
  };

/** An account of the business's own (not of the default chart), with one entry on it. */
async function usedAccount(t: TestBusiness): Promise<string> {
  const { code } = await createAccount(t.client, { type: 'equity', name: 'Owner capital' });
  await createEntry(t.client, {
    debits: [{ account: '1010', amount: 1_000 }],
    credits: [{ account: code, amount: 1_000 }],
  });
  return code;
}

const draftOf = (t: TestBusiness) => createBill(t.client, { status: 'draft' });

/** A monthly recurring bill of a new vendor, starting far enough ahead to be "today or later". */
const recurringOf = (t: TestBusiness) => createRecurringBill(t.client, { start_date: '2099-01-01' });

const VAT_THRESHOLD = {
  country: 'GB',
  thresholdAmount: 9_000_000,
  currency: 'GBP',
  periodType: 'rolling_12_months' as const,
  alertAtPercentage: 80,
  alertEmail: 'accounts@example.com',
};

/** The business's VAT threshold configuration (made when it has none): its publicId. */
async function vatThreshold(t: TestBusiness): Promise<string> {
  const current = (await unwrap(t.client.finance.vat.getVatThreshold())).data;
  if (current) return current.publicId;
  return (await unwrap(t.client.finance.vat.createVatThreshold({ body: VAT_THRESHOLD }))).data.publicId;
}

async function bankAccountOf(client: TestBusiness['client']): Promise<string> {
  const body = { name: 'Current account', currency: 'USD', opening_balance: 1000 };
  return (await unwrap(client.finance.bankAccounts.createBankAccount({ body }))).bank_account.id;
}

const MAPPING = JSON.stringify({ date: 'Date', description: 'Details', amount: 'Amount' });

/** A bank account with a statement of one line of `amount` (major units, negative money out). */
async function statementLineOf(
  client: TestBusiness['client'],
  amount = '-50.00',
): Promise<{ bankAccountId: string; lineId: string }> {
  const bankAccountId = await bankAccountOf(client);
  const file = new File([`Date,Details,Amount\n2026-11-30,Monthly fee,${amount}\n`], 'statement.csv');
  await unwrap(
    client.finance.bankAccounts.importStatement({
      params: { id: bankAccountId },
      query: { mapping: MAPPING },
      body: { file },
    }),
  );
  const lines = await unwrap(
    client.finance.bankTransactions.listBankTransactions({ query: { bank_account_id: bankAccountId } }),
  );
  return { bankAccountId, lineId: lines.bank_transactions[0]!.id };
}

/** A statement line already categorised to 5000, ready to be unmatched. */
async function categorisedLineOf(client: TestBusiness['client']): Promise<string> {
  const { lineId } = await statementLineOf(client);
  await unwrap(
    client.finance.bankTransactions.categoriseBankTransaction({
      params: { id: lineId },
      body: { account_code: '5000' },
    }),
  );
  return lineId;
}

async function bankRuleOf(client: TestBusiness['client']): Promise<string> {
  const body = { description_contains: 'fee', account_code: '5000' };
  return (await unwrap(client.finance.bankRules.createBankRule({ body }))).bank_rule.id;
}

describeRouteSecurity({
  server,
  tenant: registerBusiness,
  router: contract.finance,
  routes: (route) => [
    route(vendors.listVendors, async () => ({ query: {} })),
    route(vendors.createVendor, async () => ({ body: { name: 'Initech', currency: 'USD' } })),
    route(vendors.getVendor, async (t) => ({ params: { id: (await createVendor(t.client)).id } })),
    route(vendors.updateVendor, async (t) => ({
      params: { id: (await createVendor(t.client)).id },
      body: { phone: '+1 555 0100' },
    })),

    route(bankAccounts.listBankAccounts, async () => ({ query: {} })),
    route(bankAccounts.createBankAccount, async () => ({
      body: { name: 'Current account', currency: 'USD' },
    })),
    route(bankAccounts.getBankAccount, async (t) => ({ params: { id: await bankAccountOf(t.client) } })),
    route(bankAccounts.updateBankAccount, async (t) => ({
      params: { id: await bankAccountOf(t.client) },
      body: { name: 'Renamed account' },
    })),
    // The checks send a string body as the file itself (`text/csv`); the contract types it as a form's File.
    route(
      bankAccounts.importStatement,
      async (t) =>
        ({
          params: { id: await bankAccountOf(t.client) },
          query: { mapping: MAPPING },
          body: 'Date,Details,Amount\n2026-11-30,Monthly fee,-2.50\n',
        }) as never,
    ),
    route(bankAccounts.getReconciliation, async (t) => ({
      params: { id: await bankAccountOf(t.client) },
      query: { as_of: '2026-12-31' },
    })),

    route(
      bankTransactions.listBankTransactions,
      async (t) => ({
        query: { bank_account_id: (await statementLineOf(t.client)).bankAccountId },
      }),
      { otherBusiness: emptyList('bank_transactions') },
    ),
    route(bankTransactions.acceptBankSuggestions, async (t) => ({
      body: { bank_account_id: (await statementLineOf(t.client)).bankAccountId },
    })),
    route(bankTransactions.getBankTransaction, async (t) => ({
      params: { id: (await statementLineOf(t.client)).lineId },
    })),
    route(bankTransactions.getBankTransactionSuggestions, async (t) => ({
      params: { id: (await statementLineOf(t.client)).lineId },
    })),
    route(bankTransactions.matchBankTransaction, async (t) => {
      const bill = await billOf(t.client, 5_000);
      return {
        params: { id: (await statementLineOf(t.client)).lineId },
        body: { matches: [{ bill_id: bill.id, amount: 5_000 }] },
      };
    }),
    route(bankTransactions.categoriseBankTransaction, async (t) => ({
      params: { id: (await statementLineOf(t.client)).lineId },
      body: { account_code: '5000' },
    })),
    route(bankTransactions.excludeBankTransaction, async (t) => ({
      params: { id: (await statementLineOf(t.client)).lineId },
    })),
    route(bankTransactions.unmatchBankTransaction, async (t) => ({
      params: { id: await categorisedLineOf(t.client) },
    })),

    route(bankRules.listBankRules, async () => ({ query: {} })),
    route(bankRules.createBankRule, async () => ({
      body: { description_contains: 'fee', account_code: '5000' },
    })),
    route(bankRules.getBankRule, async (t) => ({ params: { id: await bankRuleOf(t.client) } })),
    route(bankRules.updateBankRule, async (t) => ({
      params: { id: await bankRuleOf(t.client) },
      body: { account_code: '5000' },
    })),
    route(bankRules.deleteBankRule, async (t) => ({ params: { id: await bankRuleOf(t.client) } })),

    route(bills.listBills, async (t) => ({ query: { vendor_id: (await createBill(t.client)).vendor_id } }), {
      otherBusiness: emptyList('bills'),
    }),
    // Another business's vendor is no vendor of the caller's: 422 naming vendor_id.
    route(
      bills.createBill,
      async (t) => ({ body: billBody({ vendor_id: (await createVendor(t.client)).id }) }),
      { otherBusiness: { status: 422, code: 'VALIDATION_ERROR', field: 'vendor_id' } },
    ),
    route(bills.getBill, async (t) => ({ params: { id: (await createBill(t.client)).id } })),
    route(bills.updateBill, async (t) => ({
      params: { id: (await draftOf(t)).id },
      body: { due_date: '2027-01-15' },
    })),
    route(bills.deleteBill, async (t) => ({ params: { id: (await draftOf(t)).id } })),
    route(bills.approveBill, async (t) => ({ params: { id: (await draftOf(t)).id } })),
    route(bills.voidBill, async (t) => ({ params: { id: (await createBill(t.client)).id } })),
    route(bills.payBill, async (t) => ({
      params: { id: (await billOf(t.client, 5_000)).id },
      body: { amount: 2_000, payment_method: 'cash' as const, payment_date: '2026-11-30' },
    })),

    route(
      recurringBills.listRecurringBills,
      async (t) => ({ query: { vendor_id: (await recurringOf(t)).vendor_id } }),
      { otherBusiness: emptyList('recurring_bills') },
    ),
    // Another business's vendor is no vendor of the caller's: 422 naming vendor_id.
    route(
      recurringBills.createRecurringBill,
      async (t) => ({
        body: {
          vendor_id: (await createVendor(t.client)).id,
          items: [{ description: 'Rent', quantity: 1, unit_price: 100_000 }],
          interval: 'month' as const,
          start_date: '2099-01-01',
        },
      }),
      { otherBusiness: { status: 422, code: 'VALIDATION_ERROR', field: 'vendor_id' } },
    ),
    route(recurringBills.getRecurringBill, async (t) => ({ params: { id: (await recurringOf(t)).id } })),
    route(recurringBills.updateRecurringBill, async (t) => ({
      params: { id: (await recurringOf(t)).id },
      body: { due_days: 14 },
    })),
    route(recurringBills.pauseRecurringBill, async (t) => ({ params: { id: (await recurringOf(t)).id } })),
    route(recurringBills.resumeRecurringBill, async (t) => ({ params: { id: (await recurringOf(t)).id } })),
    route(recurringBills.endRecurringBill, async (t) => ({ params: { id: (await recurringOf(t)).id } })),

    route(accounts.listAccounts, async () => ({})),
    route(accounts.createAccount, async () => ({
      body: { code: uniqueAccountCode(), name: 'Rent', type: 'expense' as const },
    })),
    route(accounts.getTrialBalance, async () => ({ query: { as_of: '2026-12-31' } })),

    // Another business has no such account: its journal filtered by it is empty.
    route(journal.listJournal, async (t) => ({ query: { account: await usedAccount(t) } }), {
      otherBusiness: emptyList('entries'),
    }),
    // Nor can it post to one: 422 naming the side that names it.
    route(
      journal.createJournalEntry,
      async (t) => {
        const { code } = await createAccount(t.client, { type: 'equity' });
        return {
          body: {
            date: '2026-11-30',
            description: 'Owner investment',
            debits: [{ account: code, amount: 2_500 }],
            credits: [{ account: '4000', amount: 2_500 }],
          },
        };
      },
      { otherBusiness: { status: 422, code: 'VALIDATION_ERROR', field: 'debits' } },
    ),

    route(reports.getSalesSchedule, async () => ({
      query: { startDate: '2026-01-01', endDate: '2026-12-31' },
    })),
    route(reports.getRevenueCalculator, async () => ({ query: {} })),
    route(reports.getProfitLoss, async () => ({
      query: { start_date: '2026-01-01', end_date: '2026-12-31' },
    })),

    route(books.getBalanceSheet, async () => ({ query: { as_of: '2026-12-31' } })),
    route(books.getBalanceSheetPdf, async () => ({ query: { as_of: '2026-12-31' } })),
    route(books.getProfitLossPdf, async () => ({
      query: { start_date: '2026-01-01', end_date: '2026-12-31' },
    })),
    route(books.getCashFlow, async () => ({ query: { start_date: '2026-01-01', end_date: '2026-12-31' } })),
    route(books.getAgedReceivables, async () => ({ query: {} })),
    route(books.getAgedPayables, async () => ({ query: {} })),
    // Another business has no such account: 422 naming it.
    route(
      books.getGeneralLedger,
      async (t) => ({
        query: { account: await usedAccount(t), start_date: '2026-01-01', end_date: '2026-12-31' },
      }),
      { otherBusiness: { status: 422, code: 'VALIDATION_ERROR', field: 'account' } },
    ),
    route(books.getVatReturn, async () => ({ query: { start_date: '2026-01-01', end_date: '2026-12-31' } })),
    route(books.getLockDate, async () => ({})),
    route(books.setLockDate, async () => ({ body: { lock_date: '2020-01-31' } })),

    route(exchangeRates.listExchangeRates, async () => ({ query: {} })),
    route(exchangeRates.createExchangeRate, async () => ({
      body: { currency: 'EUR', date: '2026-11-02', rate: '1.05' },
    })),
    route(exchangeRates.lookupExchangeRate, async () => ({ query: { currency: 'EUR', date: '2026-11-02' } })),
    route(revaluations.createRevaluation, async () => ({ body: { as_of: nextRevaluationDay() } })),
    route(revaluations.listRevaluations, async () => ({ query: {} })),

    route(vat.getVatThreshold, async () => ({})),
    // One configuration per business: each request is built for a business that has none.
    route(vat.createVatThreshold, async (t) => {
      await server()
        .deps.db.deleteFrom('finance_vat_thresholds')
        .where('business_id', '=', t.businessId)
        .execute();
      return { body: VAT_THRESHOLD };
    }),
    route(vat.updateVatThreshold, async (t) => ({
      params: { publicId: await vatThreshold(t) },
      body: { alertAtPercentage: 90 },
    })),
    route(vat.markVatRegistered, async (t) => ({
      params: { publicId: await vatThreshold(t) },
      body: { registrationDate: '2026-12-01', registrationNumber: 'GB123456789' },
    })),
  ],
});
