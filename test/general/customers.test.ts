import { beforeAll, describe, expect, it } from 'vitest';
import { unwrap, type ErrorObject } from '../../client/index.js';
import type { Customer } from '../../contract/general/index.js';
import { json, raw, registerBusiness, uniqueEmail, type TestBusiness } from '../support/business.js';
import { withEvents } from '../support/events.js';
import { expectExactError, expectInvalid, itemAt } from '../support/expect.js';
import { useTestServer } from '../support/setup.js';
import { createCustomer } from '../support/general.js';

const server = useTestServer();

const ID = /^cus_[0-9A-HJKMNP-TV-Z]{26}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const MISSING_ID = 'cus_01JD7X2R5VQ8N3K4M6P9T1W2Y3';

type Client = TestBusiness['client']['general']['customers'];

/** Sends a body the typed client would refuse (unknown fields, wrong types). */
const post = (biz: TestBusiness, body: unknown) =>
  raw(server(), 'POST', '/v1/customers', { ...json(body), token: biz.accessToken });
const put = (biz: TestBusiness, id: string, body: unknown) =>
  raw(server(), 'PUT', `/v1/customers/${id}`, { ...json(body), token: biz.accessToken });

async function list(
  biz: TestBusiness,
  query: NonNullable<Parameters<Client['listCustomers']>[0]>['query'] = {},
) {
  return unwrap(biz.client.general.customers.listCustomers({ query }));
}

async function allPages(biz: TestBusiness, limit: number, sort?: string): Promise<Customer[]> {
  const out: Customer[] = [];
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
    registerBusiness(server(), 'Alpha Ltd'),
    registerBusiness(server(), 'Beta Ltd'),
  ]);
});

