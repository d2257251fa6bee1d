import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { unwrap, type Client } from '../../client/index.js';
import { updateBusiness } from '../support/auth.js';
import { raw, registerTenant, type TestTenant } from '../support/business.js';
import { expectResultError } from '../support/expect.js';
import {
  billItem,
  createAccount,
  createBill,
  createEntry,
  createVendor,
  payBill,
  voidBill,
} from '../support/finance.js';
import { createCreditNote, invoiceLine, issuedInvoice, payInvoice, voidInvoice } from '../support/general.js';
import { useTestServer } from '../support/setup.js';

/**
 * The books (balance sheet, cash flow, ageing, general ledger, VAT return) of one small business whose
 * every document is listed below with its entry; each expected figure is worked out by hand from
 * that list.
 */

// Tokens outlive the clock moves below.
const server = useTestServer({ env: { ACCESS_TOKEN_TTL: '3650d' }, worker: false });

const NOW = '2026-11-21T09:00:00.000Z';

beforeEach(() => server().clock.set(NOW));
afterEach(() => server().clock.reset());

const books = (c: Client) => c.finance.books;
const balanceSheet = async (c: Client, query: { as_of?: string } = {}) =>
  unwrap(books(c).getBalanceSheet({ query }));
const cashFlow = async (c: Client, start_date: string, end_date: string) =>
  unwrap(books(c).getCashFlow({ query: { start_date, end_date } }));
const receivables = async (c: Client, as_of?: string) =>
  unwrap(books(c).getAgedReceivables({ query: as_of === undefined ? {} : { as_of } }));
const payables = async (c: Client, as_of?: string) =>
  unwrap(books(c).getAgedPayables({ query: as_of === undefined ? {} : { as_of } }));
const ledger = async (
  c: Client,
  account: string,
  start_date: string,
  end_date: string,
  page: { limit?: number; offset?: number } = {},
) => unwrap(books(c).getGeneralLedger({ query: { account, start_date, end_date, ...page } }));
const vatReturn = async (c: Client, start_date: string, end_date: string) =>
  unwrap(books(c).getVatReturn({ query: { start_date, end_date } }));

/** The ageing buckets of a row or of the totals, zeros unless told. */
const aged = (
  buckets: Partial<Record<'current' | 'days_1_30' | 'days_31_60' | 'days_61_90' | 'days_over_90', number>>,
) => {
  const all = { current: 0, days_1_30: 0, days_31_60: 0, days_61_90: 0, days_over_90: 0, ...buckets };
  return { ...all, total: Object.values(all).reduce((a, b) => a + b, 0) };
};

/**
 * The seeded books, in USD minor units. Entries (date, lines):
 *
 *  1. 02-10 manual        Dr 1010 1,000,000 / Cr 3100 1,000,000   (owner's capital)
 *  2. 03-10 invoice A     Dr 1200 60,000 / Cr 4000 50,000, 2200 10,000   (500.00 at 20 %, due 03-31)
 *  3. 03-15 bill X        Dr 5000 30,000, 2210 3,000 / Cr 2000 33,000   (Globex, 10 %, due 04-15)
 *  4. 03-20 payment of A  Dr 1010 20,000 / Cr 1200 20,000
 *  5. 04-10 payment of X  Dr 2000 13,000 / Cr 1010 13,000
 *  6. 05-05 manual        Dr 1500 200,000 / Cr 1010 200,000   (equipment)
 *  7. 10-01 invoice B     Dr 1200 36,000 / Cr 4000 30,000, 2200 6,000   (2 x 150.00 at 20 %, due 10-31)
 *  8. 10-15 payment of B  Dr 1000 12,000 / Cr 1200 12,000   (cash)
 *  9. 10-20 bill W        Dr 5000 10,000, 2210 2,000 / Cr 2000 12,000   (Initech, 20 %, due 11-20)
 * 10. 11-02 invoice C     Dr 1200 11,000 / Cr 4000 10,000, 2200 1,000   (100.00 at 10 %, due 12-01)
 * 11. 11-03 invoice E     Dr 1200 10,000 / Cr 4000 8,000, 2200 2,000   (80.00 at 25 %, due 11-10)
 * 12. 11-04 bill Z        Dr 5000 5,000 / Cr 2000 5,000   (Initech, no tax, due 12-04)
 * 13. 11-05 credit note on B, 60.00 (net 50.00, tax 10.00): 24.00 credited, 36.00 refunded by bank
 *                        Dr 4000 5,000, 2200 1,000 / Cr 1200 6,000; Dr 1200 3,600 / Cr 1010 3,600
 * 14. 11-12 credit note on E, 50.00 (net 40.00, tax 10.00), all credited
 *                        Dr 4000 4,000, 2200 1,000 / Cr 1200 5,000
 * 15. 11-18 void of the credit note on E: the reverse of 14
 * 16. 11-19 payment of W Dr 2000 2,000 / Cr 1000 2,000   (cash)
 * 17. 11-21 void of C    Dr 4000 10,000, 2200 1,000 / Cr 1200 11,000
 * 18. 11-21 void of Z    Dr 2000 5,000 / Cr 5000 5,000
 */
