import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { unwrap, type finance } from '../../client/index.js';
import { registerTenant, type TestTenant } from '../support/business.js';
import { expectResultError } from '../support/expect.js';
import { entryOf, setRate } from '../support/finance.js';
import { createCreditNote, invoiceLine, issuedInvoice, voidInvoice } from '../support/general.js';
import { useTestServer } from '../support/setup.js';

/**
 * Revenue in the base currency (docs/decisions.md D278), in businesses whose base currency is USD:
 * the sales schedule and the revenue calculator keep answering one currency's documents, and with
 * `converted=true` count every sale at the rate its invoice posted at; the VAT threshold counts every
 * sale converted.
 */

// Tokens outlive the frozen clock.
const server = useTestServer({ env: { ACCESS_TOKEN_TTL: '3650d' }, worker: false });

const TODAY = '2026-11-23';

beforeEach(() => server().clock.set(`${TODAY}T09:00:00.000Z`));
afterEach(() => server().clock.reset());

/** An invoice issued on `issue_date` of one untaxed line worth `net` minor units of `currency`. */
const sale = (t: TestTenant, currency: string, issue_date: string, net: number) =>
  issuedInvoice(t.client, {
    customer_id: t.customerId,
    currency,
    issue_date,
    due_date: '2030-12-31',
    items: [invoiceLine({ unit_price: net / 100 })],
  });

type ScheduleQuery = Partial<finance.SalesScheduleQuery>;

const schedule = (t: TestTenant, query: ScheduleQuery) =>
  t.client.finance.reports.getSalesSchedule({
    query: { startDate: '2026-10-01', endDate: '2026-11-30', ...query },
  });

const scheduleOf = async (t: TestTenant, query: ScheduleQuery = {}) =>
  (await unwrap(schedule(t, query))).data;

/** Each month's revenue, invoice count and cumulative, and the summary. */
const byMonth = async (t: TestTenant, query: ScheduleQuery = {}) => {
  const data = await scheduleOf(t, query);
  return {
    periods: data.periods.map((p) => [p.period, p.revenue, p.invoiceCount, p.cumulative]),
    summary: data.summary,
  };
};

const calculator = (t: TestTenant, query: finance.RevenueCalculatorQuery = {}) =>
  t.client.finance.reports.getRevenueCalculator({ query });

const metricsOf = async (t: TestTenant, query: finance.RevenueCalculatorQuery = {}) =>
  (await unwrap(calculator(t, query))).data;

/** numerator / denominator rounded half up, for non-negative integers. */
const halfUp = (numerator: number, denominator: number) =>
  Number((BigInt(numerator) * 2n + BigInt(denominator)) / (BigInt(denominator) * 2n));

const DAY_OF_YEAR = 327; // 2026-11-23, the day itself counted
const DAYS_IN_2026 = 365;

const vat = (t: TestTenant) => t.client.finance.vat;

const configureVat = async (t: TestTenant, overrides: Partial<finance.CreateVatThresholdBody> = {}) =>
  (
    await unwrap(
      vat(t).createVatThreshold({
        body: {
          country: 'GB',
          thresholdAmount: 100_000,
          currency: 'USD',
          periodType: 'annual',
          alertAtPercentage: 80,
          alertEmail: 'accounts@example.com',
          ...overrides,
        },
      }),
    )
  ).data;

async function currentVat(t: TestTenant): Promise<finance.VatThreshold> {
  const { data } = await unwrap(vat(t).getVatThreshold());
  if (!data) throw new Error('no VAT threshold configuration');
  return data;
}

const mailSubjects = async (t: TestTenant) =>
  (
    await server()
      .deps.db.selectFrom('mail_messages')
      .select(['subject', 'created_at', 'id'])
      .where('business_id', '=', t.businessId)
      .orderBy('created_at')
      .orderBy('id')
      .execute()
  ).map((m) => m.subject);

/**
 * Five sales over October and November in three currencies, each at the rate of its date:
 * GBP 80.00 at 1.25 is 100.00 USD; EUR 200.00 at 1.05 is 210.00; USD 500.00; EUR 1,000.00 at 1.1 is
 * 1,100.00; EUR 333.33 at 1.2345 is 411.495885, 411.50 USD to the cent (half up).
 */
