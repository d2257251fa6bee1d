import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { unwrap, type finance } from '../../client/index.js';
import { raw, registerTenant, type TestTenant } from '../support/business.js';
import { expectError } from '../support/expect.js';
import {
  approveBill,
  billOf,
  createAccount,
  createEntry,
  getBill,
  payBill,
  voidBill,
} from '../support/finance.js';
import {
  createInvoice,
  getInvoice,
  invoiceLine,
  issuedInvoice,
  payInvoice,
  voidInvoice,
} from '../support/general.js';
import { useTestServer } from '../support/setup.js';
import { updateBusiness } from '../support/auth.js';

// Tokens outlive the clock moves below.
const server = useTestServer({ env: { ACCESS_TOKEN_TTL: '3650d' }, worker: false });

const NOW = '2026-11-23T09:00:00.000Z';
const TODAY = '2026-11-23';

beforeEach(() => server().clock.set(NOW));
afterEach(() => server().clock.reset());

/** A business of its own for each test, so its ledger holds only what the test posts. */
const newTenant = () => registerTenant(server());

/** Decimals of the currencies the tests use. */
const EXPONENT: Record<string, number> = { USD: 2, EUR: 2, JPY: 0, KWD: 3 };
const scale = (currency: string) => 10 ** (EXPONENT[currency] ?? 2);

/** Major units (as the report and the general group answer) in minor units, and back. */
const toMinor = (major: number, currency = 'USD') => Math.round(major * scale(currency));
const toMajor = (minor: number, currency = 'USD') => minor / scale(currency);

/** An invoice issued on `issue_date` of one line worth `net` minor units (USD and 20% tax unless told). */
const sale = (
  t: TestTenant,
  issue_date: string,
  net: number,
  extra: { currency?: string; tax_rate?: number } = {},
) => {
  const currency = extra.currency ?? 'USD';
  return issuedInvoice(t.client, {
    customer_id: t.customerId,
    issue_date,
    due_date: '2030-12-31',
    currency,
    items: [invoiceLine({ unit_price: net / scale(currency), tax_rate: extra.tax_rate ?? 20 })],
  });
};

const report = (t: TestTenant, query: finance.ProfitLossQuery) =>
  t.client.finance.reports.getProfitLoss({ query });

/**
 * The report, checked for what holds of every answer: the totals are the sums of their accounts and
 * net_profit = revenue - expenses, each exact to the currency's decimals.
 */
async function profitLoss(t: TestTenant, query: finance.ProfitLossQuery): Promise<finance.ProfitLoss> {
  const res = await report(t, query);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const { data } = await unwrap(res);
  const c = data.currency;
  const sum = (accounts: { amount: number }[]) => accounts.reduce((s, a) => s + toMinor(a.amount, c), 0);
  expect(toMinor(data.revenue.total, c)).toBe(sum(data.revenue.accounts));
  expect(toMinor(data.expenses.total, c)).toBe(sum(data.expenses.accounts));
  expect(toMinor(data.net_profit, c)).toBe(toMinor(data.revenue.total, c) - toMinor(data.expenses.total, c));
  return data;
}

const YEAR = { start_date: '2026-01-01', end_date: '2026-12-31' };

/** An account line of the report. */
const line = (code: string, name: string, amount: number) => ({ code, name, amount });

describe('profit and loss: shape', () => {
  it('answers zeros and no accounts for a business without postings, echoing the range, in USD', async () => {
    const t = await newTenant();
    const res = await report(t, YEAR);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        start_date: '2026-01-01',
        end_date: '2026-12-31',
        currency: 'USD',
        revenue: { total: 0, accounts: [] },
        expenses: { total: 0, accounts: [] },
        net_profit: 0,
      },
    });
  });

  it('answers 401 without a token', async () => {
    const res = await raw(
      server(),
      'GET',
      '/v1/reports/profit-loss?start_date=2026-01-01&end_date=2026-12-31',
    );
    expect(res.status).toBe(401);
  });
});

