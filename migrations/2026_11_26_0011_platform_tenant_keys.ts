import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time */

/**
 * Every unique key of a tenant table includes business_id (docs/decisions.md D226), so that the
 * schema can be distributed by business_id (docs/scaling.md): a shard can only enforce a key whose
 * rows all live on it. Three keys were global:
 *
 * - `webhooks (id)`: the identity column is unique by itself, and every query and foreign key goes
 *   through the primary key `(business_id, id)`; the second key is dropped.
 * - `loyalty_redemptions (voucher_code)`: a code is looked up within its business only; it becomes
 *   `(business_id, voucher_code)`, which the redemption's retry on a taken code now names.
 * - `finance_vat_thresholds (public_id)`: the configuration is found by its business (the primary
 *   key) and the id only compared; it becomes `(business_id, public_id)`.
 *
 * The constraints keep their names, so an error naming one still names the same rule.
 */
const STATEMENTS = [
  `ALTER TABLE webhooks DROP CONSTRAINT webhooks_id_key`,
  `ALTER TABLE loyalty_redemptions DROP CONSTRAINT loyalty_redemptions_voucher_code_key`,
  `ALTER TABLE loyalty_redemptions
     ADD CONSTRAINT loyalty_redemptions_voucher_code_key UNIQUE (business_id, voucher_code)`,
  `ALTER TABLE finance_vat_thresholds DROP CONSTRAINT finance_vat_thresholds_public_id_key`,
  `ALTER TABLE finance_vat_thresholds
     ADD CONSTRAINT finance_vat_thresholds_public_id_key UNIQUE (business_id, public_id)`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
