import { describe, expect, it } from 'vitest';
import { unwrap, type ErrorObject } from '../../client/index.js';
import type { CreateInvoiceBody, Invoice } from '../../contract/general/index.js';
import { registerTenant, type TestTenant } from '../support/business.js';
import { onPostgres } from '../support/database.js';
import { useTestServer } from '../support/setup.js';
import {
  createInvoice as newInvoice,
  invoiceBody,
  invoiceLine,
  issuedInvoice as newIssuedInvoice,
} from '../support/general.js';
import { atLeast } from '../support/expect.js';

// A pool larger than the concurrency below, so every request holds its own connection at once and the
// row locks, not the pool, are what serialise them.
const server = useTestServer({ env: { DB_POOL_SIZE: '30' } });

const where = onPostgres ? 'on PostgreSQL, under real concurrency' : 'on PGlite (serialised by the engine)';

type Tenant = TestTenant;

const newTenant = () => registerTenant(server());

const api = (t: Tenant) => t.client.general.invoices;

const bodyFor = (t: Tenant, overrides: Partial<CreateInvoiceBody> = {}): CreateInvoiceBody =>
  invoiceBody({
    customer_id: t.customerId,
    items: [invoiceLine({ description: 'Consulting' })],
    due_date: '2099-12-31',
    ...overrides,
  });

const createInvoice = (t: Tenant, overrides: Partial<CreateInvoiceBody> = {}): Promise<Invoice> =>
  newInvoice(t.client, bodyFor(t, overrides));

const invoiceNumbers = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => `INV-${String(from + i).padStart(6, '0')}`);

const sorted = (values: string[]) => [...values].sort();

async function allNumbers(t: Tenant): Promise<string[]> {
  const res = await unwrap(api(t).listInvoices({ query: { sort: 'number:asc', limit: 100 } }));
  return res.data.map((i) => i.number);
}

const UNKNOWN_PRODUCT = 'prod_01JD7X2R5VQ8N3K4M6P9T1W2Y3';

describe(`invoice numbers (${where})`, () => {
  it('gives 20 concurrent creates the distinct numbers INV-000001..INV-000020 without gaps', async () => {
    const t = await newTenant();
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => api(t).createInvoice({ body: bodyFor(t) })),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(201));
    const invoices = await Promise.all(responses.map(async (r) => (await unwrap(r)).data));
    expect(sorted(invoices.map((i) => i.number))).toEqual(invoiceNumbers(1, 20));
    expect(new Set(invoices.map((i) => i.id)).size).toBe(20);
    expect(await allNumbers(t)).toEqual(invoiceNumbers(1, 20));
    expect((await createInvoice(t)).number).toBe('INV-000021');
  });

  it('does not consume a number for a refused create', async () => {
    const t = await newTenant();
    expect((await createInvoice(t)).number).toBe('INV-000001');
    const refused = await api(t).createInvoice({
      body: bodyFor(t, { items: [{ product_id: UNKNOWN_PRODUCT, quantity: 1 }] }),
    });
    expect(refused.status).toBe(422);
    expect((refused.body as { error: ErrorObject }).error.details?.[0]?.field).toBe('items.0.product_id');
    const unknownCustomer = await api(t).createInvoice({
      body: bodyFor(t, { customer_id: 'cus_01JD7X2R5VQ8N3K4M6P9T1W2Y3' }),
    });
    expect(unknownCustomer.status).toBe(422);
    expect((await createInvoice(t)).number).toBe('INV-000002');
  });

  it('leaves no gap when refused creates run concurrently with accepted ones', async () => {
    const t = await newTenant();
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api(t).createInvoice({
          body:
            i % 2 === 0 ? bodyFor(t) : bodyFor(t, { items: [{ product_id: UNKNOWN_PRODUCT, quantity: 1 }] }),
        }),
      ),
    );
    expect(responses.filter((r) => r.status === 201)).toHaveLength(10);
    expect(responses.filter((r) => r.status === 422)).toHaveLength(10);
    expect(await allNumbers(t)).toEqual(invoiceNumbers(1, 10));
    expect((await createInvoice(t)).number).toBe('INV-000011');
  });

  it('numbers each business on its own, also when they create at the same time', async () => {
    const [a, b] = await Promise.all([newTenant(), newTenant()]);
    await createInvoice(a);
    await createInvoice(a);
    expect((await createInvoice(b)).number).toBe('INV-000001');
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? createInvoice(a) : createInvoice(b))),
    );
    expect(await allNumbers(a)).toEqual(invoiceNumbers(1, 7));
    expect(await allNumbers(b)).toEqual(invoiceNumbers(1, 6));
  });

  it('keeps the number of a deleted draft: the next invoice does not reuse it', async () => {
    const t = await newTenant();
    const first = await createInvoice(t);
    const second = await createInvoice(t);
    expect(second.number).toBe('INV-000002');
    await unwrap(api(t).deleteInvoice({ params: { id: second.id } }));
    expect((await createInvoice(t)).number).toBe('INV-000003');
    expect(await allNumbers(t)).toEqual([first.number, 'INV-000003']);
  });
});

