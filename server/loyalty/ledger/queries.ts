import { sql, type Insertable } from 'kysely';
import type { ListTransactionsQuery } from '../../../contract/loyalty/index.js';
import type { Executor } from '../../platform/db/database.js';
import type { LoyaltyTransactionsTable } from '../../platform/db/types.js';

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
  return { rows, total: Number(count.n) };
}
