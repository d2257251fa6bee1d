import type { Executor } from './db/database.js';
import { businessAccess } from './settings.js';

/**
 * The current time, injectable so that time-dependent rules are testable. A business's "today" is
 * not the clock's UTC date: take it from `today(ctx)` in calendar.ts, which reads its time zone.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/**
 * A sandbox's test clock (docs/decisions.md D75): `base` moved `offsetMs` ahead. It keeps running with
 * real time; advancing it raises the offset. A zero offset is `base` itself.
 */
export const offsetClock = (base: Clock, offsetMs: number): Clock =>
  offsetMs === 0 ? base : { now: () => new Date(base.now().getTime() + offsetMs) };

/** A clock stopped at `instant`: the time each step of a test-clock advance runs the due rules at. */
export const fixedClock = (instant: Date): Clock => ({ now: () => new Date(instant) });

/**
 * The clock that dates what background work records for a business: real time, plus a sandbox's
 * test-clock offset, read now (an advance may have moved it since the work was queued). The work
 * itself (leases, retries, what is due) stays on real time (docs/decisions.md D77,
 * "What runs on real time"). A business that is gone reads as real time.
 */
export async function businessClock(
  deps: { db: Executor; clock: Clock },
  businessId: string,
): Promise<Clock> {
  const access = await businessAccess({ db: deps.db, businessId });
  return offsetClock(deps.clock, access?.clockOffsetMs ?? 0);
}
