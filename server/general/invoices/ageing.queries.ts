import { sql } from 'kysely';
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
): Promise<ReceivablesRow[]> {
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
             i.total_minor - i.amount_paid_minor - i.amount_credited_minor + coalesce(a.amount, 0) AS open
        FROM invoices i LEFT JOIN adjust a ON a.id = i.id
       WHERE i.business_id = ${businessId} AND i.status = 'unpaid' AND i.deleted_at IS NULL
         AND i.currency = ${currency} AND i.issue_date <= ${asOf}
      UNION ALL
      SELECT i.customer_id, i.due_date, i.total_minor - i.amount_paid_minor - i.amount_credited_minor + a.amount
        FROM adjust a JOIN invoices i ON i.business_id = ${businessId} AND i.id = a.id
       WHERE i.status = 'paid' AND i.deleted_at IS NULL AND i.currency = ${currency} AND i.issue_date <= ${asOf}
      UNION ALL
      SELECT i.customer_id, i.due_date,
             i.total_minor - i.amount_paid_minor - i.amount_credited_minor + coalesce(a.amount, 0)
        FROM invoices i LEFT JOIN adjust a ON a.id = i.id
       WHERE i.business_id = ${businessId} AND i.status = 'void' AND i.voided_at IS NOT NULL
         AND (i.voided_at AT TIME ZONE ${timeZone})::date > ${asOf}
         AND i.deleted_at IS NULL AND i.currency = ${currency} AND i.issue_date <= ${asOf}
    ),
    by_customer AS (
      SELECT customer_id, count(*)::int AS invoices,
             coalesce(sum(open) FILTER (WHERE late <= 0), 0) AS current,
             coalesce(sum(open) FILTER (WHERE late BETWEEN 1 AND 30), 0) AS days_1_30,
             coalesce(sum(open) FILTER (WHERE late BETWEEN 31 AND 60), 0) AS days_31_60,
             coalesce(sum(open) FILTER (WHERE late BETWEEN 61 AND 90), 0) AS days_61_90,
             coalesce(sum(open) FILTER (WHERE late > 90), 0) AS days_over_90,
             sum(open) AS total
        FROM (SELECT customer_id, open, ${asOf}::date - due_date AS late FROM open_invoices WHERE open > 0) aged
       GROUP BY customer_id
    )
    SELECT b.customer_id, c.name AS customer_name, b.invoices,
           b.current::text AS current, b.days_1_30::text AS days_1_30, b.days_31_60::text AS days_31_60,
           b.days_61_90::text AS days_61_90, b.days_over_90::text AS days_over_90, b.total::text AS total
      FROM by_customer b
      JOIN customers c ON c.business_id = ${businessId} AND c.id = b.customer_id
     ORDER BY b.total DESC, c.name, b.customer_id`.execute(db);
  return rows;
}
