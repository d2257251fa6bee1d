import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { unwrap, type finance, type general } from '../../client/index.js';
import { registerTenant, type TestTenant } from '../support/business.js';
import { expectResultError } from '../support/expect.js';
import { billOf, createEntry, payBill } from '../support/finance.js';
import { invoiceLine, issuedInvoice, payInvoice, voidInvoice, createInvoice } from '../support/general.js';
import { useTestServer } from '../support/setup.js';

// Tokens outlive the clock moves below.
const server = useTestServer({ env: { ACCESS_TOKEN_TTL: '3650d' }, worker: false });

const NOW = '2026-11-23T09:00:00.000Z';

beforeEach(() => server().clock.set(NOW));
afterEach(() => server().clock.reset());

const newTenant = () => registerTenant(server());

/**
 * An invoice issued on `issue_date` of `net` minor units (one line, USD unless told) at `tax_rate`%:
 * the general group takes major units.
 */
const sale = (
  t: TestTenant,
  issue_date: string,
  net: number,
  extra: { currency?: string; tax_rate?: number; due_date?: string } = {},
): Promise<general.Invoice> => {
  const divisor = extra.currency === 'JPY' ? 1 : 100;
  return issuedInvoice(t.client, {
    customer_id: t.customerId,
    issue_date,
    due_date: extra.due_date ?? '2030-12-31',
    ...(extra.currency && { currency: extra.currency }),
    items: [invoiceLine({ unit_price: net / divisor, tax_rate: extra.tax_rate ?? 20 })],
  });
};

const schedule = (t: TestTenant, query: finance.SalesScheduleQuery | Record<string, unknown>) =>
  t.client.finance.reports.getSalesSchedule({ query: query as finance.SalesScheduleQuery });
const scheduleOf = async (t: TestTenant, query: Partial<finance.SalesScheduleQuery>) =>
  (await unwrap(schedule(t, query))).data;

const calculator = async (t: TestTenant, query: finance.RevenueCalculatorQuery = {}) =>
  (await unwrap(t.client.finance.reports.getRevenueCalculator({ query }))).data;

const profitLoss = async (t: TestTenant, query: finance.ProfitLossQuery) =>
  (await unwrap(t.client.finance.reports.getProfitLoss({ query }))).data;

