import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { unwrap, type finance } from '../../client/index.js';
import { raw, registerTenant, type TestTenant } from '../support/business.js';
import { expectResultError } from '../support/expect.js';
import { setRate } from '../support/finance.js';
import { createInvoice, invoiceLine, issuedInvoice, payInvoice, voidInvoice } from '../support/general.js';
import { useTestServer } from '../support/setup.js';
import { updateBusiness } from '../support/auth.js';

// Tokens outlive the clock moves below.
const server = useTestServer({ env: { ACCESS_TOKEN_TTL: '3650d' }, worker: false });

const NOW = '2026-11-23T09:00:00.000Z';
const TODAY = '2026-11-23';

beforeEach(() => server().clock.set(NOW));
afterEach(() => server().clock.reset());

/** A business of its own for each test, so its metrics hold only what the test issues. */
const newTenant = () => registerTenant(server());

/** Decimals of the currencies the tests use (JPY has none). */
const DIVISOR: Record<string, number> = { USD: 100, EUR: 100, JPY: 1 };

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
    items: [invoiceLine({ unit_price: net / (DIVISOR[currency] ?? 100), tax_rate: extra.tax_rate ?? 20 })],
  });
};

const calculate = (t: TestTenant, query: finance.RevenueCalculatorQuery = {}) =>
  t.client.finance.reports.getRevenueCalculator({ query });

const metrics = async (t: TestTenant, query: finance.RevenueCalculatorQuery = {}) =>
  (await unwrap(calculate(t, query))).data;

const DAY_MS = 86_400_000;
const utc = (date: string) => Date.parse(`${date}T00:00:00Z`);
const addDays = (date: string, n: number) => new Date(utc(date) + n * DAY_MS).toISOString().slice(0, 10);

/** Day of the year, 1 on 1 January: the days elapsed with the day itself counted. */
const dayOfYear = (date: string) => (utc(date) - utc(`${date.slice(0, 4)}-01-01`)) / DAY_MS + 1;

/** 366 in a leap year, 365 otherwise. */
const daysInYear = (year: number) => (utc(`${year + 1}-01-01`) - utc(`${year}-01-01`)) / DAY_MS;

/** numerator / denominator rounded half up, for non-negative integers. */
const halfUp = (numerator: bigint, denominator: bigint) =>
  (numerator * 2n + denominator) / (denominator * 2n);

/** What the calculator should answer for the sales of one currency, worked out from the rules. */
function expectedMetrics(sales: { date: string; net: number }[], asOfDate: string, currency = 'USD') {
  const year = Number(asOfDate.slice(0, 4));
  // The 12 months ending asOfDate start the day after the same date a year before (29 Feb -> 28 Feb).
  const [m, d] = [Number(asOfDate.slice(5, 7)), Number(asOfDate.slice(8, 10))];
  const lastYear = new Date(Date.UTC(year - 1, m - 1, 1));
  const lastDay = new Date(Date.UTC(year - 1, m, 0)).getUTCDate();
  lastYear.setUTCDate(Math.min(d, lastDay));
  const rollingStart = addDays(lastYear.toISOString().slice(0, 10), 1);
  const sum = (from: string) =>
    sales.filter((s) => s.date >= from && s.date <= asOfDate).reduce((total, s) => total + BigInt(s.net), 0n);
  const ytd = sum(`${year}-01-01`);
  const rolling = sum(rollingStart);
  return {
    ytdRevenue: Number(ytd),
    rolling12MonthRevenue: Number(rolling),
    monthlyAverage: Number(halfUp(rolling, 12n)),
    projectedAnnual: Number(halfUp(ytd * BigInt(daysInYear(year)), BigInt(dayOfYear(asOfDate)))),
    currency,
    asOfDate,
  };
}

const vatBody = (
  overrides: Partial<finance.CreateVatThresholdBody> = {},
): finance.CreateVatThresholdBody => ({
  country: 'DE',
  thresholdAmount: 100_000,
  currency: 'USD',
  periodType: 'quarterly',
  alertAtPercentage: 95,
  alertEmail: 'tax@example.com',
  ...overrides,
});

