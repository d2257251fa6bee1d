import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import type {
  CreateInvoiceBody,
  Invoice,
  InvoiceItemInput,
  ListInvoicesQuery,
} from '../../contract/general/index.js';
import { json, raw, registerTenant, type TestTenant } from '../support/business.js';
import { withEvents } from '../support/events.js';
import { expectError, itemAt } from '../support/expect.js';
import { useTestServer } from '../support/setup.js';
import {
  createCustomer,
  createProduct,
  getInvoice,
  invoiceBody,
  invoiceLine,
  issueInvoice,
  createInvoice as newInvoice,
  issuedInvoice as newIssuedInvoice,
  payInvoice,
  voidInvoice,
} from '../support/general.js';

// Tokens outlive the clock moves below (a week-long TTL would expire when the clock jumps ahead).
const server = useTestServer({ env: { ACCESS_TOKEN_TTL: '3650d' } });

const NOW = '2026-11-21T09:00:00.000Z';
const DUE = '2026-12-21';

beforeEach(() => server().clock.set(NOW));
afterEach(() => server().clock.reset());

type Tenant = TestTenant;

const newTenant = () => registerTenant(server());

/** A draft invoice's body for the tenant's customer (`invoiceBody`: one line, due DUE). */
const bodyFor = (t: Tenant, overrides: Partial<CreateInvoiceBody> = {}): CreateInvoiceBody =>
  invoiceBody({ customer_id: t.customerId, due_date: DUE, ...overrides });

const api = (t: Tenant) => t.client.general.invoices;

/** A draft (`createInvoice`) or issued (`issuedInvoice`) invoice of the tenant's customer. */
const createInvoice = (t: Tenant, overrides: Partial<CreateInvoiceBody> = {}): Promise<Invoice> =>
  newInvoice(t.client, bodyFor(t, overrides));
const issuedInvoice = (t: Tenant, overrides: Partial<CreateInvoiceBody> = {}): Promise<Invoice> =>
  newIssuedInvoice(t.client, bodyFor(t, overrides));

async function list(t: Tenant, query: Partial<ListInvoicesQuery> = {}) {
  return unwrap(api(t).listInvoices({ query }));
}

const numbersOf = (invoices: Invoice[]) => invoices.map((i) => i.number);

