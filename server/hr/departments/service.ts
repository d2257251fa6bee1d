import type {
  CreateDepartmentBody,
  Department,
  ListDepartmentsQuery,
  UpdateDepartmentBody,
} from '../../../contract/hr/index.js';
import type { Ctx } from '../../platform/context.js';
import { inTransaction, type Trx } from '../../platform/db/database.js';
import { refuseDuplicates } from '../../platform/db/errors.js';
import { ApiError, conflict, invalid, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import * as queries from './queries.js';
import { lockEmployee } from '../employees/queries.js';
import { toDepartment } from './mappers.js';

const nameTaken = { hr_departments_name_key: () => conflict('A department with this name already exists') };

/** A head must be an employee of the business; locked so that it cannot be deleted meanwhile. */
async function requireHead(trx: Trx, ctx: Ctx, head: string | null | undefined): Promise<void> {
  if (head == null) return;
  if (!(await lockEmployee(trx, ctx.businessId, head, 'share'))) {
    throw invalid('head', 'No employee with this id');
  }
}

async function departmentOrFail(trx: Trx, ctx: Ctx, id: string): Promise<Department> {
  const row = await queries.findDepartment(trx, ctx.businessId, id);
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
      inTransaction(ctx.db, async (trx) => {
        await requireHead(trx, ctx, input.head);
        const now = ctx.clock.now();
        const id = newId('dep');
        await queries.insertDepartment(trx, {
          business_id: ctx.businessId,
          id,
          name: input.name,
          head_id: input.head ?? null,
          created_at: now,
          updated_at: now,
        });
        return departmentOrFail(trx, ctx, id);
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
      inTransaction(ctx.db, async (trx) => {
        if (!(await queries.lockDepartment(trx, ctx.businessId, id, 'update'))) throw notFound('Department');
        await requireHead(trx, ctx, input.head);
        const changes = {
          ...(input.name !== undefined && { name: input.name }),
          ...(input.head !== undefined && { head_id: input.head }),
        };
        if (Object.keys(changes).length > 0) {
          await queries.updateDepartment(trx, ctx.businessId, id, {
            ...changes,
            updated_at: ctx.clock.now(),
          });
        }
        return departmentOrFail(trx, ctx, id);
      }),
    nameTaken,
  );
}

/** Soft delete of a department without employees. */
export async function deleteDepartment(ctx: Ctx, id: string): Promise<void> {
  await inTransaction(ctx.db, async (trx) => {
    // Locked for update: an employee being placed in it (a share lock) finishes first, or waits.
    if (!(await queries.lockDepartment(trx, ctx.businessId, id, 'update'))) throw notFound('Department');
    if (await queries.hasEmployees(trx, ctx.businessId, id)) {
      throw new ApiError(
        'RESOURCE_IN_USE',
        'The department has employees; move them to another department first',
      );
    }
    const now = ctx.clock.now();
    await queries.updateDepartment(trx, ctx.businessId, id, { deleted_at: now, updated_at: now });
  });
}