const configureVat = async (t: TestTenant, overrides: Partial<finance.CreateVatThresholdBody> = {}) =>
  (await unwrap(t.client.finance.vat.createVatThreshold({ body: vatBody(overrides) }))).data;

describe('the helpers of this file', () => {
  it('count days the calendar way', () => {
    expect([dayOfYear('2025-01-01'), dayOfYear('2025-03-01'), dayOfYear('2024-03-01')]).toEqual([1, 60, 61]);
    expect([daysInYear(2024), daysInYear(2025), daysInYear(2100)]).toEqual([366, 365, 365]);
    expect([halfUp(5n, 2n), halfUp(7n, 3n), halfUp(8n, 3n)]).toEqual([3n, 2n, 3n]);
  });
});

describe('revenue calculator: the windows', () => {
  it('sums the year from 1 January to asOfDate, both included', async () => {
    const t = await newTenant();
    await sale(t, '2024-12-31', 1); // last year
    await sale(t, '2025-01-01', 20); // first day
    await sale(t, '2025-06-15', 300); // asOfDate
    await sale(t, '2025-06-16', 4_000); // the day after
    const data = await metrics(t, { asOfDate: '2025-06-15' });
    expect(data.ytdRevenue).toBe(320);
  });

  it('sums the 12 months ending asOfDate: from the day after the same date a year before', async () => {
    const t = await newTenant();
    const sales = [
      { date: '2024-06-15', net: 1 }, // a year before asOfDate: outside
      { date: '2024-06-16', net: 20 }, // first day of the 12 months
      { date: '2024-12-31', net: 300 }, // in the 12 months, not in the year
      { date: '2025-01-01', net: 4_000 },
      { date: '2025-06-15', net: 50_000 }, // asOfDate
      { date: '2025-06-16', net: 600_000 }, // after asOfDate
    ];
    for (const s of sales) await sale(t, s.date, s.net);
    const data = await metrics(t, { asOfDate: '2025-06-15' });
    expect(data).toEqual(expectedMetrics(sales, '2025-06-15'));
    // ytd 54000, rolling 54320; 54320 / 12 = 4526.67; day 166 of 365: 54000 * 365 / 166 = 118734.94.
    expect(data).toEqual({
      ytdRevenue: 54_000,
      rolling12MonthRevenue: 54_320,
      monthlyAverage: 4_527,
      projectedAnnual: 118_735,
      currency: 'USD',
      asOfDate: '2025-06-15',
    });
  });

  it('on 29 February rolls back to 1 March of the year before', async () => {
    const t = await newTenant();
    const sales = [
      { date: '2023-02-28', net: 77 }, // outside: the window starts on 2023-03-01
      { date: '2023-03-01', net: 1_200 },
      { date: '2024-01-01', net: 1_000 },
      { date: '2024-02-29', net: 5 },
    ];
    for (const s of sales) await sale(t, s.date, s.net);
    const data = await metrics(t, { asOfDate: '2024-02-29' });
    expect(data.rolling12MonthRevenue).toBe(2_205);
    expect(data.monthlyAverage).toBe(184); // 2205 / 12 = 183.75
    expect(data).toEqual(expectedMetrics(sales, '2024-02-29'));
  });

  it('the 12 months ending 28 February 2025 begin on 29 February 2024; those ending 1 March 2025 on 2 March', async () => {
    const t = await newTenant();
    const sales = [
      { date: '2024-02-28', net: 1 },
      { date: '2024-02-29', net: 20 },
      { date: '2024-03-01', net: 300 },
      { date: '2024-03-02', net: 4_000 },
    ];
    for (const s of sales) await sale(t, s.date, s.net);
    expect((await metrics(t, { asOfDate: '2025-02-28' })).rolling12MonthRevenue).toBe(4_320);
    expect((await metrics(t, { asOfDate: '2025-03-01' })).rolling12MonthRevenue).toBe(4_000);
    expect(await metrics(t, { asOfDate: '2025-03-01' })).toEqual(expectedMetrics(sales, '2025-03-01'));
  });

  it('answers zeros for a business without sales', async () => {
    const t = await newTenant();
    expect(await metrics(t, { asOfDate: '2026-06-30' })).toEqual({
      ytdRevenue: 0,
      rolling12MonthRevenue: 0,
      monthlyAverage: 0,
      projectedAnnual: 0,
      currency: 'USD',
      asOfDate: '2026-06-30',
    });
  });

  it('takes an asOfDate after today, counting what is issued until then', async () => {
    const t = await newTenant();
    const sales = [
      { date: '2026-02-01', net: 1_000 },
      { date: TODAY, net: 2_000 },
    ];
    for (const s of sales) await sale(t, s.date, s.net);
    const data = await metrics(t, { asOfDate: '2027-01-15' });
    expect(data).toEqual(expectedMetrics(sales, '2027-01-15'));
    expect(data.ytdRevenue).toBe(0);
    expect(data.rolling12MonthRevenue).toBe(3_000);
  });
});

