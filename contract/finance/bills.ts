import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { atMostDecimals } from '../general/invoices.js';
import { resultEnvelope } from '../common/envelopes.js';
import { resultErrors } from '../common/errors.js';
import {
  CurrencySchema,
  DateSchema,
  dateField,
  IdempotencyHeadersSchema,
  IdParamsSchema,
  idOf,
  TimestampSchema,
} from '../common/schemas.js';
import { RateInputSchema } from '../common/rates.js';
import { minorAmount, minorAmountInput } from '../common/money.js';
import { FinancePageQuerySchema, financeRoute } from './shared.js';

const c = initContract();

/** Stored states; `overdue` is derived when reading (pending past its due date). */
export const BILL_STATES = ['draft', 'pending', 'paid', 'void'] as const;
export const BILL_STATUSES = ['draft', 'pending', 'paid', 'overdue', 'void'] as const;
export type BillStatus = (typeof BILL_STATUSES)[number];

export const BILL_PAYMENT_METHODS = ['bank_transfer', 'cash', 'check', 'mobile_money'] as const;

export const BillItemSchema = z.object({
  description: z.string(),
  quantity: z.number(),
  unit_price: minorAmount('Unit price', 2999),
  amount: minorAmount('quantity x unit_price, rounded half up (before tax)', 11996),
  tax_rate: z.number().describe('Percentage of input VAT on the item (0 when none).'),
  tax: minorAmount('amount x tax_rate / 100, rounded half up on its own', 2399),
});

export const BillPaymentSchema = extendApi(
  z.object({
    id: idOf('bpay'),
    bill_id: z.string(),
    amount: minorAmount('The payment', 11996),
    currency: z.string(),
    payment_method: z.enum(BILL_PAYMENT_METHODS),
    payment_date: DateSchema,
    bank_account_id: z.string().nullable().describe('The bank account the money left, when named.'),
    exchange_rate: z.string().nullable().describe("The rate it was given to post at; null: the table's."),
    created_at: TimestampSchema,
  }),
  { title: 'BillPayment' },
);
export type BillPayment = z.infer<typeof BillPaymentSchema>;

const billFields = {
  id: idOf('bill'),
  vendor_id: z.string(),
  vendor_name: z.string(),
  subtotal: minorAmount('The items before tax, summed exactly and rounded half up once', 11996),
  tax: minorAmount("The items' input VAT, summed exactly and rounded half up once (posted to 2210)", 2399),
  amount: minorAmount('The total: subtotal + tax', 14395),
  amount_paid: minorAmount('Sum of the payments', 0),
  amount_due: minorAmount('amount less amount_paid', 11996),
  currency: z.string(),
  exchange_rate: z
    .string()
    .nullable()
    .describe("The rate it was given to post at; null: the exchange-rate table's of its issue date."),
  status: z.enum(BILL_STATUSES),
  issue_date: DateSchema,
  due_date: DateSchema,
  notes: z.string().nullable(),
  recurring_bill_id: z
    .string()
    .nullable()
    .describe(
      'The recurring bill that made it (`/v1/finance/recurring-bills`); null for one recorded by hand.',
    ),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
};

export const BillSummarySchema = extendApi(z.object(billFields), { title: 'Bill' });
export type BillSummary = z.infer<typeof BillSummarySchema>;

export const BillSchema = extendApi(
  z.object({ ...billFields, items: z.array(BillItemSchema), payments: z.array(BillPaymentSchema) }),
  { title: 'BillDetail' },
);
export type Bill = z.infer<typeof BillSchema>;

/** A tax rate: a percentage with at most 3 decimals, as on invoices. */
const TAX_RATE = atMostDecimals(3);

export const BillItemInputSchema = z
  .object({
    description: z.string().trim().min(1).max(500),
    quantity: z.number().gt(0).max(1_000_000_000).describe('Up to 4 decimals.'),
    unit_price: minorAmountInput({ description: 'Unit price in the bill currency', example: 2999 }),
    tax_rate: z
      .number()
      .min(0)
      .max(100)
      .refine(TAX_RATE.check, { message: TAX_RATE.message })
      .default(0)
      .describe(
        'Input VAT percent, 0 to 100 with at most 3 decimals (more: 422 naming the field); default 0. Its tax posts ' +
          'to 2210 VAT receivable.',
      ),
  })
  .strict();

export const CreateBillBodySchema = extendApi(
  z
    .object({
      vendor_id: z.string().max(64).describe('A vendor of the business; 422 otherwise.'),
      items: z.array(BillItemInputSchema).min(1).max(200),
      currency: CurrencySchema.optional().describe("Default: the business's base currency."),
      exchange_rate: RateInputSchema.nullable()
        .optional()
        .describe(
          'For a currency other than the base: the rate the bill posts at, over the exchange-rate table ' +
            '(default: the latest rate on or before the issue date).',
        ),
      due_date: dateField('On or after issue_date (422 otherwise).'),
      issue_date: DateSchema.optional().describe(
        "Default: today in the business's time zone; the ledger posting is dated on it.",
      ),
      status: z
        .literal('draft')
        .optional()
        .describe('Create a draft (not posted) instead of a pending bill.'),
      notes: z.string().max(2000).nullable().optional(),
    })
    .strict(),
  {
    title: 'CreateBillBody',
    example: {
      vendor_id: 'ven_01JD7X2R5VQ8N3K4M6P9T1W2Y3',
      items: [{ description: 'Printer paper (box)', quantity: 4, unit_price: 2999 }],
      currency: 'USD',
      due_date: '2026-12-31',
    },
  },
);
export type CreateBillBody = z.infer<typeof CreateBillBodySchema>;

