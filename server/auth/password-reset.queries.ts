import type { Insertable } from 'kysely';
import type { Executor } from '../platform/db/database.js';
import type { PasswordResetsTable } from '../platform/db/types.js';

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

/** Ends the second steps of sign-ins the person had begun with the old password. */
export async function deleteChallengesOf(db: Executor, userId: string): Promise<void> {
  await db.deleteFrom('sign_in_challenges').where('user_id', '=', userId).execute();
}
