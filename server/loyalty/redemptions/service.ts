import { randomInt } from 'node:crypto';
import type {
  CreateRedemptionBody,
  ListRedemptionsQuery,
  Member,
  Redemption,
  UpdateRedemptionBody,
  VoucherVerification,
} from '../../../contract/loyalty/index.js';
import { newId } from '../../platform/ids.js';
import { type Ctx, type CtxSource, inTransaction } from '../../platform/context.js';

import type { RedemptionRow } from '../../platform/db/types.js';
import { invalid, invalidState, notFound } from '../../platform/errors.js';
import { emit } from '../../platform/outbox.js';
import { post } from '../ledger/service.js';
import { toMember } from '../members/mappers.js';
import { toRedemption } from './mappers.js';
import * as members from '../members/queries.js';
import { findMemberView } from '../members/queries.js';
import * as queries from './queries.js';
import * as rewards from '../rewards/queries.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const EXPIRY_BATCH = 500;
const CODE_ATTEMPTS = 5;

/** Crockford base32: digits and letters without I, L, O and U. */
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const CODE_LENGTH = 12;

/** `K7Q2-M9XD-4HPA`: 12 random Crockford base32 characters (60 bits) in groups of four. */
function voucherCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i++) code += CROCKFORD[randomInt(CROCKFORD.length)];
  return `${code.slice(0, 4)}-${code.slice(4, 8)}-${code.slice(8)}`;
}

/**
 * A code as typed by a person, in its stored form: case-insensitive, hyphens and spaces optional,
 * and Crockford's look-alikes read as what they look like (O as 0, I and L as 1). Null when it
 * cannot be a voucher code.
 */
