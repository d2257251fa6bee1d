import { LRUCache } from 'lru-cache';
import type { Ctx } from '../../platform/context.js';
import { slot } from '../../platform/state.js';

/**
 * Counting every match of a broad member search is the slow part of a list at 100,000 members (a
 * term in a fifth of the names costs 10-20 ms to count exactly, however small the page). Counts of
 * 1,000 or more are therefore kept for a few seconds per filter; smaller counts are always exact.
 * This service forgets a business's counts as soon as it changes who is a member, their status or
 * their tier; other processes (and a customer's rename) catch up within COUNT_TTL_MS.
 */
const CACHED_FROM = 1000;
const COUNT_TTL_MS = 10_000;

/** The counts one service keeps, and a generation per business that a change raises. */
const MEMBER_COUNTS = slot('loyalty member counts', () => ({
  counts: new LRUCache<string, number>({ max: 5000, ttl: COUNT_TTL_MS }),
  generations: new Map<string, number>(),
}));

/** The member count for a filter: cached when large, else counted. */
export async function countMembers(
  ctx: Pick<Ctx, 'businessId' | 'state'>,
  filter: string,
  count: () => Promise<number>,
): Promise<number> {
  const { counts, generations } = ctx.state.get(MEMBER_COUNTS);
  const key = `${ctx.businessId}\u0000${generations.get(ctx.businessId) ?? 0}\u0000${filter}`;
  const cached = counts.get(key);
  if (cached !== undefined) return cached;
  const n = await count();
  if (n >= CACHED_FROM) counts.set(key, n);
  return n;
}

/** Called by every change to a business's members that lists filter on. */
export function membersChanged(ctx: Pick<Ctx, 'businessId' | 'state'>): void {
  const { generations } = ctx.state.get(MEMBER_COUNTS);
  generations.set(ctx.businessId, (generations.get(ctx.businessId) ?? 0) + 1);
}
