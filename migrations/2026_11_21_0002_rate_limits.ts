import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time */

/** Shared rate-limit counters (`RATE_LIMIT_STORE=postgres`), in the layout rate-limiter-flexible uses. */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE TABLE rate_limits (key varchar(255) PRIMARY KEY, points integer NOT NULL DEFAULT 0, expire bigint)`.execute(
    db,
  );
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
