import type { Insertable } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import type { InvitationsTable, MembershipsTable } from '../../platform/db/types.js';

type Role = MembershipsTable['role'];

/** The business's members with their emails, the earliest to join first. */
export async function listMembers(db: Executor, businessId: string) {
  return db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.user_id', 'u.email', 'm.role', 'm.created_at'])
    .where('m.business_id', '=', businessId)
    .orderBy('m.created_at')
    .orderBy('m.user_id')
    .limit(1000)
    .execute();
}

/** One member of the business with their email; undefined when the person is not a member. */
export async function findMember(db: Executor, businessId: string, userId: string) {
  return db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.user_id', 'u.email', 'm.role', 'm.created_at'])
    .where('m.business_id', '=', businessId)
    .where('m.user_id', '=', userId)
    .executeTakeFirst();
}

/** Whether someone with this email (any case) is a member of the business. */
export async function isMemberByEmail(db: Executor, businessId: string, email: string): Promise<boolean> {
  const row = await db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select('m.user_id')
    .where('m.business_id', '=', businessId)
    .where((eb) => eb(eb.fn('lower', ['u.email']), '=', email.toLowerCase()))
    .executeTakeFirst();
  return row !== undefined;
}

/** Locks the business's owners' memberships and counts them (a change of owners checks the last one). */
export async function lockOwners(db: Executor, businessId: string): Promise<number> {
  const rows = await db
    .selectFrom('memberships')
    .select('user_id')
    .where('business_id', '=', businessId)
    .where('role', '=', 'owner')
    .forUpdate()
    .execute();
  return rows.length;
}

export async function updateRole(db: Executor, businessId: string, userId: string, role: Role, now: Date) {
  return db
    .updateTable('memberships')
    .set({ role, updated_at: now })
    .where('business_id', '=', businessId)
    .where('user_id', '=', userId)
    .returning(['user_id', 'role', 'created_at'])
    .executeTakeFirst();
}

export async function deleteMembership(db: Executor, businessId: string, userId: string): Promise<void> {
  await db
    .deleteFrom('memberships')
    .where('business_id', '=', businessId)
    .where('user_id', '=', userId)
    .execute();
}

/** The ids of the person's access tokens for these businesses that are not revoked. */
export async function activeTokenIds(db: Executor, businessIds: readonly string[], userId: string) {
  const rows = await db
    .selectFrom('access_tokens')
    .select('id')
    .where('business_id', 'in', businessIds)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .limit(10_000)
    .execute();
  return rows.map((r) => r.id);
}

/**
 * Revokes the person's live access tokens for the business and its sandbox; the ids of those it
 * revoked (for this process's credential cache).
 */
export async function revokeMemberTokens(
  db: Executor,
  businessIds: readonly string[],
  userId: string,
  now: Date,
): Promise<string[]> {
  const rows = await db
    .updateTable('access_tokens')
    .set({ revoked_at: now })
    .where('business_id', 'in', businessIds)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/**
 * Revokes the API keys the person made for the business and its sandbox that are not revoked yet;
 * the ids of those it revoked (for this process's credential cache).
 */
export async function revokeKeysMadeBy(
  db: Executor,
  businessIds: readonly string[],
  userId: string,
  now: Date,
): Promise<string[]> {
  const rows = await db
    .updateTable('api_keys')
    .set({ revoked_at: now })
    .where('business_id', 'in', businessIds)
    .where('created_by', '=', userId)
    .where('revoked_at', 'is', null)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/**
 * How many API keys not revoked each person made for the business and its sandbox (the keys a
 * removal would revoke), by user id; people who made none are absent.
 */
export async function countKeysByMaker(
  db: Executor,
  businessIds: readonly string[],
  userIds: readonly string[],
) {
  if (userIds.length === 0) return new Map<string, number>();
  const rows = await db
    .selectFrom('api_keys')
    .select((eb) => ['created_by', eb.fn.countAll<string | number>().as('keys')])
    .where('business_id', 'in', businessIds)
    .where('created_by', 'in', userIds)
    .where('revoked_at', 'is', null)
    .groupBy('created_by')
    .execute();
  return new Map(rows.map((r) => [r.created_by ?? '', Number(r.keys)]));
}

/** The business's invitations neither accepted nor expired at `now`, newest first. */
export async function listPendingInvitations(db: Executor, businessId: string, now: Date) {
  return db
    .selectFrom('invitations')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('accepted_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1000)
    .execute();
}

/** Drops the business's pending invitations of this email (a new one replaces them). */
export async function deletePendingInvitations(db: Executor, businessId: string, email: string) {
  await db
    .deleteFrom('invitations')
    .where('business_id', '=', businessId)
    .where('email', '=', email.toLowerCase())
    .where('accepted_at', 'is', null)
    .execute();
}

export async function insertInvitation(db: Executor, values: Insertable<InvitationsTable>) {
  return db.insertInto('invitations').values(values).returningAll().executeTakeFirstOrThrow();
}

/** The invitation a token names, unlocked: what the acceptance screen shows before it is accepted. */
export async function findInvitationByHash(db: Executor, tokenHash: string) {
  return db
    .selectFrom('invitations as i')
    .leftJoin('users as u', 'u.id', 'i.invited_by')
    .select(['i.id', 'i.business_id', 'i.email', 'i.role', 'i.expires_at', 'i.accepted_at'])
    .select('u.email as invited_by_email')
    .where('i.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** The invitation of this token hash, locked until the transaction ends. */
export async function lockInvitationByHash(db: Executor, tokenHash: string) {
  return db
    .selectFrom('invitations')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .forUpdate()
    .executeTakeFirst();
}

/** The invitation with this id, locked until the transaction ends (any business: the caller checks). */
export async function lockInvitation(db: Executor, id: string) {
  return db.selectFrom('invitations').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

/** The business's invitation with this id, locked until the transaction ends. */
export async function lockBusinessInvitation(db: Executor, businessId: string, id: string) {
  return db
    .selectFrom('invitations')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

/** A new expiry and sending time, and a new token when one is given (a row without a sealed token). */
export async function updateInvitation(
  db: Executor,
  businessId: string,
  id: string,
  changes: { expires_at?: Date; sent_at?: Date; token_hash?: string; token_sealed?: string },
) {
  return db
    .updateTable('invitations')
    .set(changes)
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteInvitation(db: Executor, businessId: string, id: string): Promise<void> {
  await db.deleteFrom('invitations').where('business_id', '=', businessId).where('id', '=', id).execute();
}

/** The email of a user (who invited, named in the mail); undefined when gone. */
export async function findUserEmail(db: Executor, userId: string) {
  const row = await db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst();
  return row?.email;
}

export async function markAccepted(db: Executor, id: string, now: Date): Promise<void> {
  await db.updateTable('invitations').set({ accepted_at: now }).where('id', '=', id).execute();
}
