import type { Executor } from '../../platform/db/database.js';

import type { Insertable, Updateable } from 'kysely';
import type { LoyaltyProgramsTable } from '../../platform/db/types.js';

/** The active program, else the most recently deactivated one. */
export async function currentOrLastProgram(db: Executor, businessId: string) {
  return db
    .selectFrom('loyalty_programs')
    .selectAll()
    .where('business_id', '=', businessId)
    .orderBy('is_active', 'desc')
    .orderBy('deactivated_at', (ob) => ob.desc().nullsLast())
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The active program, else the latest created, its row locked. */
export async function lockProgramToUpdate(db: Executor, businessId: string) {
  return db
    .selectFrom('loyalty_programs')
    .select(['id', 'is_active'])
    .where('business_id', '=', businessId)
    .orderBy('is_active', 'desc')
    .orderBy('created_at', 'desc')
    .limit(1)
    .forUpdate()
    .executeTakeFirst();
}

export async function insertProgram(db: Executor, values: Insertable<LoyaltyProgramsTable>) {
  return db.insertInto('loyalty_programs').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateProgram(
  db: Executor,
  businessId: string,
  id: string,
  changes: Updateable<LoyaltyProgramsTable>,
): Promise<void> {
  await db
    .updateTable('loyalty_programs')
    .set(changes)
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .execute();
}

/** The business's active program, if any. */
export const activeProgram = (db: Executor, businessId: string) =>
  db
    .selectFrom('loyalty_programs')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('is_active', '=', true)
    .executeTakeFirst();
