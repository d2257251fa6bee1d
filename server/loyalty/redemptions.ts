import { randomInt } from 'node:crypto';
import type {
  CreateRedemptionBody,
  ListRedemptionsQuery,
  Member,
  Redemption,
  UpdateRedemptionBody,
  VoucherVerification,
} from '../../contract/loyalty/schemas.js';
import { newId } from '../platform/ids.js';
import type { Ctx, CtxSource } from '../platform/context.js';
import { inTransaction, type Executor } from '../platform/db/database.js';
import type { RedemptionRow } from '../platform/db/types.js';
import { invalid, invalidState, notFound } from '../platform/errors.js';
import { emit } from '../platform/outbox.js';
import { post } from './ledger.js';
import { toMember, toRedemption } from './mappers.js';
import { findMemberView } from './queries.js';

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

/**
 * Redemptions with the names the API shows: the customer's name (deleted members included, their
 * redemptions stay) and the reward's name (deleted rewards included).
 */
const redemptionView = (db: Executor, businessId: string) =>
  db
    .selectFrom('loyalty_redemptions as r')
    .innerJoin('loyalty_members as m', (j) =>
      j.onRef('m.business_id', '=', 'r.business_id').onRef('m.id', '=', 'r.member_id'),
    )
    .innerJoin('customers as c', (j) =>
      j.onRef('c.business_id', '=', 'm.business_id').onRef('c.id', '=', 'm.customer_id'),
    )
    .innerJoin('loyalty_rewards as w', (j) =>
      j.onRef('w.business_id', '=', 'r.business_id').onRef('w.id', '=', 'r.reward_id'),
    )
    .where('r.business_id', '=', businessId);

