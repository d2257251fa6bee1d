import type { Insertable, Updateable } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import type { MarketingDomainsTable } from '../../platform/db/types.js';

export async function listDomains(db: Executor, businessId: string) {
  return db
    .selectFrom('marketing_domains')
    .selectAll()
    .where('business_id', '=', businessId)
    .orderBy('domain')
    .execute();
}

export async function countDomains(db: Executor, businessId: string): Promise<number> {
  const row = await db
    .selectFrom('marketing_domains')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('business_id', '=', businessId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findDomain(db: Executor, businessId: string, id: string, forUpdate = false) {
  const q = db
    .selectFrom('marketing_domains')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('id', '=', id);
  return (forUpdate ? q.forUpdate() : q).executeTakeFirst();
}

/**
 * The business's domain named `domain` (lower case), if any, share-locked so that it cannot be
 * deleted before the caller's transaction ends.
 */
export async function findDomainByName(db: Executor, businessId: string, domain: string) {
  return db
    .selectFrom('marketing_domains')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('domain', '=', domain)
    .forShare()
    .executeTakeFirst();
}

export async function insertDomain(db: Executor, values: Insertable<MarketingDomainsTable>): Promise<void> {
  await db.insertInto('marketing_domains').values(values).execute();
}

export async function updateDomain(
  db: Executor,
  businessId: string,
  id: string,
  changes: Updateable<MarketingDomainsTable>,
) {
  return db
    .updateTable('marketing_domains')
    .set(changes)
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteDomain(db: Executor, businessId: string, id: string): Promise<void> {
  await db
    .deleteFrom('marketing_domains')
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .execute();
}

/** The business's verified domain named `domain` (lower case), if any. */
export async function findVerifiedDomain(db: Executor, businessId: string, domain: string) {
  return db
    .selectFrom('marketing_domains')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('domain', '=', domain)
    .where('status', '=', 'verified')
    .executeTakeFirst();
}
