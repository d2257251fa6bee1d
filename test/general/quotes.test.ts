import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import type { CreateQuoteBody, Quote } from '../../contract/general/index.js';
import { json, raw, registerTenant, type TestTenant } from '../support/business.js';
import { onPostgres } from '../support/database.js';
import { outbox, withEvents } from '../support/events.js';
import { expectError } from '../support/expect.js';
import { createCustomer, createProduct, issueInvoice } from '../support/general.js';
import { useTestServer } from '../support/setup.js';

// A pool larger than the concurrency below, so the numbering's row lock, not the pool, serialises creates.
const server = useTestServer({ env: { DB_POOL_SIZE: '30', ACCESS_TOKEN_TTL: '3650d' } });

const where = onPostgres ? 'on PostgreSQL, under real concurrency' : 'on PGlite (serialised by the engine)';

const api = (t: TestTenant) => t.client.general.quotes;

const body = (t: TestTenant, overrides: Partial<CreateQuoteBody> = {}): CreateQuoteBody => ({
  customer_id: t.customerId,
  items: [{ description: 'Website redesign', quantity: 2, unit_price: 150, tax_rate: 20 }],
  valid_until: '2099-12-31',
  ...overrides,
});

const createQuote = async (t: TestTenant, overrides: Partial<CreateQuoteBody> = {}): Promise<Quote> =>
  (await unwrap(api(t).createQuote({ body: body(t, overrides) }))).data;

const send = async (t: TestTenant, id: string) =>
  (await unwrap(api(t).sendQuote({ params: { id }, body: {} }))).data;
const accept = async (t: TestTenant, id: string) =>
  (await unwrap(api(t).acceptQuote({ params: { id } }))).data;

/** A quote moved to `status` through the API. */
async function quoteIn(t: TestTenant, status: 'draft' | 'sent' | 'accepted' | 'declined' | 'converted') {
  const quote = await createQuote(t);
  if (status === 'draft') return quote;
  await send(t, quote.id);
  if (status === 'sent') return (await unwrap(api(t).getQuote({ params: { id: quote.id } }))).data;
  if (status === 'declined') return (await unwrap(api(t).declineQuote({ params: { id: quote.id } }))).data;
  await accept(t, quote.id);
  if (status === 'accepted') return (await unwrap(api(t).getQuote({ params: { id: quote.id } }))).data;
  await unwrap(api(t).convertQuote({ params: { id: quote.id } }));
  return (await unwrap(api(t).getQuote({ params: { id: quote.id } }))).data;
}

const token = (t: TestTenant) => ({ token: t.accessToken });

let a: TestTenant;
let b: TestTenant;

beforeAll(async () => {
  [a, b] = await Promise.all([registerTenant(server()), registerTenant(server())]);
});

afterEach(() => server().clock.reset());

