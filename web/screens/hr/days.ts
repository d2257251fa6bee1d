import { hr } from '../../../client/index.js';

/** Calendar arithmetic of the HR screens, on `YYYY-MM-DD` days in UTC. */

/** `YYYY-MM-DD` as a UTC date (calendar arithmetic without time zones). */
export const utcDate = (value: string) => {
  const [y, m, d] = value.split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1, d));
};
export const isoDay = (at: Date) => at.toISOString().slice(0, 10);

/**
 * Working days (Monday to Friday) from start to end inclusive, counted by the service's own rule
 * (`hr.workingDays`, docs/decisions.md D232); null while either date is missing, the end is before the
 * start or the range is longer than a leave may be: the form then says what to do instead.
 */
export function leaveDays(start: string, end: string): number | null {
  const day = /^\d{4}-\d{2}-\d{2}$/;
  if (!day.test(start) || !day.test(end)) return null;
  const span = hr.dayNumber(end) - hr.dayNumber(start);
  if (Number.isNaN(span) || span < 0 || span > hr.MAX_LEAVE_SPAN_DAYS) return null;
  return hr.workingDays(start, end);
}
