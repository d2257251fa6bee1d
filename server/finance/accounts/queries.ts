import { sql, type Insertable } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import type { FinanceAccountsTable } from '../../platform/db/types.js';

export async function listAccounts(db: Executor, businessId: string) {
  return db
    .selectFrom('finance_accounts')
    .select(['code', 'name', 'type', 'system'])
    .where('business_id', '=', businessId)
    .orderBy('code')
    .execute();
}

export async function insertAccount(db: Executor, values: Insertable<FinanceAccountsTable>) {
  return db
    .insertInto('finance_accounts')
    .values(values)
    .returning(['code', 'name', 'type', 'system'])
    .executeTakeFirstOrThrow();
}

/** Gives the business the default chart of accounts (what every new business starts with) again. */
export async function addDefaultAccounts(db: Executor, businessId: string): Promise<void> {
  await sql`SELECT finance_add_default_accounts(${businessId})`.execute(db);
}