describe('POST /v1/quotes', () => {
  it('creates a numbered draft with its lines priced like invoice lines (201)', async () => {
    const res = await api(a).createQuote({
      body: body(a, {
        notes: 'Valid for 30 days',
        items: [
          { description: 'Design', quantity: 3, unit_price: 150, tax_rate: 20 },
          { description: 'Hosting', quantity: 1, unit_price: 9.99 },
        ],
      }),
    });
    expect(res.status).toBe(201);
    const quote = (res.body as { data: Quote }).data;
    expect(quote).toMatchObject({
      number: expect.stringMatching(/^QUO-\d{6}$/),
      status: 'draft',
      currency: 'USD',
      customer: { id: a.customerId, name: 'Ada Lovelace' },
      notes: 'Valid for 30 days',
      subtotal: 459.99,
      tax: 90,
      total: 549.99,
      invoice_id: null,
      sent_at: null,
    });
    expect(quote.id).toMatch(/^quo_/);
    expect(quote.items.map((i) => [i.description, i.total, i.tax])).toEqual([
      ['Design', 450, 90],
      ['Hosting', 9.99, 0],
    ]);
    expect((await unwrap(api(a).getQuote({ params: { id: quote.id } }))).data).toEqual(quote);
  });

  it('fills a line from its product', async () => {
    const product = await createProduct(a.client, { price: 24.5 });
    const quote = await createQuote(a, { items: [{ product_id: product.id, quantity: 2 }] });
    expect(quote.items[0]).toMatchObject({ product_id: product.id, description: product.name, total: 49 });
  });

  it.each([
    ['an unknown customer', { customer_id: 'cus_01JD7X2R5VQ8N3K4M6P9T1W2Y3' }, 'customer_id'],
    ['no items', { items: [] }, 'items'],
    ['an impossible valid_until', { valid_until: '2026-02-30' }, 'valid_until'],
    ['an unknown currency', { currency: 'XYZ' }, 'currency'],
    [
      'too many decimals for JPY',
      { currency: 'JPY', items: [{ description: 'x', quantity: 1, unit_price: 1.5 }] },
      'items.0.unit_price',
    ],
  ])('refuses %s (422)', async (_label, overrides, field) => {
    const res = await raw(server(), 'POST', '/v1/quotes', { ...json(body(a, overrides)), ...token(a) });
    expectError(res, 422, 'VALIDATION_ERROR', field);
  });

  it("refuses another business's customer as an unknown one (422)", async () => {
    const res = await raw(server(), 'POST', '/v1/quotes', {
      ...json(body(a, { customer_id: b.customerId })),
      ...token(a),
    });
    expectError(res, 422, 'VALIDATION_ERROR', 'customer_id');
  });

  it('refuses unknown fields (422)', async () => {
    const res = await raw(server(), 'POST', '/v1/quotes', {
      ...json({ ...body(a), status: 'sent' }),
      ...token(a),
    });
    expectError(res, 422, 'VALIDATION_ERROR', 'status');
  });
});

describe(`numbering (${where})`, () => {
  it('numbers QUO-000001 onwards per business without gaps, apart from the invoice numbers', async () => {
    const t = await registerTenant(server());
    const first = await createQuote(t);
    const customer = await createCustomer(t.client, { name: 'Grace Hopper' });
    await unwrap(
      t.client.general.invoices.createInvoice({
        body: {
          customer_id: customer.id,
          items: [{ description: 'x', quantity: 1, unit_price: 1 }],
          due_date: '2099-01-01',
        },
      }),
    );
    const second = await createQuote(t);
    expect([first.number, second.number]).toEqual(['QUO-000001', 'QUO-000002']);
  });

  it('gives 20 concurrent creates the numbers 1 to 20, each once', async () => {
    const t = await registerTenant(server());
    const results = await Promise.all(
      Array.from({ length: 20 }, () => api(t).createQuote({ body: body(t) })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(201));
    const numbers = results.map((r) => (r.body as { data: Quote }).data.number).sort();
    expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => `QUO-${String(i + 1).padStart(6, '0')}`));
  });

  it('does not reuse the number of a deleted draft', async () => {
    const t = await registerTenant(server());
    const first = await createQuote(t);
    await unwrap(api(t).deleteQuote({ params: { id: first.id } }));
    expect((await createQuote(t)).number).toBe('QUO-000002');
  });
});

