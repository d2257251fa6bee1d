import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time */

/**
 * A forgotten password: the mailed links that set a new one. A link is a person's (users are global,
 * across every business they belong to), found by the SHA-256 hash of its token before anything else
 * is known, so the table has no business_id and is a reference table on Citus (docs/scaling.md).
 * One conditional UPDATE of `used_at` spends a link, so it works once.
 */
const STATEMENTS = [
  `CREATE TABLE password_resets (
     id text PRIMARY KEY,
     user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
     token_hash text NOT NULL UNIQUE,
     expires_at timestamptz NOT NULL,
     used_at timestamptz,
     created_at timestamptz NOT NULL DEFAULT now()
   )`,
  `CREATE INDEX password_resets_user_idx ON password_resets (user_id)`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
