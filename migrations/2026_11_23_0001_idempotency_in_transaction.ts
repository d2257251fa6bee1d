import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time */

const STATEMENTS = [
  // A key's row is now written in the transaction of the change it answers for, so only completed
  // responses exist; a request in progress is marked by a transaction-scoped advisory lock instead
  // of a claim row with a lease. Claims left by the old scheme answered nothing: they go.
  `DELETE FROM idempotency_keys WHERE state = 'running'`,
  `ALTER TABLE idempotency_keys DROP COLUMN state, DROP COLUMN locked_until`,
  `ALTER TABLE idempotency_keys ALTER COLUMN status_code SET NOT NULL, ALTER COLUMN response_body SET NOT NULL`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
