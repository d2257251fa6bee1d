import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { resultEnvelope } from '../common/envelopes.js';
import { resultErrors } from '../common/errors.js';
import { minorAmount } from '../common/money.js';
import { RateInputSchema, RateSchema } from '../common/rates.js';
import {
  CurrencySchema,
  DateSchema,
  IdempotencyHeadersSchema,
  dateField,
  idOf,
  TimestampSchema,
} from '../common/schemas.js';
import { FinancePageQuerySchema, financeRoute } from './shared.js';

const c = initContract();

/**
 * Several currencies (docs/decisions.md D278): exchange rates to the business's base currency, and
 * revaluations of what is still open in other currencies.
 */

export { RateInputSchema, RateSchema } from '../common/rates.js';

export const RATE_SOURCES = ['manual', 'import', 'demo'] as const;
export const APPLIED_RATE_SOURCES = ['manual', 'import', 'demo', 'feed', 'base'] as const;

export const ExchangeRateSchema = extendApi(
  z.object({
    currency: z.string(),
    date: DateSchema,
    rate: RateSchema,
    source: z.enum(RATE_SOURCES).describe('`manual` (created), `import` (CSV) or `demo` (the sandbox).'),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  }),
  {
    title: 'ExchangeRate',
    example: {
      currency: 'EUR',
      date: '2026-11-27',
      rate: '0.8642',
      source: 'manual',
      created_at: '2026-11-27T16:05:00.000Z',
      updated_at: '2026-11-27T16:05:00.000Z',
    },
  },
);
export type ExchangeRate = z.infer<typeof ExchangeRateSchema>;

export const CreateExchangeRateBodySchema = extendApi(
  z
    .object({
      date: DateSchema,
      currency: CurrencySchema.describe('Not the base currency (its rate is 1).'),
      rate: RateInputSchema,
    })
    .strict(),
  { title: 'CreateExchangeRateBody', example: { date: '2026-11-27', currency: 'EUR', rate: '0.8642' } },
);
export type CreateExchangeRateBody = z.infer<typeof CreateExchangeRateBodySchema>;

export const ListExchangeRatesQuerySchema = FinancePageQuerySchema.extend({
  currency: CurrencySchema.optional(),
  start_date: DateSchema.optional(),
  end_date: DateSchema.optional(),
});

export const AppliedRateSchema = extendApi(
  z.object({
    currency: z.string(),
    base_currency: z.string(),
    date: dateField('The day asked about.'),
    rate: RateSchema,
    rate_date: dateField('The day the rate is of: the latest on or before `date`.'),
    source: z
      .enum(APPLIED_RATE_SOURCES)
      .describe(
        "The business's own rates (`manual`, `import`, `demo`), the daily feed (`feed`), or `base` (1).",
      ),
  }),
  {
    title: 'AppliedRate',
    example: {
      currency: 'EUR',
      base_currency: 'GBP',
      date: '2026-11-28',
      rate: '0.8642',
      rate_date: '2026-11-27',
      source: 'feed',
    },
  },
);
export type AppliedRate = z.infer<typeof AppliedRateSchema>;

export const exchangeRatesContract = c.router({
  listExchangeRates: {
    method: 'GET',
    path: '/finance/exchange-rates',
    summary: 'List exchange rates',
    description: "The business's own rates, newest day first (the daily feed's are not listed: see /lookup).",
    query: ListExchangeRatesQuerySchema,
    responses: {
      200: resultEnvelope({ exchange_rates: z.array(ExchangeRateSchema), total_count: z.number().int() }),
      ...resultErrors(),
    },
    metadata: financeRoute,
  },
  createExchangeRate: {
    method: 'POST',
    path: '/finance/exchange-rates',
    summary: 'Set an exchange rate',
    description:
      'Sets the rate of a currency on a day, replacing one already set on that day. Postings dated on it or ' +
      'after (until the next rate) convert at it; entries already posted keep their rate.',
    headers: IdempotencyHeadersSchema,
    body: CreateExchangeRateBodySchema,
    responses: {
      201: resultEnvelope({ message: z.string(), exchange_rate: ExchangeRateSchema }),
      ...resultErrors(409),
    },
    metadata: financeRoute,
  },
  lookupExchangeRate: {
    method: 'GET',
    path: '/finance/exchange-rates/lookup',
    summary: 'The rate a posting would use',
    description:
      "The latest rate on or before the day: the business's own, else the daily feed's; on the same day the " +
      "business's wins. 404 when there is none.",
    query: z.object({
      currency: CurrencySchema,
      date: dateField("Default: today in the business's time zone.").optional(),
    }),
    responses: { 200: resultEnvelope({ exchange_rate: AppliedRateSchema }), ...resultErrors(404) },
    metadata: financeRoute,
  },
});

