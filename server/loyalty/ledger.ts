import { sql } from 'kysely';
import { newId } from '../platform/ids.js';
import type { Ctx } from '../platform/context.js';
import type { Trx } from '../platform/db/database.js';
import type { LoyaltyTransactionRow, ProgramRow, TierRow } from '../platform/db/types.js';
import { isCheckViolation } from '../platform/db/errors.js';
import { ApiError, invalid, notFound } from '../platform/errors.js';
import { emit } from '../platform/outbox.js';
import { toMember, toTierBrief, toTransaction } from './mappers.js';
import { membersChanged } from './member-counts.js';
import { activeProgram, findMemberView, tiersOf } from './queries.js';

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

export interface LedgerEntry {
  type: 'earn' | 'redeem' | 'adjust' | 'expire';
  /** Signed: positive credits, negative debits. */
  points: number;
  description: string | null;
  referenceType: string | null;
  referenceId?: string | null;
  multiplier?: number;
  /**
   * Whether a credit counts as issued (grows lifetime points, stats' issued total, tier
   * eligibility). Everything but the refund of a cancelled redemption does.
   */
  countsAsIssued?: boolean;
  /** For expiry: the credit whose rest is expiring (instead of taking the oldest points). */
  expiringCreditId?: string;
  /** Re-evaluate the tier after a credit (default true; enrollment keeps its starting tier). */
  evaluateTier?: boolean;
  /**
   * The request field a refusal names when the credit would take the balance or the lifetime total
   * past MAX_POINTS (default `points`).
   */
  field?: string;
}

export interface Posted {
  transaction: LoyaltyTransactionRow;
  tierChanged: boolean;
}

export const insufficientPoints = (balance: number, wanted: number) =>
  new ApiError('INSUFFICIENT_POINTS', `The member has ${balance} points; ${wanted} needed`);

/**
 * The one way a balance changes: the member row and its ledger row in the caller's transaction.
 * The member's row lock (taken by the UPDATE) serialises concurrent changes of one member; the
 * WHERE keeps the balance from going below zero and the balance and lifetime total from passing
 * MAX_POINTS (so a refusal never aborts the caller's transaction), and CHECK constraints back both.
 */