async function salesInThreeCurrencies(t: TestTenant) {
  await setRate(t, 'GBP', '2026-10-01', '1.25');
  await setRate(t, 'EUR', '2026-10-01', '1.05');
  await setRate(t, 'EUR', '2026-11-01', '1.1');
  await setRate(t, 'EUR', '2026-11-15', '1.2345');
  return {
    pounds: await sale(t, 'GBP', '2026-10-10', 8_000),
    octoberEuros: await sale(t, 'EUR', '2026-10-20', 20_000),
    dollars: await sale(t, 'USD', '2026-11-03', 50_000),
    novemberEuros: await sale(t, 'EUR', '2026-11-05', 100_000),
    roundedEuros: await sale(t, 'EUR', '2026-11-16', 33_333),
  };
}

describe('the sales schedule', () => {
  it('answers one currency as before: the base currency by default, another when asked', async () => {
    const t = await registerTenant(server());
    await salesInThreeCurrencies(t);
    const summary = (totalRevenue: number, totalInvoices: number, currency: string) => ({
      totalRevenue,
      totalInvoices,
      currency,
    });
    expect(await byMonth(t)).toEqual({
      periods: [
        ['2026-10', 0, 0, 0],
        ['2026-11', 50_000, 1, 50_000],
      ],
      summary: summary(50_000, 1, 'USD'),
    });
    expect(await byMonth(t, { converted: false })).toEqual(await byMonth(t));
    expect(await byMonth(t, { currency: 'EUR' })).toEqual({
      periods: [
        ['2026-10', 20_000, 1, 20_000],
        ['2026-11', 133_333, 2, 153_333],
      ],
      summary: summary(153_333, 3, 'EUR'),
    });
    const euros = await scheduleOf(t, { currency: 'EUR' });
    expect(euros.items.map((i) => [i.issueDate, i.amount, i.currency])).toEqual([
      ['2026-10-20', 20_000, 'EUR'],
      ['2026-11-05', 100_000, 'EUR'],
      ['2026-11-16', 33_333, 'EUR'],
    ]);
  });

  it('with converted=true counts every sale in the base currency at the rate it posted at, to the cent', async () => {
    const t = await registerTenant(server());
    const sales = await salesInThreeCurrencies(t);
    const converted = await byMonth(t, { converted: true });
    expect(converted).toEqual({
      periods: [
        ['2026-10', 10_000 + 21_000, 2, 31_000],
        ['2026-11', 50_000 + 110_000 + 41_150, 3, 232_150],
      ],
      summary: { totalRevenue: 232_150, totalInvoices: 5, currency: 'USD' },
    });
    // The base currency named is the same answer.
    expect(await byMonth(t, { converted: true, currency: 'USD' })).toEqual(converted);
    // The same base amount as the invoice's revenue line in the journal.
    expect(await entryOf(t.client, 'invoice', sales.roundedEuros.id)).toMatchObject({
      exchange_rate: '1.2345',
      credits: [{ account: '4000', amount: 33_333, base_amount: 41_150 }],
    });
  });

  it('with converted=true lists the invoices of every currency, each in its own amount', async () => {
    const t = await registerTenant(server());
    const sales = await salesInThreeCurrencies(t);
    const data = await scheduleOf(t, { converted: true });
    expect(data.items.map((i) => [i.invoiceId, i.issueDate, i.amount, i.currency])).toEqual([
      [sales.pounds.id, '2026-10-10', 8_000, 'GBP'],
      [sales.octoberEuros.id, '2026-10-20', 20_000, 'EUR'],
      [sales.dollars.id, '2026-11-03', 50_000, 'USD'],
      [sales.novemberEuros.id, '2026-11-05', 100_000, 'EUR'],
      [sales.roundedEuros.id, '2026-11-16', 33_333, 'EUR'],
    ]);
    const page = await scheduleOf(t, { converted: true, limit: 2, offset: 2 });
    expect(page.items.map((i) => i.invoiceId)).toEqual([sales.dollars.id, sales.novemberEuros.id]);
  });

  it('takes a voided euro invoice out at the base amount it was counted at, whatever the rate since', async () => {
    const t = await registerTenant(server());
    await setRate(t, 'EUR', '2026-11-01', '1.1');
    await sale(t, 'EUR', '2026-11-04', 25_000);
    const voided = await sale(t, 'EUR', '2026-11-05', 100_000);
    expect((await byMonth(t, { converted: true })).summary.totalRevenue).toBe(27_500 + 110_000);
    await setRate(t, 'EUR', '2026-11-20', '1.3');
    await voidInvoice(t.client, voided.id);
    expect(await byMonth(t, { converted: true })).toEqual({
      periods: [
        ['2026-10', 0, 0, 0],
        ['2026-11', 27_500, 1, 27_500],
      ],
      summary: { totalRevenue: 27_500, totalInvoices: 1, currency: 'USD' },
    });
    expect((await byMonth(t, { currency: 'EUR' })).summary).toEqual({
      totalRevenue: 25_000,
      totalInvoices: 1,
      currency: 'EUR',
    });
  });

  it("takes a credit note off at its invoice's rate, and its void puts back the same", async () => {
    const t = await registerTenant(server());
    await setRate(t, 'EUR', '2026-11-01', '1.1');
    const invoice = await sale(t, 'EUR', '2026-11-05', 100_000);
    await setRate(t, 'EUR', '2026-11-20', '1.3');
    // 100.00 EUR credited on the 21st: 110.00 USD at the invoice's 1.1, not 130.00 at the day's 1.3.
    const note = await createCreditNote(t.client, {
      invoice_id: invoice.id,
      issue_date: '2026-11-21',
      amount: 100,
    });
    expect((await entryOf(t.client, 'credit_note', note.id)).exchange_rate).toBe('1.1');
    expect((await byMonth(t, { converted: true })).summary).toEqual({
      totalRevenue: 110_000 - 11_000,
      totalInvoices: 1,
      currency: 'USD',
    });
    expect((await byMonth(t, { currency: 'EUR' })).summary.totalRevenue).toBe(90_000);
    await unwrap(t.client.general.creditNotes.voidCreditNote({ params: { id: note.id } }));
    expect((await byMonth(t, { converted: true })).summary.totalRevenue).toBe(110_000);
  });

  it('refuses converted=true with a currency other than the base, and a flag not true or false (422 naming converted)', async () => {
    const t = await registerTenant(server());
    expectResultError(
      await schedule(t, { converted: true, currency: 'EUR' }),
      422,
      'VALIDATION_ERROR',
      'converted',
    );
    expectResultError(
      await schedule(t, { converted: 'yes' } as unknown as ScheduleQuery),
      422,
      'VALIDATION_ERROR',
      'converted',
    );
  });
});

