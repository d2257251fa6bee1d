import type { Insertable } from 'kysely';
import type { Executor } from '../platform/db/database.js';
import type { PasswordResetsTable } from '../platform/db/types.js';

/** The person a reset link is for, found by email (any case), with the email as stored. */
export async function findPersonByEmail(db: Executor, email: string) {
  return db
    .selectFrom('users')
    .select(['id', 'email'])
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .executeTakeFirst();
}

/** The live businesses the person is a member of, the earliest joined first. */
export async function listBusinessesOf(db: Executor, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('memberships')
    .select('business_id')
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('business_id')
    .limit(1000)
    .execute();
  return rows.map((r) => r.business_id);
}

/** Forgets the person's earlier links: only the newest one mailed works. */
export async function deleteResetsOf(db: Executor, userId: string): Promise<void> {
  await db.deleteFrom('password_resets').where('user_id', '=', userId).execute();
}

export async function insertReset(db: Executor, values: Insertable<PasswordResetsTable>): Promise<void> {
  await db.insertInto('password_resets').values(values).execute();
}

/**
 * Spends the link of this hash if it is unused and unexpired at `now`; its person, or undefined.
 * One conditional UPDATE, so of two concurrent uses exactly one gets the row.
 */
export async function useReset(db: Executor, tokenHash: string, now: Date) {
  const row = await db
    .updateTable('password_resets')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id;
}

export async function setPasswordHash(db: Executor, userId: string, passwordHash: string): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
}

/** Revokes every live access token of the person, in every business and environment; their ids. */
export async function revokeAllTokensOf(db: Executor, userId: string, now: Date): Promise<string[]> {
  const rows = await db
    .updateTable('access_tokens')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** Ends the second steps of sign-ins the person had begun with the old password. */
export async function deleteChallengesOf(db: Executor, userId: string): Promise<void> {
  await db.deleteFrom('sign_in_challenges').where('user_id', '=', userId).execute();
}