describe('create', () => {
  it('creates a draft (201) numbered INV-000001, then INV-000002', async () => {
    const t = await newTenant();
    const res = await api(t).createInvoice({ body: bodyFor(t, { notes: 'Thanks' }) });
    expect(res.status).toBe(201);
    const first = (await unwrap(res)).data;
    expect(first).toMatchObject({
      number: 'INV-000001',
      status: 'draft',
      customer_id: t.customerId,
      customer: { id: t.customerId, name: 'Ada Lovelace' },
      currency: 'USD',
      issue_date: null,
      due_date: DUE,
      notes: 'Thanks',
      amount_paid: 0,
      amount_due: 100,
      payments: [],
      created_at: NOW,
      updated_at: NOW,
      issued_at: null,
      paid_at: null,
      voided_at: null,
    });
    expect(first.id).toMatch(/^inv_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect((await createInvoice(t)).number).toBe('INV-000002');
    expect((await createInvoice(t)).number).toBe('INV-000003');
  });

  it('returns items with their own id, total and tax, and subtotal, tax and total', async () => {
    const t = await newTenant();
    const invoice = await createInvoice(t, {
      items: [
        invoiceLine({ description: 'Consulting (hours)', quantity: 3, unit_price: 150, tax_rate: 20 }),
        invoiceLine({ description: 'Travel', quantity: 2, unit_price: 12.5 }),
      ],
    });
    expect(invoice.items).toEqual([
      {
        id: expect.stringMatching(/^item_/),
        product_id: null,
        description: 'Consulting (hours)',
        quantity: 3,
        unit_price: 150,
        tax_rate: 20,
        discount_percent: 0,
        total: 450,
        tax: 90,
      },
      {
        id: expect.stringMatching(/^item_/),
        product_id: null,
        description: 'Travel',
        quantity: 2,
        unit_price: 12.5,
        tax_rate: 0,
        discount_percent: 0,
        total: 25,
        tax: 0,
      },
    ]);
    expect(itemAt(invoice.items, 0).id).not.toBe(itemAt(invoice.items, 1).id);
    expect(invoice).toMatchObject({ subtotal: 475, tax: 90, total: 565, amount_due: 565 });
    expect(await getInvoice(t.client, invoice.id)).toEqual(invoice);
  });

  it('rounds line totals half-up on the exact decimal (0.335 x 3.00 = 1.005 -> 1.01; 1.005 x 1.00 -> 1.01)', async () => {
    const t = await newTenant();
    const invoice = await createInvoice(t, {
      items: [
        invoiceLine({ quantity: 0.335, unit_price: 3 }),
        invoiceLine({ quantity: 1.005, unit_price: 1 }),
        invoiceLine({ quantity: 2.5, unit_price: 0.01 }),
        invoiceLine({ quantity: 0.3333, unit_price: 3 }),
      ],
    });
    expect(invoice.items.map((i) => i.total)).toEqual([1.01, 1.01, 0.03, 1]);
    expect(invoice.items.map((i) => i.quantity)).toEqual([0.335, 1.005, 2.5, 0.3333]);
    expect(invoice.subtotal).toBe(3.05);
    expect(invoice.total).toBe(3.05);
  });

  it('computes the line tax from its tax_rate, rounded half-up', async () => {
    const t = await newTenant();
    const invoice = await createInvoice(t, {
      items: [
        invoiceLine({ quantity: 1, unit_price: 1.5, tax_rate: 5 }), // 0.075 -> 0.08
        invoiceLine({ quantity: 1, unit_price: 10, tax_rate: 7.5 }), // 0.75
        invoiceLine({ quantity: 1, unit_price: 10.01, tax_rate: 7.25 }), // 0.725725 -> 0.73
      ],
    });
    expect(invoice.items.map((i) => i.tax)).toEqual([0.08, 0.75, 0.73]);
    expect(invoice.items.map((i) => i.tax_rate)).toEqual([5, 7.5, 7.25]);
    // exact 0.075 + 0.75 + 0.725725 = 1.550725 -> 1.55
    expect(invoice).toMatchObject({ subtotal: 21.51, tax: 1.55, total: 23.06 });
  });

  it('takes a line discount off before tax; subtotal is after discounts, each line rounded once', async () => {
    const t = await newTenant();
    const invoice = await createInvoice(t, {
      items: [
        invoiceLine({ quantity: 3, unit_price: 150, tax_rate: 20, discount_percent: 10 }), // 405, tax 81
        invoiceLine({ quantity: 1, unit_price: 1, discount_percent: 33.33 }), // 0.6667 -> 0.67
        invoiceLine({ quantity: 1.005, unit_price: 1, discount_percent: 50 }), // 0.5025 -> 0.50, not 1.01 / 2
        invoiceLine({ quantity: 1, unit_price: 20, tax_rate: 20, discount_percent: 100 }), // 0, tax 0
        invoiceLine({ quantity: 1, unit_price: 10 }),
      ],
    });
    expect(invoice.items.map((i) => [i.discount_percent, i.total, i.tax])).toEqual([
      [10, 405, 81],
      [33.33, 0.67, 0],
      [50, 0.5, 0],
      [100, 0, 0],
      [0, 10, 0],
    ]);
    expect(invoice).toMatchObject({ subtotal: 416.17, tax: 81, total: 497.17, amount_due: 497.17 });
    expect(await getInvoice(t.client, invoice.id)).toEqual(invoice);
  });

  it('keeps line discounts when a draft is re-priced in another currency', async () => {
    const t = await newTenant();
    const draft = await createInvoice(t, {
      items: [invoiceLine({ quantity: 2, unit_price: 100, discount_percent: 25 })],
    });
    const updated = (
      await unwrap(api(t).updateInvoice({ params: { id: draft.id }, body: { currency: 'EUR' } }))
    ).data;
    expect(updated.items.map((i) => [i.discount_percent, i.total])).toEqual([[25, 150]]);
    expect(updated).toMatchObject({ currency: 'EUR', subtotal: 150, total: 150 });
  });

  it('rounds the invoice tax once over the exact item taxes (two 0.005 taxes make 0.01, not 0.02)', async () => {
    const t = await newTenant();
    const invoice = await createInvoice(t, {
      items: [invoiceLine({ unit_price: 0.1, tax_rate: 5 }), invoiceLine({ unit_price: 0.1, tax_rate: 5 })],
    });
    expect(invoice.items.map((i) => i.tax)).toEqual([0.01, 0.01]);
    expect(invoice).toMatchObject({ subtotal: 0.2, tax: 0.01, total: 0.21, amount_due: 0.21 });
  });

  it('defaults the currency to USD', async () => {
    const t = await newTenant();
    expect((await createInvoice(t)).currency).toBe('USD');
  });

  it('creates a JPY invoice in whole yen, rounding half-up to the yen', async () => {
    const t = await newTenant();
    const invoice = await createInvoice(t, {
      currency: 'JPY',
      items: [
        invoiceLine({ quantity: 3, unit_price: 1500, tax_rate: 10 }),
        invoiceLine({ quantity: 0.5, unit_price: 3 }),
      ],
    });
    expect(invoice.currency).toBe('JPY');
    expect(invoice.items.map((i) => [i.total, i.tax])).toEqual([
      [4500, 450],
      [2, 0], // 1.5 yen -> 2
    ]);
    expect(invoice).toMatchObject({ subtotal: 4502, tax: 450, total: 4952 });
  });

  it('creates a KWD invoice with three decimals', async () => {
    const t = await newTenant();
    const invoice = await createInvoice(t, {
      currency: 'KWD',
      items: [
        invoiceLine({ quantity: 2, unit_price: 1.234, tax_rate: 5 }),
        invoiceLine({ unit_price: 0.01, tax_rate: 5 }),
      ],
    });
    expect(invoice.items.map((i) => [i.total, i.tax])).toEqual([
      [2.468, 0.123], // 0.1234
      [0.01, 0.001], // 0.0005 -> 0.001
    ]);
    // exact taxes 0.1234 + 0.0005 = 0.1239 -> 0.124
    expect(invoice).toMatchObject({ currency: 'KWD', subtotal: 2.478, tax: 0.124, total: 2.602 });
  });

  it('fills description and unit_price from product_id', async () => {
    const t = await newTenant();
    const product = await createProduct(t.client, { name: 'Espresso beans 1kg', price: 24.5 });
    const invoice = await createInvoice(t, {
      items: [{ product_id: product.id, quantity: 2, tax_rate: 10 }],
    });
    expect(invoice.items[0]).toMatchObject({
      product_id: product.id,
      description: 'Espresso beans 1kg',
      unit_price: 24.5,
      quantity: 2,
      total: 49,
      tax: 4.9,
    });
    expect(invoice.total).toBe(53.9);
  });

  it('lets a line override the description and unit_price of its product', async () => {
    const t = await newTenant();
    const product = await createProduct(t.client, { price: 24.5 });
    const invoice = await createInvoice(t, {
      items: [{ product_id: product.id, description: 'Beans (discounted)', quantity: 1, unit_price: 20 }],
    });
    expect(invoice.items[0]).toMatchObject({
      product_id: product.id,
      description: 'Beans (discounted)',
      unit_price: 20,
      total: 20,
    });
  });

  it('uses the product price of a product in the invoice currency (JPY)', async () => {
    const t = await newTenant();
    const product = await createProduct(t.client, { currency: 'JPY', price: 1200 });
    const invoice = await createInvoice(t, {
      currency: 'JPY',
      items: [{ product_id: product.id, quantity: 2 }],
    });
    expect(invoice.items[0]).toMatchObject({ unit_price: 1200, total: 2400 });
  });

  it('refuses a product priced in another currency without a unit_price (422 items.0.unit_price)', async () => {
    const t = await newTenant();
    const product = await createProduct(t.client, { currency: 'EUR', price: 24.5 });
    const res = await api(t).createInvoice({
      body: bodyFor(t, { items: [{ product_id: product.id, quantity: 1 }] }),
    });
    expectError(res, 422, 'VALIDATION_ERROR', 'items.0.unit_price');
    const priced = await createInvoice(t, {
      items: [{ product_id: product.id, quantity: 1, unit_price: 30 }],
    });
    expect(priced.items[0]).toMatchObject({ product_id: product.id, unit_price: 30 });
  });

  it('refuses a line with neither product_id nor description or unit_price', async () => {
    const t = await newTenant();
    expectError(
      await api(t).createInvoice({ body: bodyFor(t, { items: [{ quantity: 1, unit_price: 5 }] }) }),
      422,
      'VALIDATION_ERROR',
      'items.0.description',
    );
    expectError(
      await api(t).createInvoice({
        body: bodyFor(t, { items: [invoiceLine(), { description: 'x', quantity: 1 }] }),
      }),
      422,
      'VALIDATION_ERROR',
      'items.1.unit_price',
    );
  });

  describe('refusals (422 VALIDATION_ERROR)', () => {
    let t: Tenant;
    beforeAll(async () => {
      t = await newTenant();
    });

    it('refuses an unknown customer_id', async () => {
      const res = await api(t).createInvoice({
        body: bodyFor(t, { customer_id: 'cus_01JD7X2R5VQ8N3K4M6P9T1W2Y3' }),
      });
      expectError(res, 422, 'VALIDATION_ERROR', 'customer_id');
    });

    it("refuses another business's customer", async () => {
      const other = await newTenant();
      const res = await api(t).createInvoice({ body: bodyFor(t, { customer_id: other.customerId }) });
      expectError(res, 422, 'VALIDATION_ERROR', 'customer_id');
    });

    it('refuses an unknown product (items.0.product_id)', async () => {
      const res = await api(t).createInvoice({
        body: bodyFor(t, { items: [{ product_id: 'prod_01JD7X2R5VQ8N3K4M6P9T1W2Y3', quantity: 1 }] }),
      });
      expectError(res, 422, 'VALIDATION_ERROR', 'items.0.product_id');
    });

    it("refuses another business's product", async () => {
      const other = await newTenant();
      const product = await createProduct(other.client);
      const res = await api(t).createInvoice({
        body: bodyFor(t, { items: [invoiceLine(), { product_id: product.id, quantity: 1 }] }),
      });
      expectError(res, 422, 'VALIDATION_ERROR', 'items.1.product_id');
    });

    it('refuses empty items and more than 200 items', async () => {
      expectError(
        await api(t).createInvoice({ body: bodyFor(t, { items: [] }) }),
        422,
        'VALIDATION_ERROR',
        'items',
      );
      const items = Array.from({ length: 201 }, () => invoiceLine());
      expectError(
        await api(t).createInvoice({ body: bodyFor(t, { items }) }),
        422,
        'VALIDATION_ERROR',
        'items',
      );
    });

    it('accepts exactly 200 items', async () => {
      const items = Array.from({ length: 200 }, () => invoiceLine({ unit_price: 0.01 }));
      const invoice = await createInvoice(t, { items });
      expect(invoice.items).toHaveLength(200);
      expect(invoice.total).toBe(2);
    });

    it('refuses a date that is not on the calendar (2026-02-30) and malformed dates', async () => {
      expectError(
        await api(t).createInvoice({ body: bodyFor(t, { due_date: '2026-02-30' }) }),
        422,
        'VALIDATION_ERROR',
        'due_date',
      );
      expectError(
        await api(t).createInvoice({ body: bodyFor(t, { issue_date: '2026-13-01' }) }),
        422,
        'VALIDATION_ERROR',
        'issue_date',
      );
      expectError(
        await api(t).createInvoice({ body: bodyFor(t, { due_date: '21/12/2026' }) }),
        422,
        'VALIDATION_ERROR',
        'due_date',
      );
    });

    it('refuses a due_date before the issue_date, and accepts the same day', async () => {
      const res = await api(t).createInvoice({
        body: bodyFor(t, { issue_date: '2026-12-01', due_date: '2026-11-30' }),
      });
      expectError(res, 422, 'VALIDATION_ERROR', 'due_date');
      const sameDay = await createInvoice(t, { issue_date: '2026-12-01', due_date: '2026-12-01' });
      expect(sameDay).toMatchObject({ issue_date: '2026-12-01', due_date: '2026-12-01' });
    });

    it('refuses more decimals than the currency has (items.0.unit_price)', async () => {
      for (const [currency, unit_price] of [
        ['USD', 0.335],
        ['USD', 1.005],
        ['JPY', 1500.5],
        ['KWD', 1.2345],
      ] as const) {
        const res = await api(t).createInvoice({
          body: bodyFor(t, { currency, items: [invoiceLine({ unit_price })] }),
        });
        expectError(res, 422, 'VALIDATION_ERROR', 'items.0.unit_price');
      }
    });

    it('refuses an unknown currency, a zero or over-precise quantity and a tax_rate over 100', async () => {
      expectError(
        await api(t).createInvoice({ body: bodyFor(t, { currency: 'XYZ' }) }),
        422,
        'VALIDATION_ERROR',
        'currency',
      );
      expectError(
        await api(t).createInvoice({ body: bodyFor(t, { items: [invoiceLine({ quantity: 0 })] }) }),
        422,
        'VALIDATION_ERROR',
        'items.0.quantity',
      );
      expectError(
        await api(t).createInvoice({ body: bodyFor(t, { items: [invoiceLine({ quantity: 1.00001 })] }) }),
        422,
        'VALIDATION_ERROR',
        'items.0.quantity',
      );
      expectError(
        await api(t).createInvoice({ body: bodyFor(t, { items: [invoiceLine({ tax_rate: 101 })] }) }),
        422,
        'VALIDATION_ERROR',
        'items.0.tax_rate',
      );
      expectError(
        await api(t).createInvoice({ body: bodyFor(t, { items: [invoiceLine({ unit_price: -1 })] }) }),
        422,
        'VALIDATION_ERROR',
        'items.0.unit_price',
      );
    });

    it('refuses a discount_percent over 100, below 0 or with more than two decimals (items.N.discount_percent)', async () => {
      for (const discount_percent of [100.01, 101, -1, -0.01, 12.345]) {
        expectError(
          await api(t).createInvoice({
            body: bodyFor(t, { items: [invoiceLine(), invoiceLine({ discount_percent })] }),
          }),
          422,
          'VALIDATION_ERROR',
          'items.1.discount_percent',
        );
      }
    });

    it('counts decimals of quantity and tax_rate exactly: 1.0000000000000002 is refused, 1.0001 and 7.125 kept', async () => {
      for (const [item, field] of [
        [{ quantity: 1.0000000000000002 }, 'items.0.quantity'],
        [{ quantity: 2.00000001 }, 'items.0.quantity'],
        [{ quantity: 1e-7 }, 'items.0.quantity'],
        [{ tax_rate: 1.0000000000000002 }, 'items.0.tax_rate'],
        [{ tax_rate: 7.1255 }, 'items.0.tax_rate'],
      ] as const) {
        expectError(
          await api(t).createInvoice({ body: bodyFor(t, { items: [invoiceLine(item)] }) }),
          422,
          'VALIDATION_ERROR',
          field,
        );
        const res = await raw(server(), 'POST', '/v1/invoices', {
          token: t.accessToken,
          ...json(bodyFor(t, { items: [invoiceLine(item)] })),
        });
        expectError(res, 422, 'VALIDATION_ERROR', field);
      }
      // The JSON text itself: a parser that rounds would see 1.
      const res = await raw(server(), 'POST', '/v1/invoices', {
        token: t.accessToken,
        headers: { 'content-type': 'application/json' },
        body: `{"customer_id":"${t.customerId}","due_date":"${DUE}","items":[{"description":"x","quantity":1.0000000000000002,"unit_price":1}]}`,
      });
      expectError(res, 422, 'VALIDATION_ERROR', 'items.0.quantity');
      const kept = await createInvoice(t, {
        items: [invoiceLine({ quantity: 1.0001, unit_price: 10_000, tax_rate: 7.125 })],
      });
      expect(kept.items[0]).toMatchObject({ quantity: 1.0001, tax_rate: 7.125, total: 10_001, tax: 712.57 });
    });

    it('holds line totals up to 999,999,999,999,999 minor units exactly and refuses one beyond (items.N)', async () => {
      const big = await createInvoice(t, {
        currency: 'JPY',
        items: [invoiceLine({ quantity: 1000, unit_price: 999_999_999_999 })],
      });
      expect(big).toMatchObject({ subtotal: 999_999_999_999_000, total: 999_999_999_999_000 });
      expect(await getInvoice(t.client, big.id)).toEqual(big);

      const before = (await list(t)).pagination.total;
      expectError(
        await api(t).createInvoice({
          body: bodyFor(t, {
            currency: 'JPY',
            items: [invoiceLine(), invoiceLine({ quantity: 1001, unit_price: 999_999_999_999 })],
          }),
        }),
        422,
        'VALIDATION_ERROR',
        'items.1',
      );
      const res = await raw(server(), 'POST', '/v1/invoices', {
        token: t.accessToken,
        ...json(bodyFor(t, { items: [invoiceLine({ quantity: 1_000_000, unit_price: 1_000_000_000_000 })] })),
      });
      expectError(res, 422, 'VALIDATION_ERROR', 'items.0');
      expect((await list(t)).pagination.total).toBe(before);
    });

    it('refuses an invoice total beyond the limit, tax included (422 on items), though every line fits', async () => {
      const half = invoiceLine({ quantity: 500, unit_price: 999_999_999_999 });
      expectError(
        await api(t).createInvoice({
          body: bodyFor(t, { currency: 'JPY', items: [half, half, invoiceLine({ unit_price: 1000 })] }),
        }),
        422,
        'VALIDATION_ERROR',
        'items',
      );
      const taxed = invoiceLine({ quantity: 900, unit_price: 999_999_999_999, tax_rate: 20 });
      const res = await raw(server(), 'POST', '/v1/invoices', {
        token: t.accessToken,
        ...json(bodyFor(t, { currency: 'JPY', items: [taxed] })),
      });
      expectError(res, 422, 'VALIDATION_ERROR', 'items');
    });

    it("refuses a unit_price beyond the limit in the currency's minor units (CLF: 4 decimals)", async () => {
      expectError(
        await api(t).createInvoice({
          body: bodyFor(t, { currency: 'CLF', items: [invoiceLine({ unit_price: 100_000_000_000 })] }),
        }),
        422,
        'VALIDATION_ERROR',
        'items.0.unit_price',
      );
      const fits = await createInvoice(t, {
        currency: 'CLF',
        items: [invoiceLine({ unit_price: 99_999_999_999.9999 })],
      });
      expect(fits.total).toBe(99_999_999_999.9999);
    });

    it('refuses unknown fields, at the top level and in an item', async () => {
      const top = await raw(server(), 'POST', '/v1/invoices', {
        token: t.accessToken,
        ...json({ ...bodyFor(t), discount: 10 }),
      });
      expectError(top, 422, 'VALIDATION_ERROR', 'discount');
      const nested = await raw(server(), 'POST', '/v1/invoices', {
        token: t.accessToken,
        ...json(bodyFor(t, { items: [{ ...invoiceLine(), colour: 'red' } as InvoiceItemInput] })),
      });
      expectError(nested, 422, 'VALIDATION_ERROR', 'items.0.colour');
    });

    it('creates nothing when refused', async () => {
      const before = (await list(t)).pagination.total;
      await api(t).createInvoice({ body: bodyFor(t, { items: [invoiceLine({ unit_price: 0.335 })] }) });
      expect((await list(t)).pagination.total).toBe(before);
    });
  });
});

describe('list', () => {
  describe('pagination', () => {
    let t: Tenant;
    let created: Invoice[];
    beforeAll(async () => {
      t = await newTenant();
      // All five share one created_at (the clock is frozen): the order must still be total and stable.
      server().clock.set(NOW);
      created = [];
      for (let i = 0; i < 5; i++) created.push(await createInvoice(t));
    });

    it('defaults to page 1, limit 20, newest first', async () => {
      const res = await list(t);
      expect(res.pagination).toEqual({ page: 1, limit: 20, total: 5, total_pages: 1 });
      expect(numbersOf(res.data)).toEqual([
        'INV-000005',
        'INV-000004',
        'INV-000003',
        'INV-000002',
        'INV-000001',
      ]);
    });

    it('pages through every invoice exactly once, ties on created_at broken by id', async () => {
      const pages = [
        await list(t, { limit: 2 }),
        await list(t, { limit: 2, page: 2 }),
        await list(t, { limit: 2, page: 3 }),
      ];
      expect(pages.map((p) => p.pagination)).toEqual([
        { page: 1, limit: 2, total: 5, total_pages: 3 },
        { page: 2, limit: 2, total: 5, total_pages: 3 },
        { page: 3, limit: 2, total: 5, total_pages: 3 },
      ]);
      const seen = pages.flatMap((p) => p.data.map((i) => i.id));
      expect(seen).toEqual(created.map((i) => i.id).reverse());
      // The same page asked twice answers the same.
      expect((await list(t, { limit: 2, page: 2 })).data.map((i) => i.id)).toEqual(
        itemAt(pages, 1).data.map((i) => i.id),
      );
    });

    it('pages stably when every sort key ties (sort=total:asc over equal totals)', async () => {
      const ids: string[] = [];
      for (let page = 1; page <= 3; page++) {
        ids.push(...(await list(t, { sort: 'total:asc', limit: 2, page })).data.map((i) => i.id));
      }
      expect(ids).toEqual(created.map((i) => i.id));
    });

    it('answers an empty page past the end, keeping the total', async () => {
      const res = await list(t, { limit: 2, page: 4 });
      expect(res.data).toEqual([]);
      expect(res.pagination).toEqual({ page: 4, limit: 2, total: 5, total_pages: 3 });
    });

    it('refuses limit 0, limit 101 and page 0 (422)', async () => {
      expectError(await api(t).listInvoices({ query: { limit: 0 } }), 422, 'VALIDATION_ERROR', 'limit');
      expectError(await api(t).listInvoices({ query: { limit: 101 } }), 422, 'VALIDATION_ERROR', 'limit');
      expectError(await api(t).listInvoices({ query: { page: 0 } }), 422, 'VALIDATION_ERROR', 'page');
      const res = await list(t, { limit: 100 });
      expect(res.data).toHaveLength(5);
    });

    it('ignores unknown query parameters', async () => {
      const res = await raw(server(), 'GET', '/v1/invoices?colour=red', { token: t.accessToken });
      expect(res.status).toBe(200);
      expect(res.body.pagination.total).toBe(5);
    });
  });

  describe('filters', () => {
    let t: Tenant;
    let byStatus: Record<'draft' | 'unpaid' | 'paid' | 'void' | 'overdue' | 'other', Invoice>;
    let secondCustomerId: string;
    beforeAll(async () => {
      t = await newTenant();
      server().clock.set(NOW);
      const draft = await createInvoice(t);
      const unpaid = await issuedInvoice(t);
      const issued = await issuedInvoice(t);
      const paid = await payInvoice(t.client, issued.id, issued.total);
      const voided = await voidInvoice(t.client, (await issuedInvoice(t)).id);
      const overdue = await issuedInvoice(t, { issue_date: '2026-11-01', due_date: '2026-11-10' });
      secondCustomerId = (await createCustomer(t.client, { name: 'Grace Hopper' })).id;
      const other = await createInvoice(t, { customer_id: secondCustomerId });
      byStatus = { draft, unpaid, paid, void: voided, overdue, other };
    });

    it.each(['unpaid', 'paid', 'void', 'overdue'] as const)(
      'status=%s finds only %s invoices',
      async (status) => {
        const res = await list(t, { status });
        expect(res.data.map((i) => i.id)).toEqual([byStatus[status].id]);
        expect(res.data[0]?.status).toBe(status);
        expect(res.pagination.total).toBe(1);
      },
    );

    it('status=draft finds only drafts', async () => {
      const res = await list(t, { status: 'draft' });
      expect(new Set(res.data.map((i) => i.id))).toEqual(new Set([byStatus.draft.id, byStatus.other.id]));
      expect(res.data.every((i) => i.status === 'draft')).toBe(true);
    });

    it('refuses an unknown status (422)', async () => {
      const res = await raw(server(), 'GET', '/v1/invoices?status=pending', { token: t.accessToken });
      expectError(res, 422, 'VALIDATION_ERROR', 'status');
    });

    it('filters by customer_id, alone and with status', async () => {
      const res = await list(t, { customer_id: secondCustomerId });
      expect(res.data.map((i) => i.id)).toEqual([byStatus.other.id]);
      expect((await list(t, { customer_id: t.customerId })).pagination.total).toBe(5);
      expect((await list(t, { customer_id: t.customerId, status: 'draft' })).data.map((i) => i.id)).toEqual([
        byStatus.draft.id,
      ]);
      expect((await list(t, { customer_id: 'cus_01JD7X2R5VQ8N3K4M6P9T1W2Y3' })).data).toEqual([]);
    });

    it('serialises each listed invoice as its detail endpoint does', async () => {
      const res = await list(t, { status: 'paid' });
      expect(res.data[0]).toEqual(await getInvoice(t.client, byStatus.paid.id));
      expect(res.data[0]?.payments).toHaveLength(1);
    });
  });

  describe('sort', () => {
    let t: Tenant;
    let a: Invoice, b: Invoice, c: Invoice, e: Invoice;
    const ids = (invoices: Invoice[]) => invoices.map((i) => i.id);
    beforeAll(async () => {
      t = await newTenant();
      server().clock.set(NOW);
      a = await createInvoice(t, { due_date: '2026-12-10', items: [invoiceLine({ unit_price: 300 })] });
      server().clock.advance(1000);
      b = await createInvoice(t, { due_date: '2026-12-30', items: [invoiceLine({ unit_price: 100 })] });
      server().clock.advance(1000);
      c = await createInvoice(t, { due_date: '2026-12-20', items: [invoiceLine({ unit_price: 200 })] });
      server().clock.advance(1000);
      e = await createInvoice(t, { due_date: '2026-12-25', items: [invoiceLine({ unit_price: 200 })] });
    });

    it('sorts by due_date', async () => {
      expect(ids((await list(t, { sort: 'due_date:asc' })).data)).toEqual(ids([a, c, e, b]));
      expect(ids((await list(t, { sort: 'due_date:desc' })).data)).toEqual(ids([b, e, c, a]));
    });

    it('sorts by total, ties broken by id in the same direction', async () => {
      expect(ids((await list(t, { sort: 'total:asc' })).data)).toEqual(ids([b, c, e, a]));
      expect(ids((await list(t, { sort: 'total:desc' })).data)).toEqual(ids([a, e, c, b]));
    });

    it('sorts by created_at', async () => {
      expect(ids((await list(t, { sort: 'created_at:asc' })).data)).toEqual(ids([a, b, c, e]));
      expect(ids((await list(t, { sort: 'created_at:desc' })).data)).toEqual(ids([e, c, b, a]));
      expect(ids((await list(t)).data)).toEqual(ids([e, c, b, a]));
    });

    it('sorts by number', async () => {
      expect(numbersOf((await list(t, { sort: 'number:asc' })).data)).toEqual([
        'INV-000001',
        'INV-000002',
        'INV-000003',
        'INV-000004',
      ]);
      expect(ids((await list(t, { sort: 'number:desc' })).data)).toEqual(ids([e, c, b, a]));
    });

    it('refuses fields outside the allow-list and malformed sorts (422 sort)', async () => {
      for (const sort of ['customer:asc', 'status:desc', 'id:asc', 'total', 'total:up', 'total:asc;drop']) {
        expectError(await api(t).listInvoices({ query: { sort } }), 422, 'VALIDATION_ERROR', 'sort');
      }
    });
  });
});

describe('overdue', () => {
  it('reports an issued invoice past its due date as overdue, found by status=overdue and not unpaid', async () => {
    const t = await newTenant();
    const invoice = await issuedInvoice(t, { due_date: '2027-01-09' });
    expect(invoice.status).toBe('unpaid');

    server().clock.set('2027-01-10T12:00:00.000Z');
    expect((await getInvoice(t.client, invoice.id)).status).toBe('overdue');
    const overdue = await list(t, { status: 'overdue' });
    expect(overdue.data.map((i) => i.id)).toEqual([invoice.id]);
    expect(overdue.data[0]?.status).toBe('overdue');
    expect((await list(t, { status: 'unpaid' })).data).toEqual([]);
    expect((await list(t)).data[0]?.status).toBe('overdue');
  });

  it('reports the same invoice as unpaid on its due date (UTC) and overdue from the next day', async () => {
    const t = await newTenant();
    const invoice = await issuedInvoice(t, { due_date: '2027-01-09' });

    server().clock.set('2027-01-09T23:59:59.999Z');
    expect((await getInvoice(t.client, invoice.id)).status).toBe('unpaid');
    expect((await list(t, { status: 'unpaid' })).data.map((i) => i.id)).toEqual([invoice.id]);
    expect((await list(t, { status: 'overdue' })).data).toEqual([]);

    server().clock.set('2027-01-10T00:00:00.000Z');
    expect((await getInvoice(t.client, invoice.id)).status).toBe('overdue');
  });

  it('never reports drafts, paid or void invoices as overdue', async () => {
    const t = await newTenant();
    const draft = await createInvoice(t, { due_date: '2027-01-09' });
    const paid = await issuedInvoice(t, { due_date: '2027-01-09' });
    await payInvoice(t.client, paid.id, paid.total);
    const voided = await voidInvoice(t.client, (await issuedInvoice(t, { due_date: '2027-01-09' })).id);

    server().clock.set('2027-01-10T12:00:00.000Z');
    expect((await getInvoice(t.client, draft.id)).status).toBe('draft');
    expect((await getInvoice(t.client, paid.id)).status).toBe('paid');
    expect((await getInvoice(t.client, voided.id)).status).toBe('void');
    expect((await list(t, { status: 'overdue' })).data).toEqual([]);
  });
});

describe('get', () => {
  it('returns the invoice, and 404 NOT_FOUND for an unknown id', async () => {
    const t = await newTenant();
    const invoice = await createInvoice(t);
    expect(await getInvoice(t.client, invoice.id)).toEqual(invoice);
    expectError(
      await api(t).getInvoice({ params: { id: 'inv_01JD7X2R5VQ8N3K4M6P9T1W2Y3' } }),
      404,
      'NOT_FOUND',
    );
  });
});

describe('update', () => {
  it('updates a draft partially, leaving other fields alone', async () => {
    const t = await newTenant();
    const invoice = await createInvoice(t, {
      items: [invoiceLine({ quantity: 3, unit_price: 150, tax_rate: 20 })],
      notes: 'Old',
    });
    server().clock.advance(60_000);
    const res = await api(t).updateInvoice({ params: { id: invoice.id }, body: { notes: 'New terms' } });
    expect(res.status).toBe(200);
    const updated = (await unwrap(res)).data;
    expect(updated).toEqual({ ...invoice, notes: 'New terms', updated_at: '2026-11-21T09:01:00.000Z' });
    expect(await getInvoice(t.client, invoice.id)).toEqual(updated);
  });

  it('updates dates, and refuses a due_date before the issue_date (existing or given)', async () => {
    const t = await newTenant();
    const invoice = await createInvoice(t);
    const dated = (
      await unwrap(api(t).updateInvoice({ params: { id: invoice.id }, body: { issue_date: '2026-12-01' } }))
    ).data;
    expect(dated).toMatchObject({ issue_date: '2026-12-01', due_date: DUE });
    expectError(
      await api(t).updateInvoice({ params: { id: invoice.id }, body: { due_date: '2026-11-30' } }),
      422,
      'VALIDATION_ERROR',
      'due_date',
    );
    expectError(
      await api(t).updateInvoice({ params: { id: invoice.id }, body: { issue_date: '2027-01-01' } }),
      422,
      'VALIDATION_ERROR',
      'due_date',
    );
    expectError(
      await api(t).updateInvoice({ params: { id: invoice.id }, body: { due_date: '2026-02-30' } }),
      422,
      'VALIDATION_ERROR',
      'due_date',
    );
    expect(await getInvoice(t.client, invoice.id)).toEqual(dated);
  });

  it('replaces all items and recomputes the totals', async () => {
    const t = await newTenant();
    const invoice = await createInvoice(t, {
      items: [invoiceLine({ unit_price: 100 }), invoiceLine({ unit_price: 50 })],
    });
    const updated = (
      await unwrap(
        api(t).updateInvoice({
          params: { id: invoice.id },
          body: {
            items: [invoiceLine({ description: 'Design', quantity: 2, unit_price: 80, tax_rate: 10 })],
          },
        }),
      )
    ).data;
    expect(updated.items).toHaveLength(1);
    expect(updated.items[0]).toMatchObject({
      description: 'Design',
      quantity: 2,
      unit_price: 80,
      total: 160,
      tax: 16,
    });
    expect(invoice.items.map((i) => i.id)).not.toContain(itemAt(updated.items, 0).id);
    expect(updated).toMatchObject({ subtotal: 160, tax: 16, total: 176, amount_due: 176 });
    expect(updated.number).toBe(invoice.number);
  });

  it('re-prices the existing lines in a new currency', async () => {
    const t = await newTenant();
    const invoice = await createInvoice(t, {
      items: [
        invoiceLine({ quantity: 2, unit_price: 10.5, tax_rate: 10 }),
        invoiceLine({ quantity: 0.335, unit_price: 3 }),
      ],
    });
    expect(invoice.items.map((i) => i.total)).toEqual([21, 1.01]);
    const kwd = (
      await unwrap(api(t).updateInvoice({ params: { id: invoice.id }, body: { currency: 'KWD' } }))
    ).data;
    expect(kwd.currency).toBe('KWD');
    expect(kwd.items.map((i) => [i.description, i.quantity, i.unit_price, i.tax_rate])).toEqual(
      invoice.items.map((i) => [i.description, i.quantity, i.unit_price, i.tax_rate]),
    );
    // 0.335 x 3.000 KWD is exactly 1.005: three decimals keep what two decimals rounded.
    expect(kwd.items.map((i) => [i.total, i.tax])).toEqual([
      [21, 2.1],
      [1.005, 0],
    ]);
    expect(kwd).toMatchObject({ subtotal: 22.005, tax: 2.1, total: 24.105 });
  });

  it('refuses a currency change the existing prices cannot be expressed in, changing nothing', async () => {
    const t = await newTenant();
    const invoice = await createInvoice(t, { items: [invoiceLine({ unit_price: 10.5 })] });
    const res = await api(t).updateInvoice({ params: { id: invoice.id }, body: { currency: 'JPY' } });
    expectError(res, 422, 'VALIDATION_ERROR', 'items.0.unit_price');
    expect(await getInvoice(t.client, invoice.id)).toEqual(invoice);
  });

  it('prices new items in the new currency when both change', async () => {
    const t = await newTenant();
    const invoice = await createInvoice(t);
    const updated = (
      await unwrap(
        api(t).updateInvoice({
          params: { id: invoice.id },
          body: { currency: 'JPY', items: [invoiceLine({ quantity: 0.5, unit_price: 3 })] },
        }),
      )
    ).data;
    expect(updated).toMatchObject({ currency: 'JPY', subtotal: 2, total: 2 });
  });

  it('changes the customer, and refuses an unknown or foreign one', async () => {
    const t = await newTenant();
    const invoice = await createInvoice(t);
    const grace = await createCustomer(t.client, { name: 'Grace Hopper' });
    const updated = (
      await unwrap(api(t).updateInvoice({ params: { id: invoice.id }, body: { customer_id: grace.id } }))
    ).data;
    expect(updated).toMatchObject({
      customer_id: grace.id,
      customer: { id: grace.id, name: 'Grace Hopper' },
    });
    expectError(
      await api(t).updateInvoice({
        params: { id: invoice.id },
        body: { customer_id: 'cus_01JD7X2R5VQ8N3K4M6P9T1W2Y3' },
      }),
      422,
      'VALIDATION_ERROR',
      'customer_id',
    );
    const other = await newTenant();
    expectError(
      await api(t).updateInvoice({ params: { id: invoice.id }, body: { customer_id: other.customerId } }),
      422,
      'VALIDATION_ERROR',
      'customer_id',
    );
    expect((await getInvoice(t.client, invoice.id)).customer_id).toBe(grace.id);
  });

  it('refuses new items or a currency change whose totals would pass the limit, leaving the draft as it was', async () => {
    const t = await newTenant();
    const invoice = await createInvoice(t, {
      currency: 'JPY',
      items: [invoiceLine({ quantity: 1000, unit_price: 99_999_999_999 })],
    });
    expectError(
      await api(t).updateInvoice({
        params: { id: invoice.id },
        body: { items: [invoiceLine({ quantity: 1_000_000, unit_price: 999_999_999_999 })] },
      }),
      422,
      'VALIDATION_ERROR',
      'items.0',
    );
    // The line is 99,999,999,999,000 JPY: in USD, 9,999,999,999,999,900 cents, past the limit.
    const res = await raw(server(), 'PUT', `/v1/invoices/${invoice.id}`, {
      token: t.accessToken,
      ...json({ currency: 'USD' }),
    });
    expectError(res, 422, 'VALIDATION_ERROR', 'items.0');
    expect(await getInvoice(t.client, invoice.id)).toEqual(invoice);
  });

  it('refuses unknown fields (422) and an unknown id (404)', async () => {
    const t = await newTenant();
    const invoice = await createInvoice(t);
    const res = await raw(server(), 'PUT', `/v1/invoices/${invoice.id}`, {
      token: t.accessToken,
      ...json({ status: 'paid' }),
    });
    expectError(res, 422, 'VALIDATION_ERROR', 'status');
    expectError(
      await api(t).updateInvoice({ params: { id: 'inv_01JD7X2R5VQ8N3K4M6P9T1W2Y3' }, body: { notes: 'x' } }),
      404,
      'NOT_FOUND',
    );
    expect((await getInvoice(t.client, invoice.id)).status).toBe('draft');
  });

  it('refuses to update an issued, overdue, paid or void invoice (409 INVALID_STATE)', async () => {
    const t = await newTenant();
    const unpaid = await issuedInvoice(t);
    const overdue = await issuedInvoice(t, { issue_date: '2026-11-01', due_date: '2026-11-10' });
    const paid = await issuedInvoice(t);
    await payInvoice(t.client, paid.id, paid.total);
    const voided = await voidInvoice(t.client, (await createInvoice(t)).id);
    for (const invoice of [unpaid, overdue, paid, voided]) {
      const before = await getInvoice(t.client, invoice.id);
      const res = await api(t).updateInvoice({ params: { id: invoice.id }, body: { notes: 'Too late' } });
      expectError(res, 409, 'INVALID_STATE');
      expect(await getInvoice(t.client, invoice.id)).toEqual(before);
    }
  });

  it('treats an empty body as a no-op on a draft (200, unchanged, no event); 409 on a non-draft, 404 unknown', async () => {
    const t = await newTenant();
    const draft = await createInvoice(t, {
      items: [invoiceLine({ quantity: 2.5, unit_price: 19.99, tax_rate: 7.5 })],
    });
    const issued = await issuedInvoice(t);
    server().clock.advance(60_000);
    const put = (id: string) =>
      raw(server(), 'PUT', `/v1/invoices/${id}`, { token: t.accessToken, ...json({}) });
    const { result, events } = await withEvents(server(), t.businessId, () => put(draft.id));
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ data: draft });
    expect(events).toEqual([]);
    expect(await unwrap(api(t).updateInvoice({ params: { id: draft.id }, body: {} }))).toEqual({
      data: draft,
    });
    expectError(await put(issued.id), 409, 'INVALID_STATE');
    expectError(await put('inv_01JD7X2R5VQ8N3K4M6P9T1W2Y3'), 404, 'NOT_FOUND');
  });
});

