import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { resultEnvelope } from '../common/envelopes.js';
import { resultErrors } from '../common/errors.js';
import { MAX_AMOUNT_MINOR, minorAmount, minorAmountInput } from '../common/money.js';
import {
  DateSchema,
  IdempotencyHeadersSchema,
  IdParamsSchema,
  idOf,
  TimestampSchema,
} from '../common/schemas.js';
import { AccountCodeSchema, FinancePageQuerySchema, financeRoute } from './shared.js';

const c = initContract();

/*
 * Statement lines and their reconciliation (docs/decisions.md D273): each imported line is matched to
 * the invoices, bills or ledger lines it paid, categorised to an account, or excluded.
 */

export const BANK_TRANSACTION_STATUSES = ['unmatched', 'matched', 'excluded'] as const;
export type BankTransactionStatus = (typeof BANK_TRANSACTION_STATUSES)[number];

export const BANK_MATCH_KINDS = ['invoice', 'bill', 'journal_line', 'account'] as const;

/** A ledger line named by its entry and its number in it: `je_01JD...:2`. */
export const JournalLineIdSchema = z
  .string()
  .max(80)
  .regex(
    /^je_[0-9A-Za-z]+:[1-9][0-9]{0,3}$/,
    'Expected a journal line id: the entry id, ":" and the line number',
  );

export const BankMatchSchema = extendApi(
  z.object({
    kind: z
      .enum(BANK_MATCH_KINDS)
      .describe(
        '`invoice` or `bill`: a payment of the document (recorded by the match when `recorded` is `payment`); ' +
          '`journal_line`: money the ledger held already; `account`: categorised to `account_code`.',
      ),
    amount: minorAmount('The part of the line this match accounts for (positive)', 12000),
    invoice_id: z.string().nullable(),
    bill_id: z.string().nullable(),
    payment_id: z.string().nullable().describe('The invoice or bill payment behind the match.'),
    account_code: z.string().nullable().describe('The account a categorised line was booked to.'),
    journal_line_id: z
      .string()
      .describe("The line on the bank account's chart account that this match reconciles."),
    recorded: z
      .enum(['payment', 'entry'])
      .nullable()
      .describe(
        'What the match itself wrote, and unmatching reverses: a `payment`, or an `entry` (a categorised ' +
          'line, or money moved from 1010 Bank into this account). Null: the ledger held it already.',
      ),
  }),
  { title: 'BankMatch' },
);
export type BankMatch = z.infer<typeof BankMatchSchema>;

export const BankTransactionSchema = extendApi(
  z.object({
    id: idOf('btx'),
    bank_account_id: z.string(),
    import_id: z.string(),
    line: z.number().int().describe('Its line in the imported file (CSV) or its position (OFX, CAMT).'),
    date: DateSchema,
    description: z.string(),
    amount: minorAmount('Positive money in, negative money out', -1250),
    reference: z.string().nullable().describe("The bank's reference: OFX's FITID, CAMT's AcctSvcrRef."),
    status: z.enum(BANK_TRANSACTION_STATUSES),
    rule_id: z
      .string()
      .nullable()
      .describe('The rule suggesting an account for this line (accepted with `accept-suggestions`).'),
    matches: z.array(BankMatchSchema),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  }),
  {
    title: 'BankTransaction',
    example: {
      id: 'btx_01JD7X2R5VQ8N3K4M6P9T1W2Y3',
      bank_account_id: 'bank_01JD7X2R5VQ8N3K4M6P9T1W2Y3',
      import_id: 'bimp_01JD7X2R5VQ8N3K4M6P9T1W2Y3',
      line: 2,
      date: '2026-11-03',
      description: 'ACME LTD INV-000012',
      amount: 12000,
      reference: 'FIT-20261103-01',
      status: 'unmatched',
      rule_id: null,
      matches: [],
      created_at: '2026-11-21T09:30:00.000Z',
      updated_at: '2026-11-21T09:30:00.000Z',
    },
  },
);
export type BankTransaction = z.infer<typeof BankTransactionSchema>;

export const SUGGESTION_KINDS = ['invoice', 'bill', 'journal_line', 'rule'] as const;