describe('the revenue calculator', () => {
  it('answers one currency by default and every currency in the base currency with converted=true', async () => {
    const t = await registerTenant(server());
    await salesInThreeCurrencies(t);
    const metrics = (total: number, currency: string) => ({
      ytdRevenue: total,
      rolling12MonthRevenue: total,
      monthlyAverage: halfUp(total, 12),
      projectedAnnual: halfUp(total * DAYS_IN_2026, DAY_OF_YEAR),
      currency,
      asOfDate: TODAY,
    });
    expect(await metricsOf(t)).toEqual(metrics(50_000, 'USD'));
    expect(await metricsOf(t, { currency: 'EUR' })).toEqual(metrics(153_333, 'EUR'));
    expect(await metricsOf(t, { converted: true })).toEqual(metrics(232_150, 'USD'));
    expect(await metricsOf(t, { converted: true, currency: 'USD' })).toEqual(metrics(232_150, 'USD'));
    // Year to date stops at asOfDate: October's sales alone.
    expect(await metricsOf(t, { converted: true, asOfDate: '2026-10-31' })).toMatchObject({
      ytdRevenue: 31_000,
      rolling12MonthRevenue: 31_000,
    });
  });

  it('takes voids and credit notes out at the rates their invoices posted at', async () => {
    const t = await registerTenant(server());
    await setRate(t, 'EUR', '2026-11-01', '1.1');
    const kept = await sale(t, 'EUR', '2026-11-02', 100_000);
    const voided = await sale(t, 'EUR', '2026-11-03', 40_000);
    await setRate(t, 'EUR', '2026-11-10', '1.5');
    await voidInvoice(t.client, voided.id);
    await createCreditNote(t.client, { invoice_id: kept.id, issue_date: '2026-11-12', amount: 10 });
    expect((await metricsOf(t, { converted: true })).ytdRevenue).toBe(110_000 - 1_100);
  });

  it('refuses converted=true with a currency other than the base (422 naming converted)', async () => {
    const t = await registerTenant(server());
    expectResultError(
      await calculator(t, { converted: true, currency: 'GBP' }),
      422,
      'VALIDATION_ERROR',
      'converted',
    );
  });
});

