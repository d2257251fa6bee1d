import type { Insertable, Updateable } from 'kysely';
import type { ListQuotesQuery } from '../../../contract/general/quotes.js';
import type { Executor, Trx } from '../../platform/db/database.js';
import { pageWithTotal } from '../../platform/db/paged.js';
import type { QuotesTable } from '../../platform/db/types.js';
import { offsetOf, parseSort } from '../../platform/pagination.js';

const quoteColumns = (db: Executor, businessId: string) =>
  db
    .selectFrom('quotes as q')
    .innerJoin('customers as c', (j) =>
      j.onRef('c.business_id', '=', 'q.business_id').onRef('c.id', '=', 'q.customer_id'),
    )
    .where('q.business_id', '=', businessId)
    .where('q.deleted_at', 'is', null)
    .selectAll('q')
    .select('c.name as customer_name');

export async function findQuote(db: Executor, businessId: string, id: string) {
  return quoteColumns(db, businessId).where('q.id', '=', id).executeTakeFirst();
}

export type QuoteWithCustomer = NonNullable<Awaited<ReturnType<typeof findQuote>>>;

/** Locks the quote row for a state change. */
export async function lockQuote(trx: Trx, businessId: string, id: string) {
  return trx
    .selectFrom('quotes')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
}

const SORT_COLUMNS = {
  valid_until: 'q.valid_until',
  created_at: 'q.created_at',
  total: 'q.total_minor',
  number: 'q.number',
} as const;

/** `expired` and `sent` are told apart by valid_until against `today`, as the API reports them. */
export async function listQuotes(db: Executor, businessId: string, query: ListQuotesQuery, today: string) {
  let base = quoteColumns(db, businessId);
  if (query.customer_id) base = base.where('q.customer_id', '=', query.customer_id);
  if (query.status === 'expired')
    base = base.where('q.status', '=', 'sent').where('q.valid_until', '<', today);
  else if (query.status === 'sent')
    base = base.where('q.status', '=', 'sent').where('q.valid_until', '>=', today);
  else if (query.status) base = base.where('q.status', '=', query.status);
  const sort = parseSort(query.sort, { field: 'created_at', direction: 'desc' });
  return pageWithTotal(
    base,
    (q) => q.orderBy(SORT_COLUMNS[sort.field], sort.direction).orderBy('q.id', sort.direction),
    { limit: query.limit, offset: offsetOf(query) },
  );
}

export async function insertQuote(trx: Trx, values: Insertable<QuotesTable>): Promise<void> {
  await trx.insertInto('quotes').values(values).execute();
}

export async function updateQuote(trx: Trx, businessId: string, id: string, patch: Updateable<QuotesTable>) {
  await trx
    .updateTable('quotes')
    .set(patch)
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .execute();
}

/** Records the first view of the hosted page; later views change nothing. */
export async function markQuoteViewed(db: Executor, businessId: string, id: string, at: Date): Promise<void> {
  await db
    .updateTable('quotes')
    .set({ viewed_at: at })
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .where('viewed_at', 'is', null)
    .execute();
}
