import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time */

/**
 * The audit trail (docs/decisions.md D59): every change a business's credential makes, written in the
 * change's own transaction. Append-only: a trigger refuses every UPDATE, and every DELETE but a
 * sandbox's (its reset empties it like the sandbox's other tables, as the ledger's does) and the
 * cascade of a business that is itself deleted. Rows are kept at least 2 years; nothing purges them.
 */
const STATEMENTS = [
  `CREATE TABLE audit_log (
    business_id text NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
    id text NOT NULL,
    occurred_at timestamptz NOT NULL,
    actor_kind text NOT NULL CHECK (actor_kind IN ('user', 'api_key')),
    actor_id text NOT NULL,
    operation text NOT NULL,
    resource_id text,
    request_id text NOT NULL,
    PRIMARY KEY (business_id, id)
  )`,
  `CREATE INDEX audit_log_newest_idx ON audit_log (business_id, occurred_at DESC, id DESC)`,
  `CREATE INDEX audit_log_resource_idx ON audit_log (business_id, resource_id) WHERE resource_id IS NOT NULL`,
  `CREATE FUNCTION platform_audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF TG_OP = 'DELETE' AND NOT EXISTS (
       SELECT 1 FROM businesses WHERE id = OLD.business_id AND environment <> 'sandbox'
     ) THEN
       RETURN OLD;
     END IF;
     RAISE EXCEPTION 'audit log rows cannot be changed or deleted'
       USING ERRCODE = '55000';
   END $$`,
  `CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
   FOR EACH ROW EXECUTE FUNCTION platform_audit_log_append_only()`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
