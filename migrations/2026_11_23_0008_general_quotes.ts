import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time */

const STATEMENTS = [
  `CREATE TABLE quotes (
    business_id text NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
    id text NOT NULL,
    number text NOT NULL,
    customer_id text NOT NULL,
    status text NOT NULL CHECK (status IN ('draft', 'sent', 'accepted', 'declined', 'converted')),
    currency text NOT NULL,
    valid_until date NOT NULL,
    notes text,
    subtotal_minor bigint NOT NULL CHECK (subtotal_minor >= 0),
    tax_minor bigint NOT NULL CHECK (tax_minor >= 0),
    total_minor bigint NOT NULL CHECK (total_minor = subtotal_minor + tax_minor AND total_minor <= 999999999999999),
    invoice_id text,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    sent_at timestamptz,
    accepted_at timestamptz,
    declined_at timestamptz,
    converted_at timestamptz,
    deleted_at timestamptz,
    PRIMARY KEY (business_id, id),
    UNIQUE (business_id, number),
    FOREIGN KEY (business_id, customer_id) REFERENCES customers (business_id, id),
    FOREIGN KEY (business_id, invoice_id) REFERENCES invoices (business_id, id),
    CHECK ((status = 'converted') = (invoice_id IS NOT NULL))
  )`,
  `CREATE INDEX quotes_list_idx ON quotes (business_id, created_at DESC, id DESC) WHERE deleted_at IS NULL`,
  `CREATE INDEX quotes_status_idx ON quotes (business_id, status, valid_until) WHERE deleted_at IS NULL`,
  `CREATE TABLE quote_items (
    business_id text NOT NULL,
    id text NOT NULL,
    quote_id text NOT NULL,
    position integer NOT NULL,
    product_id text,
    description text NOT NULL,
    quantity numeric(14, 4) NOT NULL CHECK (quantity > 0),
    unit_price_minor bigint NOT NULL CHECK (unit_price_minor >= 0),
    tax_rate numeric(7, 3) NOT NULL CHECK (tax_rate >= 0 AND tax_rate <= 100),
    total_minor bigint NOT NULL CHECK (total_minor >= 0),
    tax_minor bigint NOT NULL CHECK (tax_minor >= 0),
    PRIMARY KEY (business_id, id),
    UNIQUE (business_id, quote_id, position),
    FOREIGN KEY (business_id, quote_id) REFERENCES quotes (business_id, id) ON DELETE CASCADE,
    FOREIGN KEY (business_id, product_id) REFERENCES products (business_id, id) ON DELETE SET NULL (product_id)
  )`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
