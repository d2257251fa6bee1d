/**
 * The current time, injectable so that time-dependent rules are testable. A business's "today" is
 * not the clock's UTC date: take it from `today(ctx)` in calendar.ts, which reads its time zone.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/**
 * A sandbox's test clock (DESIGN section 12): `base` moved `offsetMs` ahead. It keeps running with
 * real time; advancing it raises the offset. A zero offset is `base` itself.
 */
export const offsetClock = (base: Clock, offsetMs: number): Clock =>
  offsetMs === 0 ? base : { now: () => new Date(base.now().getTime() + offsetMs) };

/** A clock stopped at `instant`: the time each step of a test-clock advance runs the due rules at. */
export const fixedClock = (instant: Date): Clock => ({ now: () => new Date(instant) });
