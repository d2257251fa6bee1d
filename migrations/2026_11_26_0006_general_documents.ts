import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time */

/**
 * Documents customers receive (docs/decisions.md D146 to D153): when an invoice or quote was mailed and first
 * opened on its hosted page; the business's payment instructions and overdue-reminder schedule
 * (on the due date, 7 and 14 days after, until changed or switched off); mail with copies and
 * attachments (the PDF); and one row per reminder step an invoice was mailed, whose key makes a
 * second mail of the same step impossible.
 */
const STATEMENTS = [
  `ALTER TABLE invoices ADD COLUMN sent_at timestamptz, ADD COLUMN viewed_at timestamptz`,
  `ALTER TABLE quotes ADD COLUMN viewed_at timestamptz`,
  `ALTER TABLE businesses
     ADD COLUMN payment_instructions text,
     ADD COLUMN invoice_reminders_enabled boolean NOT NULL DEFAULT true,
     ADD COLUMN invoice_reminder_days integer[] NOT NULL DEFAULT '{0,7,14}'
       CHECK (cardinality(invoice_reminder_days) <= 10)`,
  `ALTER TABLE mail_messages
     ADD COLUMN cc_addresses text[] NOT NULL DEFAULT '{}',
     ADD COLUMN reply_to text`,
  `CREATE TABLE mail_attachments (
    business_id text NOT NULL,
    message_id text NOT NULL,
    position integer NOT NULL,
    filename text NOT NULL,
    content_type text NOT NULL,
    content bytea NOT NULL,
    PRIMARY KEY (business_id, message_id, position),
    FOREIGN KEY (business_id, message_id) REFERENCES mail_messages (business_id, id) ON DELETE CASCADE
  )`,
  // Each business's reminder steps while reminders are on: one row per step, for the sweep that
  // finds, across businesses, the invoices a step has come due for by each business's "today".
  `CREATE VIEW business_invoice_reminder_steps AS
     SELECT b.id AS business_id, b.timezone, step.days AS days_after_due
     FROM businesses b CROSS JOIN LATERAL unnest(b.invoice_reminder_days) AS step(days)
     WHERE b.invoice_reminders_enabled`,
  `CREATE FUNCTION business_invoice_reminder_steps_read_only() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     RAISE EXCEPTION 'business_invoice_reminder_steps is read-only: businesses are written by the platform';
   END $$`,
  `CREATE TRIGGER business_invoice_reminder_steps_read_only
     INSTEAD OF INSERT OR UPDATE OR DELETE ON business_invoice_reminder_steps
     FOR EACH ROW EXECUTE FUNCTION business_invoice_reminder_steps_read_only()`,
  `CREATE TABLE invoice_reminders (
    business_id text NOT NULL,
    invoice_id text NOT NULL,
    days_after_due integer NOT NULL,
    sent_at timestamptz NOT NULL,
    PRIMARY KEY (business_id, invoice_id, days_after_due),
    FOREIGN KEY (business_id, invoice_id) REFERENCES invoices (business_id, id) ON DELETE CASCADE
  )`,
  // The sweep's candidates: issued, unpaid invoices that were mailed, by due date.
  `CREATE INDEX invoices_remindable_idx ON invoices (due_date, business_id)
     WHERE status = 'unpaid' AND sent_at IS NOT NULL AND deleted_at IS NULL`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
