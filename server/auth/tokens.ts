import type { AuthSession } from '../../contract/auth/index.js';
import type { Ctx } from '../platform/context.js';
import type { Executor } from '../platform/db/database.js';
import type { Environment } from '../platform/db/types.js';
import { newId } from '../platform/ids.js';
import { notFound } from '../platform/errors.js';
import * as settings from '../platform/settings.js';
import * as queries from './queries.js';
import { TOKEN_PREFIX, hashSecret, newSecret } from './secrets.js';

/**
 * What the unauthenticated operations (sign-up, sign-in, credential resolution, the CLI) need of the
 * context: there is no business yet, so they take these parts of a `Ctx` rather than a whole one.
 */
export type AuthSource = Pick<Ctx, 'db' | 'clock' | 'config'>;

/** Signing in may check a second factor, whose secret is sealed. */
export type SignInSource = AuthSource & Pick<Ctx, 'secrets'>;

/** Where a sign-in came from, kept with its token for the list of sessions. */
export interface SignInClient {
  ip?: string | undefined;
  userAgent?: string | undefined;
}

const USER_AGENT_MAX = 256;

/** What is stored of the client: the user agent cut to 256 characters. */
export const clientColumns = (client: SignInClient | undefined) => ({
  ip: client?.ip ?? null,
  user_agent: client?.userAgent ? client.userAgent.slice(0, USER_AGENT_MAX) : null,
});

/** A new access token of the person to the business, stored only as its hash. */
export async function issueToken(
  db: Executor,
  source: Pick<Ctx, 'clock' | 'config'>,
  businessId: string,
  userId: string,
  environment: Environment = 'live',
  client?: SignInClient,
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
    ...clientColumns(client),
  });
  return {
    businessId,
    accessToken: token,
    tokenType: 'Bearer',
    expiresAt: expiresAt.toISOString(),
    environment,
  };
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

/** A token to the live business or (made on first use) its sandbox. */
export async function issueTokenTo(
  source: Pick<Ctx, 'db' | 'clock' | 'config'>,
  liveBusinessId: string,
  userId: string,
  environment: Environment,
  client?: SignInClient,
): Promise<AuthSession> {
  const businessId =
    environment === 'sandbox' ? await sandboxBusiness(source, liveBusinessId) : liveBusinessId;
  return issueToken(source.db, source, businessId, userId, environment, client);
}