export const BankSuggestionSchema = extendApi(
  z.object({
    kind: z.enum(SUGGESTION_KINDS),
    score: z.number().int().min(0).max(100).describe('How likely: 100 is the same amount and reference.'),
    reason: z.string().describe('Why it is suggested, in words.'),
    amount: minorAmount('What the invoice or bill still owes, or the ledger line holds', 12000),
    date: DateSchema.nullable(),
    label: z.string().describe('The document number and counterparty, the entry description, or the rule.'),
    invoice_id: z.string().nullable(),
    bill_id: z.string().nullable(),
    journal_line_id: z.string().nullable(),
    rule_id: z.string().nullable(),
    account_code: z.string().nullable(),
  }),
  { title: 'BankSuggestion' },
);
export type BankSuggestion = z.infer<typeof BankSuggestionSchema>;

export const ListBankTransactionsQuerySchema = FinancePageQuerySchema.extend({
  bank_account_id: z.string().max(64).optional(),
  status: z.enum(BANK_TRANSACTION_STATUSES).optional(),
});
export type ListBankTransactionsQuery = z.infer<typeof ListBankTransactionsQuerySchema>;

const MatchItemSchema = z
  .object({
    invoice_id: z.string().max(64).optional(),
    bill_id: z.string().max(64).optional(),
    journal_line_id: JournalLineIdSchema.optional(),
    amount: minorAmountInput({
      description: 'Positive; the amounts add up to the line',
      min: 1,
      example: 12000,
    }),
  })
  .strict()
  .refine(
    (m) => [m.invoice_id, m.bill_id, m.journal_line_id].filter((v) => v !== undefined).length === 1,
    'Name exactly one of invoice_id, bill_id or journal_line_id',
  );

export const MatchBankTransactionBodySchema = extendApi(
  z
    .object({
      matches: z.array(MatchItemSchema).min(1).max(50),
    })
    .strict(),
  {
    title: 'MatchBankTransactionBody',
    description:
      'What the line paid: open invoices (money in) or bills (money out), whose payments are recorded dated ' +
      "the line's date, or ledger lines already recorded. The amounts add up to the line's amount.",
    example: { matches: [{ invoice_id: 'inv_01JD7X2R5VQ8N3K4M6P9T1W2Y3', amount: 12000 }] },
  },
);
export type MatchBankTransactionBody = z.infer<typeof MatchBankTransactionBodySchema>;

export const CategoriseBankTransactionBodySchema = extendApi(
  z
    .object({
      account_code: AccountCodeSchema,
      description: z.string().trim().min(1).max(200).optional(),
    })
    .strict(),
  {
    title: 'CategoriseBankTransactionBody',
    example: { account_code: '5000', description: 'Bank fees, November' },
  },
);
export type CategoriseBankTransactionBody = z.infer<typeof CategoriseBankTransactionBodySchema>;

export const AcceptSuggestionsBodySchema = extendApi(
  z.object({ bank_account_id: z.string().max(64) }).strict(),
  { title: 'AcceptSuggestionsBody', example: { bank_account_id: 'bank_01JD7X2R5VQ8N3K4M6P9T1W2Y3' } },
);
export type AcceptSuggestionsBody = z.infer<typeof AcceptSuggestionsBodySchema>;

const transactionAnswer = resultEnvelope({ message: z.string(), bank_transaction: BankTransactionSchema });

