import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { resultEnvelope } from '../common/envelopes.js';
import { resultErrors } from '../common/errors.js';
import {
  CurrencySchema,
  DateSchema,
  IdempotencyHeadersSchema,
  idOf,
  TimestampSchema,
} from '../common/schemas.js';
import { minorAmount, minorAmountInput } from '../common/money.js';
import type { CsvRows } from '../common/exports.js';
import { RateInputSchema } from './exchange-rates.js';
import { AccountCodeSchema, FinancePageQuerySchema, financeRoute } from './shared.js';

const c = initContract();

export const SOURCE_TYPES = [
  'bill',
  'bill_payment',
  'invoice',
  'invoice_payment',
  'credit_note',
  'customer_credit',
  'card_refund',
  'payout',
  'bank_opening',
  'bank_transaction',
  'revaluation',
  'void',
  'manual',
] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];

export const JournalLineSchema = z.object({
  account: z.string().describe('Account code.'),
  amount: minorAmount('Amount in the entry currency (0 on an exchange difference)', 120000),
  base_amount: minorAmount(
    "The amount in the business's base currency, at the entry's exchange_rate (a settlement line at its document's)",
    103700,
  ),
});

export const JournalEntrySchema = extendApi(
  z.object({
    id: idOf('je'),
    date: DateSchema,
    description: z.string(),
    debits: z.array(JournalLineSchema),
    credits: z.array(JournalLineSchema),
    currency: z.string(),
    exchange_rate: extendApi(z.string(), {
      description:
        "Units of the base currency one unit of the entry's currency bought (1 in the base currency).",
      example: '1',
    }),
    source: z.object({
      type: z.enum(SOURCE_TYPES),
      id: z
        .string()
        .describe('The document posted (bill, payment, invoice...) or the entry itself for manual ones.'),
    }),
    created_at: TimestampSchema,
  }),
  {
    title: 'JournalEntry',
    example: {
      id: 'je_01JD7X2R5VQ8N3K4M6P9T1W2Y3',
      date: '2026-11-21',
      description: 'Bill from Acme Supplies',
      debits: [{ account: '5000', amount: 120000, base_amount: 120000 }],
      credits: [{ account: '2000', amount: 120000, base_amount: 120000 }],
      currency: 'USD',
      exchange_rate: '1',
      source: { type: 'bill', id: 'bill_01JD7X2R5VQ8N3K4M6P9T1W2Y4' },
      created_at: '2026-11-21T09:30:00.000Z',
    },
  },
);
export type JournalEntry = z.infer<typeof JournalEntrySchema>;

const LineInputSchema = z
  .object({
    account: AccountCodeSchema,
    amount: minorAmountInput({ description: 'Amount in the entry currency', min: 1, example: 120000 }),
  })
  .strict();

export const CreateJournalEntryBodySchema = extendApi(
  z
    .object({
      date: DateSchema,
      description: z.string().trim().min(1).max(500),
      currency: CurrencySchema.optional().describe("Default: the business's base currency."),
      exchange_rate: RateInputSchema.optional().describe(
        'For an entry in another currency than the base: its rate. Default: the latest rate on or before the date.',
      ),
      debits: z.array(LineInputSchema).min(1).max(100),
      credits: z.array(LineInputSchema).min(1).max(100),
    })
    .strict(),
  {
    title: 'CreateJournalEntryBody',
    example: {
      date: '2026-11-30',
      description: 'Owner investment',
      debits: [{ account: '1010', amount: 500000 }],
      credits: [{ account: '3000', amount: 500000 }],
    },
  },
);
export type CreateJournalEntryBody = z.infer<typeof CreateJournalEntryBodySchema>;

/**
 * A journal export's row (`Accept: text/csv`): one per line of an entry, debit lines first, as an
 * accountant's spreadsheet holds a journal; the entry's fields repeat on each of its lines.
 */
export const JournalLineCsvSchema = z.object({
  id: JournalEntrySchema.shape.id,
  date: DateSchema,
  description: z.string(),
  currency: z.string(),
  exchange_rate: z.string(),
  source: JournalEntrySchema.shape.source,
  created_at: TimestampSchema,
  account: z.string(),
  debit: z.number().int().nullable(),
  credit: z.number().int().nullable(),
  base_debit: z.number().int().nullable(),
  base_credit: z.number().int().nullable(),
});

const journalCsv: CsvRows<JournalEntry, z.infer<typeof JournalLineCsvSchema>> = {
  row: JournalLineCsvSchema,
  rowsOf: ({ debits, credits, ...entry }) => [
    ...debits.map((l) => ({
      ...entry,
      account: l.account,
      debit: l.amount,
      credit: null,
      base_debit: l.base_amount,
      base_credit: null,
    })),
    ...credits.map((l) => ({
      ...entry,
      account: l.account,
      debit: null,
      credit: l.amount,
      base_debit: null,
      base_credit: l.base_amount,
    })),
  ],
};

export const ListJournalQuerySchema = FinancePageQuerySchema.extend({
  start_date: DateSchema.optional(),
  end_date: DateSchema.optional(),
  account: AccountCodeSchema.optional().describe('Only entries with a line on this account.'),
});
export type ListJournalQuery = z.infer<typeof ListJournalQuerySchema>;

export const journalContract = c.router({
  listJournal: {
    method: 'GET',
    path: '/finance/journal',
    summary: 'Journal entries',
    description:
      'Newest date first (ties: newest entry first), between `start_date` and `end_date` inclusive, with a line ' +
      'on `account` when given; `limit` (default 50, max 200), `offset`, `total_count`. As CSV, one row per line ' +
      "(`account`, `debit`, `credit`), the entry's fields repeated on each.",
    query: ListJournalQuerySchema,
    responses: {
      200: resultEnvelope({ entries: z.array(JournalEntrySchema), total_count: z.number().int() }),
      ...resultErrors(),
    },
    metadata: { ...financeRoute, csv: journalCsv },
  },
  createJournalEntry: {
    method: 'POST',
    path: '/finance/journal',
    summary: 'Post a manual entry',
    description:
      'Debits must equal credits (422 naming the difference); every account must be in the chart (422). ' +
      'Posted entries never change: correct one with another entry.',
    headers: IdempotencyHeadersSchema,
    body: CreateJournalEntryBodySchema,
    responses: {
      201: resultEnvelope({ entry_id: z.string(), message: z.string(), entry: JournalEntrySchema }),
      ...resultErrors(409),
    },
    metadata: financeRoute,
  },
});