describe('delete', () => {
  it('deletes a draft: 200 with the invoice, then 404 and gone from lists', async () => {
    const t = await newTenant();
    const keep = await createInvoice(t);
    const invoice = await createInvoice(t);
    const res = await api(t).deleteInvoice({ params: { id: invoice.id } });
    expect(res.status).toBe(200);
    expect((await unwrap(res)).data).toEqual(invoice);
    expectError(await api(t).getInvoice({ params: { id: invoice.id } }), 404, 'NOT_FOUND');
    const listed = await list(t);
    expect(listed.data.map((i) => i.id)).toEqual([keep.id]);
    expect(listed.pagination.total).toBe(1);
    expect((await list(t, { status: 'draft' })).data.map((i) => i.id)).toEqual([keep.id]);
    expectError(await api(t).deleteInvoice({ params: { id: invoice.id } }), 404, 'NOT_FOUND');
    expectError(await api(t).issueInvoice({ params: { id: invoice.id } }), 404, 'NOT_FOUND');
    expectError(
      await api(t).updateInvoice({ params: { id: invoice.id }, body: { notes: 'x' } }),
      404,
      'NOT_FOUND',
    );
  });

  it('refuses to delete an issued, paid or void invoice (409 INVALID_STATE)', async () => {
    const t = await newTenant();
    const unpaid = await issuedInvoice(t);
    const paid = await issuedInvoice(t);
    await payInvoice(t.client, paid.id, paid.total);
    const voided = await voidInvoice(t.client, (await createInvoice(t)).id);
    for (const invoice of [unpaid, paid, voided]) {
      expectError(await api(t).deleteInvoice({ params: { id: invoice.id } }), 409, 'INVALID_STATE');
      expect((await getInvoice(t.client, invoice.id)).id).toBe(invoice.id);
    }
    expect((await list(t)).pagination.total).toBe(3);
  });
});