describe('POST /v1/customers', () => {
  it('creates a customer (201) echoing every field', async () => {
    const email = uniqueEmail('Ada');
    const body = {
      name: 'Ada King Lovelace',
      email,
      phone: '+44 20 7946 0000',
      company: 'Analytical Engines Ltd',
      address: {
        line1: '12 St James Square',
        line2: 'Flat 1',
        city: 'London',
        state: 'Greater London',
        postal_code: 'SW1Y 4JH',
        country: 'GB',
      },
      first_name: 'Augusta',
      last_name: 'Byron',
      attributes: { segment: 'vip', source: 'referral' },
      unsubscribed: true,
    };
    const res = await a.client.general.customers.createCustomer({ body });
    expect(res.status).toBe(201);
    if (res.status !== 201) return;
    const { data } = res.body;
    expect(data).toEqual({
      ...body,
      id: expect.stringMatching(ID),
      credit_balance: {},
      created_at: expect.stringMatching(ISO),
      updated_at: data.created_at,
    });
  });

  it('fills defaults and derives first_name/last_name from name at the first space', async () => {
    const data = await createCustomer(a.client, { name: 'Ada King Lovelace' });
    expect(data).toMatchObject({
      name: 'Ada King Lovelace',
      first_name: 'Ada',
      last_name: 'King Lovelace',
      email: null,
      phone: null,
      company: null,
      address: null,
      attributes: {},
      unsubscribed: false,
    });
  });

  it('derives only a first_name from a single-word name', async () => {
    const data = await createCustomer(a.client, { name: 'Plato' });
    expect(data).toMatchObject({ first_name: 'Plato', last_name: null });
  });

  it('trims the name before storing and deriving from it', async () => {
    const data = await createCustomer(a.client, { name: '   Grace Hopper  ' });
    expect(data).toMatchObject({ name: 'Grace Hopper', first_name: 'Grace', last_name: 'Hopper' });
  });

  it('lets given first_name/last_name win over the derived ones, each on its own', async () => {
    expect(await createCustomer(a.client, { name: 'Ada Lovelace', first_name: 'Augusta' })).toMatchObject({
      first_name: 'Augusta',
      last_name: 'Lovelace',
    });
    expect(await createCustomer(a.client, { name: 'Ada Lovelace', last_name: 'Byron' })).toMatchObject({
      first_name: 'Ada',
      last_name: 'Byron',
    });
    expect(
      await createCustomer(a.client, { name: 'Ada Lovelace', first_name: null, last_name: null }),
    ).toMatchObject({ first_name: null, last_name: null });
  });

  it('allows any number of customers without an email', async () => {
    const one = await createCustomer(a.client, { name: 'No Mail One' });
    const two = await createCustomer(a.client, { name: 'No Mail Two', email: null });
    expect(one.email).toBeNull();
    expect(two.email).toBeNull();
    expect(one.id).not.toBe(two.id);
  });

  it('refuses an email already used in the business, case-insensitively (409 CONFLICT)', async () => {
    const email = uniqueEmail('dup');
    await createCustomer(a.client, { name: 'First Holder', email });
    const same = await a.client.general.customers.createCustomer({ body: { name: 'Second', email } });
    expectExactError(same, 409, 'CONFLICT');
    const upper = await a.client.general.customers.createCustomer({
      body: { name: 'Third', email: email.toUpperCase() },
    });
    expectExactError(upper, 409, 'CONFLICT');
    const found = await list(a, { email });
    expect(found.data.map((c) => c.name)).toEqual(['First Holder']);
  });

  it('lets two businesses use the same email', async () => {
    const email = uniqueEmail('shared');
    const inA = await createCustomer(a.client, { name: 'Shared A', email });
    const inB = await createCustomer(b.client, { name: 'Shared B', email: email.toUpperCase() });
    expect(inA.email).toBe(email);
    expect(inB.email).toBe(email.toUpperCase());
  });

  it('refuses an unknown body field, naming it (422 VALIDATION_ERROR)', async () => {
    const res = await post(a, { name: 'Ada Lovelace', nickname: 'Ada' });
    expectInvalid(res, 'nickname');
    expect((res.body as { error: ErrorObject }).error.details).toContainEqual({
      field: 'nickname',
      message: 'Unknown field',
    });
  });

  it('refuses an unknown field inside the address (422)', async () => {
    expectInvalid(
      await post(a, { name: 'Ada', address: { line1: '1 Main St', floor: '3' } }),
      'address.floor',
    );
  });

  it('refuses a missing name (422)', async () => {
    expectInvalid(await post(a, { email: uniqueEmail() }), 'name');
  });

  it('refuses a blank name (422)', async () => {
    expectInvalid(await post(a, { name: '   ' }), 'name');
  });

  it.each([
    ['name', { name: 'x'.repeat(201) }],
    ['phone', { name: 'Ada', phone: '1'.repeat(41) }],
    ['company', { name: 'Ada', company: 'c'.repeat(201) }],
    ['first_name', { name: 'Ada', first_name: 'f'.repeat(101) }],
    ['last_name', { name: 'Ada', last_name: 'l'.repeat(101) }],
    ['address.line1', { name: 'Ada', address: { line1: 'a'.repeat(201) } }],
    ['address.postal_code', { name: 'Ada', address: { postal_code: '1'.repeat(21) } }],
    ['email', { name: 'Ada', email: `${'e'.repeat(250)}@example.test` }],
  ])('refuses %s over its maximum length (422)', async (field, body) => {
    expectInvalid(await post(a, body), field);
  });

  it('accepts strings at their maximum length', async () => {
    const data = await createCustomer(a.client, {
      name: 'n'.repeat(200),
      phone: '1'.repeat(40),
      company: 'c'.repeat(200),
      first_name: 'f'.repeat(100),
      last_name: 'l'.repeat(100),
    });
    expect(data.name).toHaveLength(200);
    expect(data.first_name).toHaveLength(100);
  });

  it.each(['not-an-email', 'ada@', '@example.test', 'ada lovelace@example.test'])(
    'refuses the invalid email %j (422)',
    async (email) => {
      expectInvalid(await post(a, { name: 'Ada', email }), 'email');
    },
  );

  it('refuses a country that is not a two-letter upper-case code (422)', async () => {
    expectInvalid(await post(a, { name: 'Ada', address: { country: 'gb' } }), 'address.country');
    expectInvalid(await post(a, { name: 'Ada', address: { country: 'GBR' } }), 'address.country');
  });

  it('accepts 50 attributes and refuses 51 (422)', async () => {
    const attrs = (n: number) =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`key${i}`, `v${i}`]));
    const ok = await createCustomer(a.client, { name: 'Fifty Keys', attributes: attrs(50) });
    expect(Object.keys(ok.attributes)).toHaveLength(50);
    expectInvalid(await post(a, { name: 'Fifty One Keys', attributes: attrs(51) }), 'attributes');
  });

  it('refuses an attribute key over 40 characters or a value over 500 (422)', async () => {
    for (const attributes of [{ ['k'.repeat(41)]: 'v' }, { key: 'v'.repeat(501) }, { key: 1 }]) {
      const res = await post(a, { name: 'Ada', attributes });
      expect(res.status).toBe(422);
      const fields = (res.body as { error: ErrorObject }).error.details!.map((d) => d.field);
      expect(fields.some((f) => f.startsWith('attributes'))).toBe(true);
    }
  });

  it('refuses wrongly typed fields (422)', async () => {
    expectInvalid(await post(a, { name: 42 }), 'name');
    expectInvalid(await post(a, { name: 'Ada', unsubscribed: 'yes' }), 'unsubscribed');
    expectInvalid(await post(a, { name: 'Ada', address: 'London' }), 'address');
  });

  it('refuses broken JSON (400 BAD_REQUEST in the general envelope)', async () => {
    const res = await raw(server(), 'POST', '/v1/customers', {
      headers: { 'content-type': 'application/json' },
      body: '{"name": "Ada',
      token: a.accessToken,
    });
    expectExactError(res, 400, 'BAD_REQUEST');
  });

  it('refuses a request without credentials (401 UNAUTHORIZED)', async () => {
    expectExactError(
      await raw(server(), 'POST', '/v1/customers', json({ name: 'Ada' })),
      401,
      'UNAUTHORIZED',
    );
  });
});

