import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { resultData } from '../common/envelopes.js';
import { resultErrors } from '../common/errors.js';
import { meta } from '../common/metadata.js';
import { AddressSchema, CurrencySchema, TimestampSchema, idOf } from '../common/schemas.js';

const c = initContract();

/** An IANA time zone name that the runtime's time zone data knows (case-insensitive). */
function isTimeZoneName(value: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export const TimeZoneSchema = extendApi(
  z.string().max(64).refine(isTimeZoneName, { message: 'Expected an IANA time zone, e.g. Europe/London' }),
  {
    description:
      'IANA time zone (e.g. `Europe/London`, `Pacific/Auckland`, `UTC`). It decides the business\'s "today" ' +
      'and where its days, months and years begin: default issue dates, overdue bills and invoices, quote ' +
      'expiry, VAT windows, report defaults and service reminders.',
    example: 'Europe/London',
  },
);

export const CountryCodeSchema = extendApi(
  z
    .string()
    .length(2)
    .regex(/^[A-Z]{2}$/, 'Expected a two-letter ISO 3166-1 country code in upper case'),
  { description: 'ISO 3166-1 alpha-2 country code, upper case.', example: 'GB' },
);

export const InvoiceRemindersSchema = extendApi(
  z.object({
    enabled: z.boolean().describe('Whether overdue reminders go out at all.'),
    days_after_due: z
      .array(z.number().int().min(0).max(365))
      .max(10)
      .describe(
        'Days after the due date each reminder is mailed (0: on the due date), each at most once per invoice.',
      ),
  }),
  {
    title: 'InvoiceReminders',
    description:
      "Overdue reminders: mailed by the service on the business's clock to the customer of each invoice that " +
      'was sent (`POST /v1/invoices/:id/send`) and is still unpaid, one mail per step, with the amount due and ' +
      'the link to the hosted page; payment or void stops them. New businesses start with `{"enabled": true, ' +
      '"days_after_due": [0, 7, 14]}`.',
    example: { enabled: true, days_after_due: [0, 7, 14] },
  },
);
export type InvoiceReminders = z.infer<typeof InvoiceRemindersSchema>;

export const BusinessSchema = extendApi(
  z.object({
    id: idOf('biz'),
    name: z.string(),
    base_currency: z
      .string()
      .describe(
        'ISO 4217. The currency of every document, product, salary and report that is not given one ' +
          '(invoices, quotes, products, employees, bills, journal entries, VAT threshold, reports). USD until set.',
      ),
    timezone: z.string().describe('IANA time zone deciding the business\'s "today". UTC until set.'),
    country: z.string().nullable().describe('ISO 3166-1 alpha-2 country code; null until set.'),
    address: AddressSchema.nullable(),
    tax_number: z.string().nullable().describe('VAT or tax registration number; null until set.'),
    payment_instructions: z
      .string()
      .nullable()
      .describe(
        'How to pay (bank details, ...), printed on invoices and their hosted pages; null until set.',
      ),
    invoice_reminders: InvoiceRemindersSchema,
    financial_year_start_month: z
      .number()
      .int()
      .describe(
        "The month (1-12) the financial year starts in: the balance sheet splits earnings into the year's and " +
          'retained ones at its first day. 1 (January) until set.',
      ),
    require_two_factor: z
      .boolean()
      .describe(
        'Whether every member must sign in with a second factor; a member without it can only turn it on. ' +
          'Only an owner changes it, and only with two-factor sign-in on themselves.',
      ),
    plan: z.string().describe('The rate-limit plan of the business. Read-only.'),
    created_at: TimestampSchema,
  }),
  {
    title: 'Business',
    example: {
      id: 'biz_01JD7X2R5VQ8N3K4M6P9T1W2Y3',
      name: 'Acme Ltd',
      base_currency: 'GBP',
      timezone: 'Europe/London',
      country: 'GB',
      address: { line1: '12 St James Square', city: 'London', postal_code: 'SW1Y 4LB', country: 'GB' },
      tax_number: 'GB123456789',
      payment_instructions: 'Bank transfer to Acme Ltd, sort code 12-34-56, account 12345678',
      invoice_reminders: { enabled: true, days_after_due: [0, 7, 14] },
      financial_year_start_month: 4,
      require_two_factor: false,
      plan: 'standard',
      created_at: '2026-11-21T09:30:00.000Z',
    },
  },
);
export type Business = z.infer<typeof BusinessSchema>;

export const UpdateBusinessBodySchema = extendApi(
  z
    .object({
      name: z.string().trim().min(1).max(200).optional(),
      base_currency: CurrencySchema.optional().describe(
        'ISO 4217: the currency of whatever is later created without one. Documents already made keep theirs.',
      ),
      timezone: TimeZoneSchema.optional(),
      country: CountryCodeSchema.nullable().optional(),
      address: AddressSchema.nullable().optional(),
      tax_number: z.string().trim().min(1).max(50).nullable().optional(),
      payment_instructions: z.string().trim().min(1).max(2000).nullable().optional(),
      invoice_reminders: z
        .object({
          enabled: z.boolean().optional(),
          days_after_due: z
            .array(z.number().int().min(0).max(365))
            .max(10)
            .refine((days) => new Set(days).size === days.length, { message: 'Each day at most once' })
            .optional()
            .describe('Replaces the steps; kept in ascending order.'),
        })
        .strict()
        .optional()
        .describe('Either field alone changes only itself.'),
      financial_year_start_month: z.number().int().min(1).max(12).optional().describe('1 (January) to 12.'),
      require_two_factor: z
        .boolean()
        .optional()
        .describe(
          'Owner only (403 for others), with their own two-factor sign-in on (409 otherwise); applies to the ' +
            'sandbox too.',
        ),
    })
    .strict(),
  {
    title: 'UpdateBusinessBody',
    example: { base_currency: 'NZD', timezone: 'Pacific/Auckland', country: 'NZ' },
  },
);
export type UpdateBusinessBody = z.infer<typeof UpdateBusinessBodySchema>;

/** The payment providers a business may connect (docs/decisions.md D270). */
export const PAYMENT_PROVIDERS = ['test', 'stripe'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];

export const PaymentSettingsSchema = extendApi(
  z.object({
    provider: z
      .enum(PAYMENT_PROVIDERS)
      .nullable()
      .describe(
        'The payment provider customers pay invoices through, from the Pay button of the hosted invoice page; ' +
          'null until one is connected. Every sandbox starts connected to `test`, the built-in provider whose ' +
          'checkout page has Succeed, Decline and Succeed-later buttons and takes no real money; `stripe` is ' +
          "the business's own Stripe account.",
      ),
    secret_key_hint: z
      .string()
      .nullable()
      .describe(
        "The last 4 characters of the provider's secret key; null when it takes none. Never the key.",
      ),
    webhook_secret_set: z.boolean().describe("Whether the provider's webhook signing secret is kept."),
  }),
  {
    title: 'PaymentSettings',
    example: { provider: 'test', secret_key_hint: null, webhook_secret_set: false },
  },
);
export type PaymentSettings = z.infer<typeof PaymentSettingsSchema>;

export const UpdatePaymentSettingsBodySchema = extendApi(
  z
    .object({
      provider: z
        .enum(PAYMENT_PROVIDERS)
        .describe(
          '`test`: the built-in provider, in a sandbox, or in a live business on a server started with ' +
            "`PAYMENTS_TEST_PROVIDER=true` (422 on `provider` otherwise). `stripe`: the business's Stripe " +
            'account, with its secret key and the signing secret of the webhook endpoint made for ' +
            '`/v1/payments/webhooks/stripe/<business id>` (both required).',
        ),
      secret_key: z
        .string()
        .trim()
        .max(255)
        .regex(
          /^(sk|rk)_(live|test)_[A-Za-z0-9]{8,240}$/,
          'Expected a Stripe secret key: sk_live_..., sk_test_... or rk_...',
        )
        .optional()
        .describe('Stripe only: the secret (or restricted) key. Kept sealed; never answered back.'),
      webhook_secret: z
        .string()
        .trim()
        .max(255)
        .regex(/^whsec_[A-Za-z0-9+/=]{8,240}$/, 'Expected a Stripe webhook signing secret: whsec_...')
        .optional()
        .describe("Stripe only: the webhook endpoint's signing secret. Kept sealed; never answered back."),
    })
    .strict(),
  {
    title: 'UpdatePaymentSettingsBody',
    example: { provider: 'stripe', secret_key: 'sk_test_51Hx...', webhook_secret: 'whsec_3f9...' },
  },
);
export type UpdatePaymentSettingsBody = z.infer<typeof UpdatePaymentSettingsBodySchema>;

export const PAYMENT_CHECK_RESULTS = ['passed', 'failed', 'unknown'] as const;

export const PaymentConnectionCheckSchema = extendApi(
  z.object({
    provider: z.enum(PAYMENT_PROVIDERS),
    ok: z.boolean().describe('No check failed: customers can pay, and the payments will be recorded.'),
    checks: z
      .array(
        z.object({
          name: z
            .enum(['provider', 'secret_key', 'webhook_endpoint'])
            .describe(
              '`secret_key`: the provider accepts the key; `webhook_endpoint`: the account has an enabled ' +
                "endpoint for this business's webhook address sending every event the service reads; " +
                '`provider`: the built-in test provider, which has nothing to reach.',
            ),
          result: z
            .enum(PAYMENT_CHECK_RESULTS)
            .describe('`unknown`: the provider could not say (a restricted key may not read it).'),
          message: z.string().describe('What was found, and what to change when it failed.'),
        }),
      )
      .describe('Each check, in the order made.'),
  }),
  {
    title: 'PaymentConnectionCheck',
    example: {
      provider: 'stripe',
      ok: false,
      checks: [
        {
          name: 'secret_key',
          result: 'passed',
          message: 'Stripe accepted the key of account acct_1Hx (test mode)',
        },
        {
          name: 'webhook_endpoint',
          result: 'failed',
          message:
            'The endpoint for https://bms.example.com/v1/payments/webhooks/stripe/biz_01 does not send payout.paid',
        },
      ],
    },
  },
);
export type PaymentConnectionCheck = z.infer<typeof PaymentConnectionCheckSchema>;

const businessRoute = meta('token', 'Auth');

/** The business's own settings. */
export const businessContract = c.router({
  getBusiness: {
    method: 'GET',
    path: '/business',
    summary: 'Get the business settings',
    description:
      'The settings of the business the credential belongs to: name, base currency, time zone, country, ' +
      'address, tax number, payment instructions, the overdue-reminder schedule and (read-only) plan.',
    responses: { 200: resultData(BusinessSchema), ...resultErrors() },
    metadata: businessRoute,
  },
  updateBusiness: {
    method: 'PATCH',
    path: '/business',
    summary: 'Update the business settings',
    description:
      'Partial update: only the fields sent change; `null` clears `country`, `address` or `tax_number`. An ' +
      'empty body changes nothing and answers the settings as they are. `null` clears `payment_instructions`. `plan` is read-only and, like any ' +
      'unknown field, refused with 422. A new `base_currency` applies to documents created from then on ' +
      '(existing ones keep theirs); a new `timezone` moves "today" at once for overdue states, VAT windows and ' +
      'report defaults, and dates already stored are kept.',
    body: UpdateBusinessBodySchema,
    responses: { 200: resultData(BusinessSchema), ...resultErrors(409) },
    metadata: businessRoute,
  },
  getPaymentSettings: {
    method: 'GET',
    path: '/business/payments',
    summary: 'Get the payment provider',
    description:
      'The payment provider the business connected, through which customers pay invoices online (the Pay ' +
      'button of the hosted invoice page, `POST /v1/invoices/:id/payment-link`). Secrets are never answered.',
    responses: { 200: resultData(PaymentSettingsSchema), ...resultErrors() },
    metadata: businessRoute,
  },
  updatePaymentSettings: {
    method: 'PUT',
    path: '/business/payments',
    summary: 'Connect a payment provider',
    description:
      'Connects the provider customers pay through, replacing the one before. Owners and admins only. ' +
      'Checkouts already opened finish with the provider they were opened with.',
    body: UpdatePaymentSettingsBodySchema,
    responses: { 200: resultData(PaymentSettingsSchema), ...resultErrors() },
    metadata: businessRoute,
  },
  checkPaymentSettings: {
    method: 'POST',
    path: '/business/payments/check',
    summary: 'Test the payment provider connection',
    description:
      "Asks the connected provider whether the business's keys work, changing nothing. For Stripe: the secret " +
      'key is accepted, and an enabled webhook endpoint sends every event the service reads ' +
      '(checkout.session.completed, checkout.session.async_payment_succeeded, ' +
      'checkout.session.async_payment_failed, checkout.session.expired, charge.refunded, refund.updated, ' +
      "refund.failed, payout.paid) to this business's address. Each check answers passed, failed (saying what " +
      'to change) or unknown. Owners and admins only. 409 when no provider is connected.',
    body: c.noBody(),
    responses: { 200: resultData(PaymentConnectionCheckSchema), ...resultErrors(409) },
    metadata: businessRoute,
  },
});
