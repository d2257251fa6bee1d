/**
 * The current time, injectable so that time-dependent rules are testable. A business's "today" is
 * not the clock's UTC date: take it from `today(ctx)` in calendar.ts, which reads its time zone.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
