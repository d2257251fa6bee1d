import type { ListProductsQuery } from '../../../contract/general/products.js';
import { likePattern, offsetOf, parseSort } from '../../platform/pagination.js';
import type { Executor } from '../../platform/db/database.js';
import { pageWithTotal } from '../../platform/db/paged.js';
import type { Insertable, Updateable } from 'kysely';
import type { ProductsTable } from '../../platform/db/types.js';

export async function findProduct(db: Executor, businessId: string, id: string, forUpdate = false) {
  let q = db.selectFrom('products').selectAll().where('business_id', '=', businessId).where('id', '=', id);
  if (forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

export async function findProducts(db: Executor, businessId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('products')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('id', 'in', ids)
    .execute();
}

export async function insertProduct(db: Executor, values: Insertable<ProductsTable>) {
  return db.insertInto('products').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateProduct(
  db: Executor,
  businessId: string,
  id: string,
  changes: Updateable<ProductsTable>,
) {
  return db
    .updateTable('products')
    .set(changes)
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteProduct(db: Executor, businessId: string, id: string): Promise<void> {
  await db.deleteFrom('products').where('business_id', '=', businessId).where('id', '=', id).execute();
}

const SORT_COLUMNS = { created_at: 'created_at', name: 'name', sku: 'sku', price: 'price_minor' } as const;

export async function listProducts(db: Executor, businessId: string, query: ListProductsQuery) {
  let base = db.selectFrom('products').where('business_id', '=', businessId);
  if (query.sku) base = base.where((eb) => eb(eb.fn('lower', ['sku']), '=', query.sku!.toLowerCase()));
  if (query.search) {
    const pattern = likePattern(query.search);
    base = base.where((eb) => eb.or([eb('name', 'ilike', pattern), eb('sku', 'ilike', pattern)]));
  }
  const sort = parseSort(query.sort, { field: 'created_at', direction: 'desc' });
  return pageWithTotal(
    base.selectAll(),
    (q) => q.orderBy(SORT_COLUMNS[sort.field], sort.direction).orderBy('id', sort.direction),
    { limit: query.limit, offset: offsetOf(query) },
  );
}

/** The ids of the products with these skus (lower-cased), by lower-cased sku. */
export async function productIdsBySku(db: Executor, businessId: string, keys: readonly string[]) {
  return db
    .selectFrom('products')
    .select(['id', (eb) => eb.fn<string>('lower', ['sku']).as('key')])
    .where('business_id', '=', businessId)
    .where((eb) => eb(eb.fn('lower', ['sku']), 'in', keys))
    .orderBy('created_at')
    .execute();
}
