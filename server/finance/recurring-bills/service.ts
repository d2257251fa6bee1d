import type { Selectable, Updateable } from 'kysely';
import type {
  CreateRecurringBillBody,
  ListRecurringBillsQuery,
  RecurringBill,
  UpdateRecurringBillBody,
} from '../../../contract/finance/index.js';
import { addDays, today } from '../../platform/calendar.js';
import { type Ctx, type TxCtx, inTransaction } from '../../platform/context.js';
import type { FinanceRecurringBillsTable } from '../../platform/db/types.js';
import { invalid, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import {
  changedSchedule,
  checkSchedule,
  lockedSchedule,
  scheduleOperations,
  type Schedules,
} from '../../platform/recurring.js';
import { baseCurrency } from '../../platform/settings.js';
import { amountsOf, createBill } from '../bills/service.js';
import { vendorExists } from '../bills/queries.js';
import { toRecurringBill } from './mappers.js';
import * as queries from './queries.js';

/**
 * Recurring bills (docs/decisions.md D251, D252): the schedule of recurring invoices in finance
 * conventions, run by the schedule engine of server/platform/recurring.ts. Each period's bill is
 * recorded through the bills' own path (pending, posted Dr 5000 / Cr 2000 on its period's date), one
 * per period under the schedule's row lock, backed by the bills' unique key of schedule and period date.
 */

type Row = Selectable<FinanceRecurringBillsTable>;
type Items = CreateRecurringBillBody['items'];

/** The stored items as the bills' input. */
const itemsAsInput = (
  items: { description: string; quantity: string; unit_price: number; tax_rate: string }[],
): Items =>
  items.map((item) => ({
    description: item.description,
    quantity: Number(item.quantity),
    unit_price: item.unit_price,
    tax_rate: Number(item.tax_rate),
  }));

/**
 * Each period's bill is recorded through `createBill`: pending, posted on the period's date, due
 * `due_days` later.
 */
const SCHEDULES: Schedules<Row> = {
  table: 'finance_recurring_bills',
  counter: 'bills_created',
  made: (row) => row.bills_created,
  noun: 'Recurring bill',
  job: 'recurring bills',
  async make(ctx, row, periodOn) {
    const items = await queries.recurringBillItems(ctx.db, ctx.businessId, [row.id]);
    await createBill(
      ctx,
      {
        vendor_id: row.vendor_id,
        currency: row.currency,
        items: itemsAsInput(items),
        issue_date: periodOn,
        due_date: addDays(periodOn, row.due_days),
        notes: row.notes,
      },
      { id: row.id, periodOn },
    );
  },
};

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
      tax_rate: String(item.tax_rate),
      tax: item.tax,
    })),
  };
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

/** Changes the bills to come; those recorded stay as they are. */
export async function updateRecurringBill(
  ctx: Ctx,
  id: string,
  input: UpdateRecurringBillBody,
): Promise<RecurringBill> {
  const day = await today(ctx);
  await inTransaction(ctx, async (ctx) => {
    const current = await lockedSchedule(ctx, SCHEDULES, id);
    const patch: Updateable<FinanceRecurringBillsTable> = changedSchedule(
      SCHEDULES,
      current,
      input,
      day,
      ctx.clock.now(),
    );
    const currency = input.currency ?? current.currency;
    if (input.items !== undefined || currency !== current.currency) {
      const items =
        input.items ?? itemsAsInput(await queries.recurringBillItems(ctx.db, ctx.businessId, [id]));
      const { rows, amount } = pricedItems(ctx, id, items, currency);
      await queries.replaceRecurringBillItems(ctx.db, ctx.businessId, id, rows);
      Object.assign(patch, { amount, currency });
    }
    if (input.notes !== undefined) patch.notes = input.notes;
    if (input.due_days !== undefined) patch.due_days = input.due_days;
    await queries.updateRecurringBill(ctx.db, ctx.businessId, id, patch);
  });
  return detail(ctx, id);
}

/**
 * Pause (the periods that fall while paused are skipped), resume (with the first period on or after
 * today), end; the run that makes every document whose period has come, missed periods included.
 */
export const {
  pause: pauseRecurringBill,
  resume: resumeRecurringBill,
  end: endRecurringBill,
  makeDue: recordRecurringBills,
  hasDue: hasDueRecurringBills,
} = scheduleOperations(SCHEDULES, detail);
