import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createClient, unwrap } from '../../client/index.js';
import type { ApiKeyScope } from '../../contract/auth/index.js';
import { json, raw, registerBusiness, type TestBusiness } from '../support/business.js';
import { useTestServer } from '../support/setup.js';
import { atLeast } from '../support/expect.js';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

const cellsOf = (rows: Record<string, unknown>[]) =>
  rows.flatMap((row) => Object.values(row).map((v) => (v instanceof Date ? v.toISOString() : String(v))));

const UNKNOWN_KEY_ID = 'key_01JD7X2R5VQ8N3K4M6P9T1W2Y3';

const server = useTestServer();

async function createKey(biz: TestBusiness, scope?: ApiKeyScope, name = 'Till 1') {
  const { data } = await unwrap(biz.client.auth.createApiKey({ body: scope ? { name, scope } : { name } }));
  return data;
}

/** A typed client that sends the key only as `Authorization: Bearer`. */
const bearerClient = (key: string) =>
  createClient({ baseUrl: server().baseUrl, accessToken: key, maxRetries: 0 });

describe('POST /v1/api-keys', () => {
  it('creates a public_loyalty key by default and returns the full key once (201)', async () => {
    const biz = await registerBusiness(server());
    const before = server().clock.now().getTime();
    const res = await biz.client.auth.createApiKey({ body: { name: 'Till 1' } });
    const after = server().clock.now().getTime();

    expect(res.status).toBe(201);
    if (res.status !== 201) return;
    expect(res.body.result).toBe('success');
    const key = res.body.data;
    expect(Object.keys(key).sort()).toEqual([
      'createdAt',
      'createdBy',
      'id',
      'key',
      'lastUsedAt',
      'name',
      'prefix',
      'scope',
    ]);
    expect(key.id).toMatch(/^key_/);
    expect(key.name).toBe('Till 1');
    expect(key.scope).toBe('public_loyalty');
    expect(key.key).toMatch(/^bms_pk_/);
    expect(key.key.length).toBeGreaterThanOrEqual(32);
    expect(key.prefix).toBe(key.key.slice(0, 11));
    expect(key.lastUsedAt).toBeNull();
    const createdAt = Date.parse(key.createdAt);
    expect(createdAt).toBeGreaterThanOrEqual(before);
    expect(createdAt).toBeLessThanOrEqual(after);
  });

  it('creates a full key with the bms_sk_ prefix', async () => {
    const biz = await registerBusiness(server());
    const key = await createKey(biz, 'full', 'Backend');
    expect(key.scope).toBe('full');
    expect(key.key).toMatch(/^bms_sk_/);
    expect(key.prefix).toBe(key.key.slice(0, 11));
  });

  it('creates an explicitly public_loyalty key with the bms_pk_ prefix', async () => {
    const biz = await registerBusiness(server());
    const key = await createKey(biz, 'public_loyalty');
    expect(key.scope).toBe('public_loyalty');
    expect(key.key).toMatch(/^bms_pk_/);
  });

  it('gives every key a different secret', async () => {
    const biz = await registerBusiness(server());
    const a = await createKey(biz, 'full');
    const b = await createKey(biz, 'full');
    expect(a.key).not.toBe(b.key);
    expect(a.id).not.toBe(b.id);
  });

  it('refuses a scope outside the enum (422 naming scope)', async () => {
    const biz = await registerBusiness(server());
    const res = await raw(server(), 'POST', '/v1/api-keys', {
      ...json({ name: 'Admin', scope: 'admin' }),
      token: biz.accessToken,
    });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ result: 'error', error: { code: 'VALIDATION_ERROR', status: 422 } });
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual(['scope']);
  });

  it('refuses a missing, blank or too long name (422 naming name)', async () => {
    const biz = await registerBusiness(server());
    for (const body of [{}, { name: '' }, { name: '   ' }, { name: 'x'.repeat(101) }, { name: 42 }]) {
      const res = await raw(server(), 'POST', '/v1/api-keys', { ...json(body), token: biz.accessToken });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual(['name']);
    }
    expect((await unwrap(biz.client.auth.listApiKeys())).data).toEqual([]);
  });

  it('accepts a name of exactly 100 characters', async () => {
    const biz = await registerBusiness(server());
    const key = await createKey(biz, undefined, 'n'.repeat(100));
    expect(key.name).toBe('n'.repeat(100));
  });

  it('refuses an unknown field (422)', async () => {
    const biz = await registerBusiness(server());
    const res = await raw(server(), 'POST', '/v1/api-keys', {
      ...json({ name: 'Till', businessId: 'biz_other' }),
      token: biz.accessToken,
    });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toContainEqual(expect.objectContaining({ field: 'businessId' }));
  });

  it('refuses a request without credentials (401)', async () => {
    const res = await raw(server(), 'POST', '/v1/api-keys', json({ name: 'Till' }));
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    expect(res.body).toMatchObject({ result: 'error', error: { code: 'UNAUTHORIZED', status: 401 } });
  });

  it('stores only a hash of the key', async () => {
    const biz = await registerBusiness(server());
    const key = await createKey(biz, 'full');
    const rows = await server().deps.db.selectFrom('api_keys').selectAll().where('id', '=', key.id).execute();
    expect(rows).toHaveLength(1);
    const cells = cellsOf(rows);
    expect(cells.some((cell) => cell.includes(key.key))).toBe(false);
    expect(cells).toContain(sha256(key.key));
  });
});

