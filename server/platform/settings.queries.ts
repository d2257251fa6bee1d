import { sql, type Insertable, type Updateable } from 'kysely';
import type { Executor, Trx } from './db/database.js';
import type { BusinessesTable } from './db/types.js';

/** The settings every domain reads of a business: its base currency, time zone and environment. */
export async function findSettings(db: Executor, businessId: string) {
  return db
    .selectFrom('businesses')
    .select(['base_currency', 'timezone', 'environment', 'financial_year_start_month'])
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
  'payment_instructions',
  'invoice_reminders_enabled',
  'invoice_reminder_days',
  'financial_year_start_month',
  'require_two_factor',
  'email',
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

const raisedGeneration = sql<number>`access_generation + 1`;

/**
 * Sets whether every member needs a second factor, on the live business and its sandbox twin, and
 * raises their access generation in the same statement.
 */
export async function setRequireTwoFactor(db: Executor, liveBusinessId: string, required: boolean) {
  await db
    .updateTable('businesses')
    .set({ require_two_factor: required, access_generation: raisedGeneration })
    .where((eb) => eb.or([eb('id', '=', liveBusinessId), eb('live_business_id', '=', liveBusinessId)]))
    .execute();
}

/** Raises the access generation of these businesses and of their sandbox twins. */
export async function raiseAccessGeneration(db: Executor, businessIds: readonly string[]): Promise<void> {
  if (businessIds.length === 0) return;
  await db
    .updateTable('businesses')
    .set({ access_generation: raisedGeneration })
    .where((eb) => eb.or([eb('id', 'in', businessIds), eb('live_business_id', 'in', businessIds)]))
    .execute();
}

/** The business's access generation (by primary key: the read every authenticated request makes). */
export async function findAccessGeneration(db: Executor, businessId: string) {
  const row = await db
    .selectFrom('businesses')
    .select('access_generation')
    .where('id', '=', businessId)
    .executeTakeFirst();
  return row === undefined ? undefined : String(row.access_generation);
}

export type BusinessRow = NonNullable<Awaited<ReturnType<typeof findBusiness>>>;

/**
 * What a credential carries of its business: the plan (to rate limiting), the environment and the
 * test clock's offset (to the request's context).
 */
export async function findAccess(db: Executor, businessId: string) {
  return db
    .selectFrom('businesses')
    .select([
      'plan',
      'environment',
      'clock_offset_ms',
      'live_business_id',
      'require_two_factor',
      'access_generation',
    ])
    .where('id', '=', businessId)
    .executeTakeFirst();
}

/** The live business's sandbox twin, when it has one. */
export async function findSandboxOf(db: Executor, liveBusinessId: string) {
  return db
    .selectFrom('businesses')
    .select('id')
    .where('live_business_id', '=', liveBusinessId)
    .executeTakeFirst();
}

/**
 * Makes the live business's sandbox twin with the live business's settings, unless it has one (a
 * concurrent first sign-in made it): the unique twin key decides.
 */
export async function insertSandboxOf(db: Executor, liveBusinessId: string, id: string, now: Date) {
  await db
    .insertInto('businesses')
    .columns([
      'id',
      'name',
      'email',
      'plan',
      'base_currency',
      'timezone',
      'country',
      'address',
      'tax_number',
      'payment_instructions',
      'invoice_reminders_enabled',
      'invoice_reminder_days',
      'financial_year_start_month',
      'require_two_factor',
      'created_at',
      'environment',
      'live_business_id',
    ])
    .expression((eb) =>
      eb
        .selectFrom('businesses')
        .select((eb) => [
          eb.val(id).as('id'),
          'name',
          'email',
          'plan',
          'base_currency',
          'timezone',
          'country',
          'address',
          'tax_number',
          'payment_instructions',
          'invoice_reminders_enabled',
          'invoice_reminder_days',
          'financial_year_start_month',
          'require_two_factor',
          eb.val(now).as('created_at'),
          eb.val('sandbox').as('environment'),
          'id as live_business_id',
        ])
        .where('id', '=', liveBusinessId)
        .where('environment', '=', 'live'),
    )
    .onConflict((oc) => oc.column('live_business_id').where('live_business_id', 'is not', null).doNothing())
    .execute();
}

/** The sandboxes whose test clock runs ahead of real time, with how far (the periodic due-rule pass). */
export async function movedClocks(db: Executor, limit: number, after?: string) {
  let query = db
    .selectFrom('businesses')
    .select(['id', 'clock_offset_ms'])
    .where('clock_offset_ms', '>', 0)
    .orderBy('id')
    .limit(limit);
  if (after) query = query.where('id', '>', after);
  return query.execute();
}

/** Locks the sandbox's row and reads its clock offset (a test-clock advance or reset). */
export async function lockClock(trx: Trx, businessId: string, forUpdate: boolean) {
  const query = trx
    .selectFrom('businesses')
    .select(['environment', 'clock_offset_ms'])
    .where('id', '=', businessId);
  return (forUpdate ? query.forUpdate() : query.forShare()).executeTakeFirst();
}

/** Sets the sandbox's clock offset (the CHECK keeps live businesses at 0). */
export async function setClockOffset(db: Executor, businessId: string, offsetMs: number): Promise<void> {
  await db
    .updateTable('businesses')
    .set({ clock_offset_ms: offsetMs })
    .where('id', '=', businessId)
    .execute();
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
