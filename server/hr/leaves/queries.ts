import type { Insertable, Updateable } from 'kysely';
import type { ListLeavesQuery } from '../../../contract/hr/leaves.js';
import type { Executor } from '../../platform/db/database.js';
import { pageWithTotal } from '../../platform/db/paged.js';
import type { HrLeavesTable } from '../../platform/db/types.js';

/** Leaves not deleted of employees not deleted, with the employee's name and whether the type is paid. */
function leaves(db: Executor, businessId: string) {
  return db
    .selectFrom('hr_leaves as l')
    .innerJoin('hr_employees as e', (join) =>
      join.onRef('e.business_id', '=', 'l.business_id').onRef('e.id', '=', 'l.employee_id'),
    )
    .innerJoin('hr_leave_types as t', (join) =>
      join.onRef('t.business_id', '=', 'l.business_id').onRef('t.name', '=', 'l.type'),
    )
    .where('l.business_id', '=', businessId)
    .where('l.deleted_at', 'is', null)
    .where('e.deleted_at', 'is', null)
    .selectAll('l')
    .select(['e.first_name', 'e.last_name', 't.paid']);
}

export type LeaveRecord = NonNullable<Awaited<ReturnType<typeof findLeave>>>;

export async function findLeave(db: Executor, businessId: string, id: string, forUpdate = false) {
  const q = leaves(db, businessId).where('l.id', '=', id);
  return (forUpdate ? q.forUpdate('l') : q).executeTakeFirst();
}

export async function listLeaves(db: Executor, businessId: string, query: ListLeavesQuery) {
  let base = leaves(db, businessId);
  if (query.employee_id !== undefined) base = base.where('l.employee_id', '=', query.employee_id);
  if (query.status !== undefined) base = base.where('l.status', '=', query.status);
  return pageWithTotal(base, (q) => q.orderBy('l.start_date', 'desc').orderBy('l.id', 'desc'), query);
}

export async function insertLeave(db: Executor, values: Insertable<HrLeavesTable>): Promise<void> {
  await db.insertInto('hr_leaves').values(values).execute();
}

export async function updateLeave(
  db: Executor,
  businessId: string,
  id: string,
  changes: Updateable<HrLeavesTable>,
): Promise<void> {
  await db
    .updateTable('hr_leaves')
    .set(changes)
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .execute();
}
