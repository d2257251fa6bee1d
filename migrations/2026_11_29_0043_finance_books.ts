import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time */

/** The default chart of accounts, with 2210 VAT receivable (docs/decisions.md D129, D276). */
const DEFAULT_ACCOUNTS = `
  ('1000', 'Cash', 'asset'),
  ('1010', 'Bank', 'asset'),
  ('1020', 'Mobile money', 'asset'),
  ('1030', 'Payment provider clearing', 'asset'),
  ('1200', 'Accounts receivable', 'asset'),
  ('2000', 'Accounts payable', 'liability'),
  ('2200', 'VAT payable', 'liability'),
  ('2210', 'VAT receivable', 'asset'),
  ('2300', 'Customer credit', 'liability'),
  ('4000', 'Sales', 'revenue'),
  ('5000', 'Expenses', 'expense')`;

/**
 * The books (docs/decisions.md D276, D277):
 * - a lock date per business, refused by the journal itself: no entry is written on or before it,
 *   whichever path posts it;
 * - each account's cash-flow group, defaulted by its code, and per day the cash that moved against
 *   each counter account (kept at commit, as the per-day totals are), so the cash-flow statement
 *   reads days rather than lines;
 * - per-month totals of every account beside the per-day ones, so a balance reads months;
 * - bills with tax: each item's rate and tax, the bill's subtotal and tax (its amount stays the total),
 *   and 2210 VAT receivable in the chart;
 * - the month a business's financial year starts;
 * - indexes for what documents owed on a past date.
 */
