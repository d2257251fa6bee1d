import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { dataEnvelope, pageEnvelope } from '../common/envelopes.js';
import { generalErrors } from '../common/errors.js';
import { meta } from '../common/metadata.js';
import { majorAmount, majorAmountInput } from '../common/money.js';
import { RateInputSchema } from '../common/rates.js';
import { PageQuerySchema, sortQuery } from '../common/pagination.js';
import {
  CurrencySchema,
  DateSchema,
  IdParamsSchema,
  IdempotencyHeadersSchema,
  TimestampSchema,
  idOf,
} from '../common/schemas.js';
import { SendDocumentBodySchema, hostedFields, pdfResponse } from './documents.js';

const c = initContract();

export const INVOICE_STATUSES = ['draft', 'unpaid', 'paid', 'void', 'overdue'] as const;
export const InvoiceStatusSchema = extendApi(z.enum(INVOICE_STATUSES), {
  description:
    '`draft` until issued, then `unpaid` until fully paid (`paid`) or voided (`void`). `overdue` is reported ' +
    'instead of `unpaid` once `due_date` has passed.',
});

export const PAYMENT_METHODS = ['bank_transfer', 'cash', 'check', 'mobile_money', 'card'] as const;
/** A payment's method as recorded: one a client records, or `credit` (the customer's credit balance applied at issue). */
export const RECORDED_PAYMENT_METHODS = [...PAYMENT_METHODS, 'credit'] as const;

export const InvoiceItemSchema = extendApi(
  z.object({
    id: idOf('item'),
    product_id: z.string().nullable(),
    description: z.string(),
    quantity: z.number(),
    unit_price: majorAmount('Unit price', 150),
    tax_rate: z.number().describe('Percent, e.g. 20 for 20%.'),
    discount_percent: z
      .number()
      .describe('Percent taken off the line before tax, e.g. 10 for 10%; 0 for none.'),
    total: majorAmount(
      'quantity x unit_price x (100 - discount_percent) / 100, rounded half-up once to the currency, before tax',
      450,
    ),
    tax: majorAmount('total x tax_rate / 100, rounded half-up', 90),
  }),
  { title: 'InvoiceItem' },
);

export const PaymentSchema = extendApi(
  z.object({
    id: idOf('pay'),
    invoice_id: z.string(),
    amount: majorAmount('The payment', 540),
    currency: z.string(),
    payment_method: z
      .enum(RECORDED_PAYMENT_METHODS)
      .describe("`credit`: the customer's credit balance, applied when the invoice was issued."),
    payment_date: DateSchema,
    reference: z.string().nullable(),
    bank_account_id: z.string().nullable().describe('The bank account the money reached, when named.'),
    exchange_rate: z.string().nullable().describe("The rate it was given to post at; null: the table's."),
    created_at: TimestampSchema,
  }),
  { title: 'Payment' },
);
export type Payment = z.infer<typeof PaymentSchema>;

