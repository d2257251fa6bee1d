import type { Insertable, Updateable } from 'kysely';
import type { Executor } from '../platform/db/database.js';
import type { FinanceVatThresholdsTable } from '../platform/db/types.js';

export async function findThreshold(db: Executor, businessId: string, forUpdate = false) {
  const q = db.selectFrom('finance_vat_thresholds').selectAll().where('business_id', '=', businessId);
  return (forUpdate ? q.forUpdate() : q).executeTakeFirst();
}

export type ThresholdRow = NonNullable<Awaited<ReturnType<typeof findThreshold>>>;

export async function insertThreshold(db: Executor, values: Insertable<FinanceVatThresholdsTable>) {
  return db.insertInto('finance_vat_thresholds').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateThreshold(
  db: Executor,
  businessId: string,
  changes: Updateable<FinanceVatThresholdsTable>,
) {
  return db
    .updateTable('finance_vat_thresholds')
    .set(changes)
    .where('business_id', '=', businessId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Businesses with a configuration not yet registered, after `after`, in id order. */
export async function unregisteredBusinesses(db: Executor, limit: number, after?: string): Promise<string[]> {
  let q = db
    .selectFrom('finance_vat_thresholds')
    .select('business_id')
    .where('registered', '=', false)
    .orderBy('business_id')
    .limit(limit);
  if (after !== undefined) q = q.where('business_id', '>', after);
  return (await q.execute()).map((r) => r.business_id);
}
