import type { Insertable, Selectable, Updateable } from 'kysely';
import type { ListBankAccountsQuery } from '../../../contract/finance/index.js';
import type { Executor, Trx } from '../../platform/db/database.js';
import type { FinanceAccountsTable, FinanceBankAccountsTable } from '../../platform/db/types.js';

export type BankAccountRow = Selectable<FinanceBankAccountsTable>;

const bankAccounts = (db: Executor, businessId: string) =>
  db.selectFrom('finance_bank_accounts').selectAll().where('business_id', '=', businessId);

export async function listBankAccounts(db: Executor, businessId: string, query: ListBankAccountsQuery) {
  const [rows, count] = await Promise.all([
    bankAccounts(db, businessId).orderBy('account_code').limit(query.limit).offset(query.offset).execute(),
    db
      .selectFrom('finance_bank_accounts')
      .select((eb) => eb.fn.countAll<string>().as('total'))
      .where('business_id', '=', businessId)
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

export const findBankAccount = (db: Executor, businessId: string, id: string) =>
  bankAccounts(db, businessId).where('id', '=', id).executeTakeFirst();

export async function insertBankAccount(trx: Trx, values: Insertable<FinanceBankAccountsTable>) {
  return trx.insertInto('finance_bank_accounts').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateBankAccount(
  trx: Trx,
  businessId: string,
  id: string,
  changes: Updateable<FinanceBankAccountsTable>,
) {
  return trx
    .updateTable('finance_bank_accounts')
    .set(changes)
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** The chart codes from 1100 to 1199 the business uses (the caller holds the business's lock). */
export async function bankCodesInUse(trx: Trx, businessId: string): Promise<string[]> {
  const rows = await trx
    .selectFrom('finance_accounts')
    .select('code')
    .where('business_id', '=', businessId)
    .where('code', '>=', '1100')
    .where('code', '<=', '1199')
    .execute();
  return rows.map((r) => r.code);
}

export async function renameChartAccount(trx: Trx, businessId: string, code: string, name: string) {
  await trx
    .updateTable('finance_accounts')
    .set({ name })
    .where('business_id', '=', businessId)
    .where('code', '=', code)
    .execute();
}

/** A chart account, unless the business has one of that code already (which it keeps as it is). */
export async function addAccountIfMissing(trx: Trx, values: Insertable<FinanceAccountsTable>) {
  await trx
    .insertInto('finance_accounts')
    .values(values)
    .onConflict((oc) => oc.columns(['business_id', 'code']).doNothing())
    .execute();
}
