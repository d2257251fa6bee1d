import type { Insertable } from 'kysely';
import type { Executor } from '../platform/db/database.js';
import type { AccessTokensTable, ApiKeysTable, MembershipsTable, UsersTable } from '../platform/db/types.js';

export async function findUserByEmail(db: Executor, email: string) {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'business_id', 'password_hash', 'totp_enabled_at'])
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .executeTakeFirst();
}

export async function findUserEmail(db: Executor, userId: string) {
  return (await db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst())?.email;
}

/** The businesses the person is a member of, the earliest joined first. */
export async function listMembershipsOf(db: Executor, userId: string) {
  return db
    .selectFrom('memberships')
    .select(['business_id', 'role'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('business_id')
    .limit(1000)
    .execute();
}

/** The token of a presented secret, with whether its person has two-factor sign-in on. */
export async function findTokenByHash(db: Executor, tokenHash: string) {
  return db
    .selectFrom('access_tokens')
    .innerJoin('users', 'users.id', 'access_tokens.user_id')
    .select([
      'access_tokens.id',
      'access_tokens.business_id',
      'access_tokens.user_id',
      'access_tokens.expires_at',
      'access_tokens.revoked_at',
      'access_tokens.last_used_at',
      'users.totp_enabled_at',
    ])
    .where('access_tokens.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export async function touchToken(db: Executor, id: string, now: Date): Promise<void> {
  await db.updateTable('access_tokens').set({ last_used_at: now }).where('id', '=', id).execute();
}

/** The person's tokens that are neither revoked nor expired, newest first. */
export async function listLiveTokensOf(db: Executor, userId: string, now: Date) {
  return db
    .selectFrom('access_tokens')
    .select(['id', 'business_id', 'created_at', 'last_used_at', 'expires_at', 'user_agent', 'ip'])
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1000)
    .execute();
}

/** Revokes one of the person's live tokens; whether one was revoked. */
export async function revokeTokenOf(db: Executor, userId: string, id: string, now: Date): Promise<boolean> {
  const res = await db
    .updateTable('access_tokens')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/**
 * Revokes every live token of the person, in every business and environment, but `keepId` (none
 * kept when null); the ids revoked.
 */
export async function revokeTokensOfExcept(db: Executor, userId: string, keepId: string | null, now: Date) {
  let query = db.updateTable('access_tokens').set({ revoked_at: now }).where('user_id', '=', userId);
  if (keepId !== null) query = query.where('id', '!=', keepId);
  const rows = await query
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** The person's email and password hash (their account). */
export async function findUserById(db: Executor, userId: string) {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'password_hash'])
    .where('id', '=', userId)
    .executeTakeFirst();
}

/**
 * Sets the password hash if it is still `checkedHash` (the one the current password was checked
 * against): of two concurrent changes, one wins. Whether it was set.
 */
export async function replacePasswordHash(
  db: Executor,
  userId: string,
  checkedHash: string,
  passwordHash: string,
): Promise<boolean> {
  const res = await db
    .updateTable('users')
    .set({ password_hash: passwordHash })
    .where('id', '=', userId)
    .where('password_hash', '=', checkedHash)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

export async function findKeyByHash(db: Executor, keyHash: string) {
  return db
    .selectFrom('api_keys')
    .select(['id', 'business_id', 'scope', 'revoked_at', 'last_used_at'])
    .where('key_hash', '=', keyHash)
    .executeTakeFirst();
}

/** Whether the key is not revoked (read again after its business's access generation). */
export async function isKeyLive(db: Executor, id: string): Promise<boolean> {
  const row = await db
    .selectFrom('api_keys')
    .select('id')
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}

export async function listKeys(db: Executor, businessId: string) {
  return db
    .selectFrom('api_keys')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('revoked_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1000)
    .execute();
}

export async function insertUser(db: Executor, values: Insertable<UsersTable>): Promise<void> {
  await db.insertInto('users').values(values).execute();
}

export async function insertMembership(db: Executor, values: Insertable<MembershipsTable>): Promise<void> {
  await db.insertInto('memberships').values(values).execute();
}

/**
 * The role in the business of the access token's person, with whether they sign in with a second
 * factor, while the token is not revoked; undefined when it is revoked or they are not (or no
 * longer) a member.
 */
export async function findRoleOfLiveToken(db: Executor, businessId: string, tokenId: string) {
  return db
    .selectFrom('access_tokens as t')
    .innerJoin('memberships as m', 'm.user_id', 't.user_id')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .select(['m.role', 'u.totp_enabled_at'])
    .where('t.id', '=', tokenId)
    .where('t.revoked_at', 'is', null)
    .where('m.business_id', '=', businessId)
    .executeTakeFirst();
}

/** The person's role in the business; undefined when they are not (or no longer) a member. */
export async function findRole(db: Executor, businessId: string, userId: string) {
  const row = await db
    .selectFrom('memberships')
    .select('role')
    .where('business_id', '=', businessId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.role;
}

export async function insertToken(db: Executor, values: Insertable<AccessTokensTable>): Promise<void> {
  await db.insertInto('access_tokens').values(values).execute();
}

/** Revokes the business's access token unless it is revoked already. */
export async function revokeToken(db: Executor, businessId: string, id: string, now: Date): Promise<void> {
  await db
    .updateTable('access_tokens')
    .set({ revoked_at: now })
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
}

export async function insertKey(db: Executor, values: Insertable<ApiKeysTable>) {
  return db.insertInto('api_keys').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function touchKey(db: Executor, id: string, now: Date): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: now }).where('id', '=', id).execute();
}

/** Revokes the business's key unless it is revoked already; whether a key was revoked. */
export async function revokeKey(db: Executor, businessId: string, id: string, now: Date): Promise<boolean> {
  const res = await db
    .updateTable('api_keys')
    .set({ revoked_at: now })
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}
