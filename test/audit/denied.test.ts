import { sql } from 'kysely';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { unwrap, type audit, type Client } from '../../client/index.js';
import { createApiKey } from '../support/auth.js';
import { json, raw, registerBusiness, type TestBusiness } from '../support/business.js';
import { expectError, itemAt } from '../support/expect.js';
import { createCustomer } from '../support/general.js';
import { useTestServer } from '../support/setup.js';
import { newMember, type TestMember } from '../support/team.js';

const server = useTestServer({ worker: false });

/** The first instant of the minute after now, plus a second: a minute no refusal of this file fell in yet. */
const nextMinute = (from = server().clock.now()) =>
  new Date((Math.floor(from.getTime() / 60_000) + 1) * 60_000 + 1_000).toISOString();

const log = async (client: Client, query: Partial<audit.ListAuditLogQuery> = {}) =>
  (await unwrap(client.auditLog.listAuditLog({ query }))) as {
    entries: audit.AuditEntry[];
    total_count: number;
  };

const refusedCreate = (member: TestMember, name = 'Not allowed') =>
  raw(server(), 'POST', '/v1/customers', { token: member.token, ...json({ name }) });

const allAuditRows = async () =>
  Number(
    (
      await server()
        .deps.db.selectFrom('audit_log')
        .select(sql<string>`count(*)`.as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('refused attempts in the audit log', () => {
  let biz: TestBusiness;
  let viewer: TestMember;
  beforeAll(async () => {
    biz = await registerBusiness(server());
    viewer = await newMember(server(), biz, 'viewer');
  });
  beforeEach(() => {
    // Each test starts at a fresh minute, frozen: refusals of one test never share a minute with another's.
    server().clock.set(nextMinute());
  });

  it("records a viewer's refused write once, as denied, with the actor, operation, path id and request id", async () => {
    const refused = await refusedCreate(viewer);
    expectError(refused, 403, 'FORBIDDEN');
    const denied = await log(biz.client, { outcome: 'denied', actor_id: viewer.userId });
    expect(denied.total_count).toBe(1);
    expect(itemAt(denied.entries, 0)).toMatchObject({
      actor: { kind: 'user', id: viewer.userId },
      operation: 'createCustomer',
      outcome: 'denied',
      resource_id: null,
      request_id: refused.headers.get('x-request-id'),
      summary: null,
      occurred_at: server().clock.now().toISOString(),
    });

    // A refusal about one resource names it, from the path.
    const customer = await createCustomer(biz.client);
    const update = await raw(server(), 'PUT', `/v1/customers/${customer.id}`, {
      token: viewer.token,
      ...json({ name: 'Renamed' }),
    });
    expectError(update, 403, 'FORBIDDEN');
    const updates = await log(biz.client, { outcome: 'denied', operation: 'updateCustomer' });
    expect(updates.entries.map((e) => [e.actor.id, e.resource_id])).toEqual([[viewer.userId, customer.id]]);
    // Nothing was changed by it.
    const after = await unwrap(biz.client.general.customers.getCustomer({ params: { id: customer.id } }));
    expect(after.data.name).toBe(customer.name);
  });

  it('keeps one refused row per actor and operation a minute, and another once the clock moves a minute', async () => {
    const member = await newMember(server(), biz, 'viewer');
    server().clock.set(nextMinute());
    for (let i = 0; i < 5; i++) expectError(await refusedCreate(member, `Try ${i}`), 403, 'FORBIDDEN');
    const query = { outcome: 'denied', actor_id: member.userId, operation: 'createCustomer' } as const;
    expect((await log(biz.client, query)).total_count).toBe(1);

    // Another operation in the same minute is its own row.
    expectError(await raw(server(), 'GET', '/v1/audit-log', { token: member.token }), 403, 'FORBIDDEN');
    expect((await log(biz.client, { outcome: 'denied', actor_id: member.userId })).total_count).toBe(2);

    server().clock.advance(60_000);
    const later = await refusedCreate(member, 'A minute later');
    expectError(later, 403, 'FORBIDDEN');
    const rows = (await log(biz.client, query)).entries;
    expect(rows).toHaveLength(2);
    expect(itemAt(rows, 0).request_id).toBe(later.headers.get('x-request-id'));
    expect(
      Date.parse(itemAt(rows, 0).occurred_at) - Date.parse(itemAt(rows, 1).occurred_at),
    ).toBeGreaterThanOrEqual(60_000);
  });

  it('keeps one row for ten concurrent refusals of the same actor and operation', async () => {
    const member = await newMember(server(), biz, 'viewer');
    server().clock.set(nextMinute());
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => refusedCreate(member, `Race ${i}`)),
    );
    for (const answer of answers) expectError(answer, 403, 'FORBIDDEN');
    const rows = await server()
      .deps.db.selectFrom('audit_log')
      .select(['operation', 'outcome', 'request_id'])
      .where('business_id', '=', biz.businessId)
      .where('actor_id', '=', member.userId)
      .execute();
    expect(rows).toHaveLength(1);
    expect(itemAt(rows, 0)).toMatchObject({ operation: 'createCustomer', outcome: 'denied' });
    expect(answers.map((a) => a.headers.get('x-request-id'))).toContain(itemAt(rows, 0).request_id);
  });

  it('records a key of the scope public_loyalty refused on a finance route, as Bearer or as X-Api-Key', async () => {
    const key = await createApiKey(biz.client, 'public_loyalty', 'Storefront');
    const asBearer = await raw(server(), 'GET', '/v1/finance/bills', { token: key.key });
    expectError(asBearer, 403, 'FORBIDDEN');
    const asHeader = await raw(server(), 'POST', '/v1/finance/bills', {
      headers: { 'x-api-key': key.key, 'content-type': 'application/json' },
      body: '{}',
    });
    expectError(asHeader, 403, 'FORBIDDEN');
    const { entries } = await log(biz.client, { outcome: 'denied', actor_id: key.id });
    expect(entries.map((e) => [e.actor.kind, e.operation, e.request_id])).toEqual([
      ['api_key', 'createBill', asHeader.headers.get('x-request-id')],
      ['api_key', 'listBills', asBearer.headers.get('x-request-id')],
    ]);
  });

  it('records a successful change as success, and filters by outcome', async () => {
    const other = await registerBusiness(server());
    const member = await newMember(server(), other, 'viewer');
    const customer = await createCustomer(other.client, { name: 'Ada Lovelace' });
    expectError(await refusedCreate(member), 403, 'FORBIDDEN');

    const all = await log(other.client);
    const created = all.entries.find((e) => e.operation === 'createCustomer' && e.outcome === 'success');
    expect(created).toMatchObject({ resource_id: customer.id, summary: { label: 'Ada Lovelace' } });
    expect(all.entries.filter((e) => e.outcome === 'denied')).toHaveLength(1);

    const denied = await log(other.client, { outcome: 'denied' });
    expect(denied.entries.map((e) => [e.operation, e.actor.id])).toEqual([['createCustomer', member.userId]]);
    const succeeded = await log(other.client, { outcome: 'success' });
    expect(succeeded.total_count).toBe(all.total_count - 1);
    expect(succeeded.entries.every((e) => e.outcome === 'success')).toBe(true);

    const unknown = await raw(server(), 'GET', '/v1/audit-log?outcome=refused', { token: other.accessToken });
    expectError(unknown, 422, 'VALIDATION_ERROR', 'outcome');
  });

  it('records nothing for a request without a valid credential (401), nor for a success or a read', async () => {
    const before = await allAuditRows();
    const anonymous = await raw(server(), 'POST', '/v1/customers', json({ name: 'Nobody' }));
    expectError(anonymous, 401, 'UNAUTHORIZED');
    const unknown = await raw(server(), 'POST', '/v1/customers', {
      token: 'bms_sk_live_unknown',
      ...json({ name: 'Nobody' }),
    });
    expectError(unknown, 401, 'UNAUTHORIZED');
    const badKey = await raw(server(), 'GET', '/v1/finance/bills', {
      headers: { 'x-api-key': 'bms_pk_nope' },
    });
    expectError(badKey, 401, 'UNAUTHORIZED');
    // A read the viewer may do is no refusal, and leaves no row either.
    expect((await raw(server(), 'GET', '/v1/customers', { token: viewer.token })).status).toBe(200);
    expect(await allAuditRows()).toBe(before);
  });

  it("records a refusal by the operation's own rule (an admin demoting an owner), with nothing changed", async () => {
    const admin = await newMember(server(), biz, 'admin');
    const owner = await newMember(server(), biz, 'owner');
    server().clock.set(nextMinute());
    const demote = await raw(server(), 'PATCH', `/v1/team/${owner.userId}`, {
      token: admin.token,
      ...json({ role: 'viewer' }),
    });
    expectError(demote, 403, 'FORBIDDEN');
    const remove = await raw(server(), 'DELETE', `/v1/team/${owner.userId}`, { token: admin.token });
    expectError(remove, 403, 'FORBIDDEN');
    // Written once the answer is sent (its transaction rolled back by then): waited for, not slept.
    await expect
      .poll(async () =>
        (await log(biz.client, { outcome: 'denied', actor_id: admin.userId })).entries
          .map((e) => [e.operation, e.resource_id, e.request_id])
          .sort(),
      )
      .toEqual([
        ['changeMemberRole', owner.userId, demote.headers.get('x-request-id')],
        ['removeMember', owner.userId, remove.headers.get('x-request-id')],
      ]);
    const team = await unwrap(biz.client.team.getTeam());
    expect(team.data.members.find((m) => m.userId === owner.userId)?.role).toBe('owner');
  });

  it('leaves who may read the log unchanged: a viewer is refused, and the refusal is recorded', async () => {
    const refused = await raw(server(), 'GET', '/v1/audit-log?outcome=denied', { token: viewer.token });
    expectError(refused, 403, 'FORBIDDEN');
    expect(refused.body.error.message).toContain('audit.read');
    const { entries } = await log(biz.client, { outcome: 'denied', operation: 'listAuditLog' });
    expect(entries.map((e) => e.request_id)).toContain(refused.headers.get('x-request-id'));
  });
});