describe('sales schedule: periods', () => {
  it('groups by month by default: every month of the range, empty ones at 0, cumulative in order', async () => {
    const t = await newTenant();
    await sale(t, '2026-01-15', 10_000);
    await sale(t, '2026-01-31', 2_550);
    await sale(t, '2026-03-01', 40_000);
    const data = await scheduleOf(t, { startDate: '2026-01-01', endDate: '2026-04-30' });
    expect(data.periods).toEqual([
      { period: '2026-01', label: 'January 2026', revenue: 12_550, invoiceCount: 2, cumulative: 12_550 },
      { period: '2026-02', label: 'February 2026', revenue: 0, invoiceCount: 0, cumulative: 12_550 },
      { period: '2026-03', label: 'March 2026', revenue: 40_000, invoiceCount: 1, cumulative: 52_550 },
      { period: '2026-04', label: 'April 2026', revenue: 0, invoiceCount: 0, cumulative: 52_550 },
    ]);
    expect(data.summary).toEqual({ totalRevenue: 52_550, totalInvoices: 3, currency: 'USD' });
  });

  it('groups by quarter over two years, labelled Qn YYYY', async () => {
    const t = await newTenant();
    await sale(t, '2025-02-10', 1_000);
    await sale(t, '2025-06-30', 2_000);
    await sale(t, '2026-07-01', 4_000);
    const data = await scheduleOf(t, { startDate: '2025-01-01', endDate: '2026-12-31', groupBy: 'quarter' });
    expect(data.periods.map((p) => [p.period, p.label, p.revenue, p.invoiceCount, p.cumulative])).toEqual([
      ['2025-Q1', 'Q1 2025', 1_000, 1, 1_000],
      ['2025-Q2', 'Q2 2025', 2_000, 1, 3_000],
      ['2025-Q3', 'Q3 2025', 0, 0, 3_000],
      ['2025-Q4', 'Q4 2025', 0, 0, 3_000],
      ['2026-Q1', 'Q1 2026', 0, 0, 3_000],
      ['2026-Q2', 'Q2 2026', 0, 0, 3_000],
      ['2026-Q3', 'Q3 2026', 4_000, 1, 7_000],
      ['2026-Q4', 'Q4 2026', 0, 0, 7_000],
    ]);
  });

  it('groups by year, labelled YYYY, with years without sales at 0', async () => {
    const t = await newTenant();
    await sale(t, '2024-12-31', 500);
    await sale(t, '2026-01-01', 700);
    const data = await scheduleOf(t, { startDate: '2024-01-01', endDate: '2026-12-31', groupBy: 'year' });
    expect(data.periods).toEqual([
      { period: '2024', label: '2024', revenue: 500, invoiceCount: 1, cumulative: 500 },
      { period: '2025', label: '2025', revenue: 0, invoiceCount: 0, cumulative: 500 },
      { period: '2026', label: '2026', revenue: 700, invoiceCount: 1, cumulative: 1_200 },
    ]);
  });

  it('counts only the days of the range in its first and last periods', async () => {
    const t = await newTenant();
    await sale(t, '2026-01-09', 100);
    await sale(t, '2026-01-10', 200);
    await sale(t, '2026-02-20', 400);
    await sale(t, '2026-02-21', 800);
    const data = await scheduleOf(t, { startDate: '2026-01-10', endDate: '2026-02-20' });
    expect(data.periods.map((p) => [p.period, p.revenue, p.invoiceCount])).toEqual([
      ['2026-01', 200, 1],
      ['2026-02', 400, 1],
    ]);
    expect(data.items.map((i) => i.issueDate)).toEqual(['2026-01-10', '2026-02-20']);
  });

  it('answers a single day', async () => {
    const t = await newTenant();
    await sale(t, '2026-05-05', 1_234);
    const data = await scheduleOf(t, { startDate: '2026-05-05', endDate: '2026-05-05' });
    expect(data.periods).toEqual([
      { period: '2026-05', label: 'May 2026', revenue: 1_234, invoiceCount: 1, cumulative: 1_234 },
    ]);
  });

  it('counts net revenue: tax is not revenue', async () => {
    const t = await newTenant();
    const invoice = await sale(t, '2026-06-01', 10_000, { tax_rate: 25 });
    expect(invoice.total).toBe(125);
    const data = await scheduleOf(t, { startDate: '2026-06-01', endDate: '2026-06-30' });
    expect(data.summary.totalRevenue).toBe(10_000);
    expect(data.items[0]?.amount).toBe(10_000);
  });

  it('leaves out drafts, and voided invoices from the moment they are void', async () => {
    const t = await newTenant();
    await createInvoice(t.client, { customer_id: t.customerId, issue_date: '2026-06-02' });
    const kept = await sale(t, '2026-06-03', 1_000);
    const voided = await sale(t, '2026-06-04', 5_000);
    const before = await scheduleOf(t, { startDate: '2026-06-01', endDate: '2026-06-30' });
    expect(before.summary).toEqual({ totalRevenue: 6_000, totalInvoices: 2, currency: 'USD' });
    await voidInvoice(t.client, voided.id);
    const after = await scheduleOf(t, { startDate: '2026-06-01', endDate: '2026-06-30' });
    expect(after.summary).toEqual({ totalRevenue: 1_000, totalInvoices: 1, currency: 'USD' });
    expect(after.items.map((i) => i.invoiceId)).toEqual([kept.id]);
  });

  it('counts a paid invoice like an unpaid one', async () => {
    const t = await newTenant();
    const invoice = await sale(t, '2026-06-03', 1_000, { tax_rate: 0 });
    await payInvoice(t.client, invoice.id, 10);
    const data = await scheduleOf(t, { startDate: '2026-06-01', endDate: '2026-06-30' });
    expect(data.summary.totalRevenue).toBe(1_000);
    expect(data.items[0]?.status).toBe('paid');
  });
});

