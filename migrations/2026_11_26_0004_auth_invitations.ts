import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time */

/**
 * Invitations to join a business's team (docs/decisions.md D227): single-use, valid 7 days, the token
 * stored only as its SHA-256 hash. A used one keeps its `accepted_at`.
 */
const STATEMENTS = [
  `CREATE TABLE invitations (
    id text PRIMARY KEY,
    business_id text NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
    email text NOT NULL,
    role text NOT NULL CHECK (role IN ('owner', 'admin', 'accountant', 'hr', 'marketing', 'loyalty', 'viewer')),
    token_hash text NOT NULL UNIQUE,
    expires_at timestamptz NOT NULL,
    accepted_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX invitations_business_idx ON invitations (business_id, created_at)`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
