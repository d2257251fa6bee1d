import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time */

/**
 * The public earn's ledger row is its own audit record (docs/decisions.md D233): the row carries who
 * earned (the API key or user) and the request id, and no separate `audit_log` row is written. Once
 * written they cannot change (a trigger on those columns only, so the ledger's own updates of
 * `remaining` pay nothing for it). `audit_entries` is what the audit log reads: `audit_log` and
 * those earns, with the same columns. `business_access_generations` publishes each business's access
 * generation, which the earn reads to confirm a cached key (D234).
 */
const STATEMENTS = [
  `ALTER TABLE loyalty_transactions ADD COLUMN actor_kind text CHECK (actor_kind IN ('user', 'api_key')),
     ADD COLUMN actor_id text, ADD COLUMN request_id text,
     ADD CONSTRAINT loyalty_transactions_actor_check
       CHECK ((actor_kind IS NULL) = (actor_id IS NULL) AND (actor_id IS NULL) = (request_id IS NULL))`,
  `CREATE FUNCTION loyalty_transactions_actor_unchanged() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF NEW.actor_kind IS DISTINCT FROM OLD.actor_kind OR NEW.actor_id IS DISTINCT FROM OLD.actor_id
        OR NEW.request_id IS DISTINCT FROM OLD.request_id THEN
       RAISE EXCEPTION 'The audit columns of a loyalty transaction cannot be changed';
     END IF;
     RETURN NEW;
   END $$`,
  `CREATE TRIGGER loyalty_transactions_actor_unchanged BEFORE UPDATE OF actor_kind, actor_id, request_id
     ON loyalty_transactions FOR EACH ROW EXECUTE FUNCTION loyalty_transactions_actor_unchanged()`,
  // The access generation a cached credential is confirmed with (D234), published for the earn's
  // first statement, read-only like business_time_zones.
  `CREATE VIEW business_access_generations AS SELECT id AS business_id, access_generation FROM businesses`,
  `CREATE FUNCTION business_access_generations_read_only() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     RAISE EXCEPTION 'business_access_generations is read-only: businesses are written by the platform';
   END $$`,
  `CREATE TRIGGER business_access_generations_read_only
     INSTEAD OF INSERT OR UPDATE OR DELETE ON business_access_generations
     FOR EACH ROW EXECUTE FUNCTION business_access_generations_read_only()`,
  `CREATE VIEW audit_entries AS
     SELECT business_id, id, occurred_at, actor_kind, actor_id, operation, outcome, resource_id, request_id, summary
       FROM audit_log
     UNION ALL
     SELECT business_id, id, created_at, actor_kind, actor_id, 'publicEarn', 'success', NULL, request_id, NULL
       FROM loyalty_transactions
      WHERE actor_id IS NOT NULL`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
