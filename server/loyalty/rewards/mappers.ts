import type { Reward } from '../../../contract/loyalty/index.js';
import type { RewardRow } from '../../platform/db/types.js';

export const toReward = (row: RewardRow): Reward => ({
  publicId: row.id,
  name: row.name,
  description: row.description,
  pointsCost: Number(row.points_cost),
  rewardType: row.reward_type,
  discountPercent: row.discount_percent === null ? null : Number(row.discount_percent),
  isActive: row.is_active,
  voucherValidityDays: row.voucher_validity_days,
  totalRedemptions: row.total_redemptions,
  dateCreated: row.created_at.toISOString(),
});
