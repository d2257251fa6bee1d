import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { resultEnvelope } from '../common/envelopes.js';
import { resultErrors } from '../common/errors.js';
import { minorAmount } from '../common/money.js';
import { CurrencySchema, DateSchema, IdempotencyHeadersSchema, dateField } from '../common/schemas.js';
import { pdfResponse } from '../general/documents.js';
import { ACCOUNT_TYPES } from './accounts.js';
import { SOURCE_TYPES } from './journal.js';
import { AccountCodeSchema, financeRoute } from './shared.js';

const c = initContract();

/**
 * The books (docs/decisions.md D276): the balance sheet, the cash-flow statement, aged receivables and
 * payables, the general ledger of one account, the VAT return and the lock date. Every report answers
 * in minor units; each holds its lines in one array (so `?format=csv` or `Accept: text/csv` answers
 * them as CSV) beside a `data` object of its dates and totals.
 */

const currencyQuery = CurrencySchema.optional().describe("Default: the business's base currency.");
/** The currency of a report of the whole books (docs/decisions.md D278). */
const convertedCurrencyQuery = CurrencySchema.optional().describe(
  "Default: every currency, each line converted to the business's base currency at the rate it posted at. " +
    "A currency: only that currency's entries, in their own amounts.",
);
const asOfQuery = DateSchema.optional().describe("Default: today in the business's time zone.");
const rangeQuery = {
  start_date: DateSchema,
  end_date: dateField('On or after start_date, at most 10 years later (422 otherwise).'),
  currency: currencyQuery,
};

// Balance sheet -------------------------------------------------------------------------------

export const BALANCE_SHEET_SECTIONS = ['asset', 'liability', 'equity'] as const;

export const BalanceSheetQuerySchema = z.object({ as_of: asOfQuery, currency: convertedCurrencyQuery });
export type BalanceSheetQuery = z.infer<typeof BalanceSheetQuerySchema>;

export const BalanceSheetLineSchema = z.object({
  section: z.enum(BALANCE_SHEET_SECTIONS),
  code: z
    .string()
    .nullable()
    .describe(
      "The account; null for the two computed lines of equity (the year's earnings, retained earnings).",
    ),
  name: z.string(),
  balance: minorAmount("On the section's normal side (debit for assets, credit otherwise)", 120000),
});
export type BalanceSheetLine = z.infer<typeof BalanceSheetLineSchema>;

export const BalanceSheetSchema = extendApi(
  z.object({
    as_of: DateSchema,
    currency: z.string(),
    financial_year_start: DateSchema.describe(
      "The first day of the financial year holding as_of (the business's `financial_year_start_month`).",
    ),
    total_assets: minorAmount('Sum of the asset lines', 250000),
    total_liabilities: minorAmount('Sum of the liability lines', 80000),
    current_year_earnings: minorAmount(
      'Revenue less expenses from financial_year_start to as_of (computed, never posted)',
      30000,
    ),
    retained_earnings: minorAmount('Revenue less expenses before financial_year_start (computed)', 40000),
    total_equity: minorAmount("Equity accounts plus the year's and retained earnings", 170000),
    total_liabilities_and_equity: minorAmount('Always equal to total_assets', 250000),
  }),
  { title: 'BalanceSheet' },
);
export type BalanceSheet = z.infer<typeof BalanceSheetSchema>;

// Cash flow -----------------------------------------------------------------------------------

export const CASH_FLOW_ACTIVITIES = ['operating', 'investing', 'financing'] as const;
export const CASH_FLOW_CATEGORIES = [
  'customers',
  'suppliers',
  'tax',
  'other',
  'investing',
  'financing',
] as const;
export type CashFlowCategory = (typeof CASH_FLOW_CATEGORIES)[number];

export const CashFlowQuerySchema = z.object({ ...rangeQuery, currency: convertedCurrencyQuery });
export type CashFlowQuery = z.infer<typeof CashFlowQuerySchema>;

export const CashFlowLineSchema = z.object({
  activity: z.enum(CASH_FLOW_ACTIVITIES),
  category: z
    .enum(CASH_FLOW_CATEGORIES)
    .describe('Within operating: customers, suppliers, tax or other; otherwise the activity itself.'),
  code: z.string().describe('The counter account the cash moved against.'),
  name: z.string(),
  amount: minorAmount('Cash in (positive) or out (negative) against the account over the range', 45000),
});
export type CashFlowLine = z.infer<typeof CashFlowLineSchema>;