describe('GET /v1/api-keys', () => {
  it('lists the business keys newest first without the secret', async () => {
    const biz = await registerBusiness(server());
    const first = await createKey(biz, 'public_loyalty', 'First');
    const second = await createKey(biz, 'full', 'Second');

    const res = await biz.client.auth.listApiKeys();
    expect(res.status).toBe(200);
    if (res.status !== 200) return;
    expect(res.body.result).toBe('success');
    expect(res.body.data.map((k) => k.id)).toEqual([second.id, first.id]);
    for (const listed of res.body.data) {
      expect(listed).not.toHaveProperty('key');
      expect(JSON.stringify(listed)).not.toContain(first.key);
      expect(JSON.stringify(listed)).not.toContain(second.key);
    }
    // The same object as at creation, less the secret (toEqual ignores the undefined key).
    expect(res.body.data[0]).toEqual({ ...second, key: undefined });
  });

  it("never lists another business's keys", async () => {
    const a = await registerBusiness(server(), 'A');
    const b = await registerBusiness(server(), 'B');
    const mine = await createKey(a, 'full');
    await createKey(b, 'full');
    const listed = await unwrap(a.client.auth.listApiKeys());
    expect(listed.data.map((k) => k.id)).toEqual([mine.id]);
  });

  it('sets lastUsedAt once the key has been used', async () => {
    const biz = await registerBusiness(server());
    const key = await createKey(biz, 'full');
    expect((await unwrap(biz.client.auth.listApiKeys())).data[0]?.lastUsedAt).toBeNull();

    const before = server().clock.now().getTime();
    expect((await bearerClient(key.key).general.customers.listCustomers({ query: {} })).status).toBe(200);
    const after = server().clock.now().getTime();

    const [listed] = atLeast((await unwrap(biz.client.auth.listApiKeys())).data, 1);
    expect(listed.lastUsedAt).not.toBeNull();
    const lastUsedAt = Date.parse(listed.lastUsedAt!);
    expect(lastUsedAt).toBeGreaterThanOrEqual(before);
    expect(lastUsedAt).toBeLessThanOrEqual(after);
  });
});

