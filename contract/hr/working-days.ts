/**
 * How the service counts a leave's working days: one rule for the server (which stores a leave's
 * `days`), the SDK and the dashboard (which shows the count while the dates are typed). Calendar days
 * in UTC, so no time zone or daylight-saving change moves a day.
 */

const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of a `YYYY-MM-DD` date (NaN for one that is not a date). */
export const dayNumber = (date: string): number => Math.round(Date.parse(`${date}T00:00:00Z`) / DAY_MS);

/**
 * Working days (Monday to Friday) from `start` to `end`, both included; 0 when end is before start.
 * Counted in whole weeks plus the weekdays of the remainder, so a long range costs no more than a short one.
 */
export function workingDays(start: string, end: string): number {
  const first = dayNumber(start);
  const total = dayNumber(end) - first + 1;
  if (total <= 0) return 0;
  // 1970-01-01 was a Thursday: weekday 0 = Monday ... 6 = Sunday.
  const firstWeekday = (((first + 3) % 7) + 7) % 7;
  let days = Math.floor(total / 7) * 5;
  for (let i = 0; i < total % 7; i++) if ((firstWeekday + i) % 7 < 5) days++;
  return days;
}