describe('issue', () => {
  it('moves a draft to unpaid with issue_date = today by the clock', async () => {
    const t = await newTenant();
    const invoice = await createInvoice(t, { due_date: '2026-12-31' });
    expect(invoice.issue_date).toBeNull();
    server().clock.set('2026-12-01T23:30:00.000Z');
    const res = await api(t).issueInvoice({ params: { id: invoice.id } });
    expect(res.status).toBe(200);
    const issued = (await unwrap(res)).data;
    expect(issued).toMatchObject({
      status: 'unpaid',
      issue_date: '2026-12-01',
      issued_at: '2026-12-01T23:30:00.000Z',
      updated_at: '2026-12-01T23:30:00.000Z',
      number: invoice.number,
      total: invoice.total,
      amount_due: invoice.total,
    });
    expect(await getInvoice(t.client, invoice.id)).toEqual(issued);
  });

  it('keeps the issue_date set on the draft', async () => {
    const t = await newTenant();
    const invoice = await createInvoice(t, { issue_date: '2026-11-15' });
    const issued = await issueInvoice(t.client, invoice.id);
    expect(issued).toMatchObject({ status: 'unpaid', issue_date: '2026-11-15', issued_at: NOW });
  });

  it('refuses to issue twice, or to issue a paid or void invoice (409 INVALID_STATE)', async () => {
    const t = await newTenant();
    const issued = await issuedInvoice(t);
    expectError(await api(t).issueInvoice({ params: { id: issued.id } }), 409, 'INVALID_STATE');
    expect(await getInvoice(t.client, issued.id)).toEqual(issued);
    const paid = await issuedInvoice(t);
    await payInvoice(t.client, paid.id, paid.total);
    expectError(await api(t).issueInvoice({ params: { id: paid.id } }), 409, 'INVALID_STATE');
    const voided = await voidInvoice(t.client, (await createInvoice(t)).id);
    expectError(await api(t).issueInvoice({ params: { id: voided.id } }), 409, 'INVALID_STATE');
  });
});

