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

/**
 * Memory counters for one process; PostgreSQL counters (the `rate_limits` table) shared by many, on
 * connections of their own (docs/decisions.md D211, "Rate-limit counters have connections of their own").
 */
export function limiterFactory(store: 'memory' | 'postgres', handle: DatabaseHandle): LimiterFactory {
  if (store === 'memory') {
    return (name, points, duration) => new RateLimiterMemory({ keyPrefix: name, points, duration });
  }
  const storeClient = handle.counterPool;
  // The configuration refuses this store without DATABASE_URL.
  if (!storeClient) throw new Error('RATE_LIMIT_STORE=postgres needs a PostgreSQL database');
  return (name, points, duration) =>
    new RateLimiterPostgres({
      storeClient,
      storeType: 'pool',
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

/** A counter of attempts at a secret: a limiter and the key counted (an address, an email). */
export interface AttemptCounter {
  limiter: RateLimiterAbstract;
  key: string;
}

/** One attempt counted on its counters before the secret it guards was checked. */
export interface Reservation {
  /** Gives the attempt back: the secret was right, or was not checked for another reason. */
  refund(): Promise<void>;
}

export type Reserved =
  { allowed: true; reservation: Reservation } | { allowed: false; outcome: RateLimitOutcome };

/**
 * Counts one attempt on every counter, each by one atomic increment in the store, BEFORE the secret
 * is checked: of any number of concurrent attempts, at most `max` per counter and window get
 * through, and one refused is never checked (it stays counted, so hammering does not reopen the
 * window). The caller refunds the attempts that turn out not to be failures (docs/decisions.md D210,
 * "Attempts at a secret are counted before they are checked").
 */
export async function reserveAttempt(counters: readonly AttemptCounter[], max: number): Promise<Reserved> {
  const counted = await Promise.all(
    counters.map(async (counter) => ({
      counter,
      res: await counter.limiter.penalty(counter.key, 1),
      at: Date.now(),
    })),
  );
  const over = counted.find(({ res }) => res.consumedPoints > max);
  if (over) {
    return {
      allowed: false,
      outcome: {
        allowed: false,
        limit: max,
        remaining: 0,
        resetSeconds: Math.max(1, Math.ceil(over.res.msBeforeNext / 1000)),
      },
    };
  }
  let refunded = false;
  const refund = async () => {
    if (refunded) return;
    refunded = true;
    await Promise.all(
      counted.map(async ({ counter, res, at }) => {
        // A window that ended meanwhile forgot the attempt already: giving it back there would
        // start the next window below zero.
        if (Date.now() < at + res.msBeforeNext) await counter.limiter.reward(counter.key, 1);
      }),
    );
  };
  return { allowed: true, reservation: { refund } };
}
