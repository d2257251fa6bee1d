import { LRUCache } from 'lru-cache';

/**
 * Counting every match of a broad member search is the slow part of a list at 100,000 members (a
 * term in a fifth of the names costs 10-20 ms to count exactly, however small the page). Counts of
 * 1,000 or more are therefore kept for a few seconds per filter; smaller counts are always exact.
 * This process forgets a business's counts as soon as it changes who is a member, their status or
 * their tier; other processes (and a customer's rename) catch up within COUNT_TTL_MS.
 */
const CACHED_FROM = 1000;
const COUNT_TTL_MS = 10_000;

const counts = new LRUCache<string, number>({ max: 5000, ttl: COUNT_TTL_MS });
const generations = new Map<string, number>();

const keyOf = (businessId: string, filter: string) =>
  `${businessId}\u0000${generations.get(businessId) ?? 0}\u0000${filter}`;

/** The member count for a filter: cached when large, else counted. */
export async function countMembers(
  businessId: string,
  filter: string,
  count: () => Promise<number>,
): Promise<number> {
  const key = keyOf(businessId, filter);
  const cached = counts.get(key);
  if (cached !== undefined) return cached;
  const n = await count();
  if (n >= CACHED_FROM) counts.set(key, n);
  return n;
}

/** Called by every change to a business's members that lists filter on. */
export function membersChanged(businessId: string): void {
  generations.set(businessId, (generations.get(businessId) ?? 0) + 1);
}
