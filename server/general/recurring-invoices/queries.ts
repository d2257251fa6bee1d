import type { Insertable, Updateable } from 'kysely';
import type { ListRecurringInvoicesQuery } from '../../../contract/general/recurring-invoices.js';
import type { Executor, Trx } from '../../platform/db/database.js';
import { pageWithTotal } from '../../platform/db/paged.js';
import type { RecurringInvoicesTable } from '../../platform/db/types.js';
import { offsetOf, parseSort } from '../../platform/pagination.js';

const scheduleColumns = (db: Executor, businessId: string) =>
  db
    .selectFrom('recurring_invoices as r')
    .innerJoin('customers as c', (j) =>
      j.onRef('c.business_id', '=', 'r.business_id').onRef('c.id', '=', 'r.customer_id'),
    )
    .where('r.business_id', '=', businessId)
    .selectAll('r')
    .select('c.name as customer_name');

export async function findRecurringInvoice(db: Executor, businessId: string, id: string) {
  return scheduleColumns(db, businessId).where('r.id', '=', id).executeTakeFirst();
}

export type RecurringInvoiceWithName = NonNullable<Awaited<ReturnType<typeof findRecurringInvoice>>>;

const SORT_COLUMNS = { created_at: 'r.created_at', next_run_on: 'r.next_run_on' } as const;

export async function listRecurringInvoices(
  db: Executor,
  businessId: string,
  query: ListRecurringInvoicesQuery,
) {
  let base = scheduleColumns(db, businessId);
  if (query.customer_id) base = base.where('r.customer_id', '=', query.customer_id);
  if (query.status) base = base.where('r.status', '=', query.status);
  const sort = parseSort(query.sort, { field: 'created_at', direction: 'desc' });
  return pageWithTotal(
    base,
    (q) => q.orderBy(SORT_COLUMNS[sort.field], sort.direction).orderBy('r.id', sort.direction),
    { limit: query.limit, offset: offsetOf(query) },
  );
}

export async function insertRecurringInvoice(
  trx: Trx,
  values: Insertable<RecurringInvoicesTable>,
): Promise<void> {
  await trx.insertInto('recurring_invoices').values(values).execute();
}

export async function updateRecurringInvoice(
  trx: Trx,
  businessId: string,
  id: string,
  patch: Updateable<RecurringInvoicesTable>,
): Promise<void> {
  await trx
    .updateTable('recurring_invoices')
    .set(patch)
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .execute();
}
