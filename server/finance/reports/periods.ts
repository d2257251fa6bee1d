/**
 * Calendar arithmetic of the reports on `YYYY-MM-DD` dates (computed on UTC midnights, so no zone's
 * daylight saving moves them). Which date is today is the business's: `today(ctx)` in platform/calendar.ts.
 */
import { addDays } from '../../platform/calendar.js';

export { addDays };

const DAY_MS = 86_400_000;

const parse = (date: string) => {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return { y, m, d };
};
const format = (y: number, m: number, d: number) =>
  `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;

export const daysInMonth = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();
export const isLeapYear = (y: number) => daysInMonth(y, 2) === 29;
export const daysInYear = (y: number) => (isLeapYear(y) ? 366 : 365);

/** Days from `from` to `to` (0 for the same day). */
export const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

/** The date `n` calendar months after `date`, the day clamped to the month's length (Jan 31 + 1 = Feb 28/29). */
export function addMonths(date: string, n: number): string {
  const { y, m, d } = parse(date);
  const index = y * 12 + (m - 1) + n;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  return format(year, month, Math.min(d, daysInMonth(year, month)));
}

export const startOfYear = (date: string) => `${date.slice(0, 4)}-01-01`;
export const endOfYear = (date: string) => `${date.slice(0, 4)}-12-31`;

export function startOfQuarter(date: string): string {
  const { y, m } = parse(date);
  return format(y, Math.floor((m - 1) / 3) * 3 + 1, 1);
}

export function endOfQuarter(date: string): string {
  const { y, m } = parse(date);
  const last = Math.floor((m - 1) / 3) * 3 + 3;
  return format(y, last, daysInMonth(y, last));
}

/** The first day of the 12 months ending on `date` (inclusive): 2026-11-23 -> 2025-11-24. */
export const rollingYearStart = (date: string) => addDays(addMonths(date, -12), 1);

/** Day of the year, 1 for 1 January. */
export const dayOfYear = (date: string) => daysBetween(startOfYear(date), date) + 1;

export type GroupBy = 'month' | 'quarter' | 'year';

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

export interface Period {
  /** `YYYY-MM`, `YYYY-Qn` or `YYYY`. */
  key: string;
  label: string;
  start: string;
  end: string;
}

/** The period of `groupBy` that contains `date`. */
export function periodOf(date: string, groupBy: GroupBy): Period {
  const { y, m } = parse(date);
  if (groupBy === 'year')
    return { key: `${y}`, label: `${y}`, start: format(y, 1, 1), end: format(y, 12, 31) };
  if (groupBy === 'quarter') {
    const q = Math.floor((m - 1) / 3) + 1;
    return { key: `${y}-Q${q}`, label: `Q${q} ${y}`, start: startOfQuarter(date), end: endOfQuarter(date) };
  }
  return {
    key: `${y}-${String(m).padStart(2, '0')}`,
    label: `${MONTHS[m - 1]} ${y}`,
    start: format(y, m, 1),
    end: format(y, m, daysInMonth(y, m)),
  };
}

/** Every period of `groupBy` that meets the range, in order. */
export function periodsBetween(start: string, end: string, groupBy: GroupBy): Period[] {
  const periods: Period[] = [];
  for (let p = periodOf(start, groupBy); ; p = periodOf(addDays(p.end, 1), groupBy)) {
    periods.push(p);
    // Stops on the period holding `end`: the day after it may lie beyond 9999-12-31.
    if (p.end >= end) return periods;
  }
}
