import { currencyExponent } from '../../contract/common/currencies.js';
import type { DEFAULT_LEAVE_TYPES } from '../../contract/hr/index.js';
import { addDays, today } from '../platform/calendar.js';
import type { DemoSeed } from '../platform/module.js';
import { baseCurrency } from '../platform/settings.js';
import { createDepartment, updateDepartment } from './departments/service.js';
import { createEmployee } from './employees/service.js';
import { createHoliday } from './holidays/service.js';
import { listLeaveTypes, updateLeaveType } from './leave-types/service.js';
import { createLeave, updateLeave } from './leaves/service.js';

/**
 * HR's part of the demo business (`POST /v1/sandbox/reset {"seed": true}`): four departments with
 * their heads, ten employees hired over the past years, and leave requests over the last 18 months,
 * mostly approved, some pending, rejected or cancelled. Leaves are spread so that no two of one
 * employee overlap (the service refuses that), each requested and decided at the time it was.
 */

const DAY = 86_400_000;

interface DemoEmployee {
  first_name: string;
  last_name: string;
  position: string;
  department: number;
  /** Heads the department. */
  head?: boolean;
  /** Days before the sandbox's today the employee was hired. */
  hiredDaysAgo: number;
  /** Monthly salary in hundredths of the currency's major unit; see `salaryIn`. */
  cents: number;
  phone?: string;
}

const DEPARTMENTS = ['Roastery', 'Sales', 'Customer care', 'Finance and admin'];

const EMPLOYEES: DemoEmployee[] = [
  {
    first_name: 'Maya',
    last_name: 'Okafor',
    position: 'Head roaster',
    department: 0,
    head: true,
    hiredDaysAgo: 2350,
    cents: 420000,
    phone: '+44 7700 900111',
  },
  {
    first_name: 'Tomás',
    last_name: 'Reyes',
    position: 'Roaster',
    department: 0,
    hiredDaysAgo: 1480,
    cents: 310000,
  },
  {
    first_name: 'Priya',
    last_name: 'Natarajan',
    position: 'Quality and cupping lead',
    department: 0,
    hiredDaysAgo: 1020,
    cents: 345000,
  },
  {
    first_name: 'Jonas',
    last_name: 'Berg',
    position: 'Packing and logistics',
    department: 0,
    hiredDaysAgo: 700,
    cents: 265000,
  },
  {
    first_name: 'Elena',
    last_name: 'Rossi',
    position: 'Head of sales',
    department: 1,
    head: true,
    hiredDaysAgo: 1900,
    cents: 450000,
    phone: '+44 7700 900222',
  },
  {
    first_name: 'Daniel',
    last_name: 'Kim',
    position: 'Account manager',
    department: 1,
    hiredDaysAgo: 1210,
    cents: 330000,
  },
  {
    first_name: 'Sofia',
    last_name: 'Alvarez',
    position: 'Account manager',
    department: 1,
    hiredDaysAgo: 280,
    cents: 315000,
  },
  {
    first_name: 'Liam',
    last_name: "O'Connor",
    position: 'Customer care lead',
    department: 2,
    head: true,
    hiredDaysAgo: 1600,
    cents: 340000,
  },
  {
    first_name: 'Aisha',
    last_name: 'Rahman',
    position: 'Barista trainer',
    department: 2,
    hiredDaysAgo: 860,
    cents: 295000,
  },
  {
    first_name: 'Hannah',
    last_name: 'Schmidt',
    position: 'Finance manager',
    department: 3,
    head: true,
    hiredDaysAgo: 2100,
    cents: 440000,
    phone: '+44 7700 900333',
  },
];

type LeaveType = (typeof DEFAULT_LEAVE_TYPES)[number];

interface DemoLeave {
  type: LeaveType;
  /** Working days it covers, from a Monday (annual) or any weekday (sick, other). */
  days: number;
  status: 'approved' | 'rejected' | 'cancelled' | 'pending';
  reason: string;
  statusReason?: string;
}