describe('profit and loss: invoices and bills', () => {
  it('credits 4000 Sales with the net of each issued invoice, tax left to 2200, in major units', async () => {
    const t = await newTenant();
    const first = await sale(t, '2026-02-10', 123_456, { tax_rate: 20 });
    const second = await sale(t, '2026-03-05', 25_050, { tax_rate: 7.5 });
    expect(first.tax).toBeGreaterThan(0);
    const net = toMinor(first.subtotal) + toMinor(second.subtotal);
    expect(net).toBe(148_506);
    expect(await profitLoss(t, YEAR)).toEqual({
      ...YEAR,
      currency: 'USD',
      revenue: { total: 1_485.06, accounts: [line('4000', 'Sales', 1_485.06)] },
      expenses: { total: 0, accounts: [] },
      net_profit: 1_485.06,
    });
  });

  it('sums cents exactly: 0.10 + 0.20 is 0.3', async () => {
    const t = await newTenant();
    await sale(t, '2026-04-01', 10, { tax_rate: 0 });
    await sale(t, '2026-04-02', 20, { tax_rate: 0 });
    const data = await profitLoss(t, YEAR);
    expect(data.revenue.total).toBe(0.3);
    expect(data.net_profit).toBe(0.3);
  });

  it('debits 5000 Expenses with a pending bill on its issue date', async () => {
    const t = await newTenant();
    const bill = await billOf(t.client, 40_025, { issue_date: '2026-02-20' });
    expect(bill.amount).toBe(40_025);
    expect(await profitLoss(t, YEAR)).toEqual({
      ...YEAR,
      currency: 'USD',
      revenue: { total: 0, accounts: [] },
      expenses: { total: 400.25, accounts: [line('5000', 'Expenses', 400.25)] },
      net_profit: -400.25,
    });
    const before = await profitLoss(t, { start_date: '2026-01-01', end_date: '2026-02-19' });
    expect(before.expenses).toEqual({ total: 0, accounts: [] });
  });

  it('leaves a draft bill out until approved, then counts it on its issue date, not the approval day', async () => {
    const t = await newTenant();
    const draft = await billOf(t.client, 9_999, { status: 'draft', issue_date: '2026-10-15' });
    expect((await profitLoss(t, YEAR)).expenses.total).toBe(0);
    await approveBill(t.client, draft.id);
    const october = await profitLoss(t, { start_date: '2026-10-01', end_date: '2026-10-31' });
    expect(october.expenses).toEqual({ total: 99.99, accounts: [line('5000', 'Expenses', 99.99)] });
    const approvalDay = await profitLoss(t, { start_date: TODAY, end_date: TODAY });
    expect(approvalDay.expenses.total).toBe(0);
  });

  it('nets invoices against bills: revenue - expenses', async () => {
    const t = await newTenant();
    await sale(t, '2026-05-01', 150_000, { tax_rate: 20 });
    await sale(t, '2026-05-15', 25_050, { tax_rate: 0 });
    await billOf(t.client, 40_025, { issue_date: '2026-05-20' });
    await billOf(t.client, 1, { issue_date: '2026-05-21' });
    expect(await profitLoss(t, { start_date: '2026-05-01', end_date: '2026-05-31' })).toEqual({
      start_date: '2026-05-01',
      end_date: '2026-05-31',
      currency: 'USD',
      revenue: { total: 1_750.5, accounts: [line('4000', 'Sales', 1_750.5)] },
      expenses: { total: 400.26, accounts: [line('5000', 'Expenses', 400.26)] },
      net_profit: toMajor(175_050 - 40_026),
    });
  });

  it('is not moved by payments of invoices or bills', async () => {
    const t = await newTenant();
    const invoice = await sale(t, '2026-05-01', 10_000, { tax_rate: 10 });
    const bill = await billOf(t.client, 6_000, { issue_date: '2026-05-02' });
    const before = await profitLoss(t, YEAR);
    await payInvoice(t.client, invoice.id, 50, { payment_date: '2026-05-03', payment_method: 'cash' });
    await payInvoice(t.client, invoice.id, invoice.total - 50, { payment_date: '2026-05-04' });
    await payBill(t.client, bill.id, 6_000, { payment_date: '2026-05-05', payment_method: 'check' });
    expect((await getInvoice(t.client, invoice.id)).status).toBe('paid');
    expect((await getBill(t.client, bill.id)).status).toBe('paid');
    const after = await profitLoss(t, YEAR);
    expect(after).toEqual(before);
    expect(after.net_profit).toBe(40);
    // The payment days alone show nothing.
    const paymentDays = await profitLoss(t, { start_date: '2026-05-03', end_date: '2026-05-05' });
    expect(paymentDays).toMatchObject({ revenue: { total: 0 }, expenses: { total: 0 }, net_profit: 0 });
  });

  it('leaves drafts and invoices voided before issue out', async () => {
    const t = await newTenant();
    await createInvoice(t.client, { customer_id: t.customerId, issue_date: '2026-05-01' });
    const voided = await createInvoice(t.client, { customer_id: t.customerId, issue_date: '2026-05-02' });
    await voidInvoice(t.client, voided.id);
    const data = await profitLoss(t, YEAR);
    expect(data.revenue).toEqual({ total: 0, accounts: [] });
  });
});

