import type { Stats } from '../../../contract/loyalty/index.js';
import type { Ctx } from '../../platform/context.js';
import { percentOf } from '../../platform/money.js';
import { activeProgram } from '../program/queries.js';
import { tiersOf } from '../tiers/queries.js';
import * as queries from './queries.js';

/**
 * Members, points and tiers of the business. Points count every member, deleted ones included
 * (their history stays): issued = the credits that count as issued (everything but refunds of
 * cancelled redemptions), redeemed = redeem debits less those refunds.
 */
export async function getStats(ctx: Ctx): Promise<Stats> {
  const [members, points, program] = await Promise.all([
    queries.memberTotals(ctx.db, ctx.businessId),
    queries.pointTotals(ctx.db, ctx.businessId),
    activeProgram(ctx.db, ctx.businessId),
  ]);

  let tierDistribution: Stats['tierDistribution'] = [];
  if (program) {
    const [tiers, byTier] = await Promise.all([
      tiersOf(ctx.db, ctx.businessId, program.id),
      queries.membersPerTier(ctx.db, ctx.businessId),
    ]);
    tierDistribution = tiers.map((t) => ({ name: t.name, count: byTier.get(t.id) ?? 0, color: t.color }));
  }

  const issued = points.issued;
  const redeemed = points.redeemed - points.refunded;
  return {
    totalMembers: members.total,
    activeMembers: members.active,
    totalPointsIssued: issued,
    totalPointsRedeemed: redeemed,
    // Percent with two decimals, rounded half up on integers (a float quotient can land on .5).
    redemptionRate: issued > 0 ? percentOf(BigInt(redeemed), BigInt(issued)) : 0,
    tierDistribution,
  };
}
