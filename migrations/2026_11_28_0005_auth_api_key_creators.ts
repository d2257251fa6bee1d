import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time */

/**
 * Who made each API key (the person signed in when it was created), so that removing a member
 * revokes the keys they made. Keys made before, and keys made from the command line, have none
 * (null: unknown) and are left alone by a removal.
 */
const STATEMENTS = [
  `ALTER TABLE api_keys ADD COLUMN created_by text`,
  `CREATE INDEX api_keys_creator_idx ON api_keys (business_id, created_by) WHERE revoked_at IS NULL`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
