import { sql, type Insertable, type Updateable } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import { pageWithTotal } from '../../platform/db/paged.js';
import type { HrLeaveTypesTable } from '../../platform/db/types.js';

export type LeaveTypeRow = NonNullable<Awaited<ReturnType<typeof findLeaveType>>>;

export async function listLeaveTypes(
  db: Executor,
  businessId: string,
  page: { limit: number; offset: number },
) {
  const base = db.selectFrom('hr_leave_types').selectAll().where('business_id', '=', businessId);
  return pageWithTotal(base, (q) => q.orderBy(sql`lower(name)`).orderBy('id'), page);
}

/** Every leave type of the business with a policy: the ones balances are kept for. */
export async function trackedLeaveTypes(db: Executor, businessId: string) {
  return db
    .selectFrom('hr_leave_types')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('days_per_year', 'is not', null)
    .orderBy(sql`lower(name)`)
    .execute();
}

export async function findLeaveType(db: Executor, businessId: string, id: string, forUpdate = false) {
  const q = db
    .selectFrom('hr_leave_types')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('id', '=', id);
  return (forUpdate ? q.forUpdate() : q).executeTakeFirst();
}

/** The type of this name, case forgiven; with `lock`, held (shared) until the transaction ends. */
export async function findLeaveTypeByName(db: Executor, businessId: string, name: string, lock = false) {
  const q = db
    .selectFrom('hr_leave_types')
    .selectAll()
    .where('business_id', '=', businessId)
    .where(sql<string>`lower(name)`, '=', name.toLowerCase());
  return (lock ? q.forShare() : q).executeTakeFirst();
}

export async function insertLeaveType(db: Executor, values: Insertable<HrLeaveTypesTable>): Promise<void> {
  await db.insertInto('hr_leave_types').values(values).execute();
}

export async function updateLeaveType(
  db: Executor,
  businessId: string,
  id: string,
  changes: Updateable<HrLeaveTypesTable>,
): Promise<void> {
  await db
    .updateTable('hr_leave_types')
    .set(changes)
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .execute();
}

export async function deleteLeaveType(db: Executor, businessId: string, id: string): Promise<void> {
  await db.deleteFrom('hr_leave_types').where('business_id', '=', businessId).where('id', '=', id).execute();
}

/** Whether any leave request (of any status, deleted or not) names the type. */
export async function leaveTypeInUse(db: Executor, businessId: string, name: string): Promise<boolean> {
  const row = await db
    .selectFrom('hr_leaves')
    .select('id')
    .where('business_id', '=', businessId)
    .where('type', '=', name)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The employee's own entitlements, by leave type id. */
export async function entitlementsOf(db: Executor, businessId: string, employeeId: string) {
  return db
    .selectFrom('hr_leave_entitlements')
    .select(['leave_type_id', 'days_per_year'])
    .where('business_id', '=', businessId)
    .where('employee_id', '=', employeeId)
    .execute();
}

export async function setEntitlement(
  db: Executor,
  businessId: string,
  employeeId: string,
  leaveTypeId: string,
  daysPerYear: number,
  now: Date,
): Promise<void> {
  await db
    .insertInto('hr_leave_entitlements')
    .values({
      business_id: businessId,
      employee_id: employeeId,
      leave_type_id: leaveTypeId,
      days_per_year: daysPerYear,
      updated_at: now,
    })
    .onConflict((oc) =>
      oc
        .columns(['business_id', 'employee_id', 'leave_type_id'])
        .doUpdateSet({ days_per_year: daysPerYear, updated_at: now }),
    )
    .execute();
}

export async function clearEntitlement(
  db: Executor,
  businessId: string,
  employeeId: string,
  leaveTypeId: string,
): Promise<void> {
  await db
    .deleteFrom('hr_leave_entitlements')
    .where('business_id', '=', businessId)
    .where('employee_id', '=', employeeId)
    .where('leave_type_id', '=', leaveTypeId)
    .execute();
}

/** The employee's hire date, while not deleted. */
export async function employeeHireDate(db: Executor, businessId: string, employeeId: string) {
  const row = await db
    .selectFrom('hr_employees')
    .select('hire_date')
    .where('business_id', '=', businessId)
    .where('id', '=', employeeId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row?.hire_date;
}

/**
 * The employee's pending and approved leaves of the named types that touch the years `from` to
 * `to`: what balances count as taken and pending.
 */
export async function leavesCounted(
  db: Executor,
  businessId: string,
  employeeId: string,
  types: readonly string[],
  from: string,
  to: string,
) {
  if (types.length === 0) return [];
  return db
    .selectFrom('hr_leaves')
    .select(['id', 'type', 'start_date', 'end_date', 'days', 'status'])
    .where('business_id', '=', businessId)
    .where('employee_id', '=', employeeId)
    .where('deleted_at', 'is', null)
    .where('status', 'in', ['pending', 'approved'])
    .where('type', 'in', types)
    .where('end_date', '>=', from)
    .where('start_date', '<=', to)
    .execute();
}

/** The five default types, untracked, as every new business gets them (after a sandbox reset). */
export async function writeDefaultLeaveTypes(db: Executor, businessId: string): Promise<void> {
  await sql`SELECT hr_write_default_leave_types(${businessId})`.execute(db);
}
