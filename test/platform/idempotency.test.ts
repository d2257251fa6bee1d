import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import pg from 'pg';
import {
  IDEMPOTENCY_RETENTION_MS,
  lockIdOf,
  purgeIdempotencyKeys,
} from '../../server/platform/idempotency.js';
import {
  registerBusiness,
  registerShop,
  registerTenant,
  uniqueEmail,
  type TestBusiness,
  type TestShop,
} from '../support/business.js';
import { onPostgres } from '../support/database.js';
import { expectError, expectInvalid, expectResultError } from '../support/expect.js';
import { customerRows, memberRows, transactionRows } from '../support/loyalty.js';
import { useTestServer } from '../support/setup.js';

// Tokens outlive the clock moves below; the pool lets 20 concurrent requests really run at once.
const server = useTestServer({ env: { DB_POOL_SIZE: '30', ACCESS_TOKEN_TTL: '3650d' } });

afterEach(() => server().clock.reset());

const HOUR_MS = 60 * 60 * 1000;
const EARN = '/v1/public/loyalty/earn';

interface Sent {
  status: number;
  headers: Headers;
  /** The body exactly as received, to compare a replay byte for byte. */
  text: string;
  body: any;
}

interface Send {
  /** Idempotency-Key header. */
  key?: string;
  token?: string;
  apiKey?: string;
  /** Sent as is instead of JSON.stringify(body). */
  rawBody?: string;
  method?: string;
}

async function send(path: string, body: unknown, init: Send = {}): Promise<Sent> {
  const method = init.method ?? 'POST';
  const headers: Record<string, string> = {};
  if (method !== 'GET') headers['content-type'] = 'application/json';
  if (init.key !== undefined) headers['idempotency-key'] = init.key;
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.apiKey) headers['x-api-key'] = init.apiKey;
  const res = await fetch(`${server().baseUrl}${path}`, {
    method,
    headers,
    body: method === 'GET' ? undefined : (init.rawBody ?? JSON.stringify(body)),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON; keep the text
  }
  return { status: res.status, headers: res.headers, text, body: parsed };
}

const newKey = (tag = 'key') => `${tag}-${randomUUID()}`;

const earn = (shop: TestShop, body: Record<string, unknown>, key?: string) =>
  send(EARN, body, { apiKey: shop.apiKey, key });

const createCustomer = (business: TestBusiness, body: Record<string, unknown>, key?: string) =>
  send('/v1/customers', body, { token: business.accessToken, key });

const db = () => server().deps.db;

const keyRow = (businessId: string, key: string) =>
  db()
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('key', '=', key)
    .executeTakeFirst();

/**
 * Holds a key as a request of another process still running does: its advisory lock, taken on a
 * connection of its own (PostgreSQL only; PGlite runs one request's transaction at a time).
 */
async function holdKey(businessId: string, key: string): Promise<{ release(): Promise<void> }> {
  const client = new pg.Client({ connectionString: server().deps.database.connectionString });
  await client.connect();
  await client.query('SELECT pg_advisory_lock($1::bigint)', [lockIdOf(businessId, key).toString()]);
  return { release: () => client.end() };
}

function expectReplayOf(replay: Sent, first: Sent): void {
  expect(replay.status).toBe(first.status);
  expect(replay.text).toBe(first.text);
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  expect(replay.headers.get('content-type')).toMatch(/^application\/json/);
}

