import { describe, expect, it } from 'vitest';
import { isoDay, leaveDays, utcDate } from '../../web/screens/hr/days.js';

/** The leave form's working days: the service's count, or none while the dates cannot make a leave. */

describe('leaveDays', () => {
  it('counts as the service does: weekdays only, both ends included', () => {
    expect(leaveDays('2026-11-27', '2026-11-30')).toBe(2);
    expect(leaveDays('2026-11-25', '2026-11-25')).toBe(1);
    expect(leaveDays('2026-11-28', '2026-11-29')).toBe(0);
  });

  it('leaves out the public holidays on weekdays of the range, and only those', () => {
    // Christmas 2026 is a Friday, 26 December a Saturday; 1 January 2027 is outside the range.
    const holidays = ['2026-12-25', '2026-12-26', '2027-01-01'];
    expect(leaveDays('2026-12-21', '2026-12-31', holidays)).toBe(8);
    expect(leaveDays('2026-12-21', '2026-12-31')).toBe(9);
  });

  it('shows no count while a date is missing or the end is before the start', () => {
    expect(leaveDays('', '2026-11-30')).toBeNull();
    expect(leaveDays('2026-11-30', '2026-11')).toBeNull();
    expect(leaveDays('2026-11-30', '2026-11-27')).toBeNull();
  });

  it('shows no count for a range longer than a leave may be (1096 days)', () => {
    expect(leaveDays('2026-01-01', '2029-01-01')).toBe(783);
    expect(leaveDays('2026-01-01', '2029-01-02')).toBeNull();
  });
});

describe('calendar days', () => {
  it('reads and writes a day in UTC', () => {
    expect(isoDay(utcDate('2026-02-28'))).toBe('2026-02-28');
    expect(isoDay(utcDate('2026-02-29'))).toBe('2026-03-01');
  });
});
