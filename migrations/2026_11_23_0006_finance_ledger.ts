import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time */

/** The default chart of accounts every business gets (docs/decisions.md D129). */
const DEFAULT_ACCOUNTS = `
  ('1000', 'Cash', 'asset'),
  ('1010', 'Bank', 'asset'),
  ('1020', 'Mobile money', 'asset'),
  ('1200', 'Accounts receivable', 'asset'),
  ('2000', 'Accounts payable', 'liability'),
  ('2200', 'VAT payable', 'liability'),
  ('4000', 'Sales', 'revenue'),
  ('5000', 'Expenses', 'expense')`;

const STATEMENTS = [
  `CREATE TABLE finance_accounts (
    business_id text NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
    code text NOT NULL CHECK (code ~ '^[0-9A-Za-z][0-9A-Za-z.-]{0,19}$'),
    name text NOT NULL,
    type text NOT NULL CHECK (type IN ('asset', 'liability', 'equity', 'revenue', 'expense')),
    system boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (business_id, code)
  )`,
  // Every business gets the default chart as it is created, whoever creates it (sign-up, the CLI).
  `CREATE FUNCTION finance_default_accounts() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     INSERT INTO finance_accounts (business_id, code, name, type, system)
     SELECT NEW.id, code, name, type, true FROM (VALUES ${DEFAULT_ACCOUNTS}) AS a (code, name, type);
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER businesses_default_accounts AFTER INSERT ON businesses
     FOR EACH ROW EXECUTE FUNCTION finance_default_accounts()`,
  `INSERT INTO finance_accounts (business_id, code, name, type, system)
   SELECT b.id, a.code, a.name, a.type, true FROM businesses b CROSS JOIN (VALUES ${DEFAULT_ACCOUNTS}) AS a (code, name, type)`,

  // The journal: entries and their lines, append-only.
  `CREATE TABLE finance_journal_entries (
    business_id text NOT NULL REFERENCES businesses (id),
    id text NOT NULL,
    date date NOT NULL,
    description text NOT NULL,
    currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    source_type text NOT NULL CHECK (source_type IN ('bill', 'bill_payment', 'invoice', 'invoice_payment', 'void', 'manual')),
    source_id text NOT NULL,
    -- How many lines the entry has, fixed when it is written: a line added later (in any transaction)
    -- makes the count disagree, and the commit-time check below refuses it.
    line_count smallint NOT NULL CHECK (line_count >= 2),
    created_at timestamptz NOT NULL,
    PRIMARY KEY (business_id, id)
  )`,
  `CREATE INDEX finance_journal_entries_date_idx ON finance_journal_entries (business_id, date DESC, id DESC)`,
  `CREATE INDEX finance_journal_entries_source_idx ON finance_journal_entries (business_id, source_id)`,
  // A document posts once: a second posting of the same source and kind is a bug, refused here.
  `CREATE UNIQUE INDEX finance_journal_entries_posting_key ON finance_journal_entries (business_id, source_type, source_id)
     WHERE source_type <> 'manual' AND source_type <> 'void'`,
  `CREATE TABLE finance_journal_lines (
    business_id text NOT NULL,
    entry_id text NOT NULL,
    line_no integer NOT NULL,
    account_code text NOT NULL,
    -- Copied from the entry, so per-account reads need no join.
    date date NOT NULL,
    currency text NOT NULL,
    debit bigint NOT NULL CHECK (debit BETWEEN 0 AND 999999999999999),
    credit bigint NOT NULL CHECK (credit BETWEEN 0 AND 999999999999999),
    PRIMARY KEY (business_id, entry_id, line_no),
    FOREIGN KEY (business_id, entry_id) REFERENCES finance_journal_entries (business_id, id),
    FOREIGN KEY (business_id, account_code) REFERENCES finance_accounts (business_id, code),
    CHECK ((debit > 0) <> (credit > 0))
  )`,
  `CREATE INDEX finance_journal_lines_account_idx ON finance_journal_lines (business_id, account_code, date DESC, entry_id DESC)`,

  // Balance per entry, checked at commit: whatever statements wrote the lines, a transaction in which
  // an entry does not balance, or has other than its line_count lines, does not commit. The check runs
  // for every new entry and for every new line (so a line added to an old entry is caught too).
  `CREATE FUNCTION finance_entry_check(business text, entry text) RETURNS void LANGUAGE plpgsql AS $$
   DECLARE
     expected integer;
     totals record;
   BEGIN
     SELECT line_count INTO expected FROM finance_journal_entries WHERE business_id = business AND id = entry;
     SELECT count(*) AS lines, coalesce(sum(debit), 0) AS debit, coalesce(sum(credit), 0) AS credit
       INTO totals
       FROM finance_journal_lines
      WHERE business_id = business AND entry_id = entry;
     IF totals.lines <> expected OR totals.debit <> totals.credit THEN
       RAISE EXCEPTION 'journal entry % does not balance or has lines added: debits %, credits %, % lines of %',
         entry, totals.debit, totals.credit, totals.lines, expected
         USING ERRCODE = '23514', CONSTRAINT = 'finance_journal_entries_balanced';
     END IF;
   END $$`,
  `CREATE FUNCTION finance_entry_balances() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     PERFORM finance_entry_check(NEW.business_id, NEW.id);
     RETURN NULL;
   END $$`,
  `CREATE CONSTRAINT TRIGGER finance_journal_entries_balanced AFTER INSERT ON finance_journal_entries
     DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION finance_entry_balances()`,
  `CREATE FUNCTION finance_line_balances() RETURNS trigger LANGUAGE plpgsql AS $$
   DECLARE
     entry record;
   BEGIN
     SELECT * INTO entry FROM finance_journal_entries WHERE business_id = NEW.business_id AND id = NEW.entry_id;
     IF entry.date <> NEW.date OR entry.currency <> NEW.currency THEN
       RAISE EXCEPTION 'journal line of % differs from its entry in date or currency', NEW.entry_id
         USING ERRCODE = '23514', CONSTRAINT = 'finance_journal_lines_match_entry';
     END IF;
     PERFORM finance_entry_check(NEW.business_id, NEW.entry_id);
     RETURN NULL;
   END $$`,
  `CREATE CONSTRAINT TRIGGER finance_journal_lines_match_entry AFTER INSERT ON finance_journal_lines
     DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION finance_line_balances()`,
  // Posted entries are immutable: corrections are new entries.
  `CREATE FUNCTION finance_journal_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     RAISE EXCEPTION 'posted journal entries cannot be changed or deleted; post a correcting entry'
       USING ERRCODE = '55000';
   END $$`,
  `CREATE TRIGGER finance_journal_entries_immutable BEFORE UPDATE OR DELETE ON finance_journal_entries
     FOR EACH ROW EXECUTE FUNCTION finance_journal_immutable()`,
  `CREATE TRIGGER finance_journal_lines_immutable BEFORE UPDATE OR DELETE ON finance_journal_lines
     FOR EACH ROW EXECUTE FUNCTION finance_journal_immutable()`,
  `CREATE TRIGGER finance_journal_entries_no_truncate BEFORE TRUNCATE ON finance_journal_entries
     FOR EACH STATEMENT EXECUTE FUNCTION finance_journal_immutable()`,
  `CREATE TRIGGER finance_journal_lines_no_truncate BEFORE TRUNCATE ON finance_journal_lines
     FOR EACH STATEMENT EXECUTE FUNCTION finance_journal_immutable()`,

  // Debits and credits per account, currency and day, kept by a trigger as lines are written: the
  // trial balance and reports read days, not every line. Lines are inserted in account-code order
  // (server/finance/ledger.ts), so two postings lock these rows in the same order and cannot deadlock.
  `CREATE TABLE finance_account_days (
    business_id text NOT NULL,
    account_code text NOT NULL,
    currency text NOT NULL,
    date date NOT NULL,
    debit numeric(30, 0) NOT NULL,
    credit numeric(30, 0) NOT NULL,
    -- Entries with at least one line on the account that day (the journal's account filter counts these).
    entries integer NOT NULL,
    -- One of 16 rows per account and day, picked by the entry: concurrent postings of one day
    -- mostly update different rows instead of queueing on one. Readers sum the slots.
    slot smallint NOT NULL DEFAULT 0,
    PRIMARY KEY (business_id, currency, account_code, date, slot)
  )`,
  `CREATE INDEX finance_account_days_account_idx ON finance_account_days (business_id, account_code, date)`,
  // Entries per day, kept by a trigger: the journal's total_count over a date range reads days.
  `CREATE TABLE finance_entry_days (
    business_id text NOT NULL,
    date date NOT NULL,
    entries integer NOT NULL,
    slot smallint NOT NULL DEFAULT 0,
    PRIMARY KEY (business_id, date, slot)
  )`,
  `CREATE FUNCTION finance_entry_days_follow() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     INSERT INTO finance_entry_days AS d (business_id, date, entries, slot)
     VALUES (NEW.business_id, NEW.date, 1, hashtext(NEW.id) & 15)
     ON CONFLICT (business_id, date, slot) DO UPDATE SET entries = d.entries + 1;
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER finance_journal_entries_days AFTER INSERT ON finance_journal_entries
     FOR EACH ROW EXECUTE FUNCTION finance_entry_days_follow()`,
  `CREATE FUNCTION finance_account_days_follow() RETURNS trigger LANGUAGE plpgsql AS $$
   DECLARE
     first_on_account integer := CASE WHEN EXISTS (
       SELECT 1 FROM finance_journal_lines
        WHERE business_id = NEW.business_id AND entry_id = NEW.entry_id
          AND account_code = NEW.account_code AND line_no < NEW.line_no
     ) THEN 0 ELSE 1 END;
   BEGIN
     INSERT INTO finance_account_days AS d (business_id, account_code, currency, date, debit, credit, entries, slot)
     VALUES (NEW.business_id, NEW.account_code, NEW.currency, NEW.date, NEW.debit, NEW.credit, first_on_account,
             hashtext(NEW.entry_id) & 15)
     ON CONFLICT (business_id, currency, account_code, date, slot)
     DO UPDATE SET debit = d.debit + EXCLUDED.debit, credit = d.credit + EXCLUDED.credit,
                   entries = d.entries + EXCLUDED.entries;
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER finance_journal_lines_days AFTER INSERT ON finance_journal_lines
     FOR EACH ROW EXECUTE FUNCTION finance_account_days_follow()`,

  // Accounts payable.
  `CREATE TABLE finance_vendors (
    business_id text NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
    id text NOT NULL,
    name text NOT NULL,
    email text,
    phone text,
    currency text CHECK (currency ~ '^[A-Z]{3}$'),
    tax_id text,
    address jsonb,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (business_id, id)
  )`,
  `CREATE INDEX finance_vendors_list_idx ON finance_vendors (business_id, created_at DESC, id DESC)`,
  `CREATE TABLE finance_bills (
    business_id text NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
    id text NOT NULL,
    vendor_id text NOT NULL,
    status text NOT NULL CHECK (status IN ('draft', 'pending', 'paid', 'void')),
    currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    amount bigint NOT NULL CHECK (amount BETWEEN 0 AND 999999999999999),
    amount_paid bigint NOT NULL DEFAULT 0 CHECK (amount_paid >= 0 AND amount_paid <= amount),
    issue_date date NOT NULL,
    due_date date NOT NULL,
    notes text,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    approved_at timestamptz,
    paid_at timestamptz,
    voided_at timestamptz,
    deleted_at timestamptz,
    PRIMARY KEY (business_id, id),
    FOREIGN KEY (business_id, vendor_id) REFERENCES finance_vendors (business_id, id),
    CHECK (status <> 'paid' OR amount_paid = amount)
  )`,
  `CREATE INDEX finance_bills_list_idx ON finance_bills (business_id, created_at DESC, id DESC) WHERE deleted_at IS NULL`,
  `CREATE INDEX finance_bills_vendor_idx ON finance_bills (business_id, vendor_id, created_at DESC, id DESC) WHERE deleted_at IS NULL`,
  `CREATE INDEX finance_bills_status_idx ON finance_bills (business_id, status, due_date) WHERE deleted_at IS NULL`,
  `CREATE TABLE finance_bill_items (
    business_id text NOT NULL,
    bill_id text NOT NULL,
    position integer NOT NULL,
    description text NOT NULL,
    quantity numeric(14, 4) NOT NULL CHECK (quantity > 0),
    unit_price bigint NOT NULL CHECK (unit_price BETWEEN 0 AND 999999999999999),
    amount bigint NOT NULL CHECK (amount BETWEEN 0 AND 999999999999999),
    PRIMARY KEY (business_id, bill_id, position),
    FOREIGN KEY (business_id, bill_id) REFERENCES finance_bills (business_id, id) ON DELETE CASCADE
  )`,
  `CREATE TABLE finance_bill_payments (
    business_id text NOT NULL,
    id text NOT NULL,
    bill_id text NOT NULL,
    amount bigint NOT NULL CHECK (amount > 0 AND amount <= 999999999999999),
    currency text NOT NULL,
    payment_method text NOT NULL CHECK (payment_method IN ('bank_transfer', 'cash', 'check', 'mobile_money')),
    payment_date date NOT NULL,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (business_id, id),
    FOREIGN KEY (business_id, bill_id) REFERENCES finance_bills (business_id, id)
  )`,
  `CREATE INDEX finance_bill_payments_bill_idx ON finance_bill_payments (business_id, bill_id, created_at)`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
