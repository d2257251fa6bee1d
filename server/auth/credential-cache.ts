import { LRUCache } from 'lru-cache';
import { slot } from '../platform/state.js';
import type { Deps } from '../platform/deps.js';
import type { AuthInfo } from '../platform/deps.js';
import { resolveCredential } from './service.js';
import { hashSecret } from './secrets.js';

const MAX_ENTRIES = 10_000;

/**
 * Resolved credentials by the hash of their secret, for `CREDENTIAL_CACHE_MS` (default 10 s), so a
 * busy till or dashboard costs no credential query per request. Revoking a key or signing out
 * forgets it here at once; other processes notice within the cache time. Expiry is checked on every
 * use. Unknown secrets and sandbox credentials (their clock may move) are not cached.
 */
class CredentialCache {
  private readonly entries: LRUCache<string, AuthInfo>;

  constructor(ttlMs: number) {
    this.entries = new LRUCache({ max: MAX_ENTRIES, ttl: ttlMs });
  }

  get(hash: string, now: Date): AuthInfo | undefined {
    const auth = this.entries.get(hash);
    if (auth?.expiresAt && auth.expiresAt.getTime() <= now.getTime()) {
      this.entries.delete(hash);
      return undefined;
    }
    return auth;
  }

  set(hash: string, auth: AuthInfo): void {
    this.entries.set(hash, auth);
  }

  forget(credentialId: string): void {
    for (const [hash, auth] of this.entries.entries()) {
      if (auth.credentialId === credentialId) this.entries.delete(hash);
    }
  }
}

/** The service's cache of resolved credentials; none when CREDENTIAL_CACHE_MS is 0. */
const CREDENTIALS = slot('credential cache', (config) =>
  config.CREDENTIAL_CACHE_MS === 0 ? null : new CredentialCache(config.CREDENTIAL_CACHE_MS),
);

const cacheOf = (deps: Deps): CredentialCache | null => deps.state.get(CREDENTIALS);

/** A presented secret's credential, from the cache when it was resolved recently. */
export async function resolveCached(deps: Deps, secret: string): Promise<AuthInfo | null> {
  const cache = cacheOf(deps);
  if (!cache || secret.length > 200) return resolveCredential(deps, secret);
  const hash = hashSecret(secret);
  const cached = cache.get(hash, deps.clock.now());
  if (cached) return cached;
  const auth = await resolveCredential(deps, secret);
  // A sandbox's test clock moves on any process's advance: its credentials are read every time.
  if (auth?.environment === 'live') cache.set(hash, auth);
  return auth;
}

/** Drops a revoked key or signed-out token from this process's cache. */
export function forgetCredential(deps: Deps, credentialId: string): void {
  cacheOf(deps)?.forget(credentialId);
}