describe('void', () => {
  it('voids a draft', async () => {
    const t = await newTenant();
    const invoice = await createInvoice(t);
    server().clock.advance(5000);
    const res = await api(t).voidInvoice({ params: { id: invoice.id } });
    expect(res.status).toBe(200);
    const voided = (await unwrap(res)).data;
    expect(voided).toMatchObject({ status: 'void', voided_at: '2026-11-21T09:00:05.000Z', issued_at: null });
    expect((await list(t, { status: 'void' })).data.map((i) => i.id)).toEqual([invoice.id]);
  });

  it('voids an unpaid invoice without payments', async () => {
    const t = await newTenant();
    const invoice = await issuedInvoice(t);
    const voided = await voidInvoice(t.client, invoice.id);
    expect(voided).toMatchObject({ status: 'void', voided_at: NOW, issued_at: NOW, amount_paid: 0 });
    expect(await getInvoice(t.client, invoice.id)).toEqual(voided);
  });

  it('refuses to void a paid invoice, an unpaid one with a partial payment, or twice (409)', async () => {
    const t = await newTenant();
    const paid = await issuedInvoice(t);
    await payInvoice(t.client, paid.id, paid.total);
    expectError(await api(t).voidInvoice({ params: { id: paid.id } }), 409, 'INVALID_STATE');
    expect((await getInvoice(t.client, paid.id)).status).toBe('paid');

    const partial = await issuedInvoice(t);
    await payInvoice(t.client, partial.id, 40);
    expectError(await api(t).voidInvoice({ params: { id: partial.id } }), 409, 'INVALID_STATE');
    expect(await getInvoice(t.client, partial.id)).toMatchObject({
      status: 'unpaid',
      amount_paid: 40,
      voided_at: null,
    });

    const voided = await voidInvoice(t.client, (await createInvoice(t)).id);
    expectError(await api(t).voidInvoice({ params: { id: voided.id } }), 409, 'INVALID_STATE');
    expect(await getInvoice(t.client, voided.id)).toEqual(voided);
  });
});