describe('GET /v1/customers/:id', () => {
  it('returns the customer as created', async () => {
    const created = await createCustomer(a.client, {
      name: 'Get Me',
      email: uniqueEmail(),
      attributes: { k: 'v' },
    });
    const res = await a.client.general.customers.getCustomer({ params: { id: created.id } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: created });
  });

  it('answers 404 NOT_FOUND for an unknown id', async () => {
    expectExactError(
      await a.client.general.customers.getCustomer({ params: { id: MISSING_ID } }),
      404,
      'NOT_FOUND',
    );
  });

  it('answers 404 NOT_FOUND for an id longer than 64 characters', async () => {
    const res = await a.client.general.customers.getCustomer({ params: { id: `cus_${'x'.repeat(80)}` } });
    expectExactError(res, 404, 'NOT_FOUND');
  });

  it("answers 404 NOT_FOUND for another business's customer", async () => {
    const theirs = await createCustomer(b.client, { name: 'Not Yours' });
    expectExactError(
      await a.client.general.customers.getCustomer({ params: { id: theirs.id } }),
      404,
      'NOT_FOUND',
    );
  });

  it('refuses a request without credentials (401 UNAUTHORIZED)', async () => {
    expectExactError(await raw(server(), 'GET', `/v1/customers/${MISSING_ID}`), 401, 'UNAUTHORIZED');
  });
});

