import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time */

/**
 * The staging sandbox (docs/decisions.md D73): a live business's sandbox is a business of its own,
 * `environment = 'sandbox'`, pointing at its live business (one twin each). Its test clock is an
 * offset from real time, moved forward only; live businesses always run on real time.
 */
const STATEMENTS = [
  `ALTER TABLE businesses
     ADD COLUMN environment text NOT NULL DEFAULT 'live' CHECK (environment IN ('live', 'sandbox')),
     ADD COLUMN live_business_id text REFERENCES businesses (id) ON DELETE CASCADE,
     ADD COLUMN clock_offset_ms bigint NOT NULL DEFAULT 0 CHECK (clock_offset_ms >= 0)`,
  `ALTER TABLE businesses ADD CONSTRAINT businesses_sandbox_twin_check CHECK (
     (environment = 'live' AND live_business_id IS NULL AND clock_offset_ms = 0)
     OR (environment = 'sandbox' AND live_business_id IS NOT NULL))`,
  `CREATE UNIQUE INDEX businesses_sandbox_key ON businesses (live_business_id) WHERE live_business_id IS NOT NULL`,
  // The sandbox clock sweep reads only the sandboxes whose clock was moved.
  `CREATE INDEX businesses_moved_clock_idx ON businesses (id) WHERE clock_offset_ms > 0`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