const activityTotal = (what: string) => minorAmount(`Net cash of ${what}`, 12000);

export const CashFlowSchema = extendApi(
  z.object({
    start_date: DateSchema,
    end_date: DateSchema,
    currency: z.string(),
    opening_cash: minorAmount('Cash and bank accounts at the end of the day before start_date', 100000),
    operating: z.object({
      customers: activityTotal('customers (receivables, sales, customer credit, payment providers)'),
      suppliers: activityTotal('suppliers (payables and expenses)'),
      tax: activityTotal('tax (VAT payable and receivable)'),
      other: activityTotal('the other operating accounts'),
      total: activityTotal('operating activities'),
    }),
    investing: activityTotal('investing activities'),
    financing: activityTotal('financing activities'),
    net_change: minorAmount('operating + investing + financing', 15000),
    closing_cash: minorAmount('opening_cash + net_change: cash and bank accounts at end_date', 115000),
  }),
  { title: 'CashFlow' },
);
export type CashFlow = z.infer<typeof CashFlowSchema>;

// Ageing --------------------------------------------------------------------------------------

export const AGEING_BUCKETS = ['current', 'days_1_30', 'days_31_60', 'days_61_90', 'days_over_90'] as const;
export type AgeingBucket = (typeof AGEING_BUCKETS)[number];

const bucketFields = {
  current: minorAmount('Open and not yet due on as_of', 50000),
  days_1_30: minorAmount('1 to 30 days past due', 20000),
  days_31_60: minorAmount('31 to 60 days past due', 0),
  days_61_90: minorAmount('61 to 90 days past due', 0),
  days_over_90: minorAmount('More than 90 days past due', 7500),
  total: minorAmount('Everything open on as_of', 77500),
};

export const AgeingTotalsSchema = z.object(bucketFields);
export type AgeingTotals = z.infer<typeof AgeingTotalsSchema>;

export const AgeingQuerySchema = z.object({
  as_of: asOfQuery.describe(
    "What was open at the end of this day (a past date shows what was open then); default: today in the business's time zone.",
  ),
  currency: CurrencySchema.optional().describe(
    "Documents in this currency; default: the business's base currency.",
  ),
});
export type AgeingQuery = z.infer<typeof AgeingQuerySchema>;

export const AgeingSummarySchema = z.object({
  as_of: DateSchema,
  currency: z.string(),
  totals: AgeingTotalsSchema,
});

export const AgedReceivablesRowSchema = extendApi(
  z.object({
    customer_id: z.string(),
    customer_name: z.string(),
    invoices: z.number().int().describe('Invoices open on as_of.'),
    ...bucketFields,
  }),
  { title: 'AgedReceivablesRow' },
);
export type AgedReceivablesRow = z.infer<typeof AgedReceivablesRowSchema>;

export const AgedPayablesRowSchema = extendApi(
  z.object({
    vendor_id: z.string(),
    vendor_name: z.string(),
    bills: z.number().int().describe('Bills open on as_of.'),
    ...bucketFields,
  }),
  { title: 'AgedPayablesRow' },
);
export type AgedPayablesRow = z.infer<typeof AgedPayablesRowSchema>;

// General ledger ------------------------------------------------------------------------------

export const GeneralLedgerQuerySchema = z.object({
  account: AccountCodeSchema.describe('An account of the chart (422 otherwise).'),
  ...rangeQuery,
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(200)
    .describe('Lines per page (default 200, max 1000).'),
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
});
export type GeneralLedgerQuery = z.infer<typeof GeneralLedgerQuerySchema>;

export const GeneralLedgerLineSchema = z.object({
  entry_id: z.string(),
  date: DateSchema,
  description: z.string(),
  source: z.object({ type: z.enum(SOURCE_TYPES), id: z.string() }),
  debit: minorAmount('Debit of the line', 12000),
  credit: minorAmount('Credit of the line', 0),
  balance: minorAmount("The account's balance after this line, positive on its normal side", 132000),
});
export type GeneralLedgerLine = z.infer<typeof GeneralLedgerLineSchema>;