describe('DELETE /v1/api-keys/:id', () => {
  it('revokes a key: it leaves the list and answers 401 from then on', async () => {
    const biz = await registerBusiness(server());
    const kept = await createKey(biz, 'full', 'Kept');
    const revoked = await createKey(biz, 'full', 'Revoked');
    expect((await bearerClient(revoked.key).general.customers.listCustomers({ query: {} })).status).toBe(200);

    const res = await biz.client.auth.revokeApiKey({ params: { id: revoked.id } });
    expect(res.status).toBe(200);
    if (res.status !== 200) return;
    expect(res.body.result).toBe('success');
    expect(typeof res.body.message).toBe('string');

    const listed = await unwrap(biz.client.auth.listApiKeys());
    expect(listed.data.map((k) => k.id)).toEqual([kept.id]);

    const refused = await bearerClient(revoked.key).general.customers.listCustomers({ query: {} });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer');
    expect(refused.body).toMatchObject({ error: { code: 'UNAUTHORIZED', status: 401 } });

    expect((await bearerClient(kept.key).general.customers.listCustomers({ query: {} })).status).toBe(200);
  });

  it('answers 404 for a key already revoked', async () => {
    const biz = await registerBusiness(server());
    const key = await createKey(biz);
    await unwrap(biz.client.auth.revokeApiKey({ params: { id: key.id } }));
    const again = await biz.client.auth.revokeApiKey({ params: { id: key.id } });
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ result: 'error', error: { code: 'NOT_FOUND', status: 404 } });
  });

  it('answers 404 for an unknown id', async () => {
    const biz = await registerBusiness(server());
    const res = await biz.client.auth.revokeApiKey({ params: { id: UNKNOWN_KEY_ID } });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ result: 'error', error: { code: 'NOT_FOUND', status: 404 } });
  });

  it("answers 404 for another business's key and leaves it working", async () => {
    const a = await registerBusiness(server(), 'A');
    const b = await registerBusiness(server(), 'B');
    const theirs = await createKey(b, 'full');

    const res = await a.client.auth.revokeApiKey({ params: { id: theirs.id } });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ result: 'error', error: { code: 'NOT_FOUND', status: 404 } });

    expect((await unwrap(b.client.auth.listApiKeys())).data.map((k) => k.id)).toEqual([theirs.id]);
    expect((await bearerClient(theirs.key).general.customers.listCustomers({ query: {} })).status).toBe(200);
  });
});

