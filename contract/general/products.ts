import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { dataEnvelope, pageEnvelope } from '../common/envelopes.js';
import { generalErrors } from '../common/errors.js';
import { meta } from '../common/metadata.js';
import { majorAmount, majorAmountInput } from '../common/money.js';
import { PageQuerySchema, sortQuery } from '../common/pagination.js';
import {
  CurrencySchema,
  IdParamsSchema,
  IdempotencyHeadersSchema,
  TimestampSchema,
  idOf,
} from '../common/schemas.js';

const c = initContract();

export const ProductSchema = extendApi(
  z.object({
    id: idOf('prod'),
    name: z.string(),
    sku: z.string(),
    price: majorAmount('Unit price in `currency`', 24.5),
    currency: z.string(),
    stock: z.number().int(),
    description: z.string().nullable(),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  }),
  {
    title: 'Product',
    example: {
      id: 'prod_01JD7X2R5VQ8N3K4M6P9T1W2Y3',
      name: 'Espresso beans 1kg',
      sku: 'BEAN-1KG',
      price: 24.5,
      currency: 'USD',
      stock: 120,
      description: 'Single-origin, medium roast',
      created_at: '2026-11-21T09:30:00.000Z',
      updated_at: '2026-11-21T09:30:00.000Z',
    },
  },
);
export type Product = z.infer<typeof ProductSchema>;

const SkuSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9._\-/]+$/, 'Letters, digits and . _ - / only');

export const CreateProductBodySchema = extendApi(
  z
    .object({
      name: z.string().trim().min(1).max(200),
      sku: SkuSchema.describe('Stock keeping unit, unique per business.'),
      price: majorAmountInput({
        description:
          'Unit price in `currency`, at most 999,999,999,999,999 minor units (9,999,999,999,999.99 USD); ' +
          'otherwise 422 naming `price`',
        example: 24.5,
      }),
      currency: CurrencySchema.optional().describe("Defaults to the business's base currency."),
      stock: z.number().int().min(0).max(1_000_000_000).optional().describe('Units in stock; default 0.'),
      description: z.string().max(2000).nullable().optional(),
    })
    .strict(),
  {
    title: 'CreateProductBody',
    example: { name: 'Espresso beans 1kg', sku: 'BEAN-1KG', price: 24.5, stock: 120 },
  },
);
export type CreateProductBody = z.infer<typeof CreateProductBodySchema>;

export const UpdateProductBodySchema = extendApi(CreateProductBodySchema.partial().strict(), {
  title: 'UpdateProductBody',
  example: { price: 26, stock: 80 },
});
export type UpdateProductBody = z.infer<typeof UpdateProductBodySchema>;

export const PRODUCT_SORT_FIELDS = ['created_at', 'name', 'sku', 'price'] as const;

export const ListProductsQuerySchema = PageQuerySchema.extend({
  sku: z.string().max(64).optional().describe('Exact SKU.'),
  search: z.string().max(100).optional().describe('Case-insensitive substring of name or SKU.'),
  sort: sortQuery(PRODUCT_SORT_FIELDS),
});
export type ListProductsQuery = z.infer<typeof ListProductsQuerySchema>;

export const productsContract = c.router({
  listProducts: {
    method: 'GET',
    path: '/products',
    summary: 'List products',
    description: 'Newest first unless `sort` says otherwise; ties are broken by id so pages are stable.',
    query: ListProductsQuerySchema,
    responses: { 200: pageEnvelope(ProductSchema), ...generalErrors() },
    metadata: meta('token', 'Products'),
  },
  createProduct: {
    method: 'POST',
    path: '/products',
    summary: 'Create a product',
    description: 'A SKU already used by another product of the business is 409 CONFLICT.',
    headers: IdempotencyHeadersSchema,
    body: CreateProductBodySchema,
    responses: { 201: dataEnvelope(ProductSchema), ...generalErrors(409) },
    metadata: meta('token', 'Products'),
  },
  getProduct: {
    method: 'GET',
    path: '/products/:id',
    summary: 'Get a product',
    description: "The product with this id; another business's id answers 404.",
    pathParams: IdParamsSchema,
    responses: { 200: dataEnvelope(ProductSchema), ...generalErrors(404) },
    metadata: meta('token', 'Products'),
  },
  updateProduct: {
    method: 'PUT',
    path: '/products/:id',
    summary: 'Update a product',
    description:
      'Partial update. Changing `currency` re-expresses the same major-unit price in it. An empty body changes ' +
      'nothing (no event) and returns the product as it is.',
    pathParams: IdParamsSchema,
    body: UpdateProductBodySchema,
    responses: { 200: dataEnvelope(ProductSchema), ...generalErrors(404, 409) },
    metadata: meta('token', 'Products'),
  },
  deleteProduct: {
    method: 'DELETE',
    path: '/products/:id',
    summary: 'Delete a product',
    description: 'Invoice lines that named the product keep their own description and price.',
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: dataEnvelope(ProductSchema), ...generalErrors(404) },
    metadata: meta('token', 'Products'),
  },
});
