import { sql, type Selectable, type Updateable } from 'kysely';
import type { DaysByZone } from './calendar.js';
import type { Executor } from './db/database.js';
import type { RecurringInvoicesTable } from './db/types.js';

/**
 * The schedule tables of recurring invoices and recurring bills (migrations 0030 and 0031), which
 * share the schedule's columns (docs/decisions.md D251). Each query names its table; the shared
 * columns are typed by recurring invoices', which the bills' table repeats column for column.
 */
export type ScheduleTable = 'recurring_invoices' | 'finance_recurring_bills';

/** How many documents a schedule made, under each table's name for it. */
export type ScheduleCounter = 'invoices_created' | 'bills_created';

export type ScheduleColumns = Pick<
  RecurringInvoicesTable,
  | 'business_id'
  | 'id'
  | 'interval'
  | 'interval_count'
  | 'start_date'
  | 'end_after_count'
  | 'end_date'
  | 'status'
  | 'next_period'
  | 'next_run_on'
  | 'last_run_on'
  | 'updated_at'
  | 'ended_at'
>;

export type ScheduleChanges = Updateable<ScheduleColumns> & Partial<Record<ScheduleCounter, number>>;

/** One query builder for either table: the tables differ only outside the shared columns. */
const shared = (table: ScheduleTable) => table as 'recurring_invoices';

/**
 * Locks the schedule's row (all its columns; typed by the shared ones): every change of it, and each
 * period's document, is made under this lock.
 */
export async function lockSchedule(
  db: Executor,
  table: ScheduleTable,
  businessId: string,
  id: string,
): Promise<Selectable<ScheduleColumns> | undefined> {
  return db
    .selectFrom(shared(table))
    .selectAll()
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

export async function updateSchedule(
  db: Executor,
  table: ScheduleTable,
  businessId: string,
  id: string,
  changes: ScheduleChanges,
): Promise<void> {
  await db
    .updateTable(shared(table))
    .set(changes as Updateable<RecurringInvoicesTable>)
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .execute();
}

/** A schedule with a period due, by its key. */
export interface DueScheduleKey {
  business_id: string;
  id: string;
}

/**
 * Active schedules whose next period has come by the business's today (`days`: today for each zone
 * businesses are in), up to `limit` in key order after `after`; every business's or only
 * `businessId`'s.
 */
export async function dueSchedules(
  db: Executor,
  table: ScheduleTable,
  days: DaysByZone,
  limit: number,
  after?: DueScheduleKey,
  businessId?: string,
): Promise<DueScheduleKey[]> {
  let query = db
    .selectFrom(`${shared(table)} as r`)
    .innerJoin('business_time_zones as z', 'z.business_id', 'r.business_id')
    .select(['r.business_id', 'r.id'])
    .where('r.status', '=', 'active')
    .where((eb) =>
      eb.or(
        days.map(({ day, zones }) =>
          eb.and([eb('z.timezone', 'in', zones), eb('r.next_run_on', '<=', sql<string>`${day}::date`)]),
        ),
      ),
    );
  if (businessId !== undefined) query = query.where('r.business_id', '=', businessId);
  if (after) {
    query = query.where((eb) =>
      eb(eb.refTuple('r.business_id', 'r.id'), '>', eb.tuple(after.business_id, after.id)),
    );
  }
  return query.orderBy('r.business_id').orderBy('r.id').limit(limit).execute();
}
