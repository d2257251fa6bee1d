import { newId } from '../../platform/ids.js';
import { type TxCtx } from '../../platform/context.js';
import type { Trx } from '../../platform/db/database.js';
import type { LoyaltyTransactionRow, ProgramRow, TierRow } from '../../platform/db/types.js';
import { ApiError, notFound } from '../../platform/errors.js';
import { emit } from '../../platform/outbox.js';
import {
  creditExpiry,
  isPointsLimitViolation,
  MAX_POINTS,
  pointsEarnedData,
  pointsLimitExceeded,
  promotion,
  tierChangedData,
} from './earning.js';
import * as queries from './queries.js';
import { membersChanged } from '../members/counts.js';
import * as members from '../members/queries.js';
import { activeProgram } from '../program/queries.js';
import { findMemberView } from '../members/queries.js';
import { tiersOf } from '../tiers/queries.js';

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
 * A credit's expiry, the tier it promotes to and the events are computed as the public earn
 * computes them (earning.ts).
 */
export async function post(ctx: TxCtx, memberId: string, entry: LedgerEntry): Promise<Posted> {
  const field = entry.field ?? 'points';
  if (!Number.isSafeInteger(entry.points)) throw pointsLimitExceeded(field);
  const credit = entry.points > 0;
  const issued = credit && (entry.countsAsIssued ?? true);
  const lifetimeCredit = issued ? entry.points : 0;
  const now = ctx.clock.now();
  let member;
  try {
    member = await queries.applyToBalance(ctx.db, ctx.businessId, memberId, {
      points: entry.points,
      lifetimeCredit,
      maxPoints: MAX_POINTS,
      now,
    });
  } catch (err) {
    if (isPointsLimitViolation(err)) throw pointsLimitExceeded(field);
    throw err;
  }
  if (!member) {
    const current = await queries.findBalance(ctx.db, ctx.businessId, memberId);
    if (!current) throw notFound('Member');
    if (credit) throw pointsLimitExceeded(field);
    throw insufficientPoints(Number(current.points_balance), -entry.points);
  }

  const program = credit ? await activeProgram(ctx.db, ctx.businessId) : undefined;
  const transaction = await queries.insertTransaction(ctx.db, {
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
    expires_at: credit ? creditExpiry(now, program?.points_expiry_days ?? 0) : null,
    created_at: now,
  });

  if (!credit) await consume(ctx.db, ctx.businessId, memberId, -entry.points, entry.expiringCreditId);
  const tierChanged =
    issued && program && entry.evaluateTier !== false
      ? await promote(ctx, memberId, program, member.tier_id, Number(member.lifetime_points))
      : false;
  if (entry.type === 'earn') await emitEarned(ctx, memberId, transaction);
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
  if (creditId) await queries.closeCredit(trx, businessId, creditId);
  else await queries.consumeOldest(trx, businessId, memberId, amount);
}

/** Re-evaluates the tier after a credit (earning.ts `promotion`); true when it changed. */
async function promote(
  ctx: TxCtx,
  memberId: string,
  program: ProgramRow,
  currentTierId: string | null,
  lifetime: number,
): Promise<boolean> {
  const tiers = await tiersOf(ctx.db, ctx.businessId, program.id);
  const current = tiers.find((t) => t.id === currentTierId) ?? null;
  const next = promotion(tiers, current, lifetime);
  if (!next) return false;
  await setTier(ctx, memberId, current, next);
  return true;
}

/** Moves a member to a tier and announces it (loyalty.tier_changed). */
export async function setTier(
  ctx: TxCtx,
  memberId: string,
  previous: TierRow | null,
  next: TierRow | null,
): Promise<void> {
  if ((previous?.id ?? null) === (next?.id ?? null)) return;
  membersChanged(ctx);
  await members.setMemberTier(ctx.db, ctx.businessId, memberId, next?.id ?? null, ctx.clock.now());
  const member = await findMemberView(ctx.db, ctx.businessId, memberId);
  if (!member) return;
  await emit(ctx, 'loyalty.tier_changed', tierChangedData(member, previous, next));
}

async function emitEarned(ctx: TxCtx, memberId: string, transaction: LoyaltyTransactionRow): Promise<void> {
  const member = await findMemberView(ctx.db, ctx.businessId, memberId);
  if (member) await emit(ctx, 'loyalty.points_earned', pointsEarnedData(transaction, member));
}
