import type { ListInvoicesQuery } from '../../../contract/general/invoices.js';
import { offsetOf, parseSort } from '../../platform/pagination.js';
import type { Insertable, Updateable } from 'kysely';
import type { Executor, Trx } from '../../platform/db/database.js';
import { pageWithTotal } from '../../platform/db/paged.js';
import type { InvoicesTable, PaymentsTable } from '../../platform/db/types.js';

export async function insertInvoice(trx: Trx, values: Insertable<InvoicesTable>): Promise<void> {
  await trx.insertInto('invoices').values(values).execute();
}

export async function updateInvoice(
  trx: Trx,
  businessId: string,
  id: string,
  patch: Updateable<InvoicesTable>,
) {
  return trx
    .updateTable('invoices')
    .set(patch)
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function insertPayment(trx: Trx, values: Insertable<PaymentsTable>) {
  return trx.insertInto('payments').values(values).returningAll().executeTakeFirstOrThrow();
}

/**
 * Adds a payment's amount to the invoice's amount paid in one relative update (never a value read
 * earlier), marking it paid at `now` when `fullyPaid`.
 */
export async function addPayment(
  trx: Trx,
  businessId: string,
  id: string,
  amountMinor: number,
  fullyPaid: boolean,
  now: Date,
) {
  return trx
    .updateTable('invoices')
    .set((eb) => ({
      amount_paid_minor: eb('amount_paid_minor', '+', amountMinor),
      ...(fullyPaid && { status: 'paid' as const, paid_at: now }),
      updated_at: now,
    }))
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

const invoiceColumns = (db: Executor) =>
  db
    .selectFrom('invoices as i')
    .innerJoin('customers as c', (j) =>
      j.onRef('c.business_id', '=', 'i.business_id').onRef('c.id', '=', 'i.customer_id'),
    )
    .selectAll('i')
    .select('c.name as customer_name');

export type InvoiceWithCustomer = Awaited<ReturnType<typeof findInvoice>> & object;

export async function findInvoice(db: Executor, businessId: string, id: string) {
  return invoiceColumns(db)
    .where('i.business_id', '=', businessId)
    .where('i.id', '=', id)
    .where('i.deleted_at', 'is', null)
    .executeTakeFirst();
}

/** Locks the invoice row for a state change. */
export async function lockInvoice(trx: Trx, businessId: string, id: string) {
  return trx
    .selectFrom('invoices')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
}

export async function paymentsOf(db: Executor, businessId: string, invoiceIds: string[]) {
  if (invoiceIds.length === 0) return [];
  return db
    .selectFrom('payments')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('invoice_id', 'in', invoiceIds)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

const SORT_COLUMNS = {
  due_date: 'i.due_date',
  created_at: 'i.created_at',
  total: 'i.total_minor',
  number: 'i.number',
} as const;

/**
 * `overdue` and `unpaid` are told apart by due_date against `today`, as the API reports them (the
 * rule of platform/due.ts, in SQL).
 */
export async function listInvoices(
  db: Executor,
  businessId: string,
  query: ListInvoicesQuery,
  today: string,
) {
  let base = invoiceColumns(db).where('i.business_id', '=', businessId).where('i.deleted_at', 'is', null);
  if (query.customer_id) base = base.where('i.customer_id', '=', query.customer_id);
  if (query.status === 'overdue')
    base = base.where('i.status', '=', 'unpaid').where('i.due_date', '<', today);
  else if (query.status === 'unpaid')
    base = base.where('i.status', '=', 'unpaid').where('i.due_date', '>=', today);
  else if (query.status) base = base.where('i.status', '=', query.status);
  const sort = parseSort(query.sort, { field: 'created_at', direction: 'desc' });
  return pageWithTotal(
    base,
    (q) => q.orderBy(SORT_COLUMNS[sort.field], sort.direction).orderBy('i.id', sort.direction),
    { limit: query.limit, offset: offsetOf(query) },
  );
}
