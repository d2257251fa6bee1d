import { sql } from 'kysely';
import type { Executor } from '../../platform/db/database.js';

/** Members that are not deleted: all, and the active ones. */
export async function memberTotals(db: Executor, businessId: string) {
  const row = await db
    .selectFrom('loyalty_members')
    .select([
      sql<string>`count(*)`.as('total'),
      sql<string>`count(*) FILTER (WHERE status = 'active')`.as('active'),
    ])
    .where('business_id', '=', businessId)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return { total: Number(row.total), active: Number(row.active) };
}

/**
 * Points over every member, deleted ones included: the credits that count as issued, the redeem
 * debits, and the refunds of cancelled redemptions.
 */
export async function pointTotals(db: Executor, businessId: string) {
  const row = await db
    .selectFrom('loyalty_transactions')
    .select([
      sql<string>`coalesce(sum(points) FILTER (WHERE counts_as_issued), 0)`.as('issued'),
      sql<string>`coalesce(-sum(points) FILTER (WHERE type = 'redeem'), 0)`.as('redeemed'),
      sql<string>`coalesce(sum(points) FILTER (
        WHERE type = 'adjust' AND NOT counts_as_issued AND points > 0 AND reference_type = 'reward'
      ), 0)`.as('refunded'),
    ])
    .where('business_id', '=', businessId)
    .executeTakeFirstOrThrow();
  return { issued: Number(row.issued), redeemed: Number(row.redeemed), refunded: Number(row.refunded) };
}

/** How many members (not deleted) each tier has, by tier id; tiers without members are absent. */
export async function membersPerTier(db: Executor, businessId: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('loyalty_members')
    .select(['tier_id', sql<string>`count(*)`.as('n')])
    .where('business_id', '=', businessId)
    .where('deleted_at', 'is', null)
    .where('tier_id', 'is not', null)
    .groupBy('tier_id')
    .execute();
  return new Map(rows.map((r) => [r.tier_id!, Number(r.n)]));
}
