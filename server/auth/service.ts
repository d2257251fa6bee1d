import type {
  AccessSession,
  ApiKey,
  AuthSession,
  ChangePasswordBody,
  Business,
  CreateApiKeyBody,
  CreatedApiKey,
  RegisterBody,
  SessionInfo,
  SignInBody,
  SignInResult,
  UpdateBusinessBody,
} from '../../contract/auth/index.js';
import { ROLE_PERMISSIONS } from '../../contract/permissions.js';
import { dateIn, timeZoneName } from '../platform/calendar.js';
import { inTransaction, type Ctx } from '../platform/context.js';
import type { AuthInfo } from '../platform/deps.js';
import type { Environment } from '../platform/db/types.js';
import { newId } from '../platform/ids.js';
import { mailCaptured } from '../platform/mail.js';
import { withTransaction } from '../platform/db/database.js';
import { refuseDuplicates } from '../platform/db/errors.js';
import { ApiError, conflict, invalid, invalidState, notFound } from '../platform/errors.js';
import * as settings from '../platform/settings.js';
import { accessRestricted, sessionsEnded } from './access.js';
import { toApiKey, toBusiness } from './mappers.js';
import * as queries from './queries.js';
import {
  DUMMY_PASSWORD_HASH,
  KEY_PREFIXES,
  TEST_KEY_PREFIXES,
  TOKEN_PREFIX,
  hashPassword,
  hashSecret,
  isApiKey,
  newSecret,
  verifyPassword,
} from './secrets.js';
import {
  issueToken,
  issueTokenTo,
  sandboxBusiness,
  type AuthSource,
  type SignInClient,
  type SignInSource,
} from './tokens.js';
import * as twoFactor from './two-factor/service.js';

export { issueToken, sandboxBusiness, type AuthSource, type SignInClient };

export interface NewBusiness {
  name: string;
  email: string;
  password: string;
  plan: string;
}

export interface ProvisionedBusiness {
  businessId: string;
  userId: string;
  session: AuthSession;
}

const emailTaken = () => conflict('An account with this email already exists');

/**
 * Creates a business, its owner user and a first access token (register and the CLI). The email is
 * checked first for a clear refusal; the unique key refuses a concurrent sign-up with the same one.
 */
export async function createBusiness(
  source: AuthSource,
  input: NewBusiness,
  client?: SignInClient,
): Promise<ProvisionedBusiness> {
  const passwordHash = await hashPassword(input.password);
  return withTransaction(source.db, async (trx) => {
    if (await queries.findUserByEmail(trx, input.email)) throw emailTaken();
    const businessId = newId('biz');
    const userId = newId('usr');
    const now = source.clock.now();
    const email = input.email.toLowerCase();
    await settings.createBusinessRow(
      { db: trx },
      {
        id: businessId,
        name: input.name,
        email,
        plan: input.plan,
        created_at: now,
      },
    );
    await refuseDuplicates(
      () =>
        queries.insertUser(trx, {
          id: userId,
          business_id: businessId,
          email,
          password_hash: passwordHash,
          created_at: now,
        }),
      { users_email_key: emailTaken },
    );
    await queries.insertMembership(trx, { business_id: businessId, user_id: userId, role: 'owner' });
    const session = await issueToken(trx, source, businessId, userId, 'live', client);
    return { businessId, userId, session };
  });
}

export async function register(
  source: AuthSource,
  input: RegisterBody,
  client?: SignInClient,
): Promise<AuthSession> {
  if (!source.config.SIGNUP_ENABLED) throw new ApiError('FORBIDDEN', 'Sign-up is disabled on this server');
  const created = await createBusiness(
    source,
    {
      name: input.businessName,
      email: input.email,
      password: input.password,
      plan: source.config.DEFAULT_PLAN,
    },
    client,
  );
  return created.session;
}

/**
 * Returns null for wrong credentials (the caller counts the failure): an unknown email, a wrong
 * password, a `businessId` the person is not a member of, or a wrong `code`. A person in several
 * businesses names one (422 on `businessId` with the choices otherwise). A person with two-factor
 * sign-in on gets the challenge of the second step, unless the code came with the password. Signing
 * in to the sandbox makes the live business's sandbox twin the first time (docs/decisions.md D73): the
 * same person, a business of its own.
 */