describe('Idempotency-Key: a retry replays the first response', () => {
  it('replays POST /v1/customers: same 201, byte-identical body, Idempotent-Replayed: true, one customer', async () => {
    const business = await registerBusiness(server());
    const key = newKey();
    const body = { name: 'Grace Hopper', email: 'grace@example.test' };
    const first = await createCustomer(business, body, key);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const replay = await createCustomer(business, body, key);
    expectReplayOf(replay, first);
    expect(replay.body.data.id).toBe(first.body.data.id);
    const rows = await customerRows(server(), business.businessId);
    expect(rows.map((r) => r.id)).toEqual([first.body.data.id]);
  });

  it('replays a public earn: one loyalty transaction, the balance credited once', async () => {
    const shop = await registerShop(server());
    const key = newKey('earn');
    const body = { email: uniqueEmail('member'), amount: 12.5 };
    const first = await earn(shop, body, key);
    expect(first.status, first.text).toBe(200);
    expect(first.body).toEqual({
      result: 'success',
      data: { pointsEarned: 125, multiplierApplied: 1, newBalance: 125, tierName: null },
    });
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const replays = [await earn(shop, body, key), await earn(shop, body, key)];
    for (const replay of replays) expectReplayOf(replay, first);
    const transactions = await transactionRows(server(), shop.businessId);
    expect(transactions).toHaveLength(1);
    expect(transactions[0]).toMatchObject({ type: 'earn', points: 125 });
    const members = await memberRows(server(), shop.businessId);
    expect(members).toHaveLength(1);
    expect(members[0]).toMatchObject({ points_balance: 125, lifetime_points: 125 });
  });

  it('replays an invoice payment: one payment row, the invoice paid once', async () => {
    const tenant = await registerTenant(server());
    const invoices = tenant.client.general.invoices;
    const { data: draft } = await unwrap(
      invoices.createInvoice({
        body: {
          customer_id: tenant.customerId,
          items: [{ description: 'Consulting', quantity: 1, unit_price: 100 }],
          due_date: '2099-12-31',
        },
      }),
    );
    await unwrap(invoices.issueInvoice({ params: { id: draft.id } }));
    const path = `/v1/invoices/${draft.id}/payments`;
    const key = newKey('pay');
    const body = { amount: 40, payment_method: 'card' };
    const first = await send(path, body, { token: tenant.accessToken, key });
    expect(first.status, first.text).toBe(201);
    expect(first.body.data).toMatchObject({ amount_paid: 40, amount_due: 60, status: 'unpaid' });
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const replay = await send(path, body, { token: tenant.accessToken, key });
    expectReplayOf(replay, first);
    const payments = await db()
      .selectFrom('payments')
      .selectAll()
      .where('business_id', '=', tenant.businessId)
      .execute();
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({ invoice_id: draft.id, amount_minor: 4000 });
    const { data: invoice } = await unwrap(invoices.getInvoice({ params: { id: draft.id } }));
    expect(invoice).toMatchObject({ amount_paid: 40, amount_due: 60 });
  });

  it('does not deduplicate POSTs sent without a key', async () => {
    const shop = await registerShop(server());
    const body = { email: uniqueEmail('member'), amount: 1 };
    expect((await earn(shop, body)).status).toBe(200);
    const second = await earn(shop, body);
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    expect(second.body.data.newBalance).toBe(20);
    expect(await transactionRows(server(), shop.businessId)).toHaveLength(2);
  });

  it('stores the response sealed, as the exact text sent', async () => {
    const business = await registerBusiness(server());
    const key = newKey();
    const first = await createCustomer(business, { name: 'Sealed Ltd' }, key);
    expect(first.status).toBe(201);
    const row = await keyRow(business.businessId, key);
    expect(row).toMatchObject({ status_code: 201 });
    expect(row!.response_body).not.toContain('Sealed Ltd');
    expect(server().deps.secrets.open(row!.response_body)).toBe(first.text);
  });

  it('honours the key on a differently cased public path (routing ignores case)', async () => {
    const shop = await registerShop(server());
    const key = newKey('case');
    const body = { email: uniqueEmail('member'), amount: 2 };
    const path = '/V1/Public/Loyalty/Earn';
    const first = await send(path, body, { apiKey: shop.apiKey, key });
    expect(first.status, first.text).toBe(200);
    const replay = await send(path, body, { apiKey: shop.apiKey, key });
    expectReplayOf(replay, first);
    expect(await transactionRows(server(), shop.businessId)).toHaveLength(1);
  });
});

