import type {
  AdjustBody,
  BulkEnrollBody,
  EnrollMemberBody,
  ListMembersQuery,
  ListTransactionsQuery,
  Member,
  MemberDetail,
  Transaction,
  UpdateMemberBody,
} from '../../contract/loyalty/schemas.js';
import { newId } from '../platform/ids.js';
import { likePattern } from '../platform/pagination.js';
import type { Ctx } from '../platform/context.js';
import type { HookCtx, InvoiceFacts } from '../platform/hooks.js';
import { toMajor } from '../platform/money.js';
import { inTransaction, type Executor, type Trx } from '../platform/db/database.js';
import { sql } from 'kysely';
import type { ProgramRow } from '../platform/db/types.js';
import { conflict, invalid, notFound } from '../platform/errors.js';
import { multiplierOf, pointsFor, post, setTier } from './ledger.js';
import { toMember, toMemberDetail, toTransaction } from './mappers.js';
import { requireProgram } from './program.js';
import { membersChanged, countMembers } from './member-counts.js';
import { activeProgram, findMemberView, memberView, tiersOf } from './queries.js';

const alreadyMember = () => conflict('The customer is already a member');

async function memberOrFail(db: Executor, ctx: Ctx, id: string) {
  const row = await findMemberView(db, ctx.businessId, id);
  if (!row) throw notFound('Member');
  return row;
}

/**
 * The two queries of a member list: its page (the page's ids first, then their customers and tiers:
 * a much cheaper plan than joining before paging) and its count (every filter is on the member row,
 * so it needs no join). Exported for the benchmark, which explains them.
 */
export function memberListQueries(db: Executor, businessId: string, query: ListMembersQuery) {
  const conditions = [sql<boolean>`m.business_id = ${businessId}`, sql<boolean>`m.deleted_at IS NULL`];
  if (query.status) conditions.push(sql<boolean>`m.status = ${query.status}`);
  if (query.tier) conditions.push(sql<boolean>`m.tier_id = ${query.tier}`);
  // search_text is the customer's lower(name) || ' ' || lower(email), trigram-indexed.
  if (query.search)
    conditions.push(sql<boolean>`m.search_text LIKE ${likePattern(query.search.toLowerCase())}`);
  const where = sql<boolean>`${sql.join(conditions, sql` AND `)}`;
  const pageIds = db
    .selectFrom('loyalty_members as m')
    .select('m.id')
    .where(where)
    .orderBy('m.enrolled_at', 'desc')
    .orderBy('m.id', 'desc')
    .limit(query.limit)
    .offset(query.offset);
  return {
    page: memberView(db, businessId)
      .where('m.id', 'in', pageIds)
      .orderBy('m.enrolled_at', 'desc')
      .orderBy('m.id', 'desc'),
    count: db
      .selectFrom('loyalty_members as m')
      .where(where)
      .select((eb) => eb.fn.countAll<number>().as('n')),
  };
}

export async function listMembers(
  ctx: Ctx,
  query: ListMembersQuery,
): Promise<{ data: Member[]; totalCount: number }> {
  const { page, count } = memberListQueries(ctx.db, ctx.businessId, query);
  const filter = JSON.stringify([
    query.status ?? null,
    query.tier ?? null,
    query.search?.toLowerCase() ?? null,
  ]);
  const [rows, total] = await Promise.all([
    page.execute(),
    countMembers(ctx.businessId, filter, async () => Number((await count.executeTakeFirstOrThrow()).n)),
  ]);
  return { data: rows.map(toMember), totalCount: total };
}

export async function getMember(ctx: Ctx, id: string): Promise<MemberDetail> {
  return toMemberDetail(await memberOrFail(ctx.db, ctx, id));
}