// Revaluations --------------------------------------------------------------------------------

export const RevaluationLineSchema = z.object({
  account_code: z.string(),
  currency: z.string(),
  balance: minorAmount('What the account holds in the currency at the end of as_of (debit positive)', 100000),
  base_balance: minorAmount('Its carrying amount in the base currency before the revaluation', 86000),
  rate: RateSchema,
  revalued: minorAmount('The balance at the rate of as_of, in the base currency', 87000),
  difference: minorAmount(
    'revalued - base_balance: posted to the account, 4910 or 5910 taking the other side',
    1000,
  ),
});
export type RevaluationLine = z.infer<typeof RevaluationLineSchema>;

export const RevaluationSchema = extendApi(
  z.object({
    id: idOf('reval'),
    as_of: DateSchema,
    lines: z.array(RevaluationLineSchema),
    gain: minorAmount('Net unrealised gain posted to 4910 (0 when none)', 1000),
    loss: minorAmount('Net unrealised loss posted to 5910 (0 when none)', 0),
    entry_ids: z
      .array(z.string())
      .describe('The entries posted on as_of, one per currency with a difference.'),
    reversal_date: dateField('The day after as_of, when each entry is reversed.'),
    created_at: TimestampSchema,
  }),
  {
    title: 'Revaluation',
    example: {
      id: 'reval_01JD7X2R5VQ8N3K4M6P9T1W2Y3',
      as_of: '2026-11-30',
      lines: [
        {
          account_code: '1200',
          currency: 'EUR',
          balance: 100000,
          base_balance: 86000,
          rate: '0.87',
          revalued: 87000,
          difference: 1000,
        },
      ],
      gain: 1000,
      loss: 0,
      entry_ids: ['je_01JD7X2R5VQ8N3K4M6P9T1W2Y5'],
      reversal_date: '2026-12-01',
      created_at: '2026-11-30T18:00:00.000Z',
    },
  },
);
export type Revaluation = z.infer<typeof RevaluationSchema>;

export const CreateRevaluationBodySchema = z
  .object({ as_of: dateField("On or before today in the business's time zone.") })
  .strict();

export const revaluationsContract = c.router({
  createRevaluation: {
    method: 'POST',
    path: '/finance/revaluations',
    summary: 'Revalue open foreign balances',
    description:
      'Posts, dated as_of, the unrealised exchange gain or loss on receivables (1200), payables (2000) and cash ' +
      'and bank accounts held in currencies other than the base, at the rate of as_of; each entry is reversed ' +
      'the next day. Once per day (409 for a second); a day the lock date closes is 409 PERIOD_LOCKED, even with ' +
      'nothing to post.',
    headers: IdempotencyHeadersSchema,
    body: CreateRevaluationBodySchema,
    responses: {
      201: resultEnvelope({ message: z.string(), revaluation: RevaluationSchema }),
      ...resultErrors(409),
    },
    metadata: financeRoute,
  },
  listRevaluations: {
    method: 'GET',
    path: '/finance/revaluations',
    summary: 'List revaluations',
    query: FinancePageQuerySchema,
    responses: {
      200: resultEnvelope({ revaluations: z.array(RevaluationSchema), total_count: z.number().int() }),
      ...resultErrors(),
    },
    metadata: financeRoute,
  },
});
