import type { Insertable } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import type { SignInChallengesTable } from '../../platform/db/types.js';

/** The person's second factor as stored: secrets sealed, the last step accepted. */
export async function findTwoFactor(db: Executor, userId: string) {
  return db
    .selectFrom('users')
    .select([
      'id',
      'email',
      'password_hash',
      'totp_secret',
      'totp_enabled_at',
      'totp_pending_secret',
      'totp_last_step',
    ])
    .where('id', '=', userId)
    .executeTakeFirst();
}

export async function setPendingSecret(db: Executor, userId: string, sealed: string): Promise<void> {
  await db.updateTable('users').set({ totp_pending_secret: sealed }).where('id', '=', userId).execute();
}

/**
 * Turns the pending secret on, with the step of the code that confirmed it as the last one used;
 * false when it was on already or the pending secret changed meanwhile.
 */
export async function enable(
  db: Executor,
  userId: string,
  pendingSealed: string,
  now: Date,
  step: number,
): Promise<boolean> {
  const res = await db
    .updateTable('users')
    .set({
      totp_secret: pendingSealed,
      totp_enabled_at: now,
      totp_pending_secret: null,
      totp_last_step: step,
    })
    .where('id', '=', userId)
    .where('totp_enabled_at', 'is', null)
    .where('totp_pending_secret', '=', pendingSealed)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

export async function disable(db: Executor, userId: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ totp_secret: null, totp_enabled_at: null, totp_pending_secret: null, totp_last_step: null })
    .where('id', '=', userId)
    .execute();
  await db.deleteFrom('user_recovery_codes').where('user_id', '=', userId).execute();
}

/**
 * Records `step` as the last one accepted unless that step (or a later one) was accepted already:
 * of two requests with the same code, one wins.
 */
export async function advanceLastStep(db: Executor, userId: string, step: number): Promise<boolean> {
  const res = await db
    .updateTable('users')
    .set({ totp_last_step: step })
    .where('id', '=', userId)
    .where('totp_enabled_at', 'is not', null)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

export async function replaceRecoveryCodes(
  db: Executor,
  userId: string,
  hashes: string[],
  now: Date,
): Promise<void> {
  await db.deleteFrom('user_recovery_codes').where('user_id', '=', userId).execute();
  await db
    .insertInto('user_recovery_codes')
    .values(hashes.map((code_hash) => ({ user_id: userId, code_hash, used_at: null, created_at: now })))
    .execute();
}

/** Uses the recovery code once: false when it is not the person's or was used already. */
export async function useRecoveryCode(db: Executor, userId: string, hash: string, now: Date) {
  const res = await db
    .updateTable('user_recovery_codes')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('code_hash', '=', hash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

export async function countUnusedRecoveryCodes(db: Executor, userId: string): Promise<number> {
  const row = await db
    .selectFrom('user_recovery_codes')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A new challenge; the person's challenges that ended before `staleBefore` go. */
export async function insertChallenge(
  db: Executor,
  values: Insertable<SignInChallengesTable>,
  staleBefore: Date,
): Promise<void> {
  await db
    .deleteFrom('sign_in_challenges')
    .where('user_id', '=', values.user_id)
    .where('expires_at', '<', staleBefore)
    .execute();
  await db.insertInto('sign_in_challenges').values(values).execute();
}

export async function findChallengeByHash(db: Executor, tokenHash: string) {
  return db
    .selectFrom('sign_in_challenges')
    .innerJoin('users', 'users.id', 'sign_in_challenges.user_id')
    .select([
      'sign_in_challenges.id',
      'sign_in_challenges.user_id',
      'sign_in_challenges.business_id',
      'sign_in_challenges.environment',
      'sign_in_challenges.failed_attempts',
      'sign_in_challenges.expires_at',
      'sign_in_challenges.used_at',
      'sign_in_challenges.user_agent',
      'sign_in_challenges.ip',
      'sign_in_challenges.invitation_id',
      'users.email',
    ])
    .where('sign_in_challenges.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/**
 * Counts an answer to the challenge before its code is checked: false, and nothing counted, when the
 * challenge was answered, has expired or has taken `maxAnswers` already. One conditional update, so
 * concurrent answers cannot all pass a count read before any of them was added.
 */
export async function countAnswer(db: Executor, id: string, now: Date, maxAnswers: number): Promise<boolean> {
  const res = await db
    .updateTable('sign_in_challenges')
    .set((eb) => ({ failed_attempts: eb('failed_attempts', '+', 1) }))
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .where('failed_attempts', '<', maxAnswers)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Marks the challenge answered; false when it was answered or expired meanwhile. */
export async function useChallenge(db: Executor, id: string, now: Date) {
  const res = await db
    .updateTable('sign_in_challenges')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}
