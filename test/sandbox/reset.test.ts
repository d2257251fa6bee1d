import { describe, expect, it } from 'vitest';
import { createClient, unwrap } from '../../client/index.js';
import { createApiKey } from '../support/auth.js';
import { registerBusiness, sandboxOf, type TestBusiness } from '../support/business.js';
import { createCustomer, issuedInvoice } from '../support/general.js';
import { adjustPoints, createProgram, enrollMember } from '../support/loyalty.js';
import { businessRows } from '../support/security.js';
import { useTestServer } from '../support/setup.js';
import { createWebhook, quietUrl } from '../support/webhooks.js';

const server = useTestServer({ worker: false });

const DAY = 86_400_000;
/** The accounts every new business starts with. */
const DEFAULT_CHART = 11;

/** The tables a reset keeps the sandbox's rows in (server/sandbox/reset/queries.ts). */
const KEPT = [
  'businesses',
  'users',
  'access_tokens',
  'api_keys',
  'webhooks',
  'payment_connections',
  'idempotency_keys',
];
/** Views over the tables, which `businessRows` lists too: they follow their tables. */
const VIEWS = [
  'business_time_zones',
  'business_invoice_reminder_steps',
  'business_access_generations',
  'customer_directory',
  'audit_entries',
];

/** A business with something in most domains: customers, invoices, a loyalty member, a webhook. */
async function fill(biz: TestBusiness): Promise<void> {
  const customer = await createCustomer(biz.client, {
    name: 'Ada Example',
    email: 'ada@contacts.example.test',
  });
  await issuedInvoice(biz.client, {
    customer_id: customer.id,
    items: [{ description: 'Work', quantity: 2, unit_price: 50 }],
  });
  await createProgram(biz.client);
  const m = await enrollMember(biz.client);
  await adjustPoints(biz.client, m.publicId, 100);
  await createWebhook(biz.client, { url: quietUrl('reset') });
  await unwrap(biz.client.hr.departments.createDepartment({ body: { name: 'Workshop' } }));
}

const rowCounts = (rows: Record<string, string[]>) =>
  Object.fromEntries(Object.entries(rows).map(([table, list]) => [table, list.length]));

