import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import { nextPeriodDates } from '../../contract/common/schedule.js';
import type { CreateRecurringInvoiceBody, Invoice } from '../../contract/general/index.js';
import { issueRecurringInvoices } from '../../server/general/recurring-invoices/service.js';
import { relayPendingEvents } from '../../server/platform/relay.js';
import { runMovedClocks } from '../../server/sandbox/clock/service.js';
import { registerTenant, sandboxOf, type TestBusiness, type TestTenant } from '../support/business.js';
import { expectError } from '../support/expect.js';
import { outbox, withEvents } from '../support/events.js';
import { entriesOf } from '../support/finance.js';
import { createCustomer, createRecurringInvoice, invoiceLine } from '../support/general.js';
import { useTestServer } from '../support/setup.js';

const server = useTestServer({ worker: false, env: { ACCESS_TOKEN_TTL: '3650d' } });

const NOW = '2027-01-20T12:00:00.000Z';
const TODAY = '2027-01-20';

beforeEach(() => server().clock.set(NOW));
afterEach(() => server().clock.reset());

const newTenant = () => registerTenant(server());
const api = (t: TestBusiness) => t.client.general.recurringInvoices;

/**
 * The worker's sweep at the server clock's time: every business's, or only `t`'s (so that what it
 * counts is that business's alone).
 */
const sweep = (t?: TestBusiness) => issueRecurringInvoices(server().deps, t?.businessId);

/** The invoices a schedule made, oldest first. */
async function invoicesOf(t: TestBusiness, recurringId: string): Promise<Invoice[]> {
  const page = await unwrap(
    t.client.general.invoices.listInvoices({ query: { limit: 100, sort: 'number:asc' } }),
  );
  return page.data.filter((i) => i.recurring_invoice_id === recurringId);
}

const schedule = async (t: TestBusiness, id: string) =>
  (await unwrap(api(t).getRecurringInvoice({ params: { id } }))).data;

const body = (
  t: TestTenant,
  overrides: Partial<CreateRecurringInvoiceBody> = {},
): CreateRecurringInvoiceBody => ({
  customer_id: t.customerId,
  items: [invoiceLine({ description: 'Monthly support', unit_price: 100, tax_rate: 20 })],
  interval: 'month',
  start_date: '2027-01-31',
  ...overrides,
});

