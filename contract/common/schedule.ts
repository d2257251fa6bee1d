/**
 * When a recurring invoice or bill falls due: one rule for the server (which issues), the SDK and the
 * dashboard (which previews the next dates). Dates are calendar days written `YYYY-MM-DD`, with no
 * time zone: the caller decides which calendar "today" is read from.
 *
 * Period n (0, 1, 2, ...) is computed from the anchor (the schedule's start date), never from the
 * period before it: a schedule anchored on 31 January falls on 31 Jan, 28 (or 29) Feb, 31 Mar, 30 Apr,
 * the anchor day clamped to the length of each month, and never drifts to the 28th.
 */

export const SCHEDULE_INTERVALS = ['week', 'month', 'quarter', 'year'] as const;
export type ScheduleInterval = (typeof SCHEDULE_INTERVALS)[number];

/** The most periods of one interval a schedule may step over at a time. */
export const MAX_INTERVAL_COUNT = 12;

export interface ScheduleRule {
  /** The first period's date. */
  anchor: string;
  interval: ScheduleInterval;
  /** How many intervals one period spans, 1-12. */
  intervalCount: number;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

interface Ymd {
  year: number;
  month: number; // 1-12
  day: number;
}

function parse(date: string): Ymd {
  const m = DATE.exec(date);
  if (!m) throw new RangeError(`Not a calendar date: ${date}`);
  return { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) };
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');
const format = ({ year, month, day }: Ymd) => `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;

/** Days in a month of a year (February 29 in leap years). */
export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** `date` plus `days` calendar days. */
export function addDays(date: string, days: number): string {
  const { year, month, day } = parse(date);
  const t = new Date(Date.UTC(year, month - 1, day + days));
  return format({ year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate() });
}

/** `date` plus `months` months, its day clamped to the length of the month reached. */
export function addMonths(date: string, months: number): string {
  const { year, month, day } = parse(date);
  const index = year * 12 + (month - 1) + months;
  const y = Math.floor(index / 12);
  const m = index - y * 12 + 1;
  return format({ year: y, month: m, day: Math.min(day, daysInMonth(y, m)) });
}

const MONTHS_PER: Record<Exclude<ScheduleInterval, 'week'>, number> = { month: 1, quarter: 3, year: 12 };

/** The date of period `n` (0 is the anchor itself). */
export function periodDate(rule: ScheduleRule, n: number): string {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`Not a period index: ${n}`);
  const steps = n * rule.intervalCount;
  if (rule.interval === 'week') return addDays(rule.anchor, 7 * steps);
  return addMonths(rule.anchor, MONTHS_PER[rule.interval] * steps);
}

/**
 * The index of the first period dated on or after `date` (0 when `date` is on or before the anchor).
 * Periods only move forward and never share a date, so this is a search over increasing dates.
 */
export function firstPeriodOnOrAfter(rule: ScheduleRule, date: string): number {
  if (date <= rule.anchor) return 0;
  // An estimate from the days between, then a step either way to the exact index.
  const days = (Date.parse(`${date}T00:00:00Z`) - Date.parse(`${rule.anchor}T00:00:00Z`)) / 86_400_000;
  const perPeriod = rule.interval === 'week' ? 7 : 28 * MONTHS_PER[rule.interval];
  let n = Math.max(0, Math.floor(days / (perPeriod * rule.intervalCount)));
  while (n > 0 && periodDate(rule, n - 1) >= date) n -= 1;
  while (periodDate(rule, n) < date) n += 1;
  return n;
}

/**
 * Whether period `n` still falls within the schedule's end date (none: always). The count a schedule
 * may end after is of documents made, not of periods passed (periods skipped while paused make none),
 * so it is the caller's to compare.
 */
export function periodWithinEnd(rule: ScheduleRule, endDate: string | null | undefined, n: number): boolean {
  return endDate == null || periodDate(rule, n) <= endDate;
}

/**
 * The next `count` period dates from period `from` (default 0) on: at most `remaining` of them when
 * the schedule ends after a number of documents (those still to make), none after `endDate`. What the
 * dashboard shows as "the next five dates".
 */
export function nextPeriodDates(
  rule: ScheduleRule,
  count: number,
  options: { from?: number; remaining?: number | null; endDate?: string | null } = {},
): string[] {
  const limit = Math.min(count, options.remaining ?? count);
  const dates: string[] = [];
  for (let n = options.from ?? 0; dates.length < limit; n += 1) {
    if (!periodWithinEnd(rule, options.endDate, n)) break;
    dates.push(periodDate(rule, n));
  }
  return dates;
}
