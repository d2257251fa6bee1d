import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time */

const STATEMENTS = [
  // Net revenue (pre-tax totals of issued, non-void invoices) and invoice counts per currency and
  // issue date, kept in the transaction that issues or voids an invoice: the sales schedule, the
  // revenue calculator and the VAT threshold read days, not invoices. Spread over 16 rows per day
  // (picked by the invoice) so concurrent issues of one day do not queue on one row.
  `CREATE TABLE finance_sales_days (
    business_id text NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
    currency text NOT NULL,
    date date NOT NULL,
    slot smallint NOT NULL,
    revenue numeric(30, 0) NOT NULL,
    invoices integer NOT NULL,
    PRIMARY KEY (business_id, currency, date, slot)
  )`,
  `INSERT INTO finance_sales_days (business_id, currency, date, slot, revenue, invoices)
   SELECT business_id, currency, issue_date, 0, sum(subtotal_minor), count(*)
   FROM invoices
   WHERE status IN ('unpaid', 'paid') AND issue_date IS NOT NULL AND deleted_at IS NULL
   GROUP BY business_id, currency, issue_date`,
  // The sales schedule's items: issued invoices of a currency by issue date, then number.
  `CREATE INDEX invoices_sales_idx ON invoices (business_id, currency, issue_date, number)
     WHERE status IN ('unpaid', 'paid') AND deleted_at IS NULL`,

  // One VAT-registration threshold configuration per business.
  `CREATE TABLE finance_vat_thresholds (
    business_id text NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
    public_id text NOT NULL,
    country text NOT NULL CHECK (country ~ '^[A-Z]{2}$'),
    threshold_amount bigint NOT NULL CHECK (threshold_amount BETWEEN 1 AND 999999999999999),
    currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    period_type text NOT NULL CHECK (period_type IN ('annual', 'quarterly', 'rolling_12_months')),
    alert_at_percentage integer NOT NULL CHECK (alert_at_percentage BETWEEN 1 AND 100),
    alert_email text NOT NULL,
    registered boolean NOT NULL DEFAULT false,
    registration_date date,
    registration_number text,
    -- The window (e.g. 2026, 2026-Q4, rolling) in which each alert was last sent; cleared to re-arm.
    alerted_level_window text,
    alerted_full_window text,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (business_id),
    UNIQUE (public_id),
    CHECK (NOT registered OR (registration_date IS NOT NULL AND registration_number IS NOT NULL))
  )`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
