import type { Insertable, Updateable } from 'kysely';
import type { Executor, Trx } from './db/database.js';
import type { BusinessesTable } from './db/types.js';

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

/** What `GET /v1/business` shows of a business. */
const BUSINESS_COLUMNS = [
  'id',
  'name',
  'base_currency',
  'timezone',
  'country',
  'address',
  'tax_number',
  'plan',
  'created_at',
] as const;

export async function insertBusiness(db: Executor, values: Insertable<BusinessesTable>): Promise<void> {
  await db.insertInto('businesses').values(values).execute();
}

export async function findBusiness(db: Executor, businessId: string) {
  return db.selectFrom('businesses').select(BUSINESS_COLUMNS).where('id', '=', businessId).executeTakeFirst();
}

/** Writes the settings given; the business as it is afterwards (undefined when it is gone). */
export async function updateBusiness(db: Executor, businessId: string, changes: Updateable<BusinessesTable>) {
  return db
    .updateTable('businesses')
    .set(changes)
    .where('id', '=', businessId)
    .returning(BUSINESS_COLUMNS)
    .executeTakeFirst();
}

export type BusinessRow = NonNullable<Awaited<ReturnType<typeof findBusiness>>>;

/** The business's plan (credentials carry it to rate limiting). */
export async function findPlan(db: Executor, businessId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('businesses')
    .select('plan')
    .where('id', '=', businessId)
    .executeTakeFirst();
  return row?.plan;
}

/** The business's own address, for notices about its account. */
export async function findEmail(db: Executor, businessId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('businesses')
    .select('email')
    .where('id', '=', businessId)
    .executeTakeFirst();
  return row?.email;
}

/** Locks the business's row until the transaction ends. */
export async function lockBusiness(trx: Trx, businessId: string): Promise<void> {
  await trx.selectFrom('businesses').select('id').where('id', '=', businessId).forUpdate().execute();
}
