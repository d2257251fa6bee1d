import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { resultData } from '../common/envelopes.js';
import { resultErrors } from '../common/errors.js';
import { meta } from '../common/metadata.js';
import { IdempotencyHeadersSchema, TimestampSchema, dateTimeField } from '../common/schemas.js';

const c = initContract();

export const SandboxClockSchema = extendApi(
  z.object({
    now: TimestampSchema.describe("The sandbox's time: real time plus how far the clock was advanced."),
    advanced_by_seconds: z
      .number()
      .int()
      .describe('How far ahead of real time the clock runs; 0 until it is first advanced or after a reset.'),
  }),
  { title: 'SandboxClock', example: { now: '2027-11-21T09:30:00.000Z', advanced_by_seconds: 31_536_000 } },
);
export type SandboxClock = z.infer<typeof SandboxClockSchema>;

export const DueRunSchema = extendApi(
  z.object({
    points_expired: z.number().int().describe('Point credits whose expiry passed on the way.'),
    vouchers_expired: z.number().int().describe('Redemption vouchers whose validity ended on the way.'),
    reminders_sent: z.number().int().describe('Service reminders that came due and were mailed (captured).'),
    invoices_recurred: z
      .number()
      .int()
      .describe(
        "Invoices recurring invoices made (and issued) for the periods that came, each on its period's date.",
      ),
    bills_recurred: z
      .number()
      .int()
      .describe("Bills recurring bills recorded for the periods that came, each on its period's date."),
    invoice_reminders_sent: z
      .number()
      .int()
      .describe('Overdue-invoice reminders whose step came and were mailed (captured).'),
    campaigns_started: z
      .number()
      .int()
      .describe('Scheduled campaigns whose time came: they are now sending.'),
    vat_alerts_sent: z.number().int().describe('VAT threshold alerts mailed (captured) as windows moved.'),
    revaluations_posted: z
      .number()
      .int()
      .describe('Month ends passed on which foreign balances were revalued (when `revalue_month_ends`).'),
  }),
  { title: 'SandboxDueRun' },
);
export type DueRun = z.infer<typeof DueRunSchema>;

export const AdvanceClockBodySchema = extendApi(
  z
    .object({
      advance_to: dateTimeField(
        "The sandbox's new time: later than its current time, at most 5 years (1,826 days) ahead of it.",
      ),
      revalue_month_ends: z
        .boolean()
        .optional()
        .describe(
          'Revalue foreign balances (POST /v1/finance/revaluations) as of each month end passed on the way, as ' +
            'a month-end close would; default false.',
        ),
    })
    .strict(),
  { title: 'AdvanceClockBody', example: { advance_to: '2027-11-21T09:30:00Z' } },
);
export type AdvanceClockBody = z.infer<typeof AdvanceClockBodySchema>;

const sandboxRoute = meta('token', 'Sandbox');

export const clockContract = c.router({
  getClock: {
    method: 'GET',
    path: '/sandbox/clock',
    summary: "Read the sandbox's test clock",
    description:
      "The sandbox's current time. Sandbox credentials only (a live one gets 403): live businesses always run on " +
      'real time.',
    responses: { 200: resultData(SandboxClockSchema), ...resultErrors() },
    metadata: sandboxRoute,
  },
  advanceClock: {
    method: 'POST',
    path: '/sandbox/clock',
    headers: IdempotencyHeadersSchema,
    summary: "Advance the sandbox's test clock",
    description:
      "Moves the sandbox's clock forward to `advance_to` (never back: an earlier time is 422; at most 5 years a " +
      'call) and runs, day by day in the business time zone and in this order, what became due on the way: ' +
      'point and voucher expiry, service reminders, scheduled campaigns and VAT threshold alerts; overdue ' +
      'invoices and bills follow the new date at once. The clock then keeps running from the new time. ' +
      'Concurrent advances of one sandbox run one after the other, so each rule runs once. Sandbox ' +
      'credentials only (a live one gets 403).',
    body: AdvanceClockBodySchema,
    responses: {
      200: resultData(SandboxClockSchema.extend({ ran: DueRunSchema })),
      ...resultErrors(409),
    },
    metadata: sandboxRoute,
  },
});
