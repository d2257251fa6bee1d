import type { EarnPointsBody, EarnPointsResult } from '../../../contract/public-loyalty/index.js';
import type { AuditActor } from '../../platform/audit.js';
import type { AccessConfirmation } from '../../platform/deps.js';
import { inTransaction, type Ctx } from '../../platform/context.js';
import type { Executor } from '../../platform/db/database.js';
import { refuseDuplicates } from '../../platform/db/errors.js';
import type { LoyaltyTransactionRow } from '../../platform/db/types.js';
import { conflict, invalidState, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { announce } from '../../platform/relay.js';
import { customerForEmail } from '../../general/index.js';
import { membersChanged } from '../members/counts.js';
import type { MemberViewRow } from '../members/queries.js';
import { enrollInTransaction } from '../members/service.js';
import { findActiveProgram } from '../program/service.js';
import {
  creditExpiry,
  earning,
  isPointsLimitViolation,
  MAX_POINTS,
  pointsEarnedData,
  pointsLimitExceeded,
  promotion,
  tierChangedData,
} from './earning.js';
import * as queries from './queries.js';
import type { EarnState } from './queries.js';

/** Optimistic earn attempts before falling back to locking the member row. */
const OPTIMISTIC_ATTEMPTS = 3;

const noProgram = () => notFound('Loyalty program');
const noMember = () => notFound('Member');
const referenceTaken = () => conflict('The reference has already been used for an earn');

/**
 * The earn's state; `confirm`, when given, is first passed the access generation read with it (a
 * cached key the earn confirms itself, docs/decisions.md D234).
 */
async function earnState(
  db: Executor,
  businessId: string,
  email: string,
  confirm?: AccessConfirmation,
): Promise<EarnState> {
  const { accessGeneration, state } = await queries.earnState(db, businessId, email);
  await confirm?.(accessGeneration);
  if (!state) throw noProgram();
  return state;
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
    .split('+', 1)[0]!
    .split(/[._]+/)
    .filter(Boolean)
    .map((word) => word.split('-').map(capitalised).join('-'));
  return (words.join(' ') || local).slice(0, NAME_FROM_EMAIL_MAX).trim();
}

/**
 * Enrolls the customer of the email, created first (named from the email) when there is none, in
 * one transaction. A concurrent earn for the same new email may create the customer or the member
 * first; both steps then yield to it, and the caller reads the state again.
 */
async function enrollByEmail(ctx: Ctx, email: string): Promise<void> {
  await inTransaction(ctx, async (ctx) => {
    const customer = await customerForEmail(ctx, { email, name: nameFromEmail(email) });
    const program = await findActiveProgram(ctx);
    if (!program) throw noProgram();
    await enrollInTransaction(ctx, program, customer.id);
  });
}

/**
 * Public earn. The usual path is two statements and no explicit transaction: one read of the
 * program, tiers and member, then one statement that updates the member only if it is exactly as
 * read (balance, lifetime, tier, status) and, from that update, inserts the ledger row and the
 * events. A concurrent change makes the update match nothing, and the earn is computed again; after
 * a few such losses (a member hammered from many tills) it takes the member's row lock instead.
 * The events are handed to the dispatcher after the commit (server/platform/relay.ts). The ledger row
 * is the earn's audit record: it carries the key (or user) and the request id (docs/decisions.md D233).
 */
export async function earnByEmail(
  ctx: Ctx,
  input: EarnPointsBody,
  actor: AuditActor,
  confirmAccess?: AccessConfirmation,
): Promise<EarnPointsResult> {
  const email = input.email.toLowerCase();
  for (let attempt = 0; ; attempt++) {
    const locking = attempt >= OPTIMISTIC_ATTEMPTS;
    // The credential is confirmed by the first read, before anything is written.
    const confirm = attempt === 0 ? confirmAccess : undefined;
    const outcome = locking
      ? await inTransaction(ctx, async (ctx) => {
          await queries.lockMemberOfEmail(ctx.db, ctx.businessId, email);
          return tryEarn(ctx, input, actor, await earnState(ctx.db, ctx.businessId, email));
        })
      : await tryEarn(ctx, input, actor, await earnState(ctx.db, ctx.businessId, email, confirm));
    if (outcome === 'changed') continue;
    if (outcome === 'enroll') {
      await enrollByEmail(ctx, email);
      continue;
    }
    if (outcome.eventIds.length > 0) announce(ctx);
    return outcome.result;
  }
}

/** Earned; or the member changed meanwhile; or the customer must be enrolled first (automatic). */
type EarnOutcome = { result: EarnPointsResult; eventIds: string[] } | 'changed' | 'enroll';

async function tryEarn(
  ctx: Ctx,
  input: EarnPointsBody,
  actor: AuditActor,
  state: EarnState,
): Promise<EarnOutcome> {
  if (!state.member_id) {
    if (state.enrollment_type !== 'automatic') throw noMember();
    return 'enroll';
  }
  if (state.status !== 'active')
    throw invalidState(`The member is ${state.status}; only active members earn`);
  const tiers = state.tiers;
  const tier = tiers.find((t) => t.id === state.tier_id) ?? null;
  const { points, multiplier } = earning(input.amount, state.points_per_currency, tier);
  const balance = Number(state.points_balance);
  const lifetime = Number(state.lifetime_points);
  if (points <= 0) {
    // Nothing to write, but a used reference is still a repeat.
    if (input.reference && (await queries.referenceUsed(ctx.db, ctx.businessId, input.reference)))
      throw referenceTaken();
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
    expires_at: creditExpiry(now, state.points_expiry_days),
    created_at: now,
    // The earn's own audit record (docs/decisions.md D233).
    actor_kind: actor.kind,
    actor_id: actor.id,
    request_id: ctx.requestId,
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
  // The payloads the ledger's post emits for the same credit (earning.ts), in the same order.
  const events: { id: string; type: string; data: unknown }[] = [];
  if (newTier !== tier) {
    events.push({
      id: newId('evt'),
      type: 'loyalty.tier_changed',
      data: tierChangedData(memberAfter, tier, newTier),
    });
  }
  events.push({
    id: newId('evt'),
    type: 'loyalty.points_earned',
    data: pointsEarnedData(transaction, memberAfter),
  });

  let written;
  try {
    written = await refuseDuplicates(
      () =>
        queries.writeEarn(ctx.db, {
          transaction,
          expected: {
            pointsBalance: state.points_balance,
            lifetimePoints: state.lifetime_points,
            tierId: state.tier_id,
          },
          tierId: memberAfter.tier_id,
          events,
        }),
      { loyalty_transactions_reference_key: referenceTaken },
    );
  } catch (err) {
    if (isPointsLimitViolation(err)) throw pointsLimitExceeded('amount');
    throw err;
  }
  if (!written) return 'changed';
  if (newTier !== tier) membersChanged(ctx);
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