export const InvoiceSchema = extendApi(
  z.object({
    id: idOf('inv'),
    number: z.string().describe('Sequential per business without gaps: INV-000001, INV-000002, ...'),
    customer_id: z.string(),
    customer: z.object({ id: z.string(), name: z.string() }),
    status: InvoiceStatusSchema,
    currency: z.string(),
    exchange_rate: z
      .string()
      .nullable()
      .describe("The rate it was given to post at; null: the exchange-rate table's of its issue date."),
    issue_date: DateSchema.nullable(),
    due_date: DateSchema,
    notes: z.string().nullable(),
    items: z.array(InvoiceItemSchema),
    subtotal: majorAmount('Sum of the line totals (after their discounts), before tax', 450),
    tax: majorAmount('Sum of the item taxes, rounded half-up once', 90),
    total: majorAmount('subtotal + tax', 540),
    amount_paid: majorAmount('Sum of the payments', 0),
    amount_credited: majorAmount(
      'What credit notes took off what the invoice owes (their `credit_amount`s, void ones excepted)',
      0,
    ),
    amount_due: majorAmount('total less amount_paid and amount_credited', 540),
    credited: z
      .boolean()
      .describe(
        'True when the invoice is `paid` and credit notes took part in bringing its amount due to 0.',
      ),
    payments: z.array(PaymentSchema),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
    issued_at: TimestampSchema.nullable(),
    paid_at: TimestampSchema.nullable(),
    voided_at: TimestampSchema.nullable(),
    sent_at: TimestampSchema.nullable().describe(
      'When the invoice was last mailed to the customer (`POST /v1/invoices/:id/send`); null until then.',
    ),
    recurring_invoice_id: z
      .string()
      .nullable()
      .describe('The recurring invoice that made it (`/v1/recurring-invoices`); null for one made by hand.'),
    ...hostedFields,
  }),
  {
    title: 'Invoice',
    example: {
      id: 'inv_01JD7X2R5VQ8N3K4M6P9T1W2Y3',
      number: 'INV-000001',
      customer_id: 'cus_01JD7X2R5VQ8N3K4M6P9T1W2Y3',
      customer: { id: 'cus_01JD7X2R5VQ8N3K4M6P9T1W2Y3', name: 'Ada Lovelace' },
      status: 'unpaid',
      currency: 'USD',
      issue_date: '2026-11-21',
      due_date: '2026-12-21',
      notes: 'Thank you for your business',
      items: [
        {
          id: 'item_01JD7X2R5VQ8N3K4M6P9T1W2Y4',
          product_id: null,
          description: 'Consulting (hours)',
          quantity: 3,
          unit_price: 150,
          tax_rate: 20,
          discount_percent: 0,
          total: 450,
          tax: 90,
        },
      ],
      subtotal: 450,
      tax: 90,
      total: 540,
      amount_paid: 0,
      amount_credited: 0,
      amount_due: 540,
      credited: false,
      payments: [],
      created_at: '2026-11-21T09:30:00.000Z',
      updated_at: '2026-11-21T09:31:00.000Z',
      issued_at: '2026-11-21T09:31:00.000Z',
      paid_at: null,
      voided_at: null,
      sent_at: '2026-11-21T09:32:00.000Z',
      recurring_invoice_id: null,
      hosted_url: 'https://bms.example.com/i/aW52XzAxSkQ3WDJSNVZROE4zSzRNNlA5VDFXMlkz.pW5Xq0b9c3u1Ycd8JtXzXg',
      viewed_at: null,
    },
  },
);
export type Invoice = z.infer<typeof InvoiceSchema>;

/**
 * How many decimals a number has as the client wrote it (its shortest decimal form, exponent
 * notation included), counted exactly: 1.0000000000000002 has 16, 1e-7 has 7. No float tolerance.
 */
function decimalsOf(value: number): number {
  const [mantissa = '', exponent = '0'] = String(value).toLowerCase().split('e');
  const fraction = mantissa.split('.')[1] ?? '';
  return Math.max(0, fraction.length - Number(exponent));
}

export const atMostDecimals = (places: number) => ({
  check: (value: number) => decimalsOf(value) <= places,
  message: `At most ${places} decimals`,
});

const QUANTITY = atMostDecimals(4);
const TAX_RATE = atMostDecimals(3);
const DISCOUNT = atMostDecimals(2);

