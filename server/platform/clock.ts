/** The current time, injectable so that time-dependent rules are testable. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** `YYYY-MM-DD` of the clock's current UTC day. */
export const today = (clock: Clock): string => clock.now().toISOString().slice(0, 10);
