import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { resultEnvelope } from '../common/envelopes.js';
import { resultErrors } from '../common/errors.js';
import { minorAmount } from '../common/money.js';
import {
  CurrencySchema,
  DateSchema,
  IdempotencyHeadersSchema,
  IdParamsSchema,
  idOf,
} from '../common/schemas.js';
import {
  DueDaysSchema,
  EndAfterCountSchema,
  IntervalCountSchema,
  RecurringStatusSchema,
  ScheduleIntervalSchema,
  scheduleFields,
} from '../general/recurring-invoices.js';
import { BillItemInputSchema, BillItemSchema } from './bills.js';
import { FinancePageQuerySchema, financeRoute } from './shared.js';

const c = initContract();

export const RecurringBillSchema = extendApi(
  z.object({
    id: idOf('rbill'),
    vendor_id: z.string(),
    vendor_name: z.string(),
    currency: z.string(),
    items: z.array(BillItemSchema).describe('The lines each bill is recorded with.'),
    amount: minorAmount('What each bill comes to, tax included', 11996),
    notes: z.string().nullable(),
    bills_created: z.number().int().describe('How many bills the schedule has recorded.'),
    ...scheduleFields,
  }),
  {
    title: 'RecurringBill',
    example: {
      id: 'rbill_01JD7X2R5VQ8N3K4M6P9T1W2Y3',
      vendor_id: 'ven_01JD7X2R5VQ8N3K4M6P9T1W2Y3',
      vendor_name: 'Office Supplies Ltd',
      currency: 'USD',
      items: [
        { description: 'Office rent', quantity: 1, unit_price: 120000, amount: 120000, tax_rate: 0, tax: 0 },
      ],
      amount: 120000,
      notes: null,
      bills_created: 2,
      interval: 'month',
      interval_count: 1,
      start_date: '2027-01-01',
      end_after_count: null,
      end_date: '2027-12-31',
      due_days: 30,
      status: 'active',
      next_run_on: '2027-03-01',
      created_at: '2026-12-20T09:30:00.000Z',
      updated_at: '2027-02-01T00:00:00.000Z',
      ended_at: null,
    },
  },
);
export type RecurringBill = z.infer<typeof RecurringBillSchema>;

export const CreateRecurringBillBodySchema = extendApi(
  z
    .object({
      vendor_id: z.string().max(64).describe('A vendor of the business; 422 otherwise.'),
      currency: CurrencySchema.optional().describe("Default: the business's base currency."),
      items: z.array(BillItemInputSchema).min(1).max(200),
      interval: ScheduleIntervalSchema,
      interval_count: IntervalCountSchema.optional().describe('Default 1.'),
      start_date: extendApi(DateSchema, {
        description: "The first bill's date: today or later on the business's calendar (422 otherwise).",
      }),
      end_after_count: EndAfterCountSchema.optional(),
      end_date: extendApi(DateSchema, {
        description: 'No bill after this date; on or after `start_date`. Give this or `end_after_count`.',
      }).optional(),
      due_days: DueDaysSchema.optional(),
      notes: z.string().max(2000).nullable().optional(),
    })
    .strict(),
  {
    title: 'CreateRecurringBillBody',
    example: {
      vendor_id: 'ven_01JD7X2R5VQ8N3K4M6P9T1W2Y3',
      currency: 'USD',
      items: [{ description: 'Office rent', quantity: 1, unit_price: 120000 }],
      interval: 'month',
      start_date: '2027-01-01',
      end_date: '2027-12-31',
    },
  },
);
export type CreateRecurringBillBody = z.infer<typeof CreateRecurringBillBodySchema>;

export const UpdateRecurringBillBodySchema = extendApi(
  CreateRecurringBillBodySchema.omit({ vendor_id: true, end_after_count: true, end_date: true })
    .extend({
      end_after_count: EndAfterCountSchema.nullable()
        .optional()
        .describe('Counted with the bills already recorded; null removes it. At most one of the two ends.'),
      end_date: extendApi(DateSchema.nullable(), {
        description: 'No bill after this date; null removes it.',
      }).optional(),
    })
    .partial()
    .strict(),
  { title: 'UpdateRecurringBillBody', example: { due_days: 14 } },
);
export type UpdateRecurringBillBody = z.infer<typeof UpdateRecurringBillBodySchema>;

