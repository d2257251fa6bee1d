import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time */

/**
 * Business settings (`GET` / `PATCH /v1/business`): the time zone that decides "today" for the
 * business, its country, postal address and tax number. Existing businesses keep UTC (and their
 * base currency, USD unless set).
 */
const STATEMENTS = [
  `ALTER TABLE businesses
     ADD COLUMN timezone text NOT NULL DEFAULT 'UTC',
     ADD COLUMN country text CHECK (country ~ '^[A-Z]{2}$'),
     ADD COLUMN address jsonb,
     ADD COLUMN tax_number text`,
  `ALTER TABLE businesses ADD CONSTRAINT businesses_base_currency_check CHECK (base_currency ~ '^[A-Z]{3}$')`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
