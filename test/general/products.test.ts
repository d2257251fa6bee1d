import { beforeAll, describe, expect, it } from 'vitest';
import { unwrap, type ErrorObject } from '../../client/index.js';
import type { Product } from '../../contract/general/index.js';
import { json, raw, registerBusiness, type TestBusiness } from '../support/business.js';
import { withEvents } from '../support/events.js';
import { expectExactError, expectInvalid, itemAt } from '../support/expect.js';
import { useTestServer } from '../support/setup.js';
import { createProduct as newProduct } from '../support/general.js';

const server = useTestServer();

type Client = TestBusiness['client']['general']['products'];
type CreateBody = Parameters<Client['createProduct']>[0]['body'];
type ListQuery = NonNullable<Parameters<Client['listProducts']>[0]>['query'];

const ID = /^prod_[0-9A-HJKMNP-TV-Z]{26}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const MISSING_ID = 'prod_01JD7X2R5VQ8N3K4M6P9T1W2Y3';

let skuCounter = 0;
/** A SKU no other test in this file uses. */
const sku = (tag = 'SKU') => `${tag}-${++skuCounter}`;

/** A product of the business: a 10 USD widget with this file's next SKU unless told. */
const createProduct = (biz: TestBusiness, body: Partial<CreateBody> = {}): Promise<Product> =>
  newProduct(biz.client, { name: 'Widget', sku: sku(), price: 10, ...body });

const getProduct = async (biz: TestBusiness, id: string) =>
  (await unwrap(biz.client.general.products.getProduct({ params: { id } }))).data;

/** Sends a body the typed client would refuse (unknown fields, wrong types). */
const post = (biz: TestBusiness, body: unknown) =>
  raw(server(), 'POST', '/v1/products', { ...json(body), token: biz.accessToken });
const put = (biz: TestBusiness, id: string, body: unknown) =>
  raw(server(), 'PUT', `/v1/products/${id}`, { ...json(body), token: biz.accessToken });

const list = (biz: TestBusiness, query: ListQuery = {}) =>
  unwrap(biz.client.general.products.listProducts({ query }));

async function allPages(biz: TestBusiness, limit: number, sort?: string): Promise<Product[]> {
  const out: Product[] = [];
  for (let page = 1; ; page++) {
    const res = await list(biz, { page, limit, ...(sort ? { sort } : {}) });
    expect(res.pagination.page).toBe(page);
    if (res.data.length === 0) break;
    expect(res.data.length).toBeLessThanOrEqual(limit);
    out.push(...res.data);
  }
  return out;
}

let a: TestBusiness;
let b: TestBusiness;

beforeAll(async () => {
  [a, b] = await Promise.all([
    registerBusiness(server(), 'Alpha Shop'),
    registerBusiness(server(), 'Beta Shop'),
  ]);
});