interface Seeded {
  t: TestTenant;
  invoices: Record<'A' | 'B' | 'C' | 'E', { id: string; number: string }>;
  bills: Record<'X' | 'W' | 'Z', string>;
  creditNotes: Record<'onB' | 'onE', { id: string; number: string }>;
  vendors: Record<'globex' | 'initech', string>;
}

async function seed(): Promise<Seeded> {
  server().clock.set('2026-11-18T09:00:00.000Z');
  const t = await registerTenant(server());
  const c = t.client;
  await updateBusiness(c, { financial_year_start_month: 4 });
  await createAccount(c, { code: '1500', name: 'Equipment', type: 'asset' });
  await createAccount(c, { code: '3100', name: 'Owner capital', type: 'equity' });
  const invoice = (issue_date: string, due_date: string, line: Parameters<typeof invoiceLine>[0]) =>
    issuedInvoice(c, { customer_id: t.customerId, issue_date, due_date, items: [invoiceLine(line)] });
  const globex = await createVendor(c, { name: 'Globex' });
  const initech = await createVendor(c, { name: 'Initech' });
  const bill = (
    vendor_id: string,
    issue_date: string,
    due_date: string,
    unit_price: number,
    tax_rate: number,
  ) =>
    createBill(c, {
      vendor_id,
      issue_date,
      due_date,
      items: [billItem({ quantity: 1, unit_price, tax_rate })],
    });

  await createEntry(c, {
    date: '2026-02-10',
    description: 'Owner capital',
    debits: [{ account: '1010', amount: 1_000_000 }],
    credits: [{ account: '3100', amount: 1_000_000 }],
  });
  const A = await invoice('2026-03-10', '2026-03-31', { unit_price: 500, tax_rate: 20 });
  const X = await bill(globex.id, '2026-03-15', '2026-04-15', 30_000, 10);
  expect(X).toMatchObject({ subtotal: 30_000, tax: 3_000, amount: 33_000 });
  await payInvoice(c, A.id, 200, { payment_date: '2026-03-20' });
  await payBill(c, X.id, 13_000, { payment_date: '2026-04-10' });
  await createEntry(c, {
    date: '2026-05-05',
    description: 'Delivery van',
    debits: [{ account: '1500', amount: 200_000 }],
    credits: [{ account: '1010', amount: 200_000 }],
  });
  const B = await invoice('2026-10-01', '2026-10-31', { quantity: 2, unit_price: 150, tax_rate: 20 });
  expect(B).toMatchObject({ subtotal: 300, tax: 60, total: 360 });
  await payInvoice(c, B.id, 120, { payment_method: 'cash', payment_date: '2026-10-15' });
  const W = await bill(initech.id, '2026-10-20', '2026-11-20', 10_000, 20);
  const C = await invoice('2026-11-02', '2026-12-01', { unit_price: 100, tax_rate: 10 });
  const E = await invoice('2026-11-03', '2026-11-10', { unit_price: 80, tax_rate: 25 });
  const Z = await bill(initech.id, '2026-11-04', '2026-12-04', 5_000, 0);
  const onB = await createCreditNote(c, {
    invoice_id: B.id,
    issue_date: '2026-11-05',
    amount: 60,
    credit_amount: 24,
    refund_amount: 36,
    refund_method: 'bank_transfer',
  });
  const onE = await createCreditNote(c, { invoice_id: E.id, issue_date: '2026-11-12', amount: 50 });
  await unwrap(c.general.creditNotes.voidCreditNote({ params: { id: onE.id } }));
  await payBill(c, W.id, 2_000, { payment_method: 'cash', payment_date: '2026-11-19' });
  server().clock.set(NOW);
  await voidInvoice(c, C.id);
  await voidBill(c, Z.id);
  const doc = (d: { id: string; number: string }) => ({ id: d.id, number: d.number });
  return {
    t,
    invoices: { A: doc(A), B: doc(B), C: doc(C), E: doc(E) },
    bills: { X: X.id, W: W.id, Z: Z.id },
    creditNotes: { onB: doc(onB), onE: doc(onE) },
    vendors: { globex: globex.id, initech: initech.id },
  };
}

