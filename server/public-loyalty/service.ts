import { sql } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import type {
  EarnBody,
  EarnResult,
  PublicBalance,
  PublicReward,
  PublicVoucherVerification,
  RedeemBody,
  RedeemResult,
} from '../../contract/public-loyalty/schemas.js';
import { newId } from '../common/ids.js';
import type { Ctx } from '../context.js';
import { inTransaction, type Executor } from '../db/database.js';
import { isUniqueViolation } from '../db/errors.js';
import type { LoyaltyTransactionRow } from '../db/types.js';
import { ApiError, conflict, invalidState, notFound } from '../errors.js';
import { announce } from '../events/relay.js';
import { createCustomer } from '../general/customers/service.js';
import { pointsFor } from '../loyalty/ledger.js';
import { toMember, toTransaction } from '../loyalty/mappers.js';
import { membersChanged } from '../loyalty/member-counts.js';
import { enrollInTransaction } from '../loyalty/members.js';
import type { MemberViewRow } from '../loyalty/queries.js';
import { activeProgram, memberView } from '../loyalty/queries.js';
import { findVoucher, redeemReward } from '../loyalty/redemptions.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Optimistic earn attempts before falling back to locking the member row. */
const OPTIMISTIC_ATTEMPTS = 3;

const noProgram = () => notFound('Loyalty program');
const referenceTaken = () => conflict('The reference has already been used for an earn');

const referenceUsed = async (db: Executor, businessId: string, reference: string) =>
  Boolean(
    await db
      .selectFrom('loyalty_transactions')
      .select('id')
      .where('business_id', '=', businessId)
      .where('type', '=', 'earn')
      .where('reference_type', '=', 'public')
      .where('reference_id', '=', reference)
      .executeTakeFirst(),
  );
const noMember = () => notFound('Member');

/** The active member of a customer, found by the customer's email (case-insensitive). */
const memberByEmail = (db: Executor, businessId: string, email: string) =>
  memberView(db, businessId)
    .where(sql<boolean>`lower(c.email) = ${email.toLowerCase()}`)
    .executeTakeFirst();

export async function getBalance(ctx: Ctx, email: string): Promise<PublicBalance> {
  const [program, member] = await Promise.all([
    activeProgram(ctx.db, ctx.businessId),
    memberByEmail(ctx.db, ctx.businessId, email),
  ]);
  if (!program) throw noProgram();
  if (!member) throw noMember();
  return {
    customerName: member.customer_name,
    tierName: member.tier_name,
    tierColor: member.tier_color,
    pointsBalance: Number(member.points_balance),
    lifetimePoints: Number(member.lifetime_points),
    pointsName: program.points_name,
  };
}

/**
 * Everything an earn needs, in one query: the active program with its tiers, and the member (with
 * its customer and tier) for the email, if there is one.
 */
async function earnState(db: Executor, businessId: string, email: string) {
  const row = await db
    .selectFrom('loyalty_programs as p')
    .leftJoin('customers as c', (j) =>
      j.onRef('c.business_id', '=', 'p.business_id').on(sql<boolean>`lower(c.email) = ${email}`),
    )
    .leftJoin('loyalty_members as m', (j) =>
      j
        .onRef('m.business_id', '=', 'c.business_id')
        .onRef('m.customer_id', '=', 'c.id')
        .on('m.deleted_at', 'is', null),
    )
    .select((eb) => [
      'p.id as program_id',
      'p.points_per_currency',
      'p.points_expiry_days',
      'p.enrollment_type',
      'c.id as customer_id',
      'c.name as customer_name',
      'c.email as customer_email',
      'c.phone as customer_phone',
      'm.id as member_id',
      'm.tier_id',
      'm.status',
      'm.points_balance',
      'm.lifetime_points',
      'm.enrolled_at',
      jsonArrayFrom(
        eb
          .selectFrom('loyalty_tiers as t')
          .select(['t.id', 't.name', 't.color', 't.min_points', 't.multiplier'])
          .whereRef('t.business_id', '=', 'p.business_id')
          .whereRef('t.program_id', '=', 'p.id')
          .orderBy('t.min_points')
          .orderBy('t.id'),
      ).as('tiers'),
    ])
    .where('p.business_id', '=', businessId)
    .where('p.is_active', '=', true)
    .executeTakeFirst();
  if (!row) throw noProgram();
  return row;
}

type EarnState = Awaited<ReturnType<typeof earnState>>;
type Tier = EarnState['tiers'][number];

/**
 * Creates the customer (named by the email) when there is none, and enrolls it. A concurrent earn
 * for the same new email may win either step; that is fine, the caller reads the state again.
 */
async function enrollByEmail(ctx: Ctx, state: EarnState, email: string): Promise<void> {
  let customerId = state.customer_id;
  if (!customerId) {
    try {
      customerId = (await createCustomer(ctx, { name: email, email })).id;
    } catch (err) {
      if (err instanceof ApiError && err.code === 'CONFLICT') return;
      throw err;
    }
  }
  const program = await activeProgram(ctx.db, ctx.businessId);
  if (!program) throw noProgram();
  await inTransaction(ctx.db, (trx) => enrollInTransaction(trx, ctx, program, customerId));
}

