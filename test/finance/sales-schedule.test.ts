import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { unwrap, type finance, type general } from '../../client/index.js';
import { raw, registerTenant, type TestTenant } from '../support/business.js';
import { expectResultError } from '../support/expect.js';
import {
  createCustomer,
  createInvoice,
  invoiceLine,
  issuedInvoice,
  issueInvoice,
  payInvoice,
  voidInvoice,
} from '../support/general.js';
import { useTestServer } from '../support/setup.js';
import { updateBusiness } from '../support/auth.js';
import { setRate } from '../support/finance.js';

// Tokens outlive the clock moves below.
const server = useTestServer({ env: { ACCESS_TOKEN_TTL: '3650d' }, worker: false });

const NOW = '2026-11-23T09:00:00.000Z';
const TODAY = '2026-11-23';

beforeEach(() => server().clock.set(NOW));
afterEach(() => server().clock.reset());

/** A business of its own for each test, so its reports hold only what the test issues. */
const newTenant = () => registerTenant(server());

/** Decimals of the currencies the tests use (JPY has none). */
const DIVISOR: Record<string, number> = { USD: 100, EUR: 100, GBP: 100, JPY: 1 };

/** Major units as the general group answers them, in minor units of `currency`. */
const minor = (major: number, currency = 'USD') => Math.round(major * (DIVISOR[currency] ?? 100));

interface SaleOptions {
  currency?: string;
  tax_rate?: number;
  due_date?: string;
  customer_id?: string;
}

/** An invoice issued on `issue_date` of one line worth `net` minor units (USD and 20% tax unless told). */
const sale = (t: TestTenant, issue_date: string, net: number, extra: SaleOptions = {}) => {
  const currency = extra.currency ?? 'USD';
  return issuedInvoice(t.client, {
    customer_id: extra.customer_id ?? t.customerId,
    issue_date,
    due_date: extra.due_date ?? '2030-12-31',
    currency,
    items: [invoiceLine({ unit_price: net / (DIVISOR[currency] ?? 100), tax_rate: extra.tax_rate ?? 20 })],
  });
};

type Query = Partial<finance.SalesScheduleQuery>;

const schedule = (t: TestTenant, query: Query | Record<string, unknown>) =>
  t.client.finance.reports.getSalesSchedule({ query: query as finance.SalesScheduleQuery });

const scheduleOf = async (t: TestTenant, query: Query) => (await unwrap(schedule(t, query))).data;

