import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { resultEnvelope } from '../common/envelopes.js';
import { resultErrors } from '../common/errors.js';
import {
  DateSchema,
  IdempotencyHeadersSchema,
  IdParamsSchema,
  IdSchema,
  idOf,
  TimestampSchema,
} from '../common/schemas.js';
import { ACCRUALS } from './leave-days.js';
import { HrPageQuerySchema, hrRoute } from './shared.js';

const c = initContract();

/** The leave types every business starts with, none of them tracked (docs/decisions.md D280). */
export const DEFAULT_LEAVE_TYPES = ['annual', 'sick', 'unpaid', 'parental', 'other'] as const;

/** Days with two decimals at most, from 0 to 366. */
const DaysSchema = z
  .number()
  .min(0)
  .max(366)
  .refine((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, { message: 'At most two decimals' });

export const LeaveTypeNameSchema = z
  .string()
  .trim()
  .min(1)
  .max(40)
  .describe('Unique per business, compared case-insensitively; what a leave request names as its `type`.');

export const LeaveTypeSchema = extendApi(
  z.object({
    id: idOf('lt'),
    name: z.string(),
    paid: z.boolean(),
    allow_negative: z
      .boolean()
      .describe('Whether a request may take the balance below zero (otherwise 422 INSUFFICIENT_BALANCE).'),
    tracked: z.boolean().describe('Whether the type has a policy: balances are kept only for tracked types.'),
    days_per_year: z.number().nullable().describe("The policy's days a year; null: untracked."),
    accrual: z
      .enum(ACCRUALS)
      .nullable()
      .describe(
        '`yearly`: the whole year on 1 January; `monthly`: a twelfth on the first of each month; `none`: ' +
          'nothing accrues (only what is carried over, or below zero where allowed). Null when untracked.',
      ),
    carry_over_max: z
      .number()
      .nullable()
      .describe("The most days of a year's remaining balance carried into the next; null when untracked."),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  }),
  {
    title: 'LeaveType',
    example: {
      id: 'lt_01JD7X2R5VQ8N3K4M6P9T1W2Y3',
      name: 'annual',
      paid: true,
      allow_negative: false,
      tracked: true,
      days_per_year: 25,
      accrual: 'monthly',
      carry_over_max: 5,
      created_at: '2026-11-21T09:30:00.000Z',
      updated_at: '2026-11-21T09:30:00.000Z',
    },
  },
);
export type LeaveType = z.infer<typeof LeaveTypeSchema>;

const policyFields = {
  days_per_year: DaysSchema.nullable()
    .optional()
    .describe('Days a year (two decimals at most); null removes the policy and the type is untracked.'),
  accrual: z.enum(ACCRUALS).optional().describe('Default `yearly` when a policy is set.'),
  carry_over_max: DaysSchema.optional().describe('Days carried into the next year at most; default 0.'),
};

export const CreateLeaveTypeBodySchema = extendApi(
  z
    .object({
      name: LeaveTypeNameSchema,
      paid: z.boolean().optional().describe('Default true.'),
      allow_negative: z.boolean().optional().describe('Default false.'),
      ...policyFields,
    })
    .strict(),
  {
    title: 'CreateLeaveTypeBody',
    example: { name: 'study', paid: true, days_per_year: 5, accrual: 'yearly', carry_over_max: 0 },
  },
);
export type CreateLeaveTypeBody = z.infer<typeof CreateLeaveTypeBodySchema>;

export const UpdateLeaveTypeBodySchema = extendApi(
  z
    .object({
      name: LeaveTypeNameSchema.optional().describe('A new name; the requests of the type keep it.'),
      paid: z.boolean().optional(),
      allow_negative: z.boolean().optional(),
      ...policyFields,
    })
    .strict(),
  { title: 'UpdateLeaveTypeBody', example: { days_per_year: 25, accrual: 'monthly', carry_over_max: 5 } },
);
export type UpdateLeaveTypeBody = z.infer<typeof UpdateLeaveTypeBodySchema>;

export const LeaveBalanceSchema = extendApi(
  z.object({
    type: z.string().describe("The leave type's name."),
    leave_type_id: z.string(),
    paid: z.boolean(),
    allow_negative: z.boolean(),
    accrual: z.enum(ACCRUALS),
    entitled: z
      .number()
      .describe("Days a year: the employee's own entitlement where set, otherwise the type's policy."),
    own_entitlement: z.boolean().describe("Whether `entitled` is the employee's own."),
    accrued: z.number().describe('Days accrued in the year by as_of, pro rata from the hire date.'),
    carried_over: z.number().describe('Days carried from the year before (a shortfall in full).'),
    taken: z
      .number()
      .describe('Working days of approved leave in the year (all of it, before and after as_of).'),
    pending: z.number().describe('Working days of pending requests in the year, held until decided.'),
    remaining: z.number().describe('accrued + carried_over - taken - pending.'),
  }),
  {
    title: 'LeaveBalance',
    example: {
      type: 'annual',
      leave_type_id: 'lt_01JD7X2R5VQ8N3K4M6P9T1W2Y3',
      paid: true,
      allow_negative: false,
      accrual: 'monthly',
      entitled: 25,
      own_entitlement: false,
      accrued: 22.92,
      carried_over: 3,
      taken: 15,
      pending: 2,
      remaining: 8.92,
    },
  },
);
export type LeaveBalance = z.infer<typeof LeaveBalanceSchema>;

export const LeaveBalancesQuerySchema = z.object({
  as_of: DateSchema.optional().describe(
    "Default: today in the business's time zone. Its calendar year is the balance year.",
  ),
});

export const LeaveEntitlementParamsSchema = z.object({
  id: IdSchema.describe('Employee id'),
  type: z.string().min(1).max(40).describe("A leave type's name or id."),
});

export const SetLeaveEntitlementBodySchema = extendApi(
  z
    .object({
      days_per_year: DaysSchema.nullable().describe(
        "The employee's own days a year of the type, in place of its policy's; null goes back to the policy.",
      ),
    })
    .strict(),
  { title: 'SetLeaveEntitlementBody', example: { days_per_year: 28 } },
);
export type SetLeaveEntitlementBody = z.infer<typeof SetLeaveEntitlementBodySchema>;

export const leaveTypesContract = c.router({
  listLeaveTypes: {
    method: 'GET',
    path: '/hr/leave-types',
    summary: 'List leave types',
    description: 'By name. Every business starts with annual, sick, unpaid, parental and other, untracked.',
    query: HrPageQuerySchema,
    responses: {
      200: resultEnvelope({ leave_types: z.array(LeaveTypeSchema), total_count: z.number().int() }),
      ...resultErrors(),
    },
    metadata: hrRoute,
  },
  createLeaveType: {
    method: 'POST',
    path: '/hr/leave-types',
    summary: 'Create a leave type',
    description: 'A name already used (case-insensitively) is 409 CONFLICT.',
    headers: IdempotencyHeadersSchema,
    body: CreateLeaveTypeBodySchema,
    responses: {
      201: resultEnvelope({ leave_type_id: z.string(), message: z.string(), leave_type: LeaveTypeSchema }),
      ...resultErrors(409),
    },
    metadata: hrRoute,
  },
  getLeaveType: {
    method: 'GET',
    path: '/hr/leave-types/:id',
    summary: 'Get a leave type',
    pathParams: IdParamsSchema,
    responses: { 200: resultEnvelope({ leave_type: LeaveTypeSchema }), ...resultErrors(404) },
    metadata: hrRoute,
  },
  updateLeaveType: {
    method: 'PUT',
    path: '/hr/leave-types/:id',
    summary: 'Change a leave type and its policy',
    description:
      'Changes the fields sent. Setting `days_per_year` makes the type tracked (balances, and requests beyond ' +
      'them refused unless `allow_negative`); null makes it untracked. A policy applies to every year ' +
      'balances are counted for. A name another type has is 409 CONFLICT.',
    pathParams: IdParamsSchema,
    body: UpdateLeaveTypeBodySchema,
    responses: {
      200: resultEnvelope({ message: z.string(), leave_type: LeaveTypeSchema }),
      ...resultErrors(404, 409),
    },
    metadata: hrRoute,
  },
  deleteLeaveType: {
    method: 'DELETE',
    path: '/hr/leave-types/:id',
    summary: 'Delete a leave type',
    description: 'A type any leave request names (of any status) is 409 RESOURCE_IN_USE.',
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: resultEnvelope({ message: z.string() }), ...resultErrors(404, 409) },
    metadata: hrRoute,
  },
  getLeaveBalances: {
    method: 'GET',
    path: '/hr/employees/:id/leave-balances',
    summary: "An employee's leave balances",
    description:
      'Per tracked leave type, the balance of the calendar year of `as_of`: entitled, accrued, carried over, ' +
      'taken, pending, remaining (docs: accrual pro rata by whole months from the hire date).',
    pathParams: IdParamsSchema,
    query: LeaveBalancesQuerySchema,
    responses: {
      200: resultEnvelope({
        employee_id: z.string(),
        as_of: DateSchema,
        year: z.number().int(),
        balances: z.array(LeaveBalanceSchema),
      }),
      ...resultErrors(404),
    },
    metadata: hrRoute,
  },
  setLeaveEntitlement: {
    method: 'PUT',
    path: '/hr/employees/:id/leave-entitlements/:type',
    summary: "Set an employee's own entitlement to a leave type",
    description:
      "The employee's days a year of the type, in place of the type's policy (which must exist: an untracked " +
      'type is 422 naming `type`); null goes back to the policy.',
    pathParams: LeaveEntitlementParamsSchema,
    body: SetLeaveEntitlementBodySchema,
    responses: {
      200: resultEnvelope({ message: z.string(), balance: LeaveBalanceSchema }),
      ...resultErrors(404),
    },
    metadata: hrRoute,
  },
});
