import type { ListProductsQuery } from '../../../contract/general/products.js';
import { likePattern, offsetOf, parseSort } from '../../platform/pagination.js';
import type { Executor } from '../../platform/db/database.js';

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

const SORT_COLUMNS = { created_at: 'created_at', name: 'name', sku: 'sku', price: 'price_minor' } as const;

export async function listProducts(db: Executor, businessId: string, query: ListProductsQuery) {
  let base = db.selectFrom('products').where('business_id', '=', businessId);
  if (query.sku) base = base.where((eb) => eb(eb.fn('lower', ['sku']), '=', query.sku!.toLowerCase()));
  if (query.search) {
    const pattern = likePattern(query.search);
    base = base.where((eb) => eb.or([eb('name', 'ilike', pattern), eb('sku', 'ilike', pattern)]));
  }
  const sort = parseSort(query.sort, { field: 'created_at', direction: 'desc' });
  const [rows, count] = await Promise.all([
    base
      .selectAll()
      .orderBy(SORT_COLUMNS[sort.field], sort.direction)
      .orderBy('id', sort.direction)
      .limit(query.limit)
      .offset(offsetOf(query))
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}