describe('sales schedule: currency', () => {
  it('covers only the requested currency, the base currency (USD) by default', async () => {
    const t = await newTenant();
    await sale(t, '2026-03-01', 1_000);
    await sale(t, '2026-03-02', 7_000, { currency: 'EUR' });
    await sale(t, '2026-03-03', 900, { currency: 'JPY' });
    const usd = await scheduleOf(t, { startDate: '2026-03-01', endDate: '2026-03-31' });
    expect(usd.summary).toEqual({ totalRevenue: 1_000, totalInvoices: 1, currency: 'USD' });
    expect(usd.items.map((i) => i.currency)).toEqual(['USD']);
    const eur = await scheduleOf(t, { startDate: '2026-03-01', endDate: '2026-03-31', currency: 'EUR' });
    expect(eur.summary).toEqual({ totalRevenue: 7_000, totalInvoices: 1, currency: 'EUR' });
    expect(eur.periods[0]?.revenue).toBe(7_000);
    const jpy = await scheduleOf(t, { startDate: '2026-03-01', endDate: '2026-03-31', currency: 'JPY' });
    expect(jpy.summary).toEqual({ totalRevenue: 900, totalInvoices: 1, currency: 'JPY' });
    const gbp = await scheduleOf(t, { startDate: '2026-03-01', endDate: '2026-03-31', currency: 'GBP' });
    expect(gbp.summary).toEqual({ totalRevenue: 0, totalInvoices: 0, currency: 'GBP' });
    expect(gbp.items).toEqual([]);
  });
});

describe('sales schedule: items', () => {
  it('lists each invoice with its number, client, date, net amount, currency and status', async () => {
    const t = await newTenant();
    const unpaid = await sale(t, '2026-02-01', 1_000, { due_date: '2026-12-31' });
    const overdue = await sale(t, '2026-02-02', 2_000, { due_date: '2026-03-01' });
    const paid = await sale(t, '2026-02-03', 3_000, { tax_rate: 0 });
    await payInvoice(t.client, paid.id, 30);
    const data = await scheduleOf(t, { startDate: '2026-02-01', endDate: '2026-02-28' });
    expect(data.items).toEqual([
      {
        invoiceId: unpaid.id,
        invoiceNumber: unpaid.number,
        clientName: 'Ada Lovelace',
        issueDate: '2026-02-01',
        amount: 1_000,
        currency: 'USD',
        status: 'unpaid',
      },
      {
        invoiceId: overdue.id,
        invoiceNumber: overdue.number,
        clientName: 'Ada Lovelace',
        issueDate: '2026-02-02',
        amount: 2_000,
        currency: 'USD',
        status: 'overdue',
      },
      {
        invoiceId: paid.id,
        invoiceNumber: paid.number,
        clientName: 'Ada Lovelace',
        issueDate: '2026-02-03',
        amount: 3_000,
        currency: 'USD',
        status: 'paid',
      },
    ]);
  });

  it('orders items by issue date then number, and pages them while periods stay whole', async () => {
    const t = await newTenant();
    const late = await sale(t, '2026-04-20', 100);
    const early = [await sale(t, '2026-04-02', 200), await sale(t, '2026-04-02', 300)];
    const mid = await sale(t, '2026-04-10', 400);
    const order = [...early, mid, late].map((i) => i.id);
    const all = await scheduleOf(t, { startDate: '2026-04-01', endDate: '2026-04-30' });
    expect(all.items.map((i) => i.invoiceId)).toEqual(order);
    const page = await scheduleOf(t, { startDate: '2026-04-01', endDate: '2026-04-30', limit: 2, offset: 1 });
    expect(page.items.map((i) => i.invoiceId)).toEqual(order.slice(1, 3));
    expect(page.periods).toEqual(all.periods);
    expect(page.summary).toEqual({ totalRevenue: 1_000, totalInvoices: 4, currency: 'USD' });
    const beyond = await scheduleOf(t, { startDate: '2026-04-01', endDate: '2026-04-30', offset: 10 });
    expect(beyond.items).toEqual([]);
  });
});

describe('sales schedule: VAT block', () => {
  it('is configured: false with zeros when the business has no configuration', async () => {
    const t = await newTenant();
    const data = await scheduleOf(t, { startDate: '2026-01-01', endDate: '2026-01-31' });
    expect(data.vatThreshold).toEqual({
      configured: false,
      thresholdAmount: 0,
      currentRevenue: 0,
      percentageReached: 0,
      registered: false,
      registrationNumber: null,
      projectedCrossingDate: null,
    });
  });

  it('reports the window ending today whatever the range', async () => {
    const t = await newTenant();
    await sale(t, '2025-11-23', 50_000); // outside the 12 months ending 2026-11-23
    await sale(t, '2025-11-24', 10_000);
    await sale(t, '2026-11-23', 20_000);
    await unwrap(
      t.client.finance.vat.createVatThreshold({
        body: {
          country: 'GB',
          thresholdAmount: 90_000,
          currency: 'USD',
          periodType: 'rolling_12_months',
          alertAtPercentage: 80,
          alertEmail: 'accounts@example.com',
        },
      }),
    );
    const data = await scheduleOf(t, { startDate: '2020-01-01', endDate: '2020-01-31' });
    expect(data.vatThreshold).toMatchObject({
      configured: true,
      thresholdAmount: 90_000,
      currentRevenue: 30_000,
      percentageReached: 33.33,
      registered: false,
      registrationNumber: null,
    });
  });
});

