import { sql } from 'kysely';
import type {
  EarnBody,
  EarnResult,
  PublicBalance,
  PublicReward,
  PublicVoucherVerification,
  RedeemBody,
  RedeemResult,
} from '../../contract/public-loyalty/schemas.js';
import { newId } from '../platform/ids.js';
import type { Ctx } from '../platform/context.js';
import { inTransaction, type Executor } from '../platform/db/database.js';
import { runPrepared } from '../platform/db/prepared.js';
import { isUniqueViolation } from '../platform/db/errors.js';
import type { LoyaltyTransactionRow } from '../platform/db/types.js';
import { ApiError, conflict, invalidState, notFound } from '../platform/errors.js';
import { announce } from '../platform/relay.js';
import { createCustomer } from '../general/customers/service.js';
import { isPointsLimitViolation, MAX_POINTS, pointsFor, pointsLimitExceeded } from '../loyalty/ledger.js';
import { toMember, toTierBrief, toTransaction } from '../loyalty/mappers.js';
import { membersChanged } from '../loyalty/member-counts.js';
import { enrollInTransaction } from '../loyalty/members.js';
import type { MemberViewRow } from '../loyalty/queries.js';
import { activeProgram, memberView } from '../loyalty/queries.js';
import { findVoucher, redeemReward } from '../loyalty/redemptions.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Optimistic earn attempts before falling back to locking the member row. */
const OPTIMISTIC_ATTEMPTS = 3;

const noProgram = () => notFound('Loyalty program');
const noMember = () => notFound('Member');
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

interface Tier {
  id: string;
  name: string;
  color: string;
  min_points: number;
  multiplier: number;
}

/** The active program with its tiers, and the member (with its customer) for the email, if any. */
interface EarnState {
  program_id: string;
  points_per_currency: number;
  points_expiry_days: number;
  enrollment_type: 'automatic' | 'manual';
  customer_id: string | null;
  customer_name: string | null;
  customer_email: string | null;
  customer_phone: string | null;
  member_id: string | null;
  tier_id: string | null;
  status: 'active' | 'inactive' | 'suspended' | null;
  points_balance: number | null;
  lifetime_points: number | null;
  enrolled_at: Date | null;
  tiers: Tier[];
}

// The earn's two statements are plain SQL run as prepared statements (server/platform/db/prepared.ts): at
// point-of-sale rates, parsing and planning them anew each time cost more than running them.
const EARN_STATE_SQL = `
  SELECT p.id AS program_id, p.points_per_currency, p.points_expiry_days, p.enrollment_type,
         c.id AS customer_id, c.name AS customer_name, c.email AS customer_email, c.phone AS customer_phone,
         m.id AS member_id, m.tier_id, m.status, m.points_balance, m.lifetime_points, m.enrolled_at,
         (SELECT coalesce(json_agg(json_build_object('id', t.id, 'name', t.name, 'color', t.color,
                   'min_points', t.min_points, 'multiplier', t.multiplier) ORDER BY t.min_points, t.id), '[]')
            FROM loyalty_tiers t
           WHERE t.business_id = p.business_id AND t.program_id = p.id) AS tiers
    FROM loyalty_programs p
    LEFT JOIN customers c ON c.business_id = p.business_id AND lower(c.email) = $2
    LEFT JOIN loyalty_members m
      ON m.business_id = c.business_id AND m.customer_id = c.id AND m.deleted_at IS NULL
   WHERE p.business_id = $1 AND p.is_active`;

async function earnState(db: Executor, businessId: string, email: string): Promise<EarnState> {
  const [row] = await runPrepared<EarnState>(db, 'public-earn-state', EARN_STATE_SQL, [businessId, email]);
  if (!row) throw noProgram();
  return row;
}

/** The longest name given to a customer made from an email (the contract's name limit is 200). */
const NAME_FROM_EMAIL_MAX = 100;

const capitalised = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/**
 * The name of a customer that an earn enrolls, made from the email's local part: without a `+tag`,
 * split into words at dots and underscores, each capitalised (hyphenated parts too), so
 * `grace.hopper@example.com` is `Grace Hopper` (first name Grace, last name Hopper) and
 * `jean-luc_picard+till@example.com` is `Jean-Luc Picard`. A local part with no word left is used as
 * it is. The business can rename the customer later.
 */
function nameFromEmail(email: string): string {
  const local = email.slice(0, email.lastIndexOf('@'));
  const words = local
    .split('+')[0]
    .split(/[._]+/)
    .filter(Boolean)
    .map((word) => word.split('-').map(capitalised).join('-'));
  return (words.join(' ') || local).slice(0, NAME_FROM_EMAIL_MAX).trim();
}