describe('Idempotency-Key: the same key with another request', () => {
  it('refuses a different body (422 IDEMPOTENCY_KEY_REUSED, general envelope) and creates nothing', async () => {
    const business = await registerBusiness(server());
    const key = newKey();
    expect((await createCustomer(business, { name: 'First Co' }, key)).status).toBe(201);
    const reused = await createCustomer(business, { name: 'Second Co' }, key);
    expectError(reused, 422, 'IDEMPOTENCY_KEY_REUSED');
    expect(reused.body).toEqual({
      error: { code: 'IDEMPOTENCY_KEY_REUSED', status: 422, message: expect.any(String) },
    });
    expect(reused.headers.get('idempotent-replayed')).toBeNull();
    expect((await customerRows(server(), business.businessId)).map((c) => c.name)).toEqual(['First Co']);
  });

  it('refuses a public earn with another amount (422 IDEMPOTENCY_KEY_REUSED, result envelope), crediting nothing', async () => {
    const shop = await registerShop(server());
    const key = newKey('earn');
    const email = uniqueEmail('member');
    expect((await earn(shop, { email, amount: 3 }, key)).status).toBe(200);
    expectResultError(await earn(shop, { email, amount: 4 }, key), 422, 'IDEMPOTENCY_KEY_REUSED');
    expect(await transactionRows(server(), shop.businessId)).toHaveLength(1);
    expect((await memberRows(server(), shop.businessId))[0]?.points_balance).toBe(30);
  });

  it('refuses the same body on another path (422 IDEMPOTENCY_KEY_REUSED)', async () => {
    const business = await registerBusiness(server());
    const key = newKey();
    expect((await createCustomer(business, { name: 'Widget' }, key)).status).toBe(201);
    const product = await send(
      '/v1/products',
      { name: 'Widget', sku: 'W-1', price: 1 },
      { token: business.accessToken, key },
    );
    expectError(product, 422, 'IDEMPOTENCY_KEY_REUSED');
    const products = await db()
      .selectFrom('products')
      .select('id')
      .where('business_id', '=', business.businessId)
      .execute();
    expect(products).toEqual([]);
  });

  it('refuses the same body with another query string (the URL is part of the request)', async () => {
    const business = await registerBusiness(server());
    const key = newKey();
    expect((await createCustomer(business, { name: 'Query Co' }, key)).status).toBe(201);
    const other = await send('/v1/customers?x=1', { name: 'Query Co' }, { token: business.accessToken, key });
    expectError(other, 422, 'IDEMPOTENCY_KEY_REUSED');
    expect(await customerRows(server(), business.businessId)).toHaveLength(1);
  });
});

describe('Idempotency-Key: keys are scoped to the business', () => {
  it("runs business B's request normally under a key A already used, and keeps A's replay", async () => {
    const a = await registerBusiness(server());
    const b = await registerBusiness(server());
    const key = newKey('shared');
    const body = { name: 'Same Name Ltd' };
    const fromA = await createCustomer(a, body, key);
    expect(fromA.status).toBe(201);
    const fromB = await createCustomer(b, body, key);
    expect(fromB.status).toBe(201);
    expect(fromB.headers.get('idempotent-replayed')).toBeNull();
    expect(fromB.body.data.id).not.toBe(fromA.body.data.id);
    // Another body under the same key string is B's first use, not a reuse.
    const bOther = await createCustomer(b, { name: 'Other' }, newKey('unused'));
    expect(bOther.status).toBe(201);
    expect((await customerRows(server(), a.businessId)).map((c) => c.id)).toEqual([fromA.body.data.id]);
    expect((await customerRows(server(), b.businessId)).map((c) => c.id).sort()).toEqual(
      [fromB.body.data.id, bOther.body.data.id].sort(),
    );
    expectReplayOf(await createCustomer(a, body, key), fromA);
    expectReplayOf(await createCustomer(b, body, key), fromB);
  });

  it("does not refuse business B's different body under A's key", async () => {
    const a = await registerShop(server());
    const b = await registerShop(server());
    const key = newKey('till');
    expect((await earn(a, { email: uniqueEmail(), amount: 1 }, key)).status).toBe(200);
    const fromB = await earn(b, { email: uniqueEmail(), amount: 5 }, key);
    expect(fromB.status, fromB.text).toBe(200);
    expect(fromB.body.data.pointsEarned).toBe(50);
    expect(fromB.headers.get('idempotent-replayed')).toBeNull();
    expect(await transactionRows(server(), b.businessId)).toHaveLength(1);
  });
});

