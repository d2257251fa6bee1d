import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time */

const STATEMENTS = [
  // One row per Idempotency-Key of a business: claimed while its request runs, then the response
  // to replay. The response is kept as the exact JSON text sent, so a replay is byte-identical.
  `CREATE TABLE idempotency_keys (
    business_id text NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
    key text NOT NULL,
    fingerprint text NOT NULL,
    state text NOT NULL CHECK (state IN ('running', 'done')),
    status_code integer,
    response_body text,
    created_at timestamptz NOT NULL,
    locked_until timestamptz NOT NULL,
    PRIMARY KEY (business_id, key),
    CHECK (state = 'running' OR (status_code IS NOT NULL AND response_body IS NOT NULL))
  )`,
  `CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at)`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
