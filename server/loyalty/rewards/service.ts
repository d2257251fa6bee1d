import type { CreateRewardBody, Reward, UpdateRewardBody } from '../../../contract/loyalty/index.js';
import { newId } from '../../platform/ids.js';
import { toScaledInteger } from '../../platform/money.js';
import { type Ctx, inTransaction } from '../../platform/context.js';

import type { RewardRow } from '../../platform/db/types.js';
import { invalid, notFound } from '../../platform/errors.js';
import { toReward } from './mappers.js';
import * as queries from './queries.js';

const DEFAULT_VOUCHER_VALIDITY_DAYS = 90;

/**
 * The discount rule on the reward as it will be stored: a discount reward carries a percentage
 * (at most 2 decimals, the column's scale), every other type none.
 */
function discountFor(
  rewardType: RewardRow['reward_type'],
  discountPercent: number | null | undefined,
): number | null {
  if (rewardType !== 'discount') {
    if (discountPercent !== undefined && discountPercent !== null) {
      throw invalid('discountPercent', 'Only discount rewards take a discountPercent');
    }
    return null;
  }
  if (discountPercent === undefined || discountPercent === null) {
    throw invalid('discountPercent', 'Required for discount rewards');
  }
  if (toScaledInteger(discountPercent, 2) === null) {
    throw invalid('discountPercent', 'At most 2 decimals');
  }
  return discountPercent;
}

/** Rewards that are not deleted, newest first, optionally only the active (or inactive) ones. */
export async function listRewards(ctx: Ctx, isActive?: boolean): Promise<Reward[]> {
  const rows = await queries.listRewards(ctx.db, ctx.businessId, isActive);
  return rows.map(toReward);
}

export async function createReward(ctx: Ctx, input: CreateRewardBody): Promise<Reward> {
  const discount = discountFor(input.rewardType, input.discountPercent);
  const now = ctx.clock.now();
  const row = await queries.insertReward(ctx.db, {
    business_id: ctx.businessId,
    id: newId('rew'),
    name: input.name,
    description: input.description ?? null,
    points_cost: input.pointsCost,
    reward_type: input.rewardType,
    discount_percent: discount,
    is_active: input.isActive ?? true,
    voucher_validity_days: input.voucherValidityDays ?? DEFAULT_VOUCHER_VALIDITY_DAYS,
    created_at: now,
    updated_at: now,
    deleted_at: null,
  });
  return toReward(row);
}

/**
 * Partial update. The discount rule holds for the resulting reward: moving a reward away from
 * `discount` drops its percentage, moving it to `discount` needs one (given or already stored).
 * An empty update changes nothing.
 */
export async function updateReward(ctx: Ctx, id: string, input: UpdateRewardBody): Promise<void> {
  await inTransaction(ctx, async (ctx) => {
    const row = await queries.findReward(ctx.db, ctx.businessId, id, true);
    if (!row) throw notFound('Reward');
    const rewardType = input.rewardType ?? row.reward_type;
    const stored = row.discount_percent === null ? null : Number(row.discount_percent);
    const retyped = input.rewardType !== undefined || input.discountPercent !== undefined;
    const changes = {
      ...(input.name !== undefined && { name: input.name }),
      ...(input.description !== undefined && { description: input.description }),
      ...(input.pointsCost !== undefined && { points_cost: input.pointsCost }),
      ...(input.isActive !== undefined && { is_active: input.isActive }),
      ...(input.voucherValidityDays !== undefined && { voucher_validity_days: input.voucherValidityDays }),
      ...(retyped && {
        reward_type: rewardType,
        discount_percent:
          rewardType === 'discount'
            ? discountFor(rewardType, input.discountPercent ?? stored)
            : discountFor(rewardType, input.discountPercent),
      }),
    };
    if (Object.keys(changes).length === 0) return;
    await queries.updateReward(ctx.db, ctx.businessId, id, { ...changes, updated_at: ctx.clock.now() });
  });
}

/** Soft delete: the reward leaves the catalogue; its redemptions stay as they are. */
export async function deleteReward(ctx: Ctx, id: string): Promise<void> {
  if (!(await queries.deleteReward(ctx.db, ctx.businessId, id, ctx.clock.now()))) throw notFound('Reward');
}

/** Active rewards that are not deleted, cheapest first (the catalogue points of sale show). */
export async function activeRewards(ctx: Ctx): Promise<Reward[]> {
  return (await queries.listActiveRewards(ctx.db, ctx.businessId)).map(toReward);
}