describe('Idempotency-Key: a replay goes only to a credential the route accepts', () => {
  it('does not replay a token route to a public_loyalty key presented as Bearer (403 FORBIDDEN)', async () => {
    const shop = await registerShop(server());
    const key = newKey();
    const body = { name: 'Private Person', email: 'private@example.test' };
    expect((await createCustomer(shop, body, key)).status).toBe(201);
    const refused = await send('/v1/customers', body, { token: shop.apiKey, key });
    expectError(refused, 403, 'FORBIDDEN');
    expect(refused.headers.get('idempotent-replayed')).toBeNull();
    expect(refused.text).not.toContain('private@example.test');
    expect(await keyRow(shop.businessId, key)).toMatchObject({ status_code: 201 });
  });

  it('does not replay a sign-in-only route (a new API key) to a full API key (403 FORBIDDEN)', async () => {
    const business = await registerBusiness(server());
    const { data: full } = await unwrap(
      business.client.auth.createApiKey({ body: { name: 'Backend', scope: 'full' } }),
    );
    const key = newKey();
    const body = { name: 'Second till' };
    const created = await send('/v1/api-keys', body, { token: business.accessToken, key });
    expect(created.status, created.text).toBe(201);
    expectReplayOf(await send('/v1/api-keys', body, { token: business.accessToken, key }), created);
    const refused = await send('/v1/api-keys', body, { token: full.key, key });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ result: 'error', error: { code: 'FORBIDDEN' } });
    expect(refused.text).not.toContain(created.body.data.key);
  });

  it('takes no key on routes without authentication (sign-in runs every time)', async () => {
    const business = await registerBusiness(server());
    const key = newKey();
    const body = { email: business.email, password: business.password };
    const first = await send('/v1/auth/token', body, { token: business.accessToken, key });
    const second = await send('/v1/auth/token', body, { token: business.accessToken, key });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    expect(second.body.data.accessToken).not.toBe(first.body.data.accessToken);
    expect(await keyRow(business.businessId, key)).toBeUndefined();
  });
});

