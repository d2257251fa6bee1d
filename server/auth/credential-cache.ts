import { LRUCache } from 'lru-cache';
import { ApiError } from '../platform/errors.js';
import { slot } from '../platform/state.js';
import type { Deps } from '../platform/deps.js';
import type { AccessConfirmation, AuthInfo } from '../platform/deps.js';
import * as settings from '../platform/settings.js';
import { resolveWithGeneration, type ResolvedCredential } from './credentials.js';
import { hashSecret } from './secrets.js';

const MAX_ENTRIES = 10_000;

/**
 * Resolved credentials by the hash of their secret, for `CREDENTIAL_CACHE_MS` (default 10 s), each
 * with the access generation of its business it was resolved under. A hit costs one read of that
 * generation by primary key instead of the credential's lookup; when a change restricting access
 * (server/auth/access.ts) has raised it since, in this process or any other, the credential is
 * resolved again, so the change applies to the next request everywhere (docs/decisions.md D221,
 * "Access changes reach every process"). Expiry is checked on every use. Unknown secrets and sandbox
 * credentials (their clock may move) are not cached.
 */
class CredentialCache {
  private readonly entries: LRUCache<string, ResolvedCredential>;

  constructor(ttlMs: number) {
    this.entries = new LRUCache({ max: MAX_ENTRIES, ttl: ttlMs });
  }

  get(hash: string, now: Date): ResolvedCredential | undefined {
    const entry = this.entries.get(hash);
    if (entry?.auth.expiresAt && entry.auth.expiresAt.getTime() <= now.getTime()) {
      this.entries.delete(hash);
      return undefined;
    }
    return entry;
  }

  set(hash: string, entry: ResolvedCredential): void {
    this.entries.set(hash, entry);
  }

  delete(hash: string): void {
    this.entries.delete(hash);
  }

  forget(credentialId: string): void {
    for (const [hash, entry] of this.entries.entries()) {
      if (entry.auth.credentialId === credentialId) this.entries.delete(hash);
    }
  }
}

/** The service's cache of resolved credentials; none when CREDENTIAL_CACHE_MS is 0. */
const CREDENTIALS = slot('credential cache', (config) =>
  config.CREDENTIAL_CACHE_MS === 0 ? null : new CredentialCache(config.CREDENTIAL_CACHE_MS),
);

const cacheOf = (deps: Deps): CredentialCache | null => deps.state.get(CREDENTIALS);

/**
 * A presented secret's credential: from the cache when it was resolved recently and its business's
 * access generation has not moved since, else resolved afresh.
 */
export async function resolveCached(deps: Deps, secret: string): Promise<AuthInfo | null> {
  const cache = cacheOf(deps);
  if (!cache || secret.length > 200) return (await resolveWithGeneration(deps, secret))?.auth ?? null;
  const hash = hashSecret(secret);
  const cached = cache.get(hash, deps.clock.now());
  if (cached) {
    const generation = await settings.accessGeneration({ db: deps.db, businessId: cached.auth.businessId });
    if (generation === cached.generation) return cached.auth;
    cache.delete(hash);
  }
  const resolved = await resolveWithGeneration(deps, secret);
  // A sandbox's test clock moves on any process's advance: its credentials are read every time.
  if (resolved?.auth.environment === 'live') cache.set(hash, resolved);
  return resolved?.auth ?? null;
}

/** Drops a revoked key or signed-out token from this process's cache. */
export function forgetCredential(deps: Deps, credentialId: string): void {
  cacheOf(deps)?.forget(credentialId);
}

/**
 * As resolveCached, for a route that reads its business's access generation in its own first
 * statement (the public earn): a hit is answered without that read, together with the confirmation
 * the route must pass the generation it read to before it writes anything. When the generation has
 * moved, the credential is resolved again, and a credential no longer valid is refused there with the
 * 401 it would have had here (docs/decisions.md D234). A miss resolves as resolveCached does and
 * needs no confirmation.
 */
export async function resolveCachedToConfirm(
  deps: Deps,
  secret: string,
): Promise<{ auth: AuthInfo | null; confirm?: AccessConfirmation }> {
  const cache = cacheOf(deps);
  const hash = cache && secret.length <= 200 ? hashSecret(secret) : undefined;
  const cached = hash === undefined ? undefined : cache!.get(hash, deps.clock.now());
  if (!cached) return { auth: await resolveCached(deps, secret) };
  const confirm: AccessConfirmation = async (generation) => {
    if (generation === cached.generation) return;
    cache!.delete(hash!);
    const resolved = await resolveWithGeneration(deps, secret);
    if (!resolved || resolved.auth.credentialId !== cached.auth.credentialId) {
      throw new ApiError('UNAUTHORIZED', 'Invalid or expired API key', undefined, {
        'WWW-Authenticate': 'ApiKey header="X-Api-Key"',
      });
    }
    if (resolved.auth.environment === 'live') cache!.set(hash!, resolved);
  };
  return { auth: cached.auth, confirm };
}
