import type {
  AdjustPointsBody,
  BulkEnrollMembersBody,
  EnrollMemberBody,
  ListMembersQuery,
  ListTransactionsQuery,
  Member,
  MemberDetail,
  Transaction,
  UpdateMemberBody,
} from '../../../contract/loyalty/index.js';
import { newId } from '../../platform/ids.js';
import { type Ctx, type TxCtx, inTransaction } from '../../platform/context.js';
import type { CreditNoteFacts, HookCtx, InvoiceFacts } from '../../platform/hooks.js';
import { toMajor } from '../../platform/money.js';
import type { ProgramRow } from '../../platform/db/types.js';
import { conflict, invalid, notFound } from '../../platform/errors.js';
import { earning } from '../ledger/earning.js';
import { post, setTier } from '../ledger/service.js';
import * as ledger from '../ledger/queries.js';
import { toMember, toMemberDetail } from './mappers.js';
import { toTransaction } from '../ledger/mappers.js';
import { requireProgram } from '../program/service.js';
import { membersChanged, countMembers } from './counts.js';
import * as queries from './queries.js';
import { activeProgram } from '../program/queries.js';
import { findMemberView } from './queries.js';
import { tiersOf } from '../tiers/queries.js';

const alreadyMember = () => conflict('The customer is already a member');

async function memberOrFail(ctx: Ctx, id: string) {
  const row = await findMemberView(ctx.db, ctx.businessId, id);
  if (!row) throw notFound('Member');
  return row;
}

export async function listMembers(
  ctx: Ctx,
  query: ListMembersQuery,
): Promise<{ data: Member[]; totalCount: number }> {
  const filter = JSON.stringify([
    query.status ?? null,
    query.tier ?? null,
    query.search?.toLowerCase() ?? null,
  ]);
  const [rows, total] = await Promise.all([
    queries.listMembers(ctx.db, ctx.businessId, query),
    countMembers(ctx, filter, () => queries.countMembers(ctx.db, ctx.businessId, query)),
  ]);
  return { data: rows.map(toMember), totalCount: total };
}

export async function getMember(ctx: Ctx, id: string): Promise<MemberDetail> {
  return toMemberDetail(await memberOrFail(ctx, id));
}

/** The member of a customer's email (case-insensitive), with its customer and tier, if any. */
/** The member (not deleted) of the customer with this email, if any. */
export async function memberByEmail(ctx: Ctx, email: string): Promise<Member | undefined> {
  const row = await queries.findMemberByEmail(ctx.db, ctx.businessId, email);
  return row && toMember(row);
}

/** The tier a new member starts in: the requested one, else the lowest of the program. */
async function startingTier(ctx: TxCtx, program: ProgramRow, tierId: string | undefined) {
  const tiers = await tiersOf(ctx.db, ctx.businessId, program.id);
  if (tierId === undefined) return tiers[0] ?? null;
  const tier = tiers.find((t) => t.id === tierId);
  if (!tier) throw invalid('tierId', 'Unknown tier');
  return tier;
}

/**
 * Enrolls one customer in the caller's transaction (enroll, bulk enroll, automatic enrollment).
 * Returns null when the customer already is a member, also when a concurrent transaction enrolled
 * them first (the insert waits for it and then does nothing), so callers never meet a unique
 * violation that would abort their transaction.
 */
export async function enrollInTransaction(
  ctx: TxCtx,
  program: ProgramRow,
  customerId: string,
  options: { tierId?: string; initialPoints?: number } = {},
): Promise<string | null> {
  const tier = await startingTier(ctx, program, options.tierId);
  const id = newId('mem');
  const now = ctx.clock.now();
  const inserted = await queries.insertMemberUnlessEnrolled(ctx.db, {
    business_id: ctx.businessId,
    id,
    customer_id: customerId,
    tier_id: null,
    status: 'active',
    points_balance: 0,
    lifetime_points: 0,
    enrolled_at: now,
    updated_at: now,
    deleted_at: null,
  });
  if (!inserted) return null;
  membersChanged(ctx);
  if (tier) await setTier(ctx, id, null, tier);
  if (options.initialPoints) {
    await post(ctx, id, {
      type: 'adjust',
      points: options.initialPoints,
      description: 'Initial points',
      referenceType: 'manual',
      // Enrollment keeps the requested (or lowest) tier whatever the initial points are.
      evaluateTier: false,
      field: 'initialPoints',
    });
  }
  return id;
}