export async function signIn(
  source: SignInSource,
  input: SignInBody,
  client: SignInClient = {},
): Promise<SignInResult | null> {
  const user = await queries.findUserByEmail(source.db, input.email);
  const ok = await verifyPassword(input.password, user?.password_hash ?? DUMMY_PASSWORD_HASH);
  if (!user || !ok) return null;
  const businessId = await chosenBusiness(source, user.id, input.businessId);
  if (businessId === undefined) return null;
  const environment = input.environment ?? 'live';
  if (user.totp_enabled_at) {
    if (input.code === undefined)
      return twoFactor.challenge(source, user.id, businessId, environment, client);
    if (!(await twoFactor.secondFactorMatches(source, user.id, input.code))) return null;
  }
  return issueTokenTo(source, businessId, user.id, environment, client);
}

/**
 * The live business the person signs in to: the one named (undefined when they are not a member of
 * it), or their only one; several and none named is refused with the choices.
 */
async function chosenBusiness(
  source: AuthSource,
  userId: string,
  named: string | undefined,
): Promise<string | undefined> {
  const memberships = await queries.listMembershipsOf(source.db, userId);
  if (named !== undefined) return memberships.find((m) => m.business_id === named)?.business_id;
  if (memberships.length <= 1) return memberships[0]?.business_id;
  const choices = await Promise.all(
    memberships.map(async (m) => {
      const business = await settings.findBusiness({ db: source.db, businessId: m.business_id });
      return { field: 'businessId', message: `${m.business_id}: ${business?.name ?? ''}` };
    }),
  );
  throw new ApiError(
    'VALIDATION_ERROR',
    'You are a member of several businesses: sign in with the businessId of one of them',
    choices,
  );
}

/** An access token to the sandbox of the user's live business (the CLI's `--sandbox`). */
export async function sandboxSession(
  source: AuthSource,
  provisioned: Pick<ProvisionedBusiness, 'businessId' | 'userId'>,
): Promise<AuthSession> {
  return issueTokenTo(source, provisioned.businessId, provisioned.userId, 'sandbox');
}

/** Revokes the business's access token `tokenId` (the one the caller signed in with). */
export async function logout(ctx: Ctx, tokenId: string): Promise<void> {
  await queries.revokeToken(ctx.db, ctx.businessId, tokenId, ctx.clock.now());
  await accessRestricted(ctx, [ctx.businessId]);
}

/**
 * Resolves a presented secret to its business, or null when it is unknown, revoked or expired.
 * Access tokens and API keys are told apart by their prefix.
 */
export async function resolveCredential(
  source: Pick<Ctx, 'db' | 'clock'>,
  secret: string,
): Promise<AuthInfo | null> {
  return (await resolveWithGeneration(source, secret))?.auth ?? null;
}

/** A credential as resolved, and the access generation of its business it was resolved under. */
export interface ResolvedCredential {
  auth: AuthInfo;
  generation: string;
}

/**
 * Resolves a presented secret, with its business's access generation. What the credential depends on
 * (the key or token not revoked, the person's membership and role) is read after the generation, so
 * a restriction committed meanwhile has raised the generation past the one returned and a cache
 * keeping the answer notices it at the next use.
 */
export async function resolveWithGeneration(
  source: Pick<Ctx, 'db' | 'clock'>,
  secret: string,
): Promise<ResolvedCredential | null> {
  if (secret.length > 200) return null;
  const hash = hashSecret(secret);
  if (isApiKey(secret)) {
    const key = await queries.findKeyByHash(source.db, hash);
    if (!key || key.revoked_at) return null;
    const found = await settings.businessAccess({ db: source.db, businessId: key.business_id });
    if (found === undefined) return null;
    if (!(await queries.isKeyLive(source.db, key.id))) return null;
    const access = { plan: found.plan, environment: found.environment, clockOffsetMs: found.clockOffsetMs };
    const now = source.clock.now();
    if (!key.last_used_at || now.getTime() - key.last_used_at.getTime() > 60_000) {
      // Coarse last-use stamp: at most one write per key per minute.
      await queries.touchKey(source.db, key.id, now);
    }
    const auth: AuthInfo = {
      businessId: key.business_id,
      ...access,
      ...(key.scope === 'full' && { role: 'admin' as const }),
      kind: 'apiKey',
      scope: key.scope,
      credentialId: key.id,
    };
    return { auth, generation: found.accessGeneration };
  }
  if (!secret.startsWith(TOKEN_PREFIX)) return null;
  const token = await queries.findTokenByHash(source.db, hash);
  if (!token || token.revoked_at || token.expires_at.getTime() <= source.clock.now().getTime()) return null;
  const found = await settings.businessAccess({ db: source.db, businessId: token.business_id });
  if (found === undefined) return null;
  const { teamBusinessId, requireTwoFactor, accessGeneration, ...access } = found;
  // A person removed from the team keeps no way in, whatever token they still hold.
  const member = await queries.findRoleOfLiveToken(source.db, teamBusinessId, token.id);
  if (member === undefined) return null;
  const now = source.clock.now();
  if (!token.last_used_at || now.getTime() - token.last_used_at.getTime() > 60_000) {
    // Coarse last-use stamp for the list of sessions: at most one write per token per minute.
    await queries.touchToken(source.db, token.id, now);
  }
  const auth: AuthInfo = {
    businessId: token.business_id,
    ...access,
    role: member.role,
    kind: 'user',
    credentialId: token.id,
    userId: token.user_id,
    expiresAt: token.expires_at,
    twoFactor: { enabled: member.totp_enabled_at !== null, required: requireTwoFactor },
  };
  return { auth, generation: accessGeneration };
}