describe('POST /v1/products', () => {
  it('creates a product (201) echoing every field', async () => {
    const body = {
      name: 'Espresso beans 1kg',
      sku: sku('BEAN'),
      price: 24.5,
      currency: 'EUR',
      stock: 120,
      description: 'Single-origin, medium roast',
    };
    const res = await a.client.general.products.createProduct({ body });
    expect(res.status).toBe(201);
    if (res.status !== 201) return;
    const { data } = res.body;
    expect(data).toEqual({
      ...body,
      id: expect.stringMatching(ID),
      created_at: expect.stringMatching(ISO),
      updated_at: data.created_at,
    });
  });

  it('defaults currency to USD, stock to 0 and description to null', async () => {
    const code = sku();
    const res = await a.client.general.products.createProduct({
      body: { name: 'Plain', sku: code, price: 19.99 },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      data: { name: 'Plain', sku: code, price: 19.99, currency: 'USD', stock: 0, description: null },
    });
  });

  it('trims name and SKU', async () => {
    const code = sku('TRIM');
    const data = await createProduct(a, { name: '  Trimmed  ', sku: `  ${code} ` });
    expect(data).toMatchObject({ name: 'Trimmed', sku: code });
  });

  it('accepts SKUs of letters, digits and . _ - /', async () => {
    const code = `a.B_c-D/${++skuCounter}`;
    expect((await createProduct(a, { sku: code })).sku).toBe(code);
  });

  it.each(['has space', 'semi;colon', 'ümlaut', 'x'.repeat(65), ''])(
    'refuses the SKU %j (422)',
    async (bad) => {
      expectInvalid(await post(a, { name: 'Bad SKU', sku: bad, price: 1 }), 'sku');
    },
  );

  it('refuses a SKU already used in the business, case-insensitively (409 CONFLICT)', async () => {
    const code = sku('Dup');
    await createProduct(a, { sku: code, name: 'Original' });
    expectExactError(
      await a.client.general.products.createProduct({ body: { name: 'Same', sku: code, price: 1 } }),
      409,
      'CONFLICT',
    );
    expectExactError(
      await a.client.general.products.createProduct({
        body: { name: 'Lower', sku: code.toLowerCase(), price: 1 },
      }),
      409,
      'CONFLICT',
    );
    const found = await list(a, { sku: code });
    expect(found.data.map((p) => p.name)).toEqual(['Original']);
  });

  it('lets another business use the same SKU', async () => {
    const code = sku('SHARED');
    const inA = await createProduct(a, { sku: code });
    const inB = await createProduct(b, { sku: code.toLowerCase() });
    expect(inA.sku).toBe(code);
    expect(inB.sku).toBe(code.toLowerCase());
  });

  it('refuses an unknown body field, naming it (422 VALIDATION_ERROR)', async () => {
    const res = await post(a, { name: 'Widget', sku: sku(), price: 1, colour: 'red' });
    expectInvalid(res, 'colour');
    expect((res.body as { error: ErrorObject }).error.details).toContainEqual({
      field: 'colour',
      message: 'Unknown field',
    });
  });

  it.each([
    ['name', { sku: 'NO-NAME', price: 1 }],
    ['sku', { name: 'No SKU', price: 1 }],
    ['price', { name: 'No price', sku: 'NO-PRICE' }],
  ])('refuses a missing %s (422)', async (field, body) => {
    expectInvalid(await post(a, body), field);
  });

  it.each([
    ['name', { name: 'n'.repeat(201) }],
    ['name', { name: '   ' }],
    ['description', { description: 'd'.repeat(2001) }],
  ])('refuses a bad %s length (422)', async (field, extra) => {
    expectInvalid(await post(a, { name: 'Widget', sku: sku(), price: 1, ...extra }), field);
  });

  it('accepts strings at their maximum length', async () => {
    const data = await createProduct(a, {
      name: 'n'.repeat(200),
      sku: `${'S'.repeat(60)}${String(++skuCounter).padStart(4, '0')}`,
      description: 'd'.repeat(2000),
    });
    expect(data.name).toHaveLength(200);
    expect(data.sku).toHaveLength(64);
    expect(data.description).toHaveLength(2000);
  });

  it.each([
    ['stock', { stock: -1 }],
    ['stock', { stock: 1.5 }],
    ['stock', { stock: 1_000_000_001 }],
    ['stock', { stock: '5' }],
    ['price', { price: -0.01 }],
    ['price', { price: 1_000_000_000_001 }],
    ['price', { price: '19.99' }],
    ['price', { price: null }],
    ['description', { description: 42 }],
  ])('refuses a bad %s value (422)', async (field, extra) => {
    expectInvalid(await post(a, { name: 'Widget', sku: sku(), price: 1, ...extra }), field);
  });

  it('accepts price 0 and the maximum price', async () => {
    expect((await createProduct(a, { price: 0 })).price).toBe(0);
    expect((await createProduct(a, { price: 1_000_000_000_000 })).price).toBe(1_000_000_000_000);
  });

  it('refuses broken JSON (400 BAD_REQUEST in the general envelope)', async () => {
    const res = await raw(server(), 'POST', '/v1/products', {
      headers: { 'content-type': 'application/json' },
      body: '{"name": ',
      token: a.accessToken,
    });
    expectExactError(res, 400, 'BAD_REQUEST');
  });

  it('refuses a request without credentials (401 UNAUTHORIZED)', async () => {
    expectExactError(
      await raw(server(), 'POST', '/v1/products', json({ name: 'W', sku: sku(), price: 1 })),
      401,
      'UNAUTHORIZED',
    );
  });
});