describe('moves between states', () => {
  it('sends a draft, then accepts it', async () => {
    const quote = await createQuote(a);
    const sent = await send(a, quote.id);
    expect(sent).toMatchObject({ status: 'sent', sent_at: expect.any(String) });
    expect(await accept(a, quote.id)).toMatchObject({ status: 'accepted', accepted_at: expect.any(String) });
  });

  it('declines a sent quote', async () => {
    const quote = await quoteIn(a, 'sent');
    const declined = (await unwrap(api(a).declineQuote({ params: { id: quote.id } }))).data;
    expect(declined).toMatchObject({ status: 'declined', declined_at: expect.any(String) });
  });

  const moves = {
    send: (t: TestTenant, id: string) => api(t).sendQuote({ params: { id }, body: {} }),
    accept: (t: TestTenant, id: string) => api(t).acceptQuote({ params: { id } }),
    decline: (t: TestTenant, id: string) => api(t).declineQuote({ params: { id } }),
    convert: (t: TestTenant, id: string) => api(t).convertQuote({ params: { id } }),
    update: (t: TestTenant, id: string) => api(t).updateQuote({ params: { id }, body: { notes: 'x' } }),
    delete: (t: TestTenant, id: string) => api(t).deleteQuote({ params: { id } }),
  } as const;

  it.each([
    ['draft', ['accept', 'decline', 'convert']],
    ['sent', ['send', 'convert', 'update', 'delete']],
    ['accepted', ['send', 'accept', 'decline', 'update', 'delete']],
    ['declined', ['send', 'accept', 'decline', 'convert', 'update', 'delete']],
    ['converted', ['send', 'accept', 'decline', 'convert', 'update', 'delete']],
  ] as const)('refuses from %s: %s (409 INVALID_STATE, nothing changes)', async (status, refused) => {
    for (const move of refused) {
      const quote = await quoteIn(a, status);
      const res = await moves[move](a, quote.id);
      expectError(res, 409, 'INVALID_STATE');
      expect((await unwrap(api(a).getQuote({ params: { id: quote.id } }))).data).toEqual(quote);
    }
  });

  it('reads a sent quote past valid_until as expired: it cannot be accepted, it can be declined', async () => {
    const quote = await createQuote(a, { valid_until: '2026-12-31' });
    server().clock.set('2026-12-20T12:00:00.000Z');
    await send(a, quote.id);
    server().clock.set('2027-01-01T00:00:00.000Z');
    expect((await unwrap(api(a).getQuote({ params: { id: quote.id } }))).data.status).toBe('expired');
    const expired = await unwrap(api(a).listQuotes({ query: { status: 'expired', limit: 100 } }));
    expect(expired.data.map((q) => q.id)).toContain(quote.id);
    const sent = await unwrap(api(a).listQuotes({ query: { status: 'sent', limit: 100 } }));
    expect(sent.data.map((q) => q.id)).not.toContain(quote.id);
    expectError(await api(a).acceptQuote({ params: { id: quote.id } }), 409, 'INVALID_STATE');
    const declined = (await unwrap(api(a).declineQuote({ params: { id: quote.id } }))).data;
    expect(declined.status).toBe('declined');
  });

  it('accepts a sent quote on its valid_until day', async () => {
    const quote = await createQuote(a, { valid_until: '2026-12-31' });
    server().clock.set('2026-12-31T23:59:00.000Z');
    await send(a, quote.id);
    expect((await accept(a, quote.id)).status).toBe('accepted');
  });
});

describe('update and delete of drafts', () => {
  it('updates a draft partially and re-prices it', async () => {
    const quote = await createQuote(a);
    const updated = (
      await unwrap(
        api(a).updateQuote({
          params: { id: quote.id },
          body: {
            items: [{ description: 'Audit', quantity: 1, unit_price: 1000, tax_rate: 10 }],
            valid_until: '2098-01-01',
          },
        }),
      )
    ).data;
    expect(updated).toMatchObject({
      subtotal: 1000,
      tax: 100,
      total: 1100,
      valid_until: '2098-01-01',
      number: quote.number,
    });
  });

  it('re-prices the lines in a new currency (422 when a price does not fit it)', async () => {
    const quote = await createQuote(a, { items: [{ description: 'x', quantity: 1, unit_price: 100 }] });
    const jpy = (await unwrap(api(a).updateQuote({ params: { id: quote.id }, body: { currency: 'JPY' } })))
      .data;
    expect(jpy).toMatchObject({ currency: 'JPY', total: 100 });
    const cents = await createQuote(a, { items: [{ description: 'x', quantity: 1, unit_price: 1.5 }] });
    const res = await raw(server(), 'PUT', `/v1/quotes/${cents.id}`, {
      ...json({ currency: 'JPY' }),
      ...token(a),
    });
    expectError(res, 422, 'VALIDATION_ERROR', 'items.0.unit_price');
  });

  it('deletes a draft: it reads 404 afterwards and leaves the lists', async () => {
    const quote = await createQuote(a);
    expect((await unwrap(api(a).deleteQuote({ params: { id: quote.id } }))).data.id).toBe(quote.id);
    expectError(await api(a).getQuote({ params: { id: quote.id } }), 404, 'NOT_FOUND');
    const list = await unwrap(api(a).listQuotes({ query: { limit: 100 } }));
    expect(list.data.map((q) => q.id)).not.toContain(quote.id);
  });
});

