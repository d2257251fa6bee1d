import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { unwrap, type Client, type finance } from '../../client/index.js';
import type { TestServer } from './server.js';

/** Factories and reads of the finance domain: one factory per resource, each through the typed client. */

/** The default chart every business gets (docs/decisions.md D129, D270, D276), by code. */
export const DEFAULT_CHART: finance.Account[] = [
  { code: '1000', name: 'Cash', type: 'asset', cash_flow_group: 'cash', system: true },
  { code: '1010', name: 'Bank', type: 'asset', cash_flow_group: 'cash', system: true },
  { code: '1020', name: 'Mobile money', type: 'asset', cash_flow_group: 'cash', system: true },
  {
    code: '1030',
    name: 'Payment provider clearing',
    type: 'asset',
    cash_flow_group: 'operating',
    system: true,
  },
  { code: '1200', name: 'Accounts receivable', type: 'asset', cash_flow_group: 'operating', system: true },
  { code: '2000', name: 'Accounts payable', type: 'liability', cash_flow_group: 'operating', system: true },
  { code: '2200', name: 'VAT payable', type: 'liability', cash_flow_group: 'operating', system: true },
  { code: '2210', name: 'VAT receivable', type: 'asset', cash_flow_group: 'operating', system: true },
  { code: '2300', name: 'Customer credit', type: 'liability', cash_flow_group: 'operating', system: true },
  { code: '4000', name: 'Sales', type: 'revenue', cash_flow_group: 'operating', system: true },
  { code: '5000', name: 'Expenses', type: 'expense', cash_flow_group: 'operating', system: true },
];

/** A vendor: Acme Supplies billing in USD unless told. */
export async function createVendor(
  client: Client,
  overrides: Partial<finance.CreateVendorBody> = {},
): Promise<finance.Vendor> {
  const body = { name: 'Acme Supplies', currency: 'USD', ...overrides };
  return (await unwrap(client.finance.vendors.createVendor({ body }))).vendor;
}

/** A bill item: 4 boxes of printer paper at 29.99 (2999 minor units) unless told. */
export const billItem = (
  overrides: Partial<finance.CreateBillBody['items'][number]> = {},
): finance.CreateBillBody['items'][number] => ({
  description: 'Printer paper (box)',
  quantity: 4,
  unit_price: 2999,
  tax_rate: 0,
  ...overrides,
});

/** The body of a bill of `vendor_id`: one item (`billItem()`, 11996 minor units), USD, due 2026-12-31. */
export const billBody = (
  body: Partial<finance.CreateBillBody> & Pick<finance.CreateBillBody, 'vendor_id'>,
): finance.CreateBillBody => ({ items: [billItem()], currency: 'USD', due_date: '2026-12-31', ...body });

/** A bill (`billBody`) of `vendor_id`, or of a new vendor (`createVendor`) when not told: pending unless told. */
export async function createBill(
  client: Client,
  overrides: Partial<finance.CreateBillBody> = {},
): Promise<finance.Bill> {
  const vendor_id = overrides.vendor_id ?? (await createVendor(client)).id;
  return (await unwrap(client.finance.bills.createBill({ body: billBody({ ...overrides, vendor_id }) })))
    .bill;
}

/** A pending bill of one item worth exactly `amount` minor units (`createBill` otherwise). */
export const billOf = (client: Client, amount: number, overrides: Partial<finance.CreateBillBody> = {}) =>
  createBill(client, { items: [billItem({ quantity: 1, unit_price: amount })], ...overrides });

/**
 * A monthly recurring bill of one item of 120000 minor units (a new vendor's unless told) starting on
 * `start_date` (the business's today or later).
 */
export async function createRecurringBill(
  client: Client,
  body: Partial<finance.CreateRecurringBillBody> & Pick<finance.CreateRecurringBillBody, 'start_date'>,
): Promise<finance.RecurringBill> {
  const vendor_id = body.vendor_id ?? (await createVendor(client)).id;
  const full: finance.CreateRecurringBillBody = {
    items: [billItem({ description: 'Office rent', quantity: 1, unit_price: 120000 })],
    interval: 'month',
    ...body,
    vendor_id,
  };
  return (await unwrap(client.finance.recurringBills.createRecurringBill({ body: full }))).recurring_bill;
}

export async function getBill(client: Client, id: string): Promise<finance.Bill> {
  return (await unwrap(client.finance.bills.getBill({ params: { id } }))).bill;
}

export async function approveBill(client: Client, id: string): Promise<finance.Bill> {
  return (await unwrap(client.finance.bills.approveBill({ params: { id } }))).bill;
}

export async function voidBill(client: Client, id: string): Promise<finance.Bill> {
  return (await unwrap(client.finance.bills.voidBill({ params: { id } }))).bill;
}

/** A payment of `amount` minor units by bank transfer on 2026-11-30 unless told; returns the pay answer. */
export async function payBill(
  client: Client,
  id: string,
  amount: number,
  extra: Partial<finance.PayBillBody> = {},
) {
  const body: finance.PayBillBody = {
    amount,
    payment_method: 'bank_transfer',
    payment_date: '2026-11-30',
    ...extra,
  };
  return unwrap(client.finance.bills.payBill({ params: { id }, body }));
}

/** An account code no other test uses (`6` and seven hex digits). */
export const uniqueAccountCode = () => `6${randomBytes(4).toString('hex').slice(0, 7)}`;

/** An account: an expense account with a fresh code unless told. */
export async function createAccount(
  client: Client,
  overrides: Partial<finance.CreateAccountBody> = {},
): Promise<finance.Account> {
  const body = { code: uniqueAccountCode(), name: 'Rent', type: 'expense' as const, ...overrides };
  return (await unwrap(client.finance.accounts.createAccount({ body }))).account;
}

