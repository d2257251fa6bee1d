import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time */

/** The default chart of accounts, with 1030 Payment provider clearing (docs/decisions.md D129, D270). */
const DEFAULT_ACCOUNTS = `
  ('1000', 'Cash', 'asset'),
  ('1010', 'Bank', 'asset'),
  ('1020', 'Mobile money', 'asset'),
  ('1030', 'Payment provider clearing', 'asset'),
  ('1200', 'Accounts receivable', 'asset'),
  ('2000', 'Accounts payable', 'liability'),
  ('2200', 'VAT payable', 'liability'),
  ('2300', 'Customer credit', 'liability'),
  ('4000', 'Sales', 'revenue'),
  ('5000', 'Expenses', 'expense')`;

/**
 * Customers pay online (docs/decisions.md D270): the payment provider a business connected (its
 * secrets sealed, only the key's last four characters kept readable), each checkout a customer
 * opened from an invoice's page, and on a payment the provider's own id of the payment it records,
 * unique per business and provider, so that a provider's confirmation delivered many times records
 * one payment. The ledger gains 1030 Payment provider clearing (where card payments wait for the
 * provider's payout) and the `customer_credit` source: money paid online beyond what the invoice
 * still owed, kept as the customer's credit.
 */
const STATEMENTS = [
  `CREATE TABLE payment_connections (
    business_id text PRIMARY KEY REFERENCES businesses (id) ON DELETE CASCADE,
    provider text NOT NULL CHECK (provider IN ('test', 'stripe')),
    secret_key_sealed text,
    secret_key_hint text CHECK (secret_key_hint IS NULL OR length(secret_key_hint) <= 4),
    webhook_secret_sealed text,
    updated_at timestamptz NOT NULL,
    CHECK ((secret_key_sealed IS NULL) = (secret_key_hint IS NULL))
  )`,
  `CREATE TABLE payment_checkouts (
    business_id text NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
    id text NOT NULL,
    invoice_id text NOT NULL,
    provider text NOT NULL CHECK (provider IN ('test', 'stripe')),
    provider_session text NOT NULL,
    amount_minor bigint NOT NULL CHECK (amount_minor > 0),
    currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    status text NOT NULL CHECK (status IN ('open', 'processing', 'succeeded', 'declined')),
    provider_payment_id text,
    payment_id text,
    credited_minor bigint NOT NULL DEFAULT 0 CHECK (credited_minor >= 0),
    created_at timestamptz NOT NULL,
    completed_at timestamptz,
    PRIMARY KEY (business_id, id),
    UNIQUE (business_id, provider, provider_session),
    FOREIGN KEY (business_id, invoice_id) REFERENCES invoices (business_id, id),
    CHECK ((status = 'succeeded') = (provider_payment_id IS NOT NULL))
  )`,
  `CREATE INDEX payment_checkouts_invoice_idx ON payment_checkouts (business_id, invoice_id)`,
  `ALTER TABLE payments ADD COLUMN provider text`,
  `ALTER TABLE payments ADD COLUMN provider_payment_id text`,
  `ALTER TABLE payments ADD CONSTRAINT payments_provider_check
     CHECK ((provider IS NULL) = (provider_payment_id IS NULL))`,
  `CREATE UNIQUE INDEX payments_provider_payment_idx
     ON payments (business_id, provider, provider_payment_id) WHERE provider IS NOT NULL`,

  `ALTER TABLE finance_journal_entries DROP CONSTRAINT finance_journal_entries_source_type_check`,
  `ALTER TABLE finance_journal_entries ADD CONSTRAINT finance_journal_entries_source_type_check
     CHECK (source_type IN ('bill', 'bill_payment', 'invoice', 'invoice_payment', 'credit_note', 'customer_credit',
                            'void', 'manual'))`,
  `CREATE OR REPLACE FUNCTION finance_add_default_accounts(business text) RETURNS void LANGUAGE sql AS $$
     INSERT INTO finance_accounts (business_id, code, name, type, system)
     SELECT business, code, name, type, true FROM (VALUES ${DEFAULT_ACCOUNTS}) AS a (code, name, type)
     ON CONFLICT (business_id, code) DO NOTHING
   $$`,
  // A business that already made its own 1030 keeps it, under its name.
  `INSERT INTO finance_accounts (business_id, code, name, type, system)
   SELECT id, '1030', 'Payment provider clearing', 'asset', true FROM businesses
   ON CONFLICT (business_id, code) DO NOTHING`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}