export const UpdateBillBodySchema = extendApi(
  CreateBillBodySchema.omit({ status: true }).partial().strict(),
  { title: 'UpdateBillBody', example: { due_date: '2027-01-15' } },
);
export type UpdateBillBody = z.infer<typeof UpdateBillBodySchema>;

export const PayBillBodySchema = extendApi(
  z
    .object({
      amount: minorAmountInput({ description: 'At most amount_due (422 otherwise)', min: 1, example: 11996 }),
      payment_method: z.enum(BILL_PAYMENT_METHODS),
      payment_date: DateSchema,
      exchange_rate: RateInputSchema.optional().describe(
        'For a bill in another currency than the base: the rate the money left at (default: the latest rate on ' +
          "or before payment_date); the difference from the bill's own is a realised gain or loss.",
      ),
      bank_account_id: z
        .string()
        .max(64)
        .optional()
        .describe(
          'The bank account (`/v1/finance/bank-accounts`) the money left: its chart account is credited rather ' +
            "than the method's default; one of another currency than the bill is 422.",
        ),
    })
    .strict(),
  {
    title: 'PayBillBody',
    example: { amount: 11996, payment_method: 'bank_transfer', payment_date: '2026-12-15' },
  },
);
export type PayBillBody = z.infer<typeof PayBillBodySchema>;

export const ListBillsQuerySchema = FinancePageQuerySchema.extend({
  status: z
    .enum(BILL_STATUSES)
    .optional()
    .describe('`overdue`: pending past its due date; `pending` excludes those.'),
  vendor_id: z.string().max(64).optional(),
});
export type ListBillsQuery = z.infer<typeof ListBillsQuerySchema>;

const billAnswer = resultEnvelope({ message: z.string(), bill: BillSchema });

export const billsContract = c.router({
  listBills: {
    method: 'GET',
    path: '/finance/bills',
    summary: 'List bills',
    description:
      'Newest first (ties by id); filters `status` and `vendor_id`; `limit`, `offset`, `total_count`.',
    query: ListBillsQuerySchema,
    responses: {
      200: resultEnvelope({ bills: z.array(BillSummarySchema), total_count: z.number().int() }),
      ...resultErrors(),
    },
    metadata: financeRoute,
  },
  createBill: {
    method: 'POST',
    path: '/finance/bills',
    summary: 'Record a bill',
    description:
      'Pending at once (posted Dr 5000 Expenses / Cr 2000 Accounts payable on its issue date), or a draft with ' +
      '`status: "draft"` (not posted until approved). An unknown vendor is 422 naming `vendor_id`.',
    headers: IdempotencyHeadersSchema,
    body: CreateBillBodySchema,
    responses: {
      201: resultEnvelope({ bill_id: z.string(), message: z.string(), bill: BillSchema }),
      ...resultErrors(409),
    },
    metadata: financeRoute,
  },
  getBill: {
    method: 'GET',
    path: '/finance/bills/:id',
    summary: 'Get a bill',
    description: 'With its items, payments, amount_paid and amount_due.',
    pathParams: IdParamsSchema,
    responses: { 200: resultEnvelope({ bill: BillSchema }), ...resultErrors(404) },
    metadata: financeRoute,
  },
  updateBill: {
    method: 'PUT',
    path: '/finance/bills/:id',
    summary: 'Update a draft bill',
    description: 'Partial; items replace the old ones. Only drafts change (409 INVALID_STATE otherwise).',
    pathParams: IdParamsSchema,
    body: UpdateBillBodySchema,
    responses: { 200: billAnswer, ...resultErrors(404, 409) },
    metadata: financeRoute,
  },
  deleteBill: {
    method: 'DELETE',
    path: '/finance/bills/:id',
    summary: 'Delete a draft bill',
    description: 'Only drafts (409 INVALID_STATE otherwise); a posted bill is voided instead.',
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: resultEnvelope({ message: z.string() }), ...resultErrors(404, 409) },
    metadata: financeRoute,
  },
  approveBill: {
    method: 'POST',
    path: '/finance/bills/:id/approve',
    summary: 'Approve a draft bill',
    description: 'draft -> pending, posted on its issue date; any other state is 409 INVALID_STATE.',
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: billAnswer, ...resultErrors(404, 409) },
    metadata: financeRoute,
  },
  voidBill: {
    method: 'POST',
    path: '/finance/bills/:id/void',
    summary: 'Void a pending bill',
    description:
      'A pending bill without payments becomes void and its posting is reversed, dated today; a bill with ' +
      'payments, a draft, a paid or a void bill is 409 INVALID_STATE.',
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: billAnswer, ...resultErrors(404, 409) },
    metadata: financeRoute,
  },
  payBill: {
    method: 'POST',
    path: '/finance/bills/:id/pay',
    summary: 'Record a payment',
    description:
      'Partial payments add up; the bill becomes `paid` when they cover its amount. More than amount_due is 422; ' +
      'a draft, paid or void bill is 409 INVALID_STATE. Posted on payment_date: Dr 2000 Accounts payable / Cr ' +
      '1000 Cash (cash), 1010 Bank (bank_transfer, check) or 1020 Mobile money (mobile_money).',
    headers: IdempotencyHeadersSchema,
    pathParams: IdParamsSchema,
    body: PayBillBodySchema,
    responses: {
      200: resultEnvelope({
        message: z.string(),
        bill_status: z.enum(BILL_STATUSES),
        payment_id: z.string(),
        amount_due: minorAmount('What is still due after this payment', 0),
      }),
      ...resultErrors(404, 409),
    },
    metadata: financeRoute,
  },
});
