/**
 * How the service counts a leave's working days: one rule for the server (which stores a leave's
 * `days` and counts balances), the SDK and the dashboard (which shows the count while the dates are
 * typed). Monday to Friday, less the business's public holidays. Calendar days in UTC, so no time
 * zone or daylight-saving change moves a day.
 */

const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of a `YYYY-MM-DD` date (NaN for one that is not a date). */
export const dayNumber = (date: string): number => Math.round(Date.parse(`${date}T00:00:00Z`) / DAY_MS);

/** The `YYYY-MM-DD` date of a day number. */
export const dateOfDay = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** Whether a `YYYY-MM-DD` date is a Monday to Friday. */
export const isWeekday = (date: string): boolean => {
  // 1970-01-01 was a Thursday: weekday 0 = Monday ... 6 = Sunday.
  const weekday = (((dayNumber(date) + 3) % 7) + 7) % 7;
  return weekday < 5;
};

/**
 * Working days from `start` to `end`, both included: Monday to Friday, less each holiday (a
 * `YYYY-MM-DD` date) that falls on one of them in the range; 0 when end is before start. Counted in
 * whole weeks plus the weekdays of the remainder, so a long range costs no more than a short one.
 */
export function workingDays(start: string, end: string, holidays: Iterable<string> = []): number {
  const first = dayNumber(start);
  const last = dayNumber(end);
  const total = last - first + 1;
  if (total <= 0) return 0;
  const firstWeekday = (((first + 3) % 7) + 7) % 7;
  let days = Math.floor(total / 7) * 5;
  for (let i = 0; i < total % 7; i++) if ((firstWeekday + i) % 7 < 5) days++;
  for (const holiday of new Set(holidays)) {
    const day = dayNumber(holiday);
    if (day >= first && day <= last && isWeekday(holiday)) days--;
  }
  return days;
}