describe('money', () => {
  it.each([
    ['USD', 19.99],
    ['USD', 0.1],
    ['USD', 1_000_000.01],
    ['JPY', 100],
    ['KWD', 1.234],
    ['BHD', 0.005],
    ['CLF', 1.2345],
    ['EUR', 7],
  ])('accepts %s %s and returns it unchanged', async (currency, price) => {
    const data = await createProduct(a, { currency, price });
    expect(data).toMatchObject({ currency, price });
    expect(await getProduct(a, data.id)).toMatchObject({ currency, price });
  });

  it.each([
    ['USD', 19.999],
    ['USD', 1.005],
    ['EUR', 0.001],
    ['JPY', 100.5],
    ['JPY', 0.1],
    ['KWD', 1.2345],
    ['CLF', 1.23456],
  ])('refuses %s %s: more decimals than the currency has (422 on price)', async (currency, price) => {
    expectInvalid(await post(a, { name: 'Too precise', sku: sku(), price, currency }), 'price');
  });

  it('holds prices up to 999,999,999,999,999 minor units and refuses beyond (422 on price)', async () => {
    const jpy = await createProduct(a, { currency: 'JPY', price: 1_000_000_000_000 });
    expect(await getProduct(a, jpy.id)).toMatchObject({ price: 1_000_000_000_000, currency: 'JPY' });
    const clf = await createProduct(a, { currency: 'CLF', price: 99_999_999_999.9999 });
    expect(await getProduct(a, clf.id)).toMatchObject({ price: 99_999_999_999.9999, currency: 'CLF' });

    const beyond = { name: 'Priceless', price: 100_000_000_000, currency: 'CLF' };
    expectInvalid(await post(a, { ...beyond, sku: sku() }), 'price');
    const res = await a.client.general.products.createProduct({ body: { ...beyond, sku: sku() } });
    expectInvalid(res, 'price');
    expectInvalid(await post(a, { name: 'Huge', sku: sku(), price: 1e21, currency: 'JPY' }), 'price');
  });

  it('refuses a currency change that takes the price past the limit (422 on price), changing nothing', async () => {
    const created = await createProduct(a, { price: 100_000_000_000, currency: 'USD' });
    expectInvalid(await put(a, created.id, { currency: 'CLF' }), 'price');
    expect(await getProduct(a, created.id)).toEqual(created);
    const fits = await createProduct(a, { price: 99_999_999_999.99, currency: 'USD' });
    const { data } = await unwrap(
      a.client.general.products.updateProduct({ params: { id: fits.id }, body: { currency: 'CLF' } }),
    );
    expect(data).toMatchObject({ price: 99_999_999_999.99, currency: 'CLF' });
  });

  it('assumes USD decimals when no currency is given', async () => {
    expectInvalid(await post(a, { name: 'Too precise', sku: sku(), price: 19.999 }), 'price');
  });

  it.each(['XXX', 'usd', 'US', 'USDX', 'ABC', ''])('refuses the currency %j (422)', async (currency) => {
    expectInvalid(await post(a, { name: 'Odd money', sku: sku(), price: 1, currency }), 'currency');
  });

  it('re-expresses the same major price when only the currency changes', async () => {
    const created = await createProduct(a, { price: 25, currency: 'USD' });
    const toJpy = await unwrap(
      a.client.general.products.updateProduct({ params: { id: created.id }, body: { currency: 'JPY' } }),
    );
    expect(toJpy.data).toMatchObject({ price: 25, currency: 'JPY' });
    const toKwd = await unwrap(
      a.client.general.products.updateProduct({ params: { id: created.id }, body: { currency: 'KWD' } }),
    );
    expect(toKwd.data).toMatchObject({ price: 25, currency: 'KWD' });
    expect(await getProduct(a, created.id)).toMatchObject({ price: 25, currency: 'KWD' });
  });

  it('refuses a currency change the current price does not fit (422 on price), changing nothing', async () => {
    const created = await createProduct(a, { price: 19.99, currency: 'USD', stock: 3 });
    const { result, events } = await withEvents(server(), a.businessId, () =>
      a.client.general.products.updateProduct({
        params: { id: created.id },
        body: { currency: 'JPY', stock: 9 },
      }),
    );
    expectInvalid(result, 'price');
    expect(events).toEqual([]);
    expect(await getProduct(a, created.id)).toEqual(created);
  });

  it('accepts a currency change with a price that fits the new currency', async () => {
    const created = await createProduct(a, { price: 19.99, currency: 'USD' });
    const { data } = await unwrap(
      a.client.general.products.updateProduct({
        params: { id: created.id },
        body: { currency: 'JPY', price: 2000 },
      }),
    );
    expect(data).toMatchObject({ price: 2000, currency: 'JPY' });
  });

  it("checks a new price against the product's current currency", async () => {
    const created = await createProduct(a, { price: 100, currency: 'JPY' });
    expectInvalid(await put(a, created.id, { price: 10.5 }), 'price');
    const { data } = await unwrap(
      a.client.general.products.updateProduct({ params: { id: created.id }, body: { price: 150 } }),
    );
    expect(data).toMatchObject({ price: 150, currency: 'JPY' });
  });

  it('refuses an unknown currency on update (422)', async () => {
    const created = await createProduct(a);
    expectInvalid(await put(a, created.id, { currency: 'XXX' }), 'currency');
    expectInvalid(await put(a, created.id, { currency: 'usd' }), 'currency');
    expect(await getProduct(a, created.id)).toEqual(created);
  });
});

