import type { ListCustomersQuery } from '../../../contract/general/customers.js';
import { likePattern, offsetOf, parseSort } from '../../common/pagination.js';
import type { Executor } from '../../db/database.js';

export async function findCustomer(db: Executor, businessId: string, id: string, forUpdate = false) {
  let q = db.selectFrom('customers').selectAll().where('business_id', '=', businessId).where('id', '=', id);
  if (forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

export async function listCustomers(db: Executor, businessId: string, query: ListCustomersQuery) {
  let base = db.selectFrom('customers').where('business_id', '=', businessId);
  if (query.email) base = base.where((eb) => eb(eb.fn('lower', ['email']), '=', query.email!.toLowerCase()));
  if (query.search) {
    const pattern = likePattern(query.search);
    base = base.where((eb) =>
      eb.or([eb('name', 'ilike', pattern), eb('email', 'ilike', pattern), eb('company', 'ilike', pattern)]),
    );
  }
  const sort = parseSort(query.sort, { field: 'created_at', direction: 'desc' });
  const [rows, count] = await Promise.all([
    base
      .selectAll()
      .orderBy(sort.field, sort.direction)
      .orderBy('id', sort.direction)
      .limit(query.limit)
      .offset(offsetOf(query))
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

export async function countInvoicesOf(db: Executor, businessId: string, customerId: string): Promise<number> {
  const row = await db
    .selectFrom('invoices')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('business_id', '=', businessId)
    .where('customer_id', '=', customerId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
