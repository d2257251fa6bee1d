import { describe, expect, it } from 'vitest';
import {
  addDays,
  addMonths,
  daysInMonth,
  firstPeriodOnOrAfter,
  nextPeriodDates,
  periodDate,
  periodWithinEnd,
  type ScheduleRule,
} from '../../contract/common/schedule.js';

/**
 * The schedule rule recurring invoices and bills share with the dashboard's preview
 * (contract/common/schedule.ts): each period computed from the anchor, its day clamped to short months.
 */

const monthly = (anchor: string, intervalCount = 1): ScheduleRule => ({
  anchor,
  interval: 'month',
  intervalCount,
});

describe('calendar arithmetic', () => {
  it('knows the length of every month, February in leap years included', () => {
    expect(daysInMonth(2027, 1)).toBe(31);
    expect(daysInMonth(2027, 2)).toBe(28);
    expect(daysInMonth(2028, 2)).toBe(29);
    expect(daysInMonth(2100, 2)).toBe(28);
    expect(daysInMonth(2000, 2)).toBe(29);
    expect(daysInMonth(2027, 4)).toBe(30);
  });

  it('adds days across months and years', () => {
    expect(addDays('2026-12-25', 7)).toBe('2027-01-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2027-03-01', -1)).toBe('2027-02-28');
  });

  it('adds months with the day clamped to the month reached', () => {
    expect(addMonths('2027-01-31', 1)).toBe('2027-02-28');
    expect(addMonths('2028-01-31', 1)).toBe('2028-02-29');
    expect(addMonths('2027-01-31', 3)).toBe('2027-04-30');
    expect(addMonths('2026-11-30', 3)).toBe('2027-02-28');
    expect(addMonths('2026-12-15', 1)).toBe('2027-01-15');
    expect(addMonths('2026-12-15', 25)).toBe('2029-01-15');
  });

  it('refuses what is not a calendar date', () => {
    expect(() => addDays('2027-1-1', 1)).toThrow(RangeError);
  });
});

describe('periodDate', () => {
  it('keeps the anchor day of 31 January through a year of months, clamped to short months', () => {
    const dates = Array.from({ length: 12 }, (_, n) => periodDate(monthly('2027-01-31'), n));
    expect(dates).toEqual([
      '2027-01-31',
      '2027-02-28',
      '2027-03-31',
      '2027-04-30',
      '2027-05-31',
      '2027-06-30',
      '2027-07-31',
      '2027-08-31',
      '2027-09-30',
      '2027-10-31',
      '2027-11-30',
      '2027-12-31',
    ]);
  });

  it('gives 29 February in a leap year and goes back to the 31st after it', () => {
    expect(periodDate(monthly('2028-01-31'), 1)).toBe('2028-02-29');
    expect(periodDate(monthly('2028-01-31'), 2)).toBe('2028-03-31');
  });

  it('steps weeks, quarters and years by the interval count', () => {
    expect(periodDate({ anchor: '2026-12-01', interval: 'week', intervalCount: 2 }, 3)).toBe('2027-01-12');
    expect(periodDate({ anchor: '2026-11-30', interval: 'quarter', intervalCount: 1 }, 1)).toBe('2027-02-28');
    expect(periodDate({ anchor: '2026-11-30', interval: 'quarter', intervalCount: 1 }, 2)).toBe('2027-05-30');
    expect(periodDate({ anchor: '2028-02-29', interval: 'year', intervalCount: 1 }, 1)).toBe('2029-02-28');
    expect(periodDate({ anchor: '2028-02-29', interval: 'year', intervalCount: 4 }, 1)).toBe('2032-02-29');
    expect(periodDate(monthly('2027-01-31', 12), 2)).toBe('2029-01-31');
  });

  it('gives the anchor for period 0 and refuses a negative or fractional period', () => {
    expect(periodDate(monthly('2027-01-31'), 0)).toBe('2027-01-31');
    expect(() => periodDate(monthly('2027-01-31'), -1)).toThrow(RangeError);
    expect(() => periodDate(monthly('2027-01-31'), 1.5)).toThrow(RangeError);
  });
});

describe('firstPeriodOnOrAfter', () => {
  it('is 0 on or before the anchor', () => {
    expect(firstPeriodOnOrAfter(monthly('2027-01-31'), '2026-01-01')).toBe(0);
    expect(firstPeriodOnOrAfter(monthly('2027-01-31'), '2027-01-31')).toBe(0);
  });

  it('finds the period falling on the date, or the first after it', () => {
    const rule = monthly('2027-01-31');
    expect(firstPeriodOnOrAfter(rule, '2027-02-28')).toBe(1);
    expect(firstPeriodOnOrAfter(rule, '2027-03-01')).toBe(2);
    expect(firstPeriodOnOrAfter(rule, '2027-04-30')).toBe(3);
    expect(firstPeriodOnOrAfter(rule, '2037-05-01')).toBe(124);
  });

  it('agrees with a walk over the periods for every interval', () => {
    const rules: ScheduleRule[] = [
      { anchor: '2026-12-31', interval: 'week', intervalCount: 3 },
      { anchor: '2026-12-31', interval: 'month', intervalCount: 5 },
      { anchor: '2026-12-31', interval: 'quarter', intervalCount: 2 },
      { anchor: '2028-02-29', interval: 'year', intervalCount: 1 },
    ];
    for (const rule of rules) {
      for (let day = 0; day < 1500; day += 37) {
        const date = addDays(rule.anchor, day);
        let n = 0;
        while (periodDate(rule, n) < date) n += 1;
        expect(firstPeriodOnOrAfter(rule, date)).toBe(n);
      }
    }
  });
});

describe('the end of a schedule', () => {
  it('keeps periods up to the end date and none after', () => {
    const rule = monthly('2027-01-31');
    expect(periodWithinEnd(rule, '2027-02-28', 1)).toBe(true);
    expect(periodWithinEnd(rule, '2027-02-27', 1)).toBe(false);
    expect(periodWithinEnd(rule, null, 500)).toBe(true);
  });

  it('previews the next dates, stopping at the end date or the documents left', () => {
    const rule = monthly('2027-01-31');
    expect(nextPeriodDates(rule, 5)).toEqual([
      '2027-01-31',
      '2027-02-28',
      '2027-03-31',
      '2027-04-30',
      '2027-05-31',
    ]);
    expect(nextPeriodDates(rule, 5, { from: 2, remaining: 2 })).toEqual(['2027-03-31', '2027-04-30']);
    expect(nextPeriodDates(rule, 5, { endDate: '2027-03-30' })).toEqual(['2027-01-31', '2027-02-28']);
    expect(nextPeriodDates(rule, 5, { remaining: 0 })).toEqual([]);
  });
});
