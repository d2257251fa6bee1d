import { describe, expect, it } from 'vitest';
import { dayNumber, workingDays } from '../../contract/hr/working-days.js';

/** How a leave's working days are counted (contract/hr/working-days.ts), by the server and the dashboard. */

describe('workingDays', () => {
  it('counts one day for a weekday leave that starts and ends the same day', () => {
    expect(workingDays('2026-11-25', '2026-11-25')).toBe(1); // Wednesday
  });

  it('counts no day for a Saturday alone, a Sunday alone or a whole weekend', () => {
    expect(workingDays('2026-11-28', '2026-11-28')).toBe(0);
    expect(workingDays('2026-11-29', '2026-11-29')).toBe(0);
    expect(workingDays('2026-11-28', '2026-11-29')).toBe(0);
  });

  it('leaves the weekend out of a range across it', () => {
    expect(workingDays('2026-11-27', '2026-11-30')).toBe(2); // Friday to Monday
    expect(workingDays('2026-11-23', '2026-12-06')).toBe(10); // two whole weeks
    expect(workingDays('2026-11-26', '2026-12-08')).toBe(9); // Thursday to the Tuesday after next
  });

  it('crosses month and year ends and a leap day', () => {
    expect(workingDays('2026-11-30', '2026-12-01')).toBe(2); // Monday, Tuesday
    expect(workingDays('2026-12-31', '2027-01-04')).toBe(3); // Thursday to Monday
    expect(workingDays('2028-02-28', '2028-03-01')).toBe(3); // Monday, leap day, Wednesday
  });

  it('counts a long range as its weeks plus its remaining weekdays', () => {
    expect(workingDays('2026-01-01', '2026-12-31')).toBe(261);
    expect(workingDays('2024-01-01', '2024-12-31')).toBe(262);
  });

  it('is 0 when the end is before the start', () => {
    expect(workingDays('2026-11-30', '2026-11-27')).toBe(0);
  });

  it('numbers days from 1970-01-01 in UTC', () => {
    expect(dayNumber('1970-01-01')).toBe(0);
    expect(dayNumber('2026-11-28') - dayNumber('2026-11-01')).toBe(27);
    expect(Number.isNaN(dayNumber('not a date'))).toBe(true);
  });
});
