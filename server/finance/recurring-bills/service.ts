import type { Selectable, Updateable } from 'kysely';
import type {
  CreateRecurringBillBody,
  ListRecurringBillsQuery,
  RecurringBill,
  UpdateRecurringBillBody,
} from '../../../contract/finance/index.js';
import {
  addDays,
  today,
  todayByDate,
  todayOfEveryBusiness,
  type DaysByZone,
} from '../../platform/calendar.js';
import { type Ctx, type CtxSource, type TxCtx, inTransaction, jobCtx } from '../../platform/context.js';
import type { FinanceRecurringBillsTable } from '../../platform/db/types.js';
import { invalid, invalidState, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import {
  checkSchedule,
  nextRunOf,
  periodFrom,
  periodOf,
  type ScheduleState,
} from '../../platform/recurring.js';
import { baseCurrency, businessSettings } from '../../platform/settings.js';
import { amountsOf, createBill } from '../bills/service.js';
import { vendorExists } from '../bills/queries.js';
import { toRecurringBill } from './mappers.js';
import * as queries from './queries.js';

/**
 * Recurring bills (docs/decisions.md D251, D252): the schedule of recurring invoices in finance
 * conventions. Each period's bill is recorded through the bills' own path (pending, posted Dr 5000 /
 * Cr 2000 on its period's date), one per period under the schedule's row lock, backed by the bills'
 * unique key of schedule and period date.
 */

type Row = Selectable<FinanceRecurringBillsTable>;
type Items = CreateRecurringBillBody['items'];

const stateOf = (row: Row): ScheduleState => ({ ...row, made: row.bills_created });

async function detail(ctx: Ctx, id: string): Promise<RecurringBill> {
  const row = await queries.findRecurringBill(ctx.db, ctx.businessId, id);
  if (!row) throw notFound('Recurring bill');
  return toRecurringBill(row, await queries.recurringBillItems(ctx.db, ctx.businessId, [id]));
}

export const getRecurringBill = (ctx: Ctx, id: string): Promise<RecurringBill> => detail(ctx, id);

export async function listRecurringBills(
  ctx: Ctx,
  query: ListRecurringBillsQuery,
): Promise<{ recurring_bills: RecurringBill[]; total_count: number }> {
  const { rows, total } = await queries.listRecurringBills(ctx.db, ctx.businessId, query);
  const items = await queries.recurringBillItems(
    ctx.db,
    ctx.businessId,
    rows.map((r) => r.id),
  );
  return {
    recurring_bills: rows.map((row) =>
      toRecurringBill(
        row,
        items.filter((i) => i.recurring_bill_id === row.id),
      ),
    ),
    total_count: total,
  };
}

/** The items priced as the bills will be (the same refusals), and the rows that keep them. */
function pricedItems(ctx: Ctx, id: string, items: Items, currency: string) {
  const { rows, amount } = amountsOf(items, currency);
  return {
    amount,
    rows: rows.map((item, i) => ({
      business_id: ctx.businessId,
      recurring_bill_id: id,
      position: i + 1,
      description: item.description,
      quantity: String(item.quantity),
      unit_price: item.unit_price,
      amount: item.amount,
    })),
  };
}

/** Where the schedule stands: `ended` (with no next date) once its end is reached. */
function settle(
  row: ScheduleState & { status: Row['status'] },
  now: Date,
): Updateable<FinanceRecurringBillsTable> {
  const next = nextRunOf(row);
  if (next === null || row.status === 'ended') return { status: 'ended', next_run_on: null, ended_at: now };
  return { status: row.status, next_run_on: next, ended_at: null };
}

async function requireVendor(ctx: TxCtx, vendorId: string): Promise<void> {
  if (!(await vendorExists(ctx.db, ctx.businessId, vendorId)))
    throw invalid('vendor_id', 'No vendor with this id');
}

export async function createRecurringBill(ctx: Ctx, input: CreateRecurringBillBody): Promise<RecurringBill> {
  checkSchedule(input, input.start_date, await today(ctx));
  const currency = input.currency ?? (await baseCurrency(ctx));
  const id = newId('rbill');
  const { rows, amount } = pricedItems(ctx, id, input.items, currency);
  await inTransaction(ctx, async (ctx) => {
    await requireVendor(ctx, input.vendor_id);
    const now = ctx.clock.now();
    await queries.insertRecurringBill(
      ctx.db,
      {
        business_id: ctx.businessId,
        id,
        vendor_id: input.vendor_id,
        currency,
        amount,
        notes: input.notes ?? null,
        interval: input.interval,
        interval_count: input.interval_count ?? 1,
        start_date: input.start_date,
        end_after_count: input.end_after_count ?? null,
        end_date: input.end_date ?? null,
        due_days: input.due_days ?? 30,
        status: 'active',
        next_period: 0,
        next_run_on: input.start_date,
        created_at: now,
        updated_at: now,
        ended_at: null,
      },
      rows,
    );
  });
  return detail(ctx, id);
}

async function lockOrFail(ctx: TxCtx, id: string): Promise<Row> {
  const row = await queries.lockRecurringBill(ctx.db, ctx.businessId, id);
  if (!row) throw notFound('Recurring bill');
  return row;
}

const endedRefusal = (what: string) => invalidState(`An ended recurring bill cannot be ${what}`);

/** Changes the bills to come; those recorded stay as they are. */
export async function updateRecurringBill(
  ctx: Ctx,
  id: string,
  input: UpdateRecurringBillBody,
): Promise<RecurringBill> {
  const day = await today(ctx);
  await inTransaction(ctx, async (ctx) => {
    const current = await lockOrFail(ctx, id);
    if (current.status === 'ended') throw endedRefusal('changed');
    const start = input.start_date ?? current.start_date;
    checkSchedule(input, start, day);
    const currency = input.currency ?? current.currency;
    const patch: Updateable<FinanceRecurringBillsTable> = { updated_at: ctx.clock.now() };
    if (input.items !== undefined || currency !== current.currency) {
      const items =
        input.items ??
        (await queries.recurringBillItems(ctx.db, ctx.businessId, [id])).map((item) => ({
          description: item.description,
          quantity: Number(item.quantity),
          unit_price: item.unit_price,
        }));
      const { rows, amount } = pricedItems(ctx, id, items, currency);
      await queries.replaceRecurringBillItems(ctx.db, ctx.businessId, id, rows);
      Object.assign(patch, { amount, currency });
    }
    if (input.notes !== undefined) patch.notes = input.notes;
    if (input.due_days !== undefined) patch.due_days = input.due_days;
    // Giving one end replaces the other.
    if (input.end_after_count !== undefined) {
      patch.end_after_count = input.end_after_count;
      if (input.end_after_count !== null) patch.end_date = null;
    }
    if (input.end_date !== undefined) {
      patch.end_date = input.end_date;
      if (input.end_date !== null) patch.end_after_count = null;
    }
    const next: ScheduleState = {
      ...stateOf(current),
      interval: input.interval ?? current.interval,
      interval_count: input.interval_count ?? current.interval_count,
      start_date: start,
      end_after_count: patch.end_after_count !== undefined ? patch.end_after_count : current.end_after_count,
      end_date: patch.end_date !== undefined ? patch.end_date : current.end_date,
    };
    checkSchedule({ end_date: next.end_date }, start, day);
    if (
      input.start_date !== undefined ||
      input.interval !== undefined ||
      input.interval_count !== undefined
    ) {
      next.next_period = periodFrom(next, day);
      Object.assign(patch, {
        start_date: start,
        interval: next.interval,
        interval_count: next.interval_count,
        next_period: next.next_period,
      });
    }
    Object.assign(patch, settle({ ...next, status: current.status }, ctx.clock.now()));
    await queries.updateRecurringBill(ctx.db, ctx.businessId, id, patch);
  });
  return detail(ctx, id);
}

export async function pauseRecurringBill(ctx: Ctx, id: string): Promise<RecurringBill> {
  await inTransaction(ctx, async (ctx) => {
    const current = await lockOrFail(ctx, id);
    if (current.status === 'ended') throw endedRefusal('paused');
    if (current.status === 'paused') return;
    await queries.updateRecurringBill(ctx.db, ctx.businessId, id, {
      status: 'paused',
      updated_at: ctx.clock.now(),
    });
  });
  return detail(ctx, id);
}

/** Continues with the first period on or after today: those that fell while paused are skipped. */
export async function resumeRecurringBill(ctx: Ctx, id: string): Promise<RecurringBill> {
  const day = await today(ctx);
  await inTransaction(ctx, async (ctx) => {
    const current = await lockOrFail(ctx, id);
    if (current.status === 'ended') throw endedRefusal('resumed');
    if (current.status === 'active') return;
    const state = stateOf(current);
    state.next_period = Math.max(current.next_period, periodFrom(state, day));
    await queries.updateRecurringBill(ctx.db, ctx.businessId, id, {
      next_period: state.next_period,
      ...settle({ ...state, status: 'active' }, ctx.clock.now()),
      updated_at: ctx.clock.now(),
    });
  });
  return detail(ctx, id);
}

export async function endRecurringBill(ctx: Ctx, id: string): Promise<RecurringBill> {
  await inTransaction(ctx, async (ctx) => {
    const current = await lockOrFail(ctx, id);
    if (current.status === 'ended') return;
    const now = ctx.clock.now();
    await queries.updateRecurringBill(ctx.db, ctx.businessId, id, {
      status: 'ended',
      next_run_on: null,
      ended_at: now,
      updated_at: now,
    });
  });
  return detail(ctx, id);
}

/**
 * Records the schedule's next bill when its period has come by `day`, in one transaction under the
 * schedule's row lock, through `createBill` (pending, posted on the period's date, due `due_days`
 * later). False when nothing was due (or the schedule changed since it was listed).
 */
async function recordNext(ctx: Ctx, id: string, day: string): Promise<boolean> {
  return inTransaction(ctx, async (ctx) => {
    const row = await queries.lockRecurringBill(ctx.db, ctx.businessId, id);
    if (!row || row.status !== 'active' || row.next_run_on === null || row.next_run_on > day) return false;
    const state = stateOf(row);
    const periodOn = periodOf(state, row.next_period);
    const items = await queries.recurringBillItems(ctx.db, ctx.businessId, [id]);
    await createBill(
      ctx,
      {
        vendor_id: row.vendor_id,
        currency: row.currency,
        items: items.map((item) => ({
          description: item.description,
          quantity: Number(item.quantity),
          unit_price: item.unit_price,
        })),
        issue_date: periodOn,
        due_date: addDays(periodOn, row.due_days),
        notes: row.notes,
      },
      { id, periodOn },
    );
    const made = { ...state, next_period: row.next_period + 1, made: row.bills_created + 1 };
    await queries.updateRecurringBill(ctx.db, ctx.businessId, id, {
      next_period: made.next_period,
      bills_created: made.made,
      last_run_on: periodOn,
      ...settle({ ...made, status: row.status }, ctx.clock.now()),
      updated_at: ctx.clock.now(),
    });
    return true;
  });
}

const JOB = 'recurring bills';
const BATCH = 500;

const todayOf = async (deps: CtxSource, businessId: string): Promise<DaysByZone> =>
  todayByDate([(await businessSettings({ ...deps, businessId })).timezone], deps.clock.now());

/**
 * Records every bill whose period has come, periods missed while nothing ran included (each dated in
 * its own period): every business's (the worker, on real time) or only `businessId`'s (a sandbox's
 * test clock). Returns how many were recorded.
 */
export async function recordRecurringBills(deps: CtxSource, businessId?: string): Promise<number> {
  const days = businessId === undefined ? await todayOfEveryBusiness(deps) : await todayOf(deps, businessId);
  if (days.length === 0) return 0;
  let made = 0;
  let after: queries.DueScheduleKey | undefined;
  for (;;) {
    const batch = await queries.dueRecurringBills(deps.db, days, BATCH, after, businessId);
    for (const key of batch) {
      try {
        const ctx = jobCtx(deps, key.business_id, JOB);
        const day = await today(ctx);
        while (await recordNext(ctx, key.id, day)) made++;
      } catch (err) {
        // One schedule that cannot record its bill must not hold up the others; the next run retries it.
        deps.log.error({ err, ...key }, 'recurring bill failed');
      }
    }
    if (batch.length < BATCH) break;
    after = batch.at(-1);
  }
  if (made > 0) deps.log.info({ made }, 'recurring bills recorded');
  return made;
}

/** Whether a recurring bill of the business has a period due by `deps.clock`'s today. */
export async function hasDueRecurringBills(deps: CtxSource, businessId: string): Promise<boolean> {
  const days = await todayOf(deps, businessId);
  return (await queries.dueRecurringBills(deps.db, days, 1, undefined, businessId)).length > 0;
}
