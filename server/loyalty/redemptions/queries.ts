import type { Insertable, Updateable } from 'kysely';
import type { ListRedemptionsQuery } from '../../../contract/loyalty/index.js';
import type { Executor } from '../../platform/db/database.js';
import { pageWithTotal } from '../../platform/db/paged.js';
import type { LoyaltyRedemptionsTable } from '../../platform/db/types.js';

/**
 * Redemptions with the names the API shows: the customer's name (deleted members included, their
 * redemptions stay) and the reward's name (deleted rewards included).
 */
const redemptionView = (db: Executor, businessId: string) =>
  db
    .selectFrom('loyalty_redemptions as r')
    .innerJoin('loyalty_members as m', (j) =>
      j.onRef('m.business_id', '=', 'r.business_id').onRef('m.id', '=', 'r.member_id'),
    )
    .innerJoin('customer_directory as c', (j) =>
      j.onRef('c.business_id', '=', 'm.business_id').onRef('c.id', '=', 'm.customer_id'),
    )
    .innerJoin('loyalty_rewards as w', (j) =>
      j.onRef('w.business_id', '=', 'r.business_id').onRef('w.id', '=', 'r.reward_id'),
    )
    .where('r.business_id', '=', businessId);

/** A page of redemptions, newest first, with their member's and reward's names; and the total. */
export async function listRedemptions(db: Executor, businessId: string, query: ListRedemptionsQuery) {
  let base = redemptionView(db, businessId);
  if (query.status) base = base.where('r.status', '=', query.status);
  if (query.memberId) base = base.where('r.member_id', '=', query.memberId);
  return pageWithTotal(
    base.selectAll('r').select(['c.name as member_name', 'w.name as reward_name']),
    (q) => q.orderBy('r.redeemed_at', 'desc').orderBy('r.id', 'desc'),
    query,
  );
}

/**
 * Inserts a redemption unless its voucher code is taken in its business (ON CONFLICT keeps the
 * transaction usable, the caller draws another code): undefined then.
 */
export async function insertRedemptionUnlessCodeTaken(
  db: Executor,
  values: Insertable<LoyaltyRedemptionsTable>,
) {
  return db
    .insertInto('loyalty_redemptions')
    .values(values)
    .onConflict((oc) => oc.columns(['business_id', 'voucher_code']).doNothing())
    .returningAll()
    .executeTakeFirst();
}

/** A redemption, its row locked. */
export async function lockRedemption(db: Executor, businessId: string, id: string) {
  return db
    .selectFrom('loyalty_redemptions')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

export async function updateRedemption(
  db: Executor,
  businessId: string,
  id: string,
  changes: Updateable<LoyaltyRedemptionsTable>,
): Promise<void> {
  await db
    .updateTable('loyalty_redemptions')
    .set(changes)
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .execute();
}

/** A voucher by its stored code, with what both verify variants show. */
export async function findVoucher(db: Executor, businessId: string, code: string) {
  return redemptionView(db, businessId)
    .where('r.voucher_code', '=', code)
    .select([
      'r.voucher_code',
      'r.status',
      'r.redeemed_at',
      'r.expires_at',
      'c.name as member_name',
      'w.name as reward_name',
      'w.reward_type',
    ])
    .executeTakeFirst();
}

/**
 * Moves up to `batch` pending redemptions whose voucher has expired by `now` to `expired`, across
 * businesses. Rows another transaction holds are skipped (SKIP LOCKED). Returns how many moved.
 */
/** Whether a pending voucher of the business is past its expiry at `now`. */
export async function hasExpiredVoucher(db: Executor, now: Date, businessId: string): Promise<boolean> {
  const row = await db
    .selectFrom('loyalty_redemptions')
    .select('id')
    .where('business_id', '=', businessId)
    .where('status', '=', 'pending')
    .where('expires_at', '<=', now)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function expireVoucherBatch(
  db: Executor,
  now: Date,
  batch: number,
  businessId?: string,
): Promise<number> {
  const moved = await db
    .updateTable('loyalty_redemptions')
    .set({ status: 'expired', updated_at: now })
    .where((eb) =>
      eb(
        eb.refTuple('business_id', 'id'),
        'in',
        eb
          .selectFrom('loyalty_redemptions')
          .select(['business_id', 'id'])
          .where('status', '=', 'pending')
          .where('expires_at', '<=', now)
          .$if(businessId !== undefined, (q) => q.where('business_id', '=', businessId!))
          .limit(batch)
          .forUpdate()
          .skipLocked()
          .$asTuple('business_id', 'id'),
      ),
    )
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(moved.numUpdatedRows);
}
