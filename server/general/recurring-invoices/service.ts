import type { Pagination } from '../../../contract/common/pagination.js';
import type {
  CreateRecurringInvoiceBody,
  ListRecurringInvoicesQuery,
  RecurringInvoice,
  UpdateRecurringInvoiceBody,
} from '../../../contract/general/recurring-invoices.js';
import {
  addDays,
  today,
  todayByDate,
  todayOfEveryBusiness,
  type DaysByZone,
} from '../../platform/calendar.js';
import { type Ctx, type CtxSource, type TxCtx, inTransaction, jobCtx } from '../../platform/context.js';
import type { RecurringInvoicesTable } from '../../platform/db/types.js';
import { invalidState, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { paginationOf } from '../../platform/pagination.js';
import {
  checkSchedule,
  nextRunOf,
  periodFrom,
  periodOf,
  type ScheduleState,
} from '../../platform/recurring.js';
import { baseCurrency, businessSettings } from '../../platform/settings.js';
import type { Selectable, Updateable } from 'kysely';
import { customerOf, recipientAddress } from '../documents/delivery.js';
import {
  asInput,
  priceLines,
  requireCustomer,
  storedLineOf,
  storedLines,
  totalsOf,
  writeLines,
} from '../documents/lines.js';
import { itemsOf } from '../documents/queries.js';
import { createDraft, issueInvoice, sendInvoice } from '../invoices/service.js';
import { toRecurringInvoice } from './mappers.js';
import * as queries from './queries.js';

/**
 * Recurring invoices (docs/decisions.md D251, D252): a schedule of invoices made through the usual
 * issue path (numbered, posted, the customer's credit applied, mailed when `auto_send`), one per
 * period, each under the schedule's row lock and backed by the invoices' unique key of schedule and
 * period date.
 */

type Row = Selectable<RecurringInvoicesTable>;

const LINES = 'recurring_invoice_items';

const stateOf = (row: Row): ScheduleState => ({ ...row, made: row.invoices_created });

async function loadRecurringInvoice(ctx: Ctx, id: string): Promise<RecurringInvoice> {
  const row = await queries.findRecurringInvoice(ctx.db, ctx.businessId, id);
  if (!row) throw notFound('Recurring invoice');
  return toRecurringInvoice(row, await itemsOf(ctx.db, ctx.businessId, LINES, [id]));
}

export const getRecurringInvoice = (ctx: Ctx, id: string) => loadRecurringInvoice(ctx, id);

export async function listRecurringInvoices(
  ctx: Ctx,
  query: ListRecurringInvoicesQuery,
): Promise<{ data: RecurringInvoice[]; pagination: Pagination }> {
  const { rows, total } = await queries.listRecurringInvoices(ctx.db, ctx.businessId, query);
  const items = await itemsOf(
    ctx.db,
    ctx.businessId,
    LINES,
    rows.map((r) => r.id),
  );
  const data = rows.map((row) =>
    toRecurringInvoice(
      row,
      items.filter((i) => i.document_id === row.id),
    ),
  );
  return { data, pagination: paginationOf(query, total) };
}

/** Where the schedule stands: `ended` (with no next date) once its end is reached. */
function settle(
  row: ScheduleState & { status: Row['status'] },
  now: Date,
): Updateable<RecurringInvoicesTable> {
  const next = nextRunOf(row);
  if (next === null || row.status === 'ended') return { status: 'ended', next_run_on: null, ended_at: now };
  return { status: row.status, next_run_on: next, ended_at: null };
}

export async function createRecurringInvoice(
  ctx: Ctx,
  input: CreateRecurringInvoiceBody,
): Promise<RecurringInvoice> {
  const currency = input.currency ?? (await baseCurrency(ctx));
  checkSchedule(input, input.start_date, await today(ctx));
  const id = newId('rinv');
  await inTransaction(ctx, async (ctx) => {
    await requireCustomer(ctx.db, ctx.businessId, input.customer_id);
    const lines = await priceLines(ctx, input.items, currency);
    const now = ctx.clock.now();
    await queries.insertRecurringInvoice(ctx.db, {
      business_id: ctx.businessId,
      id,
      customer_id: input.customer_id,
      currency,
      ...totalsOf(lines, currency),
      notes: input.notes ?? null,
      interval: input.interval,
      interval_count: input.interval_count ?? 1,
      start_date: input.start_date,
      end_after_count: input.end_after_count ?? null,
      end_date: input.end_date ?? null,
      due_days: input.due_days ?? 30,
      auto_send: input.auto_send ?? false,
      status: 'active',
      next_period: 0,
      next_run_on: input.start_date,
      created_at: now,
      updated_at: now,
      ended_at: null,
    });
    await writeLines(ctx, LINES, id, storedLines(lines));
  });
  return loadRecurringInvoice(ctx, id);
}

async function lockOrFail(ctx: TxCtx, id: string): Promise<Row> {
  const row = await queries.lockRecurringInvoice(ctx.db, ctx.businessId, id);
  if (!row) throw notFound('Recurring invoice');
  return row;
}

const endedRefusal = (what: string) => invalidState(`An ended recurring invoice cannot be ${what}`);

/** Changes the invoices to come; those made stay as they are. */
export async function updateRecurringInvoice(
  ctx: Ctx,
  id: string,
  input: UpdateRecurringInvoiceBody,
): Promise<RecurringInvoice> {
  const day = await today(ctx);
  await inTransaction(ctx, async (ctx) => {
    const current = await lockOrFail(ctx, id);
    if (current.status === 'ended') throw endedRefusal('changed');
    const start = input.start_date ?? current.start_date;
    checkSchedule(input, start, day);
    const currency = input.currency ?? current.currency;
    const patch: Updateable<RecurringInvoicesTable> = { updated_at: ctx.clock.now() };
    if (input.items !== undefined || currency !== current.currency) {
      const items =
        input.items ??
        (await itemsOf(ctx.db, ctx.businessId, LINES, [id])).map((row) => asInput(row, current.currency));
      const lines = await priceLines(ctx, items, currency);
      await writeLines(ctx, LINES, id, storedLines(lines));
      Object.assign(patch, totalsOf(lines, currency), { currency });
    }
    if (input.notes !== undefined) patch.notes = input.notes;
    if (input.due_days !== undefined) patch.due_days = input.due_days;
    if (input.auto_send !== undefined) patch.auto_send = input.auto_send;
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
    if (next.end_date !== null && next.end_date < start)
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
    await queries.updateRecurringInvoice(ctx.db, ctx.businessId, id, patch);
  });
  return loadRecurringInvoice(ctx, id);
}

export async function pauseRecurringInvoice(ctx: Ctx, id: string): Promise<RecurringInvoice> {
  await inTransaction(ctx, async (ctx) => {
    const current = await lockOrFail(ctx, id);
    if (current.status === 'ended') throw endedRefusal('paused');
    if (current.status === 'paused') return;
    await queries.updateRecurringInvoice(ctx.db, ctx.businessId, id, {
      status: 'paused',
      updated_at: ctx.clock.now(),
    });
  });
  return loadRecurringInvoice(ctx, id);
}

/** Continues with the first period on or after today: those that fell while paused are skipped. */
export async function resumeRecurringInvoice(ctx: Ctx, id: string): Promise<RecurringInvoice> {
  const day = await today(ctx);
  await inTransaction(ctx, async (ctx) => {
    const current = await lockOrFail(ctx, id);
    if (current.status === 'ended') throw endedRefusal('resumed');
    if (current.status === 'active') return;
    const state = stateOf(current);
    state.next_period = Math.max(current.next_period, periodFrom(state, day));
    await queries.updateRecurringInvoice(ctx.db, ctx.businessId, id, {
      next_period: state.next_period,
      ...settle({ ...state, status: 'active' }, ctx.clock.now()),
      updated_at: ctx.clock.now(),
    });
  });
  return loadRecurringInvoice(ctx, id);
}

export async function endRecurringInvoice(ctx: Ctx, id: string): Promise<RecurringInvoice> {
  await inTransaction(ctx, async (ctx) => {
    const current = await lockOrFail(ctx, id);
    if (current.status === 'ended') return;
    const now = ctx.clock.now();
    await queries.updateRecurringInvoice(ctx.db, ctx.businessId, id, {
      status: 'ended',
      next_run_on: null,
      ended_at: now,
      updated_at: now,
    });
  });
  return loadRecurringInvoice(ctx, id);
}

/**
 * Makes the schedule's next invoice when its period has come by `day`, in one transaction under the
 * schedule's row lock: numbered, issued (posted, the customer's credit applied) and mailed when
 * `auto_send` and the customer has an email, through the invoices' own paths. Dated on its period,
 * due `due_days` later. False when nothing was due (or the schedule changed since it was listed).
 */
async function issueNext(ctx: Ctx, id: string, day: string): Promise<boolean> {
  return inTransaction(ctx, async (ctx) => {
    const row = await queries.lockRecurringInvoice(ctx.db, ctx.businessId, id);
    if (!row || row.status !== 'active' || row.next_run_on === null || row.next_run_on > day) return false;
    const state = stateOf(row);
    const periodOn = periodOf(state, row.next_period);
    const lines = (await itemsOf(ctx.db, ctx.businessId, LINES, [id])).map(storedLineOf);
    const draft = await createDraft(ctx, {
      customer_id: row.customer_id,
      currency: row.currency,
      issue_date: periodOn,
      due_date: addDays(periodOn, row.due_days),
      notes: row.notes,
      totals: { subtotal_minor: row.subtotal_minor, tax_minor: row.tax_minor, total_minor: row.total_minor },
      lines,
      recurring: { id, periodOn },
    });
    const mailed = row.auto_send && recipientAddress(await customerOf(ctx, row.customer_id), {}) !== null;
    if (mailed) await sendInvoice(ctx, draft.id, {});
    else await issueInvoice(ctx, draft.id);
    const made = { ...state, next_period: row.next_period + 1, made: row.invoices_created + 1 };
    await queries.updateRecurringInvoice(ctx.db, ctx.businessId, id, {
      next_period: made.next_period,
      invoices_created: made.made,
      last_run_on: periodOn,
      ...settle({ ...made, status: row.status }, ctx.clock.now()),
      updated_at: ctx.clock.now(),
    });
    return true;
  });
}

const JOB = 'recurring invoices';
const BATCH = 500;

const todayOf = async (deps: CtxSource, businessId: string): Promise<DaysByZone> =>
  todayByDate([(await businessSettings({ ...deps, businessId })).timezone], deps.clock.now());

/**
 * Makes every invoice whose period has come, periods missed while nothing ran included (each dated
 * in its own period): every business's (the worker, on real time) or only `businessId`'s (a
 * sandbox's test clock). Returns how many were made.
 */
export async function issueRecurringInvoices(deps: CtxSource, businessId?: string): Promise<number> {
  const days = businessId === undefined ? await todayOfEveryBusiness(deps) : await todayOf(deps, businessId);
  if (days.length === 0) return 0;
  let made = 0;
  let after: queries.DueScheduleKey | undefined;
  for (;;) {
    const batch = await queries.dueRecurringInvoices(deps.db, days, BATCH, after, businessId);
    for (const key of batch) {
      try {
        const ctx = jobCtx(deps, key.business_id, JOB);
        const day = await today(ctx);
        while (await issueNext(ctx, key.id, day)) made++;
      } catch (err) {
        // One schedule that cannot make its invoice must not hold up the others; the next run retries it.
        deps.log.error({ err, ...key }, 'recurring invoice failed');
      }
    }
    if (batch.length < BATCH) break;
    after = batch.at(-1);
  }
  if (made > 0) deps.log.info({ made }, 'recurring invoices made');
  return made;
}

/** Whether a recurring invoice of the business has a period due by `deps.clock`'s today. */
export async function hasDueRecurringInvoices(deps: CtxSource, businessId: string): Promise<boolean> {
  const days = await todayOf(deps, businessId);
  return (await queries.dueRecurringInvoices(deps.db, days, 1, undefined, businessId)).length > 0;
}