describe('API keys as credentials', () => {
  it('accepts a full key as Authorization: Bearer on /v1/customers (create and list)', async () => {
    const biz = await registerBusiness(server());
    const key = await createKey(biz, 'full');
    const client = bearerClient(key.key);

    const created = await client.general.customers.createCustomer({ body: { name: 'Ada Lovelace' } });
    expect(created.status).toBe(201);
    if (created.status !== 201) return;
    const listed = await unwrap(client.general.customers.listCustomers({ query: {} }));
    expect(listed.data.map((c) => c.id)).toEqual([created.body.data.id]);

    // The same customer is seen through the owner's access token: one business behind both.
    const viaToken = await unwrap(
      biz.client.general.customers.getCustomer({ params: { id: created.body.data.id } }),
    );
    expect(viaToken.data.name).toBe('Ada Lovelace');
  });

  it('works through the SDK apiKey option', async () => {
    const biz = await registerBusiness(server());
    const key = await createKey(biz, 'full');
    const client = createClient({ baseUrl: server().baseUrl, apiKey: key.key, maxRetries: 0 });
    const created = await client.general.customers.createCustomer({ body: { name: 'Alan Turing' } });
    expect(created.status).toBe(201);
  });

  it('refuses a public_loyalty key as Bearer on /v1/customers (403 FORBIDDEN)', async () => {
    const biz = await registerBusiness(server());
    const key = await createKey(biz, 'public_loyalty');
    const res = await bearerClient(key.key).general.customers.listCustomers({ query: {} });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: { code: 'FORBIDDEN', status: 403 } });
    // It says which scope the key has and which the operation needs.
    expect(res.body).toMatchObject({
      error: {
        message:
          'This API key has the scope public_loyalty, which reaches only /v1/public/loyalty (as X-Api-Key); ' +
          'this operation needs an access token or a key with the scope full',
      },
    });
    const create = await bearerClient(key.key).general.customers.createCustomer({ body: { name: 'Nope' } });
    expect(create.status).toBe(403);
    expect((await unwrap(biz.client.general.customers.listCustomers({ query: {} }))).data).toEqual([]);
  });

  it('refuses a valid key sent only in X-Api-Key on /v1/customers (403 FORBIDDEN)', async () => {
    const biz = await registerBusiness(server());
    for (const scope of ['full', 'public_loyalty'] as const) {
      const key = await createKey(biz, scope);
      const res = await raw(server(), 'GET', '/v1/customers', { headers: { 'x-api-key': key.key } });
      expect(res.status, scope).toBe(403);
      expect(res.body, scope).toMatchObject({ error: { code: 'FORBIDDEN', status: 403 } });
      expect(res.body.error.message, scope).toMatch(/only as Authorization: Bearer, with the scope full/);
    }
  });

  it('refuses an unknown or revoked key in X-Api-Key on /v1/customers (401)', async () => {
    const biz = await registerBusiness(server());
    const key = await createKey(biz, 'full');
    await unwrap(biz.client.auth.revokeApiKey({ params: { id: key.id } }));
    for (const secret of [key.key, 'bms_sk_doesnotexist']) {
      const res = await raw(server(), 'GET', '/v1/customers', { headers: { 'x-api-key': secret } });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ error: { code: 'UNAUTHORIZED', status: 401 } });
    }
  });

  it('refuses a full key on the API key and logout routes, which need an access token (403)', async () => {
    const biz = await registerBusiness(server());
    const key = await createKey(biz, 'full');
    const other = await createKey(biz, 'public_loyalty');
    const client = bearerClient(key.key);

    const calls = {
      create: await client.auth.createApiKey({ body: { name: 'Escalation', scope: 'full' } }),
      list: await client.auth.listApiKeys(),
      revoke: await client.auth.revokeApiKey({ params: { id: other.id } }),
      logout: await client.auth.logout(),
    };
    for (const [name, res] of Object.entries(calls)) {
      expect(res.status, name).toBe(403);
      expect(res.body, name).toMatchObject({ result: 'error', error: { code: 'FORBIDDEN', status: 403 } });
    }

    // Nothing changed: no new key, the other key not revoked, this key still valid.
    const listed = await unwrap(biz.client.auth.listApiKeys());
    expect(listed.data.map((k) => k.id).sort()).toEqual([key.id, other.id].sort());
    expect((await client.general.customers.listCustomers({ query: {} })).status).toBe(200);
  });

  it("never shows business B's customers to business A's full key (404)", async () => {
    const a = await registerBusiness(server(), 'A');
    const b = await registerBusiness(server(), 'B');
    const aKey = await createKey(a, 'full');
    const { data: theirs } = await unwrap(
      b.client.general.customers.createCustomer({ body: { name: 'B Customer', email: 'b@example.com' } }),
    );
    const client = bearerClient(aKey.key);

    const get = await client.general.customers.getCustomer({ params: { id: theirs.id } });
    expect(get.status).toBe(404);
    expect(get.body).toMatchObject({ error: { code: 'NOT_FOUND', status: 404 } });

    const update = await client.general.customers.updateCustomer({
      params: { id: theirs.id },
      body: { name: 'Hijacked' },
    });
    expect(update.status).toBe(404);

    const del = await client.general.customers.deleteCustomer({ params: { id: theirs.id } });
    expect(del.status).toBe(404);

    const listed = await unwrap(client.general.customers.listCustomers({ query: {} }));
    expect(listed.data).toEqual([]);
    const filtered = await unwrap(
      client.general.customers.listCustomers({ query: { email: 'b@example.com' } }),
    );
    expect(filtered.data).toEqual([]);

    const still = await unwrap(b.client.general.customers.getCustomer({ params: { id: theirs.id } }));
    expect(still.data.name).toBe('B Customer');
  });
});

describe('GET /v1/auth/session', () => {
  it('names the person, role and permissions of an access token, and an API key as admin without a person', async () => {
    const owner = await registerBusiness(server(), 'Who Am I Ltd');
    const mine = (await unwrap(owner.client.auth.getSession())).data;
    expect(mine).toMatchObject({
      businessId: owner.businessId,
      businessName: 'Who Am I Ltd',
      environment: 'live',
      credential: 'access_token',
      user: { email: owner.email },
      role: 'owner',
    });
    expect(mine.user?.id).toMatch(/^usr_/);
    expect(mine.permissions).toContain('audit.read');
    expect(Date.parse(mine.expiresAt ?? '')).toBeGreaterThan(Date.now());

    const created = (
      await unwrap(owner.client.auth.createApiKey({ body: { name: 'Backend', scope: 'full' } }))
    ).data;
    const byKey = createClient({ baseUrl: server().baseUrl, apiKey: created.key, maxRetries: 0 });
    const keyed = (await unwrap(byKey.auth.getSession())).data;
    expect(keyed).toMatchObject({ credential: 'api_key', user: null, role: 'admin', expiresAt: null });

    const anonymous = createClient({ baseUrl: server().baseUrl, maxRetries: 0 });
    expect((await anonymous.auth.getSession()).status).toBe(401);
  });
});
