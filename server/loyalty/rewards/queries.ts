import type { Insertable, Updateable } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import type { LoyaltyRewardsTable } from '../../platform/db/types.js';

/** Rewards that are not deleted, newest first, optionally only the active (or inactive) ones. */
export async function listRewards(db: Executor, businessId: string, isActive?: boolean) {
  let query = db
    .selectFrom('loyalty_rewards')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('deleted_at', 'is', null);
  if (isActive !== undefined) query = query.where('is_active', '=', isActive);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}

export async function insertReward(db: Executor, values: Insertable<LoyaltyRewardsTable>) {
  return db.insertInto('loyalty_rewards').values(values).returningAll().executeTakeFirstOrThrow();
}

/** A reward that is not deleted, its row locked when `forUpdate`. */
export async function findReward(db: Executor, businessId: string, id: string, forUpdate = false) {
  let query = db
    .selectFrom('loyalty_rewards')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null);
  if (forUpdate) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function updateReward(
  db: Executor,
  businessId: string,
  id: string,
  changes: Updateable<LoyaltyRewardsTable>,
): Promise<void> {
  await db
    .updateTable('loyalty_rewards')
    .set(changes)
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .execute();
}

/** Soft delete; false when there was no such reward. */
export async function deleteReward(db: Executor, businessId: string, id: string, now: Date) {
  const res = await db
    .updateTable('loyalty_rewards')
    .set({ deleted_at: now, updated_at: now })
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Counts one more redemption of the reward, only while it is active; false when it no longer is. */
export async function countRedemption(db: Executor, businessId: string, id: string): Promise<boolean> {
  const res = await db
    .updateTable('loyalty_rewards')
    .set((eb) => ({ total_redemptions: eb('total_redemptions', '+', 1) }))
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .where('is_active', '=', true)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Active rewards that are not deleted, cheapest first. */
export async function listActiveRewards(db: Executor, businessId: string) {
  return db
    .selectFrom('loyalty_rewards')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('is_active', '=', true)
    .where('deleted_at', 'is', null)
    .orderBy('points_cost')
    .orderBy('id')
    .execute();
}
