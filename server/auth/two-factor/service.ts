import type {
  AuthSession,
  ConfirmTwoFactorBody,
  DisableTwoFactorBody,
  RecoveryCodes,
  SignInChallenge,
  StartTwoFactorEnrolmentBody,
  TwoFactorEnrolment,
  TwoFactorStatus,
} from '../../../contract/auth/index.js';
import type { Ctx } from '../../platform/context.js';
import type { AuthInfo } from '../../platform/deps.js';
import type { Environment } from '../../platform/db/types.js';
import { withTransaction } from '../../platform/db/database.js';
import { ApiError, invalidState, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import * as settings from '../../platform/settings.js';
import { listMembershipsOf } from '../queries.js';
import { joinByInvitation } from '../team/join.js';
import { CHALLENGE_PREFIX, hashSecret, newSecret, verifyPassword } from '../secrets.js';
import {
  clientColumns,
  issueTokenTo,
  type AuthSource,
  type SignInClient,
  type SignInSource,
} from '../tokens.js';
import * as queries from './queries.js';
import {
  RECOVERY_CODE_COUNT,
  hashRecoveryCode,
  isTotpCode,
  newRecoveryCode,
  newTotpSecret,
  otpauthUri,
  qrCodeDataUrl,
  totpStep,
} from './totp.js';

const CHALLENGE_TTL_MS = 5 * 60_000;
/** Codes a challenge takes before it is spent (each counted before it is checked; a right one ends it). */
export const CHALLENGE_MAX_FAILURES = 5;

/**
 * A wrong password or code given by a signed-in person: 422 on the field, and counted by the route as
 * a failed sign-in attempt of the address and the email, so it is throttled as sign-in is.
 */
export class FailedAttempt extends ApiError {
  constructor(
    readonly email: string,
    field: string,
    message: string,
  ) {
    super('VALIDATION_ERROR', message, [{ field, message }]);
  }
}

type Source = Pick<Ctx, 'db' | 'clock' | 'secrets'>;

/**
 * Whether `code` is the person's second factor now: an app code of a step later than the last one
 * used (which it becomes), or an unused recovery code (which is used up).
 */
export async function secondFactorMatches(source: Source, userId: string, code: string): Promise<boolean> {
  const row = await queries.findTwoFactor(source.db, userId);
  if (!row?.totp_secret) return false;
  const now = source.clock.now();
  if (!isTotpCode(code)) return queries.useRecoveryCode(source.db, userId, hashRecoveryCode(code), now);
  const step = await totpStep(source.secrets.open(row.totp_secret), code, now, row.totp_last_step);
  return step !== null && queries.advanceLastStep(source.db, userId, step);
}

/** The first step of signing in passed for a person with a second factor: the challenge of the next. */
export async function challenge(
  source: AuthSource,
  userId: string,
  liveBusinessId: string,
  environment: Environment,
  client: SignInClient,
  invitationId?: string,
): Promise<SignInChallenge> {
  const token = newSecret(CHALLENGE_PREFIX);
  const now = source.clock.now();
  const expiresAt = new Date(now.getTime() + CHALLENGE_TTL_MS);
  await queries.insertChallenge(
    source.db,
    {
      id: newId('chl'),
      user_id: userId,
      business_id: liveBusinessId,
      environment,
      token_hash: hashSecret(token),
      expires_at: expiresAt,
      used_at: null,
      created_at: now,
      invitation_id: invitationId ?? null,
      ...clientColumns(client),
    },
    new Date(now.getTime() - 24 * 3600_000),
  );
  return { challengeToken: token, expiresAt: expiresAt.toISOString(), methods: ['totp', 'recovery_code'] };
}

export type CompletedSignIn =
  | { session: AuthSession }
  /** No such challenge, or it was answered, spent or has expired. */
  | { failure: 'unknown' }
  /** A wrong code for the challenge of `email`. */
  | { failure: 'wrong'; email: string };

export type OpenChallenge = NonNullable<Awaited<ReturnType<typeof queries.findChallengeByHash>>>;

/**
 * The challenge a token names while it can still be answered; undefined for an unknown, answered,
 * spent or expired one. Whether it still can is decided again, atomically, when it is answered.
 */
export async function findChallenge(
  source: Source,
  challengeToken: string,
): Promise<OpenChallenge | undefined> {
  if (!challengeToken.startsWith(CHALLENGE_PREFIX) || challengeToken.length > 200) return undefined;
  const found = await queries.findChallengeByHash(source.db, hashSecret(challengeToken));
  const now = source.clock.now();
  if (
    !found ||
    found.used_at ||
    found.expires_at.getTime() <= now.getTime() ||
    found.failed_attempts >= CHALLENGE_MAX_FAILURES
  ) {
    return undefined;
  }
  return found;
}

/**
 * The second step: the challenge answered with a code gives the access token it was for. The answer
 * is counted on the challenge before the code is checked, so of any number of concurrent answers
 * at most CHALLENGE_MAX_FAILURES are checked (docs/decisions.md D210, "Attempts at a secret are
 * counted before they are checked").
 */
export async function answerChallenge(
  source: SignInSource,
  found: OpenChallenge,
  code: string,
  client: SignInClient,
): Promise<CompletedSignIn> {
  const now = source.clock.now();
  if (!(await queries.countAnswer(source.db, found.id, now, CHALLENGE_MAX_FAILURES)))
    return { failure: 'unknown' };
  if (!(await secondFactorMatches(source, found.user_id, code)))
    return { failure: 'wrong', email: found.email };
  if (!(await queries.useChallenge(source.db, found.id, now))) return { failure: 'unknown' };
  if (found.invitation_id) {
    // Accepting an invitation with a password: the person joins only now, with both factors given.
    const invitationId = found.invitation_id;
    const user = { id: found.user_id, email: found.email };
    const joined = await withTransaction(source.db, (trx) => joinByInvitation(trx, invitationId, user, now));
    if (!joined) throw invalidInvitation();
  }
  const session = await issueTokenTo(source, found.business_id, found.user_id, found.environment, {
    ip: client.ip ?? found.ip ?? undefined,
    userAgent: client.userAgent ?? found.user_agent ?? undefined,
  });
  return { session };
}

const invalidInvitation = () =>
  new ApiError('VALIDATION_ERROR', 'Request validation failed', [
    { field: 'challengeToken', message: 'The invitation this sign-in accepts is no longer valid' },
  ]);

function personOf(auth: AuthInfo): string {
  if (!auth.userId) throw new ApiError('FORBIDDEN', 'Only a signed-in person has two-factor sign-in');
  return auth.userId;
}

async function accountOf(ctx: Pick<Ctx, 'db'>, userId: string) {
  const row = await queries.findTwoFactor(ctx.db, userId);
  if (!row) throw notFound('User');
  return row;
}

export async function status(ctx: Ctx, auth: AuthInfo): Promise<TwoFactorStatus> {
  const userId = personOf(auth);
  const [row, remaining, access] = await Promise.all([
    accountOf(ctx, userId),
    queries.countUnusedRecoveryCodes(ctx.db, userId),
    settings.businessAccess(ctx),
  ]);
  return {
    enabled: row.totp_enabled_at !== null,
    enabledAt: row.totp_enabled_at?.toISOString() ?? null,
    recoveryCodesRemaining: row.totp_enabled_at ? remaining : 0,
    required: access?.requireTwoFactor ?? false,
  };
}

const alreadyOn = () =>
  invalidState('Two-factor sign-in is already on; turn it off first to set up another app');
const notOn = () =>
  invalidState('Two-factor sign-in is not on; start with POST /v1/auth/two-factor/enrolment');

/** The person's current password, asked before their second factor is set up (counted as sign-in is). */
async function checkPassword(row: { email: string; password_hash: string }, password: string): Promise<void> {
  if (!(await verifyPassword(password, row.password_hash)))
    throw new FailedAttempt(row.email, 'password', 'Incorrect password');
}

/**
 * A new secret, given the current password: a session alone (a token left signed in, or taken)
 * cannot bind an app of someone else's to the account.
 */
export async function startEnrolment(
  ctx: Ctx,
  auth: AuthInfo,
  body: StartTwoFactorEnrolmentBody,
): Promise<TwoFactorEnrolment> {
  const userId = personOf(auth);
  const row = await accountOf(ctx, userId);
  if (row.totp_enabled_at) throw alreadyOn();
  await checkPassword(row, body.password);
  const secret = newTotpSecret();
  await queries.setPendingSecret(ctx.db, userId, ctx.secrets.seal(secret));
  const uri = otpauthUri(secret, row.email);
  return { secret, otpauthUri: uri, qrCode: await qrCodeDataUrl(uri) };
}

async function newRecoveryCodes(ctx: Ctx, userId: string): Promise<RecoveryCodes> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await queries.replaceRecoveryCodes(ctx.db, userId, codes.map(hashRecoveryCode), ctx.clock.now());
  return { recoveryCodes: codes };
}

