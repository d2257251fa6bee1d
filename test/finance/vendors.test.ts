import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { unwrap, type finance } from '../../client/index.js';
import { json, raw, registerBusiness, type TestBusiness } from '../support/business.js';
import { expectResultError, itemAt } from '../support/expect.js';
import { createVendor } from '../support/finance.js';
import { useTestServer } from '../support/setup.js';

// Tokens outlive the clock moves below.
const server = useTestServer({ env: { ACCESS_TOKEN_TTL: '3650d' }, worker: false });

const NOW = '2026-11-21T09:00:00.000Z';
const ID = /^ven_[0-9A-HJKMNP-TV-Z]{26}$/;
const MISSING_ID = 'ven_01JD7X2R5VQ8N3K4M6P9T1W2Y3';

beforeEach(() => server().clock.set(NOW));
afterEach(() => server().clock.reset());

type ListQuery = NonNullable<
  Parameters<TestBusiness['client']['finance']['vendors']['listVendors']>[0]
>['query'];

const api = (biz: TestBusiness) => biz.client.finance.vendors;
const list = (biz: TestBusiness, query: ListQuery = {}) => unwrap(api(biz).listVendors({ query }));
const get = (biz: TestBusiness, id: string) => api(biz).getVendor({ params: { id } });
const update = (biz: TestBusiness, id: string, body: finance.UpdateVendorBody) =>
  api(biz).updateVendor({ params: { id }, body });

/** Sends a body the typed client would refuse (unknown fields, wrong types). */
const post = (biz: TestBusiness, body: unknown) =>
  raw(server(), 'POST', '/v1/finance/vendors', { ...json(body), token: biz.accessToken });
const put = (biz: TestBusiness, id: string, body: unknown) =>
  raw(server(), 'PUT', `/v1/finance/vendors/${id}`, { ...json(body), token: biz.accessToken });

const FULL: finance.CreateVendorBody = {
  name: 'Acme Supplies',
  email: 'billing@acme.example',
  phone: '+1 555 0100',
  currency: 'EUR',
  tax_id: 'US-12-3456789',
  address: { line1: '1 Main St', city: 'Springfield', postal_code: '12345', country: 'US' },
};

let a: TestBusiness;
let b: TestBusiness;

beforeAll(async () => {
  [a, b] = await Promise.all([
    registerBusiness(server(), 'Alpha Ltd'),
    registerBusiness(server(), 'Beta Ltd'),
  ]);
});

describe('POST /v1/finance/vendors', () => {
  it('creates a vendor (201) answering its id, a message and the vendor with every field', async () => {
    const res = await api(a).createVendor({ body: FULL });
    expect(res.status).toBe(201);
    if (res.status !== 201) return;
    expect(res.body).toEqual({
      result: 'success',
      vendor_id: expect.stringMatching(ID),
      message: expect.any(String),
      vendor: {
        id: res.body.vendor_id,
        ...FULL,
        created_at: NOW,
        updated_at: NOW,
      },
    });
    expect((await unwrap(get(a, res.body.vendor_id))).vendor).toEqual(res.body.vendor);
  });

  it('needs only a name: currency and every other field are optional (null)', async () => {
    const vendor = (await unwrap(api(a).createVendor({ body: { name: 'Corner Shop' } }))).vendor;
    expect(vendor).toEqual({
      id: expect.stringMatching(ID),
      name: 'Corner Shop',
      email: null,
      phone: null,
      currency: null,
      tax_id: null,
      address: null,
      created_at: NOW,
      updated_at: NOW,
    });
  });

  it('trims the name and accepts explicit nulls', async () => {
    const vendor = (
      await unwrap(
        api(a).createVendor({ body: { name: '  Trimmed Co  ', currency: null, email: null, address: null } }),
      )
    ).vendor;
    expect(vendor).toMatchObject({ name: 'Trimmed Co', currency: null, email: null, address: null });
  });

  it.each([
    ['no name', { currency: 'USD' }, 'name'],
    ['an empty name', { name: '   ' }, 'name'],
    ['a name over 200 characters', { name: 'x'.repeat(201) }, 'name'],
    ['a malformed email', { name: 'Acme', email: 'not-an-email' }, 'email'],
    ['a lower-case currency', { name: 'Acme', currency: 'usd' }, 'currency'],
    ['an unknown currency', { name: 'Acme', currency: 'XYZ' }, 'currency'],
    ['a country that is no ISO code', { name: 'Acme', address: { country: 'USA' } }, 'address.country'],
    ['an unknown field', { name: 'Acme', website: 'https://acme.example' }, 'website'],
  ])('refuses %s (422 VALIDATION_ERROR naming the field); nothing is created', async (_, body, field) => {
    const before = (await list(a)).total_count;
    const res = await post(a, body);
    expectResultError(res, 422, 'VALIDATION_ERROR', field);
    expect((await list(a)).total_count).toBe(before);
  });
});

