import type { Insertable } from 'kysely';
import type { Executor } from '../platform/db/database.js';
import type { FinanceAccountsTable } from '../platform/db/types.js';

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

/** The currency the business reports in when a request names none. */
export async function baseCurrency(db: Executor, businessId: string): Promise<string> {
  const row = await db
    .selectFrom('businesses')
    .select('base_currency')
    .where('id', '=', businessId)
    .executeTakeFirst();
  return row?.base_currency ?? 'USD';
}
