import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time */

/**
 * `customer_directory`: the customer columns other domains read (loyalty's member names and emails,
 * marketing's contacts and merge fields), published by general, which alone writes `customers`
 * (docs/decisions.md D71). A plain projection, so PostgreSQL inlines it and the
 * customers' indexes serve queries on it; writes through it are refused.
 */
const STATEMENTS = [
  `CREATE VIEW customer_directory AS
     SELECT business_id, id, name, email, first_name, last_name, phone, company, attributes,
            unsubscribed, created_at, updated_at
     FROM customers`,
  `CREATE FUNCTION customer_directory_read_only() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     RAISE EXCEPTION 'customer_directory is read-only: customers are written by the general domain';
   END $$`,
  `CREATE TRIGGER customer_directory_read_only INSTEAD OF INSERT OR UPDATE OR DELETE ON customer_directory
     FOR EACH ROW EXECUTE FUNCTION customer_directory_read_only()`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP VIEW IF EXISTS customer_directory`.execute(db);
  await sql`DROP FUNCTION IF EXISTS customer_directory_read_only()`.execute(db);
}
