import type {
  ApiKey,
  AuthSession,
  Business,
  CreateApiKeyBody,
  CreatedApiKey,
  RegisterBody,
  SessionInfo,
  SignInBody,
  UpdateBusinessBody,
} from '../../contract/auth/index.js';
import { ROLE_PERMISSIONS } from '../../contract/permissions.js';
import { timeZoneName } from '../platform/calendar.js';
import type { Ctx } from '../platform/context.js';
import type { AuthInfo } from '../platform/deps.js';
import type { Environment } from '../platform/db/types.js';
import { newId } from '../platform/ids.js';
import { withTransaction, type Executor } from '../platform/db/database.js';
import { refuseDuplicates } from '../platform/db/errors.js';
import { ApiError, conflict, notFound } from '../platform/errors.js';
import * as settings from '../platform/settings.js';
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

/**
 * What the unauthenticated operations (sign-up, sign-in, credential resolution, the CLI) need of the
 * context: there is no business yet, so they take these parts of a `Ctx` rather than a whole one.
 */
export type AuthSource = Pick<Ctx, 'db' | 'clock' | 'config'>;

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

export async function issueToken(
  db: Executor,
  source: Pick<Ctx, 'clock' | 'config'>,
  businessId: string,
  userId: string,
  environment: Environment = 'live',
): Promise<AuthSession> {
  const token = newSecret(TOKEN_PREFIX);
  const now = source.clock.now();
  const expiresAt = new Date(now.getTime() + source.config.ACCESS_TOKEN_TTL * 1000);
  await queries.insertToken(db, {
    id: newId('tok'),
    business_id: businessId,
    user_id: userId,
    token_hash: hashSecret(token),
    expires_at: expiresAt,
    revoked_at: null,
    created_at: now,
  });
  return {
    businessId,
    accessToken: token,
    tokenType: 'Bearer',
    expiresAt: expiresAt.toISOString(),
    environment,
  };
}

/**
 * Creates a business, its owner user and a first access token (register and the CLI). The email is
 * checked first for a clear refusal; the unique key refuses a concurrent sign-up with the same one.
 */
export async function createBusiness(source: AuthSource, input: NewBusiness): Promise<ProvisionedBusiness> {
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
    const session = await issueToken(trx, source, businessId, userId);
    return { businessId, userId, session };
  });
}

export async function register(source: AuthSource, input: RegisterBody): Promise<AuthSession> {
  if (!source.config.SIGNUP_ENABLED) throw new ApiError('FORBIDDEN', 'Sign-up is disabled on this server');
  const created = await createBusiness(source, {
    name: input.businessName,
    email: input.email,
    password: input.password,
    plan: source.config.DEFAULT_PLAN,
  });
  return created.session;
}

/**
 * Returns null for wrong credentials (the caller counts the failure): an unknown email, a wrong
 * password, or a `businessId` the person is not a member of. A person in several businesses names
 * one (422 on `businessId` with the choices otherwise). Signing in to the sandbox makes the live
 * business's sandbox twin the first time (DESIGN section 12): the same person, a business of its own.
 */
export async function signIn(source: AuthSource, input: SignInBody): Promise<AuthSession | null> {
  const user = await queries.findUserByEmail(source.db, input.email);
  const ok = await verifyPassword(input.password, user?.password_hash ?? DUMMY_PASSWORD_HASH);
  if (!user || !ok) return null;
  const businessId = await chosenBusiness(source, user.id, input.businessId);
  if (businessId === undefined) return null;
  if (input.environment !== 'sandbox') return issueToken(source.db, source, businessId, user.id);
  const sandboxId = await sandboxBusiness(source, businessId);
  return issueToken(source.db, source, sandboxId, user.id, 'sandbox');
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
  const sandboxId = await sandboxBusiness(source, provisioned.businessId);
  return issueToken(source.db, source, sandboxId, provisioned.userId, 'sandbox');
}

