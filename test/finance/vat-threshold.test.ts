import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { unwrap, type finance, type general } from '../../client/index.js';
import { MAX_AMOUNT_MINOR } from '../../contract/common/money.js';
import { financeModule } from '../../server/finance/index.js';
import { json, raw, registerTenant, type TestTenant } from '../support/business.js';
import { expectApiError, expectResultError } from '../support/expect.js';
import { setRate } from '../support/finance.js';
import { createInvoice, invoiceLine, issuedInvoice, payInvoice, voidInvoice } from '../support/general.js';
import { useTestServer } from '../support/setup.js';

// Tokens outlive the clock moves below; no worker, so the periodic check runs only when a test runs it
// and queued mail stays in the outbox as written.
const server = useTestServer({ env: { ACCESS_TOKEN_TTL: '3650d' }, worker: false });

const TODAY = '2026-11-23';
const NOW = `${TODAY}T09:00:00.000Z`;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Sets the server's clock to `day` at 09:00 UTC. */
const at = (day: string) => server().clock.set(`${day}T09:00:00.000Z`);

beforeEach(() => at(TODAY));
afterEach(async () => {
  server().clock.reset();
  // The periodic check goes over every business of the database: the configurations a test leaves
  // behind are registered, so the next test's check sees only its own.
  await server()
    .deps.db.updateTable('finance_vat_thresholds')
    .set({ registered: true, registration_date: '2026-01-01', registration_number: 'TEST' })
    .where('registered', '=', false)
    .execute();
});

/** A business of its own for each test, with a customer to invoice. */
const newTenant = () => registerTenant(server());

// Calendar and money rules, computed here independently of the service.
const DAY_MS = 86_400_000;