describe('sales schedule: refusals', () => {
  it.each([
    [{ startDate: '2026-02-30', endDate: '2026-03-31' }, 'startDate'],
    [{ startDate: '2026-01-01', endDate: '2026-13-01' }, 'endDate'],
    [{ startDate: '2026-03-01', endDate: '2026-02-28' }, 'endDate'],
    [{ startDate: '2016-01-01', endDate: '2026-01-01' }, 'endDate'],
    [{ startDate: '2026-01-01', endDate: '2026-12-31', groupBy: 'week' }, 'groupBy'],
    [{ startDate: '2026-01-01', endDate: '2026-12-31', currency: 'usd' }, 'currency'],
    [{ startDate: '2026-01-01', endDate: '2026-12-31', limit: 0 }, 'limit'],
    [{ startDate: '2026-01-01', endDate: '2026-12-31', limit: 5001 }, 'limit'],
    [{ endDate: '2026-12-31' }, 'startDate'],
  ])('answers 422 for %j, naming %s', async (query, field) => {
    const t = await newTenant();
    expectResultError(await schedule(t, query), 422, 'VALIDATION_ERROR', field);
  });

  it('accepts a range of just under 10 years', async () => {
    const t = await newTenant();
    const data = await scheduleOf(t, { startDate: '2016-01-01', endDate: '2025-12-31', groupBy: 'year' });
    expect(data.periods).toHaveLength(10);
  });

  it("never shows another business's invoices", async () => {
    const [t, other] = [await newTenant(), await newTenant()];
    await sale(other, '2026-01-05', 9_999);
    const data = await scheduleOf(t, { startDate: '2026-01-01', endDate: '2026-01-31' });
    expect(data.summary.totalRevenue).toBe(0);
    expect(data.items).toEqual([]);
  });
});

