import type {
  ApiKey,
  ApiKeyScope,
  AuthSession,
  CreateApiKeyBody,
  CreatedApiKey,
  RegisterBody,
  SignInBody,
} from '../../contract/auth/schemas.js';
import type { Clock } from '../platform/clock.js';
import { newId } from '../platform/ids.js';
import { inTransaction, type Executor } from '../platform/db/database.js';
import { ApiError, conflict, notFound } from '../platform/errors.js';
import { toApiKey } from './mappers.js';
import * as queries from './queries.js';
import {
  DUMMY_PASSWORD_HASH,
  KEY_PREFIXES,
  TOKEN_PREFIX,
  hashPassword,
  hashSecret,
  isApiKey,
  newSecret,
  verifyPassword,
} from './secrets.js';

/** Who is calling, resolved from the presented credential. */
export interface AuthInfo {
  businessId: string;
  plan: string;
  kind: 'user' | 'apiKey';
  scope?: ApiKeyScope;
  /** Access token id or API key id. */
  credentialId: string;
  /** When an access token expires (API keys do not). */
  expiresAt?: Date;
}

export interface AuthSettings {
  signupEnabled: boolean;
  defaultPlan: string;
  tokenTtlSeconds: number;
}

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

async function issueToken(
  db: Executor,
  clock: Clock,
  ttlSeconds: number,
  businessId: string,
  userId: string,
): Promise<AuthSession> {
  const token = newSecret(TOKEN_PREFIX);
  const expiresAt = new Date(clock.now().getTime() + ttlSeconds * 1000);
  await db
    .insertInto('access_tokens')
    .values({
      id: newId('tok'),
      business_id: businessId,
      user_id: userId,
      token_hash: hashSecret(token),
      expires_at: expiresAt,
      revoked_at: null,
      created_at: clock.now(),
    })
    .execute();
  return { businessId, accessToken: token, tokenType: 'Bearer', expiresAt: expiresAt.toISOString() };
}

/** Creates a business, its owner user and a first access token (register and the CLI). */
export async function createBusiness(
  db: Executor,
  clock: Clock,
  ttlSeconds: number,
  input: NewBusiness,
): Promise<ProvisionedBusiness> {
  const passwordHash = await hashPassword(input.password);
  return inTransaction(db, async (trx) => {
    const taken = await queries.findUserByEmail(trx, input.email);
    if (taken) throw conflict('An account with this email already exists');
    const businessId = newId('biz');
    const userId = newId('usr');
    const now = clock.now();
    await trx
      .insertInto('businesses')
      .values({
        id: businessId,
        name: input.name,
        email: input.email.toLowerCase(),
        plan: input.plan,
        created_at: now,
      })
      .execute();
    try {
      await trx
        .insertInto('users')
        .values({
          id: userId,
          business_id: businessId,
          email: input.email.toLowerCase(),
          password_hash: passwordHash,
          created_at: now,
        })
        .execute();
    } catch (err) {
      if ((err as { code?: string }).code === '23505')
        throw conflict('An account with this email already exists');
      throw err;
    }
    const session = await issueToken(trx, clock, ttlSeconds, businessId, userId);
    return { businessId, userId, session };
  });
}

export async function register(
  db: Executor,
  clock: Clock,
  settings: AuthSettings,
  input: RegisterBody,
): Promise<AuthSession> {
  if (!settings.signupEnabled) throw new ApiError('FORBIDDEN', 'Sign-up is disabled on this server');
  const created = await createBusiness(db, clock, settings.tokenTtlSeconds, {
    name: input.businessName,
    email: input.email,
    password: input.password,
    plan: settings.defaultPlan,
  });
  return created.session;
}

/** Returns null for wrong credentials (the caller counts the failure). */
export async function signIn(
  db: Executor,
  clock: Clock,
  settings: AuthSettings,
  input: SignInBody,
): Promise<AuthSession | null> {
  const user = await queries.findUserByEmail(db, input.email);
  const ok = await verifyPassword(input.password, user?.password_hash ?? DUMMY_PASSWORD_HASH);
  if (!user || !ok) return null;
  return issueToken(db, clock, settings.tokenTtlSeconds, user.business_id, user.id);
}

export async function logout(db: Executor, clock: Clock, auth: AuthInfo): Promise<void> {
  await db
    .updateTable('access_tokens')
    .set({ revoked_at: clock.now() })
    .where('business_id', '=', auth.businessId)
    .where('id', '=', auth.credentialId)
    .where('revoked_at', 'is', null)
    .execute();
}

/**
 * Resolves a presented secret to its business, or null when it is unknown, revoked or expired.
 * Access tokens and API keys are told apart by their prefix.
 */
export async function resolveCredential(
  db: Executor,
  clock: Clock,
  secret: string,
): Promise<AuthInfo | null> {
  if (secret.length > 200) return null;
  const hash = hashSecret(secret);
  if (isApiKey(secret)) {
    const key = await queries.findKeyByHash(db, hash);
    if (!key || key.revoked_at) return null;
    const now = clock.now();
    if (!key.last_used_at || now.getTime() - key.last_used_at.getTime() > 60_000) {
      // Coarse last-use stamp: at most one write per key per minute.
      await db.updateTable('api_keys').set({ last_used_at: now }).where('id', '=', key.id).execute();
    }
    return {
      businessId: key.business_id,
      plan: key.plan,
      kind: 'apiKey',
      scope: key.scope,
      credentialId: key.id,
    };
  }
  if (!secret.startsWith(TOKEN_PREFIX)) return null;
  const token = await queries.findTokenByHash(db, hash);
  if (!token || token.revoked_at || token.expires_at.getTime() <= clock.now().getTime()) return null;
  return {
    businessId: token.business_id,
    plan: token.plan,
    kind: 'user',
    credentialId: token.id,
    expiresAt: token.expires_at,
  };
}

export async function createApiKey(
  db: Executor,
  clock: Clock,
  businessId: string,
  input: CreateApiKeyBody,
): Promise<CreatedApiKey> {
  const scope = input.scope ?? 'public_loyalty';
  const key = newSecret(KEY_PREFIXES[scope]);
  const row = await db
    .insertInto('api_keys')
    .values({
      id: newId('key'),
      business_id: businessId,
      name: input.name,
      scope,
      prefix: key.slice(0, 11),
      key_hash: hashSecret(key),
      created_at: clock.now(),
      last_used_at: null,
      revoked_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { ...toApiKey(row), key };
}

export async function listApiKeys(db: Executor, businessId: string): Promise<ApiKey[]> {
  return (await queries.listKeys(db, businessId)).map(toApiKey);
}

export async function revokeApiKey(
  db: Executor,
  clock: Clock,
  businessId: string,
  id: string,
): Promise<void> {
  const res = await db
    .updateTable('api_keys')
    .set({ revoked_at: clock.now() })
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) === 0) throw notFound('API key');
}
