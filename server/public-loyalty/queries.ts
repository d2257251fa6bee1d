import { sql } from 'kysely';
import type { Executor } from '../platform/db/database.js';
import { runPrepared } from '../platform/db/prepared.js';
import type { LoyaltyTransactionRow } from '../platform/db/types.js';

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
    .innerJoin('customers as c', (j) =>
      j.onRef('c.business_id', '=', 'm.business_id').onRef('c.id', '=', 'm.customer_id'),
    )
    .select('m.id')
    .where('m.business_id', '=', businessId)
    .where('m.deleted_at', 'is', null)
    .where(sql<boolean>`lower(c.email) = ${email}`)
    .forUpdate('m')
    .execute();
}

/** Active rewards that are not deleted, cheapest first. */
export async function listActiveRewards(db: Executor, businessId: string) {
  return db
    .selectFrom('loyalty_rewards')
    .select(['id', 'name', 'description', 'points_cost', 'reward_type', 'discount_percent'])
    .where('business_id', '=', businessId)
    .where('is_active', '=', true)
    .where('deleted_at', 'is', null)
    .orderBy('points_cost')
    .orderBy('id')
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

/** The first of the earn's two statements; undefined without an active program. `email` lowercased. */
export async function earnState(db: Executor, businessId: string, email: string) {
  const [row] = await runPrepared<EarnState>(db, 'public-earn-state', EARN_STATE_SQL, [businessId, email]);
  return row;
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
      reference_type, reference_id, multiplier_applied, counts_as_issued, remaining, expires_at, created_at)
    SELECT $1, $9, $2, 'earn', $3, updated.points_balance, $10, 'public', $11, $12, true, $3, $13, $5
      FROM updated
  ), announced AS (
    INSERT INTO events (business_id, id, type, data, occurred_at, dispatched_at)
    SELECT $1, e.id, e.type, e.data, $5, NULL
      FROM jsonb_to_recordset($14::jsonb) AS e (id text, type text, data jsonb), updated
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
  ]);
  return rows.length === 1;
}
