import type { Employee, GeneralEmployee } from '../../../contract/hr/index.js';
import { toMajor } from '../../platform/money.js';
import type { EmployeeRecord } from './queries.js';

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