describe('GET /v1/products/:id', () => {
  it('returns the product as created', async () => {
    const created = await createProduct(a, { description: 'Fetched', stock: 4 });
    const res = await a.client.general.products.getProduct({ params: { id: created.id } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: created });
  });

  it('answers 404 NOT_FOUND for an unknown id', async () => {
    expectExactError(
      await a.client.general.products.getProduct({ params: { id: MISSING_ID } }),
      404,
      'NOT_FOUND',
    );
  });

  it('answers 404 NOT_FOUND for an id longer than 64 characters', async () => {
    const res = await a.client.general.products.getProduct({ params: { id: `prod_${'x'.repeat(80)}` } });
    expectExactError(res, 404, 'NOT_FOUND');
  });

  it("answers 404 NOT_FOUND for another business's product", async () => {
    const theirs = await createProduct(b);
    expectExactError(
      await a.client.general.products.getProduct({ params: { id: theirs.id } }),
      404,
      'NOT_FOUND',
    );
  });

  it('refuses a request without credentials (401 UNAUTHORIZED)', async () => {
    expectExactError(await raw(server(), 'GET', `/v1/products/${MISSING_ID}`), 401, 'UNAUTHORIZED');
  });
});

describe('PUT /v1/products/:id', () => {
  it('changes only the fields given and moves updated_at', async () => {
    const created = await createProduct(a, { name: 'Before', price: 5, stock: 2, description: 'keep' });
    server().clock.advance(1000);
    const res = await a.client.general.products.updateProduct({
      params: { id: created.id },
      body: { stock: 7 },
    });
    expect(res.status).toBe(200);
    if (res.status !== 200) return;
    const { data } = res.body;
    expect(data).toEqual({ ...created, stock: 7, updated_at: expect.stringMatching(ISO) });
    expect(Date.parse(data.updated_at)).toBeGreaterThan(Date.parse(created.updated_at));
    expect(await getProduct(a, created.id)).toEqual(data);
  });

  it('updates every field at once', async () => {
    const created = await createProduct(a);
    const body = {
      name: 'Renamed',
      sku: sku('NEW'),
      price: 1.234,
      currency: 'KWD',
      stock: 99,
      description: 'Now described',
    };
    const { data } = await unwrap(
      a.client.general.products.updateProduct({ params: { id: created.id }, body }),
    );
    expect(data).toEqual({
      ...body,
      id: created.id,
      created_at: created.created_at,
      updated_at: data.updated_at,
    });
  });

  it('clears the description with null', async () => {
    const created = await createProduct(a, { description: 'to clear' });
    const { data } = await unwrap(
      a.client.general.products.updateProduct({ params: { id: created.id }, body: { description: null } }),
    );
    expect(data.description).toBeNull();
  });

  it("refuses another product's SKU, case-insensitively (409 CONFLICT), changing nothing", async () => {
    const code = sku('Taken');
    await createProduct(a, { sku: code });
    const other = await createProduct(a);
    for (const candidate of [code, code.toLowerCase()]) {
      const res = await a.client.general.products.updateProduct({
        params: { id: other.id },
        body: { sku: candidate, stock: 50 },
      });
      expectExactError(res, 409, 'CONFLICT');
    }
    expect(await getProduct(a, other.id)).toEqual(other);
  });

  it('lets a product change the case of its own SKU', async () => {
    const code = sku('case');
    const created = await createProduct(a, { sku: code });
    const { data } = await unwrap(
      a.client.general.products.updateProduct({
        params: { id: created.id },
        body: { sku: code.toUpperCase() },
      }),
    );
    expect(data.sku).toBe(code.toUpperCase());
  });

  it('refuses invalid bodies (422) and changes nothing', async () => {
    const created = await createProduct(a);
    expectInvalid(await put(a, created.id, { colour: 'red' }), 'colour');
    expectInvalid(await put(a, created.id, { name: '' }), 'name');
    expectInvalid(await put(a, created.id, { name: 'n'.repeat(201) }), 'name');
    expectInvalid(await put(a, created.id, { sku: 'bad sku' }), 'sku');
    expectInvalid(await put(a, created.id, { price: -1 }), 'price');
    expectInvalid(await put(a, created.id, { price: 10.001 }), 'price');
    expectInvalid(await put(a, created.id, { stock: -1 }), 'stock');
    expect(await getProduct(a, created.id)).toEqual(created);
  });

  it('answers 404 NOT_FOUND for an unknown id', async () => {
    const res = await a.client.general.products.updateProduct({
      params: { id: MISSING_ID },
      body: { stock: 1 },
    });
    expectExactError(res, 404, 'NOT_FOUND');
  });

  it('treats an empty body as a no-op: 200 with the product as it was, no event; unknown id 404', async () => {
    const created = await createProduct(a, { currency: 'KWD', price: 1.234 });
    server().clock.advance(1000);
    const { result, events } = await withEvents(server(), a.businessId, () => put(a, created.id, {}));
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ data: created });
    expect(events).toEqual([]);
    const viaSdk = await a.client.general.products.updateProduct({ params: { id: created.id }, body: {} });
    expect(await unwrap(viaSdk)).toEqual({ data: created });
    expectExactError(await put(a, MISSING_ID, {}), 404, 'NOT_FOUND');
  });

  it("answers 404 NOT_FOUND for another business's product and leaves it unchanged", async () => {
    const theirs = await createProduct(b);
    const res = await a.client.general.products.updateProduct({
      params: { id: theirs.id },
      body: { name: 'Hijacked', price: 0 },
    });
    expectExactError(res, 404, 'NOT_FOUND');
    expect(await getProduct(b, theirs.id)).toEqual(theirs);
  });
});

