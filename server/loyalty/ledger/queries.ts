import { sql, type Insertable } from 'kysely';
import type { ListTransactionsQuery } from '../../../contract/loyalty/index.js';
import type { Executor } from '../../platform/db/database.js';
import { pageWithTotal } from '../../platform/db/paged.js';
import { runPrepared } from '../../platform/db/prepared.js';
import { outboxInsert } from '../../platform/outbox.queries.js';
import type { LoyaltyTransactionRow, LoyaltyTransactionsTable } from '../../platform/db/types.js';

/**
 * Adds `points` to the member's balance and `lifetimeCredit` to its lifetime total, only while the
 * balance stays within 0..maxPoints and the lifetime total within maxPoints (so a refusal matches
 * nothing instead of aborting the caller's transaction). Takes the member's row lock. Undefined
 * when the member is unknown, deleted, or the change does not fit.
 */
export async function applyToBalance(
  db: Executor,
  businessId: string,
  memberId: string,
  change: { points: number; lifetimeCredit: number; maxPoints: number; now: Date },
) {
  return db
    .updateTable('loyalty_members')
    .set((eb) => ({
      points_balance: eb('points_balance', '+', change.points),
      lifetime_points: eb('lifetime_points', '+', change.lifetimeCredit),
      updated_at: change.now,
    }))
    .where('business_id', '=', businessId)
    .where('id', '=', memberId)
    .where('deleted_at', 'is', null)
    .where(sql<boolean>`points_balance + ${change.points} BETWEEN 0 AND ${change.maxPoints}`)
    .where(sql<boolean>`lifetime_points + ${change.lifetimeCredit} <= ${change.maxPoints}`)
    .returning(['points_balance', 'tier_id', 'lifetime_points'])
    .executeTakeFirst();
}

