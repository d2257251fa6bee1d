import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time */

/**
 * `business_time_zones`: each business's time zone, published by the platform, which alone writes
 * `businesses` (docs/decisions.md D72), for the sweeps across businesses that decide
 * what is due by each business's "today" in one statement (loyalty's service reminders). A plain
 * projection, inlined by PostgreSQL; writes through it are refused.
 */
const STATEMENTS = [
  `CREATE VIEW business_time_zones AS SELECT id AS business_id, timezone FROM businesses`,
  `CREATE FUNCTION business_time_zones_read_only() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     RAISE EXCEPTION 'business_time_zones is read-only: businesses are written by the platform';
   END $$`,
  `CREATE TRIGGER business_time_zones_read_only INSTEAD OF INSERT OR UPDATE OR DELETE ON business_time_zones
     FOR EACH ROW EXECUTE FUNCTION business_time_zones_read_only()`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP VIEW IF EXISTS business_time_zones`.execute(db);
  await sql`DROP FUNCTION IF EXISTS business_time_zones_read_only()`.execute(db);
}
