import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time */

/**
 * Refused attempts in the audit trail: an entry is a change that succeeded (`success`, every entry
 * written before this) or a request a valid credential made and was refused for its role or scope
 * (`denied`). A refusal carries the minute it fell in, and one partial unique key keeps at most one
 * refused row per actor and operation a minute, so a loop of refusals cannot flood the log: the
 * insert does nothing on a conflict with it. The default writes `success` for the statements that
 * name no outcome (the public earn's).
 */
const STATEMENTS = [
  `ALTER TABLE audit_log ADD COLUMN outcome text NOT NULL DEFAULT 'success'
     CHECK (outcome IN ('success', 'denied'))`,
  `ALTER TABLE audit_log ADD COLUMN denied_minute timestamptz`,
  `ALTER TABLE audit_log ADD CONSTRAINT audit_log_denied_minute_check
     CHECK ((outcome = 'denied') = (denied_minute IS NOT NULL))`,
  `CREATE UNIQUE INDEX audit_log_denied_once_a_minute ON audit_log (business_id, actor_id, operation, denied_minute)
     WHERE outcome = 'denied'`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