/**
 * The business's context is all a key needs; the CLI passes these parts of one. `createdBy` is the
 * person making it (none from the CLI): removing them from the team revokes it.
 */
export async function createApiKey(
  ctx: Pick<Ctx, 'db' | 'clock' | 'businessId'>,
  input: CreateApiKeyBody,
  createdBy: string | null = null,
): Promise<CreatedApiKey> {
  const scope = input.scope ?? 'public_loyalty';
  const access = await settings.businessAccess(ctx);
  const prefix = (access?.environment === 'sandbox' ? TEST_KEY_PREFIXES : KEY_PREFIXES)[scope];
  const key = newSecret(prefix);
  const row = await queries.insertKey(ctx.db, {
    id: newId('key'),
    business_id: ctx.businessId,
    name: input.name,
    scope,
    // The prefix shown in lists: the kind, then four characters of the secret.
    prefix: key.slice(0, prefix.length + 4),
    key_hash: hashSecret(key),
    created_at: ctx.clock.now(),
    last_used_at: null,
    revoked_at: null,
    created_by: createdBy,
  });
  return { ...toApiKey(row), key };
}

export async function listApiKeys(ctx: Ctx): Promise<ApiKey[]> {
  return (await queries.listKeys(ctx.db, ctx.businessId)).map(toApiKey);
}

export async function revokeApiKey(ctx: Ctx, id: string): Promise<void> {
  if (!(await queries.revokeKey(ctx.db, ctx.businessId, id, ctx.clock.now()))) throw notFound('API key');
  await accessRestricted(ctx, [ctx.businessId]);
}

async function businessOrFail(ctx: Ctx) {
  const row = await settings.findBusiness(ctx);
  if (!row) throw notFound('Business');
  return row;
}

/** The credential of the request: business, environment, person, role and its permissions. */
export async function getSession(ctx: Ctx, auth: AuthInfo): Promise<SessionInfo> {
  const [business, email] = await Promise.all([
    businessOrFail(ctx),
    auth.userId ? queries.findUserEmail(ctx.db, auth.userId) : undefined,
  ]);
  const role = auth.role;
  if (!role) throw new ApiError('FORBIDDEN', 'This credential has no role in the business');
  const now = ctx.clock.now();
  return {
    businessId: business.id,
    businessName: business.name,
    environment: auth.environment,
    credential: auth.kind === 'user' ? 'access_token' : 'api_key',
    user: auth.userId && email ? { id: auth.userId, email } : null,
    role,
    permissions: [...ROLE_PERMISSIONS[role]],
    expiresAt: auth.expiresAt?.toISOString() ?? null,
    twoFactor: auth.twoFactor ?? null,
    mail: (await mailCaptured(ctx, ctx.businessId)) ? 'captured' : 'smtp',
    clock: { now: now.toISOString(), today: dateIn(business.timezone, now), timezone: business.timezone },
  };
}

/**
 * A new access token for the signed-in person to the other environment of their business (or the
 * same one): the sandbox made on its first use.
 */
export async function switchEnvironment(
  ctx: Ctx,
  auth: AuthInfo,
  environment: Environment,
  client?: SignInClient,
): Promise<AuthSession> {
  if (!auth.userId) throw new ApiError('FORBIDDEN', 'Only a signed-in person switches environment');
  const access = await settings.businessAccess(ctx);
  if (!access) throw notFound('Business');
  return issueTokenTo(ctx, access.teamBusinessId, auth.userId, environment, client);
}