describe('profit and loss: voids', () => {
  it('reverses a voided invoice on the void date: ranges before it keep it, ranges over it net it out', async () => {
    const t = await newTenant();
    const invoice = await sale(t, '2026-10-01', 10_000, { tax_rate: 20 });
    server().clock.set('2026-11-10T15:00:00.000Z');
    await voidInvoice(t.client, invoice.id);
    server().clock.set(NOW);
    const untilEve = await profitLoss(t, { start_date: '2026-10-01', end_date: '2026-11-09' });
    expect(untilEve.revenue).toEqual({ total: 100, accounts: [line('4000', 'Sales', 100)] });
    const overVoid = await profitLoss(t, { start_date: '2026-10-01', end_date: '2026-11-10' });
    expect(overVoid.revenue.total).toBe(0);
    expect(overVoid.revenue.accounts.every((a) => a.amount === 0)).toBe(true);
    expect(overVoid.net_profit).toBe(0);
    // The void day alone: the reversal, Dr 4000 with the net.
    const voidDay = await profitLoss(t, { start_date: '2026-11-10', end_date: '2026-11-10' });
    expect(voidDay.revenue).toEqual({ total: -100, accounts: [line('4000', 'Sales', -100)] });
    expect(voidDay.net_profit).toBe(-100);
  });

  it('reverses a voided bill on the void date in the same way', async () => {
    const t = await newTenant();
    const bill = await billOf(t.client, 7_300, { issue_date: '2026-11-02' });
    server().clock.set('2026-11-25T08:00:00.000Z');
    await voidBill(t.client, bill.id);
    const before = await profitLoss(t, { start_date: '2026-11-01', end_date: '2026-11-24' });
    expect(before.expenses).toEqual({ total: 73, accounts: [line('5000', 'Expenses', 73)] });
    expect(before.net_profit).toBe(-73);
    const month = await profitLoss(t, { start_date: '2026-11-01', end_date: '2026-11-30' });
    expect(month.expenses.total).toBe(0);
    expect(month.net_profit).toBe(0);
    const voidDay = await profitLoss(t, { start_date: '2026-11-25', end_date: '2026-11-25' });
    expect(voidDay.expenses).toEqual({ total: -73, accounts: [line('5000', 'Expenses', -73)] });
    expect(voidDay.net_profit).toBe(73);
  });
});

describe('profit and loss: the range', () => {
  it('includes both ends and nothing outside', async () => {
    const t = await newTenant();
    await sale(t, '2026-01-31', 100, { tax_rate: 0 });
    await sale(t, '2026-02-01', 200, { tax_rate: 0 });
    await sale(t, '2026-02-28', 400, { tax_rate: 0 });
    await sale(t, '2026-03-01', 800, { tax_rate: 0 });
    await billOf(t.client, 1_600, { issue_date: '2026-01-31', due_date: '2026-12-31' });
    await billOf(t.client, 3_200, { issue_date: '2026-02-28', due_date: '2026-12-31' });
    const february = await profitLoss(t, { start_date: '2026-02-01', end_date: '2026-02-28' });
    expect(february).toEqual({
      start_date: '2026-02-01',
      end_date: '2026-02-28',
      currency: 'USD',
      revenue: { total: 6, accounts: [line('4000', 'Sales', 6)] },
      expenses: { total: 32, accounts: [line('5000', 'Expenses', 32)] },
      net_profit: -26,
    });
    const lastDay = await profitLoss(t, { start_date: '2026-01-31', end_date: '2026-01-31' });
    expect(lastDay).toMatchObject({ revenue: { total: 1 }, expenses: { total: 16 }, net_profit: -15 });
    const firstQuarter = await profitLoss(t, { start_date: '2026-01-01', end_date: '2026-03-31' });
    expect(firstQuarter.net_profit).toBe(toMajor(1_500 - 4_800));
  });

  it('accepts a range of just under 10 years', async () => {
    const t = await newTenant();
    await sale(t, '2016-01-01', 100, { tax_rate: 0 });
    await sale(t, '2025-12-31', 200, { tax_rate: 0 });
    const data = await profitLoss(t, { start_date: '2016-01-01', end_date: '2025-12-31' });
    expect(data.revenue.total).toBe(3);
  });
});

