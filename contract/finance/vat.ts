import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { resultEnvelope } from '../common/envelopes.js';
import { resultErrors } from '../common/errors.js';
import {
  CurrencySchema,
  DateSchema,
  EmailSchema,
  IdempotencyHeadersSchema,
  TimestampSchema,
} from '../common/schemas.js';
import { minorAmount, minorAmountInput } from '../common/money.js';
import { financeRoute } from './shared.js';

const c = initContract();

export const PERIOD_TYPES = ['annual', 'quarterly', 'rolling_12_months'] as const;
export type PeriodType = (typeof PERIOD_TYPES)[number];

export const VatThresholdSchema = extendApi(
  z.object({
    publicId: z.string(),
    country: z.string(),
    thresholdAmount: minorAmount('The registration threshold in `currency`', 9000000),
    currency: z.string(),
    periodType: z.enum(PERIOD_TYPES),
    alertAtPercentage: z.number().int(),
    alertEmail: z.string(),
    registered: z.boolean(),
    registrationDate: DateSchema.nullable(),
    registrationNumber: z.string().nullable(),
    currentRevenue: minorAmount(
      'Net invoiced revenue in `currency` over the window ending today. Every sale counts, whatever its ' +
        "currency, at its amount in the business's base currency (the rate it posted at); a configuration in " +
        'another currency than the base has that converted at the latest rate on or before today (without one, ' +
        'only the sales in `currency` count)',
      6120000,
    ),
    percentageReached: z.number().describe('currentRevenue / thresholdAmount x 100, two decimals.'),
    projectedCrossingDate: DateSchema.nullable().describe(
      'When the window would reach the threshold at the average daily revenue of the last 90 days; null ' +
        'when reached, registered, without revenue, or not within the window.',
    ),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  }),
  {
    title: 'VatThreshold',
    example: {
      publicId: 'vat_01JD7X2R5VQ8N3K4M6P9T1W2Y3',
      country: 'GB',
      thresholdAmount: 9000000,
      currency: 'GBP',
      periodType: 'rolling_12_months',
      alertAtPercentage: 80,
      alertEmail: 'accounts@example.com',
      registered: false,
      registrationDate: null,
      registrationNumber: null,
      currentRevenue: 6120000,
      percentageReached: 68,
      projectedCrossingDate: '2027-03-14',
      createdAt: '2026-11-21T09:30:00.000Z',
      updatedAt: '2026-11-21T09:30:00.000Z',
    },
  },
);
export type VatThreshold = z.infer<typeof VatThresholdSchema>;

const fields = {
  country: z
    .string()
    .length(2)
    .regex(/^[A-Z]{2}$/, 'Expected a two-letter ISO 3166 country code'),
  thresholdAmount: minorAmountInput({
    description: 'The registration threshold in `currency` (90,000.00 GBP is 9000000)',
    min: 1,
    example: 9000000,
  }),
  currency: CurrencySchema,
  periodType: z.enum(PERIOD_TYPES),
  alertAtPercentage: z.number().int().min(1).max(100),
  alertEmail: EmailSchema,
};

export const CreateVatThresholdBodySchema = extendApi(
  z
    .object({
      ...fields,
      currency: fields.currency.optional().describe("Default: the business's base currency."),
    })
    .strict(),
  {
    title: 'CreateVatThresholdBody',
    example: {
      country: 'GB',
      thresholdAmount: 9000000,
      currency: 'GBP',
      periodType: 'rolling_12_months',
      alertAtPercentage: 80,
      alertEmail: 'accounts@example.com',
    },
  },
);
export type CreateVatThresholdBody = z.infer<typeof CreateVatThresholdBodySchema>;

export const UpdateVatThresholdBodySchema = extendApi(z.object(fields).partial().strict(), {
  title: 'UpdateVatThresholdBody',
  example: { alertAtPercentage: 90 },
});
export type UpdateVatThresholdBody = z.infer<typeof UpdateVatThresholdBodySchema>;

export const MarkRegisteredBodySchema = extendApi(
  z
    .object({
      registrationDate: DateSchema,
      registrationNumber: z.string().trim().min(1).max(50),
    })
    .strict(),
  {
    title: 'MarkRegisteredBody',
    example: { registrationDate: '2026-12-01', registrationNumber: 'GB123456789' },
  },
);
export type MarkRegisteredBody = z.infer<typeof MarkRegisteredBodySchema>;

const PublicIdParamsSchema = z.object({ publicId: z.string().max(64) });

export const vatContract = c.router({
  getVatThreshold: {
    method: 'GET',
    path: '/get/vatThreshold',
    summary: 'The VAT threshold configuration',
    description: '`data: null` when the business has none.',
    responses: { 200: resultEnvelope({ data: VatThresholdSchema.nullable() }), ...resultErrors() },
    metadata: financeRoute,
  },
  createVatThreshold: {
    method: 'POST',
    path: '/create/vatThreshold',
    summary: 'Configure the VAT threshold',
    description:
      'One configuration per business (a second: 409 CONFLICT). An alert email goes to alertEmail once per ' +
      'crossing of alertAtPercentage per window, and once more at 100%; none once registered.',
    headers: IdempotencyHeadersSchema,
    body: CreateVatThresholdBodySchema,
    responses: { 201: resultEnvelope({ data: VatThresholdSchema }), ...resultErrors(409) },
    metadata: financeRoute,
  },
  updateVatThreshold: {
    method: 'PUT',
    path: '/update/vatThreshold/:publicId',
    summary: 'Update the VAT threshold configuration',
    description: 'Partial; changing thresholdAmount or alertAtPercentage re-arms the alerts.',
    pathParams: PublicIdParamsSchema,
    body: UpdateVatThresholdBodySchema,
    responses: { 200: resultEnvelope({ data: VatThresholdSchema }), ...resultErrors(404) },
    metadata: financeRoute,
  },
  markVatRegistered: {
    method: 'POST',
    path: '/update/vatThreshold/:publicId/markRegistered',
    summary: 'Mark the business VAT-registered',
    description: 'Both fields required (422 otherwise); no alerts are sent afterwards.',
    pathParams: PublicIdParamsSchema,
    body: MarkRegisteredBodySchema,
    responses: { 200: resultEnvelope({ data: VatThresholdSchema }), ...resultErrors(404) },
    metadata: financeRoute,
  },
});
