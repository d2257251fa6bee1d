import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { resultEnvelope } from '../common/envelopes.js';
import { resultErrors } from '../common/errors.js';
import {
  DateSchema,
  dateField,
  IdempotencyHeadersSchema,
  IdParamsSchema,
  idOf,
  TimestampSchema,
} from '../common/schemas.js';
import { LeaveTypeNameSchema } from './leave-types.js';
import { HrPageQuerySchema, hrRoute } from './shared.js';

const c = initContract();

export const LEAVE_STATUSES = ['pending', 'approved', 'rejected', 'cancelled'] as const;
export type LeaveStatus = (typeof LEAVE_STATUSES)[number];

/** The longest leave one request may cover, in calendar days (longer leaves are split). */
export const MAX_LEAVE_SPAN_DAYS = 1096;

export const LeaveSchema = extendApi(
  z.object({
    id: idOf('lv'),
    employee_id: z.string(),
    employee_name: z.string().describe('First and last name of the employee.'),
    type: z.string().describe("The leave type's name (`GET /v1/hr/leave-types`)."),
    paid: z.boolean().describe('Whether the leave type is paid.'),
    start_date: DateSchema,
    end_date: dateField('Last day of the leave (inclusive).'),
    days: z
      .number()
      .int()
      .describe(
        'Working days from start_date to end_date inclusive: Monday to Friday, less public holidays ' +
          '(`/v1/hr/holidays`).',
      ),
    status: z.enum(LEAVE_STATUSES),
    reason: z.string().nullable().describe("The employee's reason for the request."),
    status_reason: z.string().nullable().describe('The reason given with the last status change.'),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  }),
  {
    title: 'Leave',
    example: {
      id: 'lv_01JD7X2R5VQ8N3K4M6P9T1W2Y5',
      employee_id: 'emp_01JD7X2R5VQ8N3K4M6P9T1W2Y4',
      employee_name: 'Grace Hopper',
      type: 'annual',
      paid: true,
      start_date: '2026-12-21',
      end_date: '2027-01-01',
      days: 8,
      status: 'pending',
      reason: 'Holidays',
      status_reason: null,
      created_at: '2026-11-21T09:30:00.000Z',
      updated_at: '2026-11-21T09:30:00.000Z',
    },
  },
);
export type Leave = z.infer<typeof LeaveSchema>;

const ReasonSchema = z.string().trim().max(1000);

export const CreateLeaveBodySchema = extendApi(
  z
    .object({
      employee_id: z
        .string()
        .max(64)
        .describe('An employee of the business who is not inactive; 422 otherwise.'),
      type: LeaveTypeNameSchema.describe(
        'A leave type of the business, by name (case forgiven): annual, sick, unpaid, parental, other, or ' +
          'one of its own (`GET /v1/hr/leave-types`); 422 naming `type` otherwise.',
      ),
      start_date: DateSchema,
      end_date: dateField(
        `On or after start_date, at most ${MAX_LEAVE_SPAN_DAYS} days after it (422 otherwise).`,
      ),
      reason: ReasonSchema.optional(),
    })
    .strict(),
  {
    title: 'CreateLeaveBody',
    example: {
      employee_id: 'emp_01JD7X2R5VQ8N3K4M6P9T1W2Y4',
      type: 'annual',
      start_date: '2026-12-21',
      end_date: '2027-01-01',
      reason: 'Holidays',
    },
  },
);
export type CreateLeaveBody = z.infer<typeof CreateLeaveBodySchema>;

export const UpdateLeaveBodySchema = extendApi(
  z
    .object({
      status: z.enum(['approved', 'rejected', 'cancelled']),
      reason: ReasonSchema.optional().describe('Why; kept as `status_reason`.'),
    })
    .strict(),
  { title: 'UpdateLeaveBody', example: { status: 'approved' } },
);
export type UpdateLeaveBody = z.infer<typeof UpdateLeaveBodySchema>;

export const ListLeavesQuerySchema = HrPageQuerySchema.extend({
  employee_id: z.string().max(64).optional(),
  status: z.enum(LEAVE_STATUSES).optional(),
});
export type ListLeavesQuery = z.infer<typeof ListLeavesQuerySchema>;

export const leavesContract = c.router({
  listLeaves: {
    method: 'GET',
    path: '/hr/leaves',
    summary: 'List leave requests',
    description:
      'Latest start date first (ties by id), filtered by `employee_id` and `status`; `limit` (default 50, ' +
      'max 200), `offset`, `total_count`. Leaves of deleted employees and deleted leaves are not listed.',
    query: ListLeavesQuerySchema,
    responses: {
      200: resultEnvelope({ leaves: z.array(LeaveSchema), total_count: z.number().int() }),
      ...resultErrors(),
    },
    metadata: hrRoute,
  },
  createLeave: {
    method: 'POST',
    path: '/hr/leaves',
    summary: 'Request leave',
    description:
      'Created `pending`. A leave that shares a day with a pending or approved leave of the same employee is ' +
      '409 CONFLICT (the database holds the rule, so concurrent requests cannot both pass); an unknown or ' +
      'inactive employee is 422 naming `employee_id`; end_date before start_date is 422. A request of a ' +
      'tracked type beyond the remaining balance of its year (as of its last day, pending requests ' +
      'holding their days) is 422 INSUFFICIENT_BALANCE naming what remains, unless the type allows negative; ' +
      'concurrent requests of one employee are checked one after the other, so together they cannot overdraw.',
    headers: IdempotencyHeadersSchema,
    body: CreateLeaveBodySchema,
    responses: {
      201: resultEnvelope({ leave_id: z.string(), message: z.string(), leave: LeaveSchema }),
      ...resultErrors(409),
    },
    metadata: hrRoute,
  },
  getLeave: {
    method: 'GET',
    path: '/hr/leaves/:id',
    summary: 'Get a leave request',
    pathParams: IdParamsSchema,
    responses: { 200: resultEnvelope({ leave: LeaveSchema }), ...resultErrors(404) },
    metadata: hrRoute,
  },
  updateLeave: {
    method: 'PUT',
    path: '/hr/leaves/:id',
    summary: 'Approve, reject or cancel a leave request',
    description:
      'pending -> approved | rejected | cancelled; approved -> cancelled. Rejected and cancelled are final; ' +
      'every other move is 409 INVALID_STATE.',
    pathParams: IdParamsSchema,
    body: UpdateLeaveBodySchema,
    responses: {
      200: resultEnvelope({ message: z.string(), leave: LeaveSchema }),
      ...resultErrors(404, 409),
    },
    metadata: hrRoute,
  },
  deleteLeave: {
    method: 'DELETE',
    path: '/hr/leaves/:id',
    summary: 'Delete a leave request',
    description:
      'Removes a pending, rejected or cancelled request from every list. An approved leave is cancelled ' +
      'first (409 INVALID_STATE), so a granted absence never vanishes without a trace.',
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: resultEnvelope({ message: z.string() }), ...resultErrors(404, 409) },
    metadata: hrRoute,
  },
});