export async function enrollMember(ctx: Ctx, input: EnrollMemberBody): Promise<Member> {
  const program = await requireProgram(ctx);
  return afterwardsForgetCounts(
    ctx,
    inTransaction(ctx, async (ctx) => {
      if (!(await queries.customerExists(ctx.db, ctx.businessId, input.customerId)))
        throw invalid('customerId', 'Unknown customer');
      const id = await enrollInTransaction(ctx, program, input.customerId, input);
      if (!id) throw alreadyMember();
      return toMember(await memberOrFail(ctx, id));
    }),
  );
}

/** Once a change to who is a member (or their status or tier) has committed or failed. */
async function afterwardsForgetCounts<T>(ctx: Ctx, change: Promise<T>): Promise<T> {
  try {
    return await change;
  } finally {
    membersChanged(ctx);
  }
}

export async function bulkEnroll(
  ctx: Ctx,
  input: BulkEnrollMembersBody,
): Promise<{ enrolled: number; skipped: number; errors: { customerId: string; message: string }[] }> {
  const program = await requireProgram(ctx);
  const ids = [...new Set(input.customerIds)];
  return afterwardsForgetCounts(
    ctx,
    inTransaction(ctx, async (ctx) => {
      if (input.tierId !== undefined) await startingTier(ctx, program, input.tierId);
      const known = await queries.existingCustomers(ctx.db, ctx.businessId, ids);
      const members = await queries.enrolledCustomers(ctx.db, ctx.businessId, ids);
      const errors = ids
        .filter((id) => !known.has(id))
        .map((customerId) => ({ customerId, message: 'Unknown customer' }));
      let enrolled = 0;
      let skipped = input.customerIds.length - ids.length;
      // In a stable order, so that concurrent bulk enrollments of the same customers wait for each
      // other instead of deadlocking.
      for (const customerId of [...ids].sort()) {
        if (!known.has(customerId)) continue;
        // A customer enrolled meanwhile by a concurrent request is skipped like an existing member.
        if (!members.has(customerId) && (await enrollInTransaction(ctx, program, customerId, input)))
          enrolled++;
        else skipped++;
      }
      return { enrolled, skipped, errors };
    }),
  );
}

export async function updateMember(ctx: Ctx, id: string, input: UpdateMemberBody): Promise<void> {
  await afterwardsForgetCounts(ctx, updateInTransaction(ctx, id, input));
}

async function updateInTransaction(ctx: Ctx, id: string, input: UpdateMemberBody): Promise<void> {
  await inTransaction(ctx, async (ctx) => {
    const member = await memberOrFail(ctx, id);
    if (input.tierId !== undefined) {
      const program = await requireProgram(ctx);
      const tiers = await tiersOf(ctx.db, ctx.businessId, program.id);
      const next = tiers.find((t) => t.id === input.tierId);
      if (!next) throw invalid('tierId', 'Unknown tier');
      await setTier(ctx, id, tiers.find((t) => t.id === member.tier_id) ?? null, next);
    }
    if (input.status !== undefined)
      await queries.setMemberStatus(ctx.db, ctx.businessId, id, input.status, ctx.clock.now());
  });
}

/** The member disappears from the API; its transactions and redemptions stay. */
export async function deleteMember(ctx: Ctx, id: string): Promise<void> {
  const deleted = await queries.deleteMember(ctx.db, ctx.businessId, id, ctx.clock.now());
  membersChanged(ctx);
  if (!deleted) throw notFound('Member');
}

