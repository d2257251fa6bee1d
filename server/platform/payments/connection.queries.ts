import type { Insertable } from 'kysely';
import type { Executor } from '../db/database.js';
import type { PaymentConnectionsTable } from '../db/types.js';

export async function findConnection(db: Executor, businessId: string) {
  return db
    .selectFrom('payment_connections')
    .selectAll()
    .where('business_id', '=', businessId)
    .executeTakeFirst();
}

/** Connects the provider given, replacing the one before (and its secrets). */
export async function upsertConnection(db: Executor, values: Insertable<PaymentConnectionsTable>) {
  return db
    .insertInto('payment_connections')
    .values(values)
    .onConflict((oc) =>
      oc.column('business_id').doUpdateSet({
        provider: values.provider,
        secret_key_sealed: values.secret_key_sealed ?? null,
        secret_key_hint: values.secret_key_hint ?? null,
        webhook_secret_sealed: values.webhook_secret_sealed ?? null,
        updated_at: values.updated_at,
      }),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
}
