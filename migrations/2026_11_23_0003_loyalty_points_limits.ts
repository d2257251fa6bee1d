import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time */

/**
 * Point balances stay within what JavaScript numbers (and JSON clients) hold exactly:
 * Number.MAX_SAFE_INTEGER. The service refuses a credit that would pass it; these constraints back
 * that rule in the database. Each is added NOT VALID first and then validated, so existing rows are
 * checked without holding a lock that blocks writes for the whole scan.
 */
const MAX = '9007199254740991';

const CONSTRAINTS: [table: string, name: string, check: string][] = [
  ['loyalty_members', 'loyalty_members_points_balance_max', `points_balance <= ${MAX}`],
  ['loyalty_members', 'loyalty_members_lifetime_points_max', `lifetime_points <= ${MAX}`],
  ['loyalty_transactions', 'loyalty_transactions_balance_after_max', `balance_after <= ${MAX}`],
  ['loyalty_transactions', 'loyalty_transactions_points_max', `points BETWEEN -${MAX} AND ${MAX}`],
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const [table, name, check] of CONSTRAINTS) {
    await sql.raw(`ALTER TABLE ${table} ADD CONSTRAINT ${name} CHECK (${check}) NOT VALID`).execute(db);
    await sql.raw(`ALTER TABLE ${table} VALIDATE CONSTRAINT ${name}`).execute(db);
  }
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