let s: Seeded;
beforeAll(async () => {
  s = await seed();
  server().clock.reset();
});

describe('the balance sheet', () => {
  it('lists each account on its normal side and splits earnings at the financial year start (April)', async () => {
    const { data, lines } = await balanceSheet(s.t.client);
    // 1000: 12,000 - 2,000; 1010: 1,000,000 + 20,000 - 13,000 - 200,000 - 3,600;
    // 1200: A 40,000 + B (36,000 - 12,000 - 2,400) + E 10,000 (C void, the credit note on E void);
    // 2210: 3,000 + 2,000. 1020, 1030 and 2300 hold nothing and are left out.
    expect(lines).toEqual([
      { section: 'asset', code: '1000', name: 'Cash', balance: 10_000 },
      { section: 'asset', code: '1010', name: 'Bank', balance: 803_400 },
      { section: 'asset', code: '1200', name: 'Accounts receivable', balance: 71_600 },
      { section: 'asset', code: '1500', name: 'Equipment', balance: 200_000 },
      { section: 'asset', code: '2210', name: 'VAT receivable', balance: 5_000 },
      // 2000: X 20,000 + W 10,000; 2200: A 10,000 + B (6,000 - 1,000) + E 2,000.
      { section: 'liability', code: '2000', name: 'Accounts payable', balance: 30_000 },
      { section: 'liability', code: '2200', name: 'VAT payable', balance: 17_000 },
      { section: 'equity', code: '3100', name: 'Owner capital', balance: 1_000_000 },
      // From 2026-04-01: sales 30,000 + 10,000 + 8,000 - 5,000 - 4,000 + 4,000 - 10,000 = 33,000,
      // expenses 10,000 + 5,000 - 5,000 = 10,000: 23,000.
      { section: 'equity', code: null, name: 'Current year earnings', balance: 23_000 },
      // Before it: sales 50,000 - expenses 30,000.
      { section: 'equity', code: null, name: 'Retained earnings', balance: 20_000 },
    ]);
    expect(data).toEqual({
      as_of: '2026-11-21',
      currency: 'USD',
      financial_year_start: '2026-04-01',
      // 10,000 + 803,400 + 71,600 + 200,000 + 5,000
      total_assets: 1_090_000,
      total_liabilities: 47_000,
      current_year_earnings: 23_000,
      retained_earnings: 20_000,
      // 1,000,000 + 23,000 + 20,000
      total_equity: 1_043_000,
      total_liabilities_and_equity: 1_090_000,
    });
  });

  it('as of the last day of a financial year counts that year alone as the current one', async () => {
    const { data, lines } = await balanceSheet(s.t.client, { as_of: '2026-03-31' });
    // Entries 1 to 4: 1010 1,000,000 + 20,000; 1200 60,000 - 20,000; 2210 3,000; 2000 33,000; 2200 10,000.
    expect(lines).toEqual([
      { section: 'asset', code: '1010', name: 'Bank', balance: 1_020_000 },
      { section: 'asset', code: '1200', name: 'Accounts receivable', balance: 40_000 },
      { section: 'asset', code: '2210', name: 'VAT receivable', balance: 3_000 },
      { section: 'liability', code: '2000', name: 'Accounts payable', balance: 33_000 },
      { section: 'liability', code: '2200', name: 'VAT payable', balance: 10_000 },
      { section: 'equity', code: '3100', name: 'Owner capital', balance: 1_000_000 },
      { section: 'equity', code: null, name: 'Current year earnings', balance: 20_000 },
      { section: 'equity', code: null, name: 'Retained earnings', balance: 0 },
    ]);
    expect(data).toMatchObject({
      financial_year_start: '2025-04-01',
      total_assets: 1_063_000,
      total_liabilities: 43_000,
      current_year_earnings: 20_000,
      retained_earnings: 0,
      total_equity: 1_020_000,
      total_liabilities_and_equity: 1_063_000,
    });
  });

  it('moves the earnings to retained ones on the first day of the next financial year', async () => {
    const { data } = await balanceSheet(s.t.client, { as_of: '2026-04-01' });
    expect(data).toMatchObject({
      financial_year_start: '2026-04-01',
      current_year_earnings: 0,
      retained_earnings: 20_000,
      total_assets: 1_063_000,
    });
    // 2027-04-01: the whole of 2026/27 (20,000 + 23,000) has been kept.
    const next = await balanceSheet(s.t.client, { as_of: '2027-04-01' });
    expect(next.data).toMatchObject({
      financial_year_start: '2027-04-01',
      current_year_earnings: 0,
      retained_earnings: 43_000,
      total_equity: 1_043_000,
      total_assets: 1_090_000,
    });
  });

  it('follows the business setting: with years starting in January all of 2026 is the current year', async () => {
    const t = await registerTenant(server());
    await createEntry(t.client, {
      date: '2026-03-01',
      debits: [{ account: '1000', amount: 7_000 }],
      credits: [{ account: '4000', amount: 7_000 }],
    });
    await createEntry(t.client, {
      date: '2025-12-31',
      debits: [{ account: '5000', amount: 2_500 }],
      credits: [{ account: '1000', amount: 2_500 }],
    });
    const january = (await balanceSheet(t.client)).data;
    // 7,000 earned in 2026; 2,500 spent in 2025.
    expect(january).toMatchObject({
      financial_year_start: '2026-01-01',
      current_year_earnings: 7_000,
      retained_earnings: -2_500,
      total_assets: 4_500,
      total_equity: 4_500,
    });
    await updateBusiness(t.client, { financial_year_start_month: 4 });
    // From 2026-04-01 neither falls in the current year.
    expect((await balanceSheet(t.client)).data).toMatchObject({
      financial_year_start: '2026-04-01',
      current_year_earnings: 0,
      retained_earnings: 4_500,
    });
  });
});

