import { sql } from 'kysely';
import type { Stats } from '../../contract/loyalty/schemas.js';
import type { Ctx } from '../platform/context.js';
import { activeProgram, tiersOf } from './queries.js';

/**
 * Members, points and tiers of the business. Points count every member, deleted ones included
 * (their history stays): issued = the credits that count as issued (everything but refunds of
 * cancelled redemptions), redeemed = redeem debits less those refunds.
 */
export async function getStats(ctx: Ctx): Promise<Stats> {
  const [members, points, program] = await Promise.all([
    ctx.db
      .selectFrom('loyalty_members')
      .select([
        sql<string>`count(*)`.as('total'),
        sql<string>`count(*) FILTER (WHERE status = 'active')`.as('active'),
      ])
      .where('business_id', '=', ctx.businessId)
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow(),
    ctx.db
      .selectFrom('loyalty_transactions')
      .select([
        sql<string>`coalesce(sum(points) FILTER (WHERE counts_as_issued), 0)`.as('issued'),
        sql<string>`coalesce(-sum(points) FILTER (WHERE type = 'redeem'), 0)`.as('redeemed'),
        sql<string>`coalesce(sum(points) FILTER (
          WHERE type = 'adjust' AND NOT counts_as_issued AND points > 0 AND reference_type = 'reward'
        ), 0)`.as('refunded'),
      ])
      .where('business_id', '=', ctx.businessId)
      .executeTakeFirstOrThrow(),
    activeProgram(ctx.db, ctx.businessId),
  ]);

  let tierDistribution: Stats['tierDistribution'] = [];
  if (program) {
    const [tiers, counts] = await Promise.all([
      tiersOf(ctx.db, ctx.businessId, program.id),
      ctx.db
        .selectFrom('loyalty_members')
        .select(['tier_id', sql<string>`count(*)`.as('n')])
        .where('business_id', '=', ctx.businessId)
        .where('deleted_at', 'is', null)
        .where('tier_id', 'is not', null)
        .groupBy('tier_id')
        .execute(),
    ]);
    const byTier = new Map(counts.map((c) => [c.tier_id, Number(c.n)]));
    tierDistribution = tiers.map((t) => ({ name: t.name, count: byTier.get(t.id) ?? 0, color: t.color }));
  }

  const issued = Number(points.issued);
  const redeemed = Number(points.redeemed) - Number(points.refunded);
  return {
    totalMembers: Number(members.total),
    activeMembers: Number(members.active),
    totalPointsIssued: issued,
    totalPointsRedeemed: redeemed,
    // Percent with two decimals, computed on integers so it rounds half up exactly.
    redemptionRate: issued > 0 ? Math.round((redeemed * 10_000) / issued) / 100 : 0,
    tierDistribution,
  };
}
