import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time */

/**
 * Line discounts: a percentage (two decimals) taken off an invoice's or quote's line before tax. Lines
 * written before it have none.
 */
const STATEMENTS = ['invoice_items', 'quote_items'].map(
  (table) =>
    `ALTER TABLE ${table} ADD COLUMN discount_percent numeric(5, 2) NOT NULL DEFAULT 0
       CHECK (discount_percent >= 0 AND discount_percent <= 100)`,
);

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
