import type { ListDepartmentsQuery } from '../../../contract/hr/departments.js';
import type { Executor } from '../../platform/db/database.js';
import { pageWithTotal } from '../../platform/db/paged.js';
import type { HrDepartmentsTable } from '../../platform/db/types.js';
import type { Insertable, Updateable } from 'kysely';

/**
 * Departments with their live `employee_count` (active and on-leave employees not deleted), read
 * from the counts the database keeps per department and status.
 */
function departments(db: Executor, businessId: string) {
  return db
    .selectFrom('hr_departments as d')
    .where('d.business_id', '=', businessId)
    .where('d.deleted_at', 'is', null)
    .select([
      'd.id',
      'd.name',
      'd.head_id',
      'd.created_at',
      'd.updated_at',
      (eb) =>
        eb
          .selectFrom('hr_employee_counts as c')
          .select((sub) => sub.fn.coalesce(sub.fn.sum<number>('c.employees'), sub.lit(0)).as('n'))
          .where('c.business_id', '=', businessId)
          .whereRef('c.department_id', '=', 'd.id')
          .where('c.status', 'in', ['active', 'on_leave'])
          .as('employee_count'),
    ]);
}

export type DepartmentRecord = NonNullable<Awaited<ReturnType<typeof findDepartment>>>;

export async function findDepartment(db: Executor, businessId: string, id: string) {
  return departments(db, businessId).where('d.id', '=', id).executeTakeFirst();
}

export async function listDepartments(db: Executor, businessId: string, query: ListDepartmentsQuery) {
  return pageWithTotal(
    departments(db, businessId),
    (q) => q.orderBy((eb) => eb.fn('lower', ['d.name'])).orderBy('d.id'),
    query,
  );
}

/**
 * Locks the department (not deleted) for the caller's transaction: `update` to change or delete it,
 * `share` while an employee is placed in it, so a deletion and a placement wait for each other.
 */
export async function lockDepartment(db: Executor, businessId: string, id: string, mode: 'update' | 'share') {
  const q = db
    .selectFrom('hr_departments')
    .select('id')
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null);
  return (mode === 'update' ? q.forUpdate() : q.forShare()).executeTakeFirst();
}

export async function insertDepartment(db: Executor, values: Insertable<HrDepartmentsTable>): Promise<void> {
  await db.insertInto('hr_departments').values(values).execute();
}

export async function updateDepartment(
  db: Executor,
  businessId: string,
  id: string,
  changes: Updateable<HrDepartmentsTable>,
): Promise<void> {
  await db
    .updateTable('hr_departments')
    .set(changes)
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .execute();
}

/** Whether any employee (of any status, not deleted) is in the department. */
export async function hasEmployees(db: Executor, businessId: string, departmentId: string): Promise<boolean> {
  const row = await db
    .selectFrom('hr_employees')
    .select('id')
    .where('business_id', '=', businessId)
    .where('department_id', '=', departmentId)
    .where('deleted_at', 'is', null)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Departments headed by the employee lose their head (the employee is being deleted). */
export async function clearHead(
  db: Executor,
  businessId: string,
  employeeId: string,
  at: Date,
): Promise<void> {
  await db
    .updateTable('hr_departments')
    .set({ head_id: null, updated_at: at })
    .where('business_id', '=', businessId)
    .where('head_id', '=', employeeId)
    .execute();
}
