import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time */

const STATEMENTS = [
  // Captured mail (status `logged`: not handed to SMTP) is read back whole: sender, HTML part and
  // the headers beyond From, To and Subject.
  `ALTER TABLE mail_messages
     ADD COLUMN from_address text,
     ADD COLUMN html text,
     ADD COLUMN headers jsonb NOT NULL DEFAULT '{}'::jsonb`,
  `CREATE INDEX mail_messages_captured_idx ON mail_messages (business_id, created_at DESC, id DESC)
     WHERE status = 'logged'`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
