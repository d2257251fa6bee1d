import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { createClient, unwrap, type Client, sessionOf } from '../../client/index.js';
import type { Role } from '../../contract/permissions.js';
import { hashPassword } from '../../server/auth/secrets.js';
import { newId } from '../../server/platform/ids.js';
import { createApiKey } from '../support/auth.js';
import {
  json,
  raw,
  registerBusiness,
  registerShop,
  sandboxOf,
  uniqueEmail,
  type TestBusiness,
} from '../support/business.js';
import { createCustomer, issuedInvoice, payInvoice } from '../support/general.js';
import { useTestServer } from '../support/setup.js';

const server = useTestServer({ worker: false });
const PASSWORD = 'correct horse battery staple';

/** A person of the business with this role, signed in: their access token. */
async function memberWith(biz: TestBusiness, role: Role): Promise<string> {
  const db = server().deps.db;
  const userId = newId('usr');
  const email = uniqueEmail(role);
  await db
    .insertInto('users')
    .values({ id: userId, business_id: biz.businessId, email, password_hash: await hashPassword(PASSWORD) })
    .execute();
  await db.insertInto('memberships').values({ business_id: biz.businessId, user_id: userId, role }).execute();
  const anonymous = createClient({ baseUrl: server().baseUrl, maxRetries: 0 });
  return sessionOf((await unwrap(anonymous.auth.signIn({ body: { email, password: PASSWORD } }))).data)
    .accessToken;
}

const userIdOf = async (biz: TestBusiness) =>
  (
    await server()
      .deps.db.selectFrom('users')
      .select('id')
      .where('email', '=', biz.email.toLowerCase())
      .executeTakeFirstOrThrow()
  ).id;

const log = async (client: Client, query: Record<string, string | number> = {}) =>
  (await unwrap(client.auditLog.listAuditLog({ query }))) as {
    entries: {
      id: string;
      occurred_at: string;
      actor: { kind: string; id: string };
      operation: string;
      resource_id: string | null;
      request_id: string;
      summary: { label: string | null; amount: number | null; currency: string | null } | null;
    }[];
    total_count: number;
  };

