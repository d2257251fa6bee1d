import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { dataEnvelope, pageEnvelope } from '../common/envelopes.js';
import { generalErrors } from '../common/errors.js';
import { meta } from '../common/metadata.js';
import { majorAmount, majorAmountInput } from '../common/money.js';
import { PageQuerySchema, sortQuery } from '../common/pagination.js';
import {
  DateSchema,
  IdParamsSchema,
  IdempotencyHeadersSchema,
  TimestampSchema,
  idOf,
} from '../common/schemas.js';
import { SendDocumentBodySchema, pdfResponse } from './documents.js';
import { InvoiceItemInputSchema, InvoiceItemSchema, PAYMENT_METHODS } from './invoices.js';

const c = initContract();

export const CREDIT_NOTE_STATUSES = ['issued', 'void'] as const;
export const CreditNoteStatusSchema = extendApi(z.enum(CREDIT_NOTE_STATUSES), {
  description: '`issued` from its creation; `void` once voided (its postings reversed).',
});

export const REFUND_METHODS = PAYMENT_METHODS;

export const REFUND_STATUSES = ['pending', 'succeeded', 'failed'] as const;

export const CreditNoteRefundSchema = extendApi(
  z.object({
    amount: majorAmount('What is paid back', 30),
    method: z.enum(REFUND_METHODS),
    status: z
      .enum(REFUND_STATUSES)
      .describe(
        '`succeeded` for a refund paid back by hand. A refund to the card of an invoice paid online goes through ' +
          'the payment provider that took the payment: `pending` until the provider confirms it (only then is it ' +
          'posted, Dr 1200 / Cr 1030), `failed` when the provider could not pay it back: nothing is posted, and ' +
          'the amount stays owed to the customer (their statement shows it to their credit).',
      ),
    provider: z
      .enum(['test', 'stripe'])
      .nullable()
      .describe('The payment provider the refund goes through; null for a refund paid back by hand.'),
    provider_refund_id: z
      .string()
      .nullable()
      .describe("The provider's id of the refund (`re_...` at Stripe), once the provider answered."),
  }),
  { title: 'CreditNoteRefund' },
);
export type CreditNoteRefund = z.infer<typeof CreditNoteRefundSchema>;

export const CreditNoteSchema = extendApi(
  z.object({
    id: idOf('cn'),
    number: z.string().describe('Sequential per business without gaps: CN-000001, CN-000002, ...'),
    invoice_id: z.string().describe('The invoice it credits.'),
    invoice_number: z.string(),
    customer_id: z.string(),
    customer: z.object({ id: z.string(), name: z.string() }),
    status: CreditNoteStatusSchema,
    currency: z.string().describe("The invoice's currency."),
    issue_date: DateSchema,
    reason: z.string(),
    items: z
      .array(InvoiceItemSchema)
      .describe('The lines credited; empty when the credit note was made for an `amount`.'),
    subtotal: majorAmount('Sum of the line totals (after their discounts), before tax', 100),
    tax: majorAmount('Sum of the item taxes, rounded half-up once', 20),
    total: majorAmount('subtotal + tax', 120),
    credit_amount: majorAmount('The part that lowers what the invoice still owes', 120),
    refund_amount: majorAmount('The part paid back to the customer', 0),
    refund_method: z
      .enum(REFUND_METHODS)
      .nullable()
      .describe('How the refund was paid back; null without a refund.'),
    refund: CreditNoteRefundSchema.nullable().describe(
      'The refund and where it stands; null without a refund.',
    ),
    customer_credit_amount: majorAmount(
      "The part added to the customer's credit balance, applied to their next invoice in the currency",
      0,
    ),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
    voided_at: TimestampSchema.nullable(),
    sent_at: TimestampSchema.nullable().describe('When the credit note was last mailed to the customer.'),
    hosted_url: z
      .string()
      .describe(
        'The page the customer opens without signing in (the link in the mail): the credit note, the invoice it ' +
          'credits, where its money went, and its PDF; a void one says it is void. Anyone holding it can see ' +
          'the credit note: share it only with the customer.',
      ),
  }),
  {
    title: 'CreditNote',
    example: {
      id: 'cn_01JD7X2R5VQ8N3K4M6P9T1W2Y3',
      number: 'CN-000001',
      invoice_id: 'inv_01JD7X2R5VQ8N3K4M6P9T1W2Y3',
      invoice_number: 'INV-000001',
      customer_id: 'cus_01JD7X2R5VQ8N3K4M6P9T1W2Y3',
      customer: { id: 'cus_01JD7X2R5VQ8N3K4M6P9T1W2Y3', name: 'Ada Lovelace' },
      status: 'issued',
      currency: 'USD',
      issue_date: '2026-11-28',
      reason: 'One hour billed twice',
      items: [
        {
          id: 'item_01JD7X2R5VQ8N3K4M6P9T1W2Y4',
          product_id: null,
          description: 'Consulting (hours)',
          quantity: 1,
          unit_price: 150,
          tax_rate: 20,
          discount_percent: 0,
          total: 150,
          tax: 30,
        },
      ],
      subtotal: 150,
      tax: 30,
      total: 180,
      credit_amount: 180,
      refund_amount: 0,
      refund_method: null,
      refund: null,
      customer_credit_amount: 0,
      created_at: '2026-11-28T09:30:00.000Z',
      updated_at: '2026-11-28T09:30:00.000Z',
      voided_at: null,
      sent_at: null,
      hosted_url:
        'https://bms.example.com/c/YzpidXNfMDFKRDdYMlI1VlE4TjNLNE02UDlUMVcyWTM.kT4Vq9b2c3u1Ycd8JtXzXg',
    },
  },
);
export type CreditNote = z.infer<typeof CreditNoteSchema>;