describe('POST /v1/sandbox/reset', () => {
  it("deletes every row of the sandbox's data, keeps its keys, tokens, webhooks and settings, and touches nothing live", async () => {
    const live = await registerBusiness(server());
    const sandbox = await sandboxOf(server(), live);
    await fill(live);
    await fill(sandbox);
    const testKey = (await createApiKey(sandbox.client, 'full')).key;
    await unwrap(
      sandbox.client.auth.updateBusiness({ body: { name: 'Sandbox Ltd', timezone: 'Europe/Paris' } }),
    );

    const liveBefore = await businessRows(server(), live.businessId);
    const sandboxBefore = rowCounts(await businessRows(server(), sandbox.businessId));
    expect(sandboxBefore.customers).toBeGreaterThan(0);
    expect(sandboxBefore.invoices).toBeGreaterThan(0);
    expect(sandboxBefore.loyalty_transactions).toBeGreaterThan(0);
    expect(sandboxBefore.finance_journal_entries).toBeGreaterThan(0);

    const auditRows = () =>
      server()
        .deps.db.selectFrom('audit_log')
        .select('operation')
        .where('business_id', '=', sandbox.businessId)
        .execute();
    const auditBefore = (await auditRows()).length;
    expect(auditBefore).toBeGreaterThan(0);

    const { data } = await unwrap(sandbox.client.sandbox.reset.resetSandbox({ body: {} }));
    expect(data.seeded).toEqual({});
    // The audit log is emptied too; the reset itself is the change it then records.
    expect((await auditRows()).map((r) => r.operation)).toEqual(['resetSandbox']);
    const after = rowCounts(await businessRows(server(), sandbox.businessId));
    for (const [table, n] of Object.entries(after)) {
      if (VIEWS.includes(table)) continue;
      if (KEPT.includes(table)) expect(n, table).toBe(sandboxBefore[table]);
      // The default chart of accounts, as every new business starts with.
      else if (table === 'finance_accounts') expect(n, table).toBe(DEFAULT_CHART);
      // The five default leave types, untracked.
      else if (table === 'hr_leave_types') expect(n, table).toBe(5);
      else expect(n, table).toBe(0);
    }
    const deletable = Object.entries(sandboxBefore)
      .filter(([table]) => !KEPT.includes(table) && !VIEWS.includes(table))
      .reduce((sum, [, n]) => sum + n, auditBefore);
    expect(data.deleted_rows).toBe(deletable);
    expect(await businessRows(server(), live.businessId)).toEqual(liveBefore);

    // The same credentials and settings work on the empty sandbox; its numbering starts again.
    const byKey = createClient({ baseUrl: server().baseUrl, apiKey: testKey, maxRetries: 0 });
    expect((await unwrap(byKey.general.customers.listCustomers({ query: {} }))).data).toEqual([]);
    expect((await unwrap(sandbox.client.auth.getBusiness())).data).toMatchObject({
      name: 'Sandbox Ltd',
      timezone: 'Europe/Paris',
    });
    expect((await unwrap(sandbox.client.webhooks.listWebhooks())).webhooks).toHaveLength(1);
    const customer = await createCustomer(sandbox.client, { name: 'After Reset' });
    const invoice = await issuedInvoice(sandbox.client, {
      customer_id: customer.id,
      items: [{ description: 'Work', quantity: 1, unit_price: 10 }],
    });
    const liveInvoices = (await unwrap(live.client.general.invoices.listInvoices({ query: {} }))).data;
    expect(invoice.number).toBe(liveInvoices[0]?.number);
  });

  it("keeps a live business's posted journal entries immutable in the database: only a sandbox's can be deleted", async () => {
    const live = await registerBusiness(server());
    await fill(live);
    const db = server().deps.db;
    await expect(
      db.deleteFrom('finance_journal_entries').where('business_id', '=', live.businessId).execute(),
    ).rejects.toThrow(/posted journal entries cannot be changed or deleted/);
    await expect(
      db.deleteFrom('finance_journal_lines').where('business_id', '=', live.businessId).execute(),
    ).rejects.toThrow(/posted journal entries cannot be changed or deleted/);
    const sandbox = await sandboxOf(server(), live);
    await fill(sandbox);
    await expect(
      db
        .updateTable('finance_journal_entries')
        .set({ description: 'changed' })
        .where('business_id', '=', sandbox.businessId)
        .execute(),
    ).rejects.toThrow(/posted journal entries cannot be changed or deleted/);
  });

  it('puts an advanced clock back on real time', async () => {
    const live = await registerBusiness(server());
    const sandbox = await sandboxOf(server(), live);
    await unwrap(
      sandbox.client.sandbox.clock.advanceClock({
        body: { advance_to: new Date(Date.now() + 90 * DAY).toISOString() },
      }),
    );
    // Real time is read around each call, so a slow machine cannot make the assertion fail.
    const before = Date.now();
    const { data } = await unwrap(sandbox.client.sandbox.reset.resetSandbox({ body: { seed: false } }));
    const clock = (await unwrap(sandbox.client.sandbox.clock.getClock())).data;
    const after = Date.now();
    expect(clock.advanced_by_seconds).toBe(0);
    for (const at of [data.clock, clock.now]) {
      expect(Date.parse(at)).toBeGreaterThanOrEqual(before);
      expect(Date.parse(at)).toBeLessThanOrEqual(after);
    }
  });

  it('answers a reset retried with its Idempotency-Key from the stored answer, without resetting again', async () => {
    const live = await registerBusiness(server());
    const sandbox = await sandboxOf(server(), live);
    await createCustomer(sandbox.client, { name: 'Before' });
    const headers = { 'idempotency-key': `reset-${sandbox.businessId}` };
    const first = await unwrap(sandbox.client.sandbox.reset.resetSandbox({ body: {}, headers }));
    expect(first.data.deleted_rows).toBeGreaterThan(0);
    await createCustomer(sandbox.client, { name: 'After' });
    const again = await sandbox.client.sandbox.reset.resetSandbox({ body: {}, headers });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first);
    expect((await unwrap(sandbox.client.general.customers.listCustomers({ query: {} }))).data).toHaveLength(
      1,
    );
  });

  it('refuses unknown fields and a seed that is not a boolean (422); nothing is deleted', async () => {
    const live = await registerBusiness(server());
    const sandbox = await sandboxOf(server(), live);
    await createCustomer(sandbox.client, { name: 'Kept' });
    for (const body of [{ seed: 'yes' }, { everything: true }]) {
      const res = await fetch(`${server().baseUrl}/v1/sandbox/reset`, {
        method: 'POST',
        headers: { authorization: `Bearer ${sandbox.accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    expect((await unwrap(sandbox.client.general.customers.listCustomers({ query: {} }))).data).toHaveLength(
      1,
    );
  });
});
