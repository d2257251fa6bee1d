import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { resultEnvelope } from '../common/envelopes.js';
import { resultErrors } from '../common/errors.js';
import { BooleanQuerySchema } from '../common/pagination.js';
import { MAX_AMOUNT_MINOR, minorAmount, minorAmountInput } from '../common/money.js';
import {
  CurrencySchema,
  DateSchema,
  dateField,
  IdempotencyHeadersSchema,
  IdParamsSchema,
  idOf,
  TimestampSchema,
} from '../common/schemas.js';
import { FinancePageQuerySchema, financeRoute } from './shared.js';

const c = initContract();

/**
 * Bank accounts (docs/decisions.md D272): each the business's account at a bank, in one currency,
 * with an asset account of its own in the chart, where its statements are imported and reconciled.
 */
export const BankAccountSchema = extendApi(
  z.object({
    id: idOf('bank'),
    name: z.string(),
    currency: z.string().describe('ISO 4217; statements of another currency are refused.'),
    account_number_last4: z
      .string()
      .nullable()
      .describe('The last characters of the account number, to tell accounts apart; never the number.'),
    account_code: z
      .string()
      .describe('Its asset account in the chart: 1100 for the first bank account, 1101 for the next, ...'),
    opening_balance: minorAmount('The balance on `opening_date`, posted Dr the account / Cr 3000', 250000),
    opening_date: DateSchema,
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  }),
  {
    title: 'BankAccount',
    example: {
      id: 'bank_01JD7X2R5VQ8N3K4M6P9T1W2Y3',
      name: 'Business current account',
      currency: 'GBP',
      account_number_last4: '4821',
      account_code: '1100',
      opening_balance: 250000,
      opening_date: '2026-11-01',
      created_at: '2026-11-21T09:30:00.000Z',
      updated_at: '2026-11-21T09:30:00.000Z',
    },
  },
);
export type BankAccount = z.infer<typeof BankAccountSchema>;

const Last4Schema = z
  .string()
  .trim()
  .max(4)
  .regex(/^[0-9A-Za-z]{1,4}$/, 'Expected at most the last 4 letters or digits of the account number')
  .nullable()
  .optional();

export const CreateBankAccountBodySchema = extendApi(
  z
    .object({
      name: z.string().trim().min(1).max(200),
      currency: CurrencySchema,
      account_number_last4: Last4Schema,
      opening_balance: minorAmountInput({
        description: 'The balance on `opening_date`, negative for an overdraft',
        min: -MAX_AMOUNT_MINOR,
        example: 250000,
      }).default(0),
      opening_date: dateField('The day the opening balance is the balance of; default today.').optional(),
    })
    .strict(),
  {
    title: 'CreateBankAccountBody',
    example: {
      name: 'Business current account',
      currency: 'GBP',
      account_number_last4: '4821',
      opening_balance: 250000,
      opening_date: '2026-11-01',
    },
  },
);
export type CreateBankAccountBody = z.infer<typeof CreateBankAccountBodySchema>;

export const UpdateBankAccountBodySchema = extendApi(
  z
    .object({
      name: z.string().trim().min(1).max(200).optional(),
      account_number_last4: Last4Schema,
    })
    .strict(),
  {
    title: 'UpdateBankAccountBody',
    description:
      'The name and the account number hint. The currency and the opening balance are set at creation: the ' +
      'opening balance is posted to the ledger; correct it with a manual journal entry.',
    example: { name: 'Current account (Barclays)' },
  },
);
export type UpdateBankAccountBody = z.infer<typeof UpdateBankAccountBodySchema>;

export const ListBankAccountsQuerySchema = FinancePageQuerySchema;
export type ListBankAccountsQuery = z.infer<typeof ListBankAccountsQuerySchema>;

/* Statement import (docs/decisions.md D273) and the reconciliation report. */

export const STATEMENT_FILE_FORMATS = ['csv', 'ofx', 'camt053'] as const;
export const STATEMENT_DATE_FORMATS = ['YYYY-MM-DD', 'DD/MM/YYYY', 'MM/DD/YYYY', 'DD.MM.YYYY'] as const;

