import {
  firstPeriodOnOrAfter,
  periodDate,
  periodWithinEnd,
  type ScheduleInterval,
  type ScheduleRule,
} from '../../contract/common/schedule.js';
import { addDays } from './calendar.js';
import { invalid } from './errors.js';

/**
 * What recurring invoices and recurring bills share on the server (docs/decisions.md D251): the checks
 * of a schedule's dates and ends, and where it stands after a change. The dates themselves come from
 * the one rule of contract/common/schedule.ts.
 */

/** A schedule's columns, under either domain's names for how many documents it made (`made`). */
export interface ScheduleState {
  interval: ScheduleInterval;
  interval_count: number;
  start_date: string;
  end_after_count: number | null;
  end_date: string | null;
  next_period: number;
  last_run_on: string | null;
  made: number;
}

export const ruleOf = (
  s: Pick<ScheduleState, 'start_date' | 'interval' | 'interval_count'>,
): ScheduleRule => ({
  anchor: s.start_date,
  interval: s.interval,
  intervalCount: s.interval_count,
});

/** The date of the schedule's next document, or null when it has reached its end. */
export function nextRunOf(s: ScheduleState): string | null {
  if (s.end_after_count !== null && s.made >= s.end_after_count) return null;
  const rule = ruleOf(s);
  if (!periodWithinEnd(rule, s.end_date, s.next_period)) return null;
  return periodDate(rule, s.next_period);
}

/** The date of period `n` of the schedule. */
export const periodOf = (s: ScheduleState, n: number): string => periodDate(ruleOf(s), n);

/**
 * The refusals of a schedule's dates, each naming its field: a start date before the business's
 * today (when one is given), both ends, an end date before the start.
 */
export function checkSchedule(
  input: { start_date?: string; end_date?: string | null; end_after_count?: number | null },
  start: string,
  today: string,
): void {
  if (input.start_date !== undefined && input.start_date < today) {
    throw invalid('start_date', `Must be today (${today}) or later on the business's calendar`);
  }
  if (input.end_date != null && input.end_after_count != null) {
    throw invalid('end_date', 'Give end_after_count or end_date, not both');
  }
  if (input.end_date != null && input.end_date < start) {
    throw invalid('end_date', `Must be on or after start_date (${start})`);
  }
}

/**
 * The first period a schedule whose start or interval changed, or which was resumed, continues
 * with: the first on or after today that is after the last one made (so no period gets a second
 * document, whatever the new rule).
 */
export function periodFrom(s: ScheduleState, today: string): number {
  const after = s.last_run_on !== null ? addDays(s.last_run_on, 1) : today;
  return firstPeriodOnOrAfter(ruleOf(s), after > today ? after : today);
}
