import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time */

/**
 * Reconciling bank accounts (docs/decisions.md D273). A statement line is reconciled by matches, each
 * tying it to the ledger line on the bank account's chart account that it stands for: a payment the
 * match recorded, an entry it posted (a categorised line, or money moved from 1010 Bank into the
 * bank account), or a line the ledger held already. A ledger line is reconciled at most once, which
 * the unique indexes hold under concurrency. Rules suggest an account for lines on import.
 */
const STATEMENTS = [
  `CREATE TABLE finance_bank_rules (
    business_id text NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
    id text NOT NULL,
    description_contains text NOT NULL CHECK (length(description_contains) BETWEEN 1 AND 200),
    direction text CHECK (direction IN ('in', 'out')),
    min_amount_minor bigint CHECK (min_amount_minor >= 0),
    max_amount_minor bigint CHECK (max_amount_minor >= 0),
    account_code text NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (business_id, id),
    FOREIGN KEY (business_id, account_code) REFERENCES finance_accounts (business_id, code),
    CHECK (min_amount_minor IS NULL OR max_amount_minor IS NULL OR min_amount_minor <= max_amount_minor)
  )`,
  `ALTER TABLE finance_bank_transactions ADD COLUMN rule_id text`,
  `ALTER TABLE finance_bank_transactions ADD CONSTRAINT finance_bank_transactions_rule_fk
     FOREIGN KEY (business_id, rule_id) REFERENCES finance_bank_rules (business_id, id) ON DELETE SET NULL (rule_id)`,

  // The lines of one import, which the rules are applied to as it is written.
  `CREATE INDEX finance_bank_transactions_import_idx ON finance_bank_transactions (business_id, import_id)`,

  `CREATE TABLE finance_bank_matches (
    business_id text NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
    id text NOT NULL,
    bank_transaction_id text NOT NULL,
    position integer NOT NULL CHECK (position > 0),
    kind text NOT NULL CHECK (kind IN ('invoice', 'bill', 'journal_line', 'account')),
    invoice_id text,
    bill_id text,
    payment_id text,
    account_code text,
    amount_minor bigint NOT NULL CHECK (amount_minor > 0),
    recorded text CHECK (recorded IN ('payment', 'entry')),
    entry_id text NOT NULL,
    line_no integer NOT NULL,
    matched_entry_id text,
    matched_line_no integer,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (business_id, id),
    UNIQUE (business_id, bank_transaction_id, position),
    FOREIGN KEY (business_id, bank_transaction_id) REFERENCES finance_bank_transactions (business_id, id),
    CHECK ((matched_entry_id IS NULL) = (matched_line_no IS NULL))
  )`,
  // A ledger line stands for one statement line at most.
  `CREATE UNIQUE INDEX finance_bank_matches_line_key ON finance_bank_matches (business_id, entry_id, line_no)`,
  `CREATE UNIQUE INDEX finance_bank_matches_matched_key ON finance_bank_matches
     (business_id, matched_entry_id, matched_line_no) WHERE matched_entry_id IS NOT NULL`,

  `ALTER TABLE payments ADD COLUMN bank_account_id text`,
  `ALTER TABLE finance_bill_payments ADD COLUMN bank_account_id text`,
  `ALTER TABLE finance_bill_payments ADD CONSTRAINT finance_bill_payments_bank_fk
     FOREIGN KEY (business_id, bank_account_id) REFERENCES finance_bank_accounts (business_id, id)`,

  // Suggestions look up open documents by what they still owe, nearest first.
  // (the due date last, for the order among equal amounts: the planner cannot estimate how many
  // documents share an amount, so the index must give the order as well as the condition).
  `CREATE INDEX invoices_open_due_idx ON invoices
     (business_id, currency, (total_minor - amount_paid_minor - amount_credited_minor), due_date) WHERE status = 'unpaid'`,
  `CREATE INDEX finance_bills_open_due_idx ON finance_bills
     (business_id, currency, (amount - amount_paid), due_date) WHERE status = 'pending'`,
  // ... and money already in the ledger of 1010 Bank or a bank account, by amount.
  `CREATE INDEX finance_journal_lines_bank_amount_idx ON finance_journal_lines
     (business_id, account_code, currency, (debit - credit))
     WHERE account_code = '1010' OR account_code BETWEEN '1100' AND '1199'`,

  `ALTER TABLE finance_journal_entries DROP CONSTRAINT finance_journal_entries_source_type_check`,
  `ALTER TABLE finance_journal_entries ADD CONSTRAINT finance_journal_entries_source_type_check
     CHECK (source_type IN ('bill', 'bill_payment', 'invoice', 'invoice_payment', 'credit_note', 'customer_credit',
                            'card_refund', 'payout', 'bank_opening', 'bank_transaction', 'void', 'manual'))`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}
