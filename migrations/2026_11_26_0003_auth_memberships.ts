import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time */

/**
 * Team members (docs/decisions.md D53): a membership joins a person (a user) to a business with one
 * role. Every existing user becomes the owner of the business they registered.
 */
const STATEMENTS = [
  `CREATE TABLE memberships (
    business_id text NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
    user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role text NOT NULL CHECK (role IN ('owner', 'admin', 'accountant', 'hr', 'marketing', 'loyalty', 'viewer')),
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (business_id, user_id)
  )`,
  `CREATE INDEX memberships_user_idx ON memberships (user_id)`,
  `INSERT INTO memberships (business_id, user_id, role, created_at, updated_at)
   SELECT business_id, id, 'owner', created_at, created_at FROM users`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