/**
 * Public earn. The usual path is two statements and no explicit transaction: one read of the
 * program, tiers and member, then one statement that updates the member only if it is exactly as
 * read (balance, lifetime, tier, status) and, from that update, inserts the ledger row and the
 * events. A concurrent change makes the update match nothing, and the earn is computed again; after
 * a few such losses (a member hammered from many tills) it takes the member's row lock instead.
 * The events are handed to the dispatcher after the commit (events/relay.ts).
 */
export async function earn(ctx: Ctx, input: EarnBody): Promise<EarnResult> {
  const email = input.email.toLowerCase();
  for (let attempt = 0; ; attempt++) {
    const locking = attempt >= OPTIMISTIC_ATTEMPTS;
    const outcome = locking
      ? await inTransaction(ctx.db, async (trx) => {
          await trx
            .selectFrom('loyalty_members as m')
            .innerJoin('customers as c', (j) =>
              j.onRef('c.business_id', '=', 'm.business_id').onRef('c.id', '=', 'm.customer_id'),
            )
            .select('m.id')
            .where('m.business_id', '=', ctx.businessId)
            .where('m.deleted_at', 'is', null)
            .where(sql<boolean>`lower(c.email) = ${email}`)
            .forUpdate('m')
            .execute();
          return tryEarn(trx, ctx, input, await earnState(trx, ctx.businessId, email));
        })
      : await tryEarn(ctx.db, ctx, input, await earnState(ctx.db, ctx.businessId, email));
    if (outcome === 'enroll') {
      const state = await earnState(ctx.db, ctx.businessId, email);
      if (state.enrollment_type !== 'automatic') throw noMember();
      await enrollByEmail(ctx, state, email);
      continue;
    }
    if (outcome === 'changed') continue;
    announce(ctx, outcome.eventIds);
    return outcome.result;
  }
}

type EarnOutcome = 'enroll' | 'changed' | { result: EarnResult; eventIds: string[] };

async function tryEarn(db: Executor, ctx: Ctx, input: EarnBody, state: EarnState): Promise<EarnOutcome> {
  if (!state.member_id) {
    if (state.enrollment_type !== 'automatic') throw noMember();
    return 'enroll';
  }
  if (state.status !== 'active')
    throw invalidState(`The member is ${state.status}; only active members earn`);
  const tiers = state.tiers;
  const tier = tiers.find((t) => t.id === state.tier_id) ?? null;
  const multiplier = tier ? Number(tier.multiplier) : 1;
  const points = pointsFor(input.amount, state.points_per_currency, multiplier);
  const balance = Number(state.points_balance);
  const lifetime = Number(state.lifetime_points);
  if (points <= 0) {
    // Nothing to write, but a used reference is still a repeat.
    if (input.reference && (await referenceUsed(db, ctx.businessId, input.reference))) throw referenceTaken();
    return {
      result: {
        pointsEarned: 0,
        multiplierApplied: multiplier,
        newBalance: balance,
        tierName: tier?.name ?? null,
      },
      eventIds: [],
    };
  }

  const newTier = promotion(tiers, tier, lifetime + points) ?? tier;
  const now = ctx.clock.now();
  const transaction: LoyaltyTransactionRow = {
    business_id: ctx.businessId,
    id: newId('ltx'),
    member_id: state.member_id,
    type: 'earn',
    points,
    balance_after: balance + points,
    description: input.description ?? (input.reference ? `Purchase ${input.reference}` : 'Purchase'),
    reference_type: 'public',
    reference_id: input.reference ?? null,
    multiplier_applied: String(multiplier),
    counts_as_issued: true,
    remaining: points,
    expires_at:
      state.points_expiry_days > 0 ? new Date(now.getTime() + state.points_expiry_days * DAY_MS) : null,
    created_at: now,
  };
  const memberAfter: MemberViewRow = {
    business_id: ctx.businessId,
    id: state.member_id,
    customer_id: state.customer_id!,
    tier_id: newTier?.id ?? null,
    status: state.status,
    points_balance: balance + points,
    lifetime_points: lifetime + points,
    search_text: '',
    enrolled_at: state.enrolled_at!,
    updated_at: now,
    deleted_at: null,
    customer_name: state.customer_name!,
    customer_email: state.customer_email,
    customer_phone: state.customer_phone,
    tier_name: newTier?.name ?? null,
    tier_color: newTier?.color ?? null,
  };
  const member = toMember(memberAfter);
  const events: { id: string; type: string; data: unknown }[] = [];
  if (newTier !== tier) {
    const brief = (t: Tier | null) => (t ? { publicId: t.id, name: t.name, color: t.color } : null);
    events.push({
      id: newId('evt'),
      type: 'loyalty.tier_changed',
      data: { member, previousTier: brief(tier), newTier: brief(newTier) },
    });
  }
  events.push({
    id: newId('evt'),
    type: 'loyalty.points_earned',
    data: { transaction: toTransaction(transaction), member },
  });

  try {
    const written = await writeEarn(db, ctx, state, transaction, memberAfter, events, now);
    if (!written) return 'changed';
    if (newTier !== tier) membersChanged(ctx.businessId);
  } catch (err) {
    if (isUniqueViolation(err, 'loyalty_transactions_reference_key')) throw referenceTaken();
    throw err;
  }
  return {
    result: {
      pointsEarned: points,
      multiplierApplied: multiplier,
      newBalance: balance + points,
      tierName: newTier?.name ?? null,
    },
    eventIds: events.map((e) => e.id),
  };
}

