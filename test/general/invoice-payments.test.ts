import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import type { CreateInvoiceBody, CreatePaymentBody } from '../../contract/general/index.js';
import { json, raw, registerTenant, type TestTenant } from '../support/business.js';
import { atLeast, expectError } from '../support/expect.js';
import { useTestServer } from '../support/setup.js';
import {
  getInvoice,
  invoiceLine,
  issuedInvoice as newIssuedInvoice,
  payInvoice,
} from '../support/general.js';

// Tokens outlive the clock moves below.
const server = useTestServer({ env: { ACCESS_TOKEN_TTL: '3650d' } });

const NOW = '2026-11-21T09:00:00.000Z';
const TODAY = '2026-11-21';

beforeEach(() => server().clock.set(NOW));
afterEach(() => server().clock.reset());

type Tenant = TestTenant;

const newTenant = () => registerTenant(server());

const api = (t: Tenant) => t.client.general.invoices;

/** An issued invoice whose total is `amount` (no tax), in `currency`. */
const issuedInvoice = (t: Tenant, amount: number, overrides: Partial<CreateInvoiceBody> = {}) =>
  newIssuedInvoice(t.client, {
    customer_id: t.customerId,
    items: [invoiceLine({ description: 'Consulting', unit_price: amount })],
    ...overrides,
  });

const payment = (amount: number, extra: Partial<CreatePaymentBody> = {}): CreatePaymentBody => ({
  amount,
  payment_method: 'bank_transfer',
  ...extra,
});

/** The outbox rows about one invoice (the invoice itself or one of its payments), oldest first. */
async function eventsAbout(businessId: string, invoiceId: string) {
  const rows = await server()
    .deps.db.selectFrom('events')
    .select(['type', 'data', 'occurred_at'])
    .where('business_id', '=', businessId)
    .orderBy('occurred_at')
    .orderBy('id')
    .execute();
  return rows.filter((row) => {
    const data = row.data as { id?: string; invoice_id?: string };
    return data.id === invoiceId || data.invoice_id === invoiceId;
  });
}

async function paymentRows(businessId: string, invoiceId: string) {
  return server()
    .deps.db.selectFrom('payments')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('invoice_id', '=', invoiceId)
    .execute();
}

