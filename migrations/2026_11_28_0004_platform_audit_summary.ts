import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time */

/**
 * What an audit entry's change was about, as people name it, kept with the entry so the log reads as
 * sentences ("Recorded a payment of £200.00 on INV-000004") without a request per line, and still
 * reads after the resource is deleted: the resource's number or name and, for a payment, its amount
 * and currency. Null on the entries written before it and on changes that name nothing.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw('ALTER TABLE audit_log ADD COLUMN summary jsonb').execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