/** The date `n` days after `date` (UTC). */
const addDays = (date: string, n: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

type Sale = { date: string; net: number };

/**
 * The periods the report should list, worked out independently of the server: every calendar
 * month, quarter or year that meets [start, end], each with the sales of the range that fall in it.
 */
function expectedPeriods(
  sales: Sale[],
  start: string,
  end: string,
  groupBy: finance.SalesScheduleQuery['groupBy'],
) {
  const keyOf = (date: string) => {
    const year = date.slice(0, 4);
    const month = Number(date.slice(5, 7));
    if (groupBy === 'year') return { period: year, label: year };
    if (groupBy === 'quarter') {
      const q = Math.ceil(month / 3);
      return { period: `${year}-Q${q}`, label: `Q${q} ${year}` };
    }
    return { period: date.slice(0, 7), label: `${MONTHS[month - 1]} ${year}` };
  };
  const keys: { period: string; label: string }[] = [];
  for (let day = start; day <= end; day = addDays(day, 1)) {
    const key = keyOf(day);
    if (keys.at(-1)?.period !== key.period) keys.push(key);
  }
  let cumulative = 0;
  return keys.map((key) => {
    const inside = sales.filter(
      (s) => s.date >= start && s.date <= end && keyOf(s.date).period === key.period,
    );
    const revenue = inside.reduce((sum, s) => sum + s.net, 0);
    cumulative += revenue;
    return { ...key, revenue, invoiceCount: inside.length, cumulative };
  });
}

const vatBody = (
  overrides: Partial<finance.CreateVatThresholdBody> = {},
): finance.CreateVatThresholdBody => ({
  country: 'GB',
  thresholdAmount: 100_000,
  currency: 'USD',
  periodType: 'annual',
  alertAtPercentage: 95,
  alertEmail: 'accounts@example.com',
  ...overrides,
});

const configureVat = async (t: TestTenant, overrides: Partial<finance.CreateVatThresholdBody> = {}) =>
  (await unwrap(t.client.finance.vat.createVatThreshold({ body: vatBody(overrides) }))).data;

const NO_VAT = {
  configured: false,
  thresholdAmount: 0,
  currentRevenue: 0,
  percentageReached: 0,
  registered: false,
  registrationNumber: null,
  projectedCrossingDate: null,
};

describe('sales schedule: periods', () => {
  it('groups by month by default: every month of the range, empty ones at 0, cumulative in order', async () => {
    const t = await newTenant();
    await sale(t, '2025-11-03', 10_000);
    await sale(t, '2025-11-30', 2_550);
    await sale(t, '2026-01-01', 40_000);
    await sale(t, '2026-02-28', 1);
    const data = await scheduleOf(t, { startDate: '2025-11-01', endDate: '2026-03-31' });
    expect(data.periods).toEqual([
      {
        period: '2025-11',
        label: 'November 2025',
        revenue: 10_000 + 2_550,
        invoiceCount: 2,
        cumulative: 12_550,
      },
      { period: '2025-12', label: 'December 2025', revenue: 0, invoiceCount: 0, cumulative: 12_550 },
      { period: '2026-01', label: 'January 2026', revenue: 40_000, invoiceCount: 1, cumulative: 52_550 },
      { period: '2026-02', label: 'February 2026', revenue: 1, invoiceCount: 1, cumulative: 52_551 },
      { period: '2026-03', label: 'March 2026', revenue: 0, invoiceCount: 0, cumulative: 52_551 },
    ]);
    expect(data.summary).toEqual({ totalRevenue: 52_551, totalInvoices: 4, currency: 'USD' });
    const explicit = await scheduleOf(t, {
      startDate: '2025-11-01',
      endDate: '2026-03-31',
      groupBy: 'month',
    });
    expect(explicit).toEqual(data);
  });

  it('names the twelve months of a year YYYY-MM and "Month YYYY", all at 0 without sales', async () => {
    const t = await newTenant();
    const data = await scheduleOf(t, { startDate: '2026-01-01', endDate: '2026-12-31' });
    expect(data.periods).toEqual(
      MONTHS.map((name, i) => ({
        period: `2026-${String(i + 1).padStart(2, '0')}`,
        label: `${name} 2026`,
        revenue: 0,
        invoiceCount: 0,
        cumulative: 0,
      })),
    );
    expect(data.items).toEqual([]);
    expect(data.summary).toEqual({ totalRevenue: 0, totalInvoices: 0, currency: 'USD' });
  });

  it('groups by quarter: YYYY-Qn and "Qn YYYY", quarter edges on the right side', async () => {
    const t = await newTenant();
    await sale(t, '2025-12-31', 1); // Q4 2025
    await sale(t, '2026-01-01', 10); // Q1
    await sale(t, '2026-03-31', 100); // Q1
    await sale(t, '2026-04-01', 1_000); // Q2
    await sale(t, '2026-09-30', 10_000); // Q3
    await sale(t, '2026-10-01', 100_000); // Q4
    const data = await scheduleOf(t, { startDate: '2025-10-01', endDate: '2027-03-31', groupBy: 'quarter' });
    expect(data.periods).toEqual([
      { period: '2025-Q4', label: 'Q4 2025', revenue: 1, invoiceCount: 1, cumulative: 1 },
      { period: '2026-Q1', label: 'Q1 2026', revenue: 110, invoiceCount: 2, cumulative: 111 },
      { period: '2026-Q2', label: 'Q2 2026', revenue: 1_000, invoiceCount: 1, cumulative: 1_111 },
      { period: '2026-Q3', label: 'Q3 2026', revenue: 10_000, invoiceCount: 1, cumulative: 11_111 },
      { period: '2026-Q4', label: 'Q4 2026', revenue: 100_000, invoiceCount: 1, cumulative: 111_111 },
      { period: '2027-Q1', label: 'Q1 2027', revenue: 0, invoiceCount: 0, cumulative: 111_111 },
    ]);
    expect(data.summary).toEqual({ totalRevenue: 111_111, totalInvoices: 6, currency: 'USD' });
  });

  it('groups by year: YYYY for both, years without sales at 0', async () => {
    const t = await newTenant();
    await sale(t, '2022-01-01', 500);
    await sale(t, '2024-12-31', 700);
    await sale(t, '2024-02-29', 30);
    const data = await scheduleOf(t, { startDate: '2021-01-01', endDate: '2025-12-31', groupBy: 'year' });
    expect(data.periods).toEqual([
      { period: '2021', label: '2021', revenue: 0, invoiceCount: 0, cumulative: 0 },
      { period: '2022', label: '2022', revenue: 500, invoiceCount: 1, cumulative: 500 },
      { period: '2023', label: '2023', revenue: 0, invoiceCount: 0, cumulative: 500 },
      { period: '2024', label: '2024', revenue: 730, invoiceCount: 2, cumulative: 1_230 },
      { period: '2025', label: '2025', revenue: 0, invoiceCount: 0, cumulative: 1_230 },
    ]);
  });

  it('puts 29 February in February and in Q1 of a leap year', async () => {
    const t = await newTenant();
    await sale(t, '2024-02-29', 2_900);
    await sale(t, '2024-03-01', 300);
    const months = await scheduleOf(t, { startDate: '2024-02-01', endDate: '2024-03-31' });
    expect(months.periods.map((p) => [p.period, p.revenue])).toEqual([
      ['2024-02', 2_900],
      ['2024-03', 300],
    ]);
    const quarters = await scheduleOf(t, {
      startDate: '2024-01-01',
      endDate: '2024-06-30',
      groupBy: 'quarter',
    });
    expect(quarters.periods.map((p) => [p.period, p.revenue, p.invoiceCount])).toEqual([
      ['2024-Q1', 3_200, 2],
      ['2024-Q2', 0, 0],
    ]);
  });

  it('keys a range starting and ending mid-month by whole months but counts only the days of the range', async () => {
    const t = await newTenant();
    await sale(t, '2026-01-09', 100); // the day before the range
    await sale(t, '2026-01-10', 200); // its first day
    await sale(t, '2026-02-20', 400); // its last day
    await sale(t, '2026-02-21', 800); // the day after
    const data = await scheduleOf(t, { startDate: '2026-01-10', endDate: '2026-02-20' });
    expect(data.periods).toEqual([
      { period: '2026-01', label: 'January 2026', revenue: 200, invoiceCount: 1, cumulative: 200 },
      { period: '2026-02', label: 'February 2026', revenue: 400, invoiceCount: 1, cumulative: 600 },
    ]);
    expect(data.items.map((i) => i.issueDate)).toEqual(['2026-01-10', '2026-02-20']);
    expect(data.summary).toEqual({ totalRevenue: 600, totalInvoices: 2, currency: 'USD' });
  });

  it('does the same for partial quarters and years: whole keys, only the days of the range counted', async () => {
    const t = await newTenant();
    const sales: Sale[] = [
      { date: '2025-06-30', net: 1 },
      { date: '2025-07-01', net: 20 },
      { date: '2026-02-14', net: 300 },
      { date: '2026-02-15', net: 4_000 },
      { date: '2026-05-15', net: 50_000 },
      { date: '2026-05-16', net: 600_000 },
    ];
    for (const s of sales) await sale(t, s.date, s.net);
    const quarters = await scheduleOf(t, {
      startDate: '2026-02-15',
      endDate: '2026-05-15',
      groupBy: 'quarter',
    });
    expect(quarters.periods).toEqual([
      { period: '2026-Q1', label: 'Q1 2026', revenue: 4_000, invoiceCount: 1, cumulative: 4_000 },
      { period: '2026-Q2', label: 'Q2 2026', revenue: 50_000, invoiceCount: 1, cumulative: 54_000 },
    ]);
    const years = await scheduleOf(t, { startDate: '2025-07-01', endDate: '2026-05-15', groupBy: 'year' });
    expect(years.periods).toEqual([
      { period: '2025', label: '2025', revenue: 20, invoiceCount: 1, cumulative: 20 },
      { period: '2026', label: '2026', revenue: 4_300 + 50_000, invoiceCount: 3, cumulative: 54_320 },
    ]);
    expect(years.summary.totalRevenue).toBe(54_320);
  });

  it('answers a one-day range, and a range of the last day of one month and the first of the next', async () => {
    const t = await newTenant();
    await sale(t, '2026-05-31', 1_234);
    await sale(t, '2026-06-01', 4_321);
    const day = await scheduleOf(t, { startDate: '2026-05-31', endDate: '2026-05-31' });
    expect(day.periods).toEqual([
      { period: '2026-05', label: 'May 2026', revenue: 1_234, invoiceCount: 1, cumulative: 1_234 },
    ]);
    const two = await scheduleOf(t, { startDate: '2026-05-31', endDate: '2026-06-01' });
    expect(two.periods.map((p) => [p.period, p.revenue, p.cumulative])).toEqual([
      ['2026-05', 1_234, 1_234],
      ['2026-06', 4_321, 5_555],
    ]);
    const year = await scheduleOf(t, { startDate: '2026-12-31', endDate: '2027-01-01', groupBy: 'year' });
    expect(year.periods.map((p) => p.period)).toEqual(['2026', '2027']);
  });

  it('agrees with the sales issued for every grouping, the last cumulative being the total', async () => {
    const t = await newTenant();
    const sales: Sale[] = [
      { date: '2024-11-30', net: 9_999 },
      { date: '2025-01-15', net: 1_005 },
      { date: '2025-01-15', net: 2_995 },
      { date: '2025-03-31', net: 10_001 },
      { date: '2025-04-01', net: 77 },
      { date: '2025-08-08', net: 808 },
      { date: '2025-12-31', net: 123_456 },
      { date: '2026-02-28', net: 50 },
      { date: '2026-07-04', net: 7_400 },
      { date: '2026-11-23', net: 1_123 },
    ];
    for (const s of sales) await sale(t, s.date, s.net);
    const [start, end] = ['2024-12-15', '2026-11-23'];
    const inRange = sales.filter((s) => s.date >= start && s.date <= end);
    for (const groupBy of ['month', 'quarter', 'year'] as const) {
      const data = await scheduleOf(t, { startDate: start, endDate: end, groupBy });
      expect(data.periods, groupBy).toEqual(expectedPeriods(sales, start, end, groupBy));
      expect(data.summary).toEqual({
        totalRevenue: inRange.reduce((sum, s) => sum + s.net, 0),
        totalInvoices: inRange.length,
        currency: 'USD',
      });
      expect(data.periods.at(-1)?.cumulative).toBe(data.summary.totalRevenue);
      expect(data.items).toHaveLength(inRange.length);
    }
  });

  it('counts every invoice of a busy day', async () => {
    const t = await newTenant();
    const nets = Array.from({ length: 20 }, (_, i) => 100 + i);
    for (const net of nets) await sale(t, '2026-03-17', net);
    const data = await scheduleOf(t, { startDate: '2026-03-01', endDate: '2026-03-31' });
    const total = nets.reduce((sum, n) => sum + n, 0);
    expect(data.periods).toEqual([
      { period: '2026-03', label: 'March 2026', revenue: total, invoiceCount: 20, cumulative: total },
    ]);
    expect(data.items.map((i) => i.amount).sort((a, b) => a - b)).toEqual(nets);
  });
});

describe('sales schedule: what counts as revenue', () => {
  it('is the net (pre-tax) subtotal of each invoice, several lines and rounding included', async () => {
    const t = await newTenant();
    const invoice = await issuedInvoice(t.client, {
      customer_id: t.customerId,
      issue_date: '2026-06-01',
      due_date: '2030-12-31',
      items: [
        invoiceLine({ quantity: 3, unit_price: 33.33, tax_rate: 7.5 }),
        invoiceLine({ quantity: 1.5, unit_price: 0.05, tax_rate: 10 }),
        invoiceLine({ unit_price: 250, tax_rate: 0 }),
      ],
    });
    expect(invoice.tax).toBeGreaterThan(0);
    const net = minor(invoice.subtotal);
    expect(net).toBe(9_999 + 8 + 25_000); // 99.99, 0.075 rounded half up to 0.08, 250
    const data = await scheduleOf(t, { startDate: '2026-06-01', endDate: '2026-06-30' });
    expect(data.summary.totalRevenue).toBe(net);
    expect(data.periods[0]?.revenue).toBe(net);
    expect(data.items.map((i) => i.amount)).toEqual([net]);
    expect(net).toBeLessThan(minor(invoice.total));
  });

  it('leaves out drafts, whatever their issue_date', async () => {
    const t = await newTenant();
    await createInvoice(t.client, { customer_id: t.customerId, issue_date: '2026-06-02' });
    const issued = await sale(t, '2026-06-03', 1_000);
    const data = await scheduleOf(t, { startDate: '2026-06-01', endDate: '2026-06-30' });
    expect(data.summary).toEqual({ totalRevenue: 1_000, totalInvoices: 1, currency: 'USD' });
    expect(data.items.map((i) => i.invoiceId)).toEqual([issued.id]);
  });

  it('counts a draft once issued, on its issue_date, not on the day it was issued', async () => {
    const t = await newTenant();
    const draft = await createInvoice(t.client, {
      customer_id: t.customerId,
      issue_date: '2026-04-30',
      items: [invoiceLine({ unit_price: 12.34, tax_rate: 0 })],
    });
    await issueInvoice(t.client, draft.id);
    const data = await scheduleOf(t, { startDate: '2026-04-01', endDate: '2026-11-30' });
    const april = data.periods.find((p) => p.period === '2026-04');
    const november = data.periods.find((p) => p.period === '2026-11');
    expect(april).toMatchObject({ revenue: 1_234, invoiceCount: 1 });
    expect(november).toMatchObject({ revenue: 0, invoiceCount: 0 });
  });

  it('dates an invoice issued without issue_date on the day of the test clock', async () => {
    const t = await newTenant();
    const draft = await createInvoice(t.client, {
      customer_id: t.customerId,
      items: [invoiceLine({ unit_price: 5, tax_rate: 0 })],
    });
    await issueInvoice(t.client, draft.id);
    const data = await scheduleOf(t, { startDate: TODAY, endDate: TODAY });
    expect(data.items).toMatchObject([{ invoiceId: draft.id, issueDate: TODAY, amount: 500 }]);
  });

  it('takes a voided invoice out of periods, items and summary; voiding a draft changes nothing', async () => {
    const t = await newTenant();
    const kept = await sale(t, '2026-06-03', 1_000);
    const voided = await sale(t, '2026-06-04', 5_000);
    const draft = await createInvoice(t.client, { customer_id: t.customerId, issue_date: '2026-06-05' });
    const query = { startDate: '2026-06-01', endDate: '2026-07-31' };
    const before = await scheduleOf(t, query);
    expect(before.summary).toEqual({ totalRevenue: 6_000, totalInvoices: 2, currency: 'USD' });
    expect(before.periods[0]).toMatchObject({ revenue: 6_000, invoiceCount: 2 });

    // Voided later (the clock is months after the issue date): gone from its issue month.
    await voidInvoice(t.client, voided.id);
    await voidInvoice(t.client, draft.id);
    const after = await scheduleOf(t, query);
    expect(after.periods).toEqual([
      { period: '2026-06', label: 'June 2026', revenue: 1_000, invoiceCount: 1, cumulative: 1_000 },
      { period: '2026-07', label: 'July 2026', revenue: 0, invoiceCount: 0, cumulative: 1_000 },
    ]);
    expect(after.summary).toEqual({ totalRevenue: 1_000, totalInvoices: 1, currency: 'USD' });
    expect(after.items.map((i) => i.invoiceId)).toEqual([kept.id]);
  });

  it('counts paid and partly paid invoices like unpaid ones, at their net amount', async () => {
    const t = await newTenant();
    const paid = await sale(t, '2026-06-03', 1_000, { tax_rate: 10 });
    const part = await sale(t, '2026-06-04', 3_000, { tax_rate: 10 });
    await payInvoice(t.client, paid.id, paid.total, { payment_date: '2026-06-10' });
    await payInvoice(t.client, part.id, 5, { payment_date: '2026-06-10' });
    const data = await scheduleOf(t, { startDate: '2026-06-01', endDate: '2026-06-30' });
    expect(data.summary).toEqual({ totalRevenue: 4_000, totalInvoices: 2, currency: 'USD' });
    expect(data.items.map((i) => [i.amount, i.status])).toEqual([
      [1_000, 'paid'],
      [3_000, 'unpaid'],
    ]);
  });
});

describe('sales schedule: items', () => {
  it('lists each invoice with its id, number, client name, issue date, net amount and currency', async () => {
    const t = await newTenant();
    const grace = await createCustomer(t.client, { name: 'Grace Hopper' });
    const first = await sale(t, '2026-02-01', 1_050, { tax_rate: 20 });
    const second = await sale(t, '2026-02-02', 2_000, { customer_id: grace.id, tax_rate: 0 });
    const data = await scheduleOf(t, { startDate: '2026-02-01', endDate: '2026-02-28' });
    expect(data.items).toEqual([
      {
        invoiceId: first.id,
        invoiceNumber: first.number,
        clientName: 'Ada Lovelace',
        issueDate: '2026-02-01',
        amount: minor(first.subtotal),
        currency: 'USD',
        status: 'unpaid',
      },
      {
        invoiceId: second.id,
        invoiceNumber: second.number,
        clientName: 'Grace Hopper',
        issueDate: '2026-02-02',
        amount: minor(second.subtotal),
        currency: 'USD',
        status: 'unpaid',
      },
    ]);
    expect(data.items.map((i) => i.amount)).toEqual([1_050, 2_000]);
    expect(first.number).toMatch(/^INV-\d{6}$/);
  });

  it('reports unpaid, overdue (due date passed on the clock) and paid', async () => {
    const t = await newTenant();
    const dueToday = await sale(t, '2026-10-01', 100, { due_date: TODAY });
    const dueYesterday = await sale(t, '2026-10-02', 200, { due_date: '2026-11-22' });
    const partLate = await sale(t, '2026-10-03', 300, { due_date: '2026-11-01', tax_rate: 0 });
    const paidLate = await sale(t, '2026-10-04', 400, { due_date: '2026-11-01', tax_rate: 0 });
    const dueLater = await sale(t, '2026-10-05', 500, { due_date: '2027-01-31' });
    await payInvoice(t.client, partLate.id, 1);
    await payInvoice(t.client, paidLate.id, 4);
    const statuses = async () =>
      Object.fromEntries(
        (await scheduleOf(t, { startDate: '2026-10-01', endDate: '2026-10-31' })).items.map((i) => [
          i.invoiceId,
          i.status,
        ]),
      );
    expect(await statuses()).toEqual({
      [dueToday.id]: 'unpaid',
      [dueYesterday.id]: 'overdue',
      [partLate.id]: 'overdue',
      [paidLate.id]: 'paid',
      [dueLater.id]: 'unpaid',
    });
    // A day later, the invoice due today is overdue too; nothing else moves.
    server().clock.set('2026-11-24T00:00:00.000Z');
    expect(await statuses()).toEqual({
      [dueToday.id]: 'overdue',
      [dueYesterday.id]: 'overdue',
      [partLate.id]: 'overdue',
      [paidLate.id]: 'paid',
      [dueLater.id]: 'unpaid',
    });
  });

  it('orders items by issue date, then by invoice number, whatever the order of issue', async () => {
    const t = await newTenant();
    const dates = ['2026-04-20', '2026-04-02', '2026-04-02', '2026-04-10', '2026-04-02'];
    const drafts: general.Invoice[] = [];
    for (const issue_date of dates) {
      drafts.push(await createInvoice(t.client, { customer_id: t.customerId, issue_date }));
    }
    // Issued last first, so issue order is neither date order nor number order.
    for (const draft of [...drafts].reverse()) await issueInvoice(t.client, draft.id);
    const expected = [...drafts]
      .sort((a, b) =>
        a.issue_date === b.issue_date
          ? a.number.localeCompare(b.number)
          : (a.issue_date ?? '').localeCompare(b.issue_date ?? ''),
      )
      .map((d) => d.id);
    const data = await scheduleOf(t, { startDate: '2026-04-01', endDate: '2026-04-30' });
    expect(data.items.map((i) => i.invoiceId)).toEqual(expected);
    expect(data.items.map((i) => i.issueDate)).toEqual([
      '2026-04-02',
      '2026-04-02',
      '2026-04-02',
      '2026-04-10',
      '2026-04-20',
    ]);
    expect(expected.slice(0, 3)).toEqual([drafts[1]?.id, drafts[2]?.id, drafts[4]?.id]);
  });

  it('pages items with limit and offset while periods and summary stay whole', async () => {
    const t = await newTenant();
    const nets = [100, 200, 300, 400, 500];
    const dates = ['2026-04-02', '2026-04-09', '2026-05-16', '2026-05-23', '2026-06-30'];
    for (const [i, net] of nets.entries()) await sale(t, dates[i]!, net);
    const query = { startDate: '2026-04-01', endDate: '2026-06-30' };
    const all = await scheduleOf(t, query);
    expect(all.items.map((i) => i.amount)).toEqual(nets);
    const pages: finance.SalesSchedule['items'][] = [];
    for (let offset = 0; offset < nets.length; offset += 2) {
      const page = await scheduleOf(t, { ...query, limit: 2, offset });
      expect(page.periods).toEqual(all.periods);
      expect(page.summary).toEqual({ totalRevenue: 1_500, totalInvoices: 5, currency: 'USD' });
      expect(page.vatThreshold).toEqual(all.vatThreshold);
      pages.push(page.items);
    }
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(pages.flat()).toEqual(all.items);
    const beyond = await scheduleOf(t, { ...query, offset: 5 });
    expect(beyond.items).toEqual([]);
    expect(beyond.summary.totalInvoices).toBe(5);
    const single = await scheduleOf(t, { ...query, limit: 1, offset: 3 });
    expect(single.items).toEqual([all.items[3]]);
  });

  it('accepts the largest page (5000)', async () => {
    const t = await newTenant();
    await sale(t, '2026-04-02', 100);
    const data = await scheduleOf(t, { startDate: '2026-04-01', endDate: '2026-04-30', limit: 5000 });
    expect(data.items).toHaveLength(1);
  });

  it('lists only invoices issued within the range, both ends included', async () => {
    const t = await newTenant();
    for (const date of ['2026-03-31', '2026-04-01', '2026-04-30', '2026-05-01']) await sale(t, date, 100);
    const data = await scheduleOf(t, { startDate: '2026-04-01', endDate: '2026-04-30' });
    expect(data.items.map((i) => i.issueDate)).toEqual(['2026-04-01', '2026-04-30']);
  });
});

describe('sales schedule: currency', () => {
  it('covers only the requested currency, the base currency (USD) by default', async () => {
    const t = await newTenant();
    await sale(t, '2026-03-01', 1_000);
    const euro = await sale(t, '2026-03-02', 7_000, { currency: 'EUR' });
    await sale(t, '2026-04-03', 900, { currency: 'JPY' });
    const query = { startDate: '2026-03-01', endDate: '2026-04-30' };
    const usd = await scheduleOf(t, query);
    expect(usd.summary).toEqual({ totalRevenue: 1_000, totalInvoices: 1, currency: 'USD' });
    expect(usd.periods.map((p) => p.revenue)).toEqual([1_000, 0]);
    expect(usd.items.map((i) => i.currency)).toEqual(['USD']);
    const eur = await scheduleOf(t, { ...query, currency: 'EUR' });
    expect(eur.summary).toEqual({ totalRevenue: 7_000, totalInvoices: 1, currency: 'EUR' });
    expect(eur.periods.map((p) => p.revenue)).toEqual([7_000, 0]);
    expect(eur.items).toMatchObject([{ invoiceId: euro.id, amount: 7_000, currency: 'EUR' }]);
    const jpy = await scheduleOf(t, { ...query, currency: 'JPY' });
    expect(jpy.summary).toEqual({ totalRevenue: 900, totalInvoices: 1, currency: 'JPY' });
    expect(jpy.periods.map((p) => [p.period, p.revenue, p.invoiceCount])).toEqual([
      ['2026-03', 0, 0],
      ['2026-04', 900, 1],
    ]);
  });

  it('lists every period at 0 for a currency without invoices', async () => {
    const t = await newTenant();
    await sale(t, '2026-03-01', 1_000);
    const gbp = await scheduleOf(t, { startDate: '2026-01-01', endDate: '2026-06-30', currency: 'GBP' });
    expect(gbp.periods.map((p) => [p.period, p.revenue, p.cumulative])).toEqual(
      ['2026-01', '2026-02', '2026-03', '2026-04', '2026-05', '2026-06'].map((p) => [p, 0, 0]),
    );
    expect(gbp.summary).toEqual({ totalRevenue: 0, totalInvoices: 0, currency: 'GBP' });
    expect(gbp.items).toEqual([]);
  });

  it("defaults to the business's base currency when it is not USD", async () => {
    const t = await newTenant();
    // Set before the first posting: the base currency is fixed from then on (docs/decisions.md D278).
    await updateBusiness(t.client, { base_currency: 'EUR' });
    await setRate(t, 'USD', '2026-03-01', '0.9');
    await sale(t, '2026-03-01', 1_000);
    await sale(t, '2026-03-02', 2_500, { currency: 'EUR' });
    const data = await scheduleOf(t, { startDate: '2026-03-01', endDate: '2026-03-31' });
    expect(data.summary).toEqual({ totalRevenue: 2_500, totalInvoices: 1, currency: 'EUR' });
    expect(data.items.map((i) => i.currency)).toEqual(['EUR']);
    const usd = await scheduleOf(t, { startDate: '2026-03-01', endDate: '2026-03-31', currency: 'USD' });
    expect(usd.summary.totalRevenue).toBe(1_000);
  });
});

describe('sales schedule: VAT block', () => {
  it('is configured: false with zeros when the business has no configuration', async () => {
    const t = await newTenant();
    await sale(t, '2026-01-05', 50_000);
    const data = await scheduleOf(t, { startDate: '2026-01-01', endDate: '2026-01-31' });
    expect(data.vatThreshold).toEqual(NO_VAT);
  });

  it('reports the configured window ending today (test clock), whatever the range', async () => {
    const t = await newTenant();
    const threshold = 100_000;
    await sale(t, '2025-12-31', 10_000); // last year: outside the annual window
    await sale(t, '2026-03-01', 20_000); // in the year, before the last 90 days
    await sale(t, '2026-11-01', 60_000); // in the last 90 days
    await sale(t, TODAY, 5_000); // today, in both
    // Another currency counts converted (docs/decisions.md D278): 50.00 EUR at 1.1 is 55.00 USD.
    await setRate(t, 'EUR', '2026-06-01', '1.1');
    await sale(t, '2026-06-01', 5_000, { currency: 'EUR' });
    await configureVat(t, { thresholdAmount: threshold });
    const current = 20_000 + 60_000 + 5_000 + 5_500;
    const recent = 60_000 + 5_000;
    // At the pace of the last 90 days (recent / 90 a day), the rest takes ceil(rest * 90 / recent) days.
    const days = Math.ceil(((threshold - current) * 90) / recent);
    const crossing = addDays(TODAY, days);
    expect(crossing <= '2026-12-31').toBe(true);
    const expected = {
      configured: true,
      thresholdAmount: threshold,
      currentRevenue: current,
      percentageReached: 90.5,
      registered: false,
      registrationNumber: null,
      projectedCrossingDate: crossing,
    };
    expect((await scheduleOf(t, { startDate: '2020-01-01', endDate: '2020-01-31' })).vatThreshold).toEqual(
      expected,
    );
    expect((await scheduleOf(t, { startDate: '2026-01-01', endDate: '2026-12-31' })).vatThreshold).toEqual(
      expected,
    );
  });

  it('reports a percentage of two decimals, rounded half up', async () => {
    const t = await newTenant();
    await configureVat(t, { thresholdAmount: 30_000, periodType: 'rolling_12_months' });
    await sale(t, '2026-01-10', 20_000); // 66.666...%
    const data = await scheduleOf(t, { startDate: '2026-01-01', endDate: '2026-01-31' });
    expect(data.vatThreshold).toMatchObject({
      configured: true,
      currentRevenue: 20_000,
      percentageReached: 66.67,
    });
    await sale(t, '2026-02-10', 2_001); // 22001 / 30000 = 73.3366...%
    const again = await scheduleOf(t, { startDate: '2026-01-01', endDate: '2026-01-31' });
    expect(again.vatThreshold.percentageReached).toBe(73.34);
  });

  it('reports registration, and no projected crossing once registered', async () => {
    const t = await newTenant();
    await sale(t, '2026-11-01', 10_000);
    // Quarter to date 10000 of 12000; at 10000 per 90 days the rest comes within the quarter.
    const config = await configureVat(t, { thresholdAmount: 12_000, periodType: 'quarterly' });
    const before = await scheduleOf(t, { startDate: '2026-11-01', endDate: '2026-11-30' });
    expect(before.vatThreshold).toMatchObject({ registered: false, registrationNumber: null });
    expect(before.vatThreshold.projectedCrossingDate).toBe(addDays(TODAY, Math.ceil((2_000 * 90) / 10_000)));
    await unwrap(
      t.client.finance.vat.markVatRegistered({
        params: { publicId: config.publicId },
        body: { registrationDate: '2026-11-20', registrationNumber: 'GB123456789' },
      }),
    );
    const after = await scheduleOf(t, { startDate: '2026-11-01', endDate: '2026-11-30' });
    expect(after.vatThreshold).toEqual({
      configured: true,
      thresholdAmount: 12_000,
      currentRevenue: 10_000,
      percentageReached: 83.33,
      registered: true,
      registrationNumber: 'GB123456789',
      projectedCrossingDate: null,
    });
  });
});

describe('sales schedule: refusals', () => {
  const get = async (t: TestTenant, query: string) =>
    raw(server(), 'GET', `/v1/get/salesSchedule?${query}`, { token: t.accessToken });

  it.each([
    ['startDate=2026-02-30&endDate=2026-03-31', 'startDate'],
    ['startDate=2026-01-01&endDate=2026-02-29', 'endDate'],
    ['startDate=2026-1-01&endDate=2026-03-31', 'startDate'],
    ['startDate=2026-01-01&endDate=31/03/2026', 'endDate'],
    ['startDate=2026-03-01&endDate=2026-02-28', 'endDate'],
    ['startDate=2016-01-01&endDate=2026-01-01', 'endDate'],
    ['startDate=2010-06-15&endDate=2026-06-15', 'endDate'],
    ['startDate=2026-01-01&endDate=2026-12-31&groupBy=week', 'groupBy'],
    ['startDate=2026-01-01&endDate=2026-12-31&groupBy=Month', 'groupBy'],
    ['startDate=2026-01-01&endDate=2026-12-31&currency=usd', 'currency'],
    ['startDate=2026-01-01&endDate=2026-12-31&currency=ABC', 'currency'],
    ['startDate=2026-01-01&endDate=2026-12-31&currency=US', 'currency'],
    ['startDate=2026-01-01&endDate=2026-12-31&limit=0', 'limit'],
    ['startDate=2026-01-01&endDate=2026-12-31&limit=5001', 'limit'],
    ['startDate=2026-01-01&endDate=2026-12-31&offset=-1', 'offset'],
    ['endDate=2026-12-31', 'startDate'],
    ['startDate=2026-01-01', 'endDate'],
  ])('answers 422 for %s, naming %s', async (query, field) => {
    const t = await newTenant();
    expectResultError(await get(t, query), 422, 'VALIDATION_ERROR', field);
  });

  it('accepts a range of just under 10 years (ten whole years, inclusive)', async () => {
    const t = await newTenant();
    await sale(t, '2016-01-01', 1);
    await sale(t, '2025-12-31', 2);
    const data = await scheduleOf(t, { startDate: '2016-01-01', endDate: '2025-12-31', groupBy: 'year' });
    expect(data.periods.map((p) => p.period)).toEqual(Array.from({ length: 10 }, (_, i) => String(2016 + i)));
    expect(data.summary).toEqual({ totalRevenue: 3, totalInvoices: 2, currency: 'USD' });
    const months = await scheduleOf(t, { startDate: '2016-01-01', endDate: '2025-12-31' });
    expect(months.periods).toHaveLength(120);
  });

  it('accepts a one-year range in the year 9999, the last of the calendar', async () => {
    const t = await newTenant();
    const res = await schedule(t, { startDate: '9999-01-01', endDate: '9999-12-31' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const data = (await unwrap(res)).data;
    expect(data.periods.map((p) => p.period)).toEqual(
      MONTHS.map((_, i) => `9999-${String(i + 1).padStart(2, '0')}`),
    );
  });

  it('lists the periods of a range of under 10 years ending in the year 9999', async () => {
    const t = await newTenant();
    const res = await schedule(t, { startDate: '9989-12-31', endDate: '9999-12-30', groupBy: 'year' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await unwrap(res)).data.periods.map((p) => p.period)).toEqual(
      Array.from({ length: 11 }, (_, i) => String(9989 + i)),
    );
  });

  it('answers 401 without a token', async () => {
    const res = await raw(server(), 'GET', '/v1/get/salesSchedule?startDate=2026-01-01&endDate=2026-01-31');
    expect(res.status).toBe(401);
  });

  it("never shows another business's invoices or VAT configuration", async () => {
    const [t, other] = [await newTenant(), await newTenant()];
    await sale(other, '2026-01-05', 9_999);
    await configureVat(other);
    const mine = await sale(t, '2026-01-06', 111);
    const data = await scheduleOf(t, { startDate: '2026-01-01', endDate: '2026-01-31' });
    expect(data.summary).toEqual({ totalRevenue: 111, totalInvoices: 1, currency: 'USD' });
    expect(data.items.map((i) => i.invoiceId)).toEqual([mine.id]);
    expect(data.vatThreshold).toEqual(NO_VAT);
    const theirs = await scheduleOf(other, { startDate: '2026-01-01', endDate: '2026-01-31' });
    expect(theirs.summary.totalRevenue).toBe(9_999);
    expect(theirs.vatThreshold.configured).toBe(true);
  });
});
