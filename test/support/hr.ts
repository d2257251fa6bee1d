import { randomBytes } from 'node:crypto';
import { unwrap, type Client, type hr } from '../../client/index.js';
import type { TestServer } from './server.js';

/** Factories of the HR domain: one per resource, each through the typed client. */

/** A department name no other test uses. */
export const uniqueDepartmentName = (tag = 'Dept') => `${tag} ${randomBytes(4).toString('hex')}`;

/** A department with a fresh name unless told. */
export async function createDepartment(
  client: Client,
  overrides: Partial<hr.CreateDepartmentBody> = {},
): Promise<hr.Department> {
  const body = { name: uniqueDepartmentName(), ...overrides };
  return (await unwrap(client.hr.departments.createDepartment({ body }))).department;
}

/** An employee email no other test uses. */
export const uniqueEmployeeEmail = (tag = 'staff') => `${tag}-${randomBytes(5).toString('hex')}@example.test`;

/** An employee of `department_id` (a new department when not given): Grace Hopper, hired 2024-03-01. */
export async function createEmployee(
  client: Client,
  overrides: Partial<hr.CreateEmployeeBody> = {},
): Promise<hr.Employee> {
  const department_id = overrides.department_id ?? (await createDepartment(client)).id;
  const body: hr.CreateEmployeeBody = {
    first_name: 'Grace',
    last_name: 'Hopper',
    email: uniqueEmployeeEmail(),
    position: 'Engineer',
    hire_date: '2024-03-01',
    ...overrides,
    department_id,
  };
  return (await unwrap(client.hr.employees.createEmployee({ body }))).employee;
}

/** A pending leave of the employee: annual, Monday 2026-12-07 to Friday 2026-12-11 unless told. */
export async function createLeave(
  client: Client,
  employee_id: string,
  overrides: Partial<hr.CreateLeaveBody> = {},
): Promise<hr.Leave> {
  const body: hr.CreateLeaveBody = {
    employee_id,
    type: 'annual',
    start_date: '2026-12-07',
    end_date: '2026-12-11',
    ...overrides,
  };
  return (await unwrap(client.hr.leaves.createLeave({ body }))).leave;
}

/** Moves the leave to `status` (with `reason` when given) and returns it. */
export async function updateLeave(
  client: Client,
  id: string,
  status: hr.UpdateLeaveBody['status'],
  reason?: string,
): Promise<hr.Leave> {
  const body = { status, ...(reason === undefined ? {} : { reason }) };
  return (await unwrap(client.hr.leaves.updateLeave({ params: { id }, body }))).leave;
}

/** A leave of the employee in `status`: created pending (`createLeave`), then moved there. */
export async function leaveIn(
  client: Client,
  employee_id: string,
  status: hr.LeaveStatus,
  overrides: Partial<hr.CreateLeaveBody> = {},
): Promise<hr.Leave> {
  const leave = await createLeave(client, employee_id, overrides);
  if (status === 'pending') return leave;
  if (status === 'cancelled' || status === 'rejected' || status === 'approved') {
    return updateLeave(client, leave.id, status);
  }
  throw new Error(`no move leads to ${String(status)}`);
}

export async function deleteEmployee(client: Client, id: string): Promise<void> {
  await unwrap(client.hr.employees.deleteEmployee({ params: { id } }));
}

export async function getDepartment(client: Client, id: string): Promise<hr.Department> {
  return (await unwrap(client.hr.departments.getDepartment({ params: { id } }))).department;
}

export async function getEmployee(client: Client, id: string): Promise<hr.Employee> {
  return (await unwrap(client.hr.employees.getEmployee({ params: { id } }))).employee;
}

export async function getLeave(client: Client, id: string): Promise<hr.Leave> {
  return (await unwrap(client.hr.leaves.getLeave({ params: { id } }))).leave;
}

/** The business's leave rows as stored (deleted ones too), oldest first. */
export const leaveRows = (server: TestServer, businessId: string) =>
  server.deps.db
    .selectFrom('hr_leaves')
    .selectAll()
    .where('business_id', '=', businessId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();

/** The business's employee rows as stored (deleted ones too). */
export const employeeRows = (server: TestServer, businessId: string) =>
  server.deps.db
    .selectFrom('hr_employees')
    .selectAll()
    .where('business_id', '=', businessId)
    .orderBy('id')
    .execute();

/** The business's department rows as stored (deleted ones too). */
export const departmentRows = (server: TestServer, businessId: string) =>
  server.deps.db
    .selectFrom('hr_departments')
    .selectAll()
    .where('business_id', '=', businessId)
    .orderBy('id')
    .execute();

/** A leave type of the business: a fresh name unless told, untracked unless a policy is given. */
export async function createLeaveType(
  client: Client,
  overrides: Partial<hr.CreateLeaveTypeBody> = {},
): Promise<hr.LeaveType> {
  const body: hr.CreateLeaveTypeBody = { name: `Leave ${randomBytes(4).toString('hex')}`, ...overrides };
  return (await unwrap(client.hr.leaveTypes.createLeaveType({ body }))).leave_type;
}

/** Changes the leave type (its policy, name, flags) and returns it. */
export async function updateLeaveType(
  client: Client,
  id: string,
  body: hr.UpdateLeaveTypeBody,
): Promise<hr.LeaveType> {
  return (await unwrap(client.hr.leaveTypes.updateLeaveType({ params: { id }, body }))).leave_type;
}

/** The business's leave types by name (all of them: at most 200). */
export async function leaveTypesOf(client: Client): Promise<hr.LeaveType[]> {
  return (await unwrap(client.hr.leaveTypes.listLeaveTypes({ query: { limit: 200 } }))).leave_types;
}

/** The business's leave type of `name` (exactly as stored); a missing one fails the test. */
export async function leaveTypeNamed(client: Client, name: string): Promise<hr.LeaveType> {
  const found = (await leaveTypesOf(client)).find((t) => t.name === name);
  if (!found) throw new Error(`No leave type named ${name}`);
  return found;
}

/** A public holiday of the business: 2027-12-24, Christmas Eve, unless told. */
export async function createHoliday(
  client: Client,
  overrides: Partial<hr.CreateHolidayBody> = {},
): Promise<hr.Holiday> {
  const body: hr.CreateHolidayBody = { date: '2027-12-24', name: 'Christmas Eve', ...overrides };
  return (await unwrap(client.hr.holidays.createHoliday({ body }))).holiday;
}

/** The employee's leave balances answer (as of `as_of`, or the business's today). */
export async function leaveBalances(client: Client, employeeId: string, as_of?: string) {
  const query = as_of === undefined ? {} : { as_of };
  return unwrap(client.hr.leaveTypes.getLeaveBalances({ params: { id: employeeId }, query }));
}

/** The employee's balance of the type named `type` (as of `as_of`); a type with none fails the test. */
export async function leaveBalance(
  client: Client,
  employeeId: string,
  type: string,
  as_of?: string,
): Promise<hr.LeaveBalance> {
  const { balances } = await leaveBalances(client, employeeId, as_of);
  const found = balances.find((b) => b.type === type);
  if (!found) throw new Error(`No balance of ${type} in ${JSON.stringify(balances)}`);
  return found;
}

/** Sets (or, with null, removes) the employee's own entitlement to a type (by name or id). */
export async function setLeaveEntitlement(
  client: Client,
  employeeId: string,
  type: string,
  days_per_year: number | null,
) {
  return unwrap(
    client.hr.leaveTypes.setLeaveEntitlement({ params: { id: employeeId, type }, body: { days_per_year } }),
  );
}
