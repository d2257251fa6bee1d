import type { LeaveBalance } from '../../../contract/hr/leave-types.js';
import {
  accruedHundredths,
  carriedHundredths,
  fromHundredths,
  toHundredths,
} from '../../../contract/hr/leave-days.js';
import { workingDays } from '../../../contract/hr/working-days.js';
import type { Ctx } from '../../platform/context.js';
import { notFound } from '../../platform/errors.js';
import { holidayDates } from '../holidays/queries.js';
import * as queries from './queries.js';
import type { LeaveTypeRow } from './queries.js';

/**
 * Leave balances (docs/decisions.md D280), counted from what is stored rather than kept: the
 * policy and the employee's own entitlement, the hire date, the pending and approved requests and
 * the holidays. Every year from the hire year to the balance year is counted in turn, each year's
 * remaining carrying into the next (capped), in whole hundredths of a day.
 */

type Counted = Awaited<ReturnType<typeof queries.leavesCounted>>[number];

const yearOf = (date: string) => Number(date.slice(0, 4));

/**
 * A request's working days in `year`: all of its days when it lies in the year; split by the
 * working days of each year's part otherwise, its last year taking what its stored count leaves.
 */
function daysInYear(leave: Counted, year: number, holidays: readonly string[]): number {
  const first = yearOf(leave.start_date);
  const last = yearOf(leave.end_date);
  if (year < first || year > last) return 0;
  if (first === last) return leave.days;
  const part = (y: number) =>
    workingDays(
      y === first ? leave.start_date : `${y}-01-01`,
      y === last ? leave.end_date : `${y}-12-31`,
      holidays,
    );
  if (year < last) return part(year);
  let before = 0;
  for (let y = first; y < last; y++) before += part(y);
  return Math.max(0, leave.days - before);
}

interface TypeYear {
  accrued: number;
  carried: number;
  taken: number;
  pending: number;
  remaining: number;
}

/** One type's balance of `asOf`'s year, counted from the hire year (hundredths). */
function countType(
  type: LeaveTypeRow,
  perYear: number,
  hireDate: string,
  asOf: string,
  leaves: readonly Counted[],
  holidays: readonly string[],
): TypeYear {
  const year = yearOf(asOf);
  const cap = toHundredths(Number(type.carry_over_max ?? 0));
  const own = leaves.filter((l) => l.type === type.name);
  let carried = 0;
  for (let y = Math.min(yearOf(hireDate), year); ; y++) {
    const accrued = accruedHundredths(type.accrual!, perYear, hireDate, y, y === year ? asOf : `${y}-12-31`);
    let taken = 0;
    let pending = 0;
    for (const leave of own) {
      const days = toHundredths(daysInYear(leave, y, holidays));
      if (leave.status === 'approved') taken += days;
      else pending += days;
    }
    const remaining = accrued + carried - taken - pending;
    if (y === year) return { accrued, carried, taken, pending, remaining };
    carried = carriedHundredths(remaining, cap);
  }
}

/**
 * The employee's balances as of `asOf` for the tracked types (all of them, or those given); 404 for
 * an employee that is not there.
 */
export async function balancesOf(
  ctx: Ctx,
  employeeId: string,
  asOf: string,
  only?: readonly LeaveTypeRow[],
): Promise<LeaveBalance[]> {
  const hireDate = await queries.employeeHireDate(ctx.db, ctx.businessId, employeeId);
  if (hireDate === undefined) throw notFound('Employee');
  const types = only ?? (await queries.trackedLeaveTypes(ctx.db, ctx.businessId));
  if (types.length === 0) return [];
  const own = new Map(
    (await queries.entitlementsOf(ctx.db, ctx.businessId, employeeId)).map((e) => [
      e.leave_type_id,
      e.days_per_year,
    ]),
  );
  const year = yearOf(asOf);
  const from = `${Math.min(yearOf(hireDate), year)}-01-01`;
  const to = `${year}-12-31`;
  const leaves = await queries.leavesCounted(
    ctx.db,
    ctx.businessId,
    employeeId,
    types.map((t) => t.name),
    from,
    to,
  );
  // Holidays split the requests that cross a year's end: every day any counted request covers.
  const spanning = leaves.filter((l) => yearOf(l.start_date) !== yearOf(l.end_date));
  const holidays =
    spanning.length === 0
      ? []
      : await holidayDates(
          ctx.db,
          ctx.businessId,
          spanning.map((l) => l.start_date).sort()[0]!,
          spanning
            .map((l) => l.end_date)
            .sort()
            .at(-1)!,
        );
  return types.map((type) => {
    const ownDays = own.get(type.id);
    const entitled = Number(ownDays ?? type.days_per_year);
    const counted = countType(type, toHundredths(entitled), hireDate, asOf, leaves, holidays);
    return {
      type: type.name,
      leave_type_id: type.id,
      paid: type.paid,
      allow_negative: type.allow_negative,
      accrual: type.accrual!,
      entitled,
      own_entitlement: ownDays !== undefined,
      accrued: fromHundredths(counted.accrued),
      carried_over: fromHundredths(counted.carried),
      taken: fromHundredths(counted.taken),
      pending: fromHundredths(counted.pending),
      remaining: fromHundredths(counted.remaining),
    };
  });
}