describe('revenue calculator: averages and projections, rounded half up', () => {
  it.each([
    [6, 1], // 0.5 up
    [5, 0], // 0.42 down
    [1_206, 101], // 100.5 up
    [1_205, 100], // 100.42 down
    [1_211, 101], // 100.92 up
    [1_200, 100], // exact
  ])('averages a rolling %i over 12 months as %i', async (rolling, average) => {
    const t = await newTenant();
    // Last year's revenue only: in the 12 months, not in the year to date.
    await sale(t, '2025-12-01', rolling);
    const data = await metrics(t, { asOfDate: '2026-06-30' });
    expect(data.rolling12MonthRevenue).toBe(rolling);
    expect(data.monthlyAverage).toBe(average);
    expect(data.monthlyAverage).toBe(Number(halfUp(BigInt(rolling), 12n)));
    expect(data.ytdRevenue).toBe(0);
    expect(data.projectedAnnual).toBe(0);
  });

  it('projects a leap year over 366 days, 29 February being day 60: a half rounds up', async () => {
    const t = await newTenant();
    await sale(t, '2024-01-01', 1_000);
    await sale(t, '2024-02-29', 5);
    const data = await metrics(t, { asOfDate: '2024-02-29' });
    // 1005 * 366 / 60 = 6130.5 -> 6131 (over 365 days it would be 6113.75 -> 6114).
    expect(data.ytdRevenue).toBe(1_005);
    expect(data.projectedAnnual).toBe(6_131);
    expect(data.projectedAnnual).toBe(Number(halfUp(1_005n * 366n, 60n)));
    expect(data.projectedAnnual).not.toBe(Number(halfUp(1_005n * 365n, 60n)));
  });

  it('projects a non-leap year over 365 days: 10 January is day 10, a half rounds up', async () => {
    const t = await newTenant();
    await sale(t, '2025-01-10', 12_345);
    const data = await metrics(t, { asOfDate: '2025-01-10' });
    // 12345 * 365 / 10 = 450592.5 -> 450593; 12345 / 12 = 1028.75 -> 1029.
    expect(data).toEqual({
      ytdRevenue: 12_345,
      rolling12MonthRevenue: 12_345,
      monthlyAverage: 1_029,
      projectedAnnual: 450_593,
      currency: 'USD',
      asOfDate: '2025-01-10',
    });
  });

  it('rounds a projection below the half down and above it up', async () => {
    const t = await newTenant();
    await sale(t, '2025-02-01', 1_000);
    // Day 59 of 365: 1000 * 365 / 59 = 6186.44 -> 6186; day 61 (2 March): 5983.61 -> 5984.
    expect((await metrics(t, { asOfDate: '2025-02-28' })).projectedAnnual).toBe(6_186);
    expect((await metrics(t, { asOfDate: '2025-03-02' })).projectedAnnual).toBe(5_984);
    expect((await metrics(t, { asOfDate: '2025-03-02' })).projectedAnnual).toBe(
      Number(halfUp(1_000n * 365n, 61n)),
    );
  });

  it('on 1 March counts 61 days of 366 in a leap year and 60 of 365 otherwise', async () => {
    const t = await newTenant();
    await sale(t, '2024-01-15', 1_000);
    await sale(t, '2025-01-15', 1_000);
    // 1000 * 366 / 61 = 6000 exactly; 1000 * 365 / 60 = 6083.33 -> 6083.
    expect((await metrics(t, { asOfDate: '2024-03-01' })).projectedAnnual).toBe(6_000);
    expect((await metrics(t, { asOfDate: '2025-03-01' })).projectedAnnual).toBe(6_083);
  });

  it('counts asOfDate as elapsed: on 31 December the projection is the year to date', async () => {
    const t = await newTenant();
    await sale(t, '2024-07-01', 7_777);
    await sale(t, '2025-07-01', 3_333);
    const leap = await metrics(t, { asOfDate: '2024-12-31' });
    expect(leap.projectedAnnual).toBe(7_777);
    const plain = await metrics(t, { asOfDate: '2025-12-31' });
    expect(plain.projectedAnnual).toBe(3_333);
    // On 1 January, the one day elapsed is the whole basis: 365 of it.
    await sale(t, '2026-01-01', 101);
    expect((await metrics(t, { asOfDate: '2026-01-01' })).projectedAnnual).toBe(101 * 365);
  });

  it('answers exact integers for sums beyond what a float multiplies exactly', async () => {
    const t = await newTenant();
    // Two of the largest invoices a line allows: 9.9999 x 1,000,000,000,000.00 USD each.
    for (let i = 0; i < 2; i++) {
      const invoice = await issuedInvoice(t.client, {
        customer_id: t.customerId,
        issue_date: '2025-12-30',
        due_date: '2030-12-31',
        items: [invoiceLine({ quantity: 9.9999, unit_price: 1_000_000_000_000, tax_rate: 0 })],
      });
      expect(invoice.subtotal).toBe(9_999_900_000_000);
    }
    const ytd = 2n * 999_990_000_000_000n;
    const data = await metrics(t, { asOfDate: '2025-12-30' });
    for (const value of [
      data.ytdRevenue,
      data.rolling12MonthRevenue,
      data.monthlyAverage,
      data.projectedAnnual,
    ]) {
      expect(Number.isSafeInteger(value)).toBe(true);
    }
    expect(data.ytdRevenue).toBe(Number(ytd));
    expect(data.monthlyAverage).toBe(Number(halfUp(ytd, 12n)));
    // Day 364 of 365, computed exactly (as floats, ytd * 365 is past 2^53).
    expect(data.projectedAnnual).toBe(Number(halfUp(ytd * 365n, 364n)));
    expect(data.projectedAnnual).toBe(2_005_474_450_549_451);
  });
});

