import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { dataEnvelope, pageEnvelope } from '../common/envelopes.js';
import { generalErrors } from '../common/errors.js';
import { meta } from '../common/metadata.js';
import { majorAmount } from '../common/money.js';
import { PageQuerySchema, sortQuery } from '../common/pagination.js';
import {
  CurrencySchema,
  DateSchema,
  dateField,
  IdParamsSchema,
  IdempotencyHeadersSchema,
  TimestampSchema,
  idOf,
} from '../common/schemas.js';
import { SendDocumentBodySchema, hostedFields, pdfResponse } from './documents.js';
import { InvoiceItemInputSchema, InvoiceItemSchema, InvoiceSchema } from './invoices.js';

const c = initContract();

export const QUOTE_STATUSES = ['draft', 'sent', 'accepted', 'declined', 'converted', 'expired'] as const;
export const QuoteStatusSchema = extendApi(z.enum(QUOTE_STATUSES), {
  description:
    '`draft` until sent; `sent` until accepted or declined; `converted` once turned into an invoice. A sent ' +
    'quote past `valid_until` reads as `expired`.',
});

export const QuoteSchema = extendApi(
  z.object({
    id: idOf('quo'),
    number: z.string().describe('Sequential per business without gaps: QUO-000001, QUO-000002, ...'),
    customer_id: z.string(),
    customer: z.object({ id: z.string(), name: z.string() }),
    status: QuoteStatusSchema,
    currency: z.string(),
    valid_until: DateSchema,
    notes: z.string().nullable(),
    items: z.array(InvoiceItemSchema),
    subtotal: majorAmount('Sum of the line totals (after their discounts), before tax', 450),
    tax: majorAmount('Sum of the item taxes, rounded half-up once', 90),
    total: majorAmount('subtotal + tax', 540),
    invoice_id: z.string().nullable().describe('The invoice it was converted into.'),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
    sent_at: TimestampSchema.nullable(),
    accepted_at: TimestampSchema.nullable(),
    declined_at: TimestampSchema.nullable(),
    converted_at: TimestampSchema.nullable(),
    ...hostedFields,
  }),
  { title: 'Quote' },
);
export type Quote = z.infer<typeof QuoteSchema>;

export const CreateQuoteBodySchema = extendApi(
  z
    .object({
      customer_id: z.string().max(64),
      items: z.array(InvoiceItemInputSchema).min(1).max(200),
      valid_until: dateField('Last day the quote may be accepted.'),
      currency: CurrencySchema.optional().describe("Defaults to the business's base currency."),
      notes: z.string().max(2000).nullable().optional(),
    })
    .strict(),
  {
    title: 'CreateQuoteBody',
    example: {
      customer_id: 'cus_01JD7X2R5VQ8N3K4M6P9T1W2Y3',
      items: [{ description: 'Website redesign', quantity: 1, unit_price: 4800, tax_rate: 20 }],
      valid_until: '2026-12-31',
    },
  },
);
export type CreateQuoteBody = z.infer<typeof CreateQuoteBodySchema>;

export const UpdateQuoteBodySchema = extendApi(CreateQuoteBodySchema.partial().strict(), {
  title: 'UpdateQuoteBody',
  example: { valid_until: '2027-01-15' },
});
export type UpdateQuoteBody = z.infer<typeof UpdateQuoteBodySchema>;

export const QUOTE_SORT_FIELDS = ['valid_until', 'created_at', 'total', 'number'] as const;

export const ListQuotesQuerySchema = PageQuerySchema.extend({
  status: QuoteStatusSchema.optional().describe(
    '`sent` excludes expired quotes; `expired` lists only those.',
  ),
  customer_id: z.string().max(64).optional(),
  sort: sortQuery(QUOTE_SORT_FIELDS),
});
export type ListQuotesQuery = z.infer<typeof ListQuotesQuerySchema>;

const route = meta('token', 'Quotes');
const action = (path: string, summary: string, description: string) =>
  ({
    method: 'POST',
    path,
    summary,
    description,
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: dataEnvelope(QuoteSchema), ...generalErrors(404, 409) },
    metadata: route,
  }) as const;

