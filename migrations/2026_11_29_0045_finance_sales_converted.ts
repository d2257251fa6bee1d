import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time */

/**
 * Sales in the base currency (docs/decisions.md D278): each day's net revenue carries its amount in
 * the business's base currency beside its own, every sale converted at the rate its invoice posted
 * at (a credit note at its invoice's), so the sales schedule and the revenue calculator can count
 * every currency at once (`converted=true`) and the VAT threshold counts all turnover.
 *
 * The rows written before this were kept in their own currency only: they carry their own amount as
 * their base amount, converted at 1 as the journal's lines of the time were (the business's base
 * currency for nearly all of them; there were no rates for the others).
 */
const STATEMENTS = [
  `ALTER TABLE finance_sales_days ADD COLUMN base_revenue numeric(30, 0) NOT NULL DEFAULT 0`,
  `UPDATE finance_sales_days SET base_revenue = revenue`,
  // Every currency's days of a range, which the sums in the base currency read.
  `CREATE INDEX finance_sales_days_date_idx ON finance_sales_days (business_id, date)`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
