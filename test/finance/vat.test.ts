import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { unwrap, type finance } from '../../client/index.js';
import { financeModule } from '../../server/finance/index.js';
import { registerTenant, type TestTenant } from '../support/business.js';
import { expectResultError } from '../support/expect.js';
import { setRate } from '../support/finance.js';
import { createInvoice, invoiceLine, issuedInvoice, voidInvoice } from '../support/general.js';
import { useTestServer } from '../support/setup.js';

// Tokens outlive the clock moves below.
const server = useTestServer({ env: { ACCESS_TOKEN_TTL: '3650d' }, worker: false });

const NOW = '2026-11-23T09:00:00.000Z';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

beforeEach(() => server().clock.set(NOW));
afterEach(() => server().clock.reset());

const newTenant = () => registerTenant(server());

/** An invoice of `net` minor units (USD unless told, 20% tax) issued on `issue_date`. */
const sale = (t: TestTenant, issue_date: string, net: number, currency = 'USD') =>
  issuedInvoice(t.client, {
    customer_id: t.customerId,
    issue_date,
    due_date: '2030-12-31',
    currency,
    items: [invoiceLine({ unit_price: net / 100, tax_rate: 20 })],
  });

const config = (overrides: Partial<finance.CreateVatThresholdBody> = {}): finance.CreateVatThresholdBody => ({
  country: 'GB',
  thresholdAmount: 10_000,
  currency: 'USD',
  periodType: 'rolling_12_months',
  alertAtPercentage: 80,
  alertEmail: 'accounts@example.com',
  ...overrides,
});

const configure = async (t: TestTenant, overrides: Partial<finance.CreateVatThresholdBody> = {}) =>
  (await unwrap(t.client.finance.vat.createVatThreshold({ body: config(overrides) }))).data;

const current = async (t: TestTenant) => (await unwrap(t.client.finance.vat.getVatThreshold())).data;

const update = async (t: TestTenant, publicId: string, body: finance.UpdateVatThresholdBody) =>
  (await unwrap(t.client.finance.vat.updateVatThreshold({ params: { publicId }, body }))).data;