describe('revenue calculator: what counts', () => {
  it('counts net amounts of issued invoices, paid or not; not drafts, not voided invoices', async () => {
    const t = await newTenant();
    await sale(t, '2026-03-01', 10_000, { tax_rate: 25 });
    const paid = await sale(t, '2026-03-02', 2_000, { tax_rate: 0 });
    await payInvoice(t.client, paid.id, 20, { payment_date: '2026-03-03' });
    await createInvoice(t.client, { customer_id: t.customerId, issue_date: '2026-03-04' });
    const voided = await sale(t, '2026-03-05', 40_000);
    const before = await metrics(t, { asOfDate: '2026-06-30' });
    expect(before.ytdRevenue).toBe(52_000);
    await voidInvoice(t.client, voided.id);
    const after = await metrics(t, { asOfDate: '2026-06-30' });
    expect(after).toEqual(
      expectedMetrics(
        [
          { date: '2026-03-01', net: 10_000 },
          { date: '2026-03-02', net: 2_000 },
        ],
        '2026-06-30',
      ),
    );
    expect(after.ytdRevenue).toBe(12_000);
  });

  it('defaults asOfDate to today on the clock (UTC), and follows the clock', async () => {
    const t = await newTenant();
    await sale(t, '2026-02-01', 300);
    await sale(t, TODAY, 500);
    const today = await metrics(t);
    expect(today).toEqual(
      expectedMetrics(
        [
          { date: '2026-02-01', net: 300 },
          { date: TODAY, net: 500 },
        ],
        TODAY,
      ),
    );
    server().clock.set('2026-12-31T23:59:59.000Z');
    const lastDay = await metrics(t);
    expect(lastDay.asOfDate).toBe('2026-12-31');
    expect(lastDay.projectedAnnual).toBe(800);
    server().clock.set('2027-01-01T00:00:00.000Z');
    const newYear = await metrics(t);
    expect(newYear).toMatchObject({ asOfDate: '2027-01-01', ytdRevenue: 0, rolling12MonthRevenue: 800 });
  });

  it('answers in the requested currency only, the base currency (USD) by default', async () => {
    const t = await newTenant();
    await sale(t, '2026-05-01', 500);
    await sale(t, '2026-05-02', 700, { currency: 'EUR' });
    await sale(t, '2026-05-03', 90_001, { currency: 'JPY' });
    const usd = await metrics(t, { asOfDate: '2026-06-30' });
    expect(usd).toEqual(expectedMetrics([{ date: '2026-05-01', net: 500 }], '2026-06-30', 'USD'));
    const eur = await metrics(t, { asOfDate: '2026-06-30', currency: 'EUR' });
    expect(eur).toEqual(expectedMetrics([{ date: '2026-05-02', net: 700 }], '2026-06-30', 'EUR'));
    const jpy = await metrics(t, { asOfDate: '2026-06-30', currency: 'JPY' });
    expect(jpy).toEqual(expectedMetrics([{ date: '2026-05-03', net: 90_001 }], '2026-06-30', 'JPY'));
    expect(jpy.ytdRevenue).toBe(90_001);
    const gbp = await metrics(t, { asOfDate: '2026-06-30', currency: 'GBP' });
    expect(gbp).toMatchObject({ ytdRevenue: 0, rolling12MonthRevenue: 0, currency: 'GBP' });
  });

  it("defaults to the business's base currency when it is not USD", async () => {
    const t = await newTenant();
    // Set before the first posting: the base currency is fixed from then on (docs/decisions.md D278).
    await updateBusiness(t.client, { base_currency: 'EUR' });
    await setRate(t, 'USD', '2026-05-01', '0.9');
    await sale(t, '2026-05-01', 500);
    await sale(t, '2026-05-02', 700, { currency: 'EUR' });
    const data = await metrics(t, { asOfDate: '2026-06-30' });
    expect(data).toMatchObject({ currency: 'EUR', ytdRevenue: 700 });
  });

  it("never counts another business's invoices", async () => {
    const [t, other] = [await newTenant(), await newTenant()];
    await sale(other, '2026-05-01', 9_999);
    await configureVat(other);
    await sale(t, '2026-05-02', 1);
    const data = await metrics(t, { asOfDate: '2026-06-30' });
    expect(data).toEqual(expectedMetrics([{ date: '2026-05-02', net: 1 }], '2026-06-30'));
    expect((await metrics(other, { asOfDate: '2026-06-30' })).ytdRevenue).toBe(9_999);
  });
});