describe('PUT /v1/customers/:id', () => {
  it('changes only the fields given and moves updated_at', async () => {
    const created = await createCustomer(a.client, {
      name: 'Partial Update',
      email: uniqueEmail(),
      company: 'Keep Me Inc',
      attributes: { tier: 'gold' },
    });
    server().clock.advance(1000);
    const res = await a.client.general.customers.updateCustomer({
      params: { id: created.id },
      body: { phone: '+1 555 0100', unsubscribed: true },
    });
    expect(res.status).toBe(200);
    if (res.status !== 200) return;
    const { data } = res.body;
    expect(data).toEqual({
      ...created,
      phone: '+1 555 0100',
      unsubscribed: true,
      updated_at: expect.stringMatching(ISO),
    });
    expect(Date.parse(data.updated_at)).toBeGreaterThan(Date.parse(created.updated_at));
    expect(await unwrap(a.client.general.customers.getCustomer({ params: { id: created.id } }))).toEqual({
      data,
    });
  });

  it('updates every field at once', async () => {
    const created = await createCustomer(a.client, { name: 'Everything Changes' });
    const body = {
      name: 'Mary Fairfax Somerville',
      email: uniqueEmail('mary'),
      phone: '+44 1',
      company: 'Royal Society',
      address: { line1: '1 Burntisland Rd', city: 'Jedburgh', country: 'GB' },
      first_name: 'Mary',
      last_name: 'Somerville',
      attributes: { field: 'astronomy' },
      unsubscribed: true,
    };
    const { data } = await unwrap(
      a.client.general.customers.updateCustomer({ params: { id: created.id }, body }),
    );
    expect(data).toEqual({
      ...body,
      id: created.id,
      credit_balance: {},
      created_at: created.created_at,
      updated_at: data.updated_at,
    });
  });

  it('re-derives first_name/last_name when the name changes and they are not given', async () => {
    const created = await createCustomer(a.client, { name: 'Ada Lovelace' });
    const { data } = await unwrap(
      a.client.general.customers.updateCustomer({
        params: { id: created.id },
        body: { name: 'Grace Brewster Hopper' },
      }),
    );
    expect(data).toMatchObject({
      name: 'Grace Brewster Hopper',
      first_name: 'Grace',
      last_name: 'Brewster Hopper',
    });
  });

  it('keeps given first_name/last_name over the derived ones on a rename', async () => {
    const created = await createCustomer(a.client, { name: 'Ada Lovelace' });
    const both = await unwrap(
      a.client.general.customers.updateCustomer({
        params: { id: created.id },
        body: { name: 'Grace Hopper', first_name: 'Amazing', last_name: 'Grace' },
      }),
    );
    expect(both.data).toMatchObject({ name: 'Grace Hopper', first_name: 'Amazing', last_name: 'Grace' });
    const first = await unwrap(
      a.client.general.customers.updateCustomer({
        params: { id: created.id },
        body: { name: 'Katherine Johnson', first_name: 'Kate' },
      }),
    );
    // The part not given is re-derived from the new name.
    expect(first.data).toMatchObject({ name: 'Katherine Johnson', first_name: 'Kate', last_name: 'Johnson' });
  });

  it('leaves first_name/last_name alone when the name does not change', async () => {
    const created = await createCustomer(a.client, { name: 'Ada Lovelace', first_name: 'Augusta' });
    const { data } = await unwrap(
      a.client.general.customers.updateCustomer({ params: { id: created.id }, body: { company: 'AE Ltd' } }),
    );
    expect(data).toMatchObject({ first_name: 'Augusta', last_name: 'Lovelace', company: 'AE Ltd' });
  });

  it('clears nullable fields with null and replaces attributes whole', async () => {
    const created = await createCustomer(a.client, {
      name: 'Clear Me',
      email: uniqueEmail(),
      phone: '123',
      company: 'Co',
      address: { city: 'Paris' },
      attributes: { a: '1', b: '2' },
    });
    const { data } = await unwrap(
      a.client.general.customers.updateCustomer({
        params: { id: created.id },
        body: { email: null, phone: null, company: null, address: null, attributes: { c: '3' } },
      }),
    );
    expect(data).toMatchObject({
      email: null,
      phone: null,
      company: null,
      address: null,
      attributes: { c: '3' },
    });
  });

  it("refuses another customer's email, case-insensitively (409 CONFLICT), and changes nothing", async () => {
    const email = uniqueEmail('taken');
    await createCustomer(a.client, { name: 'Holder', email });
    const other = await createCustomer(a.client, { name: 'Other', email: uniqueEmail() });
    for (const candidate of [email, email.toUpperCase()]) {
      const res = await a.client.general.customers.updateCustomer({
        params: { id: other.id },
        body: { email: candidate, phone: '999' },
      });
      expectExactError(res, 409, 'CONFLICT');
    }
    expect(await unwrap(a.client.general.customers.getCustomer({ params: { id: other.id } }))).toEqual({
      data: other,
    });
  });

  it('lets a customer change the case of its own email', async () => {
    const email = uniqueEmail('mine');
    const created = await createCustomer(a.client, { name: 'Self', email });
    const { data } = await unwrap(
      a.client.general.customers.updateCustomer({
        params: { id: created.id },
        body: { email: email.toUpperCase() },
      }),
    );
    expect(data.email).toBe(email.toUpperCase());
  });

  it('refuses invalid bodies (422) and changes nothing', async () => {
    const created = await createCustomer(a.client, { name: 'Validate Update' });
    expectInvalid(await put(a, created.id, { nickname: 'x' }), 'nickname');
    expectInvalid(await put(a, created.id, { name: '' }), 'name');
    expectInvalid(await put(a, created.id, { name: 'y'.repeat(201) }), 'name');
    expectInvalid(await put(a, created.id, { email: 'nope' }), 'email');
    expectInvalid(
      await put(a, created.id, {
        attributes: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])),
      }),
      'attributes',
    );
    expect(await unwrap(a.client.general.customers.getCustomer({ params: { id: created.id } }))).toEqual({
      data: created,
    });
  });

  it('answers 404 NOT_FOUND for an unknown id', async () => {
    const res = await a.client.general.customers.updateCustomer({
      params: { id: MISSING_ID },
      body: { phone: '1' },
    });
    expectExactError(res, 404, 'NOT_FOUND');
  });

  it('treats an empty body as a no-op: 200 with the customer as it was, no event; unknown id 404', async () => {
    const created = await createCustomer(a.client, { name: 'Left Alone', email: uniqueEmail() });
    server().clock.advance(1000);
    const { result, events } = await withEvents(server(), a.businessId, () => put(a, created.id, {}));
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ data: created });
    expect(events).toEqual([]);
    const viaSdk = await a.client.general.customers.updateCustomer({ params: { id: created.id }, body: {} });
    expect(await unwrap(viaSdk)).toEqual({ data: created });
    expectExactError(await put(a, MISSING_ID, {}), 404, 'NOT_FOUND');
  });

  it("answers 404 NOT_FOUND for another business's customer and leaves it unchanged", async () => {
    const theirs = await createCustomer(b.client, { name: 'Their Customer', email: uniqueEmail() });
    const res = await a.client.general.customers.updateCustomer({
      params: { id: theirs.id },
      body: { name: 'Hijacked' },
    });
    expectExactError(res, 404, 'NOT_FOUND');
    expect(await unwrap(b.client.general.customers.getCustomer({ params: { id: theirs.id } }))).toEqual({
      data: theirs,
    });
  });
});

