import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time */

/**
 * Recurring invoices (docs/decisions.md D251, D252): a schedule with the lines each invoice is made
 * with, priced when written. The invoices it makes name it and the date of their period, and the
 * pair is unique, so each period has one invoice whatever the number of workers or clock advances.
 */
const STATEMENTS = [
  `CREATE TABLE recurring_invoices (
    business_id text NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
    id text NOT NULL,
    customer_id text NOT NULL,
    currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    subtotal_minor bigint NOT NULL CHECK (subtotal_minor >= 0),
    tax_minor bigint NOT NULL CHECK (tax_minor >= 0),
    total_minor bigint NOT NULL CHECK (total_minor = subtotal_minor + tax_minor),
    notes text,
    interval text NOT NULL CHECK (interval IN ('week', 'month', 'quarter', 'year')),
    interval_count integer NOT NULL CHECK (interval_count BETWEEN 1 AND 12),
    start_date date NOT NULL,
    end_after_count integer CHECK (end_after_count BETWEEN 1 AND 1000),
    end_date date,
    due_days integer NOT NULL CHECK (due_days BETWEEN 0 AND 365),
    auto_send boolean NOT NULL,
    status text NOT NULL CHECK (status IN ('active', 'paused', 'ended')),
    next_period integer NOT NULL CHECK (next_period >= 0),
    next_run_on date,
    invoices_created integer NOT NULL DEFAULT 0 CHECK (invoices_created >= 0),
    last_run_on date,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    ended_at timestamptz,
    PRIMARY KEY (business_id, id),
    FOREIGN KEY (business_id, customer_id) REFERENCES customers (business_id, id),
    CHECK (end_after_count IS NULL OR end_date IS NULL),
    CHECK (end_date IS NULL OR end_date >= start_date),
    CHECK ((status = 'ended') = (ended_at IS NOT NULL)),
    CHECK ((status = 'ended') = (next_run_on IS NULL))
  )`,
  `CREATE INDEX recurring_invoices_list_idx ON recurring_invoices (business_id, created_at DESC, id DESC)`,
  `CREATE INDEX recurring_invoices_due_idx ON recurring_invoices (next_run_on, business_id, id) WHERE status = 'active'`,
  `CREATE TABLE recurring_invoice_items (
    business_id text NOT NULL,
    id text NOT NULL,
    recurring_invoice_id text NOT NULL,
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
    UNIQUE (business_id, recurring_invoice_id, position),
    FOREIGN KEY (business_id, recurring_invoice_id) REFERENCES recurring_invoices (business_id, id) ON DELETE CASCADE,
    FOREIGN KEY (business_id, product_id) REFERENCES products (business_id, id) ON DELETE SET NULL (product_id)
  )`,
  `ALTER TABLE invoices ADD COLUMN recurring_invoice_id text`,
  `ALTER TABLE invoices ADD COLUMN recurring_period_on date`,
  `ALTER TABLE invoices ADD CONSTRAINT invoices_recurring_fkey
     FOREIGN KEY (business_id, recurring_invoice_id) REFERENCES recurring_invoices (business_id, id)`,
  `ALTER TABLE invoices ADD CONSTRAINT invoices_recurring_period_check
     CHECK ((recurring_invoice_id IS NULL) = (recurring_period_on IS NULL))`,
  `ALTER TABLE invoices ADD CONSTRAINT invoices_recurring_period_key
     UNIQUE (business_id, recurring_invoice_id, recurring_period_on)`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
