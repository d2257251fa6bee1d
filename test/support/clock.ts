import type { Clock } from '../../server/platform/clock.js';

/** A clock tests can set and move; it follows real time until set. */
export class TestClock implements Clock {
  private offsetMs = 0;
  private frozen?: number;

  now(): Date {
    return new Date(this.frozen ?? Date.now() + this.offsetMs);
  }

  /** Freezes the clock at `iso`. */
  set(iso: string): void {
    this.frozen = new Date(iso).getTime();
  }

  advance(ms: number): void {
    if (this.frozen !== undefined) this.frozen += ms;
    else this.offsetMs += ms;
  }

  reset(): void {
    this.frozen = undefined;
    this.offsetMs = 0;
  }
}
