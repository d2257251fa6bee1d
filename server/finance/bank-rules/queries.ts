import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Executor, Trx } from '../../platform/db/database.js';
import { pageWithTotal } from '../../platform/db/paged.js';
import type { FinanceBankRulesTable } from '../../platform/db/types.js';

export type BankRuleRow = Selectable<FinanceBankRulesTable>;

const rules = (db: Executor, businessId: string) =>
  db.selectFrom('finance_bank_rules').selectAll().where('business_id', '=', businessId);

export const listRules = (db: Executor, businessId: string, page: { limit: number; offset: number }) =>
  pageWithTotal(rules(db, businessId), (q) => q.orderBy('created_at').orderBy('id'), page);

export const findRule = (db: Executor, businessId: string, id: string) =>
  rules(db, businessId).where('id', '=', id).executeTakeFirst();

export async function insertRule(trx: Trx, values: Insertable<FinanceBankRulesTable>) {
  return trx.insertInto('finance_bank_rules').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateRule(
  trx: Trx,
  businessId: string,
  id: string,
  changes: Updateable<FinanceBankRulesTable>,
) {
  return trx
    .updateTable('finance_bank_rules')
    .set(changes)
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteRule(trx: Trx, businessId: string, id: string) {
  return trx
    .deleteFrom('finance_bank_rules')
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
}

/**
 * Gives each unmatched line without a suggestion (of one import, or all the business's) the first
 * rule, oldest first, that it fits: its description contains the rule's words (case aside), its
 * direction and its absolute amount within the rule's. Returns how many lines of the import, or how
 * many for the rule `counting`, now have one.
 */
export async function applyRules(
  trx: Trx,
  businessId: string,
  scope: { importId: string } | { counting: string },
): Promise<number> {
  const importId = 'importId' in scope ? scope.importId : null;
  // Only the lines a rule fits are written; each gets the oldest rule it fits.
  const updated = await sql<{ rule_id: string | null }>`
    UPDATE finance_bank_transactions t
       SET rule_id = fit.rule_id
      FROM (SELECT DISTINCT ON (l.id) l.id, r.id AS rule_id
              FROM finance_bank_transactions l
              JOIN finance_bank_rules r
                ON r.business_id = l.business_id
               AND strpos(lower(l.description), lower(r.description_contains)) > 0
               AND (r.direction IS NULL OR (r.direction = 'in') = (l.amount_minor > 0))
               AND (r.min_amount_minor IS NULL OR abs(l.amount_minor) >= r.min_amount_minor)
               AND (r.max_amount_minor IS NULL OR abs(l.amount_minor) <= r.max_amount_minor)
             WHERE l.business_id = ${businessId}
               AND l.status = 'unmatched'
               AND l.rule_id IS NULL
               AND (${importId}::text IS NULL OR l.import_id = ${importId})
             ORDER BY l.id, r.created_at, r.id) fit
     WHERE t.business_id = ${businessId}
       AND t.id = fit.id
    RETURNING t.rule_id`.execute(trx);
  return updated.rows.filter((r) => ('counting' in scope ? r.rule_id === scope.counting : r.rule_id !== null))
    .length;
}
