import { publicBaseUrl } from '../config.js';
import { PASSWORD_RESET_TTL_MINUTES, type ResetPasswordBody } from '../../contract/auth/index.js';
import { recordChange } from '../platform/audit.js';
import { inTransaction, jobCtx, type Ctx, type CtxSource } from '../platform/context.js';
import { withTransaction } from '../platform/db/database.js';
import { newId } from '../platform/ids.js';
import { QUEUES, type JobPayloads } from '../platform/jobs.js';
import { queueMail } from '../platform/mail.js';
import * as queries from './password-reset.queries.js';
import { sessionsEnded } from './access.js';
import { findUserByEmail, listMembershipsOf, revokeTokensOfExcept } from './queries.js';
import { hashPassword, hashSecret, newSecret, PASSWORD_RESET_PREFIX } from './secrets.js';

/**
 * A forgotten password (docs/decisions.md D208): a mailed link, single use
 * and valid an hour, then a new password that ends every session of the person.
 */

const TTL_MS = PASSWORD_RESET_TTL_MINUTES * 60 * 1000;

export type PasswordResetJob = JobPayloads['auth.password-reset'];

/**
 * Asks for a link: the request only enqueues a job naming the email, the same single statement
 * whether or not the email has an account, so neither the answer nor its time tells them apart.
 * The job finds the person and mails the link.
 */
export async function requestReset(source: Pick<Ctx, 'db' | 'clock' | 'jobs'>, email: string): Promise<void> {
  const job: PasswordResetJob = { email: email.toLowerCase(), requestedAt: source.clock.now().toISOString() };
  await withTransaction(source.db, (trx) => source.jobs.send(trx, QUEUES.passwordReset, job));
}

/** The dashboard's reset page; the token rides in the fragment, which no server or log ever sees. */
const resetLink = (ctx: Pick<Ctx, 'config'>, token: string) =>
  `${publicBaseUrl(ctx.config)}/app/reset-password#token=${token}`;

/**
 * The job: mails a new link to the person with this email, replacing their earlier ones (only the
 * newest mail works, so a forgotten older mail cannot be used later). Nothing for an email without an
 * account or a person in no business (who could not sign in anyway). The mail is filed with the first
 * business the person joined, as all of their account's mail: captured there when no SMTP_URL is set.
 */
export async function mailResetLink(deps: CtxSource, job: PasswordResetJob): Promise<void> {
  const person = await findUserByEmail(deps.db, job.email);
  if (!person) return;
  const [first] = await listMembershipsOf(deps.db, person.id);
  if (first === undefined) return;
  const businessId = first.business_id;
  const token = newSecret(PASSWORD_RESET_PREFIX);
  const requestedAt = new Date(job.requestedAt);
  await inTransaction(jobCtx(deps, businessId, 'password reset'), async (ctx) => {
    await queries.deleteResetsOf(ctx.db, person.id);
    await queries.insertReset(ctx.db, {
      id: newId('pwr'),
      user_id: person.id,
      token_hash: hashSecret(token),
      expires_at: new Date(requestedAt.getTime() + TTL_MS),
      used_at: null,
      created_at: requestedAt,
    });
    await queueMail(ctx, {
      to: person.email,
      subject: 'Reset your password',
      text:
        'Hello,\n\n' +
        `Someone asked to reset the password you sign in with as ${person.email}. ` +
        'To choose a new one, open this link:\n\n' +
        `${resetLink(ctx, token)}\n\n` +
        'The link is valid for 1 hour and works once. Choosing a new password signs you out everywhere.\n\n' +
        'If you did not ask for this, ignore this mail: your password stays as it is.\n',
    });
  });
}

/** Who asked for a reset, for its audit rows. */
export interface ResetRequest {
  requestId: string;
}

/**
 * Sets the new password with a link's token and ends every session of the person: their access
 * tokens in every business and environment, the second steps of sign-ins they had begun, and their
 * other links. Two-factor sign-in stays as it was. Each business the person is a member of gets an
 * audit row, since the change reaches each of them. The ids of the revoked tokens, for the caller to
 * forget; null for an unknown, used or expired token.
 */
export async function resetPassword(
  source: Pick<Ctx, 'db' | 'clock'>,
  input: ResetPasswordBody,
  request: ResetRequest,
): Promise<string[] | null> {
  // The password is hashed whatever the token, so a wrong token costs the same time as a right one.
  const passwordHash = await hashPassword(input.password);
  if (input.token.length > 200 || !input.token.startsWith(PASSWORD_RESET_PREFIX)) return null;
  const tokenHash = hashSecret(input.token);
  return withTransaction(source.db, async (trx) => {
    const now = source.clock.now();
    const userId = await queries.useReset(trx, tokenHash, now);
    if (userId === undefined) return null;
    await queries.setPasswordHash(trx, userId, passwordHash);
    const revoked = await revokeTokensOfExcept(trx, userId, null, now);
    await sessionsEnded({ db: trx }, userId);
    await queries.deleteChallengesOf(trx, userId);
    await queries.deleteResetsOf(trx, userId);
    for (const { business_id: businessId } of await listMembershipsOf(trx, userId)) {
      await recordChange(trx, {
        businessId,
        actor: { kind: 'user', id: userId },
        operation: 'resetPassword',
        resourceId: userId,
        requestId: request.requestId,
        at: now,
      });
    }
    return revoked;
  });
}
