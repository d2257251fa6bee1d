import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { dataEnvelope } from '../common/envelopes.js';
import { generalErrors } from '../common/errors.js';
import { meta } from '../common/metadata.js';
import { majorAmount } from '../common/money.js';
import { CurrencySchema, DateSchema, IdParamsSchema, dateField } from '../common/schemas.js';
import { pdfResponse } from './documents.js';

const c = initContract();

export const STATEMENT_LINE_TYPES = [
  'invoice',
  'payment',
  'credit_applied',
  'credit_note',
  'refund',
] as const;

export const StatementLineTypeSchema = extendApi(z.enum(STATEMENT_LINE_TYPES), {
  description:
    '`invoice` (an issued invoice, adds its total), `payment` (money received, subtracts), `credit_applied` ' +
    "(the customer's credit balance paying an invoice at its issue: changes nothing, the credit note that made " +
    'the credit already subtracted it), `credit_note` (subtracts its whole total), `refund` (money paid back ' +
    'by a credit note, adds).',
});

export const StatementLineSchema = extendApi(
  z.object({
    date: dateField("The invoice's or credit note's issue date, or the payment date."),
    type: StatementLineTypeSchema,
    document_id: z
      .string()
      .describe('The invoice (`inv_`), payment (`pay_`) or credit note (`cn_`) the line is for.'),
    number: z
      .string()
      .describe(
        'The document the customer knows: the invoice number for invoices, payments and credit applied; the ' +
          'credit note number for credit notes and refunds.',
      ),
    description: z
      .string()
      .describe('The line as printed: "Invoice INV-000001", "Payment (bank_transfer)", ...'),
    amount: majorAmount('What the line is for, never negative', 120),
    change: majorAmount(
      'How the line moves the balance: positive adds to what the customer owes, negative takes off it; 0 for ' +
        '`credit_applied`',
      120,
    ),
    balance: majorAmount('The running balance after the line', 120),
  }),
  {
    title: 'StatementLine',
    example: {
      date: '2026-11-02',
      type: 'invoice',
      document_id: 'inv_01JD7X2R5VQ8N3K4M6P9T1W2Y3',
      number: 'INV-000001',
      description: 'Invoice INV-000001',
      amount: 120,
      change: 120,
      balance: 120,
    },
  },
);
export type StatementLine = z.infer<typeof StatementLineSchema>;

export const StatementSchema = extendApi(
  z.object({
    customer_id: z.string(),
    customer: z.object({ id: z.string(), name: z.string() }),
    currency: z.string().describe('Only documents in this currency are counted.'),
    start_date: DateSchema,
    end_date: DateSchema,
    opening_balance: majorAmount(
      'The balance of everything dated before start_date: positive when the customer owed, negative when in credit',
      0,
    ),
    lines: z
      .array(StatementLineSchema)
      .describe('Every line dated in the range, by date; lines of one day in the order they were made.'),
    totals: z
      .object({
        invoiced: majorAmount('Sum of the invoices in the range', 120),
        paid: majorAmount('Sum of the payments in the range, customer credit applied left out', 0),
        credit_applied: majorAmount('Sum of the customer credit applied in the range', 0),
        credited: majorAmount('Sum of the credit notes in the range', 0),
        refunded: majorAmount('Sum of the refunds in the range', 0),
      })
      .describe("The range's lines summed by kind (unsigned)."),
    closing_balance: majorAmount(
      "opening_balance plus every line's change: what the customer owed at the end of end_date (invoices due less " +
        'the credit balance they hold); negative when they are in credit',
      120,
    ),
  }),
  {
    title: 'Statement',
    example: {
      customer_id: 'cus_01JD7X2R5VQ8N3K4M6P9T1W2Y3',
      customer: { id: 'cus_01JD7X2R5VQ8N3K4M6P9T1W2Y3', name: 'Ada Lovelace' },
      currency: 'USD',
      start_date: '2026-11-01',
      end_date: '2026-11-30',
      opening_balance: 0,
      lines: [
        {
          date: '2026-11-02',
          type: 'invoice',
          document_id: 'inv_01JD7X2R5VQ8N3K4M6P9T1W2Y3',
          number: 'INV-000001',
          description: 'Invoice INV-000001',
          amount: 120,
          change: 120,
          balance: 120,
        },
      ],
      totals: { invoiced: 120, paid: 0, credit_applied: 0, credited: 0, refunded: 0 },
      closing_balance: 120,
    },
  },
);
export type Statement = z.infer<typeof StatementSchema>;

export const StatementQuerySchema = z
  .object({
    start_date: dateField("Default: the first day of end_date's month."),
    end_date: dateField(
      "Default: today in the business's time zone. On or after start_date (422 on end_date otherwise).",
    ),
    currency: CurrencySchema.describe("Default: the business's base currency."),
  })
  .partial();
export type StatementQuery = z.infer<typeof StatementQuerySchema>;

export const statementsContract = c.router({
  getCustomerStatement: {
    method: 'GET',
    path: '/customers/:id/statement',
    summary: "A customer's statement",
    description:
      'The opening balance (everything dated before `start_date`), then every issued invoice, payment, credit ' +
      'applied, credit note and refund of the customer in `currency` dated in the range with a running balance, ' +
      'and the closing balance. Positive means the customer owes: invoices and refunds add, payments and credit ' +
      'notes subtract; customer credit applied to an invoice changes nothing (its credit note already ' +
      'subtracted it), so the closing balance is what the invoices still owe less the credit the customer holds. ' +
      'Draft invoices are not on it, nor are void invoices and void credit notes (each nets to nothing). An ' +
      'unknown customer is 404; an end before the start or an unknown currency 422.',
    pathParams: IdParamsSchema,
    query: StatementQuerySchema,
    responses: { 200: dataEnvelope(StatementSchema), ...generalErrors(404) },
    metadata: meta('token', 'Customers'),
  },
  getCustomerStatementPdf: {
    method: 'GET',
    path: '/customers/:id/statement/pdf',
    summary: "A customer's statement as a PDF",
    description:
      'The same statement (same query and refusals) as the customer receives it (A4): the business, the customer, ' +
      'the range, every line with its running balance, and the closing balance. Served as `application/pdf` ' +
      'named `statement-<start_date>-<end_date>.pdf`.',
    pathParams: IdParamsSchema,
    query: StatementQuerySchema,
    responses: { 200: pdfResponse, ...generalErrors(404) },
    metadata: meta('token', 'Customers'),
  },
});
