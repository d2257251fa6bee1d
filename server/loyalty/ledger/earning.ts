import type { LoyaltyTransactionRow } from '../../platform/db/types.js';
import { isCheckViolation } from '../../platform/db/errors.js';
import { invalid } from '../../platform/errors.js';
import { exactDecimal } from '../../platform/money.js';
import { toMember } from '../members/mappers.js';
import { toTierBrief } from '../tiers/mappers.js';
import { toTransaction } from './mappers.js';
import type { MemberViewRow } from '../members/queries.js';

/**
 * What a credit computes, in one place for both ways points are earned: the ledger's `post`
 * (token routes, paid invoices, reminders, adjustments) and the public earn's two-statement fast
 * path (earn-by-email.ts). Pure: no database, no clock of its own.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The most points a balance, a lifetime total or one transaction may hold: the largest integer
 * JavaScript numbers (and so JSON clients) hold exactly. A credit that would pass it is refused
 * (422), never stored; CHECK constraints on the member and ledger rows back the rule.
 */
export const MAX_POINTS = Number.MAX_SAFE_INTEGER;

/** The database constraints that back MAX_POINTS (migrations/2026_11_23_0003_loyalty_points_limits.ts). */
const POINTS_LIMIT_CONSTRAINTS = [
  'loyalty_members_points_balance_max',
  'loyalty_members_lifetime_points_max',
  'loyalty_transactions_balance_after_max',
  'loyalty_transactions_points_max',
];

/** 422 naming `field`: the credit would take the member's points past MAX_POINTS. */
export const pointsLimitExceeded = (field: string) =>
  invalid(field, `The member's points would exceed the maximum of ${MAX_POINTS}`);

/** Whether `err` is a violation of the database's MAX_POINTS constraints. */
export const isPointsLimitViolation = (err: unknown) =>
  POINTS_LIMIT_CONSTRAINTS.some((name) => isCheckViolation(err, name));

/**
 * Points for a purchase: floor(amount x pointsPerCurrency x multiplier), exact in integers.
 * Infinity when that is more than MAX_POINTS, so no caller meets a rounded count (they refuse it).
 */
export function pointsFor(amount: number, pointsPerCurrency: number, multiplier: number): number {
  const a = exactDecimal(amount);
  const m = exactDecimal(multiplier);
  const numerator = a.digits * BigInt(pointsPerCurrency) * m.digits;
  const points = numerator / 10n ** BigInt(a.scale + m.scale);
  return points > BigInt(MAX_POINTS) ? Infinity : Number(points);
}

/** The multiplier a member's tier applies to what it earns (1 without a tier). */
export const tierMultiplier = (tier: { multiplier: string | number } | null | undefined): number =>
  tier ? Number(tier.multiplier) : 1;

/** What a purchase of `amount` earns a member in `tier`: the points and the multiplier applied. */
export function earning(
  amount: number,
  pointsPerCurrency: number,
  tier: { multiplier: string | number } | null | undefined,
): { points: number; multiplier: number } {
  const multiplier = tierMultiplier(tier);
  return { points: pointsFor(amount, pointsPerCurrency, multiplier), multiplier };
}

/** When a credit made at `now` expires: the program's pointsExpiryDays later, or never (0). */
export const creditExpiry = (now: Date, pointsExpiryDays: number): Date | null =>
  pointsExpiryDays > 0 ? new Date(now.getTime() + pointsExpiryDays * DAY_MS) : null;

/**
 * The tier a credit promotes the member to: the highest tier whose minPoints the lifetime points
 * (after the credit) reach, when it is above the current one; null when the member stays (a
 * manually set tier stays until earning qualifies for a higher). `tiers` lowest first.
 */
export function promotion<T extends { min_points: number | string }>(
  tiers: readonly T[],
  current: T | null,
  lifetime: number,
): T | null {
  const qualified = [...tiers].reverse().find((t) => Number(t.min_points) <= lifetime);
  if (!qualified) return null;
  if (current && Number(current.min_points) >= Number(qualified.min_points)) return null;
  return qualified;
}

type TierLike = { id: string; name: string; color: string } | null;

/** `loyalty.points_earned`: the credit and the member after it. */
export const pointsEarnedData = (transaction: LoyaltyTransactionRow, member: MemberViewRow) => ({
  transaction: toTransaction(transaction),
  member: toMember(member),
});

/** `loyalty.tier_changed`: the member in its new tier, the tier it left (null: none) and the new one. */
export const tierChangedData = (member: MemberViewRow, previous: TierLike, next: TierLike) => ({
  member: toMember(member),
  previousTier: toTierBrief(previous),
  newTier: toTierBrief(next),
});
