import { LRUCache } from 'lru-cache';
import { slot } from '../platform/state.js';
import type { Deps } from '../platform/deps.js';
import type { AuthInfo } from '../platform/deps.js';
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