describe('revenue calculator: VAT block', () => {
  it('is absent when no threshold is configured', async () => {
    const t = await newTenant();
    await sale(t, '2026-05-01', 500);
    const data = await metrics(t, { asOfDate: '2026-06-30' });
    expect(data).not.toHaveProperty('vatThreshold');
  });

  it("reports the configuration's window ending asOfDate, not today", async () => {
    const t = await newTenant();
    await sale(t, '2026-03-31', 25_000); // Q1
    await sale(t, '2026-04-01', 10_000); // Q2
    await sale(t, '2026-11-01', 60_000); // Q4, after both dates asked
    await configureVat(t, { thresholdAmount: 100_000, periodType: 'quarterly' });
    const april = await metrics(t, { asOfDate: '2026-04-15' });
    // Q2 to 15 April: 10000, 10%; the last 90 days (from 16 January) made 35000, so the rest, 90000,
    // would take ceil(90000 * 90 / 35000) = 232 days: after the quarter, no crossing date.
    expect(Math.ceil((90_000 * 90) / 35_000)).toBe(232);
    expect(april.vatThreshold).toEqual({
      configured: true,
      thresholdAmount: 100_000,
      currentRevenue: 10_000,
      percentageReached: 10,
      registered: false,
      registrationNumber: null,
      projectedCrossingDate: null,
    });
    const march = await metrics(t, { asOfDate: '2026-03-31' });
    expect(march.vatThreshold).toMatchObject({ currentRevenue: 25_000, percentageReached: 25 });
    const today = await metrics(t);
    expect(today.vatThreshold).toMatchObject({ currentRevenue: 60_000, percentageReached: 60 });
    // 40000 left at 60000 per 90 days: ceil(40000 * 90 / 60000) = 60 days, after 31 December.
    expect(today.vatThreshold?.projectedCrossingDate).toBeNull();
  });

  it('projects the crossing within the window from the 90 days ending asOfDate', async () => {
    const t = await newTenant();
    await sale(t, '2026-01-20', 30_000);
    await sale(t, '2026-05-10', 45_000);
    await configureVat(t, { thresholdAmount: 120_000, periodType: 'annual' });
    const data = await metrics(t, { asOfDate: '2026-05-31' });
    // Year to date 75000 (62.5%); 90 days from 2026-03-03 made 45000: 45000 left takes
    // ceil(45000 * 90 / 45000) = 90 days.
    expect(data.vatThreshold).toMatchObject({
      configured: true,
      currentRevenue: 75_000,
      percentageReached: 62.5,
      projectedCrossingDate: addDays('2026-05-31', 90),
    });
    expect(data.vatThreshold?.projectedCrossingDate).toBe('2026-08-29');
  });

  it('counts every sale converted to the base currency, whatever currency the metrics are in', async () => {
    const t = await newTenant();
    await setRate(t, 'EUR', '2026-05-01', '1.1');
    await sale(t, '2026-05-01', 20_000);
    await sale(t, '2026-05-02', 70_000, { currency: 'EUR' });
    await configureVat(t, { thresholdAmount: 100_000, periodType: 'rolling_12_months' });
    const eur = await metrics(t, { asOfDate: '2026-06-30', currency: 'EUR' });
    expect(eur.ytdRevenue).toBe(70_000);
    // 700.00 EUR at 1.1 is 770.00 USD (docs/decisions.md D278).
    expect(eur.vatThreshold).toMatchObject({ currentRevenue: 20_000 + 77_000, percentageReached: 97 });
  });

  it('reports the registration once marked', async () => {
    const t = await newTenant();
    await sale(t, '2026-05-01', 20_000);
    const config = await configureVat(t, { periodType: 'annual' });
    await unwrap(
      t.client.finance.vat.markVatRegistered({
        params: { publicId: config.publicId },
        body: { registrationDate: '2026-06-01', registrationNumber: 'DE999999999' },
      }),
    );
    const data = await metrics(t, { asOfDate: '2026-06-30' });
    expect(data.vatThreshold).toEqual({
      configured: true,
      thresholdAmount: 100_000,
      currentRevenue: 20_000,
      percentageReached: 20,
      registered: true,
      registrationNumber: 'DE999999999',
      projectedCrossingDate: null,
    });
  });
});