describe('revenue calculator', () => {
  it('on a non-leap year: ytd, rolling 12 months, monthly average and the projection, half up', async () => {
    const t = await newTenant();
    await sale(t, '2024-03-01', 99_999); // before the 12 months ending 2025-03-10
    await sale(t, '2024-03-11', 1_000); // first day of those 12 months
    await sale(t, '2025-01-01', 2_001);
    await sale(t, '2025-03-10', 4_000);
    await sale(t, '2025-03-11', 8_000); // after asOfDate
    const data = await calculator(t, { asOfDate: '2025-03-10' });
    // ytd 6001 over 69 elapsed days (Jan 31 + Feb 28 + 10) of 365: 6001 * 365 / 69 = 31744.2...
    expect(data).toEqual({
      ytdRevenue: 6_001,
      rolling12MonthRevenue: 7_001,
      monthlyAverage: 583, // 7001 / 12 = 583.42
      projectedAnnual: 31_744,
      currency: 'USD',
      asOfDate: '2025-03-10',
    });
  });

  it('on a leap year counts 366 days and 29 February', async () => {
    const t = await newTenant();
    await sale(t, '2024-01-15', 3_000);
    await sale(t, '2024-02-29', 3_000);
    const data = await calculator(t, { asOfDate: '2024-02-29' });
    // 60 days elapsed (31 + 29); 6000 * 366 / 60 = 36600 exactly.
    expect(data.ytdRevenue).toBe(6_000);
    expect(data.projectedAnnual).toBe(36_600);
    expect(data.rolling12MonthRevenue).toBe(6_000);
    expect(data.monthlyAverage).toBe(500);
  });

  it('counts asOfDate as elapsed: on 1 January the projection is 365 days of that day', async () => {
    const t = await newTenant();
    await sale(t, '2025-01-01', 101);
    const data = await calculator(t, { asOfDate: '2025-01-01' });
    expect(data.ytdRevenue).toBe(101);
    expect(data.projectedAnnual).toBe(36_865);
  });

  it('rounds halves up: 6 / 12 months is 1 (0.5 up), 30 / 12 is 3 (2.5 up)', async () => {
    const t = await newTenant();
    await sale(t, '2026-06-01', 6);
    expect((await calculator(t, { asOfDate: '2026-06-30' })).monthlyAverage).toBe(1);
    await sale(t, '2026-06-02', 24);
    expect((await calculator(t, { asOfDate: '2026-06-30' })).monthlyAverage).toBe(3);
  });

  it('rolls 12 months from the day after the same date a year before, leap day included', async () => {
    const t = await newTenant();
    await sale(t, '2024-02-29', 1_000); // the first day of the 12 months ending 2025-02-28
    await sale(t, '2024-03-01', 2_000);
    const data = await calculator(t, { asOfDate: '2025-02-28' });
    // addMonths(2025-02-28, -12) = 2024-02-28; the window starts the day after: 2024-02-29.
    expect(data.rolling12MonthRevenue).toBe(3_000);
    expect(data.ytdRevenue).toBe(0);
    expect(data.projectedAnnual).toBe(0);
  });

  it('defaults asOfDate to today on the clock, and the currency to the base currency', async () => {
    const t = await newTenant();
    await sale(t, '2026-11-23', 500);
    await sale(t, '2026-11-23', 700, { currency: 'EUR' });
    const data = await calculator(t);
    expect(data.asOfDate).toBe('2026-11-23');
    expect(data.currency).toBe('USD');
    expect(data.ytdRevenue).toBe(500);
    const eur = await calculator(t, { currency: 'EUR' });
    expect(eur.ytdRevenue).toBe(700);
    expect(eur.currency).toBe('EUR');
  });

  it('carries the VAT block at asOfDate only when a threshold is configured', async () => {
    const t = await newTenant();
    expect(await calculator(t, { asOfDate: '2026-06-30' })).not.toHaveProperty('vatThreshold');
    await sale(t, '2026-03-31', 25_000);
    await sale(t, '2026-04-01', 10_000);
    await unwrap(
      t.client.finance.vat.createVatThreshold({
        body: {
          country: 'DE',
          thresholdAmount: 100_000,
          currency: 'USD',
          periodType: 'quarterly',
          alertAtPercentage: 90,
          alertEmail: 'tax@example.com',
        },
      }),
    );
    const data = await calculator(t, { asOfDate: '2026-04-15' });
    expect(data.vatThreshold).toMatchObject({
      configured: true,
      currentRevenue: 10_000,
      percentageReached: 10,
    });
  });

  it.each([
    [{ asOfDate: '2025-02-29' }, 'asOfDate'],
    [{ asOfDate: 'yesterday' }, 'asOfDate'],
    [{ currency: 'EURO' }, 'currency'],
  ])('answers 422 for %j', async (query, field) => {
    const t = await newTenant();
    const res = await t.client.finance.reports.getRevenueCalculator({
      query: query,
    });
    expectResultError(res, 422, 'VALIDATION_ERROR', field);
  });
});

