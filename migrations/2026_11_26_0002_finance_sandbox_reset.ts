import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time */

const DEFAULT_ACCOUNTS = `
  ('1000', 'Cash', 'asset'),
  ('1010', 'Bank', 'asset'),
  ('1020', 'Mobile money', 'asset'),
  ('1200', 'Accounts receivable', 'asset'),
  ('2000', 'Accounts payable', 'liability'),
  ('2200', 'VAT payable', 'liability'),
  ('4000', 'Sales', 'revenue'),
  ('5000', 'Expenses', 'expense')`;

/**
 * A sandbox reset (docs/decisions.md D82) empties a sandbox's ledger and gives it the default chart
 * again. Posted entries stay immutable: a live business's can never be changed or deleted; a
 * sandbox's can be deleted (never changed), which only its reset does.
 */
const STATEMENTS = [
  `CREATE OR REPLACE FUNCTION finance_journal_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF TG_OP = 'DELETE' AND EXISTS (
       SELECT 1 FROM businesses WHERE id = OLD.business_id AND environment = 'sandbox'
     ) THEN
       RETURN OLD;
     END IF;
     RAISE EXCEPTION 'posted journal entries cannot be changed or deleted; post a correcting entry'
       USING ERRCODE = '55000';
   END $$`,
  // The default chart, for a new business (the trigger) and for a sandbox after its reset.
  `CREATE FUNCTION finance_add_default_accounts(business text) RETURNS void LANGUAGE sql AS $$
     INSERT INTO finance_accounts (business_id, code, name, type, system)
     SELECT business, code, name, type, true FROM (VALUES ${DEFAULT_ACCOUNTS}) AS a (code, name, type)
     ON CONFLICT (business_id, code) DO NOTHING
   $$`,
  `CREATE OR REPLACE FUNCTION finance_default_accounts() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     PERFORM finance_add_default_accounts(NEW.id);
     RETURN NULL;
   END $$`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
