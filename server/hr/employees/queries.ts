import type { Insertable, Updateable } from 'kysely';
import type { EmployeeStatus } from '../../../contract/hr/employees.js';
import type { Executor } from '../../platform/db/database.js';
import type { HrEmployeesTable } from '../../platform/db/types.js';
import type { Sort } from '../../platform/pagination.js';

export interface EmployeeFilters {
  department_id?: string | undefined;
  status?: EmployeeStatus | undefined;
}

export interface EmployeePage {
  filters: EmployeeFilters;
  sort: Sort<'created_at' | 'hire_date' | 'last_name'>;
  limit: number;
  offset: number;
}

/** Employees not deleted, with their department's name. */
function employees(db: Executor, businessId: string) {
  return db
    .selectFrom('hr_employees as e')
    .innerJoin('hr_departments as d', (join) =>
      join.onRef('d.business_id', '=', 'e.business_id').onRef('d.id', '=', 'e.department_id'),
    )
    .where('e.business_id', '=', businessId)
    .where('e.deleted_at', 'is', null)
    .selectAll('e')
    .select('d.name as department');
}

export type EmployeeRecord = NonNullable<Awaited<ReturnType<typeof findEmployee>>>;

export async function findEmployee(db: Executor, businessId: string, id: string) {
  return employees(db, businessId).where('e.id', '=', id).executeTakeFirst();
}

/**
 * Locks the employee (not deleted) for the caller's transaction: `update` for a change of the
 * employee, `share` while another row comes to depend on it (a leave, a department head).
 */
/**
 * Locks an employee row: `update` to change or delete it; `leaves` while changing their leaves (one
 * writer of an employee's leaves at a time, and the employee stays as read until commit);
 * `share` while another row comes to depend on it.
 */
export async function lockEmployee(
  db: Executor,
  businessId: string,
  id: string,
  mode: 'update' | 'leaves' | 'share',
) {
  const q = db
    .selectFrom('hr_employees')
    .select(['id', 'status'])
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null);
  const locked = mode === 'update' ? q.forUpdate() : mode === 'leaves' ? q.forNoKeyUpdate() : q.forShare();
  return locked.executeTakeFirst();
}

export async function listEmployees(db: Executor, businessId: string, page: EmployeePage) {
  let base = db
    .selectFrom('hr_employees')
    .where('business_id', '=', businessId)
    .where('deleted_at', 'is', null);
  if (page.filters.department_id !== undefined)
    base = base.where('department_id', '=', page.filters.department_id);
  if (page.filters.status !== undefined) base = base.where('status', '=', page.filters.status);
  // The page's ids come from the filter's own index; the join then reads only those rows.
  const pageIds = base
    .select(['id', page.sort.field])
    .orderBy(page.sort.field, page.sort.direction)
    .orderBy('id', page.sort.direction)
    .limit(page.limit)
    .offset(page.offset);
  // Not pageWithTotal: the total comes from the kept counts (countEmployees), cheaper than counting rows.
  const [rows, count] = await Promise.all([
    employees(db, businessId)
      .innerJoin(pageIds.as('p'), 'p.id', 'e.id')
      .orderBy(`e.${page.sort.field}`, page.sort.direction)
      .orderBy('e.id', page.sort.direction)
      .execute(),
    countEmployees(db, businessId, page.filters),
  ]);
  return { rows, total: count };
}

/**
 * Employees (not deleted) matching the filters, from the counts the database keeps per department
 * and status (`hr_employee_counts`, maintained by a trigger in every writing transaction).
 */
export async function countEmployees(db: Executor, businessId: string, filters: EmployeeFilters) {
  let q = db.selectFrom('hr_employee_counts').where('business_id', '=', businessId);
  if (filters.department_id !== undefined) q = q.where('department_id', '=', filters.department_id);
  if (filters.status !== undefined) q = q.where('status', '=', filters.status);
  const row = await q
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('employees'), eb.lit(0)).as('total'))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

export async function insertEmployee(db: Executor, values: Insertable<HrEmployeesTable>): Promise<void> {
  await db.insertInto('hr_employees').values(values).execute();
}

export async function updateEmployee(
  db: Executor,
  businessId: string,
  id: string,
  changes: Updateable<HrEmployeesTable>,
): Promise<void> {
  await db
    .updateTable('hr_employees')
    .set(changes)
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .execute();
}

/** The ids of the employees with these emails (lower-cased), by lower-cased email. */
export async function employeeIdsByEmail(db: Executor, businessId: string, keys: readonly string[]) {
  return db
    .selectFrom('hr_employees')
    .select(['id', (eb) => eb.fn<string>('lower', ['email']).as('key')])
    .where('business_id', '=', businessId)
    .where('deleted_at', 'is', null)
    .where((eb) => eb(eb.fn('lower', ['email']), 'in', keys))
    .orderBy('created_at')
    .execute();
}