describe('the cash-flow statement', () => {
  it('puts each movement of cash to its counter account, by activity, between opening and closing cash', async () => {
    const { data, lines } = await cashFlow(s.t.client, '2026-04-01', '2026-11-21');
    // Entries 5 (X paid), 6 (the van), 8 (B paid in cash), 13 (the refund) and 16 (W paid in cash).
    // Entry 13's other lines: 4000 -5,000, 2200 -1,000, 1200 -6,000 + 3,600 = the 3,600 refunded.
    expect(lines).toEqual([
      // 12,000 + 2,400
      {
        activity: 'operating',
        category: 'customers',
        code: '1200',
        name: 'Accounts receivable',
        amount: 14_400,
      },
      { activity: 'investing', category: 'investing', code: '1500', name: 'Equipment', amount: -200_000 },
      // -13,000 - 2,000
      {
        activity: 'operating',
        category: 'suppliers',
        code: '2000',
        name: 'Accounts payable',
        amount: -15_000,
      },
      { activity: 'operating', category: 'tax', code: '2200', name: 'VAT payable', amount: -1_000 },
      { activity: 'operating', category: 'customers', code: '4000', name: 'Sales', amount: -5_000 },
    ]);
    expect(data).toEqual({
      start_date: '2026-04-01',
      end_date: '2026-11-21',
      currency: 'USD',
      // 1,000,000 + 20,000 in 1010 by 2026-03-31.
      opening_cash: 1_020_000,
      // customers 14,400 - 5,000; operating 9,400 - 15,000 - 1,000
      operating: { customers: 9_400, suppliers: -15_000, tax: -1_000, other: 0, total: -6_600 },
      investing: -200_000,
      financing: 0,
      net_change: -206_600,
      // 1000 10,000 + 1010 803,400, as on the balance sheet.
      closing_cash: 813_400,
    });
  });

  it('counts the owner putting money in as financing', async () => {
    const { data, lines } = await cashFlow(s.t.client, '2026-01-01', '2026-03-31');
    expect(lines).toEqual([
      {
        activity: 'operating',
        category: 'customers',
        code: '1200',
        name: 'Accounts receivable',
        amount: 20_000,
      },
      {
        activity: 'financing',
        category: 'financing',
        code: '3100',
        name: 'Owner capital',
        amount: 1_000_000,
      },
    ]);
    expect(data).toMatchObject({
      opening_cash: 0,
      operating: { customers: 20_000, suppliers: 0, tax: 0, other: 0, total: 20_000 },
      investing: 0,
      financing: 1_000_000,
      net_change: 1_020_000,
      closing_cash: 1_020_000,
    });
  });

  it('has nothing to say over days without cash movements, opening and closing on the same cash', async () => {
    const { data, lines } = await cashFlow(s.t.client, '2026-11-20', '2026-11-21');
    expect(lines).toEqual([]);
    expect(data).toMatchObject({ opening_cash: 813_400, net_change: 0, closing_cash: 813_400 });
  });
});

