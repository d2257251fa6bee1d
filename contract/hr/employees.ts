import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { pageEnvelope, resultEnvelope } from '../common/envelopes.js';
import { generalErrors, resultErrors } from '../common/errors.js';
import { meta } from '../common/metadata.js';
import { majorAmount, minorAmount, minorAmountInput } from '../common/money.js';
import { PageQuerySchema, sortQuery } from '../common/pagination.js';
import {
  CurrencySchema,
  DateSchema,
  EmailSchema,
  IdempotencyHeadersSchema,
  IdParamsSchema,
  idOf,
  TimestampSchema,
} from '../common/schemas.js';
import { HrPageQuerySchema, hrRoute, NameSchema } from './shared.js';

const c = initContract();

export const EMPLOYEE_STATUSES = ['active', 'inactive', 'on_leave'] as const;
export type EmployeeStatus = (typeof EMPLOYEE_STATUSES)[number];

/** The largest salary in minor units (the service's money bound). */
export const MAX_SALARY_MINOR = 999_999_999_999_999;

const employeeFields = {
  id: idOf('emp'),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  department_id: z.string(),
  department: z.string().describe('Name of the department.'),
  position: z.string(),
  status: z.enum(EMPLOYEE_STATUSES),
  hire_date: DateSchema,
  currency: z.string().describe('Currency of the salary (ISO 4217).'),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
};

const employeeExample = {
  id: 'emp_01JD7X2R5VQ8N3K4M6P9T1W2Y4',
  first_name: 'Grace',
  last_name: 'Hopper',
  email: 'grace@example.com',
  phone: '+1 555 0100',
  department_id: 'dep_01JD7X2R5VQ8N3K4M6P9T1W2Y3',
  department: 'Engineering',
  position: 'Staff engineer',
  status: 'active',
  hire_date: '2024-03-01',
  salary: 850000,
  currency: 'USD',
  created_at: '2026-11-21T09:30:00.000Z',
  updated_at: '2026-11-21T09:30:00.000Z',
};

export const EmployeeSchema = extendApi(
  z.object({
    ...employeeFields,
    salary: minorAmount(
      'Monthly salary in `currency` (8500.00 USD is 850000); null when not recorded',
      850000,
    ).nullable(),
  }),
  { title: 'Employee', example: employeeExample },
);
export type Employee = z.infer<typeof EmployeeSchema>;

/** The employee as the general group lists it: money in major units. */
export const GeneralEmployeeSchema = extendApi(
  z.object({
    ...employeeFields,
    salary: majorAmount('Monthly salary in `currency`; null when not recorded', 8500).nullable(),
  }),
  { title: 'GeneralEmployee', example: { ...employeeExample, salary: 8500 } },
);
export type GeneralEmployee = z.infer<typeof GeneralEmployeeSchema>;

const SalarySchema = minorAmountInput({
  description: 'Monthly salary in `currency` (8500.00 USD is 850000)',
  max: MAX_SALARY_MINOR,
  example: 850000,
});

const editableFields = {
  first_name: NameSchema,
  last_name: NameSchema,
  email: EmailSchema.describe('Unique per business among employees not deleted (case-insensitive).'),
  phone: z.string().trim().max(40).nullable(),
  department_id: z.string().max(64).describe('A department of the business; 422 otherwise.'),
  position: z.string().trim().min(1).max(200),
  hire_date: DateSchema,
  salary: SalarySchema.nullable(),
  currency: CurrencySchema.describe("Currency of the salary; default: the business's base currency."),
  status: z.enum(EMPLOYEE_STATUSES),
};

export const CreateEmployeeBodySchema = extendApi(
  z
    .object({
      first_name: editableFields.first_name,
      last_name: editableFields.last_name,
      email: editableFields.email,
      department_id: editableFields.department_id,
      position: editableFields.position,
      hire_date: editableFields.hire_date,
      phone: editableFields.phone.optional(),
      salary: editableFields.salary.optional(),
      currency: editableFields.currency.optional(),
      status: editableFields.status.optional().describe('Default active.'),
    })
    .strict(),
  {
    title: 'CreateEmployeeBody',
    example: {
      first_name: 'Grace',
      last_name: 'Hopper',
      email: 'grace@example.com',
      department_id: 'dep_01JD7X2R5VQ8N3K4M6P9T1W2Y3',
      position: 'Staff engineer',
      hire_date: '2024-03-01',
      salary: 850000,
    },
  },
);
export type CreateEmployeeBody = z.infer<typeof CreateEmployeeBodySchema>;