describe('revenue calculator: refusals', () => {
  it.each([
    ['asOfDate=2025-02-29', 'asOfDate'],
    ['asOfDate=2026-02-30', 'asOfDate'],
    ['asOfDate=2026-13-01', 'asOfDate'],
    ['asOfDate=2026-00-10', 'asOfDate'],
    ['asOfDate=yesterday', 'asOfDate'],
    ['asOfDate=2026-6-1', 'asOfDate'],
    ['currency=usd', 'currency'],
    ['currency=EURO', 'currency'],
    ['currency=XYZ', 'currency'],
  ])('answers 422 for %s', async (query, field) => {
    const t = await newTenant();
    const res = await raw(server(), 'GET', `/v1/get/revenueCalculator?${query}`, { token: t.accessToken });
    expectResultError(res, 422, 'VALIDATION_ERROR', field);
  });

  it('accepts the first and the last day of the calendar it takes', async () => {
    const t = await newTenant();
    for (const asOfDate of ['0100-01-01', '9999-12-31']) {
      const res = await calculate(t, { asOfDate });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect((await unwrap(res)).data).toMatchObject({ asOfDate, ytdRevenue: 0, projectedAnnual: 0 });
    }
  });

  it('answers 401 without a token', async () => {
    const res = await raw(server(), 'GET', '/v1/get/revenueCalculator');
    expect(res.status).toBe(401);
  });
});
