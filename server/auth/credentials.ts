import type { Ctx } from '../platform/context.js';
import type { AuthInfo } from '../platform/deps.js';
import * as settings from '../platform/settings.js';
import * as queries from './queries.js';
import { TOKEN_PREFIX, hashSecret, isApiKey } from './secrets.js';

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
