import type { Insertable, Updateable } from 'kysely';
import type { DaysByZone } from '../../platform/calendar.js';
import type { Executor } from '../../platform/db/database.js';
import type { LoyaltyRemindersTable } from '../../platform/db/types.js';

export async function findReminder(db: Executor, businessId: string, id: string) {
  return db
    .selectFrom('loyalty_reminders')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** Reminders that are not deleted, newest first, optionally only the active (or inactive) ones. */
export async function listReminders(db: Executor, businessId: string, isActive?: boolean) {
  let query = db
    .selectFrom('loyalty_reminders')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('deleted_at', 'is', null);
  if (isActive !== undefined) query = query.where('is_active', '=', isActive);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}

export async function insertReminder(db: Executor, values: Insertable<LoyaltyRemindersTable>) {
  return db.insertInto('loyalty_reminders').values(values).returningAll().executeTakeFirstOrThrow();
}

/** Changes a reminder that is not deleted; false when there is none. */
export async function updateReminder(
  db: Executor,
  businessId: string,
  id: string,
  changes: Updateable<LoyaltyRemindersTable>,
): Promise<boolean> {
  const res = await db
    .updateTable('loyalty_reminders')
    .set(changes)
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Sets (or resets) a member's schedule of a reminder: due on `dueDate`, not yet notified. */
export async function scheduleReminder(
  db: Executor,
  key: ScheduleKey,
  dueDate: string,
  completedAt: Date,
): Promise<void> {
  await db
    .insertInto('loyalty_member_reminders')
    .values({ ...key, due_date: dueDate, last_completed_at: completedAt, notified_for: null })
    .onConflict((oc) =>
      oc
        .columns(['business_id', 'reminder_id', 'member_id'])
        .doUpdateSet({ due_date: dueDate, last_completed_at: completedAt, notified_for: null }),
    )
    .execute();
}

export type ScheduleKey = { business_id: string; reminder_id: string; member_id: string };

/**
 * Schedule rows that are due and not yet notified for their due date, of an active reminder and an
 * active member with an email, in businesses whose active program sends notifications. Due means on
 * or before today in the business's time zone: `days` gives today for each zone businesses are in.
 */
function dueSchedules(db: Executor, days: DaysByZone) {
  return db
    .selectFrom('loyalty_member_reminders as s')
    .innerJoin('business_time_zones as b', 'b.business_id', 's.business_id')
    .innerJoin('loyalty_reminders as r', (j) =>
      j.onRef('r.business_id', '=', 's.business_id').onRef('r.id', '=', 's.reminder_id'),
    )
    .innerJoin('loyalty_members as m', (j) =>
      j.onRef('m.business_id', '=', 's.business_id').onRef('m.id', '=', 's.member_id'),
    )
    .innerJoin('customer_directory as c', (j) =>
      j.onRef('c.business_id', '=', 'm.business_id').onRef('c.id', '=', 'm.customer_id'),
    )
    .innerJoin('loyalty_programs as p', (j) =>
      j.onRef('p.business_id', '=', 's.business_id').on('p.is_active', '=', true),
    )
    .where((eb) =>
      eb.or(
        days.map(({ day, zones }) => eb.and([eb('b.timezone', 'in', zones), eb('s.due_date', '<=', day)])),
      ),
    )
    .where((eb) => eb('s.notified_for', 'is distinct from', eb.ref('s.due_date')))
    .where('r.is_active', '=', true)
    .where('r.deleted_at', 'is', null)
    .where('m.status', '=', 'active')
    .where('m.deleted_at', 'is', null)
    .where('c.email', 'is not', null)
    .where('p.auto_notify', '=', true);
}

/** The keys of up to `limit` schedules due by `days`, in key order after `after`, across businesses. */
export async function dueScheduleKeys(
  db: Executor,
  days: DaysByZone,
  limit: number,
  after?: ScheduleKey,
  businessId?: string,
): Promise<ScheduleKey[]> {
  let query = dueSchedules(db, days).select(['s.business_id', 's.reminder_id', 's.member_id']);
  if (businessId !== undefined) query = query.where('s.business_id', '=', businessId);
  if (after) {
    query = query.where((eb) =>
      eb(
        eb.refTuple('s.business_id', 's.reminder_id', 's.member_id'),
        '>',
        eb.tuple(after.business_id, after.reminder_id, after.member_id),
      ),
    );
  }
  return query
    .orderBy('s.business_id')
    .orderBy('s.reminder_id')
    .orderBy('s.member_id')
    .limit(limit)
    .execute();
}

/**
 * The schedule of `key` if it is still due by `days`, its row locked; undefined when it is not, or
 * when another transaction holds it (SKIP LOCKED).
 */
export async function lockDueSchedule(db: Executor, days: DaysByZone, key: ScheduleKey) {
  return dueSchedules(db, days)
    .select(['s.due_date', 'c.email'])
    .where('s.business_id', '=', key.business_id)
    .where('s.reminder_id', '=', key.reminder_id)
    .where('s.member_id', '=', key.member_id)
    .forUpdate('s')
    .skipLocked()
    .executeTakeFirst();
}

/** The schedule has been notified for `dueDate`. */
export async function markNotified(db: Executor, key: ScheduleKey, dueDate: string): Promise<void> {
  await db
    .updateTable('loyalty_member_reminders')
    .set({ notified_for: dueDate })
    .where('business_id', '=', key.business_id)
    .where('reminder_id', '=', key.reminder_id)
    .where('member_id', '=', key.member_id)
    .execute();
}
