import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time */

/** The default chart of accounts, with 2300 Customer credit (docs/decisions.md D129, D241). */
const DEFAULT_ACCOUNTS = `
  ('1000', 'Cash', 'asset'),
  ('1010', 'Bank', 'asset'),
  ('1020', 'Mobile money', 'asset'),
  ('1200', 'Accounts receivable', 'asset'),
  ('2000', 'Accounts payable', 'liability'),
  ('2200', 'VAT payable', 'liability'),
  ('2300', 'Customer credit', 'liability'),
  ('4000', 'Sales', 'revenue'),
  ('5000', 'Expenses', 'expense')`;

/**
 * Credit notes (docs/decisions.md D241): numbered per business, each against one invoice, its money
 * split between what the invoice still owes (`credit_minor`), a refund and the customer's credit
 * balance. The invoice keeps what credit notes took off it (`amount_credited_minor`, within what it
 * owes) and their totals (`credit_notes_minor`, never above its total), so the database refuses an
 * over-credit whatever the code does. A customer's credit is a balance per currency that never goes
 * below zero. The ledger gains the `credit_note` source and account 2300 Customer credit, for new
 * businesses (the default chart) and existing ones.
 */
const STATEMENTS = [
  `ALTER TABLE invoices ADD COLUMN amount_credited_minor bigint NOT NULL DEFAULT 0`,
  `ALTER TABLE invoices ADD COLUMN credit_notes_minor bigint NOT NULL DEFAULT 0`,
  // The checks of what was paid name amount_paid_minor; they are replaced by checks of paid plus credited.
  `DO $$
   DECLARE c record;
   BEGIN
     FOR c IN SELECT conname FROM pg_constraint
       WHERE conrelid = 'invoices'::regclass AND contype = 'c'
         AND pg_get_constraintdef(oid) LIKE '%amount_paid_minor%'
     LOOP
       EXECUTE format('ALTER TABLE invoices DROP CONSTRAINT %I', c.conname);
     END LOOP;
   END $$`,
  `ALTER TABLE invoices ADD CONSTRAINT invoices_settled_check
     CHECK (amount_paid_minor >= 0 AND amount_credited_minor >= 0
       AND amount_paid_minor + amount_credited_minor <= total_minor)`,
  `ALTER TABLE invoices ADD CONSTRAINT invoices_paid_check
     CHECK (status <> 'paid' OR amount_paid_minor + amount_credited_minor = total_minor)`,
  `ALTER TABLE invoices ADD CONSTRAINT invoices_credit_notes_check
     CHECK (amount_credited_minor <= credit_notes_minor AND credit_notes_minor <= total_minor)`,

  `CREATE TABLE credit_notes (
    business_id text NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
    id text NOT NULL,
    number text NOT NULL,
    invoice_id text NOT NULL,
    customer_id text NOT NULL,
    status text NOT NULL CHECK (status IN ('issued', 'void')),
    currency text NOT NULL,
    issue_date date NOT NULL,
    reason text NOT NULL,
    subtotal_minor bigint NOT NULL CHECK (subtotal_minor >= 0),
    tax_minor bigint NOT NULL CHECK (tax_minor >= 0),
    total_minor bigint NOT NULL CHECK (total_minor > 0 AND total_minor = subtotal_minor + tax_minor),
    credit_minor bigint NOT NULL CHECK (credit_minor >= 0),
    refund_minor bigint NOT NULL CHECK (refund_minor >= 0),
    refund_method text CHECK (refund_method IN ('bank_transfer', 'cash', 'check', 'mobile_money', 'card')),
    customer_credit_minor bigint NOT NULL CHECK (customer_credit_minor >= 0),
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    voided_at timestamptz,
    sent_at timestamptz,
    PRIMARY KEY (business_id, id),
    UNIQUE (business_id, number),
    FOREIGN KEY (business_id, invoice_id) REFERENCES invoices (business_id, id),
    FOREIGN KEY (business_id, customer_id) REFERENCES customers (business_id, id),
    CHECK (credit_minor + refund_minor + customer_credit_minor = total_minor),
    CHECK (refund_minor = 0 OR refund_method IS NOT NULL),
    CHECK ((status = 'void') = (voided_at IS NOT NULL))
  )`,
  `CREATE INDEX credit_notes_created_idx ON credit_notes (business_id, created_at DESC, id DESC)`,
  `CREATE INDEX credit_notes_invoice_idx ON credit_notes (business_id, invoice_id)`,
  `CREATE INDEX credit_notes_customer_idx ON credit_notes (business_id, customer_id)`,
  `CREATE TABLE credit_note_items (
    business_id text NOT NULL,
    id text NOT NULL,
    credit_note_id text NOT NULL,
    position integer NOT NULL,
    product_id text,
    description text NOT NULL,
    quantity numeric(14, 4) NOT NULL CHECK (quantity > 0),
    unit_price_minor bigint NOT NULL CHECK (unit_price_minor >= 0),
    tax_rate numeric(7, 3) NOT NULL CHECK (tax_rate >= 0 AND tax_rate <= 100),
    discount_percent numeric(5, 2) NOT NULL DEFAULT 0 CHECK (discount_percent >= 0 AND discount_percent <= 100),
    total_minor bigint NOT NULL CHECK (total_minor >= 0),
    tax_minor bigint NOT NULL CHECK (tax_minor >= 0),
    PRIMARY KEY (business_id, id),
    UNIQUE (business_id, credit_note_id, position),
    FOREIGN KEY (business_id, credit_note_id) REFERENCES credit_notes (business_id, id) ON DELETE CASCADE,
    FOREIGN KEY (business_id, product_id) REFERENCES products (business_id, id) ON DELETE SET NULL (product_id)
  )`,

  `CREATE TABLE customer_credit_balances (
    business_id text NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
    customer_id text NOT NULL,
    currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    balance_minor bigint NOT NULL CHECK (balance_minor >= 0 AND balance_minor <= 999999999999999),
    PRIMARY KEY (business_id, customer_id, currency),
    FOREIGN KEY (business_id, customer_id) REFERENCES customers (business_id, id)
  )`,

  `ALTER TABLE finance_journal_entries DROP CONSTRAINT finance_journal_entries_source_type_check`,
  `ALTER TABLE finance_journal_entries ADD CONSTRAINT finance_journal_entries_source_type_check
     CHECK (source_type IN ('bill', 'bill_payment', 'invoice', 'invoice_payment', 'credit_note', 'void', 'manual'))`,
  `CREATE OR REPLACE FUNCTION finance_add_default_accounts(business text) RETURNS void LANGUAGE sql AS $$
     INSERT INTO finance_accounts (business_id, code, name, type, system)
     SELECT business, code, name, type, true FROM (VALUES ${DEFAULT_ACCOUNTS}) AS a (code, name, type)
     ON CONFLICT (business_id, code) DO NOTHING
   $$`,
  // A business that already made its own 2300 keeps it, under its name.
  `INSERT INTO finance_accounts (business_id, code, name, type, system)
   SELECT id, '2300', 'Customer credit', 'liability', true FROM businesses
   ON CONFLICT (business_id, code) DO NOTHING`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
