import type { Insertable, Updateable } from 'kysely';
import type { ListHolidaysQuery } from '../../../contract/hr/holidays.js';
import type { Executor } from '../../platform/db/database.js';
import { pageWithTotal } from '../../platform/db/paged.js';
import type { HrHolidaysTable } from '../../platform/db/types.js';

export type HolidayRow = NonNullable<Awaited<ReturnType<typeof findHoliday>>>;

export async function listHolidays(db: Executor, businessId: string, query: ListHolidaysQuery) {
  let base = db.selectFrom('hr_holidays').selectAll().where('business_id', '=', businessId);
  if (query.from !== undefined) base = base.where('date', '>=', query.from);
  if (query.to !== undefined) base = base.where('date', '<=', query.to);
  return pageWithTotal(base, (q) => q.orderBy('date').orderBy('id'), query);
}

/** The dates of the business's holidays from `from` to `to`, both included. */
export async function holidayDates(db: Executor, businessId: string, from: string, to: string) {
  const rows = await db
    .selectFrom('hr_holidays')
    .select('date')
    .where('business_id', '=', businessId)
    .where('date', '>=', from)
    .where('date', '<=', to)
    .execute();
  return rows.map((r) => r.date);
}

export async function findHoliday(db: Executor, businessId: string, id: string, forUpdate = false) {
  const q = db
    .selectFrom('hr_holidays')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('id', '=', id);
  return (forUpdate ? q.forUpdate() : q).executeTakeFirst();
}

/** The holidays on these dates, by date. */
export async function holidaysOn(db: Executor, businessId: string, dates: readonly string[]) {
  if (dates.length === 0) return [];
  return db
    .selectFrom('hr_holidays')
    .select(['id', 'date'])
    .where('business_id', '=', businessId)
    .where('date', 'in', dates)
    .execute();
}

export async function insertHoliday(db: Executor, values: Insertable<HrHolidaysTable>): Promise<void> {
  await db.insertInto('hr_holidays').values(values).execute();
}

export async function updateHoliday(
  db: Executor,
  businessId: string,
  id: string,
  changes: Updateable<HrHolidaysTable>,
): Promise<void> {
  await db
    .updateTable('hr_holidays')
    .set(changes)
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .execute();
}

export async function deleteHoliday(db: Executor, businessId: string, id: string): Promise<void> {
  await db.deleteFrom('hr_holidays').where('business_id', '=', businessId).where('id', '=', id).execute();
}

/** Pending leave requests (not deleted) covering any of these dates, locked for their recount. */
export async function pendingLeavesOver(db: Executor, businessId: string, dates: readonly string[]) {
  if (dates.length === 0) return [];
  const sorted = [...dates].sort();
  return db
    .selectFrom('hr_leaves')
    .select(['id', 'start_date', 'end_date', 'days'])
    .where('business_id', '=', businessId)
    .where('status', '=', 'pending')
    .where('deleted_at', 'is', null)
    .where('start_date', '<=', sorted.at(-1)!)
    .where('end_date', '>=', sorted[0]!)
    .orderBy('id')
    .forUpdate()
    .execute();
}

export async function setLeaveDays(
  db: Executor,
  businessId: string,
  id: string,
  days: number,
  now: Date,
): Promise<void> {
  await db
    .updateTable('hr_leaves')
    .set({ days, updated_at: now })
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .execute();
}