describe('Idempotency-Key: refusals keep nothing', () => {
  it('keeps nothing for 422 VALIDATION_ERROR: the corrected retry with the same key runs (201)', async () => {
    const business = await registerBusiness(server());
    const key = newKey();
    const refused = await createCustomer(business, { name: 'Typo Ltd', emial: 'x@example.test' }, key);
    expectInvalid(refused, 'emial');
    expect(await keyRow(business.businessId, key)).toBeUndefined();
    const corrected = await createCustomer(business, { name: 'Typo Ltd', email: 'x@example.test' }, key);
    expect(corrected.status, corrected.text).toBe(201);
    expect(corrected.headers.get('idempotent-replayed')).toBeNull();
    expect(await customerRows(server(), business.businessId)).toHaveLength(1);
    expectReplayOf(
      await createCustomer(business, { name: 'Typo Ltd', email: 'x@example.test' }, key),
      corrected,
    );
  });

  it('keeps nothing for a refused public earn (422 VALIDATION_ERROR): the corrected earn is credited', async () => {
    const shop = await registerShop(server());
    const key = newKey('earn');
    const email = uniqueEmail('member');
    const refused = await earn(shop, { email, amount: -5 }, key);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ result: 'error', error: { code: 'VALIDATION_ERROR' } });
    expect(await keyRow(shop.businessId, key)).toBeUndefined();
    const corrected = await earn(shop, { email, amount: 5 }, key);
    expect(corrected.status, corrected.text).toBe(200);
    expect(corrected.body.data.newBalance).toBe(50);
    expect(await transactionRows(server(), shop.businessId)).toHaveLength(1);
  });

  it('keeps nothing for 401 (unknown API key): the retry with a valid key runs', async () => {
    const shop = await registerShop(server());
    const key = newKey('earn');
    const body = { email: uniqueEmail('member'), amount: 1 };
    const refused = await send(EARN, body, { apiKey: 'bms_pk_not_a_real_key', key });
    expectResultError(refused, 401, 'UNAUTHORIZED');
    const all = await db()
      .selectFrom('idempotency_keys')
      .select('business_id')
      .where('key', '=', key)
      .execute();
    expect(all).toEqual([]);
    const retried = await earn(shop, body, key);
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(await transactionRows(server(), shop.businessId)).toHaveLength(1);
  });

  it('keeps nothing for 403 (a public key presented as Bearer): the retry with the access token runs', async () => {
    const shop = await registerShop(server());
    const key = newKey();
    const body = { name: 'Scoped Ltd' };
    const refused = await send('/v1/customers', body, { token: shop.apiKey, key });
    expectError(refused, 403, 'FORBIDDEN');
    expect(await keyRow(shop.businessId, key)).toBeUndefined();
    const retried = await createCustomer(shop, body, key);
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
  });

  it('keeps nothing for 400 (broken JSON): the retry with the same key runs', async () => {
    const business = await registerBusiness(server());
    const key = newKey();
    const refused = await send('/v1/customers', null, {
      token: business.accessToken,
      key,
      rawBody: '{"name": "Broken',
    });
    expectError(refused, 400, 'BAD_REQUEST');
    const retried = await createCustomer(business, { name: 'Broken' }, key);
    expect(retried.status).toBe(201);
    expect(await customerRows(server(), business.businessId)).toHaveLength(1);
  });

  it('keeps nothing for an unknown route (404): the key stays free for a real request', async () => {
    const business = await registerBusiness(server());
    const key = newKey();
    const unknown = await send(
      '/v1/no-such-thing',
      { name: 'Nowhere' },
      { token: business.accessToken, key },
    );
    expect(unknown.status).toBe(404);
    expect(await keyRow(business.businessId, key)).toBeUndefined();
    expect((await createCustomer(business, { name: 'Somewhere' }, key)).status).toBe(201);
  });

  it('keeps a business-rule refusal: a reused reference is 409 CONFLICT, replayed as 409', async () => {
    const shop = await registerShop(server());
    const email = uniqueEmail('member');
    expect((await earn(shop, { email, amount: 2, reference: 'POS-1042' }, newKey('sale'))).status).toBe(200);
    const key = newKey('again');
    const body = { email, amount: 3, reference: 'POS-1042' };
    const conflict = await earn(shop, body, key);
    expectResultError(conflict, 409, 'CONFLICT');
    expect(conflict.headers.get('idempotent-replayed')).toBeNull();
    expect(await keyRow(shop.businessId, key)).toMatchObject({ status_code: 409 });
    const replay = await earn(shop, body, key);
    expectReplayOf(replay, conflict);
    expect(await transactionRows(server(), shop.businessId)).toHaveLength(1);
  });
});

