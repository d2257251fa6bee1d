import { CreateProductBodySchema, UpdateProductBodySchema } from '../../../contract/general/products.js';
import type { ImportTarget } from '../../platform/import-target.js';
import type { Pagination } from '../../../contract/common/pagination.js';
import type {
  CreateProductBody,
  ListProductsQuery,
  Product,
  UpdateProductBody,
} from '../../../contract/general/products.js';
import { newId } from '../../platform/ids.js';
import { toMajor, toMinor } from '../../platform/money.js';
import { paginationOf } from '../../platform/pagination.js';
import { type Ctx, inTransaction } from '../../platform/context.js';

import { refuseDuplicates } from '../../platform/db/errors.js';
import { conflict, notFound } from '../../platform/errors.js';
import { emit } from '../../platform/outbox.js';
import { baseCurrency } from '../../platform/settings.js';
import { toProduct } from './mappers.js';
import * as queries from './queries.js';

const skuTaken = () => conflict('A product with this SKU already exists');

const uniqueSku = <T>(work: () => Promise<T>): Promise<T> =>
  refuseDuplicates(work, { products_sku_key: skuTaken });

export async function createProduct(ctx: Ctx, input: CreateProductBody): Promise<Product> {
  const currency = input.currency ?? (await baseCurrency(ctx));
  const priceMinor = toMinor(input.price, currency, 'price');
  const now = ctx.clock.now();
  return uniqueSku(() =>
    inTransaction(ctx, async (ctx) => {
      const row = await queries.insertProduct(ctx.db, {
        business_id: ctx.businessId,
        id: newId('prod'),
        name: input.name,
        sku: input.sku,
        price_minor: priceMinor,
        currency,
        stock: input.stock ?? 0,
        description: input.description ?? null,
        created_at: now,
        updated_at: now,
      });
      const product = toProduct(row);
      await emit(ctx, 'product.created', product);
      return product;
    }),
  );
}

export async function listProducts(
  ctx: Ctx,
  query: ListProductsQuery,
): Promise<{ data: Product[]; pagination: Pagination }> {
  const { rows, total } = await queries.listProducts(ctx.db, ctx.businessId, query);
  return { data: rows.map(toProduct), pagination: paginationOf(query, total) };
}

export async function getProduct(ctx: Ctx, id: string): Promise<Product> {
  const row = await queries.findProduct(ctx.db, ctx.businessId, id);
  if (!row) throw notFound('Product');
  return toProduct(row);
}

/** Partial update; an empty one changes nothing and returns the product as it is. */
export async function updateProduct(ctx: Ctx, id: string, input: UpdateProductBody): Promise<Product> {
  return uniqueSku(() =>
    inTransaction(ctx, async (ctx) => {
      const current = await queries.findProduct(ctx.db, ctx.businessId, id, true);
      if (!current) throw notFound('Product');
      if (Object.values(input).every((value) => value === undefined)) return toProduct(current);
      const currency = input.currency ?? current.currency;
      // The price is kept in major units across a currency change, so it must fit the new currency.
      const price = input.price ?? toMajor(Number(current.price_minor), current.currency);
      const row = await queries.updateProduct(ctx.db, ctx.businessId, id, {
        ...(input.name !== undefined && { name: input.name }),
        ...(input.sku !== undefined && { sku: input.sku }),
        ...(input.stock !== undefined && { stock: input.stock }),
        ...(input.description !== undefined && { description: input.description }),
        currency,
        price_minor: toMinor(price, currency, 'price'),
        updated_at: ctx.clock.now(),
      });
      const product = toProduct(row);
      await emit(ctx, 'product.updated', product);
      return product;
    }),
  );
}

export async function deleteProduct(ctx: Ctx, id: string): Promise<Product> {
  return inTransaction(ctx, async (ctx) => {
    const row = await queries.findProduct(ctx.db, ctx.businessId, id, true);
    if (!row) throw notFound('Product');
    await queries.deleteProduct(ctx.db, ctx.businessId, id);
    const product = toProduct(row);
    await emit(ctx, 'product.deleted', product);
    return product;
  });
}

/** Products, matched by SKU, created by `createProduct` or updated by `updateProduct` (docs/decisions.md D165). */
export const productImport: ImportTarget = {
  kind: 'products',
  create: CreateProductBodySchema,
  update: UpdateProductBodySchema,
  key: 'sku',
  existing: async (ctx, keys) => {
    const rows = await queries.productIdsBySku(ctx.db, ctx.businessId, keys);
    return new Map(rows.reverse().map((row) => [row.key, row.id]));
  },
  createOne: (ctx, body) => createProduct(ctx, body as CreateProductBody),
  updateOne: (ctx, id, body) => updateProduct(ctx, id, body),
};