const statementOptions = {
  format: z
    .enum(STATEMENT_FILE_FORMATS)
    .optional()
    .describe('`csv`, `ofx` (OFX or QFX, SGML or XML) or `camt053`; detected from the content when absent.'),
  dry_run: BooleanQuerySchema.optional().describe('`true`: read and check the file, import nothing.'),
  all_or_nothing: BooleanQuerySchema.optional().describe(
    'Default `true`: one refused line imports nothing (422 naming every refused line). `false`: the readable ' +
      'lines are imported and the refused ones reported.',
  ),
  mapping: z
    .string()
    .max(2000)
    .optional()
    .describe(
      'CSV only, required: a JSON object naming the header of the column read as each of `date`, ' +
        '`description`, `amount` (or `debit` and `credit`) and optionally `reference`, e.g. ' +
        '`{"date":"Date","description":"Details","amount":"Amount"}`.',
    ),
  date_format: z
    .enum(STATEMENT_DATE_FORMATS)
    .optional()
    .describe('CSV only: how the date column is written; default `YYYY-MM-DD`.'),
};

export const ImportStatementQuerySchema = z.object(statementOptions);
export type ImportStatementQuery = z.infer<typeof ImportStatementQuerySchema>;

export const ImportStatementBodySchema = z.object({
  file: extendApi(
    // Checked by the operation, which says what to send (400) once the credential and permission pass.
    z.custom<File>(() => true),
    {
      type: 'string',
      format: 'binary',
      description: "The statement file; from the SDK a `File` (`new File([ofx], 'november.ofx')`).",
    },
  ),
  ...statementOptions,
});

export const StatementImportReportSchema = extendApi(
  z.object({
    import_id: z.string().nullable().describe('The import, when lines were written (never on a dry run).'),
    format: z.enum(STATEMENT_FILE_FORMATS),
    dry_run: z.boolean(),
    applied: z.boolean().describe('True when the lines were written.'),
    counts: z.object({
      lines: z.number().int().describe('Transactions read from the file, refused ones included.'),
      imported: z.number().int().describe('New lines (on a dry run: that would be imported).'),
      duplicates: z.number().int().describe('Lines an earlier import holds already: skipped.'),
      refused: z.number().int(),
      suggested: z.number().int().describe('Imported lines a bank rule suggests an account for.'),
    }),
    refused: z.array(z.object({ line: z.number().int(), reason: z.string() })),
    duplicates: z
      .array(
        z.object({
          line: z.number().int(),
          date: DateSchema,
          amount: minorAmount('The skipped line, positive money in', -1250),
        }),
      )
      .describe('The first 100 skipped lines.'),
    closing_balance: minorAmount("The file's own closing balance, when it states one", 250000).nullable(),
    statement_balance: minorAmount(
      "The opening balance plus every imported line to the file's last date (on a dry run: as it would be)",
      250000,
    ).nullable(),
    warnings: z.array(z.string()).describe("Such as a closing balance that disagrees with the lines'."),
  }),
  {
    title: 'StatementImportReport',
    example: {
      import_id: 'bimp_01JD7X2R5VQ8N3K4M6P9T1W2Y3',
      format: 'ofx',
      dry_run: false,
      applied: true,
      counts: { lines: 3, imported: 2, duplicates: 1, refused: 0, suggested: 1 },
      refused: [],
      duplicates: [{ line: 1, date: '2026-11-02', amount: -1250 }],
      closing_balance: 260750,
      statement_balance: 260750,
      warnings: [],
    },
  },
);
export type StatementImportReport = z.infer<typeof StatementImportReportSchema>;

export const RECONCILIATION_ITEM_KINDS = [
  'unmatched_line',
  'excluded_line',
  'unreconciled_ledger',
  'timing',
] as const;

export const ReconciliationItemSchema = z.object({
  kind: z
    .enum(RECONCILIATION_ITEM_KINDS)
    .describe(
      '`unmatched_line` and `excluded_line`: on the statement, not in the ledger to `as_of`; ' +
        '`unreconciled_ledger`: in the ledger, not on the statement to `as_of`; `timing`: matched, but the ' +
        'statement line and its ledger line fall on either side of `as_of`.',
    ),
  date: DateSchema,
  description: z.string(),
  amount: minorAmount('The line or ledger amount, positive money in', 12000),
  difference: minorAmount('What it adds to the statement balance less the ledger balance', 12000),
  bank_transaction_id: z.string().nullable(),
  journal_line_id: z.string().nullable(),
});

