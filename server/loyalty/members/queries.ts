import type { Executor } from '../../platform/db/database.js';

import { sql, type Insertable } from 'kysely';
import type { ListMembersQuery } from '../../../contract/loyalty/index.js';
import { likePattern } from '../../platform/pagination.js';
import type { LoyaltyMembersTable } from '../../platform/db/types.js';

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

/** A page of the member list. */
export const listMembers = (db: Executor, businessId: string, query: ListMembersQuery) =>
  memberListQueries(db, businessId, query).page.execute();

/** How many members the list's filters match. */
export async function countMembers(db: Executor, businessId: string, query: ListMembersQuery) {
  const row = await memberListQueries(db, businessId, query).count.executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The member of a customer's email (case-insensitive), with its customer and tier. */
export const findMemberByEmail = (db: Executor, businessId: string, email: string) =>
  memberView(db, businessId)
    .where(sql<boolean>`lower(c.email) = ${email.toLowerCase()}`)
    .executeTakeFirst();

/**
 * Inserts a member unless the customer already is one (a concurrent enrollment included: the insert
 * waits for it and then does nothing): undefined then.
 */
export async function insertMemberUnlessEnrolled(db: Executor, values: Insertable<LoyaltyMembersTable>) {
  return db
    .insertInto('loyalty_members')
    .values(values)
    .onConflict((oc) =>
      oc.columns(['business_id', 'customer_id']).where('deleted_at', 'is', null).doNothing(),
    )
    .returning('id')
    .executeTakeFirst();
}

/** A member that is not deleted, its row locked: the lock every balance change of it takes first. */
export async function lockMember(db: Executor, businessId: string, id: string) {
  return db
    .selectFrom('loyalty_members')
    .select(['id', 'status'])
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
}

/** The member of a customer, its row locked. */
export async function lockMemberOfCustomer(db: Executor, businessId: string, customerId: string) {
  return db
    .selectFrom('loyalty_members')
    .select(['id', 'status'])
    .where('business_id', '=', businessId)
    .where('customer_id', '=', customerId)
    .where('deleted_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
}

/** Whether a member exists and is not deleted. */
export async function memberExists(db: Executor, businessId: string, id: string): Promise<boolean> {
  const row = await db
    .selectFrom('loyalty_members')
    .select('id')
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Boolean(row);
}

/** The ids of the members (not deleted) of a tier. */
export async function membersOfTier(db: Executor, businessId: string, tierId: string) {
  const rows = await db
    .selectFrom('loyalty_members')
    .select('id')
    .where('business_id', '=', businessId)
    .where('tier_id', '=', tierId)
    .where('deleted_at', 'is', null)
    .execute();
  return rows.map((r) => r.id);
}

/** The member's tier (its multiplier), if it has one. */
export async function tierOfMember(db: Executor, businessId: string, memberId: string) {
  const row = await db
    .selectFrom('loyalty_members as m')
    .leftJoin('loyalty_tiers as t', (j) =>
      j.onRef('t.business_id', '=', 'm.business_id').onRef('t.id', '=', 'm.tier_id'),
    )
    .select('t.multiplier')
    .where('m.business_id', '=', businessId)
    .where('m.id', '=', memberId)
    .executeTakeFirst();
  return row?.multiplier ? { multiplier: row.multiplier } : null;
}

export async function setMemberTier(
  db: Executor,
  businessId: string,
  id: string,
  tierId: string | null,
  now: Date,
): Promise<void> {
  await db
    .updateTable('loyalty_members')
    .set({ tier_id: tierId, updated_at: now })
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .execute();
}

export async function setMemberStatus(
  db: Executor,
  businessId: string,
  id: string,
  status: LoyaltyMembersTable['status'],
  now: Date,
): Promise<void> {
  await db
    .updateTable('loyalty_members')
    .set({ status, updated_at: now })
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .execute();
}

/** Soft delete; false when there was no such member. */
export async function deleteMember(db: Executor, businessId: string, id: string, now: Date) {
  const res = await db
    .updateTable('loyalty_members')
    .set({ deleted_at: now, updated_at: now })
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

export async function customerExists(db: Executor, businessId: string, id: string): Promise<boolean> {
  const row = await db
    .selectFrom('customer_directory')
    .select('id')
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Boolean(row);
}

/** Which of these customers exist. */
export async function existingCustomers(db: Executor, businessId: string, ids: readonly string[]) {
  const rows = await db
    .selectFrom('customer_directory')
    .select('id')
    .where('business_id', '=', businessId)
    .where('id', 'in', ids)
    .execute();
  return new Set(rows.map((r) => r.id));
}

/** Which of these customers are members (not deleted). */
export async function enrolledCustomers(db: Executor, businessId: string, customerIds: readonly string[]) {
  const rows = await db
    .selectFrom('loyalty_members')
    .select('customer_id')
    .where('business_id', '=', businessId)
    .where('customer_id', 'in', customerIds)
    .where('deleted_at', 'is', null)
    .execute();
  return new Set(rows.map((r) => r.customer_id));
}

/** Members joined with their customer and tier, as the API shows them. */
export const memberView = (db: Executor, businessId: string) =>
  db
    .selectFrom('loyalty_members as m')
    .innerJoin('customer_directory as c', (j) =>
      j.onRef('c.business_id', '=', 'm.business_id').onRef('c.id', '=', 'm.customer_id'),
    )
    .leftJoin('loyalty_tiers as t', (j) =>
      j.onRef('t.business_id', '=', 'm.business_id').onRef('t.id', '=', 'm.tier_id'),
    )
    .selectAll('m')
    .select([
      'c.name as customer_name',
      'c.email as customer_email',
      'c.phone as customer_phone',
      't.name as tier_name',
      't.color as tier_color',
    ])
    .where('m.business_id', '=', businessId)
    .where('m.deleted_at', 'is', null);

export const findMemberView = (db: Executor, businessId: string, id: string) =>
  memberView(db, businessId).where('m.id', '=', id).executeTakeFirst();

export type MemberViewRow = NonNullable<Awaited<ReturnType<typeof findMemberView>>>;

/** Whether the customer is, or was, a member (a deleted member's history still names the customer). */
export async function hasMembership(db: Executor, businessId: string, customerId: string): Promise<boolean> {
  const row = await db
    .selectFrom('loyalty_members')
    .select('id')
    .where('business_id', '=', businessId)
    .where('customer_id', '=', customerId)
    .limit(1)
    .executeTakeFirst();
  return Boolean(row);
}
