import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time */

const STATEMENTS = [
  // When the sweep last queued a new job for a delivery (null: only the job queued at creation).
  // A pending delivery nobody leased for a while after that is taken to have lost its job to a
  // worker that died between fetching it and leasing the delivery, and is queued again.
  `ALTER TABLE webhook_deliveries ADD COLUMN requeued_at timestamptz`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