/** Turns the enrolment on, given the current password again and a code of the new app. */
export async function confirm(ctx: Ctx, auth: AuthInfo, body: ConfirmTwoFactorBody): Promise<RecoveryCodes> {
  const { code } = body;
  const userId = personOf(auth);
  const row = await accountOf(ctx, userId);
  if (row.totp_enabled_at) throw alreadyOn();
  const pending = row.totp_pending_secret;
  if (!pending) throw invalidState('No enrolment to confirm; start with POST /v1/auth/two-factor/enrolment');
  await checkPassword(row, body.password);
  const step = isTotpCode(code)
    ? await totpStep(ctx.secrets.open(pending), code, ctx.clock.now(), null)
    : null;
  if (step === null) {
    throw new FailedAttempt(
      row.email,
      'code',
      'This code does not match: enter the six digits the app shows now (check the device clock)',
    );
  }
  return withTransaction(ctx.db, async (trx) => {
    const tx = { ...ctx, db: trx };
    if (!(await queries.enable(trx, userId, pending, ctx.clock.now(), step))) throw alreadyOn();
    return newRecoveryCodes(tx, userId);
  });
}

/** The live businesses of the person that require two-factor sign-in, by name. */
async function businessesRequiring(ctx: Pick<Ctx, 'db'>, userId: string): Promise<string[]> {
  const names: string[] = [];
  for (const m of await listMembershipsOf(ctx.db, userId)) {
    const access = await settings.businessAccess({ db: ctx.db, businessId: m.business_id });
    if (!access?.requireTwoFactor) continue;
    const business = await settings.findBusiness({ db: ctx.db, businessId: m.business_id });
    names.push(business?.name ?? m.business_id);
  }
  return names;
}