describe('create', () => {
  it('makes an active schedule (201) with its defaults, priced lines and first date', async () => {
    const t = await newTenant();
    const res = await api(t).createRecurringInvoice({
      body: body(t, {
        items: [
          invoiceLine({
            description: 'Support',
            quantity: 2,
            unit_price: 50,
            tax_rate: 20,
            discount_percent: 10,
          }),
        ],
      }),
    });
    expect(res.status).toBe(201);
    const created = (await unwrap(res)).data;
    expect(created).toMatchObject({
      customer_id: t.customerId,
      currency: 'USD',
      interval: 'month',
      interval_count: 1,
      start_date: '2027-01-31',
      end_after_count: null,
      end_date: null,
      due_days: 30,
      auto_send: false,
      status: 'active',
      next_run_on: '2027-01-31',
      invoices_created: 0,
      subtotal: 90,
      tax: 18,
      total: 108,
      ended_at: null,
    });
    expect(created.id).toMatch(/^rinv_/);
    expect(created.items).toEqual([
      {
        id: expect.stringMatching(/^item_/),
        product_id: null,
        description: 'Support',
        quantity: 2,
        unit_price: 50,
        tax_rate: 20,
        discount_percent: 10,
        total: 90,
        tax: 18,
      },
    ]);
    expect(await schedule(t, created.id)).toEqual(created);
    const list = await unwrap(api(t).listRecurringInvoices({ query: {} }));
    expect(list.data.map((r) => r.id)).toEqual([created.id]);
    expect(list.pagination.total).toBe(1);
  });

  it('accepts a start date of today', async () => {
    const t = await newTenant();
    const created = await createRecurringInvoice(t.client, { customer_id: t.customerId, start_date: TODAY });
    expect(created.next_run_on).toBe(TODAY);
  });

  it.each([
    ['an interval count of 0', { interval_count: 0 }, 'interval_count'],
    ['an interval count of 13', { interval_count: 13 }, 'interval_count'],
    ['a start date in the past', { start_date: '2027-01-19' }, 'start_date'],
    ['an end date before the start', { end_date: '2027-01-30' }, 'end_date'],
    ['both ends', { end_date: '2027-12-31', end_after_count: 3 }, 'end_date'],
    ['an unknown customer', { customer_id: 'cus_unknown' }, 'customer_id'],
    [
      'a discount over 100',
      { items: [invoiceLine({ unit_price: 10, discount_percent: 100.5 })] },
      'items.0.discount_percent',
    ],
    ['an unknown interval', { interval: 'day' as never }, 'interval'],
  ])('refuses %s (422 naming the field) and writes nothing', async (_name, overrides, field) => {
    const t = await newTenant();
    const res = await api(t).createRecurringInvoice({ body: body(t, overrides) });
    expectError(res, 422, 'VALIDATION_ERROR', field);
    const list = await unwrap(api(t).listRecurringInvoices({ query: {} }));
    expect(list.data).toEqual([]);
  });

  it('refuses a schedule for a deleted customer (422)', async () => {
    const t = await newTenant();
    const gone = await createCustomer(t.client, { name: 'Gone Ltd' });
    await unwrap(t.client.general.customers.deleteCustomer({ params: { id: gone.id } }));
    expectError(
      await api(t).createRecurringInvoice({ body: body(t, { customer_id: gone.id }) }),
      422,
      'VALIDATION_ERROR',
      'customer_id',
    );
  });

  it('keeps a customer with a recurring invoice from being deleted (409)', async () => {
    const t = await newTenant();
    await createRecurringInvoice(t.client, { customer_id: t.customerId, start_date: '2027-01-31' });
    const res = await t.client.general.customers.deleteCustomer({ params: { id: t.customerId } });
    expect(res.status).toBe(409);
  });
});

