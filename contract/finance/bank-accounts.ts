import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { resultEnvelope } from '../common/envelopes.js';
import { resultErrors } from '../common/errors.js';
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
});
