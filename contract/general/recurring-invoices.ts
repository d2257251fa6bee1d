import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { dataEnvelope, pageEnvelope } from '../common/envelopes.js';
import { generalErrors } from '../common/errors.js';
import { meta } from '../common/metadata.js';
import { majorAmount } from '../common/money.js';
import { PageQuerySchema, sortQuery } from '../common/pagination.js';
import { MAX_INTERVAL_COUNT, SCHEDULE_INTERVALS } from '../common/schedule.js';
import {
  CurrencySchema,
  DateSchema,
  IdParamsSchema,
  IdempotencyHeadersSchema,
  TimestampSchema,
  idOf,
} from '../common/schemas.js';
import { InvoiceItemInputSchema, InvoiceItemSchema } from './invoices.js';

const c = initContract();

export const RECURRING_STATUSES = ['active', 'paused', 'ended'] as const;
export const RecurringStatusSchema = extendApi(z.enum(RECURRING_STATUSES), {
  description:
    '`active` makes a document on each period; `paused` makes none (periods that fall while paused are ' +
    'skipped, not caught up); `ended` for good (its end reached, or `DELETE`).',
});

export const ScheduleIntervalSchema = extendApi(z.enum(SCHEDULE_INTERVALS), {
  description:
    "The unit of a period. Months, quarters and years keep the start date's day, clamped to short months " +
    '(31 Jan, 28 or 29 Feb, 31 Mar, 30 Apr), each period counted from the start date.',
});

export const IntervalCountSchema = z
  .number()
  .int()
  .min(1)
  .max(MAX_INTERVAL_COUNT)
  .describe('How many intervals one period spans, 1 to 12 (2 with `week`: every other week).');

export const DueDaysSchema = z
  .number()
  .int()
  .min(0)
  .max(365)
  .describe("Net terms: each document's due date is this many days after its date (0 to 365; default 30).");

export const EndAfterCountSchema = z
  .number()
  .int()
  .min(1)
  .max(1000)
  .describe('Ends after making this many documents (1 to 1,000). Give this or `end_date`, not both.');

/** The fields both recurring invoices and recurring bills answer with, about their schedule. */
export const scheduleFields = {
  interval: ScheduleIntervalSchema,
  interval_count: z.number().int().describe('How many intervals one period spans.'),
  start_date: extendApi(DateSchema, {
    description: 'The first period; its day is the anchor of the others.',
  }),
  end_after_count: z.number().int().nullable().describe('Ends after this many documents; null when not.'),
  end_date: extendApi(DateSchema.nullable(), { description: 'No period after this date; null when none.' }),
  due_days: z.number().int().describe("Each document's due date is this many days after its date."),
  status: RecurringStatusSchema,
  next_run_on: extendApi(DateSchema.nullable(), {
    description: "The date of the next document, on the business's calendar; null once ended.",
  }),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
  ended_at: TimestampSchema.nullable(),
};

export const RecurringInvoiceSchema = extendApi(
  z.object({
    id: idOf('rinv'),
    customer_id: z.string(),
    customer: z.object({ id: z.string(), name: z.string() }),
    currency: z.string(),
    items: z.array(InvoiceItemSchema).describe('The lines each invoice is made with.'),
    subtotal: majorAmount('Sum of the line totals (after their discounts), before tax', 450),
    tax: majorAmount('Sum of the item taxes, rounded half-up once', 90),
    total: majorAmount('What each invoice comes to: subtotal + tax', 540),
    notes: z.string().nullable(),
    auto_send: z
      .boolean()
      .describe("Each invoice is mailed as `POST /v1/invoices/:id/send` does (to the customer's email)."),
    invoices_created: z.number().int().describe('How many invoices the schedule has made.'),
    ...scheduleFields,
  }),
  {
    title: 'RecurringInvoice',
    example: {
      id: 'rinv_01JD7X2R5VQ8N3K4M6P9T1W2Y3',
      customer_id: 'cus_01JD7X2R5VQ8N3K4M6P9T1W2Y3',
      customer: { id: 'cus_01JD7X2R5VQ8N3K4M6P9T1W2Y3', name: 'Ada Lovelace' },
      currency: 'USD',
      items: [
        {
          id: 'item_01JD7X2R5VQ8N3K4M6P9T1W2Y4',
          product_id: null,
          description: 'Monthly support',
          quantity: 3,
          unit_price: 150,
          tax_rate: 20,
          discount_percent: 0,
          total: 450,
          tax: 90,
        },
      ],
      subtotal: 450,
      tax: 90,
      total: 540,
      notes: null,
      auto_send: true,
      invoices_created: 2,
      interval: 'month',
      interval_count: 1,
      start_date: '2027-01-31',
      end_after_count: 12,
      end_date: null,
      due_days: 30,
      status: 'active',
      next_run_on: '2027-03-31',
      created_at: '2027-01-20T09:30:00.000Z',
      updated_at: '2027-02-28T00:00:00.000Z',
      ended_at: null,
    },
  },
);
export type RecurringInvoice = z.infer<typeof RecurringInvoiceSchema>;