describe('GET /v1/finance/vendors', () => {
  it('lists newest first with total_count, limit and offset; another business sees none of them', async () => {
    const biz = await registerBusiness(server());
    const made: finance.Vendor[] = [];
    for (let i = 0; i < 5; i++) {
      made.push(await createVendor(biz.client, { name: `Vendor ${i}` }));
      server().clock.advance(1000);
    }
    const newestFirst = [...made].reverse().map((v) => v.id);

    const all = await list(biz);
    expect(all.total_count).toBe(5);
    expect(all.vendors.map((v) => v.id)).toEqual(newestFirst);
    expect(itemAt(all.vendors, 0)).toEqual(itemAt(made, -1));

    const page = await list(biz, { limit: 2, offset: 1 });
    expect(page.total_count).toBe(5);
    expect(page.vendors.map((v) => v.id)).toEqual(newestFirst.slice(1, 3));

    const last = await list(biz, { limit: 2, offset: 4 });
    expect(last.vendors.map((v) => v.id)).toEqual(newestFirst.slice(4));
    const beyond = await list(biz, { offset: 5 });
    expect(beyond).toEqual({ result: 'success', vendors: [], total_count: 5 });

    const other = await list(await registerBusiness(server()));
    expect(other).toEqual({ result: 'success', vendors: [], total_count: 0 });
  });

  it('orders vendors created in the same instant by id, newest first', async () => {
    const biz = await registerBusiness(server());
    const first = await createVendor(biz.client, { name: 'First' });
    const second = await createVendor(biz.client, { name: 'Second' });
    expect(first.created_at).toBe(second.created_at);
    expect((await list(biz)).vendors.map((v) => v.id)).toEqual([second.id, first.id]);
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=201', 'limit'],
    ['limit=abc', 'limit'],
    ['offset=-1', 'offset'],
  ])('refuses %s (422 naming the parameter)', async (query, field) => {
    const res = await raw(server(), 'GET', `/v1/finance/vendors?${query}`, { token: a.accessToken });
    expectResultError(res, 422, 'VALIDATION_ERROR', field);
  });

  it('accepts the largest page (limit=200)', async () => {
    const res = await list(a, { limit: 200 });
    expect(res.vendors.length).toBe(res.total_count);
  });
});

describe('GET /v1/finance/vendors/:id', () => {
  it('answers {result, vendor}', async () => {
    const vendor = await createVendor(a.client, FULL);
    const res = await get(a, vendor.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', vendor });
  });

  it("answers 404 NOT_FOUND for an unknown id and for another business's vendor", async () => {
    const vendor = await createVendor(a.client);
    expectResultError(await get(a, MISSING_ID), 404, 'NOT_FOUND');
    expectResultError(await get(b, vendor.id), 404, 'NOT_FOUND');
  });
});

describe('PUT /v1/finance/vendors/:id', () => {
  it('changes only the fields given and moves updated_at', async () => {
    const vendor = await createVendor(a.client, FULL);
    server().clock.advance(60_000);
    const res = await update(a, vendor.id, { phone: '+1 555 0199', currency: 'USD' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: 'success',
      message: expect.any(String),
      vendor: {
        ...vendor,
        phone: '+1 555 0199',
        currency: 'USD',
        updated_at: '2026-11-21T09:01:00.000Z',
      },
    });
    expect((await unwrap(get(a, vendor.id))).vendor).toEqual(res.status === 200 && res.body.vendor);
  });

  it('clears optional fields given as null, the address too', async () => {
    const vendor = await createVendor(a.client, FULL);
    const updated = (
      await unwrap(update(a, vendor.id, { email: null, currency: null, address: null, tax_id: null }))
    ).vendor;
    expect(updated).toEqual({ ...vendor, email: null, currency: null, address: null, tax_id: null });
  });

  it('replaces the address as a whole', async () => {
    const vendor = await createVendor(a.client, FULL);
    const updated = (await unwrap(update(a, vendor.id, { address: { city: 'Shelbyville' } }))).vendor;
    expect(updated.address).toEqual({ city: 'Shelbyville' });
  });

  it('changes nothing for an empty body (updated_at stays)', async () => {
    const vendor = await createVendor(a.client, FULL);
    server().clock.advance(60_000);
    const res = await update(a, vendor.id, {});
    expect(res.status).toBe(200);
    expect(res.status === 200 && res.body.vendor).toEqual(vendor);
  });

  it("answers 404 NOT_FOUND for an unknown id and for another business's vendor, which stays as it was", async () => {
    const vendor = await createVendor(a.client, FULL);
    expectResultError(await update(a, MISSING_ID, { name: 'Nobody' }), 404, 'NOT_FOUND');
    expectResultError(await update(a, MISSING_ID, {}), 404, 'NOT_FOUND');
    expectResultError(await update(b, vendor.id, { name: 'Hijacked' }), 404, 'NOT_FOUND');
    expect((await unwrap(get(a, vendor.id))).vendor).toEqual(vendor);
  });

  it.each([
    ['a null name', { name: null }, 'name'],
    ['an empty name', { name: '' }, 'name'],
    ['a malformed email', { email: 'nope' }, 'email'],
    ['an unknown currency', { currency: 'ABC' }, 'currency'],
    ['an unknown field', { website: 'x' }, 'website'],
  ])('refuses %s (422); the vendor stays as it was', async (_, body, field) => {
    const vendor = await createVendor(a.client, FULL);
    const res = await put(a, vendor.id, body);
    expectResultError(res, 422, 'VALIDATION_ERROR', field);
    expect((await unwrap(get(a, vendor.id))).vendor).toEqual(vendor);
  });
});