describe('DELETE /v1/customers/:id', () => {
  it('returns the deleted customer, after which it is gone', async () => {
    const created = await createCustomer(a.client, { name: 'Delete Me', email: uniqueEmail() });
    const res = await a.client.general.customers.deleteCustomer({ params: { id: created.id } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: created });
    expectExactError(
      await a.client.general.customers.getCustomer({ params: { id: created.id } }),
      404,
      'NOT_FOUND',
    );
    expectExactError(
      await a.client.general.customers.deleteCustomer({ params: { id: created.id } }),
      404,
      'NOT_FOUND',
    );
    const found = await list(a, { email: created.email! });
    expect(found.data).toEqual([]);
  });

  it('frees the email for a new customer', async () => {
    const email = uniqueEmail('reuse');
    const first = await createCustomer(a.client, { name: 'First', email });
    await unwrap(a.client.general.customers.deleteCustomer({ params: { id: first.id } }));
    const second = await createCustomer(a.client, { name: 'Second', email });
    expect(second.email).toBe(email);
  });

  it('refuses to delete a customer who has an invoice (409 RESOURCE_IN_USE)', async () => {
    const created = await createCustomer(a.client, { name: 'Has Invoice' });
    await unwrap(
      a.client.general.invoices.createInvoice({
        body: {
          customer_id: created.id,
          items: [{ description: 'Consulting', quantity: 1, unit_price: 100 }],
          due_date: '2099-12-31',
        },
      }),
    );
    const { result, events } = await withEvents(server(), a.businessId, () =>
      a.client.general.customers.deleteCustomer({ params: { id: created.id } }),
    );
    expectExactError(result, 409, 'RESOURCE_IN_USE');
    expect(events).toEqual([]);
    expect(await unwrap(a.client.general.customers.getCustomer({ params: { id: created.id } }))).toEqual({
      data: created,
    });
  });

  it('answers 404 NOT_FOUND for an unknown id', async () => {
    expectExactError(
      await a.client.general.customers.deleteCustomer({ params: { id: MISSING_ID } }),
      404,
      'NOT_FOUND',
    );
  });

  it("answers 404 NOT_FOUND for another business's customer and leaves it in place", async () => {
    const theirs = await createCustomer(b.client, { name: 'Keep Me' });
    expectExactError(
      await a.client.general.customers.deleteCustomer({ params: { id: theirs.id } }),
      404,
      'NOT_FOUND',
    );
    expect(await unwrap(b.client.general.customers.getCustomer({ params: { id: theirs.id } }))).toEqual({
      data: theirs,
    });
  });
});

