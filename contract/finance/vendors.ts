import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { resultEnvelope } from '../common/envelopes.js';
import { resultErrors } from '../common/errors.js';
import {
  AddressSchema,
  CurrencySchema,
  EmailSchema,
  IdempotencyHeadersSchema,
  IdParamsSchema,
  idOf,
  TimestampSchema,
} from '../common/schemas.js';
import { FinancePageQuerySchema, financeRoute } from './shared.js';

const c = initContract();

export const VendorSchema = extendApi(
  z.object({
    id: idOf('ven'),
    name: z.string(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    currency: z.string().nullable().describe('The currency the vendor usually bills in, if recorded.'),
    tax_id: z.string().nullable(),
    address: AddressSchema.nullable(),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  }),
  {
    title: 'Vendor',
    example: {
      id: 'ven_01JD7X2R5VQ8N3K4M6P9T1W2Y3',
      name: 'Acme Supplies',
      email: 'billing@acme.example',
      phone: null,
      currency: 'USD',
      tax_id: 'US-12-3456789',
      address: { line1: '1 Main St', city: 'Springfield', country: 'US' },
      created_at: '2026-11-21T09:30:00.000Z',
      updated_at: '2026-11-21T09:30:00.000Z',
    },
  },
);
export type Vendor = z.infer<typeof VendorSchema>;

export const CreateVendorBodySchema = extendApi(
  z
    .object({
      name: z.string().trim().min(1).max(200),
      email: EmailSchema.nullable().optional(),
      phone: z.string().trim().max(40).nullable().optional(),
      currency: CurrencySchema.nullable().optional(),
      tax_id: z.string().trim().max(50).nullable().optional(),
      address: AddressSchema.nullable().optional(),
    })
    .strict(),
  {
    title: 'CreateVendorBody',
    example: { name: 'Acme Supplies', email: 'billing@acme.example', currency: 'USD' },
  },
);
export type CreateVendorBody = z.infer<typeof CreateVendorBodySchema>;

export const UpdateVendorBodySchema = extendApi(CreateVendorBodySchema.partial().strict(), {
  title: 'UpdateVendorBody',
  example: { phone: '+1 555 0100' },
});
export type UpdateVendorBody = z.infer<typeof UpdateVendorBodySchema>;

export const ListVendorsQuerySchema = FinancePageQuerySchema;
export type ListVendorsQuery = z.infer<typeof ListVendorsQuerySchema>;

export const vendorsContract = c.router({
  listVendors: {
    method: 'GET',
    path: '/finance/vendors',
    summary: 'List vendors',
    description: 'Newest first (ties by id); `limit` (default 50, max 200), `offset`, `total_count`.',
    query: ListVendorsQuerySchema,
    responses: {
      200: resultEnvelope({ vendors: z.array(VendorSchema), total_count: z.number().int() }),
      ...resultErrors(),
    },
    metadata: financeRoute,
  },
  createVendor: {
    method: 'POST',
    path: '/finance/vendors',
    summary: 'Create a vendor',
    headers: IdempotencyHeadersSchema,
    body: CreateVendorBodySchema,
    responses: {
      201: resultEnvelope({ vendor_id: z.string(), message: z.string(), vendor: VendorSchema }),
      ...resultErrors(409),
    },
    metadata: financeRoute,
  },
  getVendor: {
    method: 'GET',
    path: '/finance/vendors/:id',
    summary: 'Get a vendor',
    pathParams: IdParamsSchema,
    responses: { 200: resultEnvelope({ vendor: VendorSchema }), ...resultErrors(404) },
    metadata: financeRoute,
  },
  updateVendor: {
    method: 'PUT',
    path: '/finance/vendors/:id',
    summary: 'Update a vendor',
    description: 'Partial update; `null` clears an optional field. An empty body changes nothing.',
    pathParams: IdParamsSchema,
    body: UpdateVendorBodySchema,
    responses: {
      200: resultEnvelope({ message: z.string(), vendor: VendorSchema }),
      ...resultErrors(404),
    },
    metadata: financeRoute,
  },
});
