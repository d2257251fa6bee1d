import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time */

/**
 * Customer credit applied at issue (docs/decisions.md D242): the part of an invoice's payments that came
 * from the customer's credit balance (payments with method `credit`), kept on the invoice so that
 * what was paid in money (which earns loyalty points) is known without reading its payments.
 */
const STATEMENTS = [
  `ALTER TABLE invoices ADD COLUMN credit_applied_minor bigint NOT NULL DEFAULT 0`,
  `ALTER TABLE invoices ADD CONSTRAINT invoices_credit_applied_check
     CHECK (credit_applied_minor >= 0 AND credit_applied_minor <= amount_paid_minor)`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
