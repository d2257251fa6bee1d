import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { dataEnvelope, resultEnvelope } from '../common/envelopes.js';
import { generalErrors, resultErrors } from '../common/errors.js';
import { meta } from '../common/metadata.js';
import { majorAmount, minorAmount } from '../common/money.js';
import { BooleanQuerySchema } from '../common/pagination.js';
import { CurrencySchema, DateSchema, dateField } from '../common/schemas.js';
import { financeRoute } from './shared.js';

const c = initContract();

export const GROUP_BY = ['month', 'quarter', 'year'] as const;

/** The VAT block of the reports; `configured: false` and zeros when there is no configuration. */
export const VatBlockSchema = z.object({
  configured: z.boolean(),
  thresholdAmount: minorAmount('The registration threshold', 9000000),
  currentRevenue: minorAmount(
    "Net revenue of the window in the configuration's currency, every sale counted whatever its currency",
    6120000,
  ),
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
        amount: minorAmount("Net (pre-tax) total, in the invoice's own currency", 45000),
        currency: z.string().describe("The invoice's own currency (with `converted=true`, any of them)."),
        status: z.string().describe('unpaid, paid or overdue.'),
      }),
    ),
    periods: z.array(
      z.object({
        period: z.string().describe('YYYY-MM, YYYY-Qn or YYYY.'),
        label: z.string().describe('"January 2026", "Q1 2026" or "2026".'),
        revenue: minorAmount('Net revenue of the period', 1250000),
        invoiceCount: z.number().int(),
        cumulative: minorAmount('Net revenue from the first period to this one', 3400000),
      }),
    ),
    summary: z.object({
      totalRevenue: minorAmount('Net revenue of the whole range', 3400000),
      totalInvoices: z.number().int(),
      currency: z.string().describe('The currency of the sums: the base currency with `converted=true`.'),
    }),
    vatThreshold: VatBlockSchema,
  }),
  { title: 'SalesSchedule' },
);
export type SalesSchedule = z.infer<typeof SalesScheduleSchema>;

/**
 * `converted`: every currency's sales in the base currency (docs/decisions.md D278). A query string
 * carries `true` or `false` (as the document says); the typed client may also be given a boolean,
 * which it writes as that text, so that a parsed query (this file's types) is still one it can send.
 */
const FlagSchema = z.preprocess(
  (value) => (typeof value === 'boolean' ? String(value) : value),
  BooleanQuerySchema,
) as z.ZodType<boolean, z.ZodTypeDef, boolean | 'true' | 'false'>;

const converted = FlagSchema.optional().describe(
  'Default `false`: only the sales in `currency`, in their own amounts. `true`: every sale, whatever its currency, ' +
    "in the business's base currency at the rate its invoice posted at (a credit note at its invoice's); " +
    '`currency` may then only be the base currency (422 naming `converted` otherwise).',
);

export const SalesScheduleQuerySchema = z.object({
  startDate: DateSchema,
  endDate: dateField('On or after startDate, at most 10 years later (422 otherwise).'),
  groupBy: z.enum(GROUP_BY).default('month'),
  currency: CurrencySchema.optional().describe("Default: the business's base currency."),
  converted,
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
    ytdRevenue: minorAmount("Net revenue from 1 January of asOfDate's year", 5400000),
    rolling12MonthRevenue: minorAmount('Net revenue of the 12 months ending asOfDate', 6120000),
    monthlyAverage: minorAmount('rolling12MonthRevenue / 12, rounded half up', 510000),
    projectedAnnual: minorAmount('ytdRevenue scaled to the whole year by days elapsed', 6050000),
    currency: z.string(),
    asOfDate: DateSchema,
    vatThreshold: VatBlockSchema.optional().describe('Present when a threshold is configured.'),
  }),
  { title: 'RevenueMetrics' },
);
export type RevenueMetrics = z.infer<typeof RevenueMetricsSchema>;

export const RevenueCalculatorQuerySchema = z.object({
  asOfDate: DateSchema.optional().describe("Default: today in the business's time zone."),
  currency: CurrencySchema.optional().describe("Default: the business's base currency."),
  converted,
});
export type RevenueCalculatorQuery = z.infer<typeof RevenueCalculatorQuerySchema>;

const PnlAccountSchema = z.object({
  code: z.string(),
  name: z.string(),
  amount: majorAmount('Net movement of the account over the range', 4500),
});

export const ProfitLossSchema = extendApi(
  z.object({
    start_date: DateSchema,
    end_date: DateSchema,
    currency: z.string(),
    revenue: z.object({
      total: majorAmount('Revenue of the range', 4500),
      accounts: z.array(PnlAccountSchema),
    }),
    expenses: z.object({
      total: majorAmount('Expenses of the range', 1200),
      accounts: z.array(PnlAccountSchema),
    }),
    net_profit: majorAmount('revenue.total less expenses.total', 3300),
  }),
  { title: 'ProfitLoss' },
);
export type ProfitLoss = z.infer<typeof ProfitLossSchema>;

export const ProfitLossQuerySchema = z.object({
  start_date: DateSchema,
  end_date: dateField('On or after start_date, at most 10 years later (422 otherwise).'),
  currency: CurrencySchema.optional().describe(
    "Default: every currency, each line converted to the business's base currency at the rate it posted at. " +
      "A currency: only that currency's entries, in their own amounts.",
  ),
});
export type ProfitLossQuery = z.infer<typeof ProfitLossQuerySchema>;

export const reportsContract = c.router({
  getSalesSchedule: {
    method: 'GET',
    path: '/get/salesSchedule',
    summary: 'Sales schedule',
    description:
      'Net revenue of issued, non-void invoices by issue date, less the net of live credit notes by theirs, in ' +
      'one currency (or, with `converted=true`, every currency in the base currency): every period of the range ' +
      '(empty ones at 0) with a running cumulative, a summary, the VAT block, and the invoices themselves paged ' +
      'by `limit`/`offset` (issue date, then number).',
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
      'elapsed (asOfDate counts as elapsed); integers, rounded half up. One currency, or with `converted=true` ' +
      'every currency in the base currency.',
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
