import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time */

/**
 * Bank accounts and their statements (docs/decisions.md D272). Each bank account has an asset
 * account of its own in the chart (1100, 1101, ...) and an opening balance on a date. Each line of
 * an imported statement is kept once: its account, date, amount, reference (or FITID) and its
 * occurrence among identical lines of one file make it unique, so importing a file again adds
 * nothing. A line is `unmatched` until reconciled (`matched`) or set aside (`excluded`).
 */
const STATEMENTS = [
  `CREATE TABLE finance_bank_accounts (
    business_id text NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
    id text NOT NULL,
    name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    account_number_last4 text CHECK (account_number_last4 ~ '^[0-9A-Za-z]{1,4}$'),
    account_code text NOT NULL,
    opening_balance_minor bigint NOT NULL,
    opening_date date NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (business_id, id),
    UNIQUE (business_id, account_code),
    FOREIGN KEY (business_id, account_code) REFERENCES finance_accounts (business_id, code)
  )`,
  `CREATE TABLE finance_bank_imports (
    business_id text NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
    id text NOT NULL,
    bank_account_id text NOT NULL,
    format text NOT NULL CHECK (format IN ('csv', 'ofx', 'camt053')),
    imported integer NOT NULL CHECK (imported >= 0),
    duplicates integer NOT NULL CHECK (duplicates >= 0),
    refused integer NOT NULL CHECK (refused >= 0),
    closing_balance_minor bigint,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (business_id, id),
    FOREIGN KEY (business_id, bank_account_id) REFERENCES finance_bank_accounts (business_id, id)
  )`,
  `CREATE TABLE finance_bank_transactions (
    business_id text NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
    id text NOT NULL,
    bank_account_id text NOT NULL,
    import_id text NOT NULL,
    line_no integer NOT NULL CHECK (line_no > 0),
    date date NOT NULL,
    description text NOT NULL,
    amount_minor bigint NOT NULL,
    reference text,
    occurrence integer NOT NULL CHECK (occurrence > 0),
    status text NOT NULL CHECK (status IN ('unmatched', 'matched', 'excluded')),
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (business_id, id),
    FOREIGN KEY (business_id, bank_account_id) REFERENCES finance_bank_accounts (business_id, id),
    FOREIGN KEY (business_id, import_id) REFERENCES finance_bank_imports (business_id, id)
  )`,
  // What makes a line the same line again: coalesce, so that lines without a reference compare too.
  `CREATE UNIQUE INDEX finance_bank_transactions_line_key ON finance_bank_transactions
     (business_id, bank_account_id, date, amount_minor, coalesce(reference, ''), occurrence)`,
  `CREATE INDEX finance_bank_transactions_list_idx ON finance_bank_transactions
     (business_id, bank_account_id, status, date DESC, id DESC)`,

  `ALTER TABLE finance_journal_entries DROP CONSTRAINT finance_journal_entries_source_type_check`,
  `ALTER TABLE finance_journal_entries ADD CONSTRAINT finance_journal_entries_source_type_check
     CHECK (source_type IN ('bill', 'bill_payment', 'invoice', 'invoice_payment', 'credit_note', 'customer_credit',
                            'card_refund', 'payout', 'bank_opening', 'void', 'manual'))`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}
