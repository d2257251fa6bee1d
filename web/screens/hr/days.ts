import { hr } from '../../../client/index.js';

/** Calendar arithmetic of the HR screens, on `YYYY-MM-DD` days in UTC. */

/** `YYYY-MM-DD` as a UTC date (calendar arithmetic without time zones). */
export const utcDate = (value: string) => {
  const [y, m, d] = value.split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1, d));
};
export const isoDay = (at: Date) => at.toISOString().slice(0, 10);

/**
 * Whether start and end (`YYYY-MM-DD`) make a range one leave may cover: both dates, the end on or
 * after the start, no longer than a leave may be.
 */
export function leaveRange(start: string, end: string): boolean {
  const day = /^\d{4}-\d{2}-\d{2}$/;
  if (!day.test(start) || !day.test(end)) return false;
  const span = hr.dayNumber(end) - hr.dayNumber(start);
  return !Number.isNaN(span) && span >= 0 && span <= hr.MAX_LEAVE_SPAN_DAYS;
}

/**
 * Working days from start to end inclusive, counted by the service's own rule (`hr.workingDays`,
 * docs/decisions.md D232): Monday to Friday less the public `holidays` (`YYYY-MM-DD`) among them;
 * null while the range is not one a leave may cover (`leaveRange`): the form then says what to do instead.
 */
export function leaveDays(start: string, end: string, holidays: Iterable<string> = []): number | null {
  return leaveRange(start, end) ? hr.workingDays(start, end, holidays) : null;
}

/** Whether a `YYYY-MM-DD` day is a Saturday or Sunday. */
export const isWeekend = (day: string) => !hr.isWeekday(day);

const dayCount = new Intl.NumberFormat();
/** A number of days (two decimals at most) in words, in the locale: `1 day`, `12.5 days`, `-2 days`. */
export const daysText = (days: number) => `${dayCount.format(days)} day${days === 1 ? '' : 's'}`;
