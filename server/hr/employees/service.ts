import { CreateEmployeeBodySchema, UpdateEmployeeBodySchema } from '../../../contract/hr/employees.js';
import type { ImportTarget } from '../../platform/import-target.js';
import type {
  CreateEmployeeBody,
  Employee,
  GeneralEmployee,
  ListEmployeesQuery,
  ListGeneralEmployeesQuery,
  UpdateEmployeeBody,
} from '../../../contract/hr/index.js';
import type { Pagination } from '../../../contract/common/pagination.js';
import { type Ctx, type TxCtx, inTransaction } from '../../platform/context.js';
import { refuseDuplicates } from '../../platform/db/errors.js';
import { conflict, invalid, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { emit } from '../../platform/outbox.js';
import { offsetOf, paginationOf, parseSort } from '../../platform/pagination.js';
import { baseCurrency } from '../../platform/settings.js';
import { clearHead, lockDepartment } from '../departments/queries.js';
import * as queries from './queries.js';
import { toEmployee, toGeneralEmployee } from './mappers.js';

const emailTaken = { hr_employees_email_key: () => conflict('An employee with this email already exists') };

/** The department must be the business's; locked so that it cannot be deleted meanwhile. */
async function requireDepartment(ctx: TxCtx, id: string): Promise<void> {
  if (!(await lockDepartment(ctx.db, ctx.businessId, id, 'share'))) {
    throw invalid('department_id', 'No department with this id');
  }
}

async function employeeOrFail(ctx: TxCtx, id: string): Promise<Employee> {
  const row = await queries.findEmployee(ctx.db, ctx.businessId, id);
  if (!row) throw notFound('Employee');
  return toEmployee(row);
}

export async function listEmployees(
  ctx: Ctx,
  query: ListEmployeesQuery,
): Promise<{ employees: Employee[]; total_count: number }> {
  const { rows, total } = await queries.listEmployees(ctx.db, ctx.businessId, {
    filters: query,
    sort: { field: 'created_at', direction: 'desc' },
    limit: query.limit,
    offset: query.offset,
  });
  return { employees: rows.map(toEmployee), total_count: total };
}

export async function listGeneralEmployees(
  ctx: Ctx,
  query: ListGeneralEmployeesQuery,
): Promise<{ data: GeneralEmployee[]; pagination: Pagination }> {
  const { rows, total } = await queries.listEmployees(ctx.db, ctx.businessId, {
    filters: query,
    sort: parseSort(query.sort, { field: 'created_at', direction: 'desc' }),
    limit: query.limit,
    offset: offsetOf(query),
  });
  return { data: rows.map(toGeneralEmployee), pagination: paginationOf(query, total) };
}

export async function getEmployee(ctx: Ctx, id: string): Promise<Employee> {
  const row = await queries.findEmployee(ctx.db, ctx.businessId, id);
  if (!row) throw notFound('Employee');
  return toEmployee(row);
}

export async function createEmployee(ctx: Ctx, input: CreateEmployeeBody): Promise<Employee> {
  const currency = input.currency ?? (await baseCurrency(ctx));
  return refuseDuplicates(
    () =>
      inTransaction(ctx, async (ctx) => {
        await requireDepartment(ctx, input.department_id);
        const now = ctx.clock.now();
        const id = newId('emp');
        await queries.insertEmployee(ctx.db, {
          business_id: ctx.businessId,
          id,
          first_name: input.first_name,
          last_name: input.last_name,
          email: input.email,
          phone: input.phone ?? null,
          department_id: input.department_id,
          position: input.position,
          status: input.status ?? 'active',
          hire_date: input.hire_date,
          salary: input.salary ?? null,
          currency,
          created_at: now,
          updated_at: now,
        });
        const employee = await employeeOrFail(ctx, id);
        await emit(ctx, 'employee.created', employee);
        return employee;
      }),
    emailTaken,
  );
}

/** Partial update; an empty one changes nothing (no event). */
export async function updateEmployee(ctx: Ctx, id: string, input: UpdateEmployeeBody): Promise<Employee> {
  return refuseDuplicates(
    () =>
      inTransaction(ctx, async (ctx) => {
        if (!(await queries.lockEmployee(ctx.db, ctx.businessId, id, 'update'))) throw notFound('Employee');
        if (input.department_id !== undefined) await requireDepartment(ctx, input.department_id);
        const changes = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
        if (Object.keys(changes).length === 0) return employeeOrFail(ctx, id);
        await queries.updateEmployee(ctx.db, ctx.businessId, id, { ...changes, updated_at: ctx.clock.now() });
        const employee = await employeeOrFail(ctx, id);
        await emit(ctx, 'employee.updated', employee);
        return employee;
      }),
    emailTaken,
  );
}

/** Soft delete: the employee (and their leaves) leave every list; departments they head lose the head. */
export async function deleteEmployee(ctx: Ctx, id: string): Promise<void> {
  await inTransaction(ctx, async (ctx) => {
    if (!(await queries.lockEmployee(ctx.db, ctx.businessId, id, 'update'))) throw notFound('Employee');
    const employee = await employeeOrFail(ctx, id);
    const now = ctx.clock.now();
    await queries.updateEmployee(ctx.db, ctx.businessId, id, { deleted_at: now, updated_at: now });
    await clearHead(ctx.db, ctx.businessId, id, now);
    await emit(ctx, 'employee.deleted', employee);
  });
}

/** Employees, matched by email, created by `createEmployee` or updated by `updateEmployee` (docs/decisions.md D165). */
export const employeeImport: ImportTarget = {
  kind: 'employees',
  create: CreateEmployeeBodySchema,
  update: UpdateEmployeeBodySchema,
  key: 'email',
  existing: async (ctx, keys) => {
    const rows = await queries.employeeIdsByEmail(ctx.db, ctx.businessId, keys);
    return new Map(rows.reverse().map((row) => [row.key, row.id]));
  },
  createOne: (ctx, body) => createEmployee(ctx, body as CreateEmployeeBody),
  updateOne: (ctx, id, body) => updateEmployee(ctx, id, body),
};
