import { sql, type Insertable } from 'kysely';
import type { CashFlowGroup } from '../../../contract/finance/index.js';
import type { Executor } from '../../platform/db/database.js';
import type { FinanceAccountsTable } from '../../platform/db/types.js';

export async function listAccounts(db: Executor, businessId: string) {
  return db
    .selectFrom('finance_accounts')
    .select(['code', 'name', 'type', 'cash_flow_group', 'system'])
    .where('business_id', '=', businessId)
    .orderBy('code')
    .execute();
}

/**
 * Adds an account; without a cash-flow group it gets the database's default for its code and type
 * (`finance_cash_flow_group_of`, docs/decisions.md D276), so the rule is written once.
 */
export async function insertAccount(
  db: Executor,
  values: Omit<Insertable<FinanceAccountsTable>, 'cash_flow_group'> & { cash_flow_group?: CashFlowGroup },
) {
  return db
    .insertInto('finance_accounts')
    .values({
      ...values,
      cash_flow_group:
        values.cash_flow_group ??
        sql<CashFlowGroup>`finance_cash_flow_group_of(${values.code}, ${values.type})`,
    })
    .returning(['code', 'name', 'type', 'cash_flow_group', 'system'])
    .executeTakeFirstOrThrow();
}

/** Gives the business the default chart of accounts (what every new business starts with) again. */
export async function addDefaultAccounts(db: Executor, businessId: string): Promise<void> {
  await sql`SELECT finance_add_default_accounts(${businessId})`.execute(db);
}