export const ListRecurringBillsQuerySchema = FinancePageQuerySchema.extend({
  status: RecurringStatusSchema.optional(),
  vendor_id: z.string().max(64).optional(),
});
export type ListRecurringBillsQuery = z.infer<typeof ListRecurringBillsQuerySchema>;

const recurringBillAnswer = resultEnvelope({ message: z.string(), recurring_bill: RecurringBillSchema });

export const recurringBillsContract = c.router({
  listRecurringBills: {
    method: 'GET',
    path: '/finance/recurring-bills',
    summary: 'List recurring bills',
    description:
      'Newest first (ties by id); filters `status` and `vendor_id`; `limit`, `offset`, `total_count`.',
    query: ListRecurringBillsQuerySchema,
    responses: {
      200: resultEnvelope({ recurring_bills: z.array(RecurringBillSchema), total_count: z.number().int() }),
      ...resultErrors(),
    },
    metadata: financeRoute,
  },
  createRecurringBill: {
    method: 'POST',
    path: '/finance/recurring-bills',
    summary: 'Record a bill on a schedule',
    description:
      "On each period's date (the business's calendar day) the service records the period's bill, pending and " +
      'posted (Dr 5000 Expenses / Cr 2000 Accounts payable) on that date, due `due_days` later, with ' +
      '`recurring_bill_id` set. Exactly one bill per period; periods that passed while nothing ran are caught ' +
      'up, each dated in its own period. Refused (422 naming the field): a start date before today, an end ' +
      'date before the start, both ends, an unknown vendor.',
    headers: IdempotencyHeadersSchema,
    body: CreateRecurringBillBodySchema,
    responses: {
      201: resultEnvelope({
        recurring_bill_id: z.string(),
        message: z.string(),
        recurring_bill: RecurringBillSchema,
      }),
      ...resultErrors(409),
    },
    metadata: financeRoute,
  },
  getRecurringBill: {
    method: 'GET',
    path: '/finance/recurring-bills/:id',
    summary: 'Get a recurring bill',
    pathParams: IdParamsSchema,
    responses: { 200: resultEnvelope({ recurring_bill: RecurringBillSchema }), ...resultErrors(404) },
    metadata: financeRoute,
  },
  updateRecurringBill: {
    method: 'PUT',
    path: '/finance/recurring-bills/:id',
    summary: 'Change the bills still to come',
    description:
      'Partial; items replace the old ones. Bills already recorded stay. A new `start_date`, `interval` or ' +
      '`interval_count` starts the schedule again from the start date (today or later). An ended schedule is ' +
      '409 INVALID_STATE.',
    pathParams: IdParamsSchema,
    body: UpdateRecurringBillBodySchema,
    responses: { 200: recurringBillAnswer, ...resultErrors(404, 409) },
    metadata: financeRoute,
  },
  pauseRecurringBill: {
    method: 'POST',
    path: '/finance/recurring-bills/:id/pause',
    summary: 'Pause a recurring bill',
    description:
      'No bill is recorded while paused; the periods that fall meanwhile are skipped. An ended schedule is 409 ' +
      'INVALID_STATE.',
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: recurringBillAnswer, ...resultErrors(404, 409) },
    metadata: financeRoute,
  },
  resumeRecurringBill: {
    method: 'POST',
    path: '/finance/recurring-bills/:id/resume',
    summary: 'Resume a paused recurring bill',
    description: 'Continues with the first period on or after today; an ended schedule is 409 INVALID_STATE.',
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: recurringBillAnswer, ...resultErrors(404, 409) },
    metadata: financeRoute,
  },
  endRecurringBill: {
    method: 'DELETE',
    path: '/finance/recurring-bills/:id',
    summary: 'End a recurring bill',
    description:
      'No further bill is recorded; those already recorded stay. Ending an ended schedule changes nothing.',
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: recurringBillAnswer, ...resultErrors(404) },
    metadata: financeRoute,
  },
});