export const CreateRecurringInvoiceBodySchema = extendApi(
  z
    .object({
      customer_id: z.string().max(64).describe('A customer of the business (unknown or deleted: 422).'),
      currency: CurrencySchema.optional().describe("Defaults to the business's base currency."),
      items: z
        .array(InvoiceItemInputSchema)
        .min(1)
        .max(200)
        .describe('As invoice items; products are read now.'),
      interval: ScheduleIntervalSchema,
      interval_count: IntervalCountSchema.optional().describe('Default 1.'),
      start_date: extendApi(DateSchema, {
        description: "The first invoice's date: today or later on the business's calendar (422 otherwise).",
      }),
      end_after_count: EndAfterCountSchema.optional(),
      end_date: extendApi(DateSchema, {
        description: 'No invoice after this date; on or after `start_date`. Give this or `end_after_count`.',
      }).optional(),
      due_days: DueDaysSchema.optional(),
      auto_send: z.boolean().optional().describe('Mail each invoice when it is made; default false.'),
      notes: z.string().max(2000).nullable().optional(),
    })
    .strict(),
  {
    title: 'CreateRecurringInvoiceBody',
    example: {
      customer_id: 'cus_01JD7X2R5VQ8N3K4M6P9T1W2Y3',
      currency: 'USD',
      items: [{ description: 'Monthly support', quantity: 3, unit_price: 150, tax_rate: 20 }],
      interval: 'month',
      start_date: '2027-01-31',
      end_after_count: 12,
      auto_send: true,
    },
  },
);
export type CreateRecurringInvoiceBody = z.infer<typeof CreateRecurringInvoiceBodySchema>;

export const UpdateRecurringInvoiceBodySchema = extendApi(
  CreateRecurringInvoiceBodySchema.omit({
    customer_id: true,
    start_date: true,
    end_after_count: true,
    end_date: true,
  })
    .extend({
      start_date: extendApi(DateSchema, {
        description: 'A new first period (today or later): the schedule starts again from it.',
      }).optional(),
      end_after_count: EndAfterCountSchema.nullable()
        .optional()
        .describe('Counted with the invoices already made; null removes it. At most one of the two ends.'),
      end_date: extendApi(DateSchema.nullable(), {
        description: 'No invoice after this date; null removes it.',
      }).optional(),
    })
    .partial()
    .strict(),
  {
    title: 'UpdateRecurringInvoiceBody',
    example: { items: [{ description: 'Monthly support', quantity: 4, unit_price: 150, tax_rate: 20 }] },
  },
);
export type UpdateRecurringInvoiceBody = z.infer<typeof UpdateRecurringInvoiceBodySchema>;

export const RECURRING_SORT_FIELDS = ['created_at', 'next_run_on'] as const;

export const ListRecurringInvoicesQuerySchema = PageQuerySchema.extend({
  status: RecurringStatusSchema.optional(),
  customer_id: z.string().max(64).optional(),
  sort: sortQuery(RECURRING_SORT_FIELDS),
});
export type ListRecurringInvoicesQuery = z.infer<typeof ListRecurringInvoicesQuerySchema>;

