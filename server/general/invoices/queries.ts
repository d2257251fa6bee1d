import type { ListInvoicesQuery } from '../../../contract/general/invoices.js';
import { offsetOf, parseSort } from '../../platform/pagination.js';
import type { Executor, Trx } from '../../platform/db/database.js';

/** Next number of a per-business gapless sequence; holds the counter's row lock until commit. */
export async function nextSequenceValue(trx: Trx, businessId: string, name: string): Promise<number> {
  const row = await trx
    .insertInto('sequences')
    .values({ business_id: businessId, name, last_value: 1 })
    .onConflict((oc) =>
      oc
        .columns(['business_id', 'name'])
        .doUpdateSet((eb) => ({ last_value: eb('sequences.last_value', '+', 1) })),
    )
    .returning('last_value')
    .executeTakeFirstOrThrow();
  return Number(row.last_value);
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

export async function itemsOf(db: Executor, businessId: string, invoiceIds: string[]) {
  if (invoiceIds.length === 0) return [];
  return db
    .selectFrom('invoice_items')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('invoice_id', 'in', invoiceIds)
    .orderBy('invoice_id')
    .orderBy('position')
    .execute();
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

/** `overdue` and `unpaid` are told apart by due_date against `today`, as the API reports them. */
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
  const [rows, count] = await Promise.all([
    base
      .orderBy(SORT_COLUMNS[sort.field], sort.direction)
      .orderBy('i.id', sort.direction)
      .limit(query.limit)
      .offset(offsetOf(query))
      .execute(),
    base
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}