export const bankTransactionsContract = c.router({
  listBankTransactions: {
    method: 'GET',
    path: '/finance/bank-transactions',
    summary: 'List statement lines',
    description:
      'Oldest first (date, then line); `bank_account_id`, `status` (`unmatched`, `matched`, `excluded`), ' +
      '`limit` (default 50, max 200), `offset`.',
    query: ListBankTransactionsQuerySchema,
    responses: {
      200: resultEnvelope({
        bank_transactions: z.array(BankTransactionSchema),
        total_count: z.number().int(),
      }),
      ...resultErrors(),
    },
    metadata: financeRoute,
  },
  acceptBankSuggestions: {
    method: 'POST',
    path: '/finance/bank-transactions/accept-suggestions',
    summary: "Accept every rule's suggestion",
    description:
      "Categorises each unmatched line of the bank account that a rule suggests an account for, to that rule's " +
      'account, in one transaction. Lines without a suggestion stay as they are.',
    headers: IdempotencyHeadersSchema,
    body: AcceptSuggestionsBodySchema,
    responses: {
      200: resultEnvelope({ message: z.string(), accepted: z.number().int() }),
      ...resultErrors(404, 409),
    },
    metadata: financeRoute,
  },
  getBankTransaction: {
    method: 'GET',
    path: '/finance/bank-transactions/:id',
    summary: 'Get a statement line',
    pathParams: IdParamsSchema,
    responses: { 200: resultEnvelope({ bank_transaction: BankTransactionSchema }), ...resultErrors(404) },
    metadata: financeRoute,
  },
  getBankTransactionSuggestions: {
    method: 'GET',
    path: '/finance/bank-transactions/:id/suggestions',
    summary: 'Suggest what a statement line paid',
    description:
      'Best first: open invoices (money in) or bills (money out) owing the same amount, those whose number ' +
      "appears in the line's description or reference, the nearest amounts, money already recorded in the " +
      "ledger of this account or of 1010 Bank and not reconciled, and the rule's account. At most 10.",
    pathParams: IdParamsSchema,
    responses: {
      200: resultEnvelope({ suggestions: z.array(BankSuggestionSchema) }),
      ...resultErrors(404),
    },
    metadata: financeRoute,
  },
  matchBankTransaction: {
    method: 'POST',
    path: '/finance/bank-transactions/:id/match',
    summary: 'Match a statement line',
    description:
      "Records each invoice's or bill's payment (to this bank account, dated the line's date) and reconciles " +
      'the line; a ledger line of 1010 Bank is moved into this account by an entry. Amounts that do not add up ' +
      'to the line, a document of another currency or direction, or more than it owes are 422; a line already ' +
      'matched or excluded is 409.',
    pathParams: IdParamsSchema,
    headers: IdempotencyHeadersSchema,
    body: MatchBankTransactionBodySchema,
    responses: { 200: transactionAnswer, ...resultErrors(404, 409) },
    metadata: financeRoute,
  },
  categoriseBankTransaction: {
    method: 'POST',
    path: '/finance/bank-transactions/:id/categorise',
    summary: 'Categorise a statement line',
    description:
      "Books money that is no invoice or bill (bank fees, owner's drawings): Dr this bank account / Cr the " +
      "account for money in, the other way for money out, on the line's date. Receivables (1200) and payables " +
      '(2000) are refused: match the invoices or bills instead.',
    pathParams: IdParamsSchema,
    headers: IdempotencyHeadersSchema,
    body: CategoriseBankTransactionBodySchema,
    responses: { 200: transactionAnswer, ...resultErrors(404, 409) },
    metadata: financeRoute,
  },
  excludeBankTransaction: {
    method: 'POST',
    path: '/finance/bank-transactions/:id/exclude',
    summary: 'Exclude a statement line',
    description: 'Sets an unmatched line aside (a line the bank printed twice); nothing is posted.',
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: transactionAnswer, ...resultErrors(404, 409) },
    metadata: financeRoute,
  },
  unmatchBankTransaction: {
    method: 'POST',
    path: '/finance/bank-transactions/:id/unmatch',
    summary: 'Undo a match',
    description:
      'Back to `unmatched`. What the match wrote is reversed (entries are append-only): a payment it recorded ' +
      "(the invoice or bill owes it again) or an entry it posted, on the line's date. Payments recorded " +
      'elsewhere stay. An excluded line is brought back.',
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: transactionAnswer, ...resultErrors(404, 409) },
    metadata: financeRoute,
  },
});

/* Bank rules: an account suggested for lines whose description contains some words. */

export const BankRuleSchema = extendApi(
  z.object({
    id: idOf('brule'),
    description_contains: z.string().describe('Matched case-insensitively within the line description.'),
    direction: z.enum(['in', 'out']).nullable().describe('Money in or out only; null: either.'),
    min_amount: minorAmount('The least amount (absolute) it applies to', 0).nullable(),
    max_amount: minorAmount('The largest amount (absolute) it applies to', 5000).nullable(),
    account_code: z.string(),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  }),
  {
    title: 'BankRule',
    example: {
      id: 'brule_01JD7X2R5VQ8N3K4M6P9T1W2Y3',
      description_contains: 'monthly fee',
      direction: 'out',
      min_amount: null,
      max_amount: 5000,
      account_code: '5000',
      created_at: '2026-11-21T09:30:00.000Z',
      updated_at: '2026-11-21T09:30:00.000Z',
    },
  },
);
export type BankRule = z.infer<typeof BankRuleSchema>;