describe('profit and loss: accounts of the business and manual entries', () => {
  it('lists custom revenue and expense accounts with their names, by code, next to 4000 and 5000', async () => {
    const t = await newTenant();
    await createAccount(t.client, { code: '4100', name: 'Consulting income', type: 'revenue' });
    await createAccount(t.client, { code: '6100', name: 'Rent', type: 'expense' });
    await createAccount(t.client, { code: '5500', name: 'Software', type: 'expense' });
    await sale(t, '2026-06-01', 50_000, { tax_rate: 20 });
    await billOf(t.client, 7_500, { issue_date: '2026-06-02' });
    await createEntry(t.client, {
      date: '2026-06-03',
      description: 'Consulting, cash sale',
      debits: [{ account: '1000', amount: 30_000 }],
      credits: [{ account: '4100', amount: 30_000 }],
    });
    await createEntry(t.client, {
      date: '2026-06-04',
      description: 'June rent',
      debits: [{ account: '6100', amount: 120_000 }],
      credits: [{ account: '1010', amount: 120_000 }],
    });
    await createEntry(t.client, {
      date: '2026-06-05',
      description: 'Licences',
      debits: [
        { account: '5500', amount: 2_599 },
        { account: '6100', amount: 1 },
      ],
      credits: [{ account: '2000', amount: 2_600 }],
    });
    const data = await profitLoss(t, { start_date: '2026-06-01', end_date: '2026-06-30' });
    expect(data).toEqual({
      start_date: '2026-06-01',
      end_date: '2026-06-30',
      currency: 'USD',
      revenue: {
        total: toMajor(50_000 + 30_000),
        accounts: [line('4000', 'Sales', 500), line('4100', 'Consulting income', 300)],
      },
      expenses: {
        total: toMajor(7_500 + 2_599 + 120_001),
        accounts: [
          line('5000', 'Expenses', 75),
          line('5500', 'Software', 25.99),
          line('6100', 'Rent', 1_200.01),
        ],
      },
      net_profit: toMajor(80_000 - 130_100),
    });
  });

  it('leaves out asset, liability and equity accounts', async () => {
    const t = await newTenant();
    await createAccount(t.client, { code: '3000', name: 'Owner equity', type: 'equity' });
    await createEntry(t.client, {
      date: '2026-06-01',
      description: 'Owner investment',
      debits: [{ account: '1010', amount: 500_000 }],
      credits: [{ account: '3000', amount: 500_000 }],
    });
    await createEntry(t.client, { date: '2026-06-02' }); // Dr 1010 / Cr 1000
    await createEntry(t.client, {
      date: '2026-06-03',
      description: 'Loan',
      debits: [{ account: '1000', amount: 10_000 }],
      credits: [{ account: '2000', amount: 10_000 }],
    });
    expect(await profitLoss(t, YEAR)).toEqual({
      ...YEAR,
      currency: 'USD',
      revenue: { total: 0, accounts: [] },
      expenses: { total: 0, accounts: [] },
      net_profit: 0,
    });
  });

  it('takes debits of revenue and credits of expenses off their side (refunds, rebates)', async () => {
    const t = await newTenant();
    await sale(t, '2026-07-01', 100_000, { tax_rate: 0 });
    await billOf(t.client, 50_000, { issue_date: '2026-07-02' });
    await createEntry(t.client, {
      date: '2026-07-03',
      description: 'Refund to a client',
      debits: [{ account: '4000', amount: 25_000 }],
      credits: [{ account: '1000', amount: 25_000 }],
    });
    await createEntry(t.client, {
      date: '2026-07-04',
      description: 'Supplier rebate',
      debits: [{ account: '1010', amount: 12_550 }],
      credits: [{ account: '5000', amount: 12_550 }],
    });
    const data = await profitLoss(t, YEAR);
    expect(data.revenue).toEqual({ total: 750, accounts: [line('4000', 'Sales', 750)] });
    expect(data.expenses).toEqual({ total: 374.5, accounts: [line('5000', 'Expenses', 374.5)] });
    expect(data.net_profit).toBe(toMajor(75_000 - 37_450));
  });

  it('agrees with the documents of a mixed month, as read back from the API', async () => {
    const t = await newTenant();
    const c = t.client;
    const invoices = [
      await sale(t, '2026-08-01', 12_345, { tax_rate: 20 }),
      await sale(t, '2026-08-09', 99_999, { tax_rate: 7.5 }),
      await sale(t, '2026-08-17', 505, { tax_rate: 0 }),
      await sale(t, '2026-08-25', 40_000, { tax_rate: 10 }),
    ];
    const bills = [
      await billOf(c, 3_333, { issue_date: '2026-08-02' }),
      await billOf(c, 70_707, { issue_date: '2026-08-10' }),
      await billOf(c, 1_000, { issue_date: '2026-08-11' }),
    ];
    const draftBill = await billOf(c, 55_555, { status: 'draft', issue_date: '2026-08-12' });
    await payInvoice(c, invoices[0]!.id, invoices[0]!.total, { payment_date: '2026-08-20' });
    await payBill(c, bills[1]!.id, 10_000, { payment_date: '2026-08-21' });
    server().clock.set('2026-08-30T12:00:00.000Z');
    await voidInvoice(c, invoices[3]!.id);
    await voidBill(c, bills[2]!.id);
    server().clock.set(NOW);

    const liveInvoices = (await Promise.all(invoices.map((i) => getInvoice(c, i.id)))).filter(
      (i) => i.status !== 'void',
    );
    const liveBills = (await Promise.all([...bills, draftBill].map((b) => getBill(c, b.id)))).filter(
      (b) => b.status !== 'void' && b.status !== 'draft',
    );
    const revenue = liveInvoices.reduce((s, i) => s + toMinor(i.subtotal), 0);
    const expenses = liveBills.reduce((s, b) => s + b.amount, 0);
    expect([liveInvoices.length, liveBills.length]).toEqual([3, 2]);
    expect(await profitLoss(t, { start_date: '2026-08-01', end_date: '2026-08-31' })).toEqual({
      start_date: '2026-08-01',
      end_date: '2026-08-31',
      currency: 'USD',
      revenue: { total: toMajor(revenue), accounts: [line('4000', 'Sales', toMajor(revenue))] },
      expenses: { total: toMajor(expenses), accounts: [line('5000', 'Expenses', toMajor(expenses))] },
      net_profit: toMajor(revenue - expenses),
    });
    expect(revenue).toBe(12_345 + 99_999 + 505);
    expect(expenses).toBe(3_333 + 70_707);
  });
});