describe('Idempotency-Key: 24 h retention (injected clock)', () => {
  it('replays just before 24 h and runs the request again after 24 h', async () => {
    const business = await registerBusiness(server());
    const key = newKey();
    const body = { name: 'Daily Ltd' };
    const first = await createCustomer(business, body, key);
    expect(first.status).toBe(201);
    server().clock.advance(IDEMPOTENCY_RETENTION_MS - 60_000);
    expectReplayOf(await createCustomer(business, body, key), first);
    server().clock.advance(2 * 60_000);
    const again = await createCustomer(business, body, key);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(again.body.data.id).not.toBe(first.body.data.id);
    expect(await customerRows(server(), business.businessId)).toHaveLength(2);
    // The key now replays the new response.
    expectReplayOf(await createCustomer(business, body, key), again);
  });

  it('lets an expired key be used for another request', async () => {
    const business = await registerBusiness(server());
    const key = newKey();
    expect((await createCustomer(business, { name: 'Old' }, key)).status).toBe(201);
    expectError(await createCustomer(business, { name: 'New' }, key), 422, 'IDEMPOTENCY_KEY_REUSED');
    server().clock.advance(IDEMPOTENCY_RETENTION_MS + 1000);
    expect((await createCustomer(business, { name: 'New' }, key)).status).toBe(201);
  });

  it('purgeIdempotencyKeys deletes the keys older than 24 h and keeps the newer ones', async () => {
    const business = await registerBusiness(server());
    const [oldKey, midKey, newestKey] = [newKey('old'), newKey('mid'), newKey('new')];
    expect((await createCustomer(business, { name: 'Old' }, oldKey)).status).toBe(201);
    server().clock.advance(12 * HOUR_MS);
    expect((await createCustomer(business, { name: 'Mid' }, midKey)).status).toBe(201);
    server().clock.advance(12 * HOUR_MS + 60_000);
    expect((await createCustomer(business, { name: 'Newest' }, newestKey)).status).toBe(201);

    const cutoff = new Date(server().clock.now().getTime() - IDEMPOTENCY_RETENTION_MS);
    const due = await db()
      .selectFrom('idempotency_keys')
      .select('key')
      .where('created_at', '<=', cutoff)
      .execute();
    expect(due.map((r) => r.key)).toContain(oldKey);

    const purged = await purgeIdempotencyKeys(server().deps);
    expect(purged).toBe(due.length);
    const left = await db()
      .selectFrom('idempotency_keys')
      .select('key')
      .where('business_id', '=', business.businessId)
      .execute();
    expect(left.map((r) => r.key).sort()).toEqual([midKey, newestKey].sort());
    const stale = await db()
      .selectFrom('idempotency_keys')
      .select('key')
      .where('created_at', '<=', cutoff)
      .execute();
    expect(stale).toEqual([]);
    expect(await purgeIdempotencyKeys(server().deps)).toBe(0);
  });
});

if (onPostgres) {
  describe('Idempotency-Key: a request still in progress (PostgreSQL)', () => {
    it('answers 409 IDEMPOTENCY_IN_PROGRESS with Retry-After while the key is held, then runs the retry', async () => {
      const shop = await registerShop(server());
      const key = newKey('busy');
      const body = { email: uniqueEmail('member'), amount: 4 };
      const held = await holdKey(shop.businessId, key);

      const busy = await earn(shop, body, key);
      expectResultError(busy, 409, 'IDEMPOTENCY_IN_PROGRESS');
      expect(busy.headers.get('retry-after')).toBe('1');
      expect(busy.headers.get('idempotent-replayed')).toBeNull();
      expect(await keyRow(shop.businessId, key)).toBeUndefined();
      expect(await transactionRows(server(), shop.businessId)).toEqual([]);

      // The holder's connection goes (it finished, or its process died): the retry runs at once.
      await held.release();
      const taken = await earn(shop, body, key);
      expect(taken.status, taken.text).toBe(200);
      expect(taken.headers.get('idempotent-replayed')).toBeNull();
      expect(taken.body.data.newBalance).toBe(40);
      expect(await transactionRows(server(), shop.businessId)).toHaveLength(1);
      expect(await keyRow(shop.businessId, key)).toMatchObject({ status_code: 200 });
      expectReplayOf(await earn(shop, body, key), taken);
    });

    it('answers in the general envelope on a general route, creating nothing', async () => {
      const business = await registerBusiness(server());
      const key = newKey('busy');
      const held = await holdKey(business.businessId, key);
      try {
        const busy = await createCustomer(business, { name: 'Pending Ltd' }, key);
        expect(busy.status).toBe(409);
        expect(busy.body).toEqual({
          error: { code: 'IDEMPOTENCY_IN_PROGRESS', status: 409, message: expect.any(String) },
        });
        expect(busy.headers.get('retry-after')).toBe('1');
        expect(await customerRows(server(), business.businessId)).toEqual([]);
      } finally {
        await held.release();
      }
    });
  });
}