describe('the worker', () => {
  it("issues each period's invoice on its day through the usual path: numbered, posted, due after due_days", async () => {
    const t = await newTenant();
    const rec = await createRecurringInvoice(t.client, {
      customer_id: t.customerId,
      start_date: '2027-01-31',
      due_days: 14,
      notes: 'Thank you',
    });
    server().clock.set('2027-01-30T12:00:00.000Z');
    expect(await sweep(t)).toBe(0);
    server().clock.set('2027-01-31T12:00:00.000Z');
    expect(await sweep(t)).toBe(1);
    expect(await sweep(t)).toBe(0);
    const [invoice, ...rest] = await invoicesOf(t, rec.id);
    expect(rest).toEqual([]);
    expect(invoice).toMatchObject({
      number: 'INV-000001',
      status: 'unpaid',
      issue_date: '2027-01-31',
      due_date: '2027-02-14',
      notes: 'Thank you',
      total: 120,
      recurring_invoice_id: rec.id,
      sent_at: null,
    });
    expect((await entriesOf(t.client, invoice!.id)).length).toBe(1);
    expect(await schedule(t, rec.id)).toMatchObject({ invoices_created: 1, next_run_on: '2027-02-28' });
  });

  it('catches up the periods a stopped worker missed, each invoice dated in its own period', async () => {
    const t = await newTenant();
    const rec = await createRecurringInvoice(t.client, {
      customer_id: t.customerId,
      start_date: '2027-01-31',
    });
    server().clock.set('2027-04-05T12:00:00.000Z');
    await sweep();
    const made = await invoicesOf(t, rec.id);
    expect(made.map((i) => [i.number, i.issue_date, i.due_date])).toEqual([
      ['INV-000001', '2027-01-31', '2027-03-02'],
      ['INV-000002', '2027-02-28', '2027-03-30'],
      ['INV-000003', '2027-03-31', '2027-04-30'],
    ]);
    expect(await schedule(t, rec.id)).toMatchObject({ invoices_created: 3, next_run_on: '2027-04-30' });
  });

  it('applies the customer credit as an issue does', async () => {
    const t = await newTenant();
    const paid = await unwrap(
      t.client.general.invoices.createInvoice({
        body: { customer_id: t.customerId, items: [invoiceLine({ unit_price: 50 })], due_date: '2027-02-20' },
      }),
    );
    await unwrap(t.client.general.invoices.issueInvoice({ params: { id: paid.data.id } }));
    await unwrap(
      t.client.general.creditNotes.createCreditNote({
        body: {
          invoice_id: paid.data.id,
          amount: 50,
          reason: 'Goodwill',
          credit_amount: 0,
          refund_amount: 0,
          customer_credit_amount: 50,
        },
      }),
    );
    const rec = await createRecurringInvoice(t.client, {
      customer_id: t.customerId,
      start_date: '2027-01-31',
    });
    server().clock.set('2027-01-31T12:00:00.000Z');
    await sweep();
    const [invoice] = await invoicesOf(t, rec.id);
    expect(invoice).toMatchObject({ total: 120, amount_paid: 50, amount_due: 70 });
    expect(invoice!.payments.map((p) => p.payment_method)).toEqual(['credit']);
  });

  it('mails each invoice when auto_send, as /send does', async () => {
    const t = await newTenant();
    const customer = await createCustomer(t.client, {
      name: 'Mailed Ltd',
      email: 'billing@mailed.example.test',
    });
    const rec = await createRecurringInvoice(t.client, {
      customer_id: customer.id,
      start_date: '2027-01-31',
      auto_send: true,
    });
    server().clock.set('2027-02-28T12:00:00.000Z');
    expect(await sweep(t)).toBe(2);
    const made = await invoicesOf(t, rec.id);
    expect(made.every((i) => i.sent_at !== null && i.status !== 'draft')).toBe(true);
    const mails = await server()
      .deps.db.selectFrom('mail_messages')
      .select(['to_address', 'subject'])
      .where('business_id', '=', t.businessId)
      .execute();
    expect(mails.filter((m) => m.to_address === 'billing@mailed.example.test')).toHaveLength(2);
    expect(mails.map((m) => m.subject).join(' ')).toContain(made[0]!.number);
  });

  it('ends after end_after_count invoices, and on its end date', async () => {
    const t = await newTenant();
    const counted = await createRecurringInvoice(t.client, {
      customer_id: t.customerId,
      start_date: '2027-01-31',
      end_after_count: 2,
    });
    const dated = await createRecurringInvoice(t.client, {
      customer_id: t.customerId,
      start_date: '2027-01-31',
      interval: 'week',
      interval_count: 2,
      end_date: '2027-03-01',
    });
    server().clock.set('2027-06-01T12:00:00.000Z');
    await sweep();
    expect((await invoicesOf(t, counted.id)).map((i) => i.issue_date)).toEqual(['2027-01-31', '2027-02-28']);
    expect(await schedule(t, counted.id)).toMatchObject({
      status: 'ended',
      invoices_created: 2,
      next_run_on: null,
      ended_at: expect.any(String),
    });
    expect((await invoicesOf(t, dated.id)).map((i) => i.issue_date)).toEqual([
      '2027-01-31',
      '2027-02-14',
      '2027-02-28',
    ]);
    expect(await schedule(t, dated.id)).toMatchObject({ status: 'ended', next_run_on: null });
  });

  it('skips the periods that fall while paused; resume continues with the first on or after today', async () => {
    const t = await newTenant();
    const rec = await createRecurringInvoice(t.client, {
      customer_id: t.customerId,
      start_date: '2027-01-31',
    });
    server().clock.set('2027-02-01T12:00:00.000Z');
    expect(await sweep(t)).toBe(1);
    const paused = (await unwrap(api(t).pauseRecurringInvoice({ params: { id: rec.id } }))).data;
    expect(paused.status).toBe('paused');
    // Pausing again changes nothing.
    expect((await unwrap(api(t).pauseRecurringInvoice({ params: { id: rec.id } }))).data).toEqual(paused);
    server().clock.set('2027-04-15T12:00:00.000Z');
    expect(await sweep(t)).toBe(0);
    const resumed = (await unwrap(api(t).resumeRecurringInvoice({ params: { id: rec.id } }))).data;
    expect(resumed).toMatchObject({ status: 'active', next_run_on: '2027-04-30', invoices_created: 1 });
    expect(await sweep(t)).toBe(0);
    server().clock.set('2027-05-01T12:00:00.000Z');
    expect(await sweep(t)).toBe(1);
    expect((await invoicesOf(t, rec.id)).map((i) => i.issue_date)).toEqual(['2027-01-31', '2027-04-30']);
  });

  it('changes only the invoices to come with PUT', async () => {
    const t = await newTenant();
    const rec = await createRecurringInvoice(t.client, {
      customer_id: t.customerId,
      start_date: '2027-01-31',
    });
    server().clock.set('2027-01-31T12:00:00.000Z');
    await sweep();
    const updated = await unwrap(
      api(t).updateRecurringInvoice({
        params: { id: rec.id },
        body: {
          items: [invoiceLine({ description: 'Premium support', unit_price: 200, tax_rate: 20 })],
          due_days: 7,
        },
      }),
    );
    expect(updated.data).toMatchObject({
      total: 240,
      due_days: 7,
      next_run_on: '2027-02-28',
      invoices_created: 1,
    });
    server().clock.set('2027-02-28T12:00:00.000Z');
    await sweep();
    const made = await invoicesOf(t, rec.id);
    expect(made.map((i) => [i.total, i.due_date])).toEqual([
      [120, '2027-03-02'],
      [240, '2027-03-07'],
    ]);
  });

  it('starts again from a new start date, never making a period twice', async () => {
    const t = await newTenant();
    const rec = await createRecurringInvoice(t.client, {
      customer_id: t.customerId,
      start_date: '2027-01-31',
    });
    server().clock.set('2027-01-31T12:00:00.000Z');
    await sweep();
    const moved = await unwrap(
      api(t).updateRecurringInvoice({
        params: { id: rec.id },
        body: { start_date: '2027-01-31', interval: 'week' },
      }),
    );
    expect(moved.data).toMatchObject({ interval: 'week', next_run_on: '2027-02-07' });
    expectError(
      await api(t).updateRecurringInvoice({ params: { id: rec.id }, body: { start_date: '2027-01-30' } }),
      422,
      'VALIDATION_ERROR',
      'start_date',
    );
    expectError(
      await api(t).updateRecurringInvoice({ params: { id: rec.id }, body: { end_date: '2027-01-01' } }),
      422,
      'VALIDATION_ERROR',
      'end_date',
    );
  });

  it('ends with DELETE, keeping the invoices made; an ended schedule refuses pause, resume and PUT (409)', async () => {
    const t = await newTenant();
    const rec = await createRecurringInvoice(t.client, {
      customer_id: t.customerId,
      start_date: '2027-01-31',
    });
    server().clock.set('2027-01-31T12:00:00.000Z');
    await sweep();
    const ended = (await unwrap(api(t).endRecurringInvoice({ params: { id: rec.id } }))).data;
    expect(ended).toMatchObject({ status: 'ended', next_run_on: null, invoices_created: 1 });
    expect((await unwrap(api(t).endRecurringInvoice({ params: { id: rec.id } }))).data).toEqual(ended);
    server().clock.set('2027-03-31T12:00:00.000Z');
    expect(await sweep(t)).toBe(0);
    expect(await invoicesOf(t, rec.id)).toHaveLength(1);
    expectError(await api(t).pauseRecurringInvoice({ params: { id: rec.id } }), 409, 'INVALID_STATE');
    expectError(await api(t).resumeRecurringInvoice({ params: { id: rec.id } }), 409, 'INVALID_STATE');
    expectError(
      await api(t).updateRecurringInvoice({ params: { id: rec.id }, body: { due_days: 3 } }),
      409,
      'INVALID_STATE',
    );
  });

  it('answers 404 for an unknown id', async () => {
    const t = await newTenant();
    expectError(await api(t).getRecurringInvoice({ params: { id: 'rinv_nope' } }), 404, 'NOT_FOUND');
    expectError(await api(t).pauseRecurringInvoice({ params: { id: 'rinv_nope' } }), 404, 'NOT_FOUND');
  });
});

