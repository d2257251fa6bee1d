import type { Executor } from './db/database.js';

/** The settings every domain reads of a business: its base currency and its time zone. */
export async function findSettings(db: Executor, businessId: string) {
  return db
    .selectFrom('businesses')
    .select(['base_currency', 'timezone'])
    .where('id', '=', businessId)
    .executeTakeFirst();
}

/** Every time zone some business is in, for the sweeps that work across businesses. */
export async function timeZonesInUse(db: Executor): Promise<string[]> {
  const rows = await db.selectFrom('businesses').select('timezone').distinct().execute();
  return rows.map((r) => r.timezone);
}
