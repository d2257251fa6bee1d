import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { DatabaseHandle } from './db/database.js';

export interface RateLimitOutcome {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

export type LimiterFactory = (name: string, points: number, durationSeconds: number) => RateLimiterAbstract;

/** Memory counters for one process; PostgreSQL counters (the `rate_limits` table) shared by many. */
export function limiterFactory(store: 'memory' | 'postgres', handle: DatabaseHandle): LimiterFactory {
  if (store === 'memory') {
    return (name, points, duration) => new RateLimiterMemory({ keyPrefix: name, points, duration });
  }
  const storeClient =
    handle.kind === 'postgres'
      ? handle.pool
      : {
          // rate-limiter-flexible speaks to a `pg` client; PGlite needs only this much of one.
          query: async (q: { text: string; values?: unknown[] }) => {
            const res = await handle.pglite!.query(q.text, q.values ?? []);
            return { rows: res.rows, rowCount: res.affectedRows ?? res.rows.length };
          },
        };
  return (name, points, duration) =>
    new RateLimiterPostgres({
      storeClient,
      storeType: handle.kind === 'postgres' ? 'pool' : 'client',
      tableName: 'rate_limits',
      tableCreated: true,
      keyPrefix: name,
      points,
      duration,
    });
}

/** Consumes one point; never throws for an exhausted limit, only for a broken store. */
export async function consume(
  limiter: RateLimiterAbstract,
  key: string,
  points = 1,
): Promise<RateLimitOutcome> {
  const limit = limiter.points;
  try {
    const res = await limiter.consume(key, points);
    return {
      allowed: true,
      limit,
      remaining: res.remainingPoints,
      resetSeconds: Math.ceil(res.msBeforeNext / 1000),
    };
  } catch (err) {
    if (err instanceof RateLimiterRes) {
      return {
        allowed: false,
        limit,
        remaining: 0,
        resetSeconds: Math.max(1, Math.ceil(err.msBeforeNext / 1000)),
      };
    }
    throw err;
  }
}

/** Reads a counter without consuming: is the key already over `max`? */
export async function isBlocked(
  limiter: RateLimiterAbstract,
  key: string,
  max: number,
): Promise<RateLimitOutcome | null> {
  const res = await limiter.get(key);
  if (!res || res.consumedPoints < max) return null;
  return {
    allowed: false,
    limit: max,
    remaining: 0,
    resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
  };
}