export const InvoiceItemInputSchema = extendApi(
  z
    .object({
      product_id: z
        .string()
        .max(64)
        .optional()
        .describe('Fills description and unit_price when they are omitted.'),
      description: z.string().trim().min(1).max(500).optional(),
      quantity: z
        .number()
        .gt(0)
        .max(1_000_000)
        .refine(QUANTITY.check, { message: QUANTITY.message })
        .describe(
          'Greater than 0, at most 1,000,000, with at most 4 decimals exactly as written (1.00001 or ' +
            '1.0000000000000002: 422 naming the field; nothing is rounded).',
        ),
      unit_price: majorAmountInput({
        description:
          'Fills from the product when omitted. Every amount is at most 999,999,999,999,999 minor units ' +
          '(9,999,999,999,999.99 USD, 999,999,999,999,999 JPY): a larger unit_price is 422 naming it, a larger ' +
          'line total (quantity x unit_price) 422 naming the line (`items.N`)',
        example: 150,
      }).optional(),
      tax_rate: z
        .number()
        .min(0)
        .max(100)
        .refine(TAX_RATE.check, { message: TAX_RATE.message })
        .optional()
        .describe(
          'Tax percent for this line, 0 to 100 with at most 3 decimals exactly as written (more: 422 naming ' +
            'the field); default 0.',
        ),
      discount_percent: z
        .number()
        .min(0)
        .max(100)
        .refine(DISCOUNT.check, { message: DISCOUNT.message })
        .optional()
        .describe(
          'Percent taken off the line before tax, 0 to 100 with at most 2 decimals (outside or more: 422 ' +
            'naming the field); default 0. The line total is quantity x unit_price x (100 - discount_percent) ' +
            '/ 100, rounded half-up once.',
        ),
    })
    .strict(),
  {
    title: 'InvoiceItemInput',
    example: { description: 'Consulting (hours)', quantity: 3, unit_price: 150, tax_rate: 20 },
  },
);
export type InvoiceItemInput = z.infer<typeof InvoiceItemInputSchema>;

export const CreateInvoiceBodySchema = extendApi(
  z
    .object({
      customer_id: z.string().max(64),
      items: z.array(InvoiceItemInputSchema).min(1).max(200),
      due_date: DateSchema,
      issue_date: DateSchema.optional().describe('Defaults to the day the invoice is issued.'),
      currency: CurrencySchema.optional().describe("Defaults to the business's base currency."),
      exchange_rate: RateInputSchema.nullable()
        .optional()
        .describe(
          'For a currency other than the base: the rate the invoice posts at, over the exchange-rate table ' +
            '(default: the latest rate on or before the issue date).',
        ),
      notes: z.string().max(2000).nullable().optional(),
    })
    .strict(),
  {
    title: 'CreateInvoiceBody',
    example: {
      customer_id: 'cus_01JD7X2R5VQ8N3K4M6P9T1W2Y3',
      items: [{ description: 'Consulting (hours)', quantity: 3, unit_price: 150, tax_rate: 20 }],
      due_date: '2026-12-21',
      currency: 'USD',
      notes: 'Thank you for your business',
    },
  },
);
export type CreateInvoiceBody = z.infer<typeof CreateInvoiceBodySchema>;

export const UpdateInvoiceBodySchema = extendApi(CreateInvoiceBodySchema.partial().strict(), {
  title: 'UpdateInvoiceBody',
  example: { due_date: '2027-01-15', notes: 'Updated terms' },
});
export type UpdateInvoiceBody = z.infer<typeof UpdateInvoiceBodySchema>;

export const CreatePaymentBodySchema = extendApi(
  z
    .object({
      amount: majorAmountInput({ description: 'At most `amount_due`', aboveMin: true, example: 540 }),
      payment_method: z.enum(PAYMENT_METHODS),
      payment_date: DateSchema.optional().describe("Defaults to today in the business's time zone."),
      reference: z.string().max(100).optional(),
      exchange_rate: RateInputSchema.optional().describe(
        'For an invoice in another currency than the base: the rate the money came in at (default: the latest ' +
          "rate on or before payment_date); the difference from the invoice's own is a realised gain or loss.",
      ),
      bank_account_id: z
        .string()
        .max(64)
        .optional()
        .describe(
          'The bank account (`/v1/finance/bank-accounts`) the money reached: its chart account is debited rather ' +
            "than the method's default; one of another currency than the invoice is 422.",
        ),
    })
    .strict(),
  {
    title: 'CreatePaymentBody',
    example: { amount: 540, payment_method: 'bank_transfer', payment_date: '2026-11-30' },
  },
);
export type CreatePaymentBody = z.infer<typeof CreatePaymentBodySchema>;