export const UpdateEmployeeBodySchema = extendApi(z.object(editableFields).partial().strict(), {
  title: 'UpdateEmployeeBody',
  example: { position: 'Principal engineer', salary: 950000 },
});
export type UpdateEmployeeBody = z.infer<typeof UpdateEmployeeBodySchema>;

const filters = {
  department_id: z.string().max(64).optional().describe('Only employees of this department.'),
  status: z.enum(EMPLOYEE_STATUSES).optional(),
};

export const ListEmployeesQuerySchema = HrPageQuerySchema.extend(filters);
export type ListEmployeesQuery = z.infer<typeof ListEmployeesQuerySchema>;

export const EMPLOYEE_SORT_FIELDS = ['hire_date', 'last_name', 'created_at'] as const;

export const ListGeneralEmployeesQuerySchema = PageQuerySchema.extend({
  ...filters,
  sort: sortQuery(EMPLOYEE_SORT_FIELDS),
});
export type ListGeneralEmployeesQuery = z.infer<typeof ListGeneralEmployeesQuerySchema>;

const listEmployees = {
  method: 'GET',
  query: ListEmployeesQuerySchema,
  responses: {
    200: resultEnvelope({ employees: z.array(EmployeeSchema), total_count: z.number().int() }),
    ...resultErrors(),
  },
  metadata: hrRoute,
} as const;

export const employeesContract = c.router({
  listEmployees: {
    ...listEmployees,
    path: '/hr/employees',
    summary: 'List employees',
    description:
      'Newest first (ties by id), filtered by `department_id` and `status`; `limit` (default 50, max 200), ' +
      '`offset`, and `total_count` of all matching. Deleted employees are not listed.',
  },
  listEmployeesAlias: {
    ...listEmployees,
    path: '/get/employees',
    summary: 'List employees (alias)',
    description: 'The same as GET /v1/hr/employees.',
  },
  listGeneralEmployees: {
    method: 'GET',
    path: '/employees',
    summary: 'List employees (general group)',
    description:
      'The employees of GET /v1/hr/employees in the general envelope: `page`, `limit` (default 20, max 100), ' +
      '`sort` over hire_date, last_name, created_at (default created_at:desc), filters `status` and ' +
      '`department_id`; salary in major units.',
    query: ListGeneralEmployeesQuerySchema,
    responses: { 200: pageEnvelope(GeneralEmployeeSchema), ...generalErrors() },
    metadata: meta('token', 'HR'),
  },
  createEmployee: {
    method: 'POST',
    path: '/hr/employees',
    summary: 'Create an employee',
    description:
      'An email already used by an employee of the business is 409 CONFLICT; a department that is not the ' +
      "business's is 422 naming `department_id`.",
    headers: IdempotencyHeadersSchema,
    body: CreateEmployeeBodySchema,
    responses: {
      201: resultEnvelope({ employee_id: z.string(), message: z.string(), employee: EmployeeSchema }),
      ...resultErrors(409),
    },
    metadata: hrRoute,
  },
  getEmployee: {
    method: 'GET',
    path: '/hr/employees/:id',
    summary: 'Get an employee',
    pathParams: IdParamsSchema,
    responses: { 200: resultEnvelope({ employee: EmployeeSchema }), ...resultErrors(404) },
    metadata: hrRoute,
  },
  updateEmployee: {
    method: 'PUT',
    path: '/hr/employees/:id',
    summary: 'Update an employee',
    description:
      'Partial update; any status may follow any other. Same refusals as create. An empty body changes nothing.',
    pathParams: IdParamsSchema,
    body: UpdateEmployeeBodySchema,
    responses: {
      200: resultEnvelope({ message: z.string(), employee: EmployeeSchema }),
      ...resultErrors(404, 409),
    },
    metadata: hrRoute,
  },
  deleteEmployee: {
    method: 'DELETE',
    path: '/hr/employees/:id',
    summary: 'Delete an employee',
    description:
      'Soft delete: the employee and their leave requests leave every list and read as 404; a department ' +
      'they head gets `head: null`; their email may be used again.',
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: resultEnvelope({ message: z.string() }), ...resultErrors(404) },
    metadata: hrRoute,
  },
});