const STATEMENTS = [
  `ALTER TABLE businesses ADD COLUMN financial_year_start_month smallint NOT NULL DEFAULT 1
     CHECK (financial_year_start_month BETWEEN 1 AND 12)`,

  // The lock date. Checked as each entry is written (not at commit), so a refused posting fails at
  // once, in the statement that wrote it; the error names the date.
  `CREATE TABLE finance_lock_dates (
    business_id text PRIMARY KEY REFERENCES businesses (id) ON DELETE CASCADE,
    lock_date date NOT NULL,
    updated_at timestamptz NOT NULL
  )`,
  `CREATE FUNCTION finance_period_open() RETURNS trigger LANGUAGE plpgsql AS $$
   DECLARE
     locked date;
   BEGIN
     SELECT lock_date INTO locked FROM finance_lock_dates WHERE business_id = NEW.business_id;
     IF locked IS NOT NULL AND NEW.date <= locked THEN
       RAISE EXCEPTION 'The books are locked up to and including %: nothing can be posted dated %. Date it after %, or have an owner move the lock date earlier',
         to_char(locked, 'YYYY-MM-DD'), to_char(NEW.date, 'YYYY-MM-DD'), to_char(locked, 'YYYY-MM-DD')
         USING ERRCODE = 'P0001', CONSTRAINT = 'finance_period_locked', DETAIL = to_char(locked, 'YYYY-MM-DD');
     END IF;
     RETURN NEW;
   END $$`,
  `CREATE TRIGGER finance_journal_entries_period_open BEFORE INSERT ON finance_journal_entries
     FOR EACH ROW EXECUTE FUNCTION finance_period_open()`,

  // Cash-flow groups. Cash is 1000, 1010, 1020 and the bank accounts' 1100-1199.
  `CREATE FUNCTION finance_is_cash(code text) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
     SELECT code IN ('1000', '1010', '1020') OR code ~ '^11[0-9][0-9]$'
   $$`,
  `CREATE FUNCTION finance_cash_flow_group_of(code text, type text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
     SELECT CASE
       WHEN finance_is_cash(code) THEN 'cash'
       WHEN type = 'equity' THEN 'financing'
       WHEN type = 'asset' AND code ~ '^1[5-9][0-9][0-9]' THEN 'investing'
       WHEN type = 'liability' AND code ~ '^2[5-9][0-9][0-9]' THEN 'financing'
       ELSE 'operating'
     END
   $$`,
  `ALTER TABLE finance_accounts ADD COLUMN cash_flow_group text
     CHECK (cash_flow_group IN ('cash', 'operating', 'investing', 'financing'))`,
  `UPDATE finance_accounts SET cash_flow_group = finance_cash_flow_group_of(code, type)`,
  `ALTER TABLE finance_accounts ALTER COLUMN cash_flow_group SET NOT NULL`,
  // Cash by its code and only by it: the per-day cash movements depend on it.
  `ALTER TABLE finance_accounts ADD CONSTRAINT finance_accounts_cash_by_code
     CHECK ((cash_flow_group = 'cash') = finance_is_cash(code))`,
  `CREATE FUNCTION finance_accounts_default_group() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF NEW.cash_flow_group IS NULL THEN
       NEW.cash_flow_group := finance_cash_flow_group_of(NEW.code, NEW.type);
     END IF;
     RETURN NEW;
   END $$`,
  `CREATE TRIGGER finance_accounts_default_group BEFORE INSERT ON finance_accounts
     FOR EACH ROW EXECUTE FUNCTION finance_accounts_default_group()`,

  // Cash that moved each day against each counter account: for an entry with cash lines, each of its
  // other lines adds its credit less its debit (their sum is the entry's net cash movement). Written at
  // commit by the entry's first cash line, in account order, in one of 16 slots as the day totals are.
  `CREATE TABLE finance_cash_flow_days (
    business_id text NOT NULL,
    currency text NOT NULL,
    account_code text NOT NULL,
    date date NOT NULL,
    amount numeric(30, 0) NOT NULL,
    slot smallint NOT NULL DEFAULT 0,
    PRIMARY KEY (business_id, currency, date, account_code, slot)
  )`,
  `CREATE FUNCTION finance_cash_flow_days_follow() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF EXISTS (
       SELECT 1 FROM finance_journal_lines
        WHERE business_id = NEW.business_id AND entry_id = NEW.entry_id
          AND line_no < NEW.line_no AND finance_is_cash(account_code)
     ) THEN
       RETURN NULL;
     END IF;
     INSERT INTO finance_cash_flow_days AS d (business_id, currency, account_code, date, amount, slot)
     SELECT NEW.business_id, NEW.currency, account_code, NEW.date, sum(credit - debit), hashtext(NEW.entry_id) & 15
       FROM finance_journal_lines
      WHERE business_id = NEW.business_id AND entry_id = NEW.entry_id AND NOT finance_is_cash(account_code)
      GROUP BY account_code
      ORDER BY account_code
     ON CONFLICT (business_id, currency, date, account_code, slot)
     DO UPDATE SET amount = d.amount + EXCLUDED.amount;
     RETURN NULL;
   END $$`,
  `CREATE CONSTRAINT TRIGGER finance_journal_lines_cash_flow AFTER INSERT ON finance_journal_lines
     DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (finance_is_cash(NEW.account_code))
     EXECUTE FUNCTION finance_cash_flow_days_follow()`,
  `INSERT INTO finance_cash_flow_days (business_id, currency, account_code, date, amount, slot)
   SELECT l.business_id, l.currency, l.account_code, l.date, sum(l.credit - l.debit), 0
     FROM finance_journal_lines l
    WHERE NOT finance_is_cash(l.account_code)
      AND EXISTS (SELECT 1 FROM finance_journal_lines c
                   WHERE c.business_id = l.business_id AND c.entry_id = l.entry_id AND finance_is_cash(c.account_code))
    GROUP BY l.business_id, l.currency, l.date, l.account_code`,

  // Debits and credits per account and month, kept by the same trigger as the days: a balance as of a
  // day reads the whole months before it and the days of its own month, not every day since the start.
  `CREATE TABLE finance_account_months (
    business_id text NOT NULL,
    account_code text NOT NULL,
    currency text NOT NULL,
    month date NOT NULL CHECK (month = date_trunc('month', month)::date),
    debit numeric(30, 0) NOT NULL,
    credit numeric(30, 0) NOT NULL,
    slot smallint NOT NULL DEFAULT 0,
    PRIMARY KEY (business_id, currency, month, account_code, slot)
  )`,
  `INSERT INTO finance_account_months (business_id, account_code, currency, month, debit, credit, slot)
   SELECT business_id, account_code, currency, date_trunc('month', date)::date, sum(debit), sum(credit), slot
     FROM finance_account_days
    GROUP BY business_id, account_code, currency, date_trunc('month', date), slot`,
  `CREATE OR REPLACE FUNCTION finance_account_days_follow() RETURNS trigger LANGUAGE plpgsql AS $$
   DECLARE
     first_on_account integer := CASE WHEN EXISTS (
       SELECT 1 FROM finance_journal_lines
        WHERE business_id = NEW.business_id AND entry_id = NEW.entry_id
          AND account_code = NEW.account_code AND line_no < NEW.line_no
     ) THEN 0 ELSE 1 END;
     entry_slot smallint := hashtext(NEW.entry_id) & 15;
   BEGIN
     INSERT INTO finance_account_days AS d (business_id, account_code, currency, date, debit, credit, entries, slot)
     VALUES (NEW.business_id, NEW.account_code, NEW.currency, NEW.date, NEW.debit, NEW.credit, first_on_account, entry_slot)
     ON CONFLICT (business_id, currency, account_code, date, slot)
     DO UPDATE SET debit = d.debit + EXCLUDED.debit, credit = d.credit + EXCLUDED.credit,
                   entries = d.entries + EXCLUDED.entries;
     INSERT INTO finance_account_months AS m (business_id, account_code, currency, month, debit, credit, slot)
     VALUES (NEW.business_id, NEW.account_code, NEW.currency, date_trunc('month', NEW.date)::date, NEW.debit,
             NEW.credit, entry_slot)
     ON CONFLICT (business_id, currency, month, account_code, slot)
     DO UPDATE SET debit = m.debit + EXCLUDED.debit, credit = m.credit + EXCLUDED.credit;
     RETURN NULL;
   END $$`,
  // The days of one month of every account, for the part of a balance after its last whole month.
  `CREATE INDEX finance_account_days_date_idx ON finance_account_days (business_id, currency, date)`,

  // Ageing as of today reads the unpaid invoices from this index alone.
  `CREATE INDEX invoices_unpaid_idx ON invoices (business_id, currency, issue_date)
     INCLUDE (id, customer_id, due_date, total_minor, amount_paid_minor, amount_credited_minor)
     WHERE status = 'unpaid' AND deleted_at IS NULL`,

  // Bills with tax: amount = subtotal + tax; every existing bill is all subtotal.
  `ALTER TABLE finance_bill_items ADD COLUMN tax_rate numeric(7, 3) NOT NULL DEFAULT 0
     CHECK (tax_rate >= 0 AND tax_rate <= 100)`,
  `ALTER TABLE finance_bill_items ADD COLUMN tax bigint NOT NULL DEFAULT 0 CHECK (tax >= 0)`,
  `ALTER TABLE finance_recurring_bill_items ADD COLUMN tax_rate numeric(7, 3) NOT NULL DEFAULT 0
     CHECK (tax_rate >= 0 AND tax_rate <= 100)`,
  `ALTER TABLE finance_recurring_bill_items ADD COLUMN tax bigint NOT NULL DEFAULT 0 CHECK (tax >= 0)`,
  `ALTER TABLE finance_bills ADD COLUMN tax bigint NOT NULL DEFAULT 0 CHECK (tax >= 0)`,
  `ALTER TABLE finance_bills ADD COLUMN subtotal bigint`,
  `UPDATE finance_bills SET subtotal = amount`,
  `ALTER TABLE finance_bills ALTER COLUMN subtotal SET NOT NULL`,
  `ALTER TABLE finance_bills ADD CONSTRAINT finance_bills_total_check CHECK (amount = subtotal + tax)`,

  `CREATE OR REPLACE FUNCTION finance_add_default_accounts(business text) RETURNS void LANGUAGE sql AS $$
     INSERT INTO finance_accounts (business_id, code, name, type, system)
     SELECT business, code, name, type, true FROM (VALUES ${DEFAULT_ACCOUNTS}) AS a (code, name, type)
     ON CONFLICT (business_id, code) DO NOTHING
   $$`,
  // A business that already made its own 2210 keeps it, under its name.
  `INSERT INTO finance_accounts (business_id, code, name, type, system)
   SELECT id, '2210', 'VAT receivable', 'asset', true FROM businesses
   ON CONFLICT (business_id, code) DO NOTHING`,

  // What was owed on a past date: the documents settled after it are found by these dates.
  `CREATE INDEX payments_date_idx ON payments (business_id, payment_date)`,
  `CREATE INDEX credit_notes_issue_date_idx ON credit_notes (business_id, issue_date)`,
  `CREATE INDEX finance_bill_payments_date_idx ON finance_bill_payments (business_id, payment_date)`,
  `CREATE INDEX invoices_voided_idx ON invoices (business_id, voided_at) WHERE voided_at IS NOT NULL`,
  `CREATE INDEX finance_bills_voided_idx ON finance_bills (business_id, voided_at) WHERE voided_at IS NOT NULL`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
