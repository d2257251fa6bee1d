import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import type { Bill, CreateRecurringBillBody } from '../../contract/finance/index.js';
import { recordRecurringBills } from '../../server/finance/recurring-bills/service.js';
import { runMovedClocks } from '../../server/sandbox/clock/service.js';
import { registerBusiness, sandboxOf, type TestBusiness } from '../support/business.js';
import { expectResultError } from '../support/expect.js';
import { billItem, createRecurringBill, createVendor, entriesOf } from '../support/finance.js';
import { useTestServer } from '../support/setup.js';

const server = useTestServer({ worker: false, env: { ACCESS_TOKEN_TTL: '3650d' } });

const NOW = '2027-01-20T12:00:00.000Z';

beforeEach(() => server().clock.set(NOW));
afterEach(() => server().clock.reset());

const api = (t: TestBusiness) => t.client.finance.recurringBills;

/** The worker's sweep at the server clock's time: every business's, or only `t`'s. */
const sweep = (t?: TestBusiness) => recordRecurringBills(server().deps, t?.businessId);

/** The bills a schedule recorded, by issue date. */
async function billsOf(t: TestBusiness, recurringId: string): Promise<Bill[]> {
  const page = await unwrap(t.client.finance.bills.listBills({ query: { limit: 200 } }));
  const ids = page.bills.filter((b) => b.recurring_bill_id === recurringId).map((b) => b.id);
  const bills = await Promise.all(
    ids.map(async (id) => (await unwrap(t.client.finance.bills.getBill({ params: { id } }))).bill),
  );
  return bills.sort((a, b) => a.issue_date.localeCompare(b.issue_date));
}

const schedule = async (t: TestBusiness, id: string) =>
  (await unwrap(api(t).getRecurringBill({ params: { id } }))).recurring_bill;

async function body(
  t: TestBusiness,
  overrides: Partial<CreateRecurringBillBody> = {},
): Promise<CreateRecurringBillBody> {
  return {
    vendor_id: overrides.vendor_id ?? (await createVendor(t.client)).id,
    items: [billItem({ description: 'Office rent', quantity: 1, unit_price: 120_000 })],
    interval: 'month',
    start_date: '2027-01-31',
    ...overrides,
  };
}

describe('create', () => {
  it('answers 201 in the finance envelope with the schedule, its defaults and first date', async () => {
    const t = await registerBusiness(server());
    const res = await api(t).createRecurringBill({
      body: await body(t, { items: [billItem({ quantity: 2, unit_price: 2_999 })] }),
    });
    expect(res.status).toBe(201);
    const answer = await unwrap(res);
    expect(answer).toMatchObject({
      result: 'success',
      recurring_bill_id: answer.recurring_bill.id,
      message: 'Recurring bill created',
    });
    expect(answer.recurring_bill).toMatchObject({
      currency: 'USD',
      items: [{ description: 'Printer paper (box)', quantity: 2, unit_price: 2_999, amount: 5_998 }],
      amount: 5_998,
      interval: 'month',
      interval_count: 1,
      due_days: 30,
      status: 'active',
      next_run_on: '2027-01-31',
      bills_created: 0,
    });
    expect(answer.recurring_bill.id).toMatch(/^rbill_/);
    expect(await schedule(t, answer.recurring_bill.id)).toEqual(answer.recurring_bill);
    const list = await unwrap(api(t).listRecurringBills({ query: {} }));
    expect(list).toEqual({ result: 'success', recurring_bills: [answer.recurring_bill], total_count: 1 });
  });

  it.each([
    ['an interval count of 0', { interval_count: 0 }, 'interval_count'],
    ['an interval count of 13', { interval_count: 13 }, 'interval_count'],
    ['a start date in the past', { start_date: '2027-01-19' }, 'start_date'],
    ['an end date before the start', { end_date: '2027-01-30' }, 'end_date'],
    ['both ends', { end_date: '2027-12-31', end_after_count: 3 }, 'end_date'],
    ['an unknown vendor', { vendor_id: 'ven_unknown' }, 'vendor_id'],
  ])('refuses %s (422 naming the field) and writes nothing', async (_name, overrides, field) => {
    const t = await registerBusiness(server());
    const res = await api(t).createRecurringBill({ body: await body(t, overrides) });
    expectResultError(res, 422, 'VALIDATION_ERROR', field);
    expect((await unwrap(api(t).listRecurringBills({ query: {} }))).total_count).toBe(0);
  });
});