async function eventCount(businessId: string): Promise<number> {
  const row = await server()
    .deps.db.selectFrom('events')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('business_id', '=', businessId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('recording payments', () => {
  it('records a partial then a full payment: 201, payments[], amount_paid, amount_due, then paid', async () => {
    const t = await newTenant();
    const invoice = await issuedInvoice(t, 100);

    server().clock.advance(60_000);
    const first = await api(t).createPayment({
      params: { id: invoice.id },
      body: payment(40, { reference: 'TX-1' }),
    });
    expect(first.status).toBe(201);
    const partial = (await unwrap(first)).data;
    expect(partial).toMatchObject({
      status: 'unpaid',
      total: 100,
      amount_paid: 40,
      amount_due: 60,
      paid_at: null,
      updated_at: '2026-11-21T09:01:00.000Z',
    });
    expect(partial.payments).toEqual([
      {
        id: expect.stringMatching(/^pay_/),
        invoice_id: invoice.id,
        amount: 40,
        currency: 'USD',
        payment_method: 'bank_transfer',
        payment_date: TODAY,
        reference: 'TX-1',
        bank_account_id: null,
        exchange_rate: null,
        created_at: '2026-11-21T09:01:00.000Z',
      },
    ]);

    server().clock.advance(60_000);
    const second = await api(t).createPayment({
      params: { id: invoice.id },
      body: payment(60, { payment_method: 'cash' }),
    });
    expect(second.status).toBe(201);
    const paid = (await unwrap(second)).data;
    expect(paid).toMatchObject({
      status: 'paid',
      amount_paid: 100,
      amount_due: 0,
      paid_at: '2026-11-21T09:02:00.000Z',
    });
    expect(paid.payments).toHaveLength(2);
    expect(paid.payments[0]).toEqual(partial.payments[0]);
    expect(paid.payments[1]).toMatchObject({ amount: 60, payment_method: 'cash', reference: null });
    expect(await getInvoice(t.client, invoice.id)).toEqual(paid);
    expect((await unwrap(api(t).listInvoices({ query: { status: 'paid' } }))).data).toEqual([paid]);
  });

  it('adds up in minor units: 0.10 then 0.20 pays a 0.30 invoice exactly', async () => {
    const t = await newTenant();
    const invoice = await issuedInvoice(t, 0.3);
    expect((await payInvoice(t.client, invoice.id, 0.1)).amount_due).toBe(0.2);
    const paid = await payInvoice(t.client, invoice.id, 0.2);
    expect(paid).toMatchObject({ status: 'paid', amount_paid: 0.3, amount_due: 0 });
  });

  it('pays JPY and KWD invoices in their own decimals', async () => {
    const t = await newTenant();
    const yen = await issuedInvoice(t, 1500, { currency: 'JPY' });
    expect(await payInvoice(t.client, yen.id, 1500)).toMatchObject({ status: 'paid', amount_paid: 1500 });
    const dinar = await issuedInvoice(t, 1.234, { currency: 'KWD' });
    const partial = await payInvoice(t.client, dinar.id, 0.005);
    expect(partial).toMatchObject({ amount_paid: 0.005, amount_due: 1.229 });
    expect(partial.payments[0]).toMatchObject({ amount: 0.005, currency: 'KWD' });
    expect(await payInvoice(t.client, dinar.id, 1.229)).toMatchObject({ status: 'paid', amount_due: 0 });
  });

  it('accepts a payment on an overdue invoice, which then reports paid', async () => {
    const t = await newTenant();
    const invoice = await issuedInvoice(t, 50, { issue_date: '2026-11-01', due_date: '2026-11-10' });
    expect(invoice.status).toBe('overdue');
    expect(await payInvoice(t.client, invoice.id, 50)).toMatchObject({ status: 'paid', amount_due: 0 });
  });

  it('defaults payment_date to today by the clock (UTC) and keeps a given one', async () => {
    const t = await newTenant();
    const invoice = await issuedInvoice(t, 100);
    server().clock.set('2026-12-05T23:59:00.000Z');
    const defaulted = await payInvoice(t.client, invoice.id, 10);
    expect(defaulted.payments[0]).toMatchObject({
      payment_date: '2026-12-05',
      created_at: '2026-12-05T23:59:00.000Z',
    });
    const given = await payInvoice(t.client, invoice.id, 10, { payment_date: '2026-11-30' });
    expect(given.payments[1]?.payment_date).toBe('2026-11-30');
  });
});

describe('refused payments', () => {
  it('refuses to overpay (422 on amount) and records nothing', async () => {
    const t = await newTenant();
    const invoice = await issuedInvoice(t, 100);
    const partial = await payInvoice(t.client, invoice.id, 40);
    const events = await eventCount(t.businessId);

    const res = await api(t).createPayment({ params: { id: invoice.id }, body: payment(60.01) });
    expectError(res, 422, 'VALIDATION_ERROR', 'amount');
    expectError(
      await api(t).createPayment({ params: { id: invoice.id }, body: payment(1000) }),
      422,
      'VALIDATION_ERROR',
      'amount',
    );

    expect(await getInvoice(t.client, invoice.id)).toEqual(partial);
    expect(await paymentRows(t.businessId, invoice.id)).toHaveLength(1);
    expect(await eventCount(t.businessId)).toBe(events);
  });

  it('refuses to pay a draft (409 INVALID_STATE)', async () => {
    const t = await newTenant();
    const { data: draft } = await unwrap(
      api(t).createInvoice({
        body: {
          customer_id: t.customerId,
          items: [{ description: 'x', quantity: 1, unit_price: 10 }],
          due_date: '2026-12-21',
        },
      }),
    );
    const res = await api(t).createPayment({ params: { id: draft.id }, body: payment(10) });
    expectError(res, 409, 'INVALID_STATE');
    expect(await getInvoice(t.client, draft.id)).toEqual(draft);
    expect(await paymentRows(t.businessId, draft.id)).toEqual([]);
  });

  it('refuses to pay a paid or a void invoice (409 INVALID_STATE)', async () => {
    const t = await newTenant();
    const invoice = await issuedInvoice(t, 10);
    const paid = await payInvoice(t.client, invoice.id, 10);
    expectError(
      await api(t).createPayment({ params: { id: invoice.id }, body: payment(1) }),
      409,
      'INVALID_STATE',
    );
    expect(await getInvoice(t.client, invoice.id)).toEqual(paid);

    const other = await issuedInvoice(t, 10);
    const voided = (await unwrap(api(t).voidInvoice({ params: { id: other.id } }))).data;
    expectError(
      await api(t).createPayment({ params: { id: other.id }, body: payment(1) }),
      409,
      'INVALID_STATE',
    );
    expect(await getInvoice(t.client, other.id)).toEqual(voided);
  });

  it('refuses an amount of 0 or below (422 on amount)', async () => {
    const t = await newTenant();
    const invoice = await issuedInvoice(t, 10);
    for (const amount of [0, -5, -0.01]) {
      expectError(
        await api(t).createPayment({ params: { id: invoice.id }, body: payment(amount) }),
        422,
        'VALIDATION_ERROR',
        'amount',
      );
    }
    expect(await paymentRows(t.businessId, invoice.id)).toEqual([]);
  });

  it("refuses more decimals than the invoice's currency has (422 on amount)", async () => {
    const t = await newTenant();
    const usd = await issuedInvoice(t, 10);
    expectError(
      await api(t).createPayment({ params: { id: usd.id }, body: payment(1.005) }),
      422,
      'VALIDATION_ERROR',
      'amount',
    );
    const yen = await issuedInvoice(t, 1500, { currency: 'JPY' });
    expectError(
      await api(t).createPayment({ params: { id: yen.id }, body: payment(10.5) }),
      422,
      'VALIDATION_ERROR',
      'amount',
    );
    const dinar = await issuedInvoice(t, 10, { currency: 'KWD' });
    expectError(
      await api(t).createPayment({ params: { id: dinar.id }, body: payment(1.2345) }),
      422,
      'VALIDATION_ERROR',
      'amount',
    );
    expect(await paymentRows(t.businessId, usd.id)).toEqual([]);
    expect((await getInvoice(t.client, yen.id)).amount_paid).toBe(0);
  });

  it('refuses an amount beyond the largest amount in minor units or a float artefact (422 on amount)', async () => {
    const t = await newTenant();
    const clf = await issuedInvoice(t, 99_999_999_999.9999, { currency: 'CLF' });
    const path = `/v1/invoices/${clf.id}/payments`;
    for (const amount of [100_000_000_000, 1_000_000_000_000, 0.1 + 0.2]) {
      expectError(
        await api(t).createPayment({ params: { id: clf.id }, body: payment(amount) }),
        422,
        'VALIDATION_ERROR',
        'amount',
      );
      const res = await raw(server(), 'POST', path, {
        token: t.accessToken,
        ...json({ amount, payment_method: 'cash' }),
      });
      expectError(res, 422, 'VALIDATION_ERROR', 'amount');
    }
    expect(await paymentRows(t.businessId, clf.id)).toEqual([]);
    // The whole amount, at the limit, pays it exactly.
    expect(await payInvoice(t.client, clf.id, 99_999_999_999.9999)).toMatchObject({
      status: 'paid',
      amount_paid: 99_999_999_999.9999,
      amount_due: 0,
    });
  });

  it('refuses a bad payment_date, an unknown payment_method and unknown fields (422)', async () => {
    const t = await newTenant();
    const invoice = await issuedInvoice(t, 10);
    expectError(
      await api(t).createPayment({
        params: { id: invoice.id },
        body: payment(1, { payment_date: '2026-02-30' }),
      }),
      422,
      'VALIDATION_ERROR',
      'payment_date',
    );
    const path = `/v1/invoices/${invoice.id}/payments`;
    const method = await raw(server(), 'POST', path, {
      token: t.accessToken,
      ...json({ amount: 1, payment_method: 'barter' }),
    });
    expectError(method, 422, 'VALIDATION_ERROR', 'payment_method');
    const unknown = await raw(server(), 'POST', path, {
      token: t.accessToken,
      ...json({ amount: 1, payment_method: 'cash', status: 'paid' }),
    });
    expectError(unknown, 422, 'VALIDATION_ERROR', 'status');
    expect(await paymentRows(t.businessId, invoice.id)).toEqual([]);
  });

  it('answers 404 for an unknown invoice', async () => {
    const t = await newTenant();
    expectError(
      await api(t).createPayment({ params: { id: 'inv_01JD7X2R5VQ8N3K4M6P9T1W2Y3' }, body: payment(1) }),
      404,
      'NOT_FOUND',
    );
  });
});

describe('events', () => {
  it('writes payment.created, invoice.updated after each payment and one invoice.paid, as the API serialises them', async () => {
    const t = await newTenant();
    const invoice = await issuedInvoice(t, 100);
    server().clock.advance(1000);
    const partial = await payInvoice(t.client, invoice.id, 30);
    server().clock.advance(1000);
    const paid = await payInvoice(t.client, invoice.id, 70);

    const events = await eventsAbout(t.businessId, invoice.id);
    expect(events.map((e) => e.type)).toEqual([
      'invoice.created',
      'invoice.updated', // issued
      'payment.created',
      'invoice.updated',
      'payment.created',
      'invoice.updated',
      'invoice.paid',
    ]);
    const inOrder = atLeast(events, 7);
    expect(inOrder[1].data).toEqual(invoice);
    expect(inOrder[2].data).toEqual(partial.payments[0]);
    expect(inOrder[3].data).toEqual(partial);
    expect(inOrder[4].data).toEqual(paid.payments[1]);
    expect(inOrder[5].data).toEqual(paid);
    expect(inOrder[6].data).toEqual(paid);
    expect(events.filter((e) => e.type === 'invoice.paid')).toHaveLength(1);
    expect(inOrder[2].occurred_at.toISOString()).toBe('2026-11-21T09:00:01.000Z');
    expect(inOrder[6].occurred_at.toISOString()).toBe('2026-11-21T09:00:02.000Z');
  });

  it('writes invoice.paid when a single payment pays the invoice in full', async () => {
    const t = await newTenant();
    const invoice = await issuedInvoice(t, 25);
    const paid = await payInvoice(t.client, invoice.id, 25);
    const events = await eventsAbout(t.businessId, invoice.id);
    expect(events.slice(2).map((e) => [e.type, e.data])).toEqual([
      ['payment.created', paid.payments[0]],
      ['invoice.updated', paid],
      ['invoice.paid', paid],
    ]);
  });

  it('writes no event and no payment row for a refused payment', async () => {
    const t = await newTenant();
    const draftRes = await unwrap(
      api(t).createInvoice({
        body: {
          customer_id: t.customerId,
          items: [{ description: 'x', quantity: 1, unit_price: 10 }],
          due_date: '2026-12-21',
        },
      }),
    );
    const invoice = await issuedInvoice(t, 10);
    const before = await eventCount(t.businessId);

    const refusals = [
      await api(t).createPayment({ params: { id: invoice.id }, body: payment(10.01) }), // overpay
      await api(t).createPayment({ params: { id: invoice.id }, body: payment(0.001) }), // decimals
      await api(t).createPayment({ params: { id: draftRes.data.id }, body: payment(1) }), // draft
    ];
    expect(refusals.map((r) => r.status)).toEqual([422, 422, 409]);
    await payInvoice(t.client, invoice.id, 10);
    const afterPaying = await eventCount(t.businessId);
    expect(afterPaying).toBe(before + 3);
    expect((await api(t).createPayment({ params: { id: invoice.id }, body: payment(1) })).status).toBe(409);

    expect(await eventCount(t.businessId)).toBe(afterPaying);
    expect(await paymentRows(t.businessId, invoice.id)).toHaveLength(1);
    expect(await paymentRows(t.businessId, draftRes.data.id)).toEqual([]);
    const types = (await eventsAbout(t.businessId, invoice.id)).map((e) => e.type);
    expect(types.filter((type) => type === 'payment.created')).toHaveLength(1);
    expect(types.filter((type) => type === 'invoice.paid')).toHaveLength(1);
  });
});
