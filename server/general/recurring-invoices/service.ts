import type { Pagination } from '../../../contract/common/pagination.js';
import type {
  CreateRecurringInvoiceBody,
  ListRecurringInvoicesQuery,
  RecurringInvoice,
  UpdateRecurringInvoiceBody,
} from '../../../contract/general/recurring-invoices.js';
import { addDays, today } from '../../platform/calendar.js';
import { type Ctx, inTransaction } from '../../platform/context.js';
import type { RecurringInvoicesTable } from '../../platform/db/types.js';
import { notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { paginationOf } from '../../platform/pagination.js';
import {
  changedSchedule,
  checkSchedule,
  lockedSchedule,
  scheduleOperations,
  type Schedules,
} from '../../platform/recurring.js';
import { baseCurrency } from '../../platform/settings.js';
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
 * Recurring invoices (docs/decisions.md D251, D252): a schedule of invoices, run by the schedule
 * engine of server/platform/recurring.ts, one per period, each under the schedule's row lock and
 * backed by the invoices' unique key of schedule and period date.
 */

type Row = Selectable<RecurringInvoicesTable>;

const LINES = 'recurring_invoice_items';

/**
 * Each period's invoice goes through the usual issue path: numbered, issued (posted, the customer's
 * credit applied) and mailed when `auto_send` and the customer has an email. Dated on its period, due
 * `due_days` later.
 */
const SCHEDULES: Schedules<Row> = {
  table: 'recurring_invoices',
  counter: 'invoices_created',
  made: (row) => row.invoices_created,
  noun: 'Recurring invoice',
  job: 'recurring invoices',
  async make(ctx, row, periodOn) {
    const lines = (await itemsOf(ctx.db, ctx.businessId, LINES, [row.id])).map(storedLineOf);
    const draft = await createDraft(ctx, {
      customer_id: row.customer_id,
      currency: row.currency,
      issue_date: periodOn,
      due_date: addDays(periodOn, row.due_days),
      notes: row.notes,
      totals: { subtotal_minor: row.subtotal_minor, tax_minor: row.tax_minor, total_minor: row.total_minor },
      lines,
      recurring: { id: row.id, periodOn },
    });
    const mailed = row.auto_send && recipientAddress(await customerOf(ctx, row.customer_id), {}) !== null;
    if (mailed) await sendInvoice(ctx, draft.id, {});
    else await issueInvoice(ctx, draft.id);
  },
};

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

/** Changes the invoices to come; those made stay as they are. */
export async function updateRecurringInvoice(
  ctx: Ctx,
  id: string,
  input: UpdateRecurringInvoiceBody,
): Promise<RecurringInvoice> {
  const day = await today(ctx);
  await inTransaction(ctx, async (ctx) => {
    const current = await lockedSchedule(ctx, SCHEDULES, id);
    const patch: Updateable<RecurringInvoicesTable> = changedSchedule(
      SCHEDULES,
      current,
      input,
      day,
      ctx.clock.now(),
    );
    const currency = input.currency ?? current.currency;
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
    await queries.updateRecurringInvoice(ctx.db, ctx.businessId, id, patch);
  });
  return loadRecurringInvoice(ctx, id);
}

/**
 * Pause (the periods that fall while paused are skipped), resume (with the first period on or after
 * today), end; the run that makes every document whose period has come, missed periods included.
 */
export const {
  pause: pauseRecurringInvoice,
  resume: resumeRecurringInvoice,
  end: endRecurringInvoice,
  makeDue: issueRecurringInvoices,
  hasDue: hasDueRecurringInvoices,
} = scheduleOperations(SCHEDULES, loadRecurringInvoice);
