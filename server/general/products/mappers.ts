import type { Product } from '../../../contract/general/products.js';
import { toMajor } from '../../platform/money.js';
import type { ProductRow } from '../../platform/db/types.js';

export const toProduct = (row: ProductRow): Product => ({
  id: row.id,
  name: row.name,
  sku: row.sku,
  price: toMajor(Number(row.price_minor), row.currency),
  currency: row.currency,
  stock: row.stock,
  description: row.description,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});
