import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time */

/**
 * The journal's per-day summaries (entries per day, debits and credits per account and day) are
 * added to at commit instead of as each line is written (docs/decisions.md D235): the same triggers,
 * deferred, so a posting holds its day rows' locks for the commit only, not for the rest of its
 * transaction (an invoice's issue goes on to its events, numbering and threshold check after posting).
 * Deferred triggers fire in the order their rows were written, so postings still take the rows in
 * account-code order and cannot deadlock.
 */
const STATEMENTS = [
  `DROP TRIGGER finance_journal_entries_days ON finance_journal_entries`,
  `CREATE CONSTRAINT TRIGGER finance_journal_entries_days AFTER INSERT ON finance_journal_entries
     DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION finance_entry_days_follow()`,
  `DROP TRIGGER finance_journal_lines_days ON finance_journal_lines`,
  `CREATE CONSTRAINT TRIGGER finance_journal_lines_days AFTER INSERT ON finance_journal_lines
     DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION finance_account_days_follow()`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