export const ReconciliationSchema = extendApi(
  z.object({
    bank_account_id: z.string(),
    account_code: z.string(),
    currency: z.string(),
    as_of: DateSchema,
    statement_balance: minorAmount('The opening balance plus the imported lines to `as_of`', 250000),
    ledger_balance: minorAmount("The balance of the bank account's chart account to `as_of`", 250000),
    difference: minorAmount('Statement less ledger: the sum of the items', 0),
    items: z.array(ReconciliationItemSchema).describe('Oldest first; each explains part of the difference.'),
    counts: z.object({ unmatched: z.number().int(), matched: z.number().int(), excluded: z.number().int() }),
  }),
  { title: 'Reconciliation' },
);
export type Reconciliation = z.infer<typeof ReconciliationSchema>;

export const ReconciliationQuerySchema = z.object({
  as_of: dateField('The day whose end the balances are of; default today.').optional(),
});

export const bankAccountsContract = c.router({
  listBankAccounts: {
    method: 'GET',
    path: '/finance/bank-accounts',
    summary: 'List bank accounts',
    description: 'By account code (the order they were made in); `limit` (default 50, max 200), `offset`.',
    query: ListBankAccountsQuerySchema,
    responses: {
      200: resultEnvelope({ bank_accounts: z.array(BankAccountSchema), total_count: z.number().int() }),
      ...resultErrors(),
    },
    metadata: financeRoute,
  },
  createBankAccount: {
    method: 'POST',
    path: '/finance/bank-accounts',
    summary: 'Create a bank account',
    description:
      'Adds its asset account to the chart (the next free code from 1100, named as the bank account) and, ' +
      'when the opening balance is not 0, posts it on `opening_date`: Dr the account / Cr 3000 Opening ' +
      'balance equity (added to the chart the first time), or the other way round for an overdraft.',
    headers: IdempotencyHeadersSchema,
    body: CreateBankAccountBodySchema,
    responses: {
      201: resultEnvelope({ message: z.string(), bank_account: BankAccountSchema }),
      ...resultErrors(409),
    },
    metadata: financeRoute,
  },
  getBankAccount: {
    method: 'GET',
    path: '/finance/bank-accounts/:id',
    summary: 'Get a bank account',
    pathParams: IdParamsSchema,
    responses: { 200: resultEnvelope({ bank_account: BankAccountSchema }), ...resultErrors(404) },
    metadata: financeRoute,
  },
  updateBankAccount: {
    method: 'PUT',
    path: '/finance/bank-accounts/:id',
    summary: 'Rename a bank account',
    description:
      'Changes the name (its chart account is renamed with it) or the account number hint. An empty body ' +
      'changes nothing; the currency or the opening balance is refused (422): they are fixed at creation.',
    pathParams: IdParamsSchema,
    body: UpdateBankAccountBodySchema,
    responses: {
      200: resultEnvelope({ message: z.string(), bank_account: BankAccountSchema }),
      ...resultErrors(404),
    },
    metadata: financeRoute,
  },
  importStatement: {
    method: 'POST',
    path: '/finance/bank-accounts/:id/statements',
    summary: 'Import a bank statement',
    description:
      'CSV (with `mapping` and `date_format`), OFX/QFX (SGML or XML) or CAMT.053, at most 10 MiB, as the body ' +
      'or as the `file` field of `multipart/form-data` (the options as form fields or query parameters). A line ' +
      'an earlier import holds (same date, amount, reference or FITID and occurrence) is skipped as a duplicate; ' +
      'a line that cannot be read is refused with its line number and reason. A file of another currency than the ' +
      "account's, a broken file and an XML file declaring entities are 422 and import nothing.",
    pathParams: IdParamsSchema,
    contentType: 'multipart/form-data',
    query: ImportStatementQuerySchema,
    headers: IdempotencyHeadersSchema,
    body: ImportStatementBodySchema,
    responses: { 200: resultEnvelope({ report: StatementImportReportSchema }), ...resultErrors(404, 409) },
    metadata: financeRoute,
  },
  getReconciliation: {
    method: 'GET',
    path: '/finance/bank-accounts/:id/reconciliation',
    summary: 'Reconciliation report',
    description:
      'The statement balance, the ledger balance of the account and each item between them: lines not yet ' +
      'matched or excluded, and ledger entries no statement line reconciles.',
    pathParams: IdParamsSchema,
    query: ReconciliationQuerySchema,
    responses: { 200: resultEnvelope({ reconciliation: ReconciliationSchema }), ...resultErrors(404) },
    metadata: financeRoute,
  },
});
