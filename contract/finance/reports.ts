import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { dataEnvelope, resultEnvelope } from '../common/envelopes.js';
import { generalErrors, resultErrors } from '../common/errors.js';
import { meta } from '../common/metadata.js';
import { CurrencySchema, DateSchema } from '../common/schemas.js';
import { financeRoute } from './shared.js';

const c = initContract();

export const GROUP_BY = ['month', 'quarter', 'year'] as const;

/** The VAT block of the reports; `configured: false` and zeros when there is no configuration. */
export const VatBlockSchema = z.object({
  configured: z.boolean(),
  thresholdAmount: z.number().int(),
  currentRevenue: z.number().int(),
  percentageReached: z.number(),
  registered: z.boolean(),
  registrationNumber: z.string().nullable(),
  projectedCrossingDate: DateSchema.nullable(),
});
export type VatBlock = z.infer<typeof VatBlockSchema>;

export const SalesScheduleSchema = extendApi(
  z.object({
    items: z.array(
      z.object({
        invoiceId: z.string(),
        invoiceNumber: z.string(),
        clientName: z.string(),
        issueDate: DateSchema,
        amount: z.number().int().describe('Net (pre-tax) total, minor units.'),
        currency: z.string(),
        status: z.string().describe('unpaid, paid or overdue.'),
      }),
    ),
    periods: z.array(
      z.object({
        period: z.string().describe('YYYY-MM, YYYY-Qn or YYYY.'),
        label: z.string().describe('"January 2026", "Q1 2026" or "2026".'),
        revenue: z.number().int(),
        invoiceCount: z.number().int(),
        cumulative: z.number().int(),
      }),
    ),
    summary: z.object({
      totalRevenue: z.number().int(),
      totalInvoices: z.number().int(),
      currency: z.string(),
    }),
    vatThreshold: VatBlockSchema,
  }),
  { title: 'SalesSchedule' },
);
export type SalesSchedule = z.infer<typeof SalesScheduleSchema>;

export const SalesScheduleQuerySchema = z.object({
  startDate: DateSchema,
  endDate: DateSchema.describe('On or after startDate, at most 10 years later (422 otherwise).'),
  groupBy: z.enum(GROUP_BY).default('month'),
  currency: CurrencySchema.optional().describe("Default: the business's base currency."),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(5000)
    .default(1000)
    .describe('Items per page (periods are whole).'),
  offset: z.coerce.number().int().min(0).max(100_000_000).default(0),
});
export type SalesScheduleQuery = z.infer<typeof SalesScheduleQuerySchema>;

export const RevenueMetricsSchema = extendApi(
  z.object({
    ytdRevenue: z.number().int(),
    rolling12MonthRevenue: z.number().int(),
    monthlyAverage: z.number().int(),
    projectedAnnual: z.number().int(),
    currency: z.string(),
    asOfDate: DateSchema,
    vatThreshold: VatBlockSchema.optional().describe('Present when a threshold is configured.'),
  }),
  { title: 'RevenueMetrics' },
);
export type RevenueMetrics = z.infer<typeof RevenueMetricsSchema>;

export const RevenueCalculatorQuerySchema = z.object({
  asOfDate: DateSchema.optional().describe('Default today (UTC).'),
  currency: CurrencySchema.optional().describe("Default: the business's base currency."),
});
export type RevenueCalculatorQuery = z.infer<typeof RevenueCalculatorQuerySchema>;

const PnlAccountSchema = z.object({ code: z.string(), name: z.string(), amount: z.number() });

export const ProfitLossSchema = extendApi(
  z.object({
    start_date: DateSchema,
    end_date: DateSchema,
    currency: z.string(),
    revenue: z.object({ total: z.number(), accounts: z.array(PnlAccountSchema) }),
    expenses: z.object({ total: z.number(), accounts: z.array(PnlAccountSchema) }),
    net_profit: z.number(),
  }),
  { title: 'ProfitLoss' },
);
export type ProfitLoss = z.infer<typeof ProfitLossSchema>;

export const ProfitLossQuerySchema = z.object({
  start_date: DateSchema,
  end_date: DateSchema.describe('On or after start_date, at most 10 years later (422 otherwise).'),
  currency: CurrencySchema.optional().describe("Default: the business's base currency."),
});
export type ProfitLossQuery = z.infer<typeof ProfitLossQuerySchema>;

export const reportsContract = c.router({
  getSalesSchedule: {
    method: 'GET',
    path: '/get/salesSchedule',
    summary: 'Sales schedule',
    description:
      'Net revenue of issued, non-void invoices by issue date in one currency: every period of the range (empty ' +
      'ones at 0) with a running cumulative, a summary, the VAT block, and the invoices themselves paged by ' +
      '`limit`/`offset` (issue date, then number).',
    query: SalesScheduleQuerySchema,
    responses: { 200: resultEnvelope({ data: SalesScheduleSchema }), ...resultErrors() },
    metadata: financeRoute,
  },
  getRevenueCalculator: {
    method: 'GET',
    path: '/get/revenueCalculator',
    summary: 'Revenue calculator',
    description:
      'Year to date, the 12 months ending asOfDate, their monthly average and the year projected from the days ' +
      'elapsed (asOfDate counts as elapsed); integers, rounded half up.',
    query: RevenueCalculatorQuerySchema,
    responses: { 200: resultEnvelope({ data: RevenueMetricsSchema }), ...resultErrors() },
    metadata: financeRoute,
  },
  getProfitLoss: {
    method: 'GET',
    path: '/reports/profit-loss',
    summary: 'Profit and loss',
    description:
      'Revenue and expense accounts of the ledger over the range, in major units of the currency; net_profit = ' +
      'revenue - expenses.',
    query: ProfitLossQuerySchema,
    responses: { 200: dataEnvelope(ProfitLossSchema), ...generalErrors() },
    metadata: meta('token', 'Finance'),
  },
});