export const CreditNoteItemInputSchema = extendApi(
  InvoiceItemInputSchema.omit({ product_id: true })
    .required({ description: true, unit_price: true })
    .strict(),
  {
    title: 'CreditNoteItemInput',
    example: { description: 'Consulting (hours)', quantity: 1, unit_price: 150, tax_rate: 20 },
  },
);
export type CreditNoteItemInput = z.infer<typeof CreditNoteItemInputSchema>;

const part = (description: string, example: number) => majorAmountInput({ description, example });

export const CreateCreditNoteBodySchema = extendApi(
  z
    .object({
      invoice_id: z.string().max(64).describe('An issued or paid invoice (a draft or void one: 409).'),
      items: z
        .array(CreditNoteItemInputSchema)
        .min(1)
        .max(200)
        .optional()
        .describe('The lines credited, priced as invoice lines. Give `items` or `amount`, not both.'),
      amount: majorAmountInput({
        description:
          "The amount credited, tax included, split between net and tax in the invoice's proportion. Give " +
          '`items` or `amount`, not both',
        aboveMin: true,
        example: 120,
      }).optional(),
      reason: z.string().trim().min(1).max(500),
      issue_date: DateSchema.optional().describe(
        "Defaults to today in the business's time zone; not before the invoice's issue date.",
      ),
      credit_amount: part('The part that lowers what the invoice still owes: at most its `amount_due`', 120),
      refund_amount: part('The part paid back to the customer (`refund_method` required when above 0)', 0),
      refund_method: z.enum(REFUND_METHODS).optional(),
      customer_credit_amount: part("The part added to the customer's credit balance", 0),
    })
    .strict(),
  {
    title: 'CreateCreditNoteBody',
    example: {
      invoice_id: 'inv_01JD7X2R5VQ8N3K4M6P9T1W2Y3',
      items: [{ description: 'Consulting (hours)', quantity: 1, unit_price: 150, tax_rate: 20 }],
      reason: 'One hour billed twice',
      credit_amount: 180,
      refund_amount: 0,
      customer_credit_amount: 0,
    },
  },
);
export type CreateCreditNoteBody = z.infer<typeof CreateCreditNoteBodySchema>;

export const CREDIT_NOTE_SORT_FIELDS = ['created_at', 'issue_date', 'total', 'number'] as const;

export const ListCreditNotesQuerySchema = PageQuerySchema.extend({
  status: CreditNoteStatusSchema.optional(),
  invoice_id: z.string().max(64).optional(),
  customer_id: z.string().max(64).optional(),
  sort: sortQuery(CREDIT_NOTE_SORT_FIELDS),
});
export type ListCreditNotesQuery = z.infer<typeof ListCreditNotesQuerySchema>;

const creditNoteResponse = dataEnvelope(CreditNoteSchema);