describe('GET /v1/customers', () => {
  let biz: TestBusiness;
  /** In creation order. */
  let created: Customer[];

  beforeAll(async () => {
    biz = await registerBusiness(server(), 'Lister');
    const rows = [
      { name: 'Charlie Chaplin', email: 'charlie@films.test', company: 'United Artists' },
      { name: 'Alice Liddell', email: 'alice@wonder.test', company: 'Looking Glass Ltd' },
      { name: 'Echo Park' },
      { name: 'Bravo Baker', email: 'bravo@bakery.test', company: 'Baker and Sons' },
      { name: 'Delta Dawn', email: 'delta@films.test' },
      { name: 'Foxtrot 100% Real', email: 'foxtrot@example.test' },
      { name: 'Golf_Club Member', email: 'golf@example.test' },
    ];
    created = [];
    for (const row of rows) {
      created.push(await createCustomer(biz.client, row));
      server().clock.advance(10);
    }
  });

  const names = (cs: Customer[]) => cs.map((c) => c.name);

  it('lists newest first with default paging {page 1, limit 20}', async () => {
    const res = await biz.client.general.customers.listCustomers({ query: {} });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [...created].reverse(),
      pagination: { page: 1, limit: 20, total: 7, total_pages: 1 },
    });
  });

  it('pages with a small limit, returning every customer exactly once', async () => {
    const first = await list(biz, { limit: 3 });
    expect(first.pagination).toEqual({ page: 1, limit: 3, total: 7, total_pages: 3 });
    const last = await list(biz, { limit: 3, page: 3 });
    expect(last.data).toHaveLength(1);
    const beyond = await list(biz, { limit: 3, page: 4 });
    expect(beyond).toEqual({ data: [], pagination: { page: 4, limit: 3, total: 7, total_pages: 3 } });

    const paged = await allPages(biz, 3);
    expect(paged.map((c) => c.id)).toEqual([...created].reverse().map((c) => c.id));
    for (const sort of ['name:asc', 'email:desc', 'created_at:asc']) {
      const ids = (await allPages(biz, 2, sort)).map((c) => c.id);
      expect(ids).toHaveLength(created.length);
      expect(new Set(ids)).toEqual(new Set(created.map((c) => c.id)));
    }
  });

  it('accepts limit 100', async () => {
    expect((await list(biz, { limit: 100 })).pagination).toEqual({
      page: 1,
      limit: 100,
      total: 7,
      total_pages: 1,
    });
  });

  it('sorts by created_at ascending', async () => {
    expect((await list(biz, { sort: 'created_at:asc' })).data.map((c) => c.id)).toEqual(
      created.map((c) => c.id),
    );
    expect((await list(biz, { sort: 'created_at:desc' })).data.map((c) => c.id)).toEqual(
      [...created].reverse().map((c) => c.id),
    );
  });

  it('sorts by name both ways', async () => {
    const sorted = names(created).sort();
    expect(names((await list(biz, { sort: 'name:asc' })).data)).toEqual(sorted);
    expect(names((await list(biz, { sort: 'name:desc' })).data)).toEqual([...sorted].reverse());
  });

  it('sorts by email both ways', async () => {
    const emails = created.flatMap((c) => (c.email ? [c.email] : [])).sort();
    const asc = (await list(biz, { sort: 'email:asc' })).data.flatMap((c) => (c.email ? [c.email] : []));
    const desc = (await list(biz, { sort: 'email:desc' })).data.flatMap((c) => (c.email ? [c.email] : []));
    expect(asc).toEqual(emails);
    expect(desc).toEqual([...emails].reverse());
  });

  it('keeps pages stable when sort keys tie (ties broken by id)', async () => {
    const tie = await registerBusiness(server(), 'Ties');
    server().clock.set(new Date().toISOString());
    const ids: string[] = [];
    try {
      for (let i = 0; i < 5; i++) ids.push((await createCustomer(tie.client, { name: 'Same Name' })).id);
    } finally {
      server().clock.reset();
    }
    const paged = (await allPages(tie, 2)).map((c) => c.id);
    expect(paged).toEqual([...ids].reverse());
    const asc = (await allPages(tie, 2, 'created_at:asc')).map((c) => c.id);
    expect(asc).toEqual(ids);
    // Equal names (and equal, null, emails) tie too: ids order them in the sort's direction.
    expect((await allPages(tie, 2, 'name:asc')).map((c) => c.id)).toEqual(ids);
    expect((await allPages(tie, 2, 'name:desc')).map((c) => c.id)).toEqual([...ids].reverse());
    expect((await allPages(tie, 2, 'email:asc')).map((c) => c.id)).toEqual(ids);
  });

  it('filters by exact email, case-insensitively', async () => {
    const res = await list(biz, { email: 'ALICE@Wonder.TEST' });
    expect(res.data).toEqual([created[1]]);
    expect(res.pagination.total).toBe(1);
    expect((await list(biz, { email: 'alice@wonder' })).data).toEqual([]);
    expect((await list(biz, { email: 'lice@wonder.test' })).data).toEqual([]);
  });

  it('searches name, email and company by case-insensitive substring', async () => {
    expect(names((await list(biz, { search: 'ALICE' })).data)).toEqual(['Alice Liddell']);
    expect(names((await list(biz, { search: 'films', sort: 'name:asc' })).data)).toEqual([
      'Charlie Chaplin',
      'Delta Dawn',
    ]);
    expect(names((await list(biz, { search: 'looking glass' })).data)).toEqual(['Alice Liddell']);
    expect(names((await list(biz, { search: 'and sons' })).data)).toEqual(['Bravo Baker']);
    const none = await list(biz, { search: 'zzz-nothing' });
    expect(none).toEqual({ data: [], pagination: { page: 1, limit: 20, total: 0, total_pages: 0 } });
  });

  it('treats % and _ in search literally', async () => {
    expect(names((await list(biz, { search: '%' })).data)).toEqual(['Foxtrot 100% Real']);
    expect(names((await list(biz, { search: '_' })).data)).toEqual(['Golf_Club Member']);
  });

  it('combines filters with paging and counts only matches', async () => {
    const res = await list(biz, { search: 'example.test', limit: 1, sort: 'name:asc' });
    expect(names(res.data)).toEqual(['Foxtrot 100% Real']);
    expect(res.pagination).toEqual({ page: 1, limit: 1, total: 2, total_pages: 2 });
  });

  it.each([
    ['limit', { limit: 0 }],
    ['limit', { limit: 101 }],
    ['page', { page: 0 }],
    ['page', { page: -1 }],
    ['limit', { limit: 2.5 }],
  ])('refuses bad paging (%s) with 422', async (field, query) => {
    expectInvalid(await biz.client.general.customers.listCustomers({ query }), field);
  });

  it('refuses a non-numeric limit (422)', async () => {
    expectInvalid(await raw(server(), 'GET', '/v1/customers?limit=abc', { token: biz.accessToken }), 'limit');
  });

  it.each([
    'phone:asc',
    'price:asc',
    'name',
    'name:up',
    'NAME:asc',
    'name:ASC',
    'name:asc,email:desc',
    ':asc',
  ])('refuses the sort %j (422)', async (sort) => {
    expectInvalid(await biz.client.general.customers.listCustomers({ query: { sort } }), 'sort');
  });

  it("never shows another business's customers", async () => {
    const mine = await list(biz, { limit: 100 });
    expect(mine.data.map((c) => c.id).sort()).toEqual(created.map((c) => c.id).sort());
    const theirs = await list(b, { limit: 100 });
    const ours = new Set(created.map((c) => c.id));
    expect(theirs.data.some((c) => ours.has(c.id))).toBe(false);
    expect((await list(b, { email: 'alice@wonder.test' })).data).toEqual([]);
    expect((await list(b, { search: 'Liddell' })).data).toEqual([]);
  });

  it('refuses a request without credentials (401 UNAUTHORIZED)', async () => {
    expectExactError(await raw(server(), 'GET', '/v1/customers'), 401, 'UNAUTHORIZED');
  });
});

