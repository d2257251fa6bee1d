import type { Executor } from '../../platform/db/database.js';

export type ExpiringCredit = {
  business_id: string;
  id: string;
  member_id: string;
  expires_at: Date | null;
  created_at: Date;
};

/**
 * Up to `limit` credits with points left whose expiry has passed by `now`, of members that are not
 * deleted, across businesses, in expiry order (then creation, then key) after `after`.
 */
export async function expiredCredits(
  db: Executor,
  now: Date,
  limit: number,
  after?: ExpiringCredit,
  businessId?: string,
): Promise<ExpiringCredit[]> {
  let query = db
    .selectFrom('loyalty_transactions as t')
    .innerJoin('loyalty_members as m', (j) =>
      j.onRef('m.business_id', '=', 't.business_id').onRef('m.id', '=', 't.member_id'),
    )
    .select(['t.business_id', 't.id', 't.member_id', 't.expires_at', 't.created_at'])
    .where('t.remaining', '>', 0)
    .where('t.expires_at', '<=', now)
    .where('m.deleted_at', 'is', null);
  if (businessId !== undefined) query = query.where('t.business_id', '=', businessId);
  if (after) {
    query = query.where((eb) =>
      eb(
        eb.refTuple('t.expires_at', 't.created_at', 't.business_id', 't.id'),
        '>',
        eb.tuple(after.expires_at, after.created_at, after.business_id, after.id),
      ),
    );
  }
  return query
    .orderBy('t.expires_at')
    .orderBy('t.created_at')
    .orderBy('t.business_id')
    .orderBy('t.id')
    .limit(limit)
    .execute();
}

/** A credit's rest and expiry, its row locked. */
export async function lockCredit(db: Executor, businessId: string, id: string) {
  return db
    .selectFrom('loyalty_transactions')
    .select(['remaining', 'expires_at'])
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}