export async function disable(
  ctx: Ctx,
  auth: AuthInfo,
  body: DisableTwoFactorBody,
): Promise<TwoFactorStatus> {
  const userId = personOf(auth);
  const row = await accountOf(ctx, userId);
  if (!row.totp_enabled_at) throw notOn();
  const requiring = await businessesRequiring(ctx, userId);
  if (requiring.length > 0) {
    throw invalidState(
      `${requiring.join(', ')} requires two-factor sign-in of every member; an owner can lift that first`,
    );
  }
  await checkPassword(row, body.password);
  if (!(await secondFactorMatches(ctx, userId, body.code)))
    throw new FailedAttempt(row.email, 'code', 'This code does not match, or was used already');
  await withTransaction(ctx.db, (trx) => queries.disable(trx, userId));
  return status(ctx, auth);
}

export async function regenerateRecoveryCodes(
  ctx: Ctx,
  auth: AuthInfo,
  code: string,
): Promise<RecoveryCodes> {
  const userId = personOf(auth);
  const row = await accountOf(ctx, userId);
  if (!row.totp_enabled_at) throw notOn();
  if (!(await secondFactorMatches(ctx, userId, code)))
    throw new FailedAttempt(row.email, 'code', 'This code does not match, or was used already');
  return withTransaction(ctx.db, (trx) => newRecoveryCodes({ ...ctx, db: trx }, userId));
}