describe('DELETE /v1/products/:id', () => {
  it('returns the deleted product, after which it is gone', async () => {
    const created = await createProduct(a, { description: 'bye' });
    const res = await a.client.general.products.deleteProduct({ params: { id: created.id } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: created });
    expectExactError(
      await a.client.general.products.getProduct({ params: { id: created.id } }),
      404,
      'NOT_FOUND',
    );
    expectExactError(
      await a.client.general.products.deleteProduct({ params: { id: created.id } }),
      404,
      'NOT_FOUND',
    );
    expect((await list(a, { sku: created.sku })).data).toEqual([]);
  });

  it('frees the SKU for a new product', async () => {
    const code = sku('REUSE');
    const first = await createProduct(a, { sku: code });
    await unwrap(a.client.general.products.deleteProduct({ params: { id: first.id } }));
    expect((await createProduct(a, { sku: code })).sku).toBe(code);
  });

  it('leaves invoice lines that named the product with their own description and price', async () => {
    const product = await createProduct(a, { name: 'Billed Widget', price: 12.5 });
    const customer = (await unwrap(a.client.general.customers.createCustomer({ body: { name: 'Buyer' } })))
      .data;
    const invoice = (
      await unwrap(
        a.client.general.invoices.createInvoice({
          body: {
            customer_id: customer.id,
            items: [{ product_id: product.id, quantity: 2 }],
            due_date: '2099-12-31',
          },
        }),
      )
    ).data;
    expect(invoice.items[0]).toMatchObject({
      product_id: product.id,
      description: 'Billed Widget',
      unit_price: 12.5,
    });

    expect(await unwrap(a.client.general.products.deleteProduct({ params: { id: product.id } }))).toEqual({
      data: product,
    });
    const after = (await unwrap(a.client.general.invoices.getInvoice({ params: { id: invoice.id } }))).data;
    expect(after.items[0]).toMatchObject({
      product_id: null,
      description: 'Billed Widget',
      quantity: 2,
      unit_price: 12.5,
      total: 25,
    });
    expect(after.total).toBe(invoice.total);
  });

  it('answers 404 NOT_FOUND for an unknown id', async () => {
    expectExactError(
      await a.client.general.products.deleteProduct({ params: { id: MISSING_ID } }),
      404,
      'NOT_FOUND',
    );
  });

  it("answers 404 NOT_FOUND for another business's product and leaves it in place", async () => {
    const theirs = await createProduct(b);
    expectExactError(
      await a.client.general.products.deleteProduct({ params: { id: theirs.id } }),
      404,
      'NOT_FOUND',
    );
    expect(await getProduct(b, theirs.id)).toEqual(theirs);
  });
});

