import type { Insertable, Updateable } from 'kysely';
import type { ListVendorsQuery } from '../../../contract/finance/index.js';
import type { Executor } from '../../platform/db/database.js';
import type { FinanceVendorsTable } from '../../platform/db/types.js';

export async function findVendor(db: Executor, businessId: string, id: string) {
  return db
    .selectFrom('finance_vendors')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export type VendorRow = NonNullable<Awaited<ReturnType<typeof findVendor>>>;

export async function listVendors(db: Executor, businessId: string, query: ListVendorsQuery) {
  const base = db.selectFrom('finance_vendors').where('business_id', '=', businessId);
  const [rows, count] = await Promise.all([
    base
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(query.limit)
      .offset(query.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

export async function insertVendor(db: Executor, values: Insertable<FinanceVendorsTable>) {
  return db.insertInto('finance_vendors').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateVendor(
  db: Executor,
  businessId: string,
  id: string,
  changes: Updateable<FinanceVendorsTable>,
) {
  return db
    .updateTable('finance_vendors')
    .set(changes)
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** The ids of the vendors with these emails (lower-cased), by lower-cased email. */
export async function vendorIdsByEmail(db: Executor, businessId: string, keys: readonly string[]) {
  return db
    .selectFrom('finance_vendors')
    .select(['id', (eb) => eb.fn<string>('lower', ['email']).as('key')])
    .where('business_id', '=', businessId)
    .where((eb) => eb(eb.fn('lower', ['email']), 'in', keys))
    .orderBy('created_at')
    .execute();
}