describe('the VAT threshold', () => {
  it('is crossed by euro sales converted to the base currency, with one alert at each level', async () => {
    const t = await registerTenant(server());
    await setRate(t, 'EUR', '2026-11-01', '1.1');
    await configureVat(t, { thresholdAmount: 100_000, alertAtPercentage: 80 });
    await sale(t, 'EUR', '2026-11-02', 50_000); // 550.00 USD: 55%
    expect(await mailSubjects(t)).toEqual([]);
    await sale(t, 'EUR', '2026-11-03', 30_000); // 880.00 USD: 88%
    expect(await mailSubjects(t)).toEqual(['VAT registration threshold: 80% reached (GB)']);
    await sale(t, 'EUR', '2026-11-04', 15_000); // 1,045.00 USD
    expect(await mailSubjects(t)).toEqual([
      'VAT registration threshold: 80% reached (GB)',
      'VAT registration threshold reached (GB)',
    ]);
    expect(await currentVat(t)).toMatchObject({ currentRevenue: 104_500, percentageReached: 104.5 });
    // The reports' VAT block counts them too, whatever currency the report is in.
    const block = (await scheduleOf(t)).vatThreshold;
    expect(block).toMatchObject({ configured: true, currentRevenue: 104_500 });
    expect((await scheduleOf(t)).summary.totalRevenue).toBe(0);
    expect((await metricsOf(t, { currency: 'EUR' })).vatThreshold).toMatchObject({ currentRevenue: 104_500 });
  });

  it('adds every currency, and a void takes a sale out at its converted amount', async () => {
    const t = await registerTenant(server());
    await setRate(t, 'EUR', '2026-11-01', '1.1');
    await setRate(t, 'GBP', '2026-11-01', '1.25');
    await configureVat(t, { thresholdAmount: 1_000_000 });
    await sale(t, 'USD', '2026-11-02', 10_000);
    const euros = await sale(t, 'EUR', '2026-11-02', 10_000);
    await sale(t, 'GBP', '2026-11-02', 10_000);
    expect((await currentVat(t)).currentRevenue).toBe(10_000 + 11_000 + 12_500);
    await setRate(t, 'EUR', '2026-11-20', '2');
    await voidInvoice(t.client, euros.id);
    expect((await currentVat(t)).currentRevenue).toBe(10_000 + 12_500);
  });

  it('in another currency than the base: the converted sums at the latest rate, or its own sales without one', async () => {
    const t = await registerTenant(server());
    await setRate(t, 'EUR', '2026-11-01', '1.1');
    await setRate(t, 'CHF', '2026-11-01', '1.25');
    await sale(t, 'USD', '2026-11-02', 110_000);
    await sale(t, 'EUR', '2026-11-02', 50_000);
    await sale(t, 'CHF', '2026-11-02', 40_000);
    const created = await configureVat(t, { country: 'IE', currency: 'EUR', thresholdAmount: 10_000_000 });
    // 1,100.00 + 550.00 + 500.00 USD = 2,150.00 USD, at 1.1 USD a euro: 1,954.545... EUR.
    expect(created.currentRevenue).toBe(195_455);
    await setRate(t, 'EUR', '2026-11-22', '1.25');
    expect((await currentVat(t)).currentRevenue).toBe(172_000);
    // In Swiss francs: 2,150.00 USD at 1.25 USD a franc; with no rate on or before today, the francs'
    // own sales alone.
    await unwrap(
      vat(t).updateVatThreshold({
        params: { publicId: created.publicId },
        body: { country: 'CH', currency: 'CHF' },
      }),
    );
    expect((await currentVat(t)).currentRevenue).toBe(172_000);
    await server()
      .deps.db.deleteFrom('finance_exchange_rates')
      .where('business_id', '=', t.businessId)
      .where('currency', '=', 'CHF')
      .execute();
    expect((await currentVat(t)).currentRevenue).toBe(40_000);
  });
});
