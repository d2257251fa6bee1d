import type { Executor } from '../../platform/db/database.js';

import type { Insertable, Updateable } from 'kysely';
import type { LoyaltyTiersTable } from '../../platform/db/types.js';

export async function insertTier(db: Executor, values: Insertable<LoyaltyTiersTable>) {
  return db.insertInto('loyalty_tiers').values(values).returningAll().executeTakeFirstOrThrow();
}

/** Changes a tier; false when there is none. */
export async function updateTier(
  db: Executor,
  businessId: string,
  id: string,
  changes: Updateable<LoyaltyTiersTable>,
): Promise<boolean> {
  const res = await db
    .updateTable('loyalty_tiers')
    .set(changes)
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

export async function tierExists(db: Executor, businessId: string, id: string): Promise<boolean> {
  const row = await db
    .selectFrom('loyalty_tiers')
    .select('id')
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Boolean(row);
}

/** A tier, its row locked. */
export async function lockTier(db: Executor, businessId: string, id: string) {
  return db
    .selectFrom('loyalty_tiers')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

export async function deleteTier(db: Executor, businessId: string, id: string): Promise<void> {
  await db.deleteFrom('loyalty_tiers').where('business_id', '=', businessId).where('id', '=', id).execute();
}

export async function deleteTiersOfProgram(
  db: Executor,
  businessId: string,
  programId: string,
): Promise<void> {
  await db
    .deleteFrom('loyalty_tiers')
    .where('business_id', '=', businessId)
    .where('program_id', '=', programId)
    .execute();
}

/** Tiers of a program, lowest first. */
export const tiersOf = (db: Executor, businessId: string, programId: string) =>
  db
    .selectFrom('loyalty_tiers')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('program_id', '=', programId)
    .orderBy('min_points')
    .orderBy('id')
    .execute();
