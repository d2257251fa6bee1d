import type { Department, Employee, GeneralEmployee, Leave } from '../../contract/hr/index.js';
import { toMajor } from '../platform/money.js';
import type { DepartmentRecord } from './departments.queries.js';
import type { EmployeeRecord } from './employees.queries.js';
import type { LeaveRecord } from './leaves.queries.js';

export const toDepartment = (row: DepartmentRecord): Department => ({
  id: row.id,
  name: row.name,
  head: row.head_id,
  employee_count: Number(row.employee_count ?? 0),
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

export const toEmployee = (row: EmployeeRecord): Employee => ({
  id: row.id,
  first_name: row.first_name,
  last_name: row.last_name,
  email: row.email,
  phone: row.phone,
  department_id: row.department_id,
  department: row.department,
  position: row.position,
  status: row.status,
  hire_date: row.hire_date,
  salary: row.salary,
  currency: row.currency,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

/** The employee in the general group's units: salary in major units. */
export const toGeneralEmployee = (row: EmployeeRecord): GeneralEmployee => ({
  ...toEmployee(row),
  salary: row.salary === null ? null : toMajor(row.salary, row.currency),
});

export const toLeave = (row: LeaveRecord): Leave => ({
  id: row.id,
  employee_id: row.employee_id,
  employee_name: `${row.first_name} ${row.last_name}`,
  type: row.type,
  start_date: row.start_date,
  end_date: row.end_date,
  days: row.days,
  status: row.status,
  reason: row.reason,
  status_reason: row.status_reason,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});