export const INVOICE_SORT_FIELDS = ['due_date', 'created_at', 'total', 'number'] as const;

export const ListInvoicesQuerySchema = PageQuerySchema.extend({
  status: InvoiceStatusSchema.optional(),
  customer_id: z.string().max(64).optional(),
  sort: sortQuery(INVOICE_SORT_FIELDS),
});
export type ListInvoicesQuery = z.infer<typeof ListInvoicesQuerySchema>;

const invoiceResponse = dataEnvelope(InvoiceSchema);

export const PaymentLinkSchema = extendApi(
  z.object({
    url: z.string().url().describe("The invoice's hosted page, with Pay."),
    amount_due: majorAmount('What Pay asks the customer for', 120.5),
    currency: z.string(),
    provider: z.enum(['test', 'stripe']).describe('The payment provider the checkout opens with.'),
  }),
  {
    title: 'PaymentLink',
    example: {
      url: 'https://billing.example.com/i/aTpiaXpfMDFKRDdYMlI1VlE4TjNLNE02UDlUMVcyWTM.0m8m3Jk4cQ2uB7c1Zl9d0A',
      amount_due: 120.5,
      currency: 'GBP',
      provider: 'test',
    },
  },
);
export type PaymentLink = z.infer<typeof PaymentLinkSchema>;