const ruleAmount = (description: string) =>
  minorAmountInput({ description, min: 0, max: MAX_AMOUNT_MINOR, example: 5000 }).nullable().optional();

const RuleFields = {
  description_contains: z.string().trim().min(1).max(200),
  direction: z.enum(['in', 'out']).nullable().optional(),
  min_amount: ruleAmount('The least absolute amount it applies to'),
  max_amount: ruleAmount('The largest absolute amount it applies to'),
  account_code: AccountCodeSchema,
};

const amountsInOrder = (r: { min_amount?: number | null; max_amount?: number | null }) =>
  r.min_amount == null || r.max_amount == null || r.min_amount <= r.max_amount;
const amountsOrderIssue = { message: 'Must not be below min_amount', path: ['max_amount'] };

export const CreateBankRuleBodySchema = extendApi(
  z.object(RuleFields).strict().refine(amountsInOrder, amountsOrderIssue),
  {
    title: 'CreateBankRuleBody',
    example: {
      description_contains: 'monthly fee',
      direction: 'out',
      max_amount: 5000,
      account_code: '5000',
    },
  },
);
export type CreateBankRuleBody = z.infer<typeof CreateBankRuleBodySchema>;

export const UpdateBankRuleBodySchema = extendApi(
  z
    .object({
      description_contains: RuleFields.description_contains.optional(),
      direction: RuleFields.direction,
      min_amount: RuleFields.min_amount,
      max_amount: RuleFields.max_amount,
      account_code: RuleFields.account_code.optional(),
    })
    .strict()
    .refine(amountsInOrder, amountsOrderIssue),
  { title: 'UpdateBankRuleBody', example: { account_code: '5100' } },
);
export type UpdateBankRuleBody = z.infer<typeof UpdateBankRuleBodySchema>;

export const bankRulesContract = c.router({
  listBankRules: {
    method: 'GET',
    path: '/finance/bank-rules',
    summary: 'List bank rules',
    description:
      'In the order they are tried (oldest first): the first rule a line fits suggests its account.',
    query: FinancePageQuerySchema,
    responses: {
      200: resultEnvelope({ bank_rules: z.array(BankRuleSchema), total_count: z.number().int() }),
      ...resultErrors(),
    },
    metadata: financeRoute,
  },
  createBankRule: {
    method: 'POST',
    path: '/finance/bank-rules',
    summary: 'Create a bank rule',
    description:
      'Suggests its account for lines whose description contains the words (and that fit the direction and ' +
      'amounts), on every import and at once for unmatched lines without a suggestion.',
    headers: IdempotencyHeadersSchema,
    body: CreateBankRuleBodySchema,
    responses: {
      201: resultEnvelope({ message: z.string(), bank_rule: BankRuleSchema, suggested: z.number().int() }),
      ...resultErrors(409),
    },
    metadata: financeRoute,
  },
  getBankRule: {
    method: 'GET',
    path: '/finance/bank-rules/:id',
    summary: 'Get a bank rule',
    pathParams: IdParamsSchema,
    responses: { 200: resultEnvelope({ bank_rule: BankRuleSchema }), ...resultErrors(404) },
    metadata: financeRoute,
  },
  updateBankRule: {
    method: 'PUT',
    path: '/finance/bank-rules/:id',
    summary: 'Change a bank rule',
    description:
      'Lines it suggested for keep the suggestion until it is accepted or the line is imported again.',
    pathParams: IdParamsSchema,
    body: UpdateBankRuleBodySchema,
    responses: {
      200: resultEnvelope({ message: z.string(), bank_rule: BankRuleSchema }),
      ...resultErrors(404),
    },
    metadata: financeRoute,
  },
  deleteBankRule: {
    method: 'DELETE',
    path: '/finance/bank-rules/:id',
    summary: 'Delete a bank rule',
    description: 'Its pending suggestions go with it; lines it categorised stay categorised.',
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: resultEnvelope({ message: z.string() }), ...resultErrors(404) },
    metadata: financeRoute,
  },
});
