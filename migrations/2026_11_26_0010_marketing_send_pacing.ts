import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time */

/**
 * Campaign pacing shared by every worker process: per business, the instant (on the database's
 * clock) from which the next sending slots may be reserved. A worker reserves a few slots at a time,
 * so MAIL_RATE_PER_SECOND holds for the business however many workers send its campaigns.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE TABLE marketing_send_pacing (
    business_id text PRIMARY KEY REFERENCES businesses (id) ON DELETE CASCADE,
    next_slot timestamptz NOT NULL
  )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE marketing_send_pacing`.execute(db);
}