export const GeneralLedgerSchema = extendApi(
  z.object({
    account: z.object({ code: z.string(), name: z.string(), type: z.enum(ACCOUNT_TYPES) }),
    start_date: DateSchema,
    end_date: DateSchema,
    currency: z.string(),
    opening_balance: minorAmount('At the end of the day before start_date, on the normal side', 120000),
    total_debit: minorAmount('Debits of the range', 12000),
    total_credit: minorAmount('Credits of the range', 0),
    closing_balance: minorAmount('At the end of end_date, on the normal side', 132000),
  }),
  { title: 'GeneralLedger' },
);
export type GeneralLedger = z.infer<typeof GeneralLedgerSchema>;

// VAT return ----------------------------------------------------------------------------------

export const VAT_SIDES = ['output', 'input'] as const;

export const VatReturnQuerySchema = z.object(rangeQuery);
export type VatReturnQuery = z.infer<typeof VatReturnQuerySchema>;

export const VatReturnDocumentSchema = z.object({
  side: z.enum(VAT_SIDES).describe('output: sales (invoices, credit notes); input: purchases (bills).'),
  date: dateField('The posting date.'),
  entry_id: z.string(),
  source: z.object({ type: z.enum(SOURCE_TYPES), id: z.string() }),
  description: z
    .string()
    .describe('"Invoice INV-000012", "Credit note CN-000003 for invoice ...", "Void of ..."'),
  net: minorAmount('Net amount (negative for a credit note or a void)', 10000),
  tax: minorAmount('Tax (negative for a credit note or a void)', 2000),
});
export type VatReturnDocument = z.infer<typeof VatReturnDocumentSchema>;

export const VatReturnSchema = extendApi(
  z.object({
    start_date: DateSchema,
    end_date: DateSchema,
    currency: z.string(),
    output_tax: minorAmount('Tax of invoices less credit notes and voids (2200 VAT payable)', 20000),
    input_tax: minorAmount('Tax of bills less voids (2210 VAT receivable)', 5000),
    net: minorAmount('output_tax - input_tax: due (positive) or reclaimable (negative)', 15000),
    sales_net: minorAmount('Net sales behind output_tax', 100000),
    purchases_net: minorAmount('Net purchases behind input_tax', 25000),
  }),
  { title: 'VatReturn' },
);
export type VatReturn = z.infer<typeof VatReturnSchema>;

// Lock date -----------------------------------------------------------------------------------

export const LockDateSchema = z.object({
  lock_date: dateField('Nothing is posted on or before it; null: no period is locked.').nullable(),
  updated_at: z.string().nullable().describe('When it was last set.'),
});
export type LockDate = z.infer<typeof LockDateSchema>;

export const SetLockDateBodySchema = extendApi(
  z
    .object({
      lock_date: dateField(
        'Today or earlier. Moving it earlier (or to null) is for owners only (403 FORBIDDEN otherwise).',
      ).nullable(),
    })
    .strict(),
  { title: 'SetLockDateBody', example: { lock_date: '2026-09-30' } },
);
export type SetLockDateBody = z.infer<typeof SetLockDateBodySchema>;