export async function post(trx: Trx, ctx: Ctx, memberId: string, entry: LedgerEntry): Promise<Posted> {
  const field = entry.field ?? 'points';
  if (!Number.isSafeInteger(entry.points)) throw pointsLimitExceeded(field);
  const credit = entry.points > 0;
  const issued = credit && (entry.countsAsIssued ?? true);
  const lifetimeCredit = issued ? entry.points : 0;
  const now = ctx.clock.now();
  let member;
  try {
    member = await trx
      .updateTable('loyalty_members')
      .set((eb) => ({
        points_balance: eb('points_balance', '+', entry.points),
        lifetime_points: eb('lifetime_points', '+', lifetimeCredit),
        updated_at: now,
      }))
      .where('business_id', '=', ctx.businessId)
      .where('id', '=', memberId)
      .where('deleted_at', 'is', null)
      .where(sql<boolean>`points_balance + ${entry.points} BETWEEN 0 AND ${MAX_POINTS}`)
      .where(sql<boolean>`lifetime_points + ${lifetimeCredit} <= ${MAX_POINTS}`)
      .returning(['points_balance', 'tier_id', 'lifetime_points'])
      .executeTakeFirst();
  } catch (err) {
    if (isPointsLimitViolation(err)) throw pointsLimitExceeded(field);
    throw err;
  }
  if (!member) {
    const current = await trx
      .selectFrom('loyalty_members')
      .select('points_balance')
      .where('business_id', '=', ctx.businessId)
      .where('id', '=', memberId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!current) throw notFound('Member');
    if (credit) throw pointsLimitExceeded(field);
    throw insufficientPoints(Number(current.points_balance), -entry.points);
  }

  const program = credit ? await activeProgram(trx, ctx.businessId) : undefined;
  const expiryDays = program?.points_expiry_days ?? 0;
  const transaction = await trx
    .insertInto('loyalty_transactions')
    .values({
      business_id: ctx.businessId,
      id: newId('ltx'),
      member_id: memberId,
      type: entry.type,
      points: entry.points,
      balance_after: Number(member.points_balance),
      description: entry.description,
      reference_type: entry.referenceType,
      reference_id: entry.referenceId ?? null,
      multiplier_applied: entry.multiplier ?? 1,
      counts_as_issued: issued,
      remaining: credit ? entry.points : 0,
      expires_at: credit && expiryDays > 0 ? new Date(now.getTime() + expiryDays * DAY_MS) : null,
      created_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();

  if (!credit) await consume(trx, ctx.businessId, memberId, -entry.points, entry.expiringCreditId);
  const tierChanged =
    issued && program && entry.evaluateTier !== false
      ? await promote(trx, ctx, memberId, program, member.tier_id, Number(member.lifetime_points))
      : false;
  if (entry.type === 'earn') await emitEarned(trx, ctx, memberId, transaction);
  return { transaction, tierChanged };
}

/**
 * Debits take the oldest points first: each open credit's `remaining` shrinks in date order until
 * the debit is covered. An expiry takes exactly the expiring credit's rest.
 */
async function consume(
  trx: Trx,
  businessId: string,
  memberId: string,
  amount: number,
  creditId?: string,
): Promise<void> {
  if (creditId) {
    await trx
      .updateTable('loyalty_transactions')
      .set({ remaining: 0 })
      .where('business_id', '=', businessId)
      .where('id', '=', creditId)
      .execute();
    return;
  }
  await sql`
    WITH open AS (
      SELECT id, remaining, sum(remaining) OVER (ORDER BY created_at, id) AS running
      FROM loyalty_transactions
      WHERE business_id = ${businessId} AND member_id = ${memberId} AND remaining > 0
    )
    UPDATE loyalty_transactions AS t
    SET remaining = greatest(0, least(open.remaining, open.running - ${amount}))
    FROM open
    WHERE t.business_id = ${businessId} AND t.id = open.id AND open.running - open.remaining < ${amount}
  `.execute(trx);
}

/**
 * Re-evaluates the tier after a credit: the highest tier whose minPoints the lifetime points reach,
 * if it is above the current one (a manually set tier stays until earning qualifies for a higher).
 */
async function promote(
  trx: Trx,
  ctx: Ctx,
  memberId: string,
  program: ProgramRow,
  currentTierId: string | null,
  lifetime: number,
): Promise<boolean> {
  const tiers = await tiersOf(trx, ctx.businessId, program.id);
  const qualified = [...tiers].reverse().find((t) => Number(t.min_points) <= lifetime);
  if (!qualified) return false;
  const current = tiers.find((t) => t.id === currentTierId);
  if (current && Number(current.min_points) >= Number(qualified.min_points)) return false;
  await setTier(trx, ctx, memberId, current ?? null, qualified);
  return true;
}

/** Moves a member to a tier and announces it (loyalty.tier_changed). */
export async function setTier(
  trx: Trx,
  ctx: Ctx,
  memberId: string,
  previous: TierRow | null,
  next: TierRow | null,
): Promise<void> {
  if ((previous?.id ?? null) === (next?.id ?? null)) return;
  membersChanged(ctx.businessId);
  await trx
    .updateTable('loyalty_members')
    .set({ tier_id: next?.id ?? null, updated_at: ctx.clock.now() })
    .where('business_id', '=', ctx.businessId)
    .where('id', '=', memberId)
    .execute();
  const member = await findMemberView(trx, ctx.businessId, memberId);
  if (!member) return;
  await emit(trx, ctx, 'loyalty.tier_changed', {
    member: toMember(member),
    previousTier: toTierBrief(previous),
    newTier: toTierBrief(next),
  });
}

async function emitEarned(
  trx: Trx,
  ctx: Ctx,
  memberId: string,
  transaction: LoyaltyTransactionRow,
): Promise<void> {
  const member = await findMemberView(trx, ctx.businessId, memberId);
  if (member)
    await emit(trx, ctx, 'loyalty.points_earned', {
      transaction: toTransaction(transaction),
      member: toMember(member),
    });
}

/** The member's tier multiplier (1 without a tier). */
export async function multiplierOf(trx: Trx, businessId: string, memberId: string): Promise<number> {
  const row = await trx
    .selectFrom('loyalty_members as m')
    .leftJoin('loyalty_tiers as t', (j) =>
      j.onRef('t.business_id', '=', 'm.business_id').onRef('t.id', '=', 'm.tier_id'),
    )
    .select('t.multiplier')
    .where('m.business_id', '=', businessId)
    .where('m.id', '=', memberId)
    .executeTakeFirst();
  return row?.multiplier ? Number(row.multiplier) : 1;
}

/**
 * A finite non-negative number as an exact decimal: digits and how many of them are decimals, read
 * from its shortest decimal form (what the client sent), so 9.99999 is 999999 / 10^5, not the binary
 * approximation.
 */
function exactDecimal(value: number): { digits: bigint; scale: number } {
  const [mantissa, exponentText] = String(value).toLowerCase().split('e');
  const [whole, fraction = ''] = mantissa.split('.');
  const exponent = Number(exponentText ?? 0);
  const digits = BigInt(`${whole}${fraction}`);
  const scale = fraction.length - exponent;
  return scale >= 0 ? { digits, scale } : { digits: digits * 10n ** BigInt(-scale), scale: 0 };
}

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