describe('GET /v1/products', () => {
  let biz: TestBusiness;
  /** In creation order. */
  let created: Product[];

  beforeAll(async () => {
    biz = await registerBusiness(server(), 'Catalogue');
    const rows = [
      { name: 'Alpha Widget', sku: 'ALP-1', price: 5 },
      { name: 'Charlie Gadget', sku: 'CHA-3', price: 30 },
      { name: 'Bravo Gizmo', sku: 'BRA-2', price: 12.5 },
      { name: 'Delta Widget', sku: 'DEL-4', price: 0.99 },
      { name: 'Echo Thing', sku: 'ECH-5', price: 100 },
      { name: 'Foxtrot 50% off', sku: 'FOX_6', price: 7 },
    ];
    created = [];
    for (const row of rows) {
      created.push(await createProduct(biz, row));
      server().clock.advance(10);
    }
  });

  const names = (ps: Product[]) => ps.map((p) => p.name);
  const ids = (ps: Product[]) => ps.map((p) => p.id);

  it('lists newest first with default paging {page 1, limit 20}', async () => {
    const res = await biz.client.general.products.listProducts({ query: {} });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [...created].reverse(),
      pagination: { page: 1, limit: 20, total: 6, total_pages: 1 },
    });
  });

  it('pages with a small limit, returning every product exactly once', async () => {
    expect((await list(biz, { limit: 4 })).pagination).toEqual({
      page: 1,
      limit: 4,
      total: 6,
      total_pages: 2,
    });
    expect(await list(biz, { limit: 4, page: 3 })).toEqual({
      data: [],
      pagination: { page: 3, limit: 4, total: 6, total_pages: 2 },
    });
    expect(ids(await allPages(biz, 4))).toEqual(ids([...created].reverse()));
    for (const sort of ['price:asc', 'sku:desc', 'name:asc', 'created_at:asc']) {
      const paged = ids(await allPages(biz, 2, sort));
      expect(paged).toHaveLength(created.length);
      expect(new Set(paged)).toEqual(new Set(ids(created)));
    }
  });

  it('keeps pages stable when sort keys tie (ties broken by id)', async () => {
    const tie = await registerBusiness(server(), 'Tie Shop');
    server().clock.set(new Date().toISOString());
    const made: string[] = [];
    try {
      for (let i = 0; i < 5; i++) made.push((await createProduct(tie, { name: 'Same Name' })).id);
    } finally {
      server().clock.reset();
    }
    expect(ids(await allPages(tie, 2))).toEqual([...made].reverse());
    expect(ids(await allPages(tie, 2, 'created_at:asc'))).toEqual(made);
    // Equal names and prices tie too: ids order them in the sort's direction.
    expect(ids(await allPages(tie, 2, 'price:asc'))).toEqual(made);
    expect(ids(await allPages(tie, 2, 'price:desc'))).toEqual([...made].reverse());
    expect(ids(await allPages(tie, 2, 'name:asc'))).toEqual(made);
    expect(ids(await allPages(tie, 2, 'name:desc'))).toEqual([...made].reverse());
  });

  it('sorts by created_at both ways', async () => {
    expect(ids((await list(biz, { sort: 'created_at:asc' })).data)).toEqual(ids(created));
    expect(ids((await list(biz, { sort: 'created_at:desc' })).data)).toEqual(ids([...created].reverse()));
  });

  it('sorts by name both ways', async () => {
    const sorted = names(created).sort();
    expect(names((await list(biz, { sort: 'name:asc' })).data)).toEqual(sorted);
    expect(names((await list(biz, { sort: 'name:desc' })).data)).toEqual([...sorted].reverse());
  });

  it('sorts by sku both ways', async () => {
    const skus = created.map((p) => p.sku).sort();
    expect((await list(biz, { sort: 'sku:asc' })).data.map((p) => p.sku)).toEqual(skus);
    expect((await list(biz, { sort: 'sku:desc' })).data.map((p) => p.sku)).toEqual([...skus].reverse());
  });

  it('sorts by price numerically both ways', async () => {
    expect((await list(biz, { sort: 'price:asc' })).data.map((p) => p.price)).toEqual([
      0.99, 5, 7, 12.5, 30, 100,
    ]);
    expect((await list(biz, { sort: 'price:desc' })).data.map((p) => p.price)).toEqual([
      100, 30, 12.5, 7, 5, 0.99,
    ]);
  });

  it('filters by exact SKU', async () => {
    const res = await list(biz, { sku: 'BRA-2' });
    expect(res.data).toEqual([created[2]]);
    expect(res.pagination.total).toBe(1);
    expect((await list(biz, { sku: 'BRA' })).data).toEqual([]);
    expect((await list(biz, { sku: 'RA-2' })).data).toEqual([]);
  });

  it('searches name and SKU by case-insensitive substring', async () => {
    expect(names((await list(biz, { search: 'WIDGET', sort: 'name:asc' })).data)).toEqual([
      'Alpha Widget',
      'Delta Widget',
    ]);
    expect(names((await list(biz, { search: 'cha-3' })).data)).toEqual(['Charlie Gadget']);
    expect(names((await list(biz, { search: 'gizmo' })).data)).toEqual(['Bravo Gizmo']);
    expect(await list(biz, { search: 'nothing-here' })).toEqual({
      data: [],
      pagination: { page: 1, limit: 20, total: 0, total_pages: 0 },
    });
  });

  it('treats % and _ in search literally', async () => {
    expect(names((await list(biz, { search: '%' })).data)).toEqual(['Foxtrot 50% off']);
    expect(names((await list(biz, { search: '_' })).data)).toEqual(['Foxtrot 50% off']);
    expect((await list(biz, { search: 'A_P' })).data).toEqual([]);
  });

  it('combines filters with paging and counts only matches', async () => {
    const res = await list(biz, { search: 'widget', limit: 1, page: 2, sort: 'price:asc' });
    expect(names(res.data)).toEqual(['Alpha Widget']);
    expect(res.pagination).toEqual({ page: 2, limit: 1, total: 2, total_pages: 2 });
  });

  it.each([
    ['limit', { limit: 0 }],
    ['limit', { limit: 101 }],
    ['page', { page: 0 }],
    ['page', { page: -3 }],
  ])('refuses bad paging (%s) with 422', async (field, query) => {
    expectInvalid(await biz.client.general.products.listProducts({ query }), field);
  });

  it('refuses a non-numeric page (422)', async () => {
    expectInvalid(await raw(server(), 'GET', '/v1/products?page=two', { token: biz.accessToken }), 'page');
  });

  it.each([
    'email:asc',
    'stock:desc',
    'price',
    'price:up',
    'PRICE:asc',
    'price:asc,name:asc',
    'updated_at:asc',
  ])('refuses the sort %j (422)', async (sort) => {
    expectInvalid(await biz.client.general.products.listProducts({ query: { sort } }), 'sort');
  });

  it("never shows another business's products", async () => {
    expect(new Set(ids((await list(biz, { limit: 100 })).data))).toEqual(new Set(ids(created)));
    const ours = new Set(ids(created));
    expect((await list(b, { limit: 100 })).data.some((p) => ours.has(p.id))).toBe(false);
    expect((await list(b, { sku: 'ALP-1' })).data).toEqual([]);
    expect((await list(b, { search: 'Gadget' })).data).toEqual([]);
  });

  it('refuses a request without credentials (401 UNAUTHORIZED)', async () => {
    expectExactError(await raw(server(), 'GET', '/v1/products'), 401, 'UNAUTHORIZED');
  });
});