/** The live business's sandbox, made with the live business's settings on the first call. */
export async function sandboxBusiness(
  source: Pick<Ctx, 'db' | 'clock'>,
  liveBusinessId: string,
): Promise<string> {
  const id = await settings.sandboxOf(source, liveBusinessId, newId('biz'));
  if (!id) throw notFound('Business');
  return id;
}

/** Revokes the business's access token `tokenId` (the one the caller signed in with). */
export async function logout(ctx: Ctx, tokenId: string): Promise<void> {
  await queries.revokeToken(ctx.db, ctx.businessId, tokenId, ctx.clock.now());
}

/**
 * Resolves a presented secret to its business, or null when it is unknown, revoked or expired.
 * Access tokens and API keys are told apart by their prefix.
 */
export async function resolveCredential(
  source: Pick<Ctx, 'db' | 'clock'>,
  secret: string,
): Promise<AuthInfo | null> {
  if (secret.length > 200) return null;
  const hash = hashSecret(secret);
  if (isApiKey(secret)) {
    const key = await queries.findKeyByHash(source.db, hash);
    if (!key || key.revoked_at) return null;
    const found = await settings.businessAccess({ db: source.db, businessId: key.business_id });
    if (found === undefined) return null;
    const access = { plan: found.plan, environment: found.environment, clockOffsetMs: found.clockOffsetMs };
    const now = source.clock.now();
    if (!key.last_used_at || now.getTime() - key.last_used_at.getTime() > 60_000) {
      // Coarse last-use stamp: at most one write per key per minute.
      await queries.touchKey(source.db, key.id, now);
    }
    return {
      businessId: key.business_id,
      ...access,
      ...(key.scope === 'full' && { role: 'admin' as const }),
      kind: 'apiKey',
      scope: key.scope,
      credentialId: key.id,
    };
  }
  if (!secret.startsWith(TOKEN_PREFIX)) return null;
  const token = await queries.findTokenByHash(source.db, hash);
  if (!token || token.revoked_at || token.expires_at.getTime() <= source.clock.now().getTime()) return null;
  const found = await settings.businessAccess({ db: source.db, businessId: token.business_id });
  if (found === undefined) return null;
  const { teamBusinessId, ...access } = found;
  // A person removed from the team keeps no way in, whatever token they still hold.
  const role = await queries.findRole(source.db, teamBusinessId, token.user_id);
  if (role === undefined) return null;
  return {
    businessId: token.business_id,
    ...access,
    role,
    kind: 'user',
    credentialId: token.id,
    userId: token.user_id,
    expiresAt: token.expires_at,
  };
}

/** The business's context is all a key needs; the CLI passes these parts of one. */
export async function createApiKey(
  ctx: Pick<Ctx, 'db' | 'clock' | 'businessId'>,
  input: CreateApiKeyBody,
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
  });
  return { ...toApiKey(row), key };
}

export async function listApiKeys(ctx: Ctx): Promise<ApiKey[]> {
  return (await queries.listKeys(ctx.db, ctx.businessId)).map(toApiKey);
}

export async function revokeApiKey(ctx: Ctx, id: string): Promise<void> {
  if (!(await queries.revokeKey(ctx.db, ctx.businessId, id, ctx.clock.now()))) throw notFound('API key');
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
  return {
    businessId: business.id,
    businessName: business.name,
    environment: auth.environment,
    credential: auth.kind === 'user' ? 'access_token' : 'api_key',
    user: auth.userId && email ? { id: auth.userId, email } : null,
    role,
    permissions: [...ROLE_PERMISSIONS[role]],
    expiresAt: auth.expiresAt?.toISOString() ?? null,
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
): Promise<AuthSession> {
  if (!auth.userId) throw new ApiError('FORBIDDEN', 'Only a signed-in person switches environment');
  const access = await settings.businessAccess(ctx);
  if (!access) throw notFound('Business');
  const liveId = access.teamBusinessId;
  const target = environment === 'live' ? liveId : await sandboxBusiness(ctx, liveId);
  return issueToken(ctx.db, ctx, target, auth.userId, environment);
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
export async function updateBusiness(ctx: Ctx, input: UpdateBusinessBody): Promise<Business> {
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