describe('profit and loss: currencies', () => {
  it('reports one currency at a time, JPY in whole units; by default every currency in USD', async () => {
    const t = await newTenant();
    await sale(t, '2026-04-01', 12_345, { currency: 'JPY', tax_rate: 10 });
    await billOf(t.client, 5_000, { currency: 'JPY', issue_date: '2026-04-02' });
    await sale(t, '2026-04-03', 5_000, { tax_rate: 0 });
    const jpy = await profitLoss(t, { ...YEAR, currency: 'JPY' });
    expect(jpy).toEqual({
      ...YEAR,
      currency: 'JPY',
      revenue: { total: 12_345, accounts: [line('4000', 'Sales', 12_345)] },
      expenses: { total: 5_000, accounts: [line('5000', 'Expenses', 5_000)] },
      net_profit: 7_345,
    });
    const usd = await profitLoss(t, { ...YEAR, currency: 'USD' });
    expect(usd).toEqual({
      ...YEAR,
      currency: 'USD',
      revenue: { total: 50, accounts: [line('4000', 'Sales', 50)] },
      expenses: { total: 0, accounts: [] },
      net_profit: 50,
    });
    // The yen at the feed's 1.1 / 160 = 0.006875 USD: sales 12,345 JPY are 84.87 USD, the bill's
    // 5,000 JPY 34.38 (34.375 rounded half away from zero).
    const all = await profitLoss(t, YEAR);
    expect(all).toEqual({
      ...YEAR,
      currency: 'USD',
      revenue: { total: 134.87, accounts: [line('4000', 'Sales', 134.87)] },
      expenses: { total: 34.38, accounts: [line('5000', 'Expenses', 34.38)] },
      net_profit: 100.49,
    });
    const eur = await profitLoss(t, { ...YEAR, currency: 'EUR' });
    expect(eur).toMatchObject({ currency: 'EUR', revenue: { total: 0 }, net_profit: 0 });
  });

  it('reports three-decimal currencies (KWD) to the fils', async () => {
    const t = await newTenant();
    await sale(t, '2026-04-01', 1_234, { currency: 'KWD', tax_rate: 0 });
    await createEntry(t.client, {
      date: '2026-04-02',
      description: 'Fees',
      currency: 'KWD',
      debits: [{ account: '5000', amount: 1 }],
      credits: [{ account: '1000', amount: 1 }],
    });
    const kwd = await profitLoss(t, { ...YEAR, currency: 'KWD' });
    expect(kwd).toMatchObject({
      currency: 'KWD',
      revenue: { total: 1.234 },
      expenses: { total: 0.001 },
      net_profit: 1.233,
    });
  });

  it("defaults to the business's base currency when it is not USD", async () => {
    const t = await newTenant();
    // Set before anything posts: the base currency is fixed once the journal holds an entry.
    await updateBusiness(t.client, { base_currency: 'EUR' });
    await sale(t, '2026-04-01', 5_000, { currency: 'USD', tax_rate: 0 });
    await sale(t, '2026-04-02', 7_000, { currency: 'EUR', tax_rate: 0 });
    expect(await profitLoss(t, { ...YEAR, currency: 'EUR' })).toMatchObject({
      currency: 'EUR',
      revenue: { total: 70 },
      net_profit: 70,
    });
    // 50.00 USD at the feed's 1 / 1.1 = 0.9090909091 EUR a dollar is 45.45 EUR.
    expect(await profitLoss(t, YEAR)).toMatchObject({ currency: 'EUR', revenue: { total: 115.45 } });
  });
});

