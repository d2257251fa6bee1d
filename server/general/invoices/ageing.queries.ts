import { sql } from 'kysely';
import { ageingColumns, ageingSums } from '../../platform/db/ageing.js';
import type { Executor } from '../../platform/db/database.js';

/** One customer's receivables on a day, in buckets of days past due (minor units, as text). */
export interface ReceivablesRow {
  customer_id: string;
  customer_name: string;
  invoices: number;
  current: string;
  days_1_30: string;
  days_31_60: string;
  days_61_90: string;
  days_over_90: string;
  total: string;
}

/**
 * What each customer owed at the end of `asOf` in `currency`, by days past due (docs/decisions.md D277).
 * An invoice counts when issued by then and not voided by then (its void's day in the business's time
 * zone). What it owed then is what it owes now, plus what changed its balance after `asOf`: payments
 * dated later, credit notes dated later (and still live), less credit notes dated by then but voided
 * later. Those later changes are found by indexes on their dates, so as of today they are none, and the
 * unpaid invoices are read from their own covering index; the sums go by customer before the names
 * are joined, in bigint throughout (a numeric sum in the join costs as much as the rest of the query).
 */
export async function receivablesAsOf(
  db: Executor,
  businessId: string,
  currency: string,
  asOf: string,
  timeZone: string,
  changedAfter: boolean,
): Promise<ReceivablesRow[]> {
  // With nothing changed after the day (as of today, as a rule), every unpaid invoice owes what its
  // row says: no join at all, which is half the report's time over 100,000 of them.
  const adjusted = changedAfter ? sql`+ coalesce(a.amount, 0)` : sql``;
  const adjustOf = (alias: string) =>
    changedAfter ? sql`LEFT JOIN adjust a ON a.id = ${sql.ref(`${alias}.id`)}` : sql``;
  const { rows } = await sql<ReceivablesRow>`
    WITH later AS (
      SELECT invoice_id AS id, amount_minor AS amount
        FROM payments WHERE business_id = ${businessId} AND payment_date > ${asOf}
      UNION ALL
      SELECT invoice_id, credit_minor
        FROM credit_notes WHERE business_id = ${businessId} AND issue_date > ${asOf} AND voided_at IS NULL
      UNION ALL
      SELECT invoice_id, -credit_minor
        FROM credit_notes
       WHERE business_id = ${businessId} AND issue_date <= ${asOf} AND voided_at IS NOT NULL
         AND (voided_at AT TIME ZONE ${timeZone})::date > ${asOf}
    ),
    adjust AS (SELECT id, sum(amount)::bigint AS amount FROM later GROUP BY id),
    open_invoices AS (
      SELECT i.customer_id, i.due_date,
             i.total_minor - i.amount_paid_minor - i.amount_credited_minor ${adjusted} AS open
        FROM invoices i ${adjustOf('i')}
       WHERE i.business_id = ${businessId} AND i.status = 'unpaid' AND i.deleted_at IS NULL
         AND i.currency = ${currency} AND i.issue_date <= ${asOf}
      UNION ALL
      SELECT i.customer_id, i.due_date, i.total_minor - i.amount_paid_minor - i.amount_credited_minor + a.amount
        FROM adjust a JOIN invoices i ON i.business_id = ${businessId} AND i.id = a.id
       WHERE i.status = 'paid' AND i.deleted_at IS NULL AND i.currency = ${currency} AND i.issue_date <= ${asOf}
      UNION ALL
      SELECT i.customer_id, i.due_date,
             i.total_minor - i.amount_paid_minor - i.amount_credited_minor ${adjusted}
        FROM invoices i ${adjustOf('i')}
       WHERE i.business_id = ${businessId} AND i.status = 'void' AND i.voided_at IS NOT NULL
         AND (i.voided_at AT TIME ZONE ${timeZone})::date > ${asOf}
         AND i.deleted_at IS NULL AND i.currency = ${currency} AND i.issue_date <= ${asOf}
    ),
    by_customer AS (
      SELECT customer_id, count(*)::int AS invoices, ${ageingSums}
        FROM (SELECT customer_id, open, ${asOf}::date - due_date AS late FROM open_invoices WHERE open > 0) aged
       GROUP BY customer_id
    )
    SELECT b.customer_id, c.name AS customer_name, b.invoices,
           ${ageingColumns}
      FROM by_customer b
      JOIN customers c ON c.business_id = ${businessId} AND c.id = b.customer_id
     ORDER BY b.total DESC, c.name, b.customer_id`.execute(db);
  return rows;
}

/**
 * Whether anything changed what an invoice owed after the end of `asOf`: a payment or a credit note
 * dated later, or a credit note voided later (what `receivablesAsOf` adds back).
 */
export async function changedAfter(db: Executor, businessId: string, asOf: string, timeZone: string) {
  const { rows } = await sql<{ changed: boolean }>`
    SELECT EXISTS (SELECT 1 FROM payments WHERE business_id = ${businessId} AND payment_date > ${asOf})
        OR EXISTS (SELECT 1 FROM credit_notes WHERE business_id = ${businessId} AND issue_date > ${asOf})
        OR EXISTS (SELECT 1 FROM credit_notes
                    WHERE business_id = ${businessId} AND voided_at IS NOT NULL
                      AND (voided_at AT TIME ZONE ${timeZone})::date > ${asOf}) AS changed`.execute(db);
  return rows[0]?.changed === true;
}
