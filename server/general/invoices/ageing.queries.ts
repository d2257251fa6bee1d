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
 * zone), less its payments and the live credit notes dated by then. An invoice unpaid today with no
 * payment or credit note dated after `asOf` owes what it owes today (no per-invoice sums); only the few
 * touched after `asOf` (a payment, a credit note or a void dated later) are summed by date. The
 * candidates come from indexes: unpaid invoices by status, later payments and credit notes by date.
 */
export async function receivablesAsOf(
  db: Executor,
  businessId: string,
  currency: string,
  asOf: string,
  timeZone: string,
): Promise<ReceivablesRow[]> {
  const { rows } = await sql<ReceivablesRow>`
    WITH touched_after AS (
      SELECT invoice_id AS id FROM payments WHERE business_id = ${businessId} AND payment_date > ${asOf}
      UNION
      SELECT invoice_id FROM credit_notes
       WHERE business_id = ${businessId}
         AND (issue_date > ${asOf} OR (voided_at IS NOT NULL AND (voided_at AT TIME ZONE ${timeZone})::date > ${asOf}))
      UNION
      SELECT id FROM invoices
       WHERE business_id = ${businessId} AND voided_at IS NOT NULL
         AND (voided_at AT TIME ZONE ${timeZone})::date > ${asOf}
    ),
    open_invoices AS (
      SELECT i.customer_id, i.due_date, i.total_minor - i.amount_paid_minor - i.amount_credited_minor AS open
        FROM invoices i
       WHERE i.business_id = ${businessId} AND i.status = 'unpaid' AND i.deleted_at IS NULL
         AND i.currency = ${currency} AND i.issue_date <= ${asOf}
         AND i.id NOT IN (SELECT id FROM touched_after)
      UNION ALL
      SELECT i.customer_id, i.due_date,
             i.total_minor
             - coalesce((SELECT sum(p.amount_minor) FROM payments p
                          WHERE p.business_id = i.business_id AND p.invoice_id = i.id
                            AND p.payment_date <= ${asOf}), 0)
             - coalesce((SELECT sum(n.credit_minor) FROM credit_notes n
                          WHERE n.business_id = i.business_id AND n.invoice_id = i.id AND n.issue_date <= ${asOf}
                            AND (n.voided_at IS NULL OR (n.voided_at AT TIME ZONE ${timeZone})::date > ${asOf})), 0)
        FROM invoices i
       WHERE i.business_id = ${businessId} AND i.id IN (SELECT id FROM touched_after)
         AND i.status <> 'draft' AND i.deleted_at IS NULL
         AND i.currency = ${currency} AND i.issue_date <= ${asOf}
         AND (i.voided_at IS NULL OR (i.voided_at AT TIME ZONE ${timeZone})::date > ${asOf})
    ),
    aged AS (
      SELECT customer_id, open, ${asOf}::date - due_date AS late FROM open_invoices WHERE open > 0
    )
    SELECT a.customer_id, c.name AS customer_name, count(*)::int AS invoices,
           coalesce(sum(open) FILTER (WHERE late <= 0), 0)::text AS current,
           coalesce(sum(open) FILTER (WHERE late BETWEEN 1 AND 30), 0)::text AS days_1_30,
           coalesce(sum(open) FILTER (WHERE late BETWEEN 31 AND 60), 0)::text AS days_31_60,
           coalesce(sum(open) FILTER (WHERE late BETWEEN 61 AND 90), 0)::text AS days_61_90,
           coalesce(sum(open) FILTER (WHERE late > 90), 0)::text AS days_over_90,
           sum(open)::text AS total
      FROM aged a
      JOIN customers c ON c.business_id = ${businessId} AND c.id = a.customer_id
     GROUP BY a.customer_id, c.name
     ORDER BY sum(open) DESC, c.name, a.customer_id`.execute(db);
  return rows;
}