describe("the sandbox's test clock", () => {
  const advance = (sandbox: TestBusiness, to: string) =>
    sandbox.client.sandbox.clock.advanceClock({ body: { advance_to: to } });

  it('makes a year of monthly invoices from 31 January in one advance, clamped to short months', async () => {
    const live = await newTenant();
    const sandbox = await sandboxOf(server(), live);
    const customer = await createCustomer(sandbox.client);
    const rec = await createRecurringInvoice(sandbox.client, {
      customer_id: customer.id,
      start_date: '2027-01-31',
    });
    const moved = await unwrap(await advance(sandbox, '2027-12-31T12:00:00.000Z'));
    expect(moved.data.ran.invoices_recurred).toBe(12);
    const made = await invoicesOf(sandbox, rec.id);
    expect(made.map((i) => i.issue_date)).toEqual([
      '2027-01-31',
      '2027-02-28',
      '2027-03-31',
      '2027-04-30',
      '2027-05-31',
      '2027-06-30',
      '2027-07-31',
      '2027-08-31',
      '2027-09-30',
      '2027-10-31',
      '2027-11-30',
      '2027-12-31',
    ]);
    expect(made.map((i) => i.number)).toEqual(made.map((_, n) => `INV-${String(n + 1).padStart(6, '0')}`));
    expect(await schedule(sandbox, rec.id)).toMatchObject({
      invoices_created: 12,
      next_run_on: '2028-01-31',
    });
    // Nothing of the sandbox's reached the live business.
    expect(await unwrap(live.client.general.invoices.listInvoices({ query: {} }))).toMatchObject({
      data: [],
    });
  });

  // Truly concurrent on PostgreSQL; PGlite runs the same calls one after another.
  it('makes one invoice per period under ten concurrent advances and two workers', async () => {
    const live = await newTenant();
    const sandbox = await sandboxOf(server(), live);
    const customer = await createCustomer(sandbox.client);
    const rec = await createRecurringInvoice(sandbox.client, {
      customer_id: customer.id,
      start_date: '2027-01-31',
      interval: 'week',
    });
    const liveRec = await createRecurringInvoice(live.client, {
      customer_id: live.customerId,
      start_date: '2027-01-31',
    });
    const targets = Array.from(
      { length: 10 },
      (_, i) => `2027-0${2 + (i % 5)}-0${1 + (i % 3)}T12:00:00.000Z`,
    );
    const results = await Promise.all([
      ...targets.map((to) => advance(sandbox, to)),
      runMovedClocks(server().deps),
      runMovedClocks(server().deps),
    ]);
    for (const result of results.slice(0, 10)) {
      expect([200, 422]).toContain((result as { status: number }).status);
    }
    // Real time reaches the live schedule's periods: two workers sweep at once, the moved clocks too.
    server().clock.set('2027-06-30T12:00:00.000Z');
    await Promise.all([sweep(), sweep(), runMovedClocks(server().deps), runMovedClocks(server().deps)]);

    const dates = (await invoicesOf(sandbox, rec.id)).map((i) => i.issue_date);
    expect(dates.length).toBeGreaterThan(20);
    expect(dates).toEqual(
      nextPeriodDates({ anchor: '2027-01-31', interval: 'week', intervalCount: 1 }, dates.length),
    );
    expect((await schedule(sandbox, rec.id)).invoices_created).toBe(dates.length);
    const liveMade = await invoicesOf(live, liveRec.id);
    expect(liveMade.map((i) => i.issue_date)).toEqual([
      '2027-01-31',
      '2027-02-28',
      '2027-03-31',
      '2027-04-30',
      '2027-05-31',
      '2027-06-30',
    ]);
  });
});