describe('convert', () => {
  it.each([
    [
      'USD',
      [
        { description: 'a', quantity: 1.5, unit_price: 10.01, tax_rate: 7.5 },
        { description: 'b', quantity: 3, unit_price: 0.33, tax_rate: 20, discount_percent: 15 },
      ],
    ],
    [
      'JPY',
      [
        { description: 'a', quantity: 2.5, unit_price: 1333, tax_rate: 8 },
        { description: 'b', quantity: 1, unit_price: 7, tax_rate: 10 },
      ],
    ],
    [
      'KWD',
      [
        { description: 'a', quantity: 1.5, unit_price: 1.005, tax_rate: 5, discount_percent: 12.5 },
        { description: 'b', quantity: 0.3333, unit_price: 2.999, tax_rate: 15 },
      ],
    ],
  ] as const)(
    'turns an accepted %s quote into a draft invoice with the same lines, discounts and totals to the minor unit',
    async (currency, items) => {
      const quote = await createQuote(a, {
        currency,
        items: items.map((i) => ({ ...i })),
        notes: `Quote in ${currency}`,
      });
      await send(a, quote.id);
      await accept(a, quote.id);
      const { result: res, events } = await withEvents(server(), a.businessId, () =>
        api(a).convertQuote({ params: { id: quote.id } }),
      );
      expect(res.status).toBe(201);
      const invoice = (res.body as { data: { id: string } & Record<string, unknown> }).data;
      expect(invoice).toMatchObject({
        status: 'draft',
        currency,
        customer_id: quote.customer_id,
        notes: quote.notes,
        subtotal: quote.subtotal,
        tax: quote.tax,
        total: quote.total,
        number: expect.stringMatching(/^INV-\d{6}$/),
      });
      const strip = ({ id: _id, ...rest }: { id: string }) => rest;
      expect((invoice.items as { id: string }[]).map(strip)).toEqual(quote.items.map(strip));
      const converted = (await unwrap(api(a).getQuote({ params: { id: quote.id } }))).data;
      expect(converted).toMatchObject({
        status: 'converted',
        invoice_id: invoice.id,
        converted_at: expect.any(String),
      });
      expect(events.map((e) => e.type).sort()).toEqual(['invoice.created', 'quote.updated']);
      // The invoice then issues as any other.
      const issued = await issueInvoice(a.client, invoice.id);
      expect(issued).toMatchObject({ status: 'unpaid', total: quote.total });
    },
  );

  it('refuses a second conversion (409) and leaves one invoice', async () => {
    const quote = await quoteIn(a, 'accepted');
    const first = await api(a).convertQuote({ params: { id: quote.id } });
    expect(first.status).toBe(201);
    expectError(await api(a).convertQuote({ params: { id: quote.id } }), 409, 'INVALID_STATE');
    const invoices = await unwrap(a.client.general.invoices.listInvoices({ query: { limit: 100 } }));
    const id = (first.body as { data: { id: string } }).data.id;
    expect(invoices.data.filter((i) => i.id === id)).toHaveLength(1);
  });
});