describe('aged receivables', () => {
  const ada = (buckets: Parameters<typeof aged>[0], invoices: number) => ({
    customer_id: s.t.customerId,
    customer_name: 'Ada Lovelace',
    invoices,
    ...aged(buckets),
  });

  it('today: what is still open after payments and credit notes, by days past the due date', async () => {
    const { data, customers } = await receivables(s.t.client);
    // A 40,000, 235 days late (due 03-31); B 21,600, 21 days late (due 10-31); E 10,000, 11 days
    // late (due 11-10, its credit note void); C void.
    expect(customers).toEqual([ada({ days_1_30: 31_600, days_over_90: 40_000 }, 3)]);
    expect(data).toEqual({
      as_of: '2026-11-21',
      currency: 'USD',
      totals: aged({ days_1_30: 31_600, days_over_90: 40_000 }),
    });
  });

  it.each([
    // The day before the void of C: C 11,000 open and not yet due.
    ['2026-11-20', { current: 11_000, days_1_30: 31_600, days_over_90: 40_000 }, 4],
    // Before the void of the credit note on E: E 10,000 - 5,000.
    ['2026-11-15', { current: 11_000, days_1_30: 21_600 + 5_000, days_over_90: 40_000 }, 4],
    // Before the credit note on B: B 36,000 - 12,000, 4 days late; E not yet due.
    ['2026-11-04', { current: 11_000 + 10_000, days_1_30: 24_000, days_over_90: 40_000 }, 4],
    // Before B's payment: B 36,000 not yet due; A 197 days late.
    ['2026-10-14', { current: 36_000, days_over_90: 40_000 }, 2],
    // Before A's payment: A 60,000 not yet due; nothing else issued.
    ['2026-03-19', { current: 60_000 }, 1],
  ] as const)('as of %s: what was open at the end of that day', async (as_of, buckets, count) => {
    const { data, customers } = await receivables(s.t.client, as_of);
    expect(customers).toEqual([ada(buckets, count)]);
    expect(data).toEqual({ as_of, currency: 'USD', totals: aged(buckets) });
  });

  it('is empty before the first invoice', async () => {
    const { data, customers } = await receivables(s.t.client, '2026-03-09');
    expect(customers).toEqual([]);
    expect(data.totals).toEqual(aged({}));
  });
});

describe('aged payables', () => {
  const vendor = (id: string, name: string, buckets: Parameters<typeof aged>[0], bills: number) => ({
    vendor_id: id,
    vendor_name: name,
    bills,
    ...aged(buckets),
  });

  it.each([
    // X 33,000 - 13,000, 220 days late; W 12,000 - 2,000, 1 day late; Z void.
    ['2026-11-21', { X: { days_over_90: 20_000 }, W: { days_1_30: 10_000 }, bills: 1 }],
    // The day before the void of Z: W due that day (current), Z 5,000 not yet due.
    ['2026-11-20', { X: { days_over_90: 20_000 }, W: { current: 15_000 }, bills: 2 }],
    // Before W's payment: W 12,000 + Z 5,000.
    ['2026-11-18', { X: { days_over_90: 20_000 }, W: { current: 17_000 }, bills: 2 }],
  ] as const)('as of %s: per vendor, the largest first', async (as_of, want) => {
    const { data, vendors } = await payables(s.t.client, as_of);
    expect(vendors).toEqual([
      vendor(s.vendors.globex, 'Globex', want.X, 1),
      vendor(s.vendors.initech, 'Initech', want.W, want.bills),
    ]);
    const initech = aged(want.W);
    expect(data).toEqual({
      as_of,
      currency: 'USD',
      totals: aged({
        current: initech.current,
        days_1_30: initech.days_1_30,
        days_over_90: 20_000,
      }),
    });
  });

  it('as of the day before the payment of X: all of it, not yet due', async () => {
    const { data, vendors } = await payables(s.t.client, '2026-04-09');
    expect(vendors).toEqual([vendor(s.vendors.globex, 'Globex', { current: 33_000 }, 1)]);
    expect(data.totals).toEqual(aged({ current: 33_000 }));
  });

  it('defaults to today', async () => {
    expect((await payables(s.t.client)).data).toMatchObject({
      as_of: '2026-11-21',
      totals: { total: 30_000 },
    });
  });
});

