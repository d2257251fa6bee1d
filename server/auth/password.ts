import type { ChangePasswordBody } from '../../contract/auth/index.js';
import type { Ctx } from '../platform/context.js';
import { withTransaction } from '../platform/db/database.js';
import type { AuthInfo } from '../platform/deps.js';
import { invalid, notFound } from '../platform/errors.js';
import { sessionsEnded } from './access.js';
import * as queries from './queries.js';
import { hashPassword, verifyPassword } from './secrets.js';
import { personOf } from './sessions.js';
import * as twoFactor from './two-factor/service.js';

/**
 * A new password given the current one (a wrong one counts as a failed sign-in); every other session
 * of the person ends. The ids of the tokens revoked, for the caller to forget.
 */
export async function changePassword(ctx: Ctx, auth: AuthInfo, body: ChangePasswordBody): Promise<string[]> {
  const userId = personOf(auth);
  const user = await queries.findUserById(ctx.db, userId);
  if (!user) throw notFound('User');
  if (!(await verifyPassword(body.currentPassword, user.password_hash)))
    throw new twoFactor.FailedAttempt(user.email, 'currentPassword', 'Incorrect password');
  if (body.newPassword === body.currentPassword)
    throw invalid('newPassword', 'The new password must differ from the current one');
  const hash = await hashPassword(body.newPassword);
  return withTransaction(ctx.db, async (trx) => {
    if (!(await queries.replacePasswordHash(trx, userId, user.password_hash, hash))) {
      throw invalid(
        'currentPassword',
        'The password was changed meanwhile: this is no longer the current one',
      );
    }
    const revoked = await queries.revokeTokensOfExcept(trx, userId, auth.credentialId, ctx.clock.now());
    await sessionsEnded({ db: trx }, userId);
    return revoked;
  });
}

/** The signed-in person's email (their sign-in throttle is counted by it). */
export async function emailOf(ctx: Ctx, auth: AuthInfo): Promise<string | undefined> {
  return auth.userId ? queries.findUserEmail(ctx.db, auth.userId) : undefined;
}