describe(`concurrent payments (${where})`, () => {
  const issued = (t: Tenant, amount: number): Promise<Invoice> =>
    newIssuedInvoice(
      t.client,
      bodyFor(t, { items: [invoiceLine({ description: 'Consulting', unit_price: amount })] }),
    );

  const payConcurrently = (t: Tenant, id: string, times: number) =>
    Promise.all(
      Array.from({ length: times }, () =>
        api(t).createPayment({ params: { id }, body: { amount: 1, payment_method: 'cash' } }),
      ),
    );

  async function storedPaymentsTotal(t: Tenant, invoiceId: string): Promise<number> {
    const rows = await server()
      .deps.db.selectFrom('payments')
      .select('amount_minor')
      .where('business_id', '=', t.businessId)
      .where('invoice_id', '=', invoiceId)
      .execute();
    return rows.reduce((sum, r) => sum + Number(r.amount_minor), 0);
  }

  async function eventTypes(t: Tenant, invoiceId: string): Promise<string[]> {
    const rows = await server()
      .deps.db.selectFrom('events')
      .select(['type', 'data'])
      .where('business_id', '=', t.businessId)
      .execute();
    return rows
      .filter((r) => {
        const data = r.data as { id?: string; invoice_id?: string };
        return data.id === invoiceId || data.invoice_id === invoiceId;
      })
      .map((r) => r.type);
  }

  it('20 concurrent payments of 1.00 pay a 20.00 invoice exactly, with one invoice.paid', async () => {
    const t = await newTenant();
    const invoice = await issued(t, 20);
    const responses = await payConcurrently(t, invoice.id, 20);
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(201));
    const after = (await unwrap(api(t).getInvoice({ params: { id: invoice.id } }))).data;
    expect(after).toMatchObject({ status: 'paid', amount_paid: 20, amount_due: 0 });
    expect(after.paid_at).not.toBeNull();
    expect(after.payments).toHaveLength(20);
    expect(await storedPaymentsTotal(t, invoice.id)).toBe(2000);
    // Each response saw the invoice as its own payment left it: amounts paid 1..20, each once.
    const paidSoFar = await Promise.all(responses.map(async (r) => (await unwrap(r)).data.amount_paid));
    expect([...paidSoFar].sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const types = await eventTypes(t, invoice.id);
    expect(types.filter((type) => type === 'payment.created')).toHaveLength(20);
    expect(types.filter((type) => type === 'invoice.paid')).toHaveLength(1);
  });

  it('21 concurrent payments of 1.00 on 20.00: exactly 20 succeed, the one after full payment is refused (409)', async () => {
    const t = await newTenant();
    const invoice = await issued(t, 20);
    const responses = await payConcurrently(t, invoice.id, 21);
    expect(responses.filter((r) => r.status === 201)).toHaveLength(20);
    const refused = responses.filter((r) => r.status !== 201);
    expect(refused).toHaveLength(1);
    const [rejected] = atLeast(refused, 1);
    // By then the invoice is paid: paying a paid invoice is a state conflict, not an overpayment.
    expect(rejected.status).toBe(409);
    expect(rejected.body.error.code).toBe('INVALID_STATE');
    const after = (await unwrap(api(t).getInvoice({ params: { id: invoice.id } }))).data;
    expect(after).toMatchObject({ status: 'paid', amount_paid: 20, amount_due: 0 });
    expect(after.payments).toHaveLength(20);
    expect(await storedPaymentsTotal(t, invoice.id)).toBe(2000);
  });

  it('21 concurrent payments of 1.00 on 20.50: exactly 20 succeed, one is refused as an overpayment (422)', async () => {
    const t = await newTenant();
    const invoice = await issued(t, 20.5);
    const responses = await payConcurrently(t, invoice.id, 21);
    expect(responses.filter((r) => r.status === 201)).toHaveLength(20);
    const refused = responses.filter((r) => r.status !== 201);
    expect(refused).toHaveLength(1);
    const [rejected] = atLeast(refused, 1);
    expect(rejected.status).toBe(422);
    const { error } = rejected.body;
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.details?.[0]?.field).toBe('amount');
    const after = (await unwrap(api(t).getInvoice({ params: { id: invoice.id } }))).data;
    expect(after).toMatchObject({ status: 'unpaid', amount_paid: 20, amount_due: 0.5, paid_at: null });
    expect(after.payments).toHaveLength(20);
    expect(await storedPaymentsTotal(t, invoice.id)).toBe(2000);
  });
});