describe('ageing buckets', () => {
  // Due 0, 1, 30, 31, 60, 61, 90 and 91 days before 2026-11-21, worth 1, 2, 4, ... 128 (x 100 minor units).
  const DUE = [
    ['2026-11-21', 100],
    ['2026-11-20', 200],
    ['2026-10-22', 400],
    ['2026-10-21', 800],
    ['2026-09-22', 1_600],
    ['2026-09-21', 3_200],
    ['2026-08-23', 6_400],
    ['2026-08-22', 12_800],
  ] as const;
  // 0: current; 1 and 30: 1-30; 31 and 60: 31-60; 61 and 90: 61-90; 91: over 90.
  const BUCKETS = aged({
    current: 100,
    days_1_30: 200 + 400,
    days_31_60: 800 + 1_600,
    days_61_90: 3_200 + 6_400,
    days_over_90: 12_800,
  });

  it('put each day past due in its bucket, receivables and payables alike', async () => {
    const t = await registerTenant(server());
    const vendor = await createVendor(t.client, { name: 'Umbrella' });
    for (const [due_date, amount] of DUE) {
      await issuedInvoice(t.client, {
        customer_id: t.customerId,
        issue_date: '2026-08-01',
        due_date,
        items: [invoiceLine({ unit_price: amount / 100 })],
      });
      await createBill(t.client, {
        vendor_id: vendor.id,
        issue_date: '2026-08-01',
        due_date,
        items: [billItem({ quantity: 1, unit_price: amount })],
      });
    }
    expect(BUCKETS.total).toBe(25_500);
    const r = await receivables(t.client, '2026-11-21');
    expect(r.data.totals).toEqual(BUCKETS);
    expect(r.customers).toEqual([
      { customer_id: t.customerId, customer_name: 'Ada Lovelace', invoices: 8, ...BUCKETS },
    ]);
    const p = await payables(t.client, '2026-11-21');
    expect(p.data.totals).toEqual(BUCKETS);
    expect(p.vendors).toEqual([{ vendor_id: vendor.id, vendor_name: 'Umbrella', bills: 8, ...BUCKETS }]);
    // A day later each moves on: 0 -> 1 (1-30), 30 -> 31, 60 -> 61, 90 -> 91.
    const later = aged({
      days_1_30: 100 + 200,
      days_31_60: 400 + 800,
      days_61_90: 1_600 + 3_200,
      days_over_90: 6_400 + 12_800,
    });
    expect((await receivables(t.client, '2026-11-22')).data.totals).toEqual(later);
    expect((await payables(t.client, '2026-11-22')).data.totals).toEqual(later);
  });
});

describe('the general ledger', () => {
  it('walks an account from its opening balance through each line to its closing balance', async () => {
    const { data, lines, total_count } = await ledger(s.t.client, '1200', '2026-10-01', '2026-11-21');
    // Opening on 2026-09-30: A 60,000 - 20,000.
    expect(data).toEqual({
      account: { code: '1200', name: 'Accounts receivable', type: 'asset' },
      start_date: '2026-10-01',
      end_date: '2026-11-21',
      currency: 'USD',
      opening_balance: 40_000,
      // 36,000 + 11,000 + 10,000 + 3,600 + 5,000
      total_debit: 65_600,
      // 12,000 + 6,000 + 5,000 + 11,000
      total_credit: 34_000,
      // 40,000 + 65,600 - 34,000
      closing_balance: 71_600,
    });
    expect(total_count).toBe(9);
    const walk = lines.map((l) => [l.date, l.source.type, l.debit, l.credit, l.balance]);
    expect(walk).toEqual([
      ['2026-10-01', 'invoice', 36_000, 0, 76_000],
      ['2026-10-15', 'invoice_payment', 0, 12_000, 64_000],
      ['2026-11-02', 'invoice', 11_000, 0, 75_000],
      ['2026-11-03', 'invoice', 10_000, 0, 85_000],
      // The credit note's own entry: the refund's debit is its first line on 1200.
      ['2026-11-05', 'credit_note', 3_600, 0, 88_600],
      ['2026-11-05', 'credit_note', 0, 6_000, 82_600],
      ['2026-11-12', 'credit_note', 0, 5_000, 77_600],
      ['2026-11-18', 'void', 5_000, 0, 82_600],
      ['2026-11-21', 'void', 0, 11_000, 71_600],
    ]);
    expect(lines[0]).toEqual({
      entry_id: expect.stringMatching(/^je_/),
      date: '2026-10-01',
      description: `Invoice ${s.invoices.B.number}`,
      source: { type: 'invoice', id: s.invoices.B.id },
      debit: 36_000,
      credit: 0,
      balance: 76_000,
    });
    expect(lines.map((l) => l.source.id)).toEqual([
      s.invoices.B.id,
      expect.any(String),
      s.invoices.C.id,
      s.invoices.E.id,
      s.creditNotes.onB.id,
      s.creditNotes.onB.id,
      s.creditNotes.onE.id,
      s.creditNotes.onE.id,
      s.invoices.C.id,
    ]);
  });

  it('pages by limit and offset, the running balance carried across pages', async () => {
    const page = await ledger(s.t.client, '1200', '2026-10-01', '2026-11-21', { limit: 3, offset: 3 });
    expect(page.total_count).toBe(9);
    expect(page.lines.map((l) => [l.date, l.debit, l.credit, l.balance])).toEqual([
      ['2026-11-03', 10_000, 0, 85_000],
      ['2026-11-05', 3_600, 0, 88_600],
      ['2026-11-05', 0, 6_000, 82_600],
    ]);
    expect(page.data).toMatchObject({ opening_balance: 40_000, closing_balance: 71_600 });
    const last = await ledger(s.t.client, '1200', '2026-10-01', '2026-11-21', { limit: 3, offset: 6 });
    expect(last.lines.map((l) => l.balance)).toEqual([77_600, 82_600, 71_600]);
    const beyond = await ledger(s.t.client, '1200', '2026-10-01', '2026-11-21', { limit: 3, offset: 9 });
    expect(beyond).toMatchObject({ lines: [], total_count: 9 });
  });

  it('keeps a credit-normal account positive on its credit side', async () => {
    const { data, lines } = await ledger(s.t.client, '2000', '2026-04-01', '2026-11-21');
    // X's 33,000 before the range.
    expect(data).toMatchObject({
      opening_balance: 33_000,
      total_debit: 13_000 + 2_000 + 5_000,
      total_credit: 12_000 + 5_000,
      closing_balance: 30_000,
    });
    expect(lines.map((l) => [l.date, l.source.type, l.debit, l.credit, l.balance])).toEqual([
      ['2026-04-10', 'bill_payment', 13_000, 0, 20_000],
      ['2026-10-20', 'bill', 0, 12_000, 32_000],
      ['2026-11-04', 'bill', 0, 5_000, 37_000],
      ['2026-11-19', 'bill_payment', 2_000, 0, 35_000],
      ['2026-11-21', 'void', 5_000, 0, 30_000],
    ]);
  });

  it('answers an account without lines in the range with its balance carried through', async () => {
    const { data, lines, total_count } = await ledger(s.t.client, '1500', '2026-06-01', '2026-11-21');
    expect(data).toMatchObject({
      opening_balance: 200_000,
      total_debit: 0,
      total_credit: 0,
      closing_balance: 200_000,
    });
    expect([lines, total_count]).toEqual([[], 0]);
  });

  it('refuses an account the chart does not have (422 naming account)', async () => {
    const res = await books(s.t.client).getGeneralLedger({
      query: { account: '9999', start_date: '2026-01-01', end_date: '2026-11-21' },
    });
    expectResultError(res, 422, 'VALIDATION_ERROR', 'account');
  });
});