/** The alert emails of the business, oldest first. */
const alerts = (t: TestTenant) =>
  server()
    .deps.db.selectFrom('mail_messages')
    .select(['to_address', 'subject', 'body'])
    .where('business_id', '=', t.businessId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();

const subjects = async (t: TestTenant) => (await alerts(t)).map((m) => m.subject);

/** The periodic check every worker runs hourly. */
const periodicCheck = () => {
  const task = financeModule.periodic?.find((p) => p.name === 'vat threshold alerts');
  if (!task) throw new Error('no periodic VAT check');
  return task.run(server().deps);
};

describe('the VAT threshold configuration', () => {
  it('is data: null before one is created', async () => {
    const t = await newTenant();
    expect(await unwrap(t.client.finance.vat.getVatThreshold())).toEqual({ result: 'success', data: null });
  });

  it('is created (201) and read back with its status', async () => {
    const t = await newTenant();
    const res = await t.client.finance.vat.createVatThreshold({ body: config({ country: 'IE' }) });
    expect(res.status).toBe(201);
    const created = (res.body as { data: finance.VatThreshold }).data;
    expect(created).toEqual({
      publicId: expect.stringMatching(/^vat_/),
      country: 'IE',
      thresholdAmount: 10_000,
      currency: 'USD',
      periodType: 'rolling_12_months',
      alertAtPercentage: 80,
      alertEmail: 'accounts@example.com',
      registered: false,
      registrationDate: null,
      registrationNumber: null,
      currentRevenue: 0,
      percentageReached: 0,
      projectedCrossingDate: null,
      createdAt: NOW,
      updatedAt: NOW,
    });
    expect(await current(t)).toEqual(created);
  });

  it('is one per business: a second create is 409 CONFLICT', async () => {
    const t = await newTenant();
    await configure(t);
    const res = await t.client.finance.vat.createVatThreshold({ body: config({ country: 'FR' }) });
    expectResultError(res, 409, 'CONFLICT');
    expect((await current(t))?.country).toBe('GB');
  });

  it.each([
    [{ country: 'gb' }, 'country'],
    [{ country: 'GBR' }, 'country'],
    [{ thresholdAmount: 0 }, 'thresholdAmount'],
    [{ thresholdAmount: 12.5 }, 'thresholdAmount'],
    [{ currency: 'usd' }, 'currency'],
    [{ periodType: 'monthly' }, 'periodType'],
    [{ alertAtPercentage: 0 }, 'alertAtPercentage'],
    [{ alertAtPercentage: 101 }, 'alertAtPercentage'],
    [{ alertEmail: 'not an email' }, 'alertEmail'],
  ])('refuses %j at create: 422', async (overrides, field) => {
    const t = await newTenant();
    const res = await t.client.finance.vat.createVatThreshold({
      body: config(overrides as Partial<finance.CreateVatThresholdBody>),
    });
    expectResultError(res, 422, 'VALIDATION_ERROR', field);
    expect(await current(t)).toBeNull();
  });

  it('is updated partly; updatedAt moves with the clock, createdAt stays', async () => {
    const t = await newTenant();
    const created = await configure(t);
    server().clock.set('2026-11-24T10:00:00.000Z');
    const updated = await update(t, created.publicId, { alertEmail: 'tax@example.com' });
    expect(updated).toEqual({
      ...created,
      alertEmail: 'tax@example.com',
      updatedAt: '2026-11-24T10:00:00.000Z',
    });
    expect(updated.createdAt).toBe(created.createdAt);
  });

  it('answers 404 to an unknown publicId and to another business’s', async () => {
    const [t, other] = [await newTenant(), await newTenant()];
    const theirs = await configure(other);
    await configure(t);
    for (const publicId of ['vat_unknown', theirs.publicId]) {
      expectResultError(
        await t.client.finance.vat.updateVatThreshold({ params: { publicId }, body: { country: 'FR' } }),
        404,
        'NOT_FOUND',
      );
    }
    expect((await current(other))?.country).toBe('GB');
  });

  it('is marked registered with both fields; each is required', async () => {
    const t = await newTenant();
    const created = await configure(t);
    const mark = (body: Record<string, unknown>) =>
      t.client.finance.vat.markVatRegistered({
        params: { publicId: created.publicId },
        body: body as finance.MarkRegisteredBody,
      });
    expectResultError(
      await mark({ registrationDate: '2026-12-01' }),
      422,
      'VALIDATION_ERROR',
      'registrationNumber',
    );
    expectResultError(
      await mark({ registrationNumber: 'GB123456789' }),
      422,
      'VALIDATION_ERROR',
      'registrationDate',
    );
    expectResultError(
      await mark({ registrationDate: '2026-02-30', registrationNumber: 'GB1' }),
      422,
      'VALIDATION_ERROR',
      'registrationDate',
    );
    expect((await current(t))?.registered).toBe(false);
    const res = await mark({ registrationDate: '2026-12-01', registrationNumber: 'GB123456789' });
    expect(res.status).toBe(200);
    expect((res.body as { data: finance.VatThreshold }).data).toMatchObject({
      registered: true,
      registrationDate: '2026-12-01',
      registrationNumber: 'GB123456789',
    });
  });
});

describe('revenue over the window of each periodType (today 2026-11-23)', () => {
  it('counts the net revenue of issued invoices, other currencies converted, from each window’s first day', async () => {
    const t = await newTenant();
    await setRate(t, 'EUR', '2026-11-01', '1.25');
    await sale(t, '2025-11-23', 1); // before the rolling year
    await sale(t, '2025-11-24', 10); // first day of the rolling year
    await sale(t, '2025-12-31', 100);
    await sale(t, '2026-01-01', 1_000); // first day of the year
    await sale(t, '2026-09-30', 10_000);
    await sale(t, '2026-10-01', 100_000); // first day of the quarter
    await sale(t, '2026-11-23', 1_000_000); // today
    await sale(t, '2026-11-20', 4_000_000, 'EUR'); // 5,000,000 in USD (docs/decisions.md D278)
    await createInvoice(t.client, { customer_id: t.customerId, issue_date: '2026-11-21' }); // a draft
    await voidInvoice(t.client, (await sale(t, '2026-11-22', 7_000_000)).id); // void
    const created = await configure(t, { thresholdAmount: 900_000_000 });
    expect(created.currentRevenue).toBe(6_111_110);
    expect((await update(t, created.publicId, { periodType: 'annual' })).currentRevenue).toBe(6_111_000);
    expect((await update(t, created.publicId, { periodType: 'quarterly' })).currentRevenue).toBe(6_100_000);
    // In euros, at 1.25 USD a euro.
    expect((await update(t, created.publicId, { currency: 'EUR' })).currentRevenue).toBe(4_880_000);
  });

  it('moves with the clock: a new quarter starts from zero', async () => {
    const t = await newTenant();
    await sale(t, '2026-11-10', 4_000);
    await configure(t, { periodType: 'quarterly', thresholdAmount: 1_000_000 });
    expect((await current(t))?.currentRevenue).toBe(4_000);
    server().clock.set('2027-01-02T09:00:00.000Z');
    expect((await current(t))?.currentRevenue).toBe(0);
  });

  it('gives percentageReached with two decimals, half up', async () => {
    const t = await newTenant();
    await sale(t, '2026-11-01', 10_000);
    const created = await configure(t, { thresholdAmount: 30_000 });
    expect(created.percentageReached).toBe(33.33);
    expect((await update(t, created.publicId, { thresholdAmount: 15_000 })).percentageReached).toBe(66.67);
    expect((await update(t, created.publicId, { thresholdAmount: 80_000 })).percentageReached).toBe(12.5);
    // 10000 / 200000000 = 0.005% -> 0.01 (half up)
    expect((await update(t, created.publicId, { thresholdAmount: 200_000_000 })).percentageReached).toBe(
      0.01,
    );
  });
});

describe('projectedCrossingDate', () => {
  it('extends the last 90 days’ average daily revenue to the threshold', async () => {
    const t = await newTenant();
    await sale(t, '2026-11-01', 9_000); // 100 a day over 90 days
    const created = await configure(t, { thresholdAmount: 18_000, alertAtPercentage: 100 });
    // 9000 left at 100 a day: 90 days after 2026-11-23.
    expect(created.projectedCrossingDate).toBe('2027-02-21');
    // Rounded up to the day: 9001 left is 90.01 days.
    expect((await update(t, created.publicId, { thresholdAmount: 18_001 })).projectedCrossingDate).toBe(
      '2027-02-22',
    );
  });

  it('is null when the window ends first (annual, quarterly)', async () => {
    const t = await newTenant();
    await sale(t, '2026-11-01', 9_000);
    const annual = await configure(t, {
      thresholdAmount: 18_000,
      periodType: 'annual',
      alertAtPercentage: 100,
    });
    expect(annual.projectedCrossingDate).toBeNull();
    // 1000 left at 100 a day: 10 days, before the end of the quarter.
    expect(
      (await update(t, annual.publicId, { periodType: 'quarterly', thresholdAmount: 10_000 }))
        .projectedCrossingDate,
    ).toBe('2026-12-03');
  });

  it('is null without recent revenue, once reached, and once registered', async () => {
    const t = await newTenant();
    const created = await configure(t, { thresholdAmount: 18_000, alertAtPercentage: 100 });
    expect(created.projectedCrossingDate).toBeNull();
    await sale(t, '2026-11-01', 9_000);
    expect((await current(t))?.projectedCrossingDate).toBe('2027-02-21');
    await unwrap(
      t.client.finance.vat.markVatRegistered({
        params: { publicId: created.publicId },
        body: { registrationDate: '2026-11-23', registrationNumber: 'GB1' },
      }),
    );
    expect((await current(t))?.projectedCrossingDate).toBeNull();
    const other = await newTenant();
    await sale(other, '2026-11-01', 20_000);
    expect((await configure(other, { thresholdAmount: 18_000 })).projectedCrossingDate).toBeNull();
  });
});

describe('alert emails', () => {
  it('sends one at the alert level and one at 100%, each once, to alertEmail', async () => {
    const t = await newTenant();
    await configure(t, { alertEmail: 'tax@example.com' });
    await sale(t, '2026-11-01', 7_000); // 70%
    expect(await alerts(t)).toEqual([]);
    await sale(t, '2026-11-02', 1_500); // 85%
    await sale(t, '2026-11-03', 100); // 86%
    expect(await subjects(t)).toEqual(['VAT registration threshold: 80% reached (GB)']);
    await sale(t, '2026-11-04', 2_000); // 106%
    await sale(t, '2026-11-05', 2_000);
    const sent = await alerts(t);
    expect(sent.map((m) => m.subject)).toEqual([
      'VAT registration threshold: 80% reached (GB)',
      'VAT registration threshold reached (GB)',
    ]);
    expect(sent.every((m) => m.to_address === 'tax@example.com')).toBe(true);
    expect(sent[0]?.body).toContain('85 USD');
    expect(sent[0]?.body).toContain('85%');
    expect(sent[1]?.body).toContain('106 USD');
  });

  it('sends only the 100% email when one invoice jumps past both', async () => {
    const t = await newTenant();
    await configure(t);
    await sale(t, '2026-11-01', 12_000);
    expect(await subjects(t)).toEqual(['VAT registration threshold reached (GB)']);
  });

  it('sends one at create when revenue is already past the level', async () => {
    const t = await newTenant();
    await sale(t, '2026-11-01', 9_000);
    await configure(t);
    expect(await subjects(t)).toEqual(['VAT registration threshold: 80% reached (GB)']);
  });

  it('sends none once registered', async () => {
    const t = await newTenant();
    const created = await configure(t);
    await unwrap(
      t.client.finance.vat.markVatRegistered({
        params: { publicId: created.publicId },
        body: { registrationDate: '2026-11-01', registrationNumber: 'GB123' },
      }),
    );
    await sale(t, '2026-11-01', 20_000);
    expect(await periodicCheck()).toBe(0);
    expect(await alerts(t)).toEqual([]);
  });

  it('re-arms in a new window: the next quarter crosses again', async () => {
    const t = await newTenant();
    await configure(t, { periodType: 'quarterly', alertAtPercentage: 50 });
    await sale(t, '2026-11-10', 6_000);
    server().clock.set('2027-01-05T09:00:00.000Z');
    await sale(t, '2027-01-04', 3_000);
    expect(await alerts(t)).toHaveLength(1);
    await sale(t, '2027-01-05', 3_000);
    expect(await subjects(t)).toEqual([
      'VAT registration threshold: 50% reached (GB)',
      'VAT registration threshold: 50% reached (GB)',
    ]);
  });

  it('re-arms when the alert level changes, checking at once', async () => {
    const t = await newTenant();
    const created = await configure(t);
    await sale(t, '2026-11-01', 8_500);
    expect(await alerts(t)).toHaveLength(1);
    await update(t, created.publicId, { alertEmail: 'other@example.com' }); // not a re-arming change
    expect(await alerts(t)).toHaveLength(1);
    await update(t, created.publicId, { alertAtPercentage: 50 });
    expect(await subjects(t)).toEqual([
      'VAT registration threshold: 80% reached (GB)',
      'VAT registration threshold: 50% reached (GB)',
    ]);
  });

  it('re-arms when a void takes revenue back under the level', async () => {
    const t = await newTenant();
    await configure(t);
    const big = await sale(t, '2026-11-01', 8_500);
    await voidInvoice(t.client, big.id);
    await sale(t, '2026-11-02', 8_100);
    expect(await subjects(t)).toEqual([
      'VAT registration threshold: 80% reached (GB)',
      'VAT registration threshold: 80% reached (GB)',
    ]);
  });

  it('are caught by the periodic check when no invoice issue did, once', async () => {
    const t = await newTenant();
    await configure(t, { thresholdAmount: 100_000 });
    await sale(t, '2026-11-01', 9_000);
    expect(await alerts(t)).toEqual([]);
    // The threshold lowered behind the service's back: only the periodic check sees it.
    await server()
      .deps.db.updateTable('finance_vat_thresholds')
      .set({ threshold_amount: 10_000 })
      .where('business_id', '=', t.businessId)
      .execute();
    expect(await periodicCheck()).toBeGreaterThanOrEqual(1);
    expect(await subjects(t)).toEqual(['VAT registration threshold: 80% reached (GB)']);
    await periodicCheck();
    expect(await alerts(t)).toHaveLength(1);
  });

  it('re-arm as a rolling window leaves old sales behind (the periodic check notices)', async () => {
    const t = await newTenant();
    await configure(t);
    await sale(t, '2026-11-01', 9_000);
    expect(await alerts(t)).toHaveLength(1);
    server().clock.set('2027-11-05T09:00:00.000Z'); // the sale is out of the 12 months
    await periodicCheck();
    expect(await alerts(t)).toHaveLength(1);
    await sale(t, '2027-11-05', 9_000);
    expect(await alerts(t)).toHaveLength(2);
  });

  it('never mixes businesses: another business’s sales neither count nor alert', async () => {
    const [t, other] = [await newTenant(), await newTenant()];
    await configure(t);
    await sale(other, '2026-11-01', 50_000);
    expect((await current(t))?.currentRevenue).toBe(0);
    expect(await alerts(t)).toEqual([]);
  });
});

describe('timestamps', () => {
  it('are ISO-8601', async () => {
    const t = await newTenant();
    const created = await configure(t);
    expect(created.createdAt).toMatch(ISO);
    expect(created.updatedAt).toMatch(ISO);
  });
});