function canonicalCode(input: string): string | null {
  const chars = input.toUpperCase().replace(/[-\s]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  if (chars.length !== CODE_LENGTH || [...chars].some((c) => !CROCKFORD.includes(c))) return null;
  return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8)}`;
}

export async function listRedemptions(
  ctx: Ctx,
  query: ListRedemptionsQuery,
): Promise<{ data: Redemption[]; totalCount: number }> {
  const { rows, total } = await queries.listRedemptions(ctx.db, ctx.businessId, query);
  return { data: rows.map(toRedemption), totalCount: total };
}

/**
 * Redeems a reward for a member in one transaction: the member row is locked first (so its status
 * and balance cannot change underneath), the ledger debit cannot take the balance below zero, the
 * reward's counter is only bumped while it is still active, and the voucher code is unique within the business.
 */
export async function createRedemption(ctx: Ctx, input: CreateRedemptionBody): Promise<Redemption> {
  return (await redeemReward(ctx, input)).redemption;
}

/** The redemption and the member as it stands after it (the public redeem shows the new balance). */
export async function redeemReward(
  ctx: Ctx,
  input: CreateRedemptionBody,
): Promise<{ redemption: Redemption; member: Member }> {
  return inTransaction(ctx, async (ctx) => {
    const member = await members.lockMember(ctx.db, ctx.businessId, input.memberId);
    if (!member) throw invalid('memberId', 'Unknown member');
    const reward = await rewards.findReward(ctx.db, ctx.businessId, input.rewardId);
    if (!reward) throw invalid('rewardId', 'Unknown reward');
    if (member.status !== 'active')
      throw invalidState(`The member is ${member.status}; only active members can redeem`);
    if (!reward.is_active) throw invalidState('The reward is not active');

    const id = newId('red');
    const cost = Number(reward.points_cost);
    await post(ctx, member.id, {
      type: 'redeem',
      points: -cost,
      description: `Redeemed ${reward.name}`,
      referenceType: 'reward',
      referenceId: id,
    });
    if (!(await rewards.countRedemption(ctx.db, ctx.businessId, reward.id)))
      throw invalidState('The reward is not active');

    const now = ctx.clock.now();
    let row: RedemptionRow | undefined;
    for (let attempt = 0; !row && attempt < CODE_ATTEMPTS; attempt++) {
      // A taken code leaves the transaction usable; the next attempt draws another.
      row = await queries.insertRedemptionUnlessCodeTaken(ctx.db, {
        business_id: ctx.businessId,
        id,
        member_id: member.id,
        reward_id: reward.id,
        points_spent: cost,
        status: 'pending',
        voucher_code: voucherCode(),
        notes: input.notes ?? null,
        redeemed_at: now,
        fulfilled_at: null,
        expires_at: new Date(now.getTime() + reward.voucher_validity_days * DAY_MS),
        updated_at: now,
      });
    }
    if (!row) throw new Error('Could not draw an unused voucher code');

    const view = await findMemberView(ctx.db, ctx.businessId, member.id);
    if (!view) throw notFound('Member');
    const redemption = toRedemption({ ...row, member_name: view.customer_name, reward_name: reward.name });
    const after = toMember(view);
    await emit(ctx, 'loyalty.reward_redeemed', { redemption, member: after });
    return { redemption, member: after };
  });
}

const isPastExpiry = (row: RedemptionRow, now: Date) => row.expires_at.getTime() <= now.getTime();

/**
 * Moves a pending redemption: to fulfilled (fulfilledAt set), to cancelled (its points refunded,
 * not counted as issued), or keeps it pending to change its notes. The row lock makes concurrent
 * moves of one redemption run one after the other, so a redemption is refunded at most once.
 * A pending redemption past its expiry is treated as expired (the expiry job has not reached it
 * yet): it cannot be moved any more.
 */
export async function updateRedemption(ctx: Ctx, id: string, input: UpdateRedemptionBody): Promise<void> {
  await inTransaction(ctx, async (ctx) => {
    const row = await queries.lockRedemption(ctx.db, ctx.businessId, id);
    if (!row) throw notFound('Redemption');
    const now = ctx.clock.now();
    if (row.status !== 'pending')
      throw invalidState(`The redemption is ${row.status}; only pending redemptions can change`);
    if (isPastExpiry(row, now)) throw invalidState('The voucher has expired');

    if (input.status === 'cancelled') {
      if (!(await members.memberExists(ctx.db, ctx.businessId, row.member_id)))
        throw invalidState('The member has been deleted; there is no balance to refund to');
      await post(ctx, row.member_id, {
        type: 'adjust',
        points: Number(row.points_spent),
        description: 'Refund of cancelled redemption',
        referenceType: 'reward',
        referenceId: row.id,
        countsAsIssued: false,
        field: 'status',
      });
    }
    await queries.updateRedemption(ctx.db, ctx.businessId, id, {
      status: input.status,
      ...(input.status === 'fulfilled' && { fulfilled_at: now }),
      ...(input.notes !== undefined && { notes: input.notes }),
      updated_at: now,
    });
  });
}

export async function verifyVoucher(ctx: Ctx, code: string): Promise<VoucherVerification> {
  const { voucher, memberName } = await findVoucher(ctx, code);
  return { ...voucher, memberName };
}

/**
 * A voucher by its code as typed, unknown: 404. What both verify variants show, and what each adds
 * (the token variant the member's name, the public one the reward type).
 */
export async function findVoucher(ctx: Ctx, code: string) {
  const canonical = canonicalCode(code);
  if (!canonical) throw notFound('Voucher');
  const row = await queries.findVoucher(ctx.db, ctx.businessId, canonical);
  if (!row) throw notFound('Voucher');
  return {
    voucher: {
      valid: row.status === 'pending' && row.expires_at.getTime() > ctx.clock.now().getTime(),
      voucherCode: row.voucher_code,
      rewardName: row.reward_name,
      status: row.status,
      redeemedAt: row.redeemed_at.toISOString(),
      expiresAt: row.expires_at.toISOString(),
    },
    memberName: row.member_name,
    rewardType: row.reward_type,
  };
}

/**
 * Moves every pending redemption whose voucher has expired to `expired` (no refund), across
 * businesses, a batch per statement. Rows another transaction holds are skipped; the next run
 * takes them. Returns how many moved.
 */
/** Whether a pending voucher of the business has expired by `deps.clock`'s time. */
export const hasExpiredVouchers = (deps: CtxSource, businessId: string): Promise<boolean> =>
  queries.hasExpiredVoucher(deps.db, deps.clock.now(), businessId);

export async function expireVouchers(deps: CtxSource, businessId?: string): Promise<number> {
  const now = deps.clock.now();
  let total = 0;
  for (;;) {
    const n = await queries.expireVoucherBatch(deps.db, now, EXPIRY_BATCH, businessId);
    total += n;
    if (n < EXPIRY_BATCH) break;
  }
  if (total > 0) deps.log.info({ expired: total }, 'vouchers expired');
  return total;
}
