import type {
  CreateDepartmentBody,
  Department,
  ListDepartmentsQuery,
  UpdateDepartmentBody,
} from '../../../contract/hr/index.js';
import { type Ctx, type TxCtx, inTransaction } from '../../platform/context.js';
import { refuseDuplicates } from '../../platform/db/errors.js';
import { ApiError, conflict, invalid, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import * as queries from './queries.js';
import { lockEmployee } from '../employees/queries.js';
import { toDepartment } from './mappers.js';

const nameTaken = { hr_departments_name_key: () => conflict('A department with this name already exists') };

/** A head must be an employee of the business; locked so that it cannot be deleted meanwhile. */
async function requireHead(ctx: TxCtx, head: string | null | undefined): Promise<void> {
  if (head == null) return;
  if (!(await lockEmployee(ctx.db, ctx.businessId, head, 'share'))) {
    throw invalid('head', 'No employee with this id');
  }
}

async function departmentOrFail(ctx: TxCtx, id: string): Promise<Department> {
  const row = await queries.findDepartment(ctx.db, ctx.businessId, id);
  if (!row) throw notFound('Department');
  return toDepartment(row);
}

export async function listDepartments(
  ctx: Ctx,
  query: ListDepartmentsQuery,
): Promise<{ departments: Department[]; total_count: number }> {
  const { rows, total } = await queries.listDepartments(ctx.db, ctx.businessId, query);
  return { departments: rows.map(toDepartment), total_count: total };
}

export async function getDepartment(ctx: Ctx, id: string): Promise<Department> {
  const row = await queries.findDepartment(ctx.db, ctx.businessId, id);
  if (!row) throw notFound('Department');
  return toDepartment(row);
}

export async function createDepartment(ctx: Ctx, input: CreateDepartmentBody): Promise<Department> {
  return refuseDuplicates(
    () =>
      inTransaction(ctx, async (ctx) => {
        await requireHead(ctx, input.head);
        const now = ctx.clock.now();
        const id = newId('dep');
        await queries.insertDepartment(ctx.db, {
          business_id: ctx.businessId,
          id,
          name: input.name,
          head_id: input.head ?? null,
          created_at: now,
          updated_at: now,
        });
        return departmentOrFail(ctx, id);
      }),
    nameTaken,
  );
}

/** Partial update; an empty one changes nothing. */
export async function updateDepartment(
  ctx: Ctx,
  id: string,
  input: UpdateDepartmentBody,
): Promise<Department> {
  return refuseDuplicates(
    () =>
      inTransaction(ctx, async (ctx) => {
        if (!(await queries.lockDepartment(ctx.db, ctx.businessId, id, 'update')))
          throw notFound('Department');
        await requireHead(ctx, input.head);
        const changes = {
          ...(input.name !== undefined && { name: input.name }),
          ...(input.head !== undefined && { head_id: input.head }),
        };
        if (Object.keys(changes).length > 0) {
          await queries.updateDepartment(ctx.db, ctx.businessId, id, {
            ...changes,
            updated_at: ctx.clock.now(),
          });
        }
        return departmentOrFail(ctx, id);
      }),
    nameTaken,
  );
}

/** Soft delete of a department without employees. */
export async function deleteDepartment(ctx: Ctx, id: string): Promise<void> {
  await inTransaction(ctx, async (ctx) => {
    // Locked for update: an employee being placed in it (a share lock) finishes first, or waits.
    if (!(await queries.lockDepartment(ctx.db, ctx.businessId, id, 'update'))) throw notFound('Department');
    if (await queries.hasEmployees(ctx.db, ctx.businessId, id)) {
      throw new ApiError(
        'RESOURCE_IN_USE',
        'The department has employees; move them to another department first',
      );
    }
    const now = ctx.clock.now();
    await queries.updateDepartment(ctx.db, ctx.businessId, id, { deleted_at: now, updated_at: now });
  });
}
