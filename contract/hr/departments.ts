import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { resultEnvelope } from '../common/envelopes.js';
import { resultErrors } from '../common/errors.js';
import { IdempotencyHeadersSchema, IdParamsSchema, idOf, TimestampSchema } from '../common/schemas.js';
import { HrPageQuerySchema, hrRoute } from './shared.js';

const c = initContract();

export const DepartmentSchema = extendApi(
  z.object({
    id: idOf('dep'),
    name: z.string(),
    head: z.string().nullable().describe('Id of the employee who heads the department, or null.'),
    employee_count: z.number().int().describe('Active and on-leave employees of the department.'),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  }),
  {
    title: 'Department',
    example: {
      id: 'dep_01JD7X2R5VQ8N3K4M6P9T1W2Y3',
      name: 'Engineering',
      head: 'emp_01JD7X2R5VQ8N3K4M6P9T1W2Y4',
      employee_count: 12,
      created_at: '2026-11-21T09:30:00.000Z',
      updated_at: '2026-11-21T09:30:00.000Z',
    },
  },
);
export type Department = z.infer<typeof DepartmentSchema>;

const HeadSchema = z
  .string()
  .max(64)
  .describe('Id of an employee of the business (not deleted); 422 otherwise.');

export const CreateDepartmentBodySchema = extendApi(
  z
    .object({
      name: z.string().trim().min(1).max(100).describe('Unique per business, compared case-insensitively.'),
      head: HeadSchema.nullable().optional(),
    })
    .strict(),
  { title: 'CreateDepartmentBody', example: { name: 'Engineering' } },
);
export type CreateDepartmentBody = z.infer<typeof CreateDepartmentBodySchema>;

export const UpdateDepartmentBodySchema = extendApi(CreateDepartmentBodySchema.partial().strict(), {
  title: 'UpdateDepartmentBody',
  example: { head: 'emp_01JD7X2R5VQ8N3K4M6P9T1W2Y4' },
});
export type UpdateDepartmentBody = z.infer<typeof UpdateDepartmentBodySchema>;

export const ListDepartmentsQuerySchema = HrPageQuerySchema;
export type ListDepartmentsQuery = z.infer<typeof ListDepartmentsQuerySchema>;

export const departmentsContract = c.router({
  listDepartments: {
    method: 'GET',
    path: '/hr/departments',
    summary: 'List departments',
    description: 'By name (case-insensitive), then id; `limit` (default 50, max 200) and `offset`.',
    query: ListDepartmentsQuerySchema,
    responses: {
      200: resultEnvelope({ departments: z.array(DepartmentSchema), total_count: z.number().int() }),
      ...resultErrors(),
    },
    metadata: hrRoute,
  },
  createDepartment: {
    method: 'POST',
    path: '/hr/departments',
    summary: 'Create a department',
    description:
      'A name already used by another department of the business (case-insensitive) is 409 CONFLICT; a `head` ' +
      'that is not an employee of the business is 422.',
    headers: IdempotencyHeadersSchema,
    body: CreateDepartmentBodySchema,
    responses: {
      201: resultEnvelope({ department_id: z.string(), message: z.string(), department: DepartmentSchema }),
      ...resultErrors(409),
    },
    metadata: hrRoute,
  },
  getDepartment: {
    method: 'GET',
    path: '/hr/departments/:id',
    summary: 'Get a department',
    pathParams: IdParamsSchema,
    responses: { 200: resultEnvelope({ department: DepartmentSchema }), ...resultErrors(404) },
    metadata: hrRoute,
  },
  updateDepartment: {
    method: 'PUT',
    path: '/hr/departments/:id',
    summary: 'Rename a department or change its head',
    description: 'Partial update; `head: null` removes the head. Same refusals as create.',
    pathParams: IdParamsSchema,
    body: UpdateDepartmentBodySchema,
    responses: {
      200: resultEnvelope({ message: z.string(), department: DepartmentSchema }),
      ...resultErrors(404, 409),
    },
    metadata: hrRoute,
  },
  deleteDepartment: {
    method: 'DELETE',
    path: '/hr/departments/:id',
    summary: 'Delete a department',
    description:
      'Refused with 409 RESOURCE_IN_USE while the department has employees (any status; deleted employees ' +
      'do not count): move them first.',
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: resultEnvelope({ message: z.string() }), ...resultErrors(404, 409) },
    metadata: hrRoute,
  },
});
