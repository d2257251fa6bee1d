import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time */

/**
 * Recurring bills (docs/decisions.md D251, D252): the same schedule as recurring invoices, in the
 * finance domain's tables. The bills it records name it and the date of their period, and the pair is
 * unique, so each period has one bill whatever the number of workers or clock advances.
 */
const STATEMENTS = [
  `CREATE TABLE finance_recurring_bills (
    business_id text NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
    id text NOT NULL,
    vendor_id text NOT NULL,
    currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    amount bigint NOT NULL CHECK (amount BETWEEN 1 AND 999999999999999),
    notes text,
    interval text NOT NULL CHECK (interval IN ('week', 'month', 'quarter', 'year')),
    interval_count integer NOT NULL CHECK (interval_count BETWEEN 1 AND 12),
    start_date date NOT NULL,
    end_after_count integer CHECK (end_after_count BETWEEN 1 AND 1000),
    end_date date,
    due_days integer NOT NULL CHECK (due_days BETWEEN 0 AND 365),
    status text NOT NULL CHECK (status IN ('active', 'paused', 'ended')),
    next_period integer NOT NULL CHECK (next_period >= 0),
    next_run_on date,
    bills_created integer NOT NULL DEFAULT 0 CHECK (bills_created >= 0),
    last_run_on date,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    ended_at timestamptz,
    PRIMARY KEY (business_id, id),
    FOREIGN KEY (business_id, vendor_id) REFERENCES finance_vendors (business_id, id),
    CHECK (end_after_count IS NULL OR end_date IS NULL),
    CHECK (end_date IS NULL OR end_date >= start_date),
    CHECK ((status = 'ended') = (ended_at IS NOT NULL)),
    CHECK ((status = 'ended') = (next_run_on IS NULL))
  )`,
  `CREATE INDEX finance_recurring_bills_list_idx ON finance_recurring_bills (business_id, created_at DESC, id DESC)`,
  `CREATE INDEX finance_recurring_bills_due_idx ON finance_recurring_bills (next_run_on, business_id, id) WHERE status = 'active'`,
  `CREATE TABLE finance_recurring_bill_items (
    business_id text NOT NULL,
    recurring_bill_id text NOT NULL,
    position integer NOT NULL,
    description text NOT NULL,
    quantity numeric(14, 4) NOT NULL CHECK (quantity > 0),
    unit_price bigint NOT NULL CHECK (unit_price BETWEEN 0 AND 999999999999999),
    amount bigint NOT NULL CHECK (amount BETWEEN 0 AND 999999999999999),
    PRIMARY KEY (business_id, recurring_bill_id, position),
    FOREIGN KEY (business_id, recurring_bill_id) REFERENCES finance_recurring_bills (business_id, id) ON DELETE CASCADE
  )`,
  `ALTER TABLE finance_bills ADD COLUMN recurring_bill_id text`,
  `ALTER TABLE finance_bills ADD COLUMN recurring_period_on date`,
  `ALTER TABLE finance_bills ADD CONSTRAINT finance_bills_recurring_fkey
     FOREIGN KEY (business_id, recurring_bill_id) REFERENCES finance_recurring_bills (business_id, id)`,
  `ALTER TABLE finance_bills ADD CONSTRAINT finance_bills_recurring_period_check
     CHECK ((recurring_bill_id IS NULL) = (recurring_period_on IS NULL))`,
  `ALTER TABLE finance_bills ADD CONSTRAINT finance_bills_recurring_period_key
     UNIQUE (business_id, recurring_bill_id, recurring_period_on)`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
