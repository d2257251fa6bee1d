import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time */

/**
 * Net revenue less credit notes (docs/decisions.md D248): the live credit notes written before it took
 * their net off the sales days of their issue dates (no invoice counted), as each new one now does.
 */
const STATEMENTS = [
  `INSERT INTO finance_sales_days AS d (business_id, currency, date, slot, revenue, invoices)
   SELECT business_id, currency, issue_date, 0, -sum(subtotal_minor), 0
   FROM credit_notes
   WHERE status = 'issued'
   GROUP BY business_id, currency, issue_date
   ON CONFLICT (business_id, currency, date, slot)
   DO UPDATE SET revenue = d.revenue + EXCLUDED.revenue`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
