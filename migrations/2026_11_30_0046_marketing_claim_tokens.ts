import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time */

/**
 * A campaign recipient's claim names its holder (docs/decisions.md D279): each sending pass claims
 * with a token of its own, and renews and records only the claims that still carry it. A sender
 * whose lease ran out while it was stalled no longer renews, or sends, what another worker has
 * taken over since.
 *
 * Claims held when this runs have no token: their lease runs out and they are claimed again.
 */
const STATEMENTS = [`ALTER TABLE marketing_recipients ADD COLUMN claim_token text`];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