/**
 * Creates the customer (named from the email) when there is none, and enrolls it. A concurrent earn
 * for the same new email may win either step; that is fine, the caller reads the state again.
 */
async function enrollByEmail(ctx: Ctx, state: EarnState, email: string): Promise<void> {
  let customerId = state.customer_id;
  if (!customerId) {
    try {
      customerId = (await createCustomer(ctx, { name: nameFromEmail(email), email })).id;
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
    if (outcome === 'changed') continue;
    if ('enroll' in outcome) {
      await enrollByEmail(ctx, outcome.enroll, email);
      continue;
    }
    if (outcome.eventIds.length > 0) announce(ctx);
    return outcome.result;
  }
}

/** Earned; or the member changed meanwhile; or the customer must be enrolled first (automatic). */
type EarnOutcome = { result: EarnResult; eventIds: string[] } | 'changed' | { enroll: EarnState };

async function tryEarn(db: Executor, ctx: Ctx, input: EarnBody, state: EarnState): Promise<EarnOutcome> {
  if (!state.member_id) {
    if (state.enrollment_type !== 'automatic') throw noMember();
    return { enroll: state };
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

  // Exact: the balance and lifetime are safe integers and the points too (or Infinity, pointsFor),
  // so a true sum past MAX_POINTS also compares above it. The write below only applies to the
  // balance and lifetime read here, so the check holds for what is stored.
  if (balance + points > MAX_POINTS || lifetime + points > MAX_POINTS) throw pointsLimitExceeded('amount');

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
    events.push({
      id: newId('evt'),
      type: 'loyalty.tier_changed',
      data: { member, previousTier: toTierBrief(tier), newTier: toTierBrief(newTier) },
    });
  }
  events.push({
    id: newId('evt'),
    type: 'loyalty.points_earned',
    data: { transaction: toTransaction(transaction), member },
  });

  try {
    const written = await writeEarn(db, state, transaction, memberAfter, events);
    if (!written) return 'changed';
    if (newTier !== tier) membersChanged(ctx.businessId);
  } catch (err) {
    if (isUniqueViolation(err, 'loyalty_transactions_reference_key')) throw referenceTaken();
    if (isPointsLimitViolation(err)) throw pointsLimitExceeded('amount');
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
 * ledger row and events inserted only from its result. False when the member had changed. The
 * points are added by the database (the ledger row takes the balance it returns), so no total is
 * carried through JavaScript; the guard keeps the tier and multiplier the earn applied right, and
 * the answer and events (computed from the same state) equal what is stored.
 */
const EARN_WRITE_SQL = `
  WITH updated AS (
    UPDATE loyalty_members
       SET points_balance = points_balance + $3, lifetime_points = lifetime_points + $3, tier_id = $4,
           updated_at = $5
     WHERE business_id = $1 AND id = $2 AND deleted_at IS NULL AND status = 'active'
       AND points_balance = $6 AND lifetime_points = $7 AND tier_id IS NOT DISTINCT FROM $8
    RETURNING points_balance
  ), ledger AS (
    INSERT INTO loyalty_transactions (business_id, id, member_id, type, points, balance_after, description,
      reference_type, reference_id, multiplier_applied, counts_as_issued, remaining, expires_at, created_at)
    SELECT $1, $9, $2, 'earn', $3, updated.points_balance, $10, 'public', $11, $12, true, $3, $13, $5
      FROM updated
  ), announced AS (
    INSERT INTO events (business_id, id, type, data, occurred_at, dispatched_at)
    SELECT $1, e.id, e.type, e.data, $5, NULL
      FROM jsonb_to_recordset($14::jsonb) AS e (id text, type text, data jsonb), updated
  )
  SELECT points_balance FROM updated`;

async function writeEarn(
  db: Executor,
  state: EarnState,
  t: LoyaltyTransactionRow,
  after: MemberViewRow,
  events: { id: string; type: string; data: unknown }[],
): Promise<boolean> {
  const rows = await runPrepared(db, 'public-earn-write', EARN_WRITE_SQL, [
    t.business_id,
    t.member_id,
    t.points,
    after.tier_id,
    t.created_at,
    state.points_balance,
    state.lifetime_points,
    state.tier_id,
    t.id,
    t.description,
    t.reference_id,
    t.multiplier_applied,
    t.expires_at,
    JSON.stringify(events),
  ]);
  return rows.length === 1;
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
  const { voucher, rewardType } = await findVoucher(ctx, code);
  return { ...voucher, rewardType };
}