export const quotesContract = c.router({
  listQuotes: {
    method: 'GET',
    path: '/quotes',
    summary: 'List quotes',
    description: 'Newest first unless `sort` says otherwise; ties are broken by id so pages are stable.',
    query: ListQuotesQuerySchema,
    responses: { 200: pageEnvelope(QuoteSchema), ...generalErrors() },
    metadata: route,
  },
  createQuote: {
    method: 'POST',
    path: '/quotes',
    summary: 'Create a quote',
    description: 'A draft, numbered QUO-000001 onwards per business. Lines are priced as invoice lines are.',
    headers: IdempotencyHeadersSchema,
    body: CreateQuoteBodySchema,
    responses: { 201: dataEnvelope(QuoteSchema), ...generalErrors(409) },
    metadata: route,
  },
  getQuote: {
    method: 'GET',
    path: '/quotes/:id',
    summary: 'Get a quote',
    pathParams: IdParamsSchema,
    responses: { 200: dataEnvelope(QuoteSchema), ...generalErrors(404) },
    metadata: route,
  },
  updateQuote: {
    method: 'PUT',
    path: '/quotes/:id',
    summary: 'Update a draft quote',
    description: 'Partial; only drafts (409 INVALID_STATE otherwise).',
    pathParams: IdParamsSchema,
    body: UpdateQuoteBodySchema,
    responses: { 200: dataEnvelope(QuoteSchema), ...generalErrors(404, 409) },
    metadata: route,
  },
  deleteQuote: {
    method: 'DELETE',
    path: '/quotes/:id',
    summary: 'Delete a draft quote',
    description: 'Only drafts (409 INVALID_STATE otherwise); the number stays used.',
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: dataEnvelope(QuoteSchema), ...generalErrors(404, 409) },
    metadata: route,
  },
  getQuotePdf: {
    method: 'GET',
    path: '/quotes/:id/pdf',
    summary: 'Download a quote as a PDF',
    description:
      "The quote as the customer receives it (A4): the business's name, address and tax number, the customer, " +
      "number, date and `valid_until`, lines, tax and totals in the currency's format, and notes; a draft is " +
      'marked DRAFT. Served as `application/pdf` named `QUO-000001.pdf`.',
    pathParams: IdParamsSchema,
    responses: { 200: pdfResponse, ...generalErrors(404) },
    metadata: route,
  },
  sendQuote: {
    method: 'POST',
    path: '/quotes/:id/send',
    summary: 'Send a quote',
    description:
      "draft -> sent; any other state is 409 INVALID_STATE. Mails the quote to `to` (default: the customer's " +
      'email) with `cc` copied and `message` above it, the PDF attached and the link to its hosted page, where ' +
      'the customer can accept or decline it. When neither `to` nor a customer email exists, the quote is ' +
      'marked sent without a mail, to be handed over another way (its PDF or `hosted_url`). Every field is ' +
      'optional: an empty body (or none) sends to the customer.',
    headers: IdempotencyHeadersSchema,
    pathParams: IdParamsSchema,
    body: SendDocumentBodySchema,
    responses: { 200: dataEnvelope(QuoteSchema), ...generalErrors(404, 409) },
    metadata: route,
  },
  acceptQuote: action(
    '/quotes/:id/accept',
    'Accept a quote',
    'sent -> accepted while not expired; any other state (expired included) is 409 INVALID_STATE.',
  ),
  declineQuote: action(
    '/quotes/:id/decline',
    'Decline a quote',
    'sent (expired included) -> declined; any other state is 409 INVALID_STATE.',
  ),
  convertQuote: {
    method: 'POST',
    path: '/quotes/:id/convert',
    summary: 'Convert an accepted quote into an invoice',
    description:
      'Creates a draft invoice with the same customer, items, totals, currency and notes (due 30 days after the ' +
      'conversion; the draft can be changed before it is issued), and marks the quote `converted` with its ' +
      '`invoice_id`. Only accepted quotes, once (409 INVALID_STATE otherwise).',
    headers: IdempotencyHeadersSchema,
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 201: dataEnvelope(InvoiceSchema), ...generalErrors(404, 409) },
    metadata: route,
  },
});
