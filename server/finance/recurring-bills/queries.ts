import type { Insertable, Updateable } from 'kysely';
import type { ListRecurringBillsQuery } from '../../../contract/finance/index.js';
import type { Executor } from '../../platform/db/database.js';
import { pageWithTotal } from '../../platform/db/paged.js';
import type { FinanceRecurringBillItemsTable, FinanceRecurringBillsTable } from '../../platform/db/types.js';

/** Recurring bills with their vendor's name. */
function schedules(db: Executor, businessId: string) {
  return db
    .selectFrom('finance_recurring_bills as r')
    .innerJoin('finance_vendors as v', (join) =>
      join.onRef('v.business_id', '=', 'r.business_id').onRef('v.id', '=', 'r.vendor_id'),
    )
    .where('r.business_id', '=', businessId)
    .selectAll('r')
    .select('v.name as vendor_name');
}

export async function findRecurringBill(db: Executor, businessId: string, id: string) {
  return schedules(db, businessId).where('r.id', '=', id).executeTakeFirst();
}

export type RecurringBillRow = NonNullable<Awaited<ReturnType<typeof findRecurringBill>>>;

/** The items of the schedules, by schedule then position. */
export async function recurringBillItems(db: Executor, businessId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('finance_recurring_bill_items')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('recurring_bill_id', 'in', ids)
    .orderBy('recurring_bill_id')
    .orderBy('position')
    .execute();
}

export async function listRecurringBills(db: Executor, businessId: string, query: ListRecurringBillsQuery) {
  let base = schedules(db, businessId);
  if (query.vendor_id !== undefined) base = base.where('r.vendor_id', '=', query.vendor_id);
  if (query.status !== undefined) base = base.where('r.status', '=', query.status);
  return pageWithTotal(base, (q) => q.orderBy('r.created_at', 'desc').orderBy('r.id', 'desc'), {
    limit: query.limit,
    offset: query.offset,
  });
}

export async function insertRecurringBill(
  db: Executor,
  schedule: Insertable<FinanceRecurringBillsTable>,
  items: Insertable<FinanceRecurringBillItemsTable>[],
): Promise<void> {
  await db.insertInto('finance_recurring_bills').values(schedule).execute();
  await db.insertInto('finance_recurring_bill_items').values(items).execute();
}

export async function updateRecurringBill(
  db: Executor,
  businessId: string,
  id: string,
  changes: Updateable<FinanceRecurringBillsTable>,
): Promise<void> {
  await db
    .updateTable('finance_recurring_bills')
    .set(changes)
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .execute();
}

export async function replaceRecurringBillItems(
  db: Executor,
  businessId: string,
  id: string,
  items: Insertable<FinanceRecurringBillItemsTable>[],
): Promise<void> {
  await db
    .deleteFrom('finance_recurring_bill_items')
    .where('business_id', '=', businessId)
    .where('recurring_bill_id', '=', id)
    .execute();
  await db.insertInto('finance_recurring_bill_items').values(items).execute();
}