/**
 * Makes the database refuse every invoice of `customerId` (a failure no request can cause, as a
 * broken disk or a bug would), until the returned function lifts it.
 */
async function refuseInvoicesOf(customerId: string): Promise<() => Promise<void>> {
  const db = server().deps.db;
  const name = `refuse_${customerId.toLowerCase().replace(/[^a-z0-9]/g, '_')}`;
  await sql
    .raw(
      `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN RAISE EXCEPTION 'refused by the test'; END $$`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER ${name} BEFORE INSERT ON invoices FOR EACH ROW
       WHEN (NEW.customer_id = '${customerId}') EXECUTE FUNCTION ${name}()`,
    )
    .execute(db);
  return async () => {
    await sql.raw(`DROP TRIGGER ${name} ON invoices`).execute(db);
    await sql.raw(`DROP FUNCTION ${name}()`).execute(db);
  };
}

describe('a schedule that cannot make its invoice', () => {
  it("holds up no other schedule in the worker's sweep, and is caught up by a later one", async () => {
    const t = await newTenant();
    const failing = await createCustomer(t.client);
    const broken = await createRecurringInvoice(t.client, {
      customer_id: failing.id,
      start_date: '2027-01-31',
    });
    const healthy = await createRecurringInvoice(t.client, {
      customer_id: t.customerId,
      start_date: '2027-01-31',
    });
    const lift = await refuseInvoicesOf(failing.id);
    try {
      server().clock.set('2027-02-01T12:00:00.000Z');
      expect(await sweep(t)).toBe(1);
    } finally {
      await lift();
    }
    expect((await invoicesOf(t, healthy.id)).map((i) => i.issue_date)).toEqual(['2027-01-31']);
    expect(await invoicesOf(t, broken.id)).toEqual([]);
    expect(await schedule(t, broken.id)).toMatchObject({ invoices_created: 0, next_run_on: '2027-01-31' });

    expect(await sweep(t)).toBe(1);
    expect((await invoicesOf(t, broken.id)).map((i) => i.issue_date)).toEqual(['2027-01-31']);
  });

  it('fails an advance as a whole: the clock, the schedules and the invoices stay as they were', async () => {
    const sandbox = await sandboxOf(server(), await newTenant());
    const clockBefore = (await unwrap(sandbox.client.sandbox.clock.getClock())).data;
    const failing = await createCustomer(sandbox.client);
    const other = await createCustomer(sandbox.client);
    const broken = await createRecurringInvoice(sandbox.client, {
      customer_id: failing.id,
      start_date: '2027-01-31',
    });
    const healthy = await createRecurringInvoice(sandbox.client, {
      customer_id: other.id,
      start_date: '2027-01-31',
    });
    const advance = () =>
      sandbox.client.sandbox.clock.advanceClock({ body: { advance_to: '2027-04-01T12:00:00.000Z' } });
    const lift = await refuseInvoicesOf(failing.id);
    try {
      expectError(await advance(), 500, 'INTERNAL_ERROR');
    } finally {
      await lift();
    }
    expect((await unwrap(sandbox.client.sandbox.clock.getClock())).data.now).toBe(clockBefore.now);
    expect(await invoicesOf(sandbox, healthy.id)).toEqual([]);
    expect(await schedule(sandbox, healthy.id)).toMatchObject({ invoices_created: 0 });

    // The same advance, once nothing refuses, makes both schedules' periods; the relay dispatches their events.
    const { result, events } = await withEvents(server(), sandbox.businessId, () => unwrap(advance()));
    expect(result.data.ran.invoices_recurred).toBe(6);
    expect((await invoicesOf(sandbox, broken.id)).map((i) => i.issue_date)).toEqual([
      '2027-01-31',
      '2027-02-28',
      '2027-03-31',
    ]);
    expect(events.length).toBeGreaterThanOrEqual(6);
    expect(events.every((e) => e.dispatched_at === null)).toBe(true);
    await relayPendingEvents(server().deps);
    const relayed = (await outbox(server(), sandbox.businessId)).filter((e) =>
      events.some((n) => n.id === e.id),
    );
    expect(relayed.map((e) => e.dispatched_at)).toEqual(events.map(() => expect.any(Date)));
  });
});
