import type { Insertable } from 'kysely';
import type { Executor } from '../platform/db/database.js';
import type { AccessTokensTable, ApiKeysTable, MembershipsTable, UsersTable } from '../platform/db/types.js';

export async function findUserByEmail(db: Executor, email: string) {
  return db
    .selectFrom('users')
    .select(['id', 'business_id', 'password_hash'])
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

export async function findTokenByHash(db: Executor, tokenHash: string) {
  return db
    .selectFrom('access_tokens')
    .select(['id', 'business_id', 'user_id', 'expires_at', 'revoked_at'])
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export async function findKeyByHash(db: Executor, keyHash: string) {
  return db
    .selectFrom('api_keys')
    .select(['id', 'business_id', 'scope', 'revoked_at', 'last_used_at'])
    .where('key_hash', '=', keyHash)
    .executeTakeFirst();
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