describe('events', () => {
  it('writes one product.created event whose data is the created product', async () => {
    const { result, events } = await withEvents(server(), a.businessId, () =>
      createProduct(a, { price: 1.234, currency: 'KWD', description: 'evented' }),
    );
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      business_id: a.businessId,
      type: 'product.created',
    });
    expect(events[0]?.id).toMatch(/^evt_/);
    expect(events[0]?.data).toEqual(result);
  });

  it('writes one product.updated event whose data is the updated product', async () => {
    const created = await createProduct(a, { price: 25 });
    const { result, events } = await withEvents(server(), a.businessId, () =>
      unwrap(
        a.client.general.products.updateProduct({ params: { id: created.id }, body: { currency: 'JPY' } }),
      ),
    );
    expect(events.map((e) => e.type)).toEqual(['product.updated']);
    expect(events[0]?.data).toEqual(result.data);
    expect(result.data).toMatchObject({ price: 25, currency: 'JPY' });
  });

  it('writes one product.deleted event whose data is the deleted product', async () => {
    const created = await createProduct(a);
    const { result, events } = await withEvents(server(), a.businessId, () =>
      unwrap(a.client.general.products.deleteProduct({ params: { id: created.id } })),
    );
    expect(events.map((e) => e.type)).toEqual(['product.deleted']);
    expect(events[0]?.data).toEqual(result.data);
    expect(events[0]?.data).toEqual(created);
  });

  it('writes no event for refused requests', async () => {
    const code = sku('EVT');
    const holder = await createProduct(a, { sku: code, price: 19.99 });
    const other = await createProduct(a);
    const { result, events } = await withEvents(server(), a.businessId, async () => [
      await a.client.general.products.createProduct({
        body: { name: 'Dup', sku: code.toLowerCase(), price: 1 },
      }),
      await a.client.general.products.updateProduct({ params: { id: other.id }, body: { sku: code } }),
      await post(a, { name: 'Bad', sku: sku(), price: 1.001 }),
      await put(a, holder.id, { currency: 'JPY' }),
      await a.client.general.products.updateProduct({ params: { id: MISSING_ID }, body: { stock: 1 } }),
      await a.client.general.products.deleteProduct({ params: { id: MISSING_ID } }),
    ]);
    expect(result.map((r) => r.status)).toEqual([409, 409, 422, 422, 404, 404]);
    expect(events).toEqual([]);
  });

  it("writes events under the acting business only, never another's", async () => {
    const { events: inB } = await withEvents(server(), b.businessId, () =>
      withEvents(server(), a.businessId, () => createProduct(a)),
    );
    expect(inB).toEqual([]);
  });

  it("has the worker's event relay mark the event dispatched", async () => {
    const { events } = await withEvents(server(), a.businessId, () => createProduct(a));
    expect(events).toHaveLength(1);
    const deadline = Date.now() + 10_000;
    let dispatchedAt: Date | null = null;
    while (!dispatchedAt && Date.now() < deadline) {
      const row = await server()
        .deps.db.selectFrom('events')
        .select('dispatched_at')
        .where('business_id', '=', a.businessId)
        .where('id', '=', itemAt(events, 0).id)
        .executeTakeFirstOrThrow();
      dispatchedAt = row.dispatched_at;
      if (!dispatchedAt) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(dispatchedAt, 'dispatched_at set by the event relay within 10 s').toBeInstanceOf(Date);
  });
});