describe('the VAT return', () => {
  it('sums output tax (invoices less credit notes and voids) and input tax (bills), with each document', async () => {
    const { data, documents } = await vatReturn(s.t.client, '2026-10-01', '2026-11-21');
    const { B, C, E } = s.invoices;
    expect(documents).toEqual([
      expect.objectContaining({
        side: 'output',
        date: '2026-10-01',
        source: { type: 'invoice', id: B.id },
        description: `Invoice ${B.number}`,
        net: 30_000,
        tax: 6_000,
      }),
      expect.objectContaining({
        side: 'input',
        date: '2026-10-20',
        source: { type: 'bill', id: s.bills.W },
        description: 'Bill from Initech',
        net: 10_000,
        tax: 2_000,
      }),
      expect.objectContaining({
        side: 'output',
        date: '2026-11-02',
        source: { type: 'invoice', id: C.id },
        net: 10_000,
        tax: 1_000,
      }),
      expect.objectContaining({
        side: 'output',
        date: '2026-11-03',
        source: { type: 'invoice', id: E.id },
        net: 8_000,
        tax: 2_000,
      }),
      expect.objectContaining({
        side: 'input',
        date: '2026-11-04',
        source: { type: 'bill', id: s.bills.Z },
        net: 5_000,
        tax: 0,
      }),
      expect.objectContaining({
        side: 'output',
        date: '2026-11-05',
        source: { type: 'credit_note', id: s.creditNotes.onB.id },
        net: -5_000,
        tax: -1_000,
      }),
      expect.objectContaining({
        side: 'output',
        date: '2026-11-12',
        source: { type: 'credit_note', id: s.creditNotes.onE.id },
        net: -4_000,
        tax: -1_000,
      }),
      expect.objectContaining({
        side: 'output',
        date: '2026-11-18',
        source: { type: 'void', id: s.creditNotes.onE.id },
        net: 4_000,
        tax: 1_000,
      }),
      expect.objectContaining({
        side: 'output',
        date: '2026-11-21',
        source: { type: 'void', id: C.id },
        description: `Void of invoice ${C.number}`,
        net: -10_000,
        tax: -1_000,
      }),
      expect.objectContaining({
        side: 'input',
        date: '2026-11-21',
        source: { type: 'void', id: s.bills.Z },
        net: -5_000,
        tax: 0,
      }),
    ]);
    for (const d of documents) expect(d.entry_id).toMatch(/^je_/);
    expect(data).toEqual({
      start_date: '2026-10-01',
      end_date: '2026-11-21',
      currency: 'USD',
      // 6,000 + 1,000 + 2,000 - 1,000 - 1,000 + 1,000 - 1,000
      output_tax: 7_000,
      input_tax: 2_000,
      net: 5_000,
      // 30,000 + 10,000 + 8,000 - 5,000 - 4,000 + 4,000 - 10,000
      sales_net: 33_000,
      // 10,000 + 5,000 - 5,000
      purchases_net: 10_000,
    });
  });

  it('answers a negative net when input tax is the larger (reclaimable)', async () => {
    const { data, documents } = await vatReturn(s.t.client, '2026-10-15', '2026-10-31');
    expect(documents.map((d) => [d.side, d.source.id, d.net, d.tax])).toEqual([
      ['input', s.bills.W, 10_000, 2_000],
    ]);
    expect(data).toMatchObject({
      output_tax: 0,
      input_tax: 2_000,
      net: -2_000,
      sales_net: 0,
      purchases_net: 10_000,
    });
  });

  it('leaves payments and manual entries out of a quarter', async () => {
    const { data, documents } = await vatReturn(s.t.client, '2026-01-01', '2026-03-31');
    expect(documents.map((d) => [d.side, d.source.type, d.net, d.tax])).toEqual([
      ['output', 'invoice', 50_000, 10_000],
      ['input', 'bill', 30_000, 3_000],
    ]);
    expect(data).toMatchObject({ output_tax: 10_000, input_tax: 3_000, net: 7_000 });
  });
});

