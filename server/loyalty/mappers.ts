import type {
  Member,
  MemberDetail,
  Program,
  Redemption,
  Reminder,
  Reward,
  Tier,
  Transaction,
} from '../../contract/loyalty/index.js';
import type {
  LoyaltyTransactionRow,
  ProgramRow,
  RedemptionRow,
  ReminderRow,
  RewardRow,
  TierRow,
} from '../platform/db/types.js';
import type { MemberViewRow } from './queries.js';

export const toProgram = (row: ProgramRow): Program => ({
  publicId: row.id,
  name: row.name,
  pointsName: row.points_name,
  pointsPerCurrency: row.points_per_currency,
  currency: row.currency,
  enrollmentType: row.enrollment_type,
  pointsExpiryDays: row.points_expiry_days,
  isActive: row.is_active,
  autoNotify: row.auto_notify,
  dateCreated: row.created_at.toISOString(),
});

export const toTier = (row: TierRow): Tier => ({
  publicId: row.id,
  name: row.name,
  color: row.color,
  minPoints: Number(row.min_points),
  multiplier: Number(row.multiplier),
  sortOrder: row.sort_order,
});

/** A tier as events name it: `{publicId, name, color}`, or null for none. */
export const toTierBrief = (t: { id: string; name: string; color: string } | null) =>
  t ? { publicId: t.id, name: t.name, color: t.color } : null;

export const toMember = (row: MemberViewRow): Member => ({
  publicId: row.id,
  customerId: row.customer_id,
  customerName: row.customer_name,
  customerEmail: row.customer_email,
  tierId: row.tier_id,
  tierName: row.tier_name,
  tierColor: row.tier_color,
  pointsBalance: Number(row.points_balance),
  lifetimePoints: Number(row.lifetime_points),
  status: row.status,
  enrolledAt: row.enrolled_at.toISOString(),
});

export const toMemberDetail = (row: MemberViewRow): MemberDetail => ({
  ...toMember(row),
  customerPhone: row.customer_phone,
});

export const toTransaction = (row: LoyaltyTransactionRow): Transaction => ({
  publicId: row.id,
  memberId: row.member_id,
  type: row.type,
  points: Number(row.points),
  balanceAfter: Number(row.balance_after),
  description: row.description,
  referenceType: row.reference_type,
  referenceId: row.reference_id,
  multiplierApplied: Number(row.multiplier_applied),
  dateCreated: row.created_at.toISOString(),
});

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

export const toReminder = (row: ReminderRow): Reminder => ({
  publicId: row.id,
  name: row.name,
  description: row.description,
  intervalDays: row.interval_days,
  bonusPoints: row.bonus_points,
  isActive: row.is_active,
  dateCreated: row.created_at.toISOString(),
});