export const booksContract = c.router({
  getBalanceSheet: {
    method: 'GET',
    path: '/finance/reports/balance-sheet',
    summary: 'Balance sheet',
    description:
      'Assets, liabilities and equity by account as of the end of `as_of`, in one currency. The earnings of the ' +
      'financial year so far and the retained earnings before it are computed from revenue and expense accounts, ' +
      'never posted, so total_assets always equals total_liabilities_and_equity.',
    query: BalanceSheetQuerySchema,
    responses: {
      200: resultEnvelope({ data: BalanceSheetSchema, lines: z.array(BalanceSheetLineSchema) }),
      ...resultErrors(),
    },
    metadata: financeRoute,
  },
  getBalanceSheetPdf: {
    method: 'GET',
    path: '/finance/reports/balance-sheet/pdf',
    summary: 'Balance sheet as a PDF',
    description: 'The balance sheet of `as_of` as an A4 PDF (`balance-sheet-2026-09-30.pdf`).',
    query: BalanceSheetQuerySchema,
    responses: { 200: pdfResponse, ...resultErrors() },
    metadata: financeRoute,
  },
  getProfitLossPdf: {
    method: 'GET',
    path: '/finance/reports/profit-loss/pdf',
    summary: 'Profit and loss as a PDF',
    description:
      'The profit and loss report of the range (as `GET /v1/reports/profit-loss`) as an A4 PDF ' +
      '(`profit-loss-2026-01-01-2026-09-30.pdf`).',
    query: z.object(rangeQuery),
    responses: { 200: pdfResponse, ...resultErrors() },
    metadata: financeRoute,
  },
  getCashFlow: {
    method: 'GET',
    path: '/finance/reports/cash-flow',
    summary: 'Cash-flow statement',
    description:
      'The movements of the cash and bank accounts (1000, 1010, 1020, 1100-1199) over the range, each put to the ' +
      "counter account of its entry and grouped by that account's cash-flow group: operating (customers, " +
      'suppliers, tax, other), investing and financing; with the opening and closing cash. In is positive.',
    query: CashFlowQuerySchema,
    responses: {
      200: resultEnvelope({ data: CashFlowSchema, lines: z.array(CashFlowLineSchema) }),
      ...resultErrors(),
    },
    metadata: financeRoute,
  },
  getAgedReceivables: {
    method: 'GET',
    path: '/finance/reports/aged-receivables',
    summary: 'Aged receivables',
    description:
      'What each customer owed at the end of `as_of`, after payments and credit notes dated by then, in buckets ' +
      'by days past the due date: current, 1-30, 31-60, 61-90, over 90. Customers owing nothing are left out; ' +
      'the largest total first.',
    query: AgeingQuerySchema,
    responses: {
      200: resultEnvelope({ data: AgeingSummarySchema, customers: z.array(AgedReceivablesRowSchema) }),
      ...resultErrors(),
    },
    metadata: financeRoute,
  },
  getAgedPayables: {
    method: 'GET',
    path: '/finance/reports/aged-payables',
    summary: 'Aged payables',
    description:
      'What the business owed each vendor at the end of `as_of`, after payments dated by then, in buckets by ' +
      'days past the due date: current, 1-30, 31-60, 61-90, over 90. Vendors owed nothing are left out; the ' +
      'largest total first.',
    query: AgeingQuerySchema,
    responses: {
      200: resultEnvelope({ data: AgeingSummarySchema, vendors: z.array(AgedPayablesRowSchema) }),
      ...resultErrors(),
    },
    metadata: financeRoute,
  },
  getGeneralLedger: {
    method: 'GET',
    path: '/finance/reports/general-ledger',
    summary: 'General ledger of an account',
    description:
      "One account's lines over the range in date order, each with the running balance on the account's " +
      'normal side, between the opening and the closing balance; paged by `limit` and `offset`.',
    query: GeneralLedgerQuerySchema,
    responses: {
      200: resultEnvelope({
        data: GeneralLedgerSchema,
        lines: z.array(GeneralLedgerLineSchema),
        total_count: z.number().int(),
      }),
      ...resultErrors(),
    },
    metadata: financeRoute,
  },
  getVatReturn: {
    method: 'GET',
    path: '/finance/reports/vat-return',
    summary: 'VAT return',
    description:
      'Output tax (invoices less credit notes and voids, 2200) and input tax (bills less voids, 2210) posted over ' +
      'the range, the net due (negative: reclaimable), and the documents behind each figure by posting date. ' +
      'Manual entries on the tax accounts (a payment to the tax authority) are not part of a return.',
    query: VatReturnQuerySchema,
    responses: {
      200: resultEnvelope({ data: VatReturnSchema, documents: z.array(VatReturnDocumentSchema) }),
      ...resultErrors(),
    },
    metadata: financeRoute,
  },
  getLockDate: {
    method: 'GET',
    path: '/finance/lock-date',
    summary: 'Lock date',
    description: 'The day up to which the books are closed; null when none is set.',
    responses: { 200: resultEnvelope({ data: LockDateSchema }), ...resultErrors() },
    metadata: financeRoute,
  },
  setLockDate: {
    method: 'PUT',
    path: '/finance/lock-date',
    summary: 'Set the lock date',
    description:
      'Nothing is posted on or before the lock date by any path (invoices, payments, bills, credit notes, ' +
      'journal entries, bank matches, recurring runs): 409 PERIOD_LOCKED naming the date. A date after today is ' +
      '422. Moving it earlier, or clearing it, is for owners only (403 FORBIDDEN). Each change is in the audit log.',
    headers: IdempotencyHeadersSchema,
    body: SetLockDateBodySchema,
    responses: {
      200: resultEnvelope({ message: z.string(), data: LockDateSchema }),
      ...resultErrors(409),
    },
    metadata: financeRoute,
  },
});
