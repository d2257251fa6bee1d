import type { Insertable, Updateable } from 'kysely';
import type { ListBillsQuery } from '../../../contract/finance/index.js';
import type { Executor, Trx } from '../../platform/db/database.js';
import { pageWithTotal } from '../../platform/db/paged.js';
import type {
  FinanceBillItemsTable,
  FinanceBillPaymentsTable,
  FinanceBillsTable,
} from '../../platform/db/types.js';

/** Bills not deleted, with their vendor's name. */
function bills(db: Executor, businessId: string) {
  return db
    .selectFrom('finance_bills as b')
    .innerJoin('finance_vendors as v', (join) =>
      join.onRef('v.business_id', '=', 'b.business_id').onRef('v.id', '=', 'b.vendor_id'),
    )
    .where('b.business_id', '=', businessId)
    .where('b.deleted_at', 'is', null)
    .selectAll('b')
    .select('v.name as vendor_name');
}

export async function findBill(db: Executor, businessId: string, id: string, forUpdate = false) {
  const q = bills(db, businessId).where('b.id', '=', id);
  return (forUpdate ? q.forUpdate('b') : q).executeTakeFirst();
}

export type BillRow = NonNullable<Awaited<ReturnType<typeof findBill>>>;

export async function billItems(db: Executor, businessId: string, billId: string) {
  return db
    .selectFrom('finance_bill_items')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('bill_id', '=', billId)
    .orderBy('position')
    .execute();
}

export async function billPayments(db: Executor, businessId: string, billId: string) {
  return db
    .selectFrom('finance_bill_payments')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('bill_id', '=', billId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/**
 * `overdue` is a pending bill past its due date on `today` (the rule of platform/due.ts, in SQL);
 * `pending` then means not yet due.
 */
export async function listBills(db: Executor, businessId: string, query: ListBillsQuery, today: string) {
  let base = bills(db, businessId);
  if (query.vendor_id !== undefined) base = base.where('b.vendor_id', '=', query.vendor_id);
  if (query.status === 'overdue')
    base = base.where('b.status', '=', 'pending').where('b.due_date', '<', today);
  else if (query.status === 'pending')
    base = base.where('b.status', '=', 'pending').where('b.due_date', '>=', today);
  else if (query.status !== undefined) base = base.where('b.status', '=', query.status);
  return pageWithTotal(base, (q) => q.orderBy('b.created_at', 'desc').orderBy('b.id', 'desc'), query);
}

export async function insertBill(
  db: Executor,
  bill: Insertable<FinanceBillsTable>,
  items: Insertable<FinanceBillItemsTable>[],
): Promise<void> {
  await db.insertInto('finance_bills').values(bill).execute();
  await db.insertInto('finance_bill_items').values(items).execute();
}

export async function updateBill(
  db: Executor,
  businessId: string,
  id: string,
  changes: Updateable<FinanceBillsTable>,
): Promise<void> {
  await db
    .updateTable('finance_bills')
    .set(changes)
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .execute();
}

export async function replaceItems(
  db: Executor,
  businessId: string,
  billId: string,
  items: Insertable<FinanceBillItemsTable>[],
): Promise<void> {
  await db
    .deleteFrom('finance_bill_items')
    .where('business_id', '=', businessId)
    .where('bill_id', '=', billId)
    .execute();
  await db.insertInto('finance_bill_items').values(items).execute();
}

export async function insertPayment(db: Executor, values: Insertable<FinanceBillPaymentsTable>) {
  return db.insertInto('finance_bill_payments').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function vendorExists(db: Executor, businessId: string, id: string): Promise<boolean> {
  const row = await db
    .selectFrom('finance_vendors')
    .select('id')
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row !== undefined;
}

export const findPayment = (db: Executor, businessId: string, id: string) =>
  db
    .selectFrom('finance_bill_payments')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .executeTakeFirst();

export async function deletePayment(trx: Trx, businessId: string, id: string): Promise<void> {
  await trx
    .deleteFrom('finance_bill_payments')
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .execute();
}
