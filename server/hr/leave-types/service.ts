import type {
  CreateLeaveTypeBody,
  LeaveBalance,
  LeaveType,
  SetLeaveEntitlementBody,
  UpdateLeaveTypeBody,
} from '../../../contract/hr/leave-types.js';
import { toHundredths } from '../../../contract/hr/leave-days.js';
import { today } from '../../platform/calendar.js';
import { inTransaction, type Ctx, type TxCtx } from '../../platform/context.js';
import { refuseDuplicates } from '../../platform/db/errors.js';
import { ApiError, conflict, invalid, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { lockEmployee } from '../employees/queries.js';
import { balancesOf } from './balances.js';
import * as queries from './queries.js';
import type { LeaveTypeRow } from './queries.js';

const days = (value: string | null) => (value === null ? null : Number(value));

export const toLeaveType = (row: LeaveTypeRow): LeaveType => ({
  id: row.id,
  name: row.name,
  paid: row.paid,
  allow_negative: row.allow_negative,
  tracked: row.days_per_year !== null,
  days_per_year: days(row.days_per_year),
  accrual: row.accrual,
  carry_over_max: days(row.carry_over_max),
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

const duplicates = {
  hr_leave_types_name_idx: () => conflict('A leave type of this name already exists'),
  hr_leave_types_business_id_name_key: () => conflict('A leave type of this name already exists'),
};

/**
 * The policy columns a body asks for, given the type's current ones: `days_per_year` set makes the
 * type tracked (accrual `yearly` and a cap of 0 unless sent or already set); null untracks it. The
 * other two alone change a tracked type's policy; an untracked type takes them only with days.
 */
function policyOf(
  body: Pick<CreateLeaveTypeBody, 'days_per_year' | 'accrual' | 'carry_over_max'>,
  current?: LeaveTypeRow,
) {
  const tracked =
    body.days_per_year === undefined ? current?.days_per_year != null : body.days_per_year !== null;
  if (!tracked) {
    if (body.accrual !== undefined || body.carry_over_max !== undefined) {
      const field = body.accrual !== undefined ? 'accrual' : 'carry_over_max';
      throw invalid(field, 'An untracked type has no policy: send days_per_year with it');
    }
    return { days_per_year: null, accrual: null, carry_over_max: null };
  }
  return {
    days_per_year: body.days_per_year ?? Number(current!.days_per_year),
    accrual: body.accrual ?? current?.accrual ?? 'yearly',
    carry_over_max:
      body.carry_over_max ?? (current?.carry_over_max != null ? Number(current.carry_over_max) : 0),
  };
}

export async function listLeaveTypes(ctx: Ctx, page: { limit: number; offset: number }) {
  const { rows, total } = await queries.listLeaveTypes(ctx.db, ctx.businessId, page);
  return { leave_types: rows.map(toLeaveType), total_count: total };
}

async function typeOrFail(ctx: Ctx, id: string, forUpdate = false) {
  const row = await queries.findLeaveType(ctx.db, ctx.businessId, id, forUpdate);
  if (!row) throw notFound('Leave type');
  return row;
}

export async function getLeaveType(ctx: Ctx, id: string): Promise<LeaveType> {
  return toLeaveType(await typeOrFail(ctx, id));
}

export async function createLeaveType(ctx: Ctx, body: CreateLeaveTypeBody): Promise<LeaveType> {
  const policy = policyOf(body);
  return refuseDuplicates(
    () =>
      inTransaction(ctx, async (ctx) => {
        const now = ctx.clock.now();
        const id = newId('lt');
        await queries.insertLeaveType(ctx.db, {
          business_id: ctx.businessId,
          id,
          name: body.name,
          paid: body.paid ?? true,
          allow_negative: body.allow_negative ?? false,
          ...policy,
          created_at: now,
          updated_at: now,
        });
        return toLeaveType(await typeOrFail(ctx, id));
      }),
    duplicates,
  );
}

export async function updateLeaveType(ctx: Ctx, id: string, body: UpdateLeaveTypeBody): Promise<LeaveType> {
  return refuseDuplicates(
    () =>
      inTransaction(ctx, async (ctx) => {
        const current = await typeOrFail(ctx, id, true);
        await queries.updateLeaveType(ctx.db, ctx.businessId, id, {
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.paid !== undefined ? { paid: body.paid } : {}),
          ...(body.allow_negative !== undefined ? { allow_negative: body.allow_negative } : {}),
          ...policyOf(body, current),
          updated_at: ctx.clock.now(),
        });
        return toLeaveType(await typeOrFail(ctx, id));
      }),
    duplicates,
  );
}

/** Deletes a type no request names (409 RESOURCE_IN_USE otherwise: a request keeps its type). */
export async function deleteLeaveType(ctx: Ctx, id: string): Promise<void> {
  await inTransaction(ctx, async (ctx) => {
    const current = await typeOrFail(ctx, id, true);
    if (await queries.leaveTypeInUse(ctx.db, ctx.businessId, current.name)) {
      throw new ApiError(
        'RESOURCE_IN_USE',
        `Leave requests name the type "${current.name}"; it cannot be deleted (remove its policy to stop tracking it)`,
      );
    }
    await queries.deleteLeaveType(ctx.db, ctx.businessId, id);
  });
}

/** The type a request or an entitlement names, by name (case forgiven) or id; 422 on `field`. */
export async function typeNamed(ctx: TxCtx | Ctx, name: string, field: string, lock = false) {
  const row =
    (await queries.findLeaveTypeByName(ctx.db, ctx.businessId, name, lock)) ??
    (await queries.findLeaveType(ctx.db, ctx.businessId, name));
  if (!row)
    throw invalid(field, `No leave type "${name}"; the business's types are listed at /v1/hr/leave-types`);
  return row;
}

export async function getLeaveBalances(ctx: Ctx, employeeId: string, asOf?: string) {
  const date = asOf ?? (await today(ctx));
  return {
    employee_id: employeeId,
    as_of: date,
    year: Number(date.slice(0, 4)),
    balances: await balancesOf(ctx, employeeId, date),
  };
}

/** The employee's own days a year of a tracked type, or back to the policy (null). */
export async function setLeaveEntitlement(
  ctx: Ctx,
  employeeId: string,
  typeName: string,
  body: SetLeaveEntitlementBody,
): Promise<LeaveBalance> {
  return inTransaction(ctx, async (ctx) => {
    if (!(await lockEmployee(ctx.db, ctx.businessId, employeeId, 'leaves'))) throw notFound('Employee');
    const type = await typeNamed(ctx, typeName, 'type');
    if (type.days_per_year === null) {
      throw invalid('type', `The type "${type.name}" is untracked: give it a policy (days_per_year) first`);
    }
    if (body.days_per_year === null) {
      await queries.clearEntitlement(ctx.db, ctx.businessId, employeeId, type.id);
    } else {
      await queries.setEntitlement(
        ctx.db,
        ctx.businessId,
        employeeId,
        type.id,
        toHundredths(body.days_per_year) / 100,
        ctx.clock.now(),
      );
    }
    const [balance] = await balancesOf(ctx, employeeId, await today(ctx), [type]);
    return balance!;
  });
}
