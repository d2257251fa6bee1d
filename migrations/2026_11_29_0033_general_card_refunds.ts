import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time */

/**
 * Card refunds and payouts (docs/decisions.md D271). A credit note's refund has a status: refunds
 * paid back by hand are `succeeded` when written; a refund to the card of an invoice paid online
 * goes through the provider that took the payment (`refund_provider`, its payment
 * `refund_payment_id`, its own id of the refund once it answered) and is `pending` until the
 * provider confirms it, or `failed`. A provider's refund id is unique per business and provider,
 * so that its confirmation delivered many times settles one refund. Each payout a provider made to
 * the business's bank account is kept once, by the provider's id of it.
 */
const STATEMENTS = [
  `ALTER TABLE credit_notes ADD COLUMN refund_status text
     CHECK (refund_status IN ('pending', 'succeeded', 'failed'))`,
  `UPDATE credit_notes SET refund_status = 'succeeded' WHERE refund_minor > 0`,
  `ALTER TABLE credit_notes ADD CONSTRAINT credit_notes_refund_status_present
     CHECK ((refund_minor > 0) = (refund_status IS NOT NULL))`,
  `ALTER TABLE credit_notes ADD COLUMN refund_provider text CHECK (refund_provider IN ('test', 'stripe'))`,
  `ALTER TABLE credit_notes ADD COLUMN refund_payment_id text`,
  `ALTER TABLE credit_notes ADD COLUMN refund_provider_id text`,
  `ALTER TABLE credit_notes ADD COLUMN refund_settled_at timestamptz`,
  `ALTER TABLE credit_notes ADD CONSTRAINT credit_notes_refund_provider_consistent
     CHECK ((refund_provider IS NULL) = (refund_payment_id IS NULL)
        AND (refund_provider IS NULL OR refund_method = 'card')
        AND (refund_provider_id IS NULL OR refund_provider IS NOT NULL))`,
  `CREATE UNIQUE INDEX credit_notes_refund_provider_idx
     ON credit_notes (business_id, refund_provider, refund_provider_id) WHERE refund_provider_id IS NOT NULL`,
  `CREATE INDEX credit_notes_refund_payment_idx
     ON credit_notes (business_id, refund_provider, refund_payment_id) WHERE refund_provider IS NOT NULL`,

  `CREATE TABLE payment_payouts (
    business_id text NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
    provider text NOT NULL CHECK (provider IN ('test', 'stripe')),
    provider_payout_id text NOT NULL,
    amount_minor bigint NOT NULL CHECK (amount_minor > 0),
    currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    arrival_date date NOT NULL,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (business_id, provider, provider_payout_id)
  )`,

  `ALTER TABLE finance_journal_entries DROP CONSTRAINT finance_journal_entries_source_type_check`,
  `ALTER TABLE finance_journal_entries ADD CONSTRAINT finance_journal_entries_source_type_check
     CHECK (source_type IN ('bill', 'bill_payment', 'invoice', 'invoice_payment', 'credit_note', 'customer_credit',
                            'card_refund', 'payout', 'void', 'manual'))`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}
