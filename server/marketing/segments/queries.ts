import type { Insertable, Updateable } from 'kysely';
import type { ListSegmentsQuery } from '../../../contract/marketing/index.js';
import type { Executor } from '../../platform/db/database.js';
import { pageWithTotal } from '../../platform/db/paged.js';
import type { MarketingSegmentsTable } from '../../platform/db/types.js';

function segments(db: Executor, businessId: string) {
  return db
    .selectFrom('marketing_segments as s')
    .where('s.business_id', '=', businessId)
    .where('s.deleted_at', 'is', null)
    .select([
      's.business_id',
      's.id',
      's.name',
      's.description',
      's.status',
      's.filters',
      's.created_at',
      's.updated_at',
      (eb) =>
        eb
          .selectFrom('marketing_segment_contacts as m')
          .select((sub) => sub.fn.countAll<number>().as('n'))
          .whereRef('m.business_id', '=', 's.business_id')
          .whereRef('m.segment_id', '=', 's.id')
          .as('listed_contacts'),
    ]);
}

export type SegmentRow = NonNullable<Awaited<ReturnType<typeof findSegment>>>;

/**
 * A segment not deleted; `lock` takes its row lock until the transaction ends: `update` to change
 * or delete it, `share` to keep it from being deleted meanwhile (a campaign starting to send).
 */
export async function findSegment(db: Executor, businessId: string, id: string, lock?: 'update' | 'share') {
  const q = segments(db, businessId).where('s.id', '=', id);
  return (lock === 'update' ? q.forUpdate('s') : lock === 'share' ? q.forShare('s') : q).executeTakeFirst();
}

export async function listSegments(db: Executor, businessId: string, query: ListSegmentsQuery) {
  let base = segments(db, businessId);
  if (query.status) base = base.where('s.status', '=', query.status);
  // The count drops the listed_contacts subquery with the rest of the selection.
  return pageWithTotal(base, (q) => q.orderBy('s.created_at', 'desc').orderBy('s.id', 'desc'), query);
}

export async function insertSegment(db: Executor, values: Insertable<MarketingSegmentsTable>): Promise<void> {
  await db.insertInto('marketing_segments').values(values).execute();
}

export async function updateSegment(
  db: Executor,
  businessId: string,
  id: string,
  changes: Updateable<MarketingSegmentsTable>,
): Promise<void> {
  await db
    .updateTable('marketing_segments')
    .set(changes)
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .execute();
}

/** Replaces the segment's listed contacts (ids already checked to be the business's customers). */
export async function setListedContacts(
  db: Executor,
  businessId: string,
  segmentId: string,
  customerIds: readonly string[],
): Promise<void> {
  await db
    .deleteFrom('marketing_segment_contacts')
    .where('business_id', '=', businessId)
    .where('segment_id', '=', segmentId)
    .execute();
  const unique = [...new Set(customerIds)];
  for (let i = 0; i < unique.length; i += 1000) {
    await db
      .insertInto('marketing_segment_contacts')
      .values(
        unique
          .slice(i, i + 1000)
          .map((customer_id) => ({ business_id: businessId, segment_id: segmentId, customer_id })),
      )
      .execute();
  }
}