/** The settings of the caller's business. */
export async function getBusiness(ctx: Ctx): Promise<Business> {
  return toBusiness(await businessOrFail(ctx));
}

/**
 * Partial update of the settings; an empty one changes nothing. The settings the other domains read
 * (base currency, time zone) are forgotten by this process's cache at once (the platform's
 * `updateBusiness` does it).
 */
export async function updateBusiness(ctx: Ctx, auth: AuthInfo, input: UpdateBusinessBody): Promise<Business> {
  if (input.require_two_factor !== undefined) await setRequireTwoFactor(ctx, auth, input.require_two_factor);
  const changes = {
    ...(input.name !== undefined && { name: input.name }),
    ...(input.base_currency !== undefined && { base_currency: input.base_currency }),
    ...(input.timezone !== undefined && { timezone: timeZoneName(input.timezone) }),
    ...(input.country !== undefined && { country: input.country }),
    ...(input.address !== undefined && { address: input.address ? JSON.stringify(input.address) : null }),
    ...(input.tax_number !== undefined && { tax_number: input.tax_number }),
    ...(input.payment_instructions !== undefined && { payment_instructions: input.payment_instructions }),
    ...(input.invoice_reminders?.enabled !== undefined && {
      invoice_reminders_enabled: input.invoice_reminders.enabled,
    }),
    ...(input.invoice_reminders?.days_after_due !== undefined && {
      invoice_reminder_days: [...input.invoice_reminders.days_after_due].sort((a, b) => a - b),
    }),
  };
  if (Object.keys(changes).length === 0) return getBusiness(ctx);
  const row = await settings.updateBusiness(ctx, changes);
  if (!row) throw notFound('Business');
  return toBusiness(row);
}

/**
 * Whether every member needs a second factor: an owner's decision, made with their own on (so the
 * business is never left requiring what its owner cannot give), on the live business for both
 * environments. The cached credentials of other members notice within the cache time.
 */
async function setRequireTwoFactor(ctx: Ctx, auth: AuthInfo, required: boolean): Promise<void> {
  if (auth.role !== 'owner') {
    throw new ApiError('FORBIDDEN', 'Only an owner can change require_two_factor', [
      { field: 'require_two_factor', message: 'Only an owner can change it' },
    ]);
  }
  const access = await settings.businessAccess(ctx);
  if (!access) throw notFound('Business');
  if (required && !auth.twoFactor?.enabled) {
    throw invalidState(
      'Turn on two-factor sign-in for yourself first (POST /v1/auth/two-factor/enrolment), then require it of everyone',
    );
  }
  await settings.setRequireTwoFactor(ctx, access.teamBusinessId, required);
}

/*
 * The signed-in person's sessions (access tokens) and password.
 */

function personOf(auth: AuthInfo): string {
  if (!auth.userId) throw new ApiError('FORBIDDEN', 'Only a signed-in person has sessions');
  return auth.userId;
}

export async function listSessions(ctx: Ctx, auth: AuthInfo): Promise<AccessSession[]> {
  const rows = await queries.listLiveTokensOf(ctx.db, personOf(auth), ctx.clock.now());
  const environments = new Map<string, Environment>();
  for (const id of new Set(rows.map((r) => r.business_id))) {
    const access = await settings.businessAccess({ db: ctx.db, businessId: id });
    environments.set(id, access?.environment ?? 'live');
  }
  return rows.map((row) => ({
    id: row.id,
    businessId: row.business_id,
    environment: environments.get(row.business_id) ?? 'live',
    current: row.id === auth.credentialId,
    createdAt: row.created_at.toISOString(),
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
    expiresAt: row.expires_at.toISOString(),
    userAgent: row.user_agent,
    ip: row.ip,
  }));
}

export async function revokeSession(ctx: Ctx, auth: AuthInfo, id: string): Promise<void> {
  if (!(await queries.revokeTokenOf(ctx.db, personOf(auth), id, ctx.clock.now()))) throw notFound('Session');
  await sessionsEnded(ctx, personOf(auth));
}

/** Revokes the person's other tokens; their ids, for the caller to forget. */
export async function revokeOtherSessions(ctx: Ctx, auth: AuthInfo): Promise<string[]> {
  return inTransaction(ctx, async (tx) => {
    const revoked = await queries.revokeTokensOfExcept(
      tx.db,
      personOf(auth),
      auth.credentialId,
      ctx.clock.now(),
    );
    await sessionsEnded(tx, personOf(auth));
    return revoked;
  });
}

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