describe('profit and loss', () => {
  it('matches the postings of invoices and bills, in major units', async () => {
    const t = await newTenant();
    await sale(t, '2026-02-10', 150_000, { tax_rate: 20 }); // Cr 4000 1500.00
    await sale(t, '2026-03-05', 25_050, { tax_rate: 0 }); // Cr 4000 250.50
    // Pending at create: posted Dr 5000 / Cr 2000 on its issue date.
    const bill = await billOf(t.client, 40_025, { issue_date: '2026-02-20' });
    await payBill(t.client, bill.id, 40_025, { payment_date: '2026-03-01' });
    const data = await profitLoss(t, { start_date: '2026-01-01', end_date: '2026-12-31' });
    expect(data).toEqual({
      start_date: '2026-01-01',
      end_date: '2026-12-31',
      currency: 'USD',
      revenue: { total: 1_750.5, accounts: [{ code: '4000', name: 'Sales', amount: 1_750.5 }] },
      expenses: { total: 400.25, accounts: [{ code: '5000', name: 'Expenses', amount: 400.25 }] },
      net_profit: 1_350.25,
    });
  });

  it('is bounded by the range, both ends included', async () => {
    const t = await newTenant();
    await sale(t, '2026-01-31', 100, { tax_rate: 0 });
    await sale(t, '2026-02-01', 200, { tax_rate: 0 });
    await sale(t, '2026-02-28', 400, { tax_rate: 0 });
    await sale(t, '2026-03-01', 800, { tax_rate: 0 });
    const data = await profitLoss(t, { start_date: '2026-02-01', end_date: '2026-02-28' });
    expect(data.revenue.total).toBe(6);
    expect(data.net_profit).toBe(6);
  });

  it('nets a voided invoice out from the void date on, not before', async () => {
    const t = await newTenant();
    const invoice = await sale(t, '2026-10-01', 10_000, { tax_rate: 0 });
    await voidInvoice(t.client, invoice.id); // reversed on the void's day, today 2026-11-23
    const october = await profitLoss(t, { start_date: '2026-10-01', end_date: '2026-10-31' });
    expect(october.revenue.total).toBe(100);
    const year = await profitLoss(t, { start_date: '2026-01-01', end_date: '2026-12-31' });
    expect(year.revenue.total).toBe(0);
    expect(year.net_profit).toBe(0);
  });

  it('is not moved by payments', async () => {
    const t = await newTenant();
    const invoice = await sale(t, '2026-05-01', 10_000, { tax_rate: 0 });
    const before = await profitLoss(t, { start_date: '2026-01-01', end_date: '2026-12-31' });
    await payInvoice(t.client, invoice.id, 100, { payment_date: '2026-05-02' });
    expect(await profitLoss(t, { start_date: '2026-01-01', end_date: '2026-12-31' })).toEqual(before);
  });

  it('includes manual journal entries on revenue and expense accounts', async () => {
    const t = await newTenant();
    await createEntry(t.client, {
      date: '2026-04-01',
      description: 'Office rent',
      debits: [{ account: '5000', amount: 120_000 }],
      credits: [{ account: '1010', amount: 120_000 }],
    });
    const data = await profitLoss(t, { start_date: '2026-04-01', end_date: '2026-04-30' });
    expect(data.expenses).toEqual({
      total: 1_200,
      accounts: [{ code: '5000', name: 'Expenses', amount: 1_200 }],
    });
    expect(data.net_profit).toBe(-1_200);
  });

  it('answers in the requested currency only, with JPY in whole units; by default every currency in USD', async () => {
    const t = await newTenant();
    await sale(t, '2026-04-01', 5_000, { currency: 'JPY', tax_rate: 0 });
    await sale(t, '2026-04-01', 5_000, { tax_rate: 0 });
    const april = { start_date: '2026-04-01', end_date: '2026-04-30' };
    const jpy = await profitLoss(t, { ...april, currency: 'JPY' });
    expect(jpy.currency).toBe('JPY');
    expect(jpy.revenue.total).toBe(5_000);
    expect((await profitLoss(t, { ...april, currency: 'USD' })).revenue.total).toBe(50);
    // 5,000 JPY at the feed's 1.1 / 160 = 0.006875 USD a yen is 34.375: 34.38 USD.
    const all = await profitLoss(t, april);
    expect(all.currency).toBe('USD');
    expect(all.revenue.total).toBe(84.38);
  });

  it.each([
    [{ start_date: '2026-04-31', end_date: '2026-05-31' }, 'start_date'],
    [{ start_date: '2026-05-01', end_date: '2026-04-30' }, 'end_date'],
    [{ start_date: '2016-01-01', end_date: '2026-01-01' }, 'end_date'],
    [{ start_date: '2026-01-01' }, 'end_date'],
  ])('answers 422 in the general envelope for %j', async (query, field) => {
    const t = await newTenant();
    const res = await t.client.finance.reports.getProfitLoss({ query: query as finance.ProfitLossQuery });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      error: {
        code: 'VALIDATION_ERROR',
        details: expect.arrayContaining([expect.objectContaining({ field })]),
      },
    });
  });

  it("never counts another business's ledger", async () => {
    const [t, other] = [await newTenant(), await newTenant()];
    await sale(other, '2026-04-01', 5_000);
    const data = await profitLoss(t, { start_date: '2026-01-01', end_date: '2026-12-31' });
    expect(data.revenue).toEqual({ total: 0, accounts: expect.any(Array) });
    expect(data.net_profit).toBe(0);
  });
});