/** The tier a new member starts in: the requested one, else the lowest of the program. */
async function startingTier(trx: Trx, ctx: Ctx, program: ProgramRow, tierId: string | undefined) {
  const tiers = await tiersOf(trx, ctx.businessId, program.id);
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
  trx: Trx,
  ctx: Ctx,
  program: ProgramRow,
  customerId: string,
  options: { tierId?: string; initialPoints?: number } = {},
): Promise<string | null> {
  const tier = await startingTier(trx, ctx, program, options.tierId);
  const id = newId('mem');
  const now = ctx.clock.now();
  const inserted = await trx
    .insertInto('loyalty_members')
    .values({
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
    })
    .onConflict((oc) =>
      oc.columns(['business_id', 'customer_id']).where('deleted_at', 'is', null).doNothing(),
    )
    .returning('id')
    .executeTakeFirst();
  if (!inserted) return null;
  membersChanged(ctx.businessId);
  if (tier) await setTier(trx, ctx, id, null, tier);
  if (options.initialPoints) {
    await post(trx, ctx, id, {
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

const customerExists = async (db: Executor, businessId: string, id: string) =>
  Boolean(
    await db
      .selectFrom('customers')
      .select('id')
      .where('business_id', '=', businessId)
      .where('id', '=', id)
      .executeTakeFirst(),
  );

export async function enrollMember(ctx: Ctx, input: EnrollMemberBody): Promise<Member> {
  const program = await requireProgram(ctx);
  return afterwardsForgetCounts(
    ctx,
    inTransaction(ctx.db, async (trx) => {
      if (!(await customerExists(trx, ctx.businessId, input.customerId)))
        throw invalid('customerId', 'Unknown customer');
      const id = await enrollInTransaction(trx, ctx, program, input.customerId, input);
      if (!id) throw alreadyMember();
      return toMember(await memberOrFail(trx, ctx, id));
    }),
  );
}

/** Once a change to who is a member (or their status or tier) has committed or failed. */
async function afterwardsForgetCounts<T>(ctx: Ctx, change: Promise<T>): Promise<T> {
  try {
    return await change;
  } finally {
    membersChanged(ctx.businessId);
  }
}

export async function bulkEnroll(
  ctx: Ctx,
  input: BulkEnrollBody,
): Promise<{ enrolled: number; skipped: number; errors: { customerId: string; message: string }[] }> {
  const program = await requireProgram(ctx);
  const ids = [...new Set(input.customerIds)];
  return afterwardsForgetCounts(
    ctx,
    inTransaction(ctx.db, async (trx) => {
      if (input.tierId !== undefined) await startingTier(trx, ctx, program, input.tierId);
      const known = new Set(
        (
          await trx
            .selectFrom('customers')
            .select('id')
            .where('business_id', '=', ctx.businessId)
            .where('id', 'in', ids)
            .execute()
        ).map((r) => r.id),
      );
      const members = new Set(
        (
          await trx
            .selectFrom('loyalty_members')
            .select('customer_id')
            .where('business_id', '=', ctx.businessId)
            .where('customer_id', 'in', ids)
            .where('deleted_at', 'is', null)
            .execute()
        ).map((r) => r.customer_id),
      );
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
        if (!members.has(customerId) && (await enrollInTransaction(trx, ctx, program, customerId, input)))
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
  await inTransaction(ctx.db, async (trx) => {
    const member = await memberOrFail(trx, ctx, id);
    if (input.tierId !== undefined) {
      const program = await requireProgram({ ...ctx, db: trx });
      const tiers = await tiersOf(trx, ctx.businessId, program.id);
      const next = tiers.find((t) => t.id === input.tierId);
      if (!next) throw invalid('tierId', 'Unknown tier');
      await setTier(trx, ctx, id, tiers.find((t) => t.id === member.tier_id) ?? null, next);
    }
    if (input.status !== undefined) {
      await trx
        .updateTable('loyalty_members')
        .set({ status: input.status, updated_at: ctx.clock.now() })
        .where('business_id', '=', ctx.businessId)
        .where('id', '=', id)
        .execute();
    }
  });
}

/** The member disappears from the API; its transactions and redemptions stay. */
export async function deleteMember(ctx: Ctx, id: string): Promise<void> {
  const res = await ctx.db
    .updateTable('loyalty_members')
    .set({ deleted_at: ctx.clock.now(), updated_at: ctx.clock.now() })
    .where('business_id', '=', ctx.businessId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  membersChanged(ctx.businessId);
  if (Number(res.numUpdatedRows) === 0) throw notFound('Member');
}

export async function listTransactions(
  ctx: Ctx,
  query: ListTransactionsQuery,
  memberId?: string,
): Promise<{ data: Transaction[]; totalCount: number }> {
  if (memberId !== undefined) await memberOrFail(ctx.db, ctx, memberId);
  let base = ctx.db.selectFrom('loyalty_transactions').where('business_id', '=', ctx.businessId);
  if (memberId !== undefined) base = base.where('member_id', '=', memberId);
  if (query.type) base = base.where('type', '=', query.type);
  const [rows, count] = await Promise.all([
    base
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(query.limit)
      .offset(query.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { data: rows.map(toTransaction), totalCount: Number(count.n) };
}

export async function adjustPoints(ctx: Ctx, input: AdjustBody): Promise<Transaction> {
  return inTransaction(ctx.db, async (trx) => {
    if (!(await findMemberView(trx, ctx.businessId, input.memberId)))
      throw invalid('memberId', 'Unknown member');
    const { transaction } = await post(trx, ctx, input.memberId, {
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
  const trx = ctx.db;
  const program = await activeProgram(trx, ctx.businessId);
  if (!program || program.currency !== invoice.currency) return;
  // Locks the member first, so its status and tier multiplier are read after any concurrent change
  // to them has committed (concurrent earnings then apply the tier an earlier one reached).
  const findMember = () =>
    trx
      .selectFrom('loyalty_members')
      .select(['id', 'status'])
      .where('business_id', '=', ctx.businessId)
      .where('customer_id', '=', invoice.customerId)
      .where('deleted_at', 'is', null)
      .forUpdate()
      .executeTakeFirst();
  let member = await findMember();
  if (!member) {
    if (program.enrollment_type !== 'automatic') return;
    const id = await enrollInTransaction(trx, ctx, program, invoice.customerId);
    // null: a concurrent transaction enrolled the customer and has committed; use that member.
    member = id ? { id, status: 'active' } : await findMember();
    if (!member) return;
  }
  if (member.status !== 'active') return;
  const multiplier = await multiplierOf(trx, ctx.businessId, member.id);
  const points = pointsFor(
    toMajor(invoice.totalMinor, invoice.currency),
    program.points_per_currency,
    multiplier,
  );
  if (points <= 0) return;
  await post(trx, ctx, member.id, {
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