describe('the worker', () => {
  it("records each period's bill through the bills' path: pending, posted on its date, due after due_days", async () => {
    const t = await registerBusiness(server());
    const rec = await createRecurringBill(t.client, { start_date: '2027-01-31', due_days: 10 });
    server().clock.set('2027-01-31T12:00:00.000Z');
    expect(await sweep(t)).toBe(1);
    expect(await sweep(t)).toBe(0);
    const [bill, ...rest] = await billsOf(t, rec.id);
    expect(rest).toEqual([]);
    expect(bill).toMatchObject({
      status: 'pending',
      amount: 120_000,
      issue_date: '2027-01-31',
      due_date: '2027-02-10',
      recurring_bill_id: rec.id,
    });
    const [entry] = await entriesOf(t.client, bill!.id);
    expect(entry).toMatchObject({ date: '2027-01-31' });
    expect(await schedule(t, rec.id)).toMatchObject({ bills_created: 1, next_run_on: '2027-02-28' });
  });

  it('catches up the periods a stopped worker missed, each bill dated in its own period', async () => {
    const t = await registerBusiness(server());
    const rec = await createRecurringBill(t.client, { start_date: '2027-01-31' });
    server().clock.set('2027-04-05T12:00:00.000Z');
    await sweep();
    expect((await billsOf(t, rec.id)).map((b) => b.issue_date)).toEqual([
      '2027-01-31',
      '2027-02-28',
      '2027-03-31',
    ]);
  });

  it('ends after end_after_count bills', async () => {
    const t = await registerBusiness(server());
    const rec = await createRecurringBill(t.client, { start_date: '2027-01-31', end_after_count: 2 });
    server().clock.set('2027-06-01T12:00:00.000Z');
    expect(await sweep(t)).toBe(2);
    expect(await schedule(t, rec.id)).toMatchObject({ status: 'ended', bills_created: 2, next_run_on: null });
  });

  it('skips the periods that fall while paused; resume continues with the first on or after today', async () => {
    const t = await registerBusiness(server());
    const rec = await createRecurringBill(t.client, { start_date: '2027-01-31' });
    server().clock.set('2027-02-01T12:00:00.000Z');
    expect(await sweep(t)).toBe(1);
    const paused = await unwrap(api(t).pauseRecurringBill({ params: { id: rec.id } }));
    expect(paused).toMatchObject({ result: 'success', message: 'Recurring bill paused' });
    expect(paused.recurring_bill.status).toBe('paused');
    server().clock.set('2027-04-15T12:00:00.000Z');
    expect(await sweep(t)).toBe(0);
    const resumed = await unwrap(api(t).resumeRecurringBill({ params: { id: rec.id } }));
    expect(resumed.recurring_bill).toMatchObject({ status: 'active', next_run_on: '2027-04-30' });
    server().clock.set('2027-05-01T12:00:00.000Z');
    expect(await sweep(t)).toBe(1);
    expect((await billsOf(t, rec.id)).map((b) => b.issue_date)).toEqual(['2027-01-31', '2027-04-30']);
  });

  it('changes only the bills to come with PUT; DELETE ends it and an ended one refuses pause (409)', async () => {
    const t = await registerBusiness(server());
    const rec = await createRecurringBill(t.client, { start_date: '2027-01-31' });
    server().clock.set('2027-01-31T12:00:00.000Z');
    await sweep(t);
    const updated = await unwrap(
      api(t).updateRecurringBill({
        params: { id: rec.id },
        body: { items: [billItem({ description: 'Office rent', quantity: 1, unit_price: 130_000 })] },
      }),
    );
    expect(updated.recurring_bill).toMatchObject({ amount: 130_000, bills_created: 1 });
    server().clock.set('2027-02-28T12:00:00.000Z');
    await sweep(t);
    expect((await billsOf(t, rec.id)).map((b) => b.amount)).toEqual([120_000, 130_000]);
    const ended = await unwrap(api(t).endRecurringBill({ params: { id: rec.id } }));
    expect(ended.recurring_bill).toMatchObject({ status: 'ended', next_run_on: null });
    server().clock.set('2027-05-31T12:00:00.000Z');
    expect(await sweep(t)).toBe(0);
    expectResultError(await api(t).pauseRecurringBill({ params: { id: rec.id } }), 409, 'INVALID_STATE');
    expectResultError(await api(t).getRecurringBill({ params: { id: 'rbill_nope' } }), 404, 'NOT_FOUND');
  });
});

describe("the sandbox's test clock", () => {
  it('records a year of monthly bills from 31 January in one advance', async () => {
    const live = await registerBusiness(server());
    const sandbox = await sandboxOf(server(), live);
    const rec = await createRecurringBill(sandbox.client, { start_date: '2027-01-31' });
    const moved = await unwrap(
      sandbox.client.sandbox.clock.advanceClock({ body: { advance_to: '2027-12-31T12:00:00.000Z' } }),
    );
    expect(moved.data.ran.bills_recurred).toBe(12);
    expect((await billsOf(sandbox, rec.id)).map((b) => b.issue_date.slice(5))).toEqual([
      '01-31',
      '02-28',
      '03-31',
      '04-30',
      '05-31',
      '06-30',
      '07-31',
      '08-31',
      '09-30',
      '10-31',
      '11-30',
      '12-31',
    ]);
  });

  // Truly concurrent on PostgreSQL; PGlite runs the same calls one after another.
  it('records one bill per period under concurrent advances and two workers', async () => {
    const live = await registerBusiness(server());
    const sandbox = await sandboxOf(server(), live);
    const rec = await createRecurringBill(sandbox.client, { start_date: '2027-01-31', interval: 'week' });
    const liveRec = await createRecurringBill(live.client, { start_date: '2027-01-31' });
    const results = await Promise.all([
      ...Array.from({ length: 10 }, (_, i) =>
        sandbox.client.sandbox.clock.advanceClock({
          body: { advance_to: `2027-0${2 + (i % 5)}-0${1 + (i % 3)}T12:00:00.000Z` },
        }),
      ),
      runMovedClocks(server().deps),
      runMovedClocks(server().deps),
    ]);
    for (const result of results.slice(0, 10)) {
      expect([200, 422]).toContain((result as { status: number }).status);
    }
    server().clock.set('2027-06-30T12:00:00.000Z');
    await Promise.all([sweep(), sweep(), runMovedClocks(server().deps)]);
    const dates = (await billsOf(sandbox, rec.id)).map((b) => b.issue_date);
    expect(new Set(dates).size).toBe(dates.length);
    expect((await schedule(sandbox, rec.id)).bills_created).toBe(dates.length);
    expect((await billsOf(live, liveRec.id)).map((b) => b.issue_date)).toEqual([
      '2027-01-31',
      '2027-02-28',
      '2027-03-31',
      '2027-04-30',
      '2027-05-31',
      '2027-06-30',
    ]);
  });
});