describe('tenant isolation', () => {
  it("answers 404 for another business's invoice on every route and never lists it", async () => {
    const owner = await newTenant();
    const intruder = await newTenant();
    const draft = await createInvoice(owner);
    const issued = await issuedInvoice(owner);
    const draftBefore = await getInvoice(owner.client, draft.id);
    const issuedBefore = await getInvoice(owner.client, issued.id);
    const { invoices } = intruder.client.general;

    for (const id of [draft.id, issued.id]) {
      expectError(await invoices.getInvoice({ params: { id } }), 404, 'NOT_FOUND');
      expectError(
        await invoices.updateInvoice({ params: { id }, body: { notes: 'mine' } }),
        404,
        'NOT_FOUND',
      );
      expectError(await invoices.deleteInvoice({ params: { id } }), 404, 'NOT_FOUND');
      expectError(await invoices.issueInvoice({ params: { id } }), 404, 'NOT_FOUND');
      expectError(
        await invoices.createPayment({ params: { id }, body: { amount: 1, payment_method: 'cash' } }),
        404,
        'NOT_FOUND',
      );
      expectError(await invoices.voidInvoice({ params: { id } }), 404, 'NOT_FOUND');
    }

    await createInvoice(intruder);
    const listed = await list(intruder);
    expect(listed.pagination.total).toBe(1);
    expect(listed.data.map((i) => i.id)).not.toContain(draft.id);
    expect((await list(intruder, { customer_id: owner.customerId })).data).toEqual([]);
    expect(await getInvoice(owner.client, draft.id)).toEqual(draftBefore);
    expect(await getInvoice(owner.client, issued.id)).toEqual(issuedBefore);
    expect((await list(owner)).pagination.total).toBe(2);
  });
});