export async function listTransactions(
  ctx: Ctx,
  query: ListTransactionsQuery,
  memberId?: string,
): Promise<{ data: Transaction[]; totalCount: number }> {
  if (memberId !== undefined) await memberOrFail(ctx, memberId);
  const { rows, total } = await ledger.listTransactions(ctx.db, ctx.businessId, query, memberId);
  return { data: rows.map(toTransaction), totalCount: total };
}

export async function adjustPoints(ctx: Ctx, input: AdjustPointsBody): Promise<Transaction> {
  return inTransaction(ctx, async (ctx) => {
    if (!(await findMemberView(ctx.db, ctx.businessId, input.memberId)))
      throw invalid('memberId', 'Unknown member');
    const { transaction } = await post(ctx, input.memberId, {
      type: 'adjust',
      points: input.points,
      description: input.description,
      referenceType: 'manual',
    });
    return toTransaction(transaction);
  });
}

/**
 * Points for a paid invoice (referenceType invoice, once per invoice): when its customer is an
 * active member, or enrollment is automatic and the customer is enrolled now. Invoices in another
 * currency than the program's earn nothing (no exchange rates).
 */
export async function earnForInvoice(ctx: HookCtx, invoice: InvoiceFacts): Promise<void> {
  const program = await activeProgram(ctx.db, ctx.businessId);
  if (!program || program.currency !== invoice.currency) return;
  // Locks the member first, so its status and tier multiplier are read after any concurrent change
  // to them has committed (concurrent earnings then apply the tier an earlier one reached).
  const findMember = () => queries.lockMemberOfCustomer(ctx.db, ctx.businessId, invoice.customerId);
  let member = await findMember();
  if (!member) {
    if (program.enrollment_type !== 'automatic') return;
    const id = await enrollInTransaction(ctx, program, invoice.customerId);
    // null: a concurrent transaction enrolled the customer and has committed; use that member.
    member = id ? { id, status: 'active' } : await findMember();
    if (!member) return;
  }
  if (member.status !== 'active') return;
  // Points follow money: what credit notes took off the invoice, or customer credit paid, earns none.
  const { points, multiplier } = earning(
    toMajor(invoice.totalMinor - invoice.amountCreditedMinor - invoice.creditAppliedMinor, invoice.currency),
    program.points_per_currency,
    await queries.tierOfMember(ctx.db, ctx.businessId, member.id),
  );
  if (points <= 0) return;
  await post(ctx, member.id, {
    type: 'earn',
    points,
    description: `Invoice ${invoice.number}`,
    referenceType: 'invoice',
    referenceId: invoice.id,
    multiplier,
    // The payment that completed the invoice is refused when its points would not fit.
    field: 'amount',
  });
}

/**
 * A refund takes back the points its amount earned: an `adjust` of minus floor(refund x
 * pointsPerCurrency x the member's tier multiplier), as earning gives them, referenceType invoice.
 * Never more than the member's balance holds: points already redeemed or expired stay so, and a
 * refund is never refused over points.
 */
export async function reversePointsOfRefund(ctx: HookCtx, creditNote: CreditNoteFacts): Promise<void> {
  if (creditNote.refundMinor <= 0) return;
  const program = await activeProgram(ctx.db, ctx.businessId);
  if (!program || program.currency !== creditNote.currency) return;
  const member = await queries.lockMemberOfCustomer(ctx.db, ctx.businessId, creditNote.customerId);
  if (!member) return;
  const { points } = earning(
    toMajor(creditNote.refundMinor, creditNote.currency),
    program.points_per_currency,
    await queries.tierOfMember(ctx.db, ctx.businessId, member.id),
  );
  const balance = Number((await ledger.findBalance(ctx.db, ctx.businessId, member.id))?.points_balance ?? 0);
  const taken = Math.min(points, balance);
  if (taken <= 0) return;
  await post(ctx, member.id, {
    type: 'adjust',
    points: -taken,
    description: `Refund on credit note ${creditNote.number}`,
    referenceType: 'invoice',
    referenceId: creditNote.invoiceId,
  });
}