const recurringInvoiceResponse = dataEnvelope(RecurringInvoiceSchema);

export const recurringInvoicesContract = c.router({
  listRecurringInvoices: {
    method: 'GET',
    path: '/recurring-invoices',
    summary: 'List recurring invoices',
    description: 'Newest first unless `sort` says otherwise; ties are broken by id so pages are stable.',
    query: ListRecurringInvoicesQuerySchema,
    responses: { 200: pageEnvelope(RecurringInvoiceSchema), ...generalErrors() },
    metadata: meta('token', 'Recurring invoices'),
  },
  createRecurringInvoice: {
    method: 'POST',
    path: '/recurring-invoices',
    summary: 'Bill a customer on a schedule',
    description:
      "On each period's date (the business's calendar day) the service makes the invoice, numbered as usual, " +
      "issues it (posted to the ledger, the customer's credit applied) with `recurring_invoice_id` set and " +
      '`due_date` `due_days` later, and mails it when `auto_send`. Exactly one invoice per period; periods that ' +
      'passed while nothing ran are caught up, each dated in its own period. Refused (422 naming the field): a ' +
      'start date before today, an end date before the start, both ends, an unknown or deleted customer, items ' +
      'as `POST /v1/invoices` refuses them.',
    headers: IdempotencyHeadersSchema,
    body: CreateRecurringInvoiceBodySchema,
    responses: { 201: recurringInvoiceResponse, ...generalErrors(409) },
    metadata: meta('token', 'Recurring invoices'),
  },
  getRecurringInvoice: {
    method: 'GET',
    path: '/recurring-invoices/:id',
    summary: 'Get a recurring invoice',
    pathParams: IdParamsSchema,
    responses: { 200: recurringInvoiceResponse, ...generalErrors(404) },
    metadata: meta('token', 'Recurring invoices'),
  },
  updateRecurringInvoice: {
    method: 'PUT',
    path: '/recurring-invoices/:id',
    summary: 'Change the invoices still to come',
    description:
      'Partial; `items` replaces the lines. Invoices already made stay as they are. A new `start_date`, ' +
      '`interval` or `interval_count` starts the schedule again from the start date (today or later). An ended ' +
      'schedule is 409 INVALID_STATE.',
    pathParams: IdParamsSchema,
    body: UpdateRecurringInvoiceBodySchema,
    responses: { 200: recurringInvoiceResponse, ...generalErrors(404, 409) },
    metadata: meta('token', 'Recurring invoices'),
  },
  pauseRecurringInvoice: {
    method: 'POST',
    path: '/recurring-invoices/:id/pause',
    headers: IdempotencyHeadersSchema,
    summary: 'Pause a recurring invoice',
    description:
      'No invoice is made while paused, and the periods that fall meanwhile are skipped. Pausing a paused ' +
      'schedule changes nothing; an ended one is 409 INVALID_STATE.',
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: recurringInvoiceResponse, ...generalErrors(404, 409) },
    metadata: meta('token', 'Recurring invoices'),
  },
  resumeRecurringInvoice: {
    method: 'POST',
    path: '/recurring-invoices/:id/resume',
    headers: IdempotencyHeadersSchema,
    summary: 'Resume a paused recurring invoice',
    description:
      'Continues with the first period on or after today. Resuming an active schedule changes nothing; an ' +
      'ended one is 409 INVALID_STATE.',
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: recurringInvoiceResponse, ...generalErrors(404, 409) },
    metadata: meta('token', 'Recurring invoices'),
  },
  endRecurringInvoice: {
    method: 'DELETE',
    path: '/recurring-invoices/:id',
    summary: 'End a recurring invoice',
    description:
      'No further invoice is made; those already made stay. Ending an ended schedule changes nothing.',
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: recurringInvoiceResponse, ...generalErrors(404) },
    metadata: meta('token', 'Recurring invoices'),
  },
});