describe(`Idempotency-Key: concurrent duplicates (${onPostgres ? 'PostgreSQL, truly concurrent' : 'PGlite, serialised'})`, () => {
  it('credits one earn for 20 concurrent requests with the same key and body, over 3 rounds', async () => {
    const shop = await registerShop(server());
    for (let round = 0; round < 3; round++) {
      const key = newKey(`round-${round}`);
      const email = uniqueEmail(`round${round}`);
      const body = { email, amount: 7 };
      const responses = await Promise.all(Array.from({ length: 20 }, () => earn(shop, body, key)));

      const done = responses.filter((r) => r.status === 200);
      const busy = responses.filter((r) => r.status === 409);
      expect(done.length + busy.length, responses.map((r) => r.status).join(',')).toBe(20);
      for (const r of busy) {
        expectResultError(r, 409, 'IDEMPOTENCY_IN_PROGRESS');
        expect(r.headers.get('retry-after')).toBe('1');
      }
      // One request ran; every other 200 is its replay, byte for byte.
      const ran = done.filter((r) => r.headers.get('idempotent-replayed') === null);
      expect(ran).toHaveLength(1);
      expect(new Set(done.map((r) => r.text)).size).toBe(1);
      expect(
        done.filter((r) => r !== ran[0]).every((r) => r.headers.get('idempotent-replayed') === 'true'),
      ).toBe(true);
      expect(ran[0]?.body.data).toMatchObject({ pointsEarned: 70, newBalance: 70 });

      const customers = await db()
        .selectFrom('customers')
        .select('id')
        .where('business_id', '=', shop.businessId)
        .where('email', '=', email)
        .execute();
      expect(customers).toHaveLength(1);
    }
    expect(await transactionRows(server(), shop.businessId)).toHaveLength(3);
    expect(await memberRows(server(), shop.businessId)).toHaveLength(3);
  });
});

describe('Idempotency-Key: the header itself', () => {
  it('refuses a key longer than 255 characters (422 VALIDATION_ERROR naming the header) and stores nothing', async () => {
    const business = await registerBusiness(server());
    const key = 'k'.repeat(256);
    const refused = await createCustomer(business, { name: 'Long Key' }, key);
    expectInvalid(refused, 'idempotency-key');
    expect(await customerRows(server(), business.businessId)).toEqual([]);
    const rows = await db()
      .selectFrom('idempotency_keys')
      .select('key')
      .where('business_id', '=', business.businessId)
      .execute();
    expect(rows).toEqual([]);
  });

  it('refuses an over-long key on public earn too (422 VALIDATION_ERROR), crediting nothing', async () => {
    const shop = await registerShop(server());
    const refused = await earn(shop, { email: uniqueEmail(), amount: 1 }, 'x'.repeat(300));
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ result: 'error', error: { code: 'VALIDATION_ERROR', status: 422 } });
    expect(await transactionRows(server(), shop.businessId)).toEqual([]);
  });

  it('accepts a key of exactly 255 characters', async () => {
    const business = await registerBusiness(server());
    const key = 'k'.repeat(255);
    const first = await createCustomer(business, { name: 'Max Key' }, key);
    expect(first.status).toBe(201);
    expect(await keyRow(business.businessId, key)).toMatchObject({ status_code: 201 });
    expectReplayOf(await createCustomer(business, { name: 'Max Key' }, key), first);
  });

  it('refuses an empty key (422 VALIDATION_ERROR)', async () => {
    const business = await registerBusiness(server());
    const refused = await createCustomer(business, { name: 'Empty Key' }, '');
    expectInvalid(refused, 'idempotency-key');
    expect(await customerRows(server(), business.businessId)).toEqual([]);
  });

  it('ignores the header on GET, whatever its length', async () => {
    const shop = await registerShop(server());
    const key = 'g'.repeat(300);
    const list = await send('/v1/customers', undefined, { method: 'GET', token: shop.accessToken, key });
    expect(list.status, list.text).toBe(200);
    expect(list.headers.get('idempotent-replayed')).toBeNull();
    const rewards = await send('/v1/public/loyalty/rewards', undefined, {
      method: 'GET',
      apiKey: shop.apiKey,
      key,
    });
    expect(rewards.status, rewards.text).toBe(200);
    const again = await send('/v1/customers', undefined, { method: 'GET', token: shop.accessToken, key });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    const rows = await db()
      .selectFrom('idempotency_keys')
      .select('key')
      .where('business_id', '=', shop.businessId)
      .execute();
    expect(rows).toEqual([]);
  });
});
