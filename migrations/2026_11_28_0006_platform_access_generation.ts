import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time */

/**
 * A business's access generation: raised in the same transaction as every change that restricts who
 * may do what (requiring two-factor sign-in, a role changed, a member removed, a key or session
 * revoked). Each process's credential cache keeps the generation it resolved a credential under and
 * compares it with this column (a read by primary key) on every request, so such a change applies to
 * the next request in every process.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw('ALTER TABLE businesses ADD COLUMN access_generation bigint NOT NULL DEFAULT 0').execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
