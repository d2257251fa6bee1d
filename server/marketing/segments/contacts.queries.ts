import type { Executor } from '../../platform/db/database.js';
import { pageWithTotal } from '../../platform/db/paged.js';
import { inSegment, type SegmentDefinition } from './filters.queries.js';

/** Contacts: the business's customers, as marketing reads them. */

const CONTACT_COLUMNS = [
  'c.id',
  'c.name',
  'c.email',
  'c.first_name',
  'c.last_name',
  'c.company',
  'c.attributes',
  'c.unsubscribed',
  'c.created_at',
] as const;

export async function findContact(db: Executor, businessId: string, id: string) {
  return db
    .selectFrom('customer_directory as c')
    .select(CONTACT_COLUMNS)
    .where('c.business_id', '=', businessId)
    .where('c.id', '=', id)
    .executeTakeFirst();
}

/**
 * Which of `ids` are not customers of the business; the others are locked (shared) so they cannot
 * be deleted before the segment lists them.
 */
export async function unknownCustomers(
  db: Executor,
  businessId: string,
  ids: readonly string[],
): Promise<string[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const found = await db
    .selectFrom('customer_directory')
    .select('id')
    .where('business_id', '=', businessId)
    .where('id', 'in', unique)
    .forShare()
    .execute();
  const known = new Set(found.map((r) => r.id));
  return unique.filter((id) => !known.has(id));
}

function contacts(db: Executor, segment: SegmentDefinition) {
  return db
    .selectFrom('customer_directory as c')
    .where('c.business_id', '=', segment.businessId)
    .where(inSegment(segment));
}

/** Contacts in the segment now. */
export async function countContacts(db: Executor, segment: SegmentDefinition): Promise<number> {
  const row = await contacts(db, segment)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A page of the segment's contacts, oldest first, and how many contacts the segment has. */
export async function contactsPage(
  db: Executor,
  segment: SegmentDefinition,
  page: { limit: number; offset: number },
) {
  return pageWithTotal(
    contacts(db, segment).select(CONTACT_COLUMNS),
    (q) => q.orderBy('c.created_at').orderBy('c.id'),
    page,
  );
}

export type ContactRow = Awaited<ReturnType<typeof contactsPage>>['rows'][number];