describe('GET /v1/quotes', () => {
  let t: TestTenant;
  let quotes: Quote[];
  beforeAll(async () => {
    t = await registerTenant(server());
    quotes = [];
    for (const [i, valid] of ['2099-03-01', '2099-01-01', '2099-02-01'].entries()) {
      quotes.push(
        await createQuote(t, {
          valid_until: valid,
          items: [{ description: 'x', quantity: i + 1, unit_price: 100 }],
        }),
      );
    }
    await send(t, quotes[0]!.id);
  });

  it('lists newest first, with pagination', async () => {
    const page = await unwrap(api(t).listQuotes({ query: {} }));
    expect(page.data.map((q) => q.id)).toEqual(quotes.map((q) => q.id).reverse());
    expect(page.pagination).toEqual({ page: 1, limit: 20, total: 3, total_pages: 1 });
    const second = await unwrap(api(t).listQuotes({ query: { limit: 2, page: 2 } }));
    expect(second.data.map((q) => q.id)).toEqual([quotes[0]!.id]);
    const past = await unwrap(api(t).listQuotes({ query: { limit: 2, page: 5 } }));
    expect(past.data).toEqual([]);
    expect(past.pagination.total).toBe(3);
  });

  it.each([
    ['valid_until:asc', [1, 2, 0]],
    ['total:desc', [2, 1, 0]],
    ['number:asc', [0, 1, 2]],
  ] as const)('sorts by %s', async (sort, order) => {
    const page = await unwrap(api(t).listQuotes({ query: { sort } }));
    expect(page.data.map((q) => q.id)).toEqual(order.map((i) => quotes[i]!.id));
  });

  it('filters by status and customer', async () => {
    expect((await unwrap(api(t).listQuotes({ query: { status: 'sent' } }))).data.map((q) => q.id)).toEqual([
      quotes[0]!.id,
    ]);
    expect((await unwrap(api(t).listQuotes({ query: { status: 'draft' } }))).pagination.total).toBe(2);
    expect((await unwrap(api(t).listQuotes({ query: { customer_id: b.customerId } }))).data).toEqual([]);
  });

  it('refuses an unknown sort field (422)', async () => {
    expectError(
      await raw(server(), 'GET', '/v1/quotes?sort=notes:asc', token(t)),
      422,
      'VALIDATION_ERROR',
      'sort',
    );
  });

  it("answers 404 for another business's quote", async () => {
    expectError(await api(b).getQuote({ params: { id: quotes[0]!.id } }), 404, 'NOT_FOUND');
  });
});

describe('events', () => {
  it('writes quote.created, quote.updated and quote.deleted with the quote as the detail endpoint serialises it', async () => {
    const { result: created, events: onCreate } = await withEvents(server(), a.businessId, () =>
      createQuote(a),
    );
    expect(onCreate.map((e) => [e.type, e.data])).toEqual([['quote.created', created]]);
    const { result: sent, events: onSend } = await withEvents(server(), a.businessId, () =>
      send(a, created.id),
    );
    expect(onSend.map((e) => [e.type, e.data])).toEqual([['quote.updated', sent]]);
    const other = await createQuote(a);
    const { result: deleted, events: onDelete } = await withEvents(
      server(),
      a.businessId,
      async () => (await unwrap(api(a).deleteQuote({ params: { id: other.id } }))).data,
    );
    expect(onDelete.map((e) => [e.type, e.data])).toEqual([['quote.deleted', deleted]]);
  });

  it('writes nothing for a refused move', async () => {
    const quote = await createQuote(a);
    const before = (await outbox(server(), a.businessId)).length;
    expectError(await api(a).acceptQuote({ params: { id: quote.id } }), 409, 'INVALID_STATE');
    expect((await outbox(server(), a.businessId)).length).toBe(before);
  });
});
