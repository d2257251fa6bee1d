import type { Redemption } from '../../../contract/loyalty/index.js';
import type { RedemptionRow } from '../../platform/db/types.js';

export const toRedemption = (
  row: RedemptionRow & { member_name: string; reward_name: string },
): Redemption => ({
  publicId: row.id,
  memberId: row.member_id,
  memberName: row.member_name,
  rewardId: row.reward_id,
  rewardName: row.reward_name,
  pointsSpent: Number(row.points_spent),
  status: row.status,
  voucherCode: row.voucher_code,
  notes: row.notes,
  redeemedAt: row.redeemed_at.toISOString(),
  fulfilledAt: row.fulfilled_at ? row.fulfilled_at.toISOString() : null,
  expiresAt: row.expires_at.toISOString(),
});
