import type { Insertable } from 'kysely';
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
