import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time, untyped on purpose */

export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(
    db,
    `
    CREATE TABLE businesses (
      id text PRIMARY KEY,
      name text NOT NULL,
      email text NOT NULL,
      plan text NOT NULL,
      base_currency text NOT NULL DEFAULT 'USD',
      created_at timestamptz NOT NULL DEFAULT now()
    );

    -- Sign-in looks users up by email across businesses, so this key is global.
    CREATE TABLE users (
      id text PRIMARY KEY,
      business_id text NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
      email text NOT NULL,
      password_hash text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX users_email_key ON users (lower(email));
    CREATE INDEX users_business_idx ON users (business_id);

    -- Credentials are found by the hash of what the client presents, before the business is known.
    CREATE TABLE access_tokens (
      id text PRIMARY KEY,
      business_id text NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
      user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      token_hash text NOT NULL UNIQUE,
      expires_at timestamptz NOT NULL,
      revoked_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX access_tokens_business_idx ON access_tokens (business_id);

    CREATE TABLE api_keys (
      id text PRIMARY KEY,
      business_id text NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
      name text NOT NULL,
      scope text NOT NULL CHECK (scope IN ('public_loyalty', 'full')),
      prefix text NOT NULL,
      key_hash text NOT NULL UNIQUE,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_used_at timestamptz,
      revoked_at timestamptz
    );
    CREATE INDEX api_keys_business_idx ON api_keys (business_id, created_at DESC);

    -- Gapless per-business counters (invoice numbers): incremented under the row lock of the
    -- creating transaction, so a rolled-back create gives its number back.
    CREATE TABLE sequences (
      business_id text NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
      name text NOT NULL,
      last_value bigint NOT NULL CHECK (last_value >= 0),
      PRIMARY KEY (business_id, name)
    );

    CREATE TABLE customers (
      business_id text NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
      id text NOT NULL,
      name text NOT NULL,
      email text,
      phone text,
      company text,
      address jsonb,
      first_name text,
      last_name text,
      attributes jsonb NOT NULL DEFAULT '{}',
      unsubscribed boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (business_id, id)
    );
    CREATE UNIQUE INDEX customers_email_key ON customers (business_id, lower(email)) WHERE email IS NOT NULL;
    CREATE INDEX customers_created_idx ON customers (business_id, created_at DESC, id DESC);

    CREATE TABLE products (
      business_id text NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
      id text NOT NULL,
      name text NOT NULL,
      sku text NOT NULL,
      price_minor bigint NOT NULL CHECK (price_minor >= 0),
      currency text NOT NULL,
      stock integer NOT NULL DEFAULT 0 CHECK (stock >= 0),
      description text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (business_id, id)
    );
    CREATE UNIQUE INDEX products_sku_key ON products (business_id, lower(sku));
    CREATE INDEX products_created_idx ON products (business_id, created_at DESC, id DESC);

    CREATE TABLE invoices (
      business_id text NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
      id text NOT NULL,
      number text NOT NULL,
      customer_id text NOT NULL,
      status text NOT NULL CHECK (status IN ('draft', 'unpaid', 'paid', 'void')),
      currency text NOT NULL,
      issue_date date,
      due_date date NOT NULL,
      notes text,
      subtotal_minor bigint NOT NULL CHECK (subtotal_minor >= 0),
      tax_minor bigint NOT NULL CHECK (tax_minor >= 0),
      total_minor bigint NOT NULL CHECK (total_minor = subtotal_minor + tax_minor),
      amount_paid_minor bigint NOT NULL DEFAULT 0 CHECK (amount_paid_minor >= 0 AND amount_paid_minor <= total_minor),
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      issued_at timestamptz,
      paid_at timestamptz,
      voided_at timestamptz,
      deleted_at timestamptz,
      PRIMARY KEY (business_id, id),
      UNIQUE (business_id, number),
      FOREIGN KEY (business_id, customer_id) REFERENCES customers (business_id, id),
      CHECK (status <> 'paid' OR amount_paid_minor = total_minor)
    );
    CREATE INDEX invoices_created_idx ON invoices (business_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;
    CREATE INDEX invoices_status_idx ON invoices (business_id, status, due_date) WHERE deleted_at IS NULL;
    CREATE INDEX invoices_customer_idx ON invoices (business_id, customer_id);

    CREATE TABLE invoice_items (
      business_id text NOT NULL,
      id text NOT NULL,
      invoice_id text NOT NULL,
      position integer NOT NULL,
      product_id text,
      description text NOT NULL,
      quantity numeric(14, 4) NOT NULL CHECK (quantity > 0),
      unit_price_minor bigint NOT NULL CHECK (unit_price_minor >= 0),
      tax_rate numeric(7, 3) NOT NULL CHECK (tax_rate >= 0 AND tax_rate <= 100),
      total_minor bigint NOT NULL CHECK (total_minor >= 0),
      tax_minor bigint NOT NULL CHECK (tax_minor >= 0),
      PRIMARY KEY (business_id, id),
      UNIQUE (business_id, invoice_id, position),
      FOREIGN KEY (business_id, invoice_id) REFERENCES invoices (business_id, id) ON DELETE CASCADE,
      FOREIGN KEY (business_id, product_id) REFERENCES products (business_id, id) ON DELETE SET NULL (product_id)
    );
    CREATE INDEX invoice_items_product_idx ON invoice_items (business_id, product_id) WHERE product_id IS NOT NULL;

    CREATE TABLE payments (
      business_id text NOT NULL,
      id text NOT NULL,
      invoice_id text NOT NULL,
      amount_minor bigint NOT NULL CHECK (amount_minor > 0),
      currency text NOT NULL,
      payment_method text NOT NULL,
      payment_date date NOT NULL,
      reference text,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (business_id, id),
      FOREIGN KEY (business_id, invoice_id) REFERENCES invoices (business_id, id)
    );
    CREATE INDEX payments_invoice_idx ON payments (business_id, invoice_id, created_at);

    -- Outbox: one row per catalogue event, written in the transaction of the change.
    CREATE TABLE events (
      business_id text NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
      id text NOT NULL,
      type text NOT NULL,
      data jsonb NOT NULL,
      occurred_at timestamptz NOT NULL,
      dispatched_at timestamptz,
      PRIMARY KEY (business_id, id)
    );
    CREATE INDEX events_occurred_idx ON events (business_id, occurred_at DESC, id DESC);
    CREATE INDEX events_pending_idx ON events (occurred_at) WHERE dispatched_at IS NULL;
  `,
  );
}

/** Runs a script statement by statement (prepared statements take one command each). */
async function runStatements(db: Kysely<any>, script: string): Promise<void> {
  for (const statement of script.split(/;\s*\n/)) {
    const text = statement.replace(/^\s*--.*$/gm, '').trim();
    if (text) await sql.raw(text).execute(db);
  }
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