export const creditNotesContract = c.router({
  listCreditNotes: {
    method: 'GET',
    path: '/credit-notes',
    summary: 'List credit notes',
    description: 'Newest first unless `sort` says otherwise; ties are broken by id so pages are stable.',
    query: ListCreditNotesQuerySchema,
    responses: { 200: pageEnvelope(CreditNoteSchema), ...generalErrors() },
    metadata: meta('token', 'Credit notes'),
  },
  createCreditNote: {
    method: 'POST',
    path: '/credit-notes',
    summary: 'Credit an invoice',
    description:
      'Issues a credit note against one issued or paid invoice (a draft or void one: 409 INVALID_STATE), for ' +
      '`items` or an `amount`, never more than the invoice total less its earlier credit notes (422 on `amount` ' +
      'or `items` naming what is left). `credit_amount + refund_amount + customer_credit_amount` must equal its ' +
      "total (422), and `credit_amount` is at most the invoice's `amount_due`. Posted to the ledger at once: " +
      'Dr 4000 Sales and 2200 VAT payable / Cr 1200 Accounts receivable for the total; a refund Dr 1200 / Cr ' +
      'cash or bank by `refund_method`; customer credit Dr 1200 / Cr 2300 Customer credit, added to the ' +
      "customer's `credit_balance`. In another currency than the base, the entry is at the invoice's rate and " +
      "the money paid back at the rate of the credit note's date, the difference a realised gain (4900) or " +
      'loss (5900). An invoice whose amount due reaches 0 becomes `paid` (invoice.paid). ' +
      'A `card` refund on an invoice paid online is paid back through the payment provider, to the card of one ' +
      'payment that can take all of it (422 on `refund_amount` naming the most one can, otherwise): the ' +
      'credit note answers with `refund.status` `pending`, and the refund is posted (Dr 1200 / Cr 1030) when ' +
      'the provider confirms it. Fires credit_note.created.',
    headers: IdempotencyHeadersSchema,
    body: CreateCreditNoteBodySchema,
    responses: { 201: creditNoteResponse, ...generalErrors(409) },
    metadata: meta('token', 'Credit notes'),
  },
  getCreditNote: {
    method: 'GET',
    path: '/credit-notes/:id',
    summary: 'Get a credit note',
    pathParams: IdParamsSchema,
    responses: { 200: creditNoteResponse, ...generalErrors(404) },
    metadata: meta('token', 'Credit notes'),
  },
  getCreditNotePdf: {
    method: 'GET',
    path: '/credit-notes/:id/pdf',
    summary: 'Download a credit note as a PDF',
    description:
      'The credit note as the customer receives it (A4), naming the invoice it credits and where its money goes. A void one is marked VOID. Served as `application/pdf` named after its number (`CN-000001.pdf`).',
    pathParams: IdParamsSchema,
    responses: { 200: pdfResponse, ...generalErrors(404) },
    metadata: meta('token', 'Credit notes'),
  },
  sendCreditNote: {
    method: 'POST',
    path: '/credit-notes/:id/send',
    summary: 'Mail a credit note to the customer',
    description:
      "Mails the credit note to `to` (default: the customer's email; 422 on `to` when there is neither), with " +
      '`cc` copied and `message` above it, the PDF attached and the link to its hosted page (`hosted_url`), ' +
      'through the mail outbox. A void one is 409 ' +
      'INVALID_STATE. Sets `sent_at`.',
    headers: IdempotencyHeadersSchema,
    pathParams: IdParamsSchema,
    body: SendDocumentBodySchema,
    responses: { 200: creditNoteResponse, ...generalErrors(404, 409) },
    metadata: meta('token', 'Credit notes'),
  },
  voidCreditNote: {
    method: 'POST',
    path: '/credit-notes/:id/void',
    headers: IdempotencyHeadersSchema,
    summary: 'Void a credit note',
    description:
      'Reverses its postings on the day of the void and gives the invoice back what it credited (a paid invoice ' +
      'becomes unpaid again when that leaves something due). Only while nothing of it was refunded or used as ' +
      "credit: a credit note with a refund, or whose customer credit is no longer all in the customer's " +
      'balance, is 409 INVALID_STATE, as is one already void.',
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: creditNoteResponse, ...generalErrors(404, 409) },
    metadata: meta('token', 'Credit notes'),
  },
});
