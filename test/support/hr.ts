import { randomBytes } from 'node:crypto';
import { unwrap, type Client, type hr } from '../../client/index.js';

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