/** The date `n` days after `date`. */
const plusDays = (date: string, n: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

/** revenue / threshold x 100 with two decimals, rounded half up. */
const percent = (revenue: number, threshold: number) =>
  Number((BigInt(revenue) * 20_000n + BigInt(threshold)) / (2n * BigInt(threshold))) / 100;

/** The day the window reaches `threshold` at the average daily revenue of the 90 days ending `today`. */
const projected = (today: string, threshold: number, revenue: number, last90Days: number) =>
  plusDays(today, Math.ceil(((threshold - revenue) * 90) / last90Days));

/** An issued invoice of `net` minor units before its 20% tax (USD unless told), dated `issue_date`. */
const sale = (t: TestTenant, issue_date: string, net: number, currency = 'USD') =>
  issuedInvoice(t.client, {
    customer_id: t.customerId,
    issue_date,
    due_date: '2030-12-31',
    currency,
    items: [invoiceLine({ unit_price: net / 100, tax_rate: 20 })],
  });

/** Net revenue of an invoice in minor units (two-decimal currencies). */
const netOf = (invoice: general.Invoice) => Math.round(invoice.subtotal * 100);

const config = (overrides: Partial<finance.CreateVatThresholdBody> = {}): finance.CreateVatThresholdBody => ({
  country: 'GB',
  thresholdAmount: 10_000,
  currency: 'USD',
  periodType: 'rolling_12_months',
  alertAtPercentage: 80,
  alertEmail: 'accounts@example.com',
  ...overrides,
});

const api = (t: TestTenant) => t.client.finance.vat;

const configure = async (t: TestTenant, overrides: Partial<finance.CreateVatThresholdBody> = {}) =>
  (await unwrap(api(t).createVatThreshold({ body: config(overrides) }))).data;

/** The configuration as GET answers it (the test fails when there is none). */
async function current(t: TestTenant): Promise<finance.VatThreshold> {
  const { data } = await unwrap(api(t).getVatThreshold());
  if (!data) throw new Error('no VAT threshold configuration');
  return data;
}

const update = async (t: TestTenant, publicId: string, body: finance.UpdateVatThresholdBody) =>
  (await unwrap(api(t).updateVatThreshold({ params: { publicId }, body }))).data;

const markRegistered = async (t: TestTenant, publicId: string, body: finance.MarkRegisteredBody) =>
  (await unwrap(api(t).markVatRegistered({ params: { publicId }, body }))).data;

/** Sends what the typed client would refuse (unknown fields, wrong types, missing fields). */
const post = (t: TestTenant, path: string, body: unknown) =>
  raw(server(), 'POST', path, { ...json(body), token: t.accessToken });
const put = (t: TestTenant, path: string, body: unknown) =>
  raw(server(), 'PUT', path, { ...json(body), token: t.accessToken });

/** The mail outbox of the business, oldest first. */
const mails = (t: TestTenant) =>
  server()
    .deps.db.selectFrom('mail_messages')
    .select(['to_address', 'subject', 'body', 'status', 'created_at'])
    .where('business_id', '=', t.businessId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();

const subjects = async (t: TestTenant) => (await mails(t)).map((m) => m.subject);

const levelSubject = (level: number, country = 'GB') =>
  `VAT registration threshold: ${level}% reached (${country})`;
const fullSubject = (country = 'GB') => `VAT registration threshold reached (${country})`;

/** The periodic VAT check as the worker runs it; answers how many alerts it sent. */
const periodicTask = () => {
  const task = financeModule.periodic?.find((p) => p.name === 'vat threshold alerts');
  if (!task) throw new Error('no periodic VAT threshold check');
  return task;
};
const periodicCheck = async () => Number(await periodicTask().run(server().deps));

/** Sets the stored threshold directly, as nothing in the API would without also checking alerts. */
const setStoredThreshold = (t: TestTenant, amount: number) =>
  server()
    .deps.db.updateTable('finance_vat_thresholds')
    .set({ threshold_amount: amount })
    .where('business_id', '=', t.businessId)
    .execute();

describe('GET and POST /v1/create/vatThreshold', () => {
  it('answers data: null while the business has no configuration', async () => {
    const t = await newTenant();
    const res = await api(t).getVatThreshold();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', data: null });
  });

  it('creates (201) an unregistered configuration with its status; GET answers the same', async () => {
    const t = await newTenant();
    const body = config({ country: 'IE', thresholdAmount: 8_000_000, currency: 'EUR', periodType: 'annual' });
    const res = await api(t).createVatThreshold({ body });
    expect(res.status).toBe(201);
    const created = (res.body as { result: string; data: finance.VatThreshold }).data;
    expect(res.body).toEqual({
      result: 'success',
      data: {
        ...body,
        publicId: expect.stringMatching(/^vat_[0-9A-Z]{26}$/),
        registered: false,
        registrationDate: null,
        registrationNumber: null,
        currentRevenue: 0,
        percentageReached: 0,
        projectedCrossingDate: null,
        createdAt: NOW,
        updatedAt: NOW,
      },
    });
    expect(created.createdAt).toMatch(ISO);
    expect(await unwrap(api(t).getVatThreshold())).toEqual({ result: 'success', data: created });
  });

  it('allows one configuration per business: a second create is 409 CONFLICT and changes nothing', async () => {
    const t = await newTenant();
    const first = await configure(t);
    at('2026-11-24');
    expectResultError(await api(t).createVatThreshold({ body: config({ country: 'FR' }) }), 409, 'CONFLICT');
    expect(await current(t)).toEqual(first);
  });

  it.each([
    ['a lower-case country', { country: 'gb' }, 'country'],
    ['a three-letter country', { country: 'GBR' }, 'country'],
    ['a zero thresholdAmount', { thresholdAmount: 0 }, 'thresholdAmount'],
    ['a negative thresholdAmount', { thresholdAmount: -100 }, 'thresholdAmount'],
    ['a fractional thresholdAmount', { thresholdAmount: 12.5 }, 'thresholdAmount'],
    ['a thresholdAmount over the maximum', { thresholdAmount: MAX_AMOUNT_MINOR + 1 }, 'thresholdAmount'],
    ['a thresholdAmount as text', { thresholdAmount: '10000' }, 'thresholdAmount'],
    ['a lower-case currency', { currency: 'usd' }, 'currency'],
    ['an unknown currency', { currency: 'XYZ' }, 'currency'],
    ['an unknown periodType', { periodType: 'monthly' }, 'periodType'],
    ['alertAtPercentage 0', { alertAtPercentage: 0 }, 'alertAtPercentage'],
    ['alertAtPercentage 101', { alertAtPercentage: 101 }, 'alertAtPercentage'],
    ['a fractional alertAtPercentage', { alertAtPercentage: 80.5 }, 'alertAtPercentage'],
    ['a malformed alertEmail', { alertEmail: 'not an email' }, 'alertEmail'],
    ['no alertEmail', { alertEmail: undefined }, 'alertEmail'],
    ['an unknown field', { registered: true }, 'registered'],
  ])(
    'refuses %s at create (422 VALIDATION_ERROR naming the field); nothing is created',
    async (_, overrides, field) => {
      const t = await newTenant();
      const res = await post(t, '/v1/create/vatThreshold', { ...config(), ...overrides });
      expectResultError(res, 422, 'VALIDATION_ERROR', field);
      expect((await unwrap(api(t).getVatThreshold())).data).toBeNull();
    },
  );

  it('replays a create retried with the same Idempotency-Key; the key with another body is 422', async () => {
    const t = await newTenant();
    const key = `vat-${randomUUID()}`;
    const send = (body: finance.CreateVatThresholdBody) =>
      api(t).createVatThreshold({ body, headers: { 'idempotency-key': key } });
    const first = await send(config());
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    server().clock.advance(60 * 60 * 1000); // within the 24 hours a response is kept
    const replay = await send(config());
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    expectResultError(await send(config({ country: 'FR' })), 422, 'IDEMPOTENCY_KEY_REUSED');
    // A create under a new key is a second configuration.
    expectResultError(await api(t).createVatThreshold({ body: config() }), 409, 'CONFLICT');
    expect(await current(t)).toMatchObject({ country: 'GB', createdAt: NOW });
  });

  it('refuses an Idempotency-Key over 255 characters (422) and creates nothing', async () => {
    const t = await newTenant();
    const res = await api(t).createVatThreshold({
      body: config(),
      headers: { 'idempotency-key': 'k'.repeat(256) },
    });
    await expectApiError(res, 422, 'VALIDATION_ERROR');
    expect((await unwrap(api(t).getVatThreshold())).data).toBeNull();
  });
});

describe('PUT /v1/update/vatThreshold/:publicId', () => {
  it('changes only the fields given; updatedAt moves with the clock, createdAt stays', async () => {
    const t = await newTenant();
    const created = await configure(t);
    at('2026-11-24');
    const updated = await update(t, created.publicId, { alertEmail: 'tax@example.com', country: 'DE' });
    expect(updated).toEqual({
      ...created,
      alertEmail: 'tax@example.com',
      country: 'DE',
      updatedAt: '2026-11-24T09:00:00.000Z',
    });
    expect(await current(t)).toEqual(updated);
  });

  it('changes every field at once, the status following the new currency and window', async () => {
    const t = await newTenant();
    // Every sale counts in the base currency, a configuration in euros at the latest rate (docs/decisions.md D278).
    await setRate(t, 'EUR', '2026-09-01', '1.25');
    await sale(t, '2026-09-01', 3_000, 'EUR'); // before the quarter: 37.50 USD
    await sale(t, '2026-10-05', 4_000, 'EUR'); // 50.00 USD
    await sale(t, '2026-10-06', 9_000); // USD
    const created = await configure(t);
    expect(created.currentRevenue).toBe(3_750 + 5_000 + 9_000);
    const body: finance.UpdateVatThresholdBody = {
      country: 'FR',
      thresholdAmount: 12_000,
      currency: 'EUR',
      periodType: 'quarterly',
      alertAtPercentage: 90,
      alertEmail: 'compta@example.fr',
    };
    const updated = await update(t, created.publicId, body);
    expect(updated).toMatchObject({
      ...body,
      publicId: created.publicId,
      // (50.00 + 90.00) USD at 1.25 USD a euro.
      currentRevenue: 11_200,
      percentageReached: percent(11_200, 12_000),
      registered: false,
    });
  });

  it('refuses invalid values (422 naming the field) and leaves the configuration as it was', async () => {
    const t = await newTenant();
    const created = await configure(t);
    const path = `/v1/update/vatThreshold/${created.publicId}`;
    const cases: [Record<string, unknown>, string][] = [
      [{ currency: 'usd' }, 'currency'],
      [{ currency: 'ABC' }, 'currency'],
      [{ thresholdAmount: -1 }, 'thresholdAmount'],
      [{ thresholdAmount: 0 }, 'thresholdAmount'],
      [{ alertAtPercentage: 101 }, 'alertAtPercentage'],
      [{ alertAtPercentage: 0 }, 'alertAtPercentage'],
      [{ periodType: 'weekly' }, 'periodType'],
      [{ alertEmail: 'nobody' }, 'alertEmail'],
      [{ country: 'G1' }, 'country'],
      [{ registered: true }, 'registered'],
      [{ registrationNumber: 'GB1' }, 'registrationNumber'],
    ];
    for (const [body, field] of cases) {
      expectResultError(await put(t, path, body), 422, 'VALIDATION_ERROR', field);
    }
    expect(await current(t)).toEqual(created);
  });

  it('answers 404 to an unknown publicId, to another business’s, and when there is none', async () => {
    const [t, other, empty] = [await newTenant(), await newTenant(), await newTenant()];
    const theirs = await configure(other);
    const mine = await configure(t);
    const registration = { registrationDate: '2026-11-01', registrationNumber: 'GB123456789' };
    for (const publicId of ['vat_01JD7X2R5VQ8N3K4M6P9T1W2Y3', theirs.publicId]) {
      expectResultError(
        await api(t).updateVatThreshold({ params: { publicId }, body: { country: 'FR' } }),
        404,
        'NOT_FOUND',
      );
      expectResultError(
        await api(t).markVatRegistered({ params: { publicId }, body: registration }),
        404,
        'NOT_FOUND',
      );
    }
    for (const publicId of [mine.publicId, theirs.publicId]) {
      expectResultError(
        await api(empty).updateVatThreshold({ params: { publicId }, body: { country: 'FR' } }),
        404,
        'NOT_FOUND',
      );
    }
    expect(await current(other)).toEqual(theirs);
    expect(await current(t)).toEqual(mine);
  });
});

describe('POST /v1/update/vatThreshold/:publicId/markRegistered', () => {
  it('requires both registrationDate and registrationNumber (422 naming the field); nothing changes', async () => {
    const t = await newTenant();
    const created = await configure(t);
    const path = `/v1/update/vatThreshold/${created.publicId}/markRegistered`;
    const cases: [Record<string, unknown>, string][] = [
      [{ registrationDate: '2026-12-01' }, 'registrationNumber'],
      [{ registrationNumber: 'GB123456789' }, 'registrationDate'],
      [{}, 'registrationDate'],
      [{}, 'registrationNumber'],
      [{ registrationDate: '2026-12-01', registrationNumber: '   ' }, 'registrationNumber'],
      [{ registrationDate: '2026-12-01', registrationNumber: 'G'.repeat(51) }, 'registrationNumber'],
      [{ registrationDate: '2026-02-30', registrationNumber: 'GB1' }, 'registrationDate'],
      [{ registrationDate: '01/12/2026', registrationNumber: 'GB1' }, 'registrationDate'],
      [{ registrationDate: '2026-12-01', registrationNumber: 'GB1', registered: false }, 'registered'],
    ];
    for (const [body, field] of cases) {
      expectResultError(await post(t, path, body), 422, 'VALIDATION_ERROR', field);
    }
    expect(await current(t)).toEqual(created);
  });

  it('marks registered: both values stored, updatedAt changes, the projection stops', async () => {
    const t = await newTenant();
    await sale(t, '2026-11-01', 4_500);
    const created = await configure(t);
    expect(created.projectedCrossingDate).not.toBeNull();
    at('2026-11-25');
    const res = await api(t).markVatRegistered({
      params: { publicId: created.publicId },
      body: { registrationDate: '2026-11-24', registrationNumber: 'GB123456789' },
    });
    expect(res.status).toBe(200);
    const registered = (res.body as { data: finance.VatThreshold }).data;
    expect(registered).toEqual({
      ...created,
      registered: true,
      registrationDate: '2026-11-24',
      registrationNumber: 'GB123456789',
      projectedCrossingDate: null,
      updatedAt: '2026-11-25T09:00:00.000Z',
    });
    expect(await current(t)).toEqual(registered);
  });
});

describe('currentRevenue: net revenue over the window ending today', () => {
  it('rolling_12_months: the 12 months ending today (2026-11-23: from 2025-11-24); moves with the clock', async () => {
    const t = await newTenant();
    await sale(t, '2025-11-23', 1); // the day before the window
    await sale(t, '2025-11-24', 10); // its first day
    await sale(t, '2026-03-15', 100);
    await sale(t, TODAY, 1_000); // its last day
    await sale(t, '2026-11-24', 10_000); // tomorrow
    const created = await configure(t, { thresholdAmount: 100_000_000 });
    expect(created.currentRevenue).toBe(10 + 100 + 1_000);
    // On 2026-11-24 the window starts 2025-11-25: the first day's sale leaves, tomorrow's comes in.
    at('2026-11-24');
    expect((await current(t)).currentRevenue).toBe(100 + 1_000 + 10_000);
  });

  it('rolling_12_months ending on a leap day starts on 1 March of the year before', async () => {
    const t = await newTenant();
    at('2028-02-29');
    await sale(t, '2027-02-28', 1);
    await sale(t, '2027-03-01', 10);
    await sale(t, '2028-02-29', 100);
    expect((await configure(t, { thresholdAmount: 100_000 })).currentRevenue).toBe(10 + 100);
  });

  it('annual: the calendar year to date', async () => {
    const t = await newTenant();
    await sale(t, '2025-12-31', 1); // last year
    await sale(t, '2026-01-01', 10); // first day of the year
    await sale(t, '2026-06-30', 100);
    await sale(t, TODAY, 1_000);
    await sale(t, '2026-12-31', 10_000); // later this year, not yet
    const created = await configure(t, { periodType: 'annual', thresholdAmount: 100_000_000 });
    expect(created.currentRevenue).toBe(10 + 100 + 1_000);
    at('2026-12-31');
    expect((await current(t)).currentRevenue).toBe(10 + 100 + 1_000 + 10_000);
    at('2027-01-01');
    expect((await current(t)).currentRevenue).toBe(0);
  });

  it('quarterly: the calendar quarter to date; a new quarter starts from its own sales', async () => {
    const t = await newTenant();
    await sale(t, '2026-09-30', 1); // last quarter
    await sale(t, '2026-10-01', 10); // first day of the quarter
    await sale(t, TODAY, 100);
    await sale(t, '2026-12-31', 1_000); // the quarter's last day, not yet
    await sale(t, '2027-01-01', 10_000); // next quarter
    const created = await configure(t, { periodType: 'quarterly', thresholdAmount: 100_000_000 });
    expect(created.currentRevenue).toBe(10 + 100);
    at('2026-12-31');
    expect((await current(t)).currentRevenue).toBe(10 + 100 + 1_000);
    at('2027-01-01');
    expect((await current(t)).currentRevenue).toBe(10_000);
  });

  it('counts net totals (no tax) of issued and paid invoices, other currencies converted; drafts and voids are left out', async () => {
    const t = await newTenant();
    await setRate(t, 'EUR', '2026-11-01', '1.25');
    const mixed = await issuedInvoice(t.client, {
      customer_id: t.customerId,
      issue_date: '2026-11-02',
      due_date: '2030-12-31',
      items: [
        invoiceLine({ quantity: 3, unit_price: 19.99, tax_rate: 20 }),
        invoiceLine({ quantity: 1.5, unit_price: 0.33, tax_rate: 7.5 }),
      ],
    });
    expect(mixed.tax).toBeGreaterThan(0);
    const paid = await sale(t, '2026-11-03', 2_500);
    await payInvoice(t.client, paid.id, paid.total);
    await createInvoice(t.client, { customer_id: t.customerId, issue_date: '2026-11-04' }); // a draft
    const voided = await sale(t, '2026-11-05', 70_000);
    await voidInvoice(t.client, voided.id);
    // Every sale counts in the base currency (docs/decisions.md D278): 400.00 EUR at 1.25 is 500.00 USD.
    const euros = await sale(t, '2026-11-06', 40_000, 'EUR');
    const counted = netOf(mixed) + netOf(paid) + netOf(euros) * 1.25;
    const created = await configure(t, { thresholdAmount: 10_000_000 });
    expect(created.currentRevenue).toBe(counted);
    // A configuration in euros: the same at 1.25 USD a euro, rounded to the cent.
    expect((await update(t, created.publicId, { currency: 'EUR' })).currentRevenue).toBe(
      Math.round((counted * 4) / 5),
    );
  });

  it('takes a voided invoice out at once', async () => {
    const t = await newTenant();
    const created = await configure(t, { thresholdAmount: 1_000_000 });
    const kept = await sale(t, '2026-11-10', 3_000);
    const dropped = await sale(t, '2026-11-11', 5_000);
    expect((await current(t)).currentRevenue).toBe(netOf(kept) + netOf(dropped));
    await voidInvoice(t.client, dropped.id);
    expect((await current(t)).currentRevenue).toBe(netOf(kept));
    expect((await current(t)).percentageReached).toBe(percent(netOf(kept), created.thresholdAmount));
  });

  it.each([
    [10_000, 30_000], // 33.333...
    [20_000, 30_000], // 66.666...
    [1, 20_000], // 0.005 -> 0.01
    [1, 20_001], // 0.00499... -> 0
    [10_000, 80_000], // 12.5
    [15_000, 10_000], // past the threshold
  ])('reports %i of %i as a percentage with two decimals, half up', async (revenue, threshold) => {
    const t = await newTenant();
    await sale(t, '2026-11-01', revenue);
    const created = await configure(t, { thresholdAmount: threshold });
    expect(created.currentRevenue).toBe(revenue);
    expect(created.percentageReached).toBe(percent(revenue, threshold));
  });

  it('never counts another business’s invoices', async () => {
    const [t, other] = [await newTenant(), await newTenant()];
    await sale(other, '2026-11-01', 50_000);
    await sale(other, TODAY, 50_000);
    const mine = await sale(t, '2026-11-02', 1_234);
    await configure(other, { thresholdAmount: 10_000_000 });
    expect((await configure(t, { thresholdAmount: 10_000_000 })).currentRevenue).toBe(netOf(mine));
    await sale(other, TODAY, 50_000);
    expect((await current(t)).currentRevenue).toBe(netOf(mine));
    expect((await current(other)).currentRevenue).toBe(150_000);
  });
});

describe('projectedCrossingDate', () => {
  it('is today plus the remaining revenue over the last 90 days’ daily average, rounded up to a day', async () => {
    const t = await newTenant();
    await sale(t, '2026-11-01', 9_000); // 100 a day over 90 days
    const created = await configure(t, { thresholdAmount: 18_000 });
    expect(created.projectedCrossingDate).toBe(projected(TODAY, 18_000, 9_000, 9_000));
    expect(created.projectedCrossingDate).toBe('2027-02-21');
    // 9001 left at 100 a day is 90.01 days: the 91st day.
    const later = await update(t, created.publicId, { thresholdAmount: 18_001 });
    expect(later.projectedCrossingDate).toBe(projected(TODAY, 18_001, 9_000, 9_000));
    expect(later.projectedCrossingDate).toBe('2027-02-22');
  });

  it('averages the 90 days ending today only (2026-11-23: from 2026-08-26)', async () => {
    const t = await newTenant();
    await sale(t, '2026-08-25', 5_000); // in the window, not in the last 90 days
    await sale(t, '2026-08-26', 4_500); // the first of the 90 days
    const created = await configure(t, { thresholdAmount: 20_000 });
    expect(created.currentRevenue).toBe(9_500);
    expect(created.projectedCrossingDate).toBe(projected(TODAY, 20_000, 9_500, 4_500));
  });

  it('is null when it falls after the end of an annual or quarterly window, not of a rolling one', async () => {
    const t = await newTenant();
    await sale(t, '2026-11-01', 9_000); // 100 a day
    // 3800 left: 38 days, 2026-12-31, the last day of the quarter and the year.
    const quarterly = await configure(t, { periodType: 'quarterly', thresholdAmount: 12_800 });
    expect(quarterly.projectedCrossingDate).toBe(projected(TODAY, 12_800, 9_000, 9_000));
    expect(quarterly.projectedCrossingDate).toBe('2026-12-31');
    expect((await update(t, quarterly.publicId, { periodType: 'annual' })).projectedCrossingDate).toBe(
      '2026-12-31',
    );
    // 3801 left: 39 days, 2027-01-01.
    const annual = await update(t, quarterly.publicId, { thresholdAmount: 12_801 });
    expect(annual.projectedCrossingDate).toBeNull();
    expect(
      (await update(t, quarterly.publicId, { periodType: 'quarterly' })).projectedCrossingDate,
    ).toBeNull();
    expect(
      (await update(t, quarterly.publicId, { periodType: 'rolling_12_months' })).projectedCrossingDate,
    ).toBe(projected(TODAY, 12_801, 9_000, 9_000));
  });

  it('is null without revenue, without revenue in the last 90 days, once reached, and once registered', async () => {
    const t = await newTenant();
    const created = await configure(t, { thresholdAmount: 20_000 });
    expect(created.projectedCrossingDate).toBeNull();
    await sale(t, '2026-06-01', 5_000); // in the window, older than 90 days
    expect((await current(t)).projectedCrossingDate).toBeNull();
    await sale(t, '2026-11-01', 5_000);
    expect((await current(t)).projectedCrossingDate).toBe(projected(TODAY, 20_000, 10_000, 5_000));
    // Exactly reached.
    expect((await update(t, created.publicId, { thresholdAmount: 10_000 })).projectedCrossingDate).toBeNull();
    await update(t, created.publicId, { thresholdAmount: 20_000 });
    const registered = await markRegistered(t, created.publicId, {
      registrationDate: TODAY,
      registrationNumber: 'GB1',
    });
    expect(registered.projectedCrossingDate).toBeNull();
    expect(registered.currentRevenue).toBe(10_000);
  });
});

describe('alert emails', () => {
  it('sends one when revenue reaches alertAtPercentage, written with the invoice that reaches it', async () => {
    const t = await newTenant();
    const threshold = 10_000;
    await configure(t, { thresholdAmount: threshold, alertEmail: 'tax@example.com' });
    await sale(t, '2026-11-01', 7_999); // 79.99%
    expect(await mails(t)).toEqual([]);
    await sale(t, '2026-11-02', 1); // exactly 80%
    const sent = await mails(t);
    expect(sent).toEqual([
      {
        to_address: 'tax@example.com',
        subject: levelSubject(80),
        body: expect.stringContaining(`${percent(8_000, threshold)}%`),
        status: 'queued',
        created_at: new Date(NOW),
      },
    ]);
    expect(sent[0]?.body).toContain(TODAY);
  });

  it('sends only one per window however many invoices follow above the level', async () => {
    const t = await newTenant();
    await configure(t);
    await sale(t, '2026-11-01', 8_100);
    await sale(t, '2026-11-02', 500);
    await sale(t, '2026-11-03', 500);
    expect(await subjects(t)).toEqual([levelSubject(80)]);
    expect((await current(t)).percentageReached).toBe(percent(9_100, 10_000));
  });

  it('sends one more at 100%, once', async () => {
    const t = await newTenant();
    await configure(t);
    await sale(t, '2026-11-01', 8_500);
    await sale(t, '2026-11-02', 1_499); // 99.99%
    expect(await subjects(t)).toEqual([levelSubject(80)]);
    await sale(t, '2026-11-03', 1); // exactly 100%
    await sale(t, '2026-11-04', 3_000);
    expect(await subjects(t)).toEqual([levelSubject(80), fullSubject()]);
  });

  it('sends only the 100% email when one invoice jumps from below the level past 100%', async () => {
    const t = await newTenant();
    await configure(t, { country: 'NL' });
    await sale(t, '2026-11-01', 5_000);
    await sale(t, '2026-11-02', 7_000);
    expect(await subjects(t)).toEqual([fullSubject('NL')]);
  });

  it('sends one email, the 100% one, when alertAtPercentage is 100', async () => {
    const t = await newTenant();
    await configure(t, { alertAtPercentage: 100 });
    await sale(t, '2026-11-01', 9_999);
    expect(await mails(t)).toEqual([]);
    await sale(t, '2026-11-02', 1);
    await sale(t, '2026-11-03', 1);
    expect(await subjects(t)).toEqual([fullSubject()]);
  });

  it('sends at create when revenue is already past the level', async () => {
    const t = await newTenant();
    await sale(t, '2026-11-01', 9_000);
    await configure(t);
    expect(await subjects(t)).toEqual([levelSubject(80)]);
  });

  it('counts every currency converted: a euro sale alerts a configuration in dollars, once', async () => {
    const t = await newTenant();
    await setRate(t, 'EUR', '2026-11-01', '1.1');
    await configure(t);
    await sale(t, '2026-11-01', 8_000, 'EUR'); // 88.00 USD of 100.00 (docs/decisions.md D278)
    expect(await subjects(t)).toEqual([levelSubject(80)]);
    expect(await periodicCheck()).toBe(0);
    expect(await subjects(t)).toEqual([levelSubject(80)]);
  });

  it('sends none once registered, neither when invoices are issued nor from the periodic check', async () => {
    const t = await newTenant();
    const created = await configure(t);
    await markRegistered(t, created.publicId, {
      registrationDate: '2026-11-01',
      registrationNumber: 'GB123',
    });
    await sale(t, '2026-11-01', 8_500);
    await sale(t, '2026-11-02', 5_000);
    await update(t, created.publicId, { thresholdAmount: 12_000 });
    expect(await periodicCheck()).toBe(0);
    expect(await mails(t)).toEqual([]);
    expect((await current(t)).percentageReached).toBe(percent(13_500, 12_000));
  });

  it('re-arms in a new quarter: crossing again there sends a new email', async () => {
    const t = await newTenant();
    await configure(t, { periodType: 'quarterly', alertAtPercentage: 50 });
    await sale(t, '2026-11-10', 6_000);
    await sale(t, '2026-11-11', 1_000);
    expect(await subjects(t)).toEqual([levelSubject(50)]);
    at('2027-01-05');
    await sale(t, '2027-01-04', 3_000); // 30% of the new quarter
    expect(await mails(t)).toHaveLength(1);
    await sale(t, '2027-01-05', 3_000); // 60%
    expect(await subjects(t)).toEqual([levelSubject(50), levelSubject(50)]);
    expect((await current(t)).currentRevenue).toBe(6_000);
  });

  it('re-arms in a new year: both alerts again for an annual configuration', async () => {
    const t = await newTenant();
    await configure(t, { periodType: 'annual' });
    await sale(t, '2026-06-01', 10_000);
    expect(await subjects(t)).toEqual([fullSubject()]);
    at('2027-02-01');
    await sale(t, '2027-01-15', 8_000);
    expect(await subjects(t)).toEqual([fullSubject(), levelSubject(80)]);
    await sale(t, '2027-01-20', 2_000);
    expect(await subjects(t)).toEqual([fullSubject(), levelSubject(80), fullSubject()]);
  });

  it('re-arms when thresholdAmount changes (checked at once); the same amount or a new alertEmail does not', async () => {
    const t = await newTenant();
    const created = await configure(t);
    await sale(t, '2026-11-01', 8_500);
    expect(await mails(t)).toHaveLength(1);
    await update(t, created.publicId, { alertEmail: 'other@example.com' });
    await update(t, created.publicId, { thresholdAmount: 10_000 });
    expect(await mails(t)).toHaveLength(1);
    // 8500 of 10500 is still past 80%: the re-armed alert goes out with the update.
    await update(t, created.publicId, { thresholdAmount: 10_500 });
    expect((await mails(t)).map((m) => [m.to_address, m.subject])).toEqual([
      ['accounts@example.com', levelSubject(80)],
      ['other@example.com', levelSubject(80)],
    ]);
    // Under the level now; the next crossing is announced.
    await update(t, created.publicId, { thresholdAmount: 20_000 });
    expect(await mails(t)).toHaveLength(2);
    await sale(t, '2026-11-02', 7_500); // 16000 of 20000: 80%
    expect(await subjects(t)).toEqual([levelSubject(80), levelSubject(80), levelSubject(80)]);
  });

  it('re-arms when alertAtPercentage changes', async () => {
    const t = await newTenant();
    const created = await configure(t);
    await sale(t, '2026-11-01', 8_500);
    await update(t, created.publicId, { alertAtPercentage: 50 }); // 85% is past 50%: sent at once
    await update(t, created.publicId, { alertAtPercentage: 90 }); // under 90%: nothing yet
    expect(await subjects(t)).toEqual([levelSubject(80), levelSubject(50)]);
    await sale(t, '2026-11-02', 500);
    expect(await subjects(t)).toEqual([levelSubject(80), levelSubject(50), levelSubject(90)]);
  });

  it('re-arms when a void takes revenue back under the level, not while it stays above', async () => {
    const t = await newTenant();
    await configure(t);
    const first = await sale(t, '2026-11-01', 8_500);
    const extra = await sale(t, '2026-11-02', 1_000); // 95%
    await voidInvoice(t.client, extra.id); // 85%: still past the level
    const last = await sale(t, '2026-11-03', 500); // 90%
    expect(await mails(t)).toHaveLength(1);
    await voidInvoice(t.client, first.id); // 5%
    await voidInvoice(t.client, last.id); // 0%
    expect(await mails(t)).toHaveLength(1);
    await sale(t, '2026-11-04', 8_100);
    expect(await subjects(t)).toEqual([levelSubject(80), levelSubject(80)]);
  });

  it('never mixes businesses: each business’s invoices alert only its own configuration', async () => {
    const [t, other] = [await newTenant(), await newTenant()];
    await configure(t, { alertEmail: 'mine@example.com' });
    await configure(other, { alertEmail: 'theirs@example.com' });
    await sale(other, '2026-11-01', 50_000);
    expect(await mails(t)).toEqual([]);
    expect((await mails(other)).map((m) => [m.to_address, m.subject])).toEqual([
      ['theirs@example.com', fullSubject()],
    ]);
    await sale(t, '2026-11-01', 8_000);
    expect((await mails(t)).map((m) => [m.to_address, m.subject])).toEqual([
      ['mine@example.com', levelSubject(80)],
    ]);
    expect(await mails(other)).toHaveLength(1);
  });
});

describe('the periodic VAT check', () => {
  it('is registered as a periodic task that runs at least daily', () => {
    const everyMs = periodicTask().everyMs(server().deps.config);
    expect(everyMs).toBeGreaterThan(0);
    expect(everyMs).toBeLessThanOrEqual(DAY_MS);
  });

  it('sends an alert no invoice issue caught (a threshold lowered in the database), once', async () => {
    const t = await newTenant();
    await configure(t, { thresholdAmount: 100_000 });
    await sale(t, '2026-11-01', 9_000);
    expect(await mails(t)).toEqual([]);
    await setStoredThreshold(t, 10_000);
    expect((await current(t)).percentageReached).toBe(percent(9_000, 10_000));
    expect(await periodicCheck()).toBe(1);
    expect(await subjects(t)).toEqual([levelSubject(80)]);
    expect(await periodicCheck()).toBe(0);
    expect(await mails(t)).toHaveLength(1);
  });

  it('sends an alert when the clock brings an invoice dated ahead into the window, once', async () => {
    const t = await newTenant();
    await configure(t);
    await sale(t, '2026-11-30', 8_500); // issued today, dated next week
    expect((await current(t)).currentRevenue).toBe(0);
    expect(await periodicCheck()).toBe(0);
    at('2026-11-29');
    expect(await periodicCheck()).toBe(0);
    at('2026-11-30');
    expect((await current(t)).currentRevenue).toBe(8_500);
    expect(await periodicCheck()).toBe(1);
    const sent = await mails(t);
    expect(sent.map((m) => m.subject)).toEqual([levelSubject(80)]);
    expect(sent[0]?.body).toContain('2026-11-30');
    expect(sent[0]?.created_at).toEqual(new Date('2026-11-30T09:00:00.000Z'));
    expect(await periodicCheck()).toBe(0);
  });

  it('re-arms a rolling window its old sales have left; the next crossing alerts again', async () => {
    const t = await newTenant();
    await configure(t);
    await sale(t, '2026-11-01', 9_000);
    expect(await mails(t)).toHaveLength(1);
    // On 2027-11-01 the 12 months start on 2026-11-02: the sale has left the window.
    at('2027-11-01');
    expect((await current(t)).currentRevenue).toBe(0);
    expect(await periodicCheck()).toBe(0);
    await sale(t, '2027-11-01', 8_000);
    expect(await subjects(t)).toEqual([levelSubject(80), levelSubject(80)]);
  });

  it('checks every business with a configuration, each alert to its own outbox', async () => {
    const [a, b, c] = [await newTenant(), await newTenant(), await newTenant()];
    await configure(a, { thresholdAmount: 1_000_000, alertEmail: 'a@example.com' });
    await configure(b, { thresholdAmount: 1_000_000, alertEmail: 'b@example.com', country: 'FR' });
    await configure(c, { thresholdAmount: 1_000_000, alertEmail: 'c@example.com' });
    await sale(a, '2026-11-01', 9_000);
    await sale(b, '2026-11-01', 12_000);
    await sale(c, '2026-11-01', 1_000);
    await Promise.all([a, b, c].map((t) => setStoredThreshold(t, 10_000)));
    expect(await periodicCheck()).toBe(2);
    expect((await mails(a)).map((m) => [m.to_address, m.subject])).toEqual([
      ['a@example.com', levelSubject(80)],
    ]);
    expect((await mails(b)).map((m) => [m.to_address, m.subject])).toEqual([
      ['b@example.com', fullSubject('FR')],
    ]);
    expect(await mails(c)).toEqual([]);
    expect(await periodicCheck()).toBe(0);
  });
});