/** The leaves of the past, oldest first, one every five weeks or so; then two requests still to decide. */
const PAST_LEAVES: DemoLeave[] = [
  { type: 'annual', days: 5, status: 'approved', reason: 'Family holiday' },
  { type: 'sick', days: 2, status: 'approved', reason: 'Flu' },
  { type: 'annual', days: 10, status: 'approved', reason: 'Summer holiday' },
  {
    type: 'annual',
    days: 5,
    status: 'rejected',
    reason: 'Long weekend away',
    statusReason: 'Peak season: two of the team are already off that week',
  },
  { type: 'annual', days: 5, status: 'approved', reason: 'Visiting family' },
  { type: 'other', days: 1, status: 'approved', reason: 'Moving house' },
  {
    type: 'annual',
    days: 3,
    status: 'cancelled',
    reason: 'Short break',
    statusReason: 'Plans changed',
  },
  { type: 'sick', days: 3, status: 'approved', reason: 'Back strain' },
  { type: 'annual', days: 10, status: 'approved', reason: 'Wedding and honeymoon' },
  {
    type: 'unpaid',
    days: 5,
    status: 'rejected',
    reason: 'Extra week after annual leave',
    statusReason: 'Annual leave already covers the period; please ask again in the new year',
  },
  { type: 'annual', days: 5, status: 'approved', reason: 'Winter holiday' },
  { type: 'sick', days: 1, status: 'approved', reason: 'Dentist, then home' },
  { type: 'annual', days: 5, status: 'approved', reason: 'City break' },
];

const UPCOMING_LEAVES: DemoLeave[] = [
  { type: 'annual', days: 5, status: 'pending', reason: 'Half-term with the children' },
  { type: 'annual', days: 10, status: 'pending', reason: 'Trip to see family abroad' },
];

/** A salary in hundredths as minor units of the currency (see the general group's prices). */
function salaryIn(cents: number, currency: string): number {
  return cents * 10 ** Math.max(currencyExponent(currency) - 2, 0);
}

/** The weekday of `YYYY-MM-DD`, 0 Sunday to 6 Saturday. */
const weekday = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();

/** The first Monday on or after `date` (annual leave starts a week), or the first weekday. */
function leaveStart(date: string, type: LeaveType): string {
  let day = date;
  if (type === 'annual') {
    while (weekday(day) !== 1) day = addDays(day, 1);
  } else {
    while (weekday(day) === 0 || weekday(day) === 6) day = addDays(day, 1);
  }
  return day;
}

/** The last day of `days` working days from `start` (a weekday). */
function leaveEnd(start: string, days: number): string {
  let end = start;
  for (let left = days - 1; left > 0;) {
    end = addDays(end, 1);
    if (weekday(end) !== 0 && weekday(end) !== 6) left--;
  }
  return end;
}

/** Noon (UTC) of `date`, `days` later. */
const noonOf = (date: string, days = 0) => new Date(Date.parse(`${addDays(date, days)}T12:00:00Z`));