describe('a report as CSV', () => {
  it('answers ?format=csv as text/csv: a header row, then a row per line', async () => {
    const res = await raw(server(), 'GET', '/v1/finance/reports/balance-sheet?as_of=2026-03-31&format=csv', {
      token: s.t.accessToken,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const rows = (res.body as string).trimEnd().split('\r\n');
    expect(rows[0]).toBe('section,code,name,balance');
    expect(rows.slice(1)).toEqual([
      'asset,1010,Bank,1020000',
      'asset,1200,Accounts receivable,40000',
      'asset,2210,VAT receivable,3000',
      'liability,2000,Accounts payable,33000',
      'liability,2200,VAT payable,10000',
      'equity,3100,Owner capital,1000000',
      'equity,,Current year earnings,20000',
      'equity,,Retained earnings,0',
    ]);
  });
});

describe('refusals of the reports', () => {
  it.each([
    ['cash-flow', 'end_date before start_date', 'start_date=2026-06-01&end_date=2026-05-31', 'end_date'],
    ['cash-flow', 'a range of ten years', 'start_date=2016-01-01&end_date=2026-01-01', 'end_date'],
    ['cash-flow', 'no start_date', 'end_date=2026-05-31', 'start_date'],
    ['vat-return', 'end_date before start_date', 'start_date=2026-06-01&end_date=2026-05-31', 'end_date'],
    ['vat-return', 'an impossible date', 'start_date=2026-02-30&end_date=2026-05-31', 'start_date'],
    [
      'general-ledger',
      'end_date before start_date',
      'account=1200&start_date=2026-06-01&end_date=2026-05-31',
      'end_date',
    ],
    ['general-ledger', 'no account', 'start_date=2026-01-01&end_date=2026-05-31', 'account'],
    [
      'general-ledger',
      'a page above 1,000 lines',
      'account=1200&start_date=2026-01-01&end_date=2026-05-31&limit=1001',
      'limit',
    ],
    ['balance-sheet', 'a date that is not one', 'as_of=31/12/2026', 'as_of'],
    ['balance-sheet', 'a currency that is not a code', 'currency=dollars', 'currency'],
    ['aged-receivables', 'a date that is not one', 'as_of=2026-13-01', 'as_of'],
    ['aged-payables', 'a currency that is not a code', 'currency=usd1', 'currency'],
  ])('%s refuses %s (422 naming the parameter)', async (report, _, query, field) => {
    const res = await raw(server(), 'GET', `/v1/finance/reports/${report}?${query}`, {
      token: s.t.accessToken,
    });
    expectResultError(res, 422, 'VALIDATION_ERROR', field);
  });
});
