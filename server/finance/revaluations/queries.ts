import { sql, type Selectable } from 'kysely';
import type { Executor, Trx } from '../../platform/db/database.js';
import { pageWithTotal } from '../../platform/db/paged.js';
import type { FinanceRevaluationsTable } from '../../platform/db/types.js';

export type RevaluationRow = Selectable<FinanceRevaluationsTable>;

/**
 * What receivables, payables and cash accounts hold in each currency but the base at the end of
 * `asOf`, in that currency and in the base currency, from the per-day totals.
 */
export async function foreignBalances(db: Executor, businessId: string, base: string, asOf: string) {
  const { rows } = await sql<{
    account_code: string;
    currency: string;
    balance: string;
    base_balance: string;
  }>`SELECT account_code, currency, sum(debit - credit)::text AS balance,
            sum(base_debit - base_credit)::text AS base_balance
       FROM finance_account_days
      WHERE business_id = ${businessId} AND currency <> ${base} AND date <= ${asOf}
        AND (account_code IN ('1200', '2000') OR finance_is_cash(account_code))
      GROUP BY account_code, currency
     HAVING sum(debit - credit) <> 0 OR sum(base_debit - base_credit) <> 0
      ORDER BY currency, account_code`.execute(db);
  return rows;
}

export const findRevaluationOn = (db: Executor, businessId: string, asOf: string) =>
  db
    .selectFrom('finance_revaluations')
    .select('id')
    .where('business_id', '=', businessId)
    .where('as_of', '=', asOf)
    .executeTakeFirst();

export async function insertRevaluation(
  trx: Trx,
  row: { business_id: string; id: string; as_of: string; summary: string; created_at: Date },
) {
  return trx.insertInto('finance_revaluations').values(row).returningAll().executeTakeFirstOrThrow();
}

export const listRevaluations = (db: Executor, businessId: string, page: { limit: number; offset: number }) =>
  pageWithTotal(
    db.selectFrom('finance_revaluations').selectAll().where('business_id', '=', businessId),
    (q) => q.orderBy('as_of', 'desc').orderBy('id', 'desc'),
    page,
  );
