import { sql, type Insertable, type Updateable } from 'kysely';
import type { ListRecurringInvoicesQuery } from '../../../contract/general/recurring-invoices.js';
import type { DaysByZone } from '../../platform/calendar.js';
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

/** Locks the schedule's row: every change of it, and each period's invoice, is made under this lock. */
export async function lockRecurringInvoice(trx: Trx, businessId: string, id: string) {
  return trx
    .selectFrom('recurring_invoices')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

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

/** A schedule with a period due, by its key. */
export interface DueScheduleKey {
  business_id: string;
  id: string;
}

/**
 * Active schedules whose next period has come by the business's today (`days`: today for each zone
 * businesses are in), up to `limit` in key order after `after`; every business's or only
 * `businessId`'s.
 */
export async function dueRecurringInvoices(
  db: Executor,
  days: DaysByZone,
  limit: number,
  after?: DueScheduleKey,
  businessId?: string,
): Promise<DueScheduleKey[]> {
  let query = db
    .selectFrom('recurring_invoices as r')
    .innerJoin('business_time_zones as z', 'z.business_id', 'r.business_id')
    .select(['r.business_id', 'r.id'])
    .where('r.status', '=', 'active')
    .where((eb) =>
      eb.or(
        days.map(({ day, zones }) =>
          eb.and([eb('z.timezone', 'in', zones), eb('r.next_run_on', '<=', sql<string>`${day}::date`)]),
        ),
      ),
    );
  if (businessId !== undefined) query = query.where('r.business_id', '=', businessId);
  if (after) {
    query = query.where((eb) =>
      eb(eb.refTuple('r.business_id', 'r.id'), '>', eb.tuple(after.business_id, after.id)),
    );
  }
  return query.orderBy('r.business_id').orderBy('r.id').limit(limit).execute();
}
