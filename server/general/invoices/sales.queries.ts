import type { Executor } from '../../platform/db/database.js';

export interface SalesItemsQuery {
  /** null: every currency's invoices, each in its own. */
  currency: string | null;
  from: string;
  to: string;
  limit: number;
  offset: number;
}

/** Issued, non-void invoices of a currency (or every currency) issued in the range, by issue date then number. */
export async function salesItems(db: Executor, businessId: string, query: SalesItemsQuery) {
  return db
    .selectFrom('invoices as i')
    .innerJoin('customers as c', (join) =>
      join.onRef('c.business_id', '=', 'i.business_id').onRef('c.id', '=', 'i.customer_id'),
    )
    .where('i.business_id', '=', businessId)
    .$if(query.currency !== null, (q) => q.where('i.currency', '=', query.currency!))
    .where('i.status', 'in', ['unpaid', 'paid'])
    .where('i.deleted_at', 'is', null)
    .where('i.issue_date', '>=', query.from)
    .where('i.issue_date', '<=', query.to)
    .select([
      'i.id',
      'i.number',
      'c.name as customer_name',
      'i.issue_date',
      'i.subtotal_minor',
      'i.currency',
      'i.status',
      'i.due_date',
    ])
    .$narrowType<{ status: 'unpaid' | 'paid' }>()
    .orderBy('i.issue_date')
    .orderBy('i.number')
    .limit(query.limit)
    .offset(query.offset)
    .execute();
}