describe('profit and loss: refusals and isolation', () => {
  it.each([
    ['start_date=2026-02-30&end_date=2026-03-31', 'start_date'],
    ['start_date=2026-01-01&end_date=2026-13-01', 'end_date'],
    ['start_date=2026-1-1&end_date=2026-03-31', 'start_date'],
    ['start_date=2026-05-01&end_date=2026-04-30', 'end_date'],
    ['start_date=2016-01-01&end_date=2026-01-01', 'end_date'],
    ['start_date=2000-01-01&end_date=2026-12-31', 'end_date'],
    ['end_date=2026-12-31', 'start_date'],
    ['start_date=2026-01-01', 'end_date'],
    ['start_date=2026-01-01&end_date=2026-12-31&currency=usd', 'currency'],
    ['start_date=2026-01-01&end_date=2026-12-31&currency=XYZ', 'currency'],
  ])('answers 422 in the general envelope for %s, naming %s', async (query, field) => {
    const t = await newTenant();
    const res = await raw(server(), 'GET', `/v1/reports/profit-loss?${query}`, { token: t.accessToken });
    expectError(res, 422, 'VALIDATION_ERROR', field);
    expect(res.body).not.toHaveProperty('result');
  });

  it('answers a one-year range at the end of the calendar (year 9999)', async () => {
    const t = await newTenant();
    const res = await report(t, { start_date: '9999-01-01', end_date: '9999-12-31' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await unwrap(res)).data).toMatchObject({ net_profit: 0, revenue: { total: 0, accounts: [] } });
  });

  it("never counts another business's ledger or accounts", async () => {
    const [t, other] = [await newTenant(), await newTenant()];
    await createAccount(other.client, { code: '4100', name: 'Their income', type: 'revenue' });
    await sale(other, '2026-04-01', 5_000);
    await billOf(other.client, 2_000, { issue_date: '2026-04-02' });
    await createEntry(other.client, {
      date: '2026-04-03',
      description: 'Their consulting',
      debits: [{ account: '1000', amount: 900 }],
      credits: [{ account: '4100', amount: 900 }],
    });
    await sale(t, '2026-04-04', 100, { tax_rate: 0 });
    expect(await profitLoss(t, YEAR)).toEqual({
      ...YEAR,
      currency: 'USD',
      revenue: { total: 1, accounts: [line('4000', 'Sales', 1)] },
      expenses: { total: 0, accounts: [] },
      net_profit: 1,
    });
    const theirs = await profitLoss(other, YEAR);
    expect(theirs.revenue.accounts.map((a) => a.code)).toEqual(['4000', '4100']);
    expect(theirs.net_profit).toBe(toMajor(5_000 + 900 - 2_000));
  });
});