export async function seedHrDemo(seed: DemoSeed): Promise<void> {
  const setup = seed.at(seed.start);
  const currency = await baseCurrency(setup);
  const day = await today(seed.at(seed.now));

  const departments: string[] = [];
  for (const name of DEPARTMENTS) departments.push((await createDepartment(setup, { name })).id);
  seed.count('departments', departments.length);

  const employees: { id: string; hired: string }[] = [];
  for (const [i, person] of EMPLOYEES.entries()) {
    const hired = addDays(day, -person.hiredDaysAgo);
    // Created when hired, or when the demo begins for those hired before.
    const at = new Date(Math.max(noonOf(hired).getTime(), seed.start.getTime() + i * 60_000));
    const employee = await createEmployee(seed.at(at), {
      first_name: person.first_name,
      last_name: person.last_name,
      email: `${person.first_name}.${person.last_name}`
        .normalize('NFD')
        .replace(/[^A-Za-z.]/g, '')
        .toLowerCase()
        .concat('@roastery.example.com'),
      department_id: departments[person.department]!,
      position: person.position,
      hire_date: hired,
      salary: salaryIn(person.cents, currency),
      ...(person.phone && { phone: person.phone }),
    });
    employees.push({ id: employee.id, hired });
    if (person.head)
      await updateDepartment(seed.at(at), departments[person.department]!, { head: employee.id });
  }
  seed.count('employees', employees.length);

  const first = await today(seed.at(seed.start));
  const span = (Date.parse(day) - Date.parse(first)) / DAY;
  const spacing = Math.floor((span - 30) / PAST_LEAVES.length);
  const planned = [
    // One leave every `spacing` days (five weeks or so): at most two weeks long, so none overlap.
    ...PAST_LEAVES.map((leave, i) => ({ leave, from: addDays(first, 14 + i * spacing) })),
    ...UPCOMING_LEAVES.map((leave, i) => ({ leave, from: addDays(day, 12 + i * 21) })),
  ];
  let leaves = 0;
  for (const { leave, from } of planned) {
    const start = leaveStart(from, leave.type);
    const end = leaveEnd(start, leave.days);
    // Someone already employed a month before; the same draw on every seed.
    const eligible = employees.filter((e) => e.hired <= addDays(start, -30));
    const employee = eligible[Math.floor(seed.random() * eligible.length)]!;
    // Sick leave is recorded on its first day; the rest is asked two to three weeks ahead, and an
    // upcoming request was made in the last few days.
    const asked =
      leave.status === 'pending'
        ? noonOf(day, -1 - Math.floor(seed.random() * 4))
        : leave.type === 'sick'
          ? noonOf(start)
          : noonOf(start, -14 - Math.floor(seed.random() * 8));
    const created = await createLeave(seed.at(asked), {
      employee_id: employee.id,
      type: leave.type,
      start_date: start,
      end_date: end,
      reason: leave.reason,
    });
    leaves++;
    const decided = new Date(asked.getTime() + DAY / 4);
    if (leave.status === 'approved' || leave.status === 'cancelled') {
      await updateLeave(seed.at(decided), created.id, { status: 'approved' });
    }
    if (leave.status === 'cancelled') {
      await updateLeave(seed.at(new Date(decided.getTime() + 3 * DAY)), created.id, {
        status: 'cancelled',
        ...(leave.statusReason && { reason: leave.statusReason }),
      });
    }
    if (leave.status === 'rejected') {
      await updateLeave(seed.at(decided), created.id, {
        status: 'rejected',
        ...(leave.statusReason && { reason: leave.statusReason }),
      });
    }
  }
  seed.count('leaves', leaves);

  // Annual leave is tracked (25 days a year, accruing monthly, up to 5 carried over) and sick leave
  // counted (10 days, below zero allowed); the fixed public holidays of this year and the next.
  const { leave_types: types } = await listLeaveTypes(setup, { limit: 200, offset: 0 });
  const typeId = (name: string) => types.find((t) => t.name === name)!.id;
  await updateLeaveType(setup, typeId('annual'), {
    days_per_year: 25,
    accrual: 'monthly',
    carry_over_max: 5,
  });
  await updateLeaveType(setup, typeId('sick'), {
    days_per_year: 10,
    accrual: 'yearly',
    allow_negative: true,
  });
  let holidays = 0;
  for (const year of [Number(day.slice(0, 4)), Number(day.slice(0, 4)) + 1]) {
    for (const [date, name] of HOLIDAYS) {
      await createHoliday(seed.at(seed.now), { date: `${year}-${date}`, name });
      holidays++;
    }
  }
  seed.count('holidays', holidays);
}

/** Public holidays on the same date every year (month-day), for the demo. */
const HOLIDAYS: readonly [string, string][] = [
  ['01-01', "New Year's Day"],
  ['05-01', 'Labour Day'],
  ['12-25', 'Christmas Day'],
  ['12-26', 'Boxing Day'],
];
