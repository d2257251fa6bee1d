import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { resultEnvelope } from '../common/envelopes.js';
import { resultErrors } from '../common/errors.js';
import { minorAmount } from '../common/money.js';
import { CurrencySchema, DateSchema, IdempotencyHeadersSchema } from '../common/schemas.js';
import { AccountCodeSchema, financeRoute } from './shared.js';

const c = initContract();

export const ACCOUNT_TYPES = ['asset', 'liability', 'equity', 'revenue', 'expense'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];

/** Where an account's cash movements go in the cash-flow statement; `cash` is the cash and bank accounts. */
export const CASH_FLOW_GROUPS = ['cash', 'operating', 'investing', 'financing'] as const;
export type CashFlowGroup = (typeof CASH_FLOW_GROUPS)[number];

export const AccountSchema = extendApi(
  z.object({
    code: z.string(),
    name: z.string(),
    type: z.enum(ACCOUNT_TYPES),
    cash_flow_group: z
      .enum(CASH_FLOW_GROUPS)
      .describe(
        'cash for 1000, 1010, 1020 and 1100-1199; otherwise as given at creation, defaulted by code: assets ' +
          '1500-1999 investing, liabilities 2500-2999 and equity financing, the rest operating.',
      ),
    system: z.boolean().describe('True for the default chart, which cannot be removed or retyped.'),
  }),
  {
    title: 'Account',
    example: { code: '5000', name: 'Expenses', type: 'expense', cash_flow_group: 'operating', system: true },
  },
);
export type Account = z.infer<typeof AccountSchema>;

export const CreateAccountBodySchema = extendApi(
  z
    .object({
      code: AccountCodeSchema.describe('Unique per business (409 CONFLICT otherwise).'),
      name: z.string().trim().min(1).max(100),
      type: z.enum(ACCOUNT_TYPES),
      cash_flow_group: z
        .enum(['operating', 'investing', 'financing'])
        .optional()
        .describe(
          'Default by code: assets 1500-1999 investing, liabilities 2500-2999 and equity financing, the rest ' +
            'operating. The cash accounts are cash by their code and cannot be given another group (422).',
        ),
    })
    .strict(),
  { title: 'CreateAccountBody', example: { code: '6100', name: 'Rent', type: 'expense' } },
);
export type CreateAccountBody = z.infer<typeof CreateAccountBodySchema>;

export const TrialBalanceQuerySchema = z.object({
  as_of: DateSchema.optional().describe(
    "Entries dated on or before this day; default: today in the business's time zone.",
  ),
  currency: CurrencySchema.optional().describe(
    "Default: every currency, each line converted to the business's base currency at the rate it posted at. " +
      "A currency: only that currency's entries, in their own amounts.",
  ),
});
export type TrialBalanceQuery = z.infer<typeof TrialBalanceQuerySchema>;

export const TrialBalanceAccountSchema = z.object({
  code: z.string(),
  name: z.string(),
  type: z.enum(ACCOUNT_TYPES),
  debit: minorAmount('Sum of the debits', 120000),
  credit: minorAmount('Sum of the credits', 0),
  balance: minorAmount(
    'On the normal side of the account: debit - credit for assets and expenses, credit - debit otherwise',
    120000,
  ),
});

export const TrialBalanceSchema = extendApi(
  z.object({
    as_of: DateSchema,
    currency: z.string(),
    accounts: z.array(TrialBalanceAccountSchema),
    total_debit: minorAmount('Sum of every debit', 120000),
    total_credit: minorAmount('Sum of every credit; always equal to total_debit', 120000),
  }),
  { title: 'TrialBalance' },
);
export type TrialBalance = z.infer<typeof TrialBalanceSchema>;

export const accountsContract = c.router({
  listAccounts: {
    method: 'GET',
    path: '/finance/accounts',
    summary: 'Chart of accounts',
    description: 'Every account of the business, by code.',
    responses: { 200: resultEnvelope({ accounts: z.array(AccountSchema) }), ...resultErrors() },
    metadata: financeRoute,
  },
  createAccount: {
    method: 'POST',
    path: '/finance/accounts',
    summary: 'Add an account',
    description: 'A code the business already has is 409 CONFLICT.',
    headers: IdempotencyHeadersSchema,
    body: CreateAccountBodySchema,
    responses: {
      201: resultEnvelope({ message: z.string(), account: AccountSchema }),
      ...resultErrors(409),
    },
    metadata: financeRoute,
  },
  getTrialBalance: {
    method: 'GET',
    path: '/finance/trial-balance',
    summary: 'Trial balance',
    description:
      'Debits, credits and balance of every account with entries in the currency up to `as_of`; total_debit ' +
      'always equals total_credit.',
    query: TrialBalanceQuerySchema,
    responses: { 200: resultEnvelope({ data: TrialBalanceSchema }), ...resultErrors() },
    metadata: financeRoute,
  },
});