describe('events', () => {
  it('writes one customer.created event whose data is the created customer', async () => {
    const { result, events } = await withEvents(server(), a.businessId, () =>
      createCustomer(a.client, { name: 'Evented Customer', email: uniqueEmail(), attributes: { x: 'y' } }),
    );
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      business_id: a.businessId,
      type: 'customer.created',
    });
    expect(events[0]?.id).toMatch(/^evt_/);
    expect(events[0]?.data).toEqual(result);
  });

  it('writes one customer.updated event whose data is the updated customer', async () => {
    const created = await createCustomer(a.client, { name: 'Update Event' });
    const { result, events } = await withEvents(server(), a.businessId, () =>
      unwrap(
        a.client.general.customers.updateCustomer({
          params: { id: created.id },
          body: { name: 'Renamed Event' },
        }),
      ),
    );
    expect(events.map((e) => e.type)).toEqual(['customer.updated']);
    expect(events[0]?.data).toEqual(result.data);
    expect(result.data.first_name).toBe('Renamed');
  });

  it('writes one customer.deleted event whose data is the deleted customer', async () => {
    const created = await createCustomer(a.client, { name: 'Delete Event', company: 'Gone Ltd' });
    const { result, events } = await withEvents(server(), a.businessId, () =>
      unwrap(a.client.general.customers.deleteCustomer({ params: { id: created.id } })),
    );
    expect(events.map((e) => e.type)).toEqual(['customer.deleted']);
    expect(events[0]?.data).toEqual(result.data);
    expect(events[0]?.data).toEqual(created);
  });

  it('writes no event for refused requests', async () => {
    const email = uniqueEmail('refused');
    const holder = await createCustomer(a.client, { name: 'Holder', email });
    const other = await createCustomer(a.client, { name: 'Other' });
    const { result, events } = await withEvents(server(), a.businessId, async () => [
      await a.client.general.customers.createCustomer({ body: { name: 'Dup', email: email.toUpperCase() } }),
      await a.client.general.customers.updateCustomer({ params: { id: other.id }, body: { email } }),
      await post(a, { name: 'Bad', unknown: true }),
      await put(a, holder.id, { email: 'bad' }),
      await a.client.general.customers.updateCustomer({ params: { id: MISSING_ID }, body: { name: 'X' } }),
      await a.client.general.customers.deleteCustomer({ params: { id: MISSING_ID } }),
    ]);
    expect(result.map((r) => r.status)).toEqual([409, 409, 422, 422, 404, 404]);
    expect(events).toEqual([]);
  });

  it("writes events under the acting business only, never another's", async () => {
    const { events: inB } = await withEvents(server(), b.businessId, () =>
      withEvents(server(), a.businessId, () => createCustomer(a.client, { name: 'A Only' })),
    );
    expect(inB).toEqual([]);
  });

  it("has the worker's event relay mark the event dispatched", async () => {
    const { events } = await withEvents(server(), a.businessId, () =>
      createCustomer(a.client, { name: 'Dispatch Me' }),
    );
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