export const invoicesContract = c.router({
  listInvoices: {
    method: 'GET',
    path: '/invoices',
    summary: 'List invoices',
    description: 'Newest first unless `sort` says otherwise; ties are broken by id so pages are stable.',
    query: ListInvoicesQuerySchema,
    responses: { 200: pageEnvelope(InvoiceSchema), ...generalErrors() },
    metadata: meta('token', 'Invoices'),
  },
  createInvoice: {
    method: 'POST',
    path: '/invoices',
    summary: 'Create a draft invoice',
    description:
      'Creates a `draft` with the next number of the business. Amounts are major units with at most the ' +
      "currency's decimals; line totals and taxes are rounded half-up. Every amount, computed ones included, is " +
      'at most 999,999,999,999,999 minor units (9,999,999,999,999.99 USD): a larger line total is 422 naming the ' +
      'line (`items.N`), a larger invoice total (tax included) 422 naming `items`. Nothing is rounded to fit.',
    headers: IdempotencyHeadersSchema,
    body: CreateInvoiceBodySchema,
    responses: { 201: invoiceResponse, ...generalErrors(409) },
    metadata: meta('token', 'Invoices'),
  },
  getInvoice: {
    method: 'GET',
    path: '/invoices/:id',
    summary: 'Get an invoice',
    description:
      'The invoice with its items and payments; `status` reports `overdue` when due_date has passed.',
    pathParams: IdParamsSchema,
    responses: { 200: invoiceResponse, ...generalErrors(404) },
    metadata: meta('token', 'Invoices'),
  },
  updateInvoice: {
    method: 'PUT',
    path: '/invoices/:id',
    summary: 'Update a draft invoice',
    description:
      'Partial update; `items` replaces all lines. Only drafts can change (409 INVALID_STATE otherwise). An ' +
      'empty body changes nothing (no event) and returns the draft as it is.',
    pathParams: IdParamsSchema,
    body: UpdateInvoiceBodySchema,
    responses: { 200: invoiceResponse, ...generalErrors(404, 409) },
    metadata: meta('token', 'Invoices'),
  },
  deleteInvoice: {
    method: 'DELETE',
    path: '/invoices/:id',
    summary: 'Delete a draft invoice',
    description:
      'Only drafts can be deleted (409 INVALID_STATE otherwise). The number stays recorded as deleted.',
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: invoiceResponse, ...generalErrors(404, 409) },
    metadata: meta('token', 'Invoices'),
  },
  issueInvoice: {
    method: 'POST',
    path: '/invoices/:id/issue',
    headers: IdempotencyHeadersSchema,
    summary: 'Issue an invoice',
    description: "Moves a draft to `unpaid`; `issue_date` defaults to today in the business's time zone.",
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: invoiceResponse, ...generalErrors(404, 409) },
    metadata: meta('token', 'Invoices'),
  },
  createPayment: {
    method: 'POST',
    path: '/invoices/:id/payments',
    summary: 'Record a payment',
    description:
      'Records a partial or full payment of an issued invoice. Paying more than `amount_due` is 422; paying a ' +
      'draft, paid or void invoice is 409 INVALID_STATE. The invoice becomes `paid` when fully paid. When that ' +
      "earns loyalty points that would take the member's balance past 9007199254740991 (2^53-1), the payment " +
      'is refused (422 naming `amount`) and nothing is recorded.',
    pathParams: IdParamsSchema,
    headers: IdempotencyHeadersSchema,
    body: CreatePaymentBodySchema,
    responses: { 201: invoiceResponse, ...generalErrors(404, 409) },
    metadata: meta('token', 'Invoices'),
  },
  createPaymentLink: {
    method: 'POST',
    path: '/invoices/:id/payment-link',
    summary: 'Get the link customers pay an invoice at',
    description:
      "The invoice's hosted page, with its Pay button, to share by other means than the invoice's email (chat, " +
      'SMS). Pay opens the checkout of the payment provider the business connected (`PUT /v1/business/payments`) ' +
      "for the amount due, in the invoice's currency. A draft, paid or void invoice has nothing to pay: 409 " +
      'INVALID_STATE; a business with no provider connected: 409 INVALID_STATE saying how to connect one.',
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: dataEnvelope(PaymentLinkSchema), ...generalErrors(404, 409) },
    metadata: meta('token', 'Invoices'),
  },
  getInvoicePdf: {
    method: 'GET',
    path: '/invoices/:id/pdf',
    summary: 'Download an invoice as a PDF',
    description:
      "The invoice as the customer receives it (A4): the business's name, address, tax number and payment " +
      "instructions (`PATCH /v1/business`), the customer, number, dates, lines, tax, totals in the currency's " +
      'format, amount paid and due, and notes. A draft is marked DRAFT and a void invoice VOID. Served as ' +
      '`application/pdf` with a `Content-Disposition` naming the file (`INV-000001.pdf`).',
    pathParams: IdParamsSchema,
    responses: { 200: pdfResponse, ...generalErrors(404) },
    metadata: meta('token', 'Invoices'),
  },
  sendInvoice: {
    method: 'POST',
    path: '/invoices/:id/send',
    summary: 'Mail an invoice to the customer',
    description:
      "Mails the invoice to `to` (default: the customer's email; 422 on `to` when there is neither), with " +
      '`cc` copied and `message` above it, the PDF attached and the link to its hosted page (`hosted_url`), ' +
      "through the mail outbox (a sandbox's mail is captured: `GET /v1/sandbox/messages`). A draft is issued " +
      'first, in the same transaction (as `POST /v1/invoices/:id/issue` would). An unpaid, overdue or paid ' +
      'invoice may be sent again; a void one is 409 INVALID_STATE. Sets `sent_at`, and from then on the ' +
      "business's overdue reminders apply to it (`invoice_reminders` in `PATCH /v1/business`).",
    headers: IdempotencyHeadersSchema,
    pathParams: IdParamsSchema,
    body: SendDocumentBodySchema,
    responses: { 200: invoiceResponse, ...generalErrors(404, 409) },
    metadata: meta('token', 'Invoices'),
  },
  voidInvoice: {
    method: 'POST',
    path: '/invoices/:id/void',
    headers: IdempotencyHeadersSchema,
    summary: 'Void an invoice',
    description: 'Voids a draft or an unpaid invoice without payments; anything else is 409 INVALID_STATE.',
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: invoiceResponse, ...generalErrors(404, 409) },
    metadata: meta('token', 'Invoices'),
  },
});