describe('the audit log', () => {
  let biz: TestBusiness;
  let userId: string;
  beforeAll(async () => {
    biz = await registerBusiness(server());
    userId = await userIdOf(biz);
  });

  it('records a change made with an access token: the person, the operation, the resource and the request id', async () => {
    const before = (await log(biz.client)).total_count;
    const answer = await raw(server(), 'POST', '/v1/customers', {
      token: biz.accessToken,
      ...json({ name: 'Grace Hopper' }),
    });
    expect(answer.status).toBe(201);
    const requestId = answer.headers.get('x-request-id')!;
    const { entries, total_count } = await log(biz.client);
    expect(total_count).toBe(before + 1);
    expect(entries[0]).toMatchObject({
      actor: { kind: 'user', id: userId },
      operation: 'createCustomer',
      resource_id: answer.body.data.id,
      request_id: requestId,
    });
    expect(Date.parse(entries[0]!.occurred_at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('records a change with an Idempotency-Key once, and not its replay', async () => {
    const headers = { 'idempotency-key': newId('key'), authorization: `Bearer ${biz.accessToken}` };
    const first = await raw(server(), 'POST', '/v1/customers', {
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Keyed' }),
    });
    const replay = await raw(server(), 'POST', '/v1/customers', {
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Keyed' }),
    });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const { entries } = await log(biz.client, { resource_id: first.body.data.id });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      operation: 'createCustomer',
      request_id: first.headers.get('x-request-id'),
    });
  });

  it('records the path id of a change to a resource', async () => {
    const customer = await createCustomer(biz.client);
    const answer = await raw(server(), 'PUT', `/v1/customers/${customer.id}`, {
      token: biz.accessToken,
      ...json({ name: 'Ada King' }),
    });
    expect(answer.status).toBe(200);
    const { entries } = await log(biz.client, { resource_id: customer.id });
    expect(entries.map((e) => e.operation)).toEqual(['updateCustomer', 'createCustomer']);
  });

  it("keeps what a change was about: the resource's number or name, and a payment's amount and currency", async () => {
    const customer = await createCustomer(biz.client, { name: 'Ada Summary' });
    const invoice = await issuedInvoice(biz.client, { customer_id: customer.id, currency: 'GBP' });
    await payInvoice(biz.client, invoice.id, 2);
    const { entries } = await log(biz.client, { resource_id: invoice.id });
    expect(entries.map((e) => [e.operation, e.summary])).toEqual([
      ['createPayment', { label: invoice.number, amount: 200, currency: 'GBP' }],
      ['issueInvoice', { label: invoice.number, amount: null, currency: null }],
      ['createInvoice', { label: invoice.number, amount: null, currency: null }],
    ]);
    const created = await log(biz.client, { resource_id: customer.id });
    expect(created.entries[0]!.summary).toEqual({ label: 'Ada Summary', amount: null, currency: null });
    // A deletion keeps the name its answer gave, so the log still says what went.
    const gone = await createCustomer(biz.client, { name: 'Gone Ltd' });
    await unwrap(biz.client.general.customers.deleteCustomer({ params: { id: gone.id } }));
    const deleted = await log(biz.client, { resource_id: gone.id, operation: 'deleteCustomer' });
    expect(deleted.entries[0]!.summary).toEqual({ label: 'Gone Ltd', amount: null, currency: null });
    // An answer that names nothing leaves no summary.
    const key = await createApiKey(biz.client, 'full');
    await unwrap(biz.client.auth.revokeApiKey({ params: { id: key.id } }));
    const revoked = await log(biz.client, { resource_id: key.id, operation: 'revokeApiKey' });
    expect(revoked.entries[0]!.summary).toBeNull();
  });

  it('records a full API key as the actor', async () => {
    const key = await createApiKey(biz.client, 'full');
    const answer = await raw(server(), 'POST', '/v1/customers', {
      token: key.key,
      ...json({ name: 'By key' }),
    });
    expect(answer.status).toBe(201);
    const { entries } = await log(biz.client, { actor_id: key.id });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actor: { kind: 'api_key', id: key.id },
      operation: 'createCustomer',
      resource_id: answer.body.data.id,
    });
  });

  it('records nothing for a read, a refused change or a change that rolled back', async () => {
    const before = (await log(biz.client)).total_count;
    const email = uniqueEmail('dup');
    await createCustomer(biz.client, { email });
    const afterCreate = before + 1;
    expect((await raw(server(), 'GET', '/v1/customers', { token: biz.accessToken })).status).toBe(200);
    const refused = await raw(server(), 'POST', '/v1/customers', { token: biz.accessToken, ...json({}) });
    expect(refused.status).toBe(422);
    // The duplicate is refused by the database at its insert: the statement ran, then rolled back.
    const conflict = await raw(server(), 'POST', '/v1/customers', {
      token: biz.accessToken,
      ...json({ name: 'Twin', email }),
    });
    expect(conflict.status).toBe(409);
    const keyedConflict = await raw(server(), 'POST', '/v1/customers', {
      headers: {
        authorization: `Bearer ${biz.accessToken}`,
        'idempotency-key': newId('key'),
        'content-type': 'application/json',
      },
      body: JSON.stringify({ name: 'Twin', email }),
    });
    expect(keyedConflict.status).toBe(409);
    expect((await log(biz.client)).total_count).toBe(afterCreate);
  });

  it('filters by actor, resource, operation and dates, newest first, in pages', async () => {
    const other = await registerBusiness(server());
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await createCustomer(other.client, { name: `C${i}` }));
    await unwrap(
      other.client.general.customers.updateCustomer({ params: { id: made[0]!.id }, body: { name: 'C0b' } }),
    );
    const all = await log(other.client);
    expect(all.total_count).toBe(4);
    expect(all.entries.map((e) => e.operation)).toEqual([
      'updateCustomer',
      'createCustomer',
      'createCustomer',
      'createCustomer',
    ]);
    expect(all.entries.map((e) => e.resource_id)).toEqual([
      made[0]!.id,
      made[2]!.id,
      made[1]!.id,
      made[0]!.id,
    ]);
    const times = all.entries.map((e) => Date.parse(e.occurred_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    expect((await log(other.client, { operation: 'createCustomer' })).total_count).toBe(3);
    expect((await log(other.client, { operation: 'deleteCustomer' })).total_count).toBe(0);
    expect((await log(other.client, { resource_id: made[0]!.id })).total_count).toBe(2);
    expect((await log(other.client, { actor_id: await userIdOf(other) })).total_count).toBe(4);
    expect((await log(other.client, { actor_id: 'usr_nobody' })).total_count).toBe(0);

    const page = await log(other.client, { limit: 2, offset: 1 });
    expect(page.total_count).toBe(4);
    expect(page.entries.map((e) => e.id)).toEqual(all.entries.slice(1, 3).map((e) => e.id));

    const newest = all.entries[0]!.occurred_at;
    expect((await log(other.client, { from: newest })).entries.map((e) => e.id)).toEqual([
      all.entries[0]!.id,
    ]);
    expect((await log(other.client, { to: newest })).total_count).toBe(3);
    expect(
      (await log(other.client, { from: '2000-01-01T00:00:00Z', to: '2000-01-02T00:00:00Z' })).total_count,
    ).toBe(0);
  });

  it('is open to owners and admins, not to a viewer', async () => {
    const viewer = await memberWith(biz, 'viewer');
    const refused = await raw(server(), 'GET', '/v1/audit-log', { token: viewer });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('FORBIDDEN');
    expect(refused.body.error.message).toContain('audit.read');
    const admin = await memberWith(biz, 'admin');
    expect((await raw(server(), 'GET', '/v1/audit-log', { token: admin })).status).toBe(200);
  });

  it('records a public earn with its key, written with the earn itself', async () => {
    const shop = await registerShop(server());
    const earn = await raw(server(), 'POST', '/v1/public/loyalty/earn', {
      headers: { 'x-api-key': shop.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ email: uniqueEmail('buyer'), amount: 12.5, reference: newId('ref') }),
    });
    expect(earn.status).toBe(200);
    const { entries } = await log(shop.client, { operation: 'publicEarn' });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actor: { kind: 'api_key' },
      resource_id: null,
      request_id: earn.headers.get('x-request-id'),
    });
    expect(entries[0]!.actor.id).toMatch(/^key_/);
  });

  it('reads a public earn from its ledger row, which cannot be altered, and writes no audit_log row for it', async () => {
    const shop = await registerShop(server());
    const earn = async (reference: string) =>
      raw(server(), 'POST', '/v1/public/loyalty/earn', {
        headers: { 'x-api-key': shop.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ email: uniqueEmail('buyer'), amount: 3, reference }),
      });
    const requests = [await earn(newId('ref')), await earn(newId('ref'))];
    expect(requests.map((r) => r.status)).toEqual([200, 200]);
    const db = server().deps.db;
    const ledger = await db
      .selectFrom('loyalty_transactions')
      .select(['id', 'actor_kind', 'actor_id', 'request_id'])
      .where('business_id', '=', shop.businessId)
      .where('reference_type', '=', 'public')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    expect(ledger).toHaveLength(2);
    const written = await db
      .selectFrom('audit_log')
      .select('id')
      .where('business_id', '=', shop.businessId)
      .where('operation', '=', 'publicEarn')
      .execute();
    expect(written).toEqual([]);

    // The entries are the ledger rows, found by the key that earned as any entry is.
    const keyId = ledger[0]!.actor_id!;
    const { entries } = await log(shop.client, { actor_id: keyId });
    expect(entries.map((e) => [e.id, e.operation, e.request_id])).toEqual(
      ledger.map((row) => [row.id, 'publicEarn', row.request_id]),
    );
    expect(new Set(ledger.map((row) => row.request_id))).toEqual(
      new Set(requests.map((r) => r.headers.get('x-request-id'))),
    );

    await expect(
      sql`UPDATE loyalty_transactions SET actor_id = 'key_forged'
          WHERE business_id = ${shop.businessId} AND id = ${ledger[0]!.id}`.execute(db),
    ).rejects.toThrow(/cannot be changed/);
    await expect(
      sql`UPDATE loyalty_transactions SET request_id = NULL
          WHERE business_id = ${shop.businessId} AND id = ${ledger[0]!.id}`.execute(db),
    ).rejects.toThrow(/cannot be changed/);
  });

  it("is emptied with the rest of a sandbox by its reset, and the reset's own change is recorded", async () => {
    const live = await registerBusiness(server());
    const sandbox = await sandboxOf(server(), live);
    await createCustomer(sandbox.client);
    await unwrap(sandbox.client.sandbox.reset.resetSandbox({ body: { seed: false } }));
    const { entries } = await log(sandbox.client);
    expect(entries.map((e) => e.operation)).toEqual(['resetSandbox']);
  });

  it('cannot be changed or deleted, even by SQL', async () => {
    const db = server().deps.db;
    const row = await db
      .selectFrom('audit_log')
      .select('id')
      .where('business_id', '=', biz.businessId)
      .executeTakeFirstOrThrow();
    await expect(
      sql`UPDATE audit_log SET operation = 'forged' WHERE business_id = ${biz.businessId} AND id = ${row.id}`.execute(
        db,
      ),
    ).rejects.toThrow(/cannot be changed or deleted/);
    await expect(
      sql`DELETE FROM audit_log WHERE business_id = ${biz.businessId} AND id = ${row.id}`.execute(db),
    ).rejects.toThrow(/cannot be changed or deleted/);
    const still = await db
      .selectFrom('audit_log')
      .select('operation')
      .where('business_id', '=', biz.businessId)
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(still.operation).not.toBe('forged');
  });
});
