import type {
  CreateHolidayBody,
  Holiday,
  ListHolidaysQuery,
  UpdateHolidayBody,
} from '../../../contract/hr/holidays.js';
import { CreateHolidayBodySchema, UpdateHolidayBodySchema } from '../../../contract/hr/holidays.js';
import { DateSchema } from '../../../contract/common/schemas.js';
import { workingDays } from '../../../contract/hr/working-days.js';
import { inTransaction, type Ctx, type TxCtx } from '../../platform/context.js';
import { refuseDuplicates } from '../../platform/db/errors.js';
import { conflict, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { ImportTarget } from '../../platform/import-target.js';
import { announceRecount } from '../leaves/service.js';
import * as queries from './queries.js';
import type { HolidayRow } from './queries.js';

const toHoliday = (row: HolidayRow): Holiday => ({
  id: row.id,
  date: row.date,
  name: row.name,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

const duplicates = {
  hr_holidays_date_key: () => conflict('The business already has a holiday on this date'),
};

/**
 * The pending requests over `dates` count their working days again with the holidays as they now
 * are; approved ones keep what was granted (docs/decisions.md D280). Each whose count changed is
 * announced (`leave.updated`), so a subscriber holding its `days` hears of it.
 */
async function recountPending(ctx: TxCtx, dates: readonly string[]): Promise<void> {
  const now = ctx.clock.now();
  const leaves = await queries.pendingLeavesOver(ctx.db, ctx.businessId, dates);
  if (leaves.length === 0) return;
  // The holidays of every day the requests cover, read once (workingDays keeps those in each range).
  const from = leaves.map((l) => l.start_date).sort()[0]!;
  const to = leaves
    .map((l) => l.end_date)
    .sort()
    .at(-1)!;
  const holidays = await queries.holidayDates(ctx.db, ctx.businessId, from, to);
  for (const leave of leaves) {
    const days = workingDays(leave.start_date, leave.end_date, holidays);
    if (days === leave.days) continue;
    await queries.setLeaveDays(ctx.db, ctx.businessId, leave.id, days, now);
    await announceRecount(ctx, leave.id);
  }
}

export async function listHolidays(ctx: Ctx, query: ListHolidaysQuery) {
  const { rows, total } = await queries.listHolidays(ctx.db, ctx.businessId, query);
  return { holidays: rows.map(toHoliday), total_count: total };
}

async function holidayOrFail(ctx: Ctx, id: string, forUpdate = false) {
  const row = await queries.findHoliday(ctx.db, ctx.businessId, id, forUpdate);
  if (!row) throw notFound('Holiday');
  return row;
}

export async function getHoliday(ctx: Ctx, id: string): Promise<Holiday> {
  return toHoliday(await holidayOrFail(ctx, id));
}

async function addHoliday(ctx: TxCtx, body: CreateHolidayBody): Promise<Holiday> {
  const now = ctx.clock.now();
  const id = newId('hol');
  await queries.insertHoliday(ctx.db, {
    business_id: ctx.businessId,
    id,
    date: body.date,
    name: body.name,
    created_at: now,
    updated_at: now,
  });
  await recountPending(ctx, [body.date]);
  return toHoliday(await holidayOrFail(ctx, id));
}

async function changeHoliday(ctx: TxCtx, id: string, body: UpdateHolidayBody): Promise<Holiday> {
  const current = await holidayOrFail(ctx, id, true);
  await queries.updateHoliday(ctx.db, ctx.businessId, id, { ...body, updated_at: ctx.clock.now() });
  if (body.date !== undefined && body.date !== current.date)
    await recountPending(ctx, [current.date, body.date]);
  return toHoliday(await holidayOrFail(ctx, id));
}

export async function createHoliday(ctx: Ctx, body: CreateHolidayBody): Promise<Holiday> {
  return refuseDuplicates(() => inTransaction(ctx, (ctx) => addHoliday(ctx, body)), duplicates);
}

export async function updateHoliday(ctx: Ctx, id: string, body: UpdateHolidayBody): Promise<Holiday> {
  return refuseDuplicates(() => inTransaction(ctx, (ctx) => changeHoliday(ctx, id, body)), duplicates);
}

export async function deleteHoliday(ctx: Ctx, id: string): Promise<void> {
  await inTransaction(ctx, async (ctx) => {
    const current = await holidayOrFail(ctx, id, true);
    await queries.deleteHoliday(ctx.db, ctx.businessId, id);
    await recountPending(ctx, [current.date]);
  });
}

/**
 * Public holidays from CSV (`date,name`), each row checked as `POST /v1/hr/holidays` checks its body
 * and matched by its date: a date that has a holiday has it renamed.
 */
export const holidayImport: ImportTarget = {
  kind: 'holidays',
  create: CreateHolidayBodySchema,
  update: UpdateHolidayBodySchema,
  key: 'date',
  // Only a real date is a key: what the database is asked about is always one.
  compositeKey: {
    name: 'date',
    of: (body) => {
      const date = DateSchema.safeParse(body.date);
      return date.success ? date.data : null;
    },
  },
  existing: async (ctx, keys) => {
    const rows = await queries.holidaysOn(ctx.db, ctx.businessId, keys);
    return new Map(rows.map((row) => [row.date, row.id]));
  },
  createOne: async (ctx, body) => ({ id: (await addHoliday(ctx, body as CreateHolidayBody)).id }),
  updateOne: async (ctx, id, body) => ({ id: (await changeHoliday(ctx, id, body)).id }),
};