/** A manual entry: owner investment, Dr 1010 / Cr 1000 for 5000 on 2026-11-30 unless told. */
export async function createEntry(
  client: Client,
  overrides: Partial<finance.CreateJournalEntryBody> = {},
): Promise<finance.JournalEntry> {
  const body: finance.CreateJournalEntryBody = {
    date: '2026-11-30',
    description: 'Cash to the bank',
    debits: [{ account: '1010', amount: 5000 }],
    credits: [{ account: '1000', amount: 5000 }],
    ...overrides,
  };
  return (await unwrap(client.finance.journal.createJournalEntry({ body }))).entry;
}

export type JournalQuery = NonNullable<Parameters<Client['finance']['journal']['listJournal']>[0]>['query'];
export type BillsQuery = NonNullable<Parameters<Client['finance']['bills']['listBills']>[0]>['query'];

/** One page of the journal. */
export async function journalPage(client: Client, query: JournalQuery = {}) {
  return unwrap(client.finance.journal.listJournal({ query }));
}

/** Every entry of the journal matching `query`, page after page of 200, newest first. */
export async function journal(client: Client, query: JournalQuery = {}): Promise<finance.JournalEntry[]> {
  const entries: finance.JournalEntry[] = [];
  for (;;) {
    const page = await journalPage(client, { ...query, limit: 200, offset: entries.length });
    entries.push(...page.entries);
    if (page.entries.length < 200) return entries;
  }
}

/** The entries posted for a document (its own and its void), oldest first. */
export async function entriesOf(client: Client, sourceId: string): Promise<finance.JournalEntry[]> {
  return (await journal(client)).filter((e) => e.source.id === sourceId).reverse();
}

/** The one entry of this kind posted for a document; none or several fail the test. */
export async function entryOf(
  client: Client,
  type: finance.JournalEntry['source']['type'],
  sourceId: string,
): Promise<finance.JournalEntry> {
  const found = (await entriesOf(client, sourceId)).filter((e) => e.source.type === type);
  expect(found, `${type} entries of ${sourceId}`).toHaveLength(1);
  return found[0]!;
}

export async function trialBalance(
  client: Client,
  query: { as_of?: string; currency?: string } = {},
): Promise<finance.TrialBalance> {
  return (await unwrap(client.finance.accounts.getTrialBalance({ query }))).data;
}

/** An entry's lines as the test compares them: debits and credits, each by account. */
export const linesOf = (entry: finance.JournalEntry) => ({ debits: entry.debits, credits: entry.credits });

/** Debits and credits per account code, as the trial balance reports them. */
export type Movements = Record<string, { debit?: number; credit?: number }>;

/** Adds `amount` on one side of an account. */
export function move(m: Movements, account: string, side: 'debit' | 'credit', amount: number): void {
  const now = m[account] ?? {};
  now[side] = (now[side] ?? 0) + amount;
  m[account] = now;
}

/** Where a payment's money sits, by payment method (docs/decisions.md D131; card is a bank payment). */
export const CASH_ACCOUNT = {
  cash: '1000',
  bank_transfer: '1010',
  check: '1010',
  card: '1010',
  mobile_money: '1020',
} as const;

const DEBIT_NORMAL = new Set(['asset', 'expense']);

/**
 * The trial balance (`query`) is exactly `expected`: every account of the chart listed, those not
 * named with zeros, each balance on its normal side, total_debit = total_credit = the sums.
 */
export async function expectTrialBalance(
  client: Client,
  expected: Movements,
  query: { as_of?: string; currency?: string } = {},
): Promise<finance.TrialBalance> {
  const tb = await trialBalance(client, query);
  const chart = (await unwrap(client.finance.accounts.listAccounts())).accounts;
  expect(tb.accounts.map((a) => a.code)).toEqual(chart.map((a) => a.code));
  for (const code of Object.keys(expected)) expect(chart.map((a) => a.code)).toContain(code);
  let debits = 0;
  let credits = 0;
  const want = chart.map((account) => {
    const debit = expected[account.code]?.debit ?? 0;
    const credit = expected[account.code]?.credit ?? 0;
    debits += debit;
    credits += credit;
    return {
      code: account.code,
      name: account.name,
      type: account.type,
      debit,
      credit,
      balance: DEBIT_NORMAL.has(account.type) ? debit - credit : credit - debit,
    };
  });
  expect(tb.accounts).toEqual(want);
  expect(debits, 'the expected movements balance').toBe(credits);
  expect(tb.total_debit).toBe(debits);
  expect(tb.total_credit).toBe(credits);
  return tb;
}

/** The business's bill rows as stored (deleted ones too), oldest first. */
export const billRows = (server: TestServer, businessId: string) =>
  server.deps.db
    .selectFrom('finance_bills')
    .selectAll()
    .where('business_id', '=', businessId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();

/** The business's journal lines as stored, by entry and line. */
export const journalLineRows = (server: TestServer, businessId: string) =>
  server.deps.db
    .selectFrom('finance_journal_lines')
    .selectAll()
    .where('business_id', '=', businessId)
    .orderBy('entry_id')
    .orderBy('line_no')
    .execute();

/**
 * Sets the rate of `currency` to the business's base currency on `date` (docs/decisions.md D278):
 * a document of that currency dated on it or after posts at it.
 */
export async function setRate(
  biz: { client: Client },
  currency: string,
  date: string,
  rate: string | number,
): Promise<finance.ExchangeRate> {
  return (
    await unwrap(biz.client.finance.exchangeRates.createExchangeRate({ body: { currency, date, rate } }))
  ).exchange_rate;
}