/** The highest tier the lifetime points reach, when it is above the current one. */
function promotion(tiers: Tier[], current: Tier | null, lifetime: number): Tier | null {
  const qualified = [...tiers].reverse().find((t) => Number(t.min_points) <= lifetime);
  if (!qualified) return null;
  if (current && Number(current.min_points) >= Number(qualified.min_points)) return null;
  return qualified;
}

/**
 * One statement: the member update, guarded by the state the earn was computed from, and the
 * ledger row and events inserted only from its result. False when the member had changed.
 */
async function writeEarn(
  db: Executor,
  ctx: Ctx,
  state: EarnState,
  t: LoyaltyTransactionRow,
  after: MemberViewRow,
  events: { id: string; type: string; data: unknown }[],
  now: Date,
): Promise<boolean> {
  const eventRows = sql.join(events.map((e) => sql`(${e.id}, ${e.type}, ${JSON.stringify(e.data)}::jsonb)`));
  const result = await sql<{ points_balance: string }>`
    WITH updated AS (
      UPDATE loyalty_members
      SET points_balance = ${after.points_balance}, lifetime_points = ${after.lifetime_points},
          tier_id = ${after.tier_id}, updated_at = ${now}
      WHERE business_id = ${ctx.businessId} AND id = ${t.member_id} AND deleted_at IS NULL
        AND status = 'active' AND points_balance = ${state.points_balance}
        AND lifetime_points = ${state.lifetime_points} AND tier_id IS NOT DISTINCT FROM ${state.tier_id}
      RETURNING points_balance
    ), ledger AS (
      INSERT INTO loyalty_transactions (business_id, id, member_id, type, points, balance_after, description,
        reference_type, reference_id, multiplier_applied, counts_as_issued, remaining, expires_at, created_at)
      SELECT ${t.business_id}, ${t.id}, ${t.member_id}, ${t.type}, ${t.points}, ${t.balance_after}, ${t.description},
        ${t.reference_type}, ${t.reference_id}, ${t.multiplier_applied}, ${t.counts_as_issued}, ${t.remaining},
        ${t.expires_at}, ${t.created_at}
      FROM updated
    ), announced AS (
      INSERT INTO events (business_id, id, type, data, occurred_at, dispatched_at)
      SELECT ${ctx.businessId}, e.id, e.type, e.data, ${now}, NULL
      FROM (VALUES ${eventRows}) AS e (id, type, data), updated
    )
    SELECT points_balance FROM updated
  `.execute(db);
  return result.rows.length === 1;
}

export async function redeem(ctx: Ctx, input: RedeemBody): Promise<RedeemResult> {
  const member = await memberByEmail(ctx.db, ctx.businessId, input.email);
  if (!member) throw noMember();
  const { redemption, member: after } = await redeemReward(ctx, {
    memberId: member.id,
    rewardId: input.rewardId,
  });
  return {
    redemptionId: redemption.publicId,
    rewardName: redemption.rewardName,
    pointsSpent: redemption.pointsSpent,
    newBalance: after.pointsBalance,
    voucherCode: redemption.voucherCode,
    expiresAt: redemption.expiresAt,
  };
}

export async function listRewards(ctx: Ctx): Promise<PublicReward[]> {
  const rows = await ctx.db
    .selectFrom('loyalty_rewards')
    .select(['id', 'name', 'description', 'points_cost', 'reward_type', 'discount_percent'])
    .where('business_id', '=', ctx.businessId)
    .where('is_active', '=', true)
    .where('deleted_at', 'is', null)
    .orderBy('points_cost')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    publicId: r.id,
    name: r.name,
    description: r.description,
    pointsCost: Number(r.points_cost),
    rewardType: r.reward_type,
    ...(r.reward_type === 'discount' &&
      r.discount_percent !== null && { discountPercent: Number(r.discount_percent) }),
  }));
}

export async function verifyVoucher(ctx: Ctx, code: string): Promise<PublicVoucherVerification> {
  const v = await findVoucher(ctx, code);
  return {
    valid: v.valid,
    voucherCode: v.voucherCode,
    rewardName: v.rewardName,
    rewardType: v.rewardType,
    status: v.status,
    redeemedAt: v.redeemedAt,
    expiresAt: v.expiresAt,
  };
}