export async function listRedemptions(
  ctx: Ctx,
  query: ListRedemptionsQuery,
): Promise<{ data: Redemption[]; totalCount: number }> {
  let base = redemptionView(ctx.db, ctx.businessId);
  if (query.status) base = base.where('r.status', '=', query.status);
  if (query.memberId) base = base.where('r.member_id', '=', query.memberId);
  const [rows, count] = await Promise.all([
    base
      .selectAll('r')
      .select(['c.name as member_name', 'w.name as reward_name'])
      .orderBy('r.redeemed_at', 'desc')
      .orderBy('r.id', 'desc')
      .limit(query.limit)
      .offset(query.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { data: rows.map(toRedemption), totalCount: Number(count.n) };
}

/**
 * Redeems a reward for a member in one transaction: the member row is locked first (so its status
 * and balance cannot change underneath), the ledger debit cannot take the balance below zero, the
 * reward's counter is only bumped while it is still active, and the voucher code is unique.
 */
export async function createRedemption(ctx: Ctx, input: CreateRedemptionBody): Promise<Redemption> {
  return (await redeemReward(ctx, input)).redemption;
}

/** The redemption and the member as it stands after it (the public redeem shows the new balance). */
export async function redeemReward(
  ctx: Ctx,
  input: CreateRedemptionBody,
): Promise<{ redemption: Redemption; member: Member }> {
  return inTransaction(ctx.db, async (trx) => {
    const member = await trx
      .selectFrom('loyalty_members')
      .select(['id', 'status'])
      .where('business_id', '=', ctx.businessId)
      .where('id', '=', input.memberId)
      .where('deleted_at', 'is', null)
      .forUpdate()
      .executeTakeFirst();
    if (!member) throw invalid('memberId', 'Unknown member');
    const reward = await trx
      .selectFrom('loyalty_rewards')
      .selectAll()
      .where('business_id', '=', ctx.businessId)
      .where('id', '=', input.rewardId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!reward) throw invalid('rewardId', 'Unknown reward');
    if (member.status !== 'active')
      throw invalidState(`The member is ${member.status}; only active members can redeem`);
    if (!reward.is_active) throw invalidState('The reward is not active');

    const id = newId('red');
    const cost = Number(reward.points_cost);
    await post(trx, ctx, member.id, {
      type: 'redeem',
      points: -cost,
      description: `Redeemed ${reward.name}`,
      referenceType: 'reward',
      referenceId: id,
    });
    const counted = await trx
      .updateTable('loyalty_rewards')
      .set((eb) => ({ total_redemptions: eb('total_redemptions', '+', 1) }))
      .where('business_id', '=', ctx.businessId)
      .where('id', '=', reward.id)
      .where('is_active', '=', true)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (Number(counted.numUpdatedRows) === 0) throw invalidState('The reward is not active');

    const now = ctx.clock.now();
    let row: RedemptionRow | undefined;
    for (let attempt = 0; !row && attempt < CODE_ATTEMPTS; attempt++) {
      // ON CONFLICT keeps the transaction usable when a code is taken; the next attempt draws another.
      row = await trx
        .insertInto('loyalty_redemptions')
        .values({
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
        })
        .onConflict((oc) => oc.column('voucher_code').doNothing())
        .returningAll()
        .executeTakeFirst();
    }
    if (!row) throw new Error('Could not draw an unused voucher code');

    const view = await findMemberView(trx, ctx.businessId, member.id);
    if (!view) throw notFound('Member');
    const redemption = toRedemption({ ...row, member_name: view.customer_name, reward_name: reward.name });
    const after = toMember(view);
    await emit(trx, ctx, 'loyalty.reward_redeemed', { redemption, member: after });
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
  await inTransaction(ctx.db, async (trx) => {
    const row = await trx
      .selectFrom('loyalty_redemptions')
      .selectAll()
      .where('business_id', '=', ctx.businessId)
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!row) throw notFound('Redemption');
    const now = ctx.clock.now();
    if (row.status !== 'pending')
      throw invalidState(`The redemption is ${row.status}; only pending redemptions can change`);
    if (isPastExpiry(row, now)) throw invalidState('The voucher has expired');

    if (input.status === 'cancelled') {
      const member = await trx
        .selectFrom('loyalty_members')
        .select('id')
        .where('business_id', '=', ctx.businessId)
        .where('id', '=', row.member_id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (!member) throw invalidState('The member has been deleted; there is no balance to refund to');
      await post(trx, ctx, row.member_id, {
        type: 'adjust',
        points: Number(row.points_spent),
        description: 'Refund of cancelled redemption',
        referenceType: 'reward',
        referenceId: row.id,
        countsAsIssued: false,
        field: 'status',
      });
    }
    await trx
      .updateTable('loyalty_redemptions')
      .set({
        status: input.status,
        ...(input.status === 'fulfilled' && { fulfilled_at: now }),
        ...(input.notes !== undefined && { notes: input.notes }),
        updated_at: now,
      })
      .where('business_id', '=', ctx.businessId)
      .where('id', '=', id)
      .execute();
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
  const row = await redemptionView(ctx.db, ctx.businessId)
    .where('r.voucher_code', '=', canonical)
    .select([
      'r.voucher_code',
      'r.status',
      'r.redeemed_at',
      'r.expires_at',
      'c.name as member_name',
      'w.name as reward_name',
      'w.reward_type',
    ])
    .executeTakeFirst();
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
export async function expireVouchers(deps: CtxSource): Promise<number> {
  const now = deps.clock.now();
  let total = 0;
  for (;;) {
    const moved = await deps.db
      .updateTable('loyalty_redemptions')
      .set({ status: 'expired', updated_at: now })
      .where((eb) =>
        eb(
          eb.refTuple('business_id', 'id'),
          'in',
          eb
            .selectFrom('loyalty_redemptions')
            .select(['business_id', 'id'])
            .where('status', '=', 'pending')
            .where('expires_at', '<=', now)
            .limit(EXPIRY_BATCH)
            .forUpdate()
            .skipLocked()
            .$asTuple('business_id', 'id'),
        ),
      )
      .where('status', '=', 'pending')
      .executeTakeFirst();
    const n = Number(moved.numUpdatedRows);
    total += n;
    if (n < EXPIRY_BATCH) break;
  }
  if (total > 0) deps.log.info({ expired: total }, 'vouchers expired');
  return total;
}
