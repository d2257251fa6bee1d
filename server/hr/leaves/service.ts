import {
  MAX_LEAVE_SPAN_DAYS,
  type CreateLeaveBody,
  type Leave,
  type LeaveStatus,
  type ListLeavesQuery,
  type UpdateLeaveBody,
} from '../../../contract/hr/index.js';
import { type Ctx, type TxCtx, inTransaction } from '../../platform/context.js';
import { refuseDuplicates } from '../../platform/db/errors.js';
import { ApiError, conflict, invalid, invalidState, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { emit } from '../../platform/outbox.js';
import { lockEmployee } from '../employees/queries.js';
import * as queries from './queries.js';
import { toLeave } from './mappers.js';
import { dayNumber, workingDays } from '../../../contract/hr/working-days.js';
import { holidayDates } from '../holidays/queries.js';
import { balancesOf } from '../leave-types/balances.js';
import { typeNamed } from '../leave-types/service.js';
import type { LeaveTypeRow } from '../leave-types/queries.js';

/** The moves a leave request may make; rejected and cancelled are final. */
const MOVES: Record<LeaveStatus, readonly LeaveStatus[]> = {
  pending: ['approved', 'rejected', 'cancelled'],
  approved: ['cancelled'],
  rejected: [],
  cancelled: [],
};

const overlaps = {
  hr_leaves_no_overlap: () => conflict('The leave overlaps a pending or approved leave of the same employee'),
};

async function leaveOrFail(ctx: TxCtx, id: string, forUpdate = false) {
  const row = await queries.findLeave(ctx.db, ctx.businessId, id, forUpdate);
  if (!row) throw notFound('Leave');
  return row;
}

/**
 * The leave, locked for a change, after its employee: every write of an employee's leaves locks
 * the employee first, so concurrent writes queue in one order instead of deadlocking on each
 * other's uncommitted rows in the overlap constraint (docs/decisions.md D128).
 */
async function lockLeave(ctx: TxCtx, id: string) {
  const seen = await leaveOrFail(ctx, id);
  if (!(await lockEmployee(ctx.db, ctx.businessId, seen.employee_id, 'leaves'))) throw notFound('Leave');
  return leaveOrFail(ctx, id, true);
}

function requireDates(input: CreateLeaveBody): void {
  const span = dayNumber(input.end_date) - dayNumber(input.start_date);
  if (span < 0) throw invalid('end_date', 'Must be on or after start_date');
  if (span >= MAX_LEAVE_SPAN_DAYS) {
    throw invalid('end_date', `A leave covers at most ${MAX_LEAVE_SPAN_DAYS} days; split longer ones`);
  }
}

export async function listLeaves(
  ctx: Ctx,
  query: ListLeavesQuery,
): Promise<{ leaves: Leave[]; total_count: number }> {
  const { rows, total } = await queries.listLeaves(ctx.db, ctx.businessId, query);
  return { leaves: rows.map(toLeave), total_count: total };
}

export async function getLeave(ctx: Ctx, id: string): Promise<Leave> {
  const row = await queries.findLeave(ctx.db, ctx.businessId, id);
  if (!row) throw notFound('Leave');
  return toLeave(row);
}

/**
 * A request of a tracked type, counted among the employee's pending ones, must leave the balance of
 * its own year as of its last day at zero or above, unless the type allows negative (422
 * INSUFFICIENT_BALANCE naming what remained). The employee is locked by the caller, so concurrent
 * requests are counted one after the other and cannot together overdraw (docs/decisions.md D280).
 */
const checked = (type: LeaveTypeRow) => type.days_per_year !== null && !type.allow_negative;

/** What remains of the type in the year of `asOf`, as of that day. */
async function remainingOf(ctx: TxCtx, type: LeaveTypeRow, employeeId: string, asOf: string) {
  const [balance] = await balancesOf(ctx, employeeId, asOf, [type]);
  return balance!.remaining;
}

async function requireBalance(ctx: TxCtx, type: LeaveTypeRow, leave: Leave, before: number): Promise<void> {
  if ((await remainingOf(ctx, type, leave.employee_id, leave.end_date)) >= 0) return;
  const year = leave.end_date.slice(0, 4);
  const left = before;
  const days = (n: number) => `${n} day${n === 1 ? '' : 's'}`;
  throw new ApiError(
    'INSUFFICIENT_BALANCE',
    `The ${type.name} balance of ${year} has ${days(left)} remaining as of ${leave.end_date}; ` +
      `this request takes ${days(leave.days)}`,
    [{ field: 'end_date', message: `${days(left)} of ${type.name} leave remain in ${year}` }],
  );
}

/** A pending leave request; the database refuses one that overlaps another of the employee. */
export async function createLeave(ctx: Ctx, input: CreateLeaveBody): Promise<Leave> {
  requireDates(input);
  return refuseDuplicates(
    () =>
      inTransaction(ctx, async (ctx) => {
        // The employee cannot be deleted or made inactive until this commits, and other writes of
        // their leaves wait their turn (lockLeave).
        const employee = await lockEmployee(ctx.db, ctx.businessId, input.employee_id, 'leaves');
        if (!employee) throw invalid('employee_id', 'No employee with this id');
        if (employee.status === 'inactive') {
          throw invalid('employee_id', 'The employee is inactive; leave cannot be requested');
        }
        // Held (shared) until the commit: the policy the request is checked by cannot change meanwhile.
        const type = await typeNamed(ctx, input.type, 'type', true);
        const holidays = await holidayDates(ctx.db, ctx.businessId, input.start_date, input.end_date);
        const before = checked(type) ? await remainingOf(ctx, type, input.employee_id, input.end_date) : null;
        const now = ctx.clock.now();
        const id = newId('lv');
        await queries.insertLeave(ctx.db, {
          business_id: ctx.businessId,
          id,
          employee_id: input.employee_id,
          type: type.name,
          start_date: input.start_date,
          end_date: input.end_date,
          days: workingDays(input.start_date, input.end_date, holidays),
          reason: input.reason ?? null,
          status: 'pending',
          status_reason: null,
          created_at: now,
          updated_at: now,
        });
        const leave = toLeave(await leaveOrFail(ctx, id));
        if (before !== null) await requireBalance(ctx, type, leave, before);
        await emit(ctx, 'leave.created', leave);
        return leave;
      }),
    overlaps,
  );
}

/**
 * Announces a pending request whose `days` changed without a request of its own (a holiday added,
 * moved or deleted over it, docs/decisions.md D280): `leave.updated` with the request as it now is.
 */
export async function announceRecount(ctx: TxCtx, id: string): Promise<void> {
  await emit(ctx, 'leave.updated', toLeave(await leaveOrFail(ctx, id)));
}

/** Approves, rejects or cancels the request, as MOVES allows. */
export async function updateLeave(ctx: Ctx, id: string, input: UpdateLeaveBody): Promise<Leave> {
  return inTransaction(ctx, async (ctx) => {
    const current = await lockLeave(ctx, id);
    if (!MOVES[current.status].includes(input.status)) {
      throw invalidState(`A ${current.status} leave cannot become ${input.status}`);
    }
    await queries.updateLeave(ctx.db, ctx.businessId, id, {
      status: input.status,
      status_reason: input.reason ?? null,
      updated_at: ctx.clock.now(),
    });
    const leave = toLeave(await leaveOrFail(ctx, id));
    await emit(ctx, 'leave.updated', leave);
    return leave;
  });
}

/** Soft delete of a request that is not approved (cancel an approved one first). */
export async function deleteLeave(ctx: Ctx, id: string): Promise<void> {
  await inTransaction(ctx, async (ctx) => {
    const row = await lockLeave(ctx, id);
    if (row.status === 'approved') {
      throw invalidState('An approved leave cannot be deleted; cancel it first');
    }
    const now = ctx.clock.now();
    await queries.updateLeave(ctx.db, ctx.businessId, id, { deleted_at: now, updated_at: now });
    await emit(ctx, 'leave.deleted', toLeave(row));
  });
}
