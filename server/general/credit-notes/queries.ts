import type { Insertable, Updateable } from 'kysely';
import type { ListCreditNotesQuery } from '../../../contract/general/credit-notes.js';
import type { Executor, Trx } from '../../platform/db/database.js';
import { pageWithTotal } from '../../platform/db/paged.js';
import type { CreditNotesTable } from '../../platform/db/types.js';
import { offsetOf, parseSort } from '../../platform/pagination.js';

const creditNoteColumns = (db: Executor, businessId: string) =>
  db
    .selectFrom('credit_notes as n')
    .innerJoin('customers as c', (j) =>
      j.onRef('c.business_id', '=', 'n.business_id').onRef('c.id', '=', 'n.customer_id'),
    )
    .innerJoin('invoices as i', (j) =>
      j.onRef('i.business_id', '=', 'n.business_id').onRef('i.id', '=', 'n.invoice_id'),
    )
    .where('n.business_id', '=', businessId)
    .selectAll('n')
    .select(['c.name as customer_name', 'i.number as invoice_number']);

export async function findCreditNote(db: Executor, businessId: string, id: string) {
  return creditNoteColumns(db, businessId).where('n.id', '=', id).executeTakeFirst();
}

export type CreditNoteWithNames = NonNullable<Awaited<ReturnType<typeof findCreditNote>>>;

/** Locks the credit note row for a state change. */
export async function lockCreditNote(trx: Trx, businessId: string, id: string) {
  return trx
    .selectFrom('credit_notes')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

const SORT_COLUMNS = {
  created_at: 'n.created_at',
  issue_date: 'n.issue_date',
  total: 'n.total_minor',
  number: 'n.number',
} as const;

export async function listCreditNotes(db: Executor, businessId: string, query: ListCreditNotesQuery) {
  let base = creditNoteColumns(db, businessId);
  if (query.invoice_id) base = base.where('n.invoice_id', '=', query.invoice_id);
  if (query.customer_id) base = base.where('n.customer_id', '=', query.customer_id);
  if (query.status) base = base.where('n.status', '=', query.status);
  const sort = parseSort(query.sort, { field: 'created_at', direction: 'desc' });
  return pageWithTotal(
    base,
    (q) => q.orderBy(SORT_COLUMNS[sort.field], sort.direction).orderBy('n.id', sort.direction),
    { limit: query.limit, offset: offsetOf(query) },
  );
}

export async function insertCreditNote(trx: Trx, values: Insertable<CreditNotesTable>): Promise<void> {
  await trx.insertInto('credit_notes').values(values).execute();
}

export async function updateCreditNote(
  trx: Trx,
  businessId: string,
  id: string,
  patch: Updateable<CreditNotesTable>,
): Promise<void> {
  await trx
    .updateTable('credit_notes')
    .set(patch)
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .execute();
}