/** The balance of a member that is not deleted. */
export async function findBalance(db: Executor, businessId: string, memberId: string) {
  return db
    .selectFrom('loyalty_members')
    .select('points_balance')
    .where('business_id', '=', businessId)
    .where('id', '=', memberId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export async function insertTransaction(db: Executor, values: Insertable<LoyaltyTransactionsTable>) {
  return db.insertInto('loyalty_transactions').values(values).returningAll().executeTakeFirstOrThrow();
}

/** An expiring credit has nothing left to take. */
export async function closeCredit(db: Executor, businessId: string, creditId: string): Promise<void> {
  await db
    .updateTable('loyalty_transactions')
    .set({ remaining: 0 })
    .where('business_id', '=', businessId)
    .where('id', '=', creditId)
    .execute();
}

/**
 * Takes `amount` from the member's open credits, oldest first: each credit's `remaining` shrinks in
 * date order until the amount is covered.
 */
export async function consumeOldest(
  db: Executor,
  businessId: string,
  memberId: string,
  amount: number,
): Promise<void> {
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
  `.execute(db);
}

/** The ledger, newest first, of the business or of one member, optionally of one type; and its size. */
export async function listTransactions(
  db: Executor,
  businessId: string,
  query: ListTransactionsQuery,
  memberId?: string,
) {
  let base = db.selectFrom('loyalty_transactions').where('business_id', '=', businessId);
  if (memberId !== undefined) base = base.where('member_id', '=', memberId);
  if (query.type) base = base.where('type', '=', query.type);
  return pageWithTotal(base.selectAll(), (q) => q.orderBy('created_at', 'desc').orderBy('id', 'desc'), query);
}

// The public earn (earn-by-email.ts).

/** Whether an earn already used this public reference. */
export async function referenceUsed(db: Executor, businessId: string, reference: string): Promise<boolean> {
  const row = await db
    .selectFrom('loyalty_transactions')
    .select('id')
    .where('business_id', '=', businessId)
    .where('type', '=', 'earn')
    .where('reference_type', '=', 'public')
    .where('reference_id', '=', reference)
    .executeTakeFirst();
  return Boolean(row);
}

/** Locks the member (not deleted) of a customer's email, lowercased, if there is one. */
export async function lockMemberOfEmail(db: Executor, businessId: string, email: string): Promise<void> {
  await db
    .selectFrom('loyalty_members as m')
    .innerJoin('customer_directory as c', (j) =>
      j.onRef('c.business_id', '=', 'm.business_id').onRef('c.id', '=', 'm.customer_id'),
    )
    .select('m.id')
    .where('m.business_id', '=', businessId)
    .where('m.deleted_at', 'is', null)
    .where(sql<boolean>`lower(c.email) = ${email}`)
    .forUpdate('m')
    .execute();
}

export interface EarnTier {
  id: string;
  name: string;
  color: string;
  min_points: number;
  multiplier: number;
}

/** The active program with its tiers, and the member (with its customer) for the email, if any. */
export interface EarnState {
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
  /** Lowest first. */
  tiers: EarnTier[];
}

// The earn's two statements are plain SQL run as prepared statements (server/platform/db/prepared.ts): at
// point-of-sale rates, parsing and planning them anew each time cost more than running them.
const EARN_STATE_SQL = `
  SELECT b.access_generation,
         p.id AS program_id, p.points_per_currency, p.points_expiry_days, p.enrollment_type,
         c.id AS customer_id, c.name AS customer_name, c.email AS customer_email, c.phone AS customer_phone,
         m.id AS member_id, m.tier_id, m.status, m.points_balance, m.lifetime_points, m.enrolled_at,
         (SELECT coalesce(json_agg(json_build_object('id', t.id, 'name', t.name, 'color', t.color,
                   'min_points', t.min_points, 'multiplier', t.multiplier) ORDER BY t.min_points, t.id), '[]')
            FROM loyalty_tiers t
           WHERE t.business_id = p.business_id AND t.program_id = p.id) AS tiers
    FROM business_access_generations b
    LEFT JOIN loyalty_programs p ON p.business_id = b.business_id AND p.is_active
    LEFT JOIN customer_directory c ON c.business_id = p.business_id AND lower(c.email) = $2
    LEFT JOIN loyalty_members m
      ON m.business_id = c.business_id AND m.customer_id = c.id AND m.deleted_at IS NULL
   WHERE b.business_id = $1`;

/**
 * The first of the earn's two statements: the business's access generation (a credential answered
 * from the cache is confirmed with it, docs/decisions.md D234), and the state, undefined without an
 * active program. `email` lowercased.
 */
export async function earnState(
  db: Executor,
  businessId: string,
  email: string,
): Promise<{ accessGeneration: string | undefined; state: EarnState | undefined }> {
  const [row] = await runPrepared<
    EarnState & { access_generation: number | string; program_id: string | null }
  >(db, 'public-earn-state', EARN_STATE_SQL, [businessId, email]);
  if (!row) return { accessGeneration: undefined, state: undefined };
  const { access_generation, ...state } = row;
  return {
    accessGeneration: String(access_generation),
    state: state.program_id === null ? undefined : state,
  };
}

/**
 * One statement: the member update, guarded by the state the earn was computed from, and the
 * ledger row and events inserted only from its result. The points are added by the database (the
 * ledger row takes the balance it returns), so no total is carried through JavaScript.
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
      reference_type, reference_id, multiplier_applied, counts_as_issued, remaining, expires_at, created_at,
      actor_kind, actor_id, request_id)
    SELECT $1, $9, $2, 'earn', $3, updated.points_balance, $10, 'public', $11, $12, true, $3, $13, $5, $15, $16, $17
      FROM updated
  ), announced AS (
    ${outboxInsert({ businessId: '$1', events: '$14', occurredAt: '$5', onlyWith: 'updated' })}
  )
  SELECT points_balance FROM updated`;

export interface EarnWrite {
  /** The ledger row; its balance_after is not written but taken from the update. */
  transaction: LoyaltyTransactionRow;
  /** The state the earn was computed from: the write applies only while the member is exactly so. */
  expected: { pointsBalance: number | null; lifetimePoints: number | null; tierId: string | null };
  /** The member's tier after the earn. */
  tierId: string | null;
  /** Outbox rows, written undispatched (the relay hands them on). */
  events: readonly { id: string; type: string; data: unknown }[];
}

/**
 * The second of the earn's two statements (the guarded relative update, the ledger row and the
 * events, see EARN_WRITE_SQL). False when the member had changed since it was read.
 */
export async function writeEarn(db: Executor, w: EarnWrite): Promise<boolean> {
  const t = w.transaction;
  const rows = await runPrepared(db, 'public-earn-write', EARN_WRITE_SQL, [
    t.business_id,
    t.member_id,
    t.points,
    w.tierId,
    t.created_at,
    w.expected.pointsBalance,
    w.expected.lifetimePoints,
    w.expected.tierId,
    t.id,
    t.description,
    t.reference_id,
    t.multiplier_applied,
    t.expires_at,
    JSON.stringify(w.events),
    t.actor_kind,
    t.actor_id,
    t.request_id,
  ]);
  return rows.length === 1;
}
