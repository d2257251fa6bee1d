import { sql } from 'kysely';
import type { Executor, Trx } from './db/database.js';

/**
 * Takes the transaction-scoped advisory lock that marks a key's request as running; false when
 * another transaction holds it. Released by the commit or rollback, or by the database when the
 * holder's connection dies, so a crashed request never blocks its retry.
 */
export async function tryLockKey(trx: Trx, lockId: bigint): Promise<boolean> {
  const { rows } = await sql<{ locked: boolean }>`
    SELECT pg_try_advisory_xact_lock(${lockId.toString()}::bigint) AS locked`.execute(trx);
  return rows[0]?.locked === true;
}

export function findKey(db: Executor, businessId: string, key: string) {
  return db
    .selectFrom('idempotency_keys')
    .select(['fingerprint', 'status_code', 'response_body', 'created_at'])
    .where('business_id', '=', businessId)
    .where('key', '=', key)
    .executeTakeFirst();
}

/** Stores a key's response, replacing an expired row of the same key. */
export async function storeKey(
  db: Executor,
  row: {
    business_id: string;
    key: string;
    fingerprint: string;
    status_code: number;
    response_body: string;
    created_at: Date;
  },
): Promise<void> {
  await db
    .insertInto('idempotency_keys')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['business_id', 'key']).doUpdateSet((eb) => ({
        fingerprint: eb.ref('excluded.fingerprint'),
        status_code: eb.ref('excluded.status_code'),
        response_body: eb.ref('excluded.response_body'),
        created_at: eb.ref('excluded.created_at'),
      })),
    )
    .execute();
}

/** Deletes keys stored before `before`; returns how many. */
export async function deleteKeysBefore(db: Executor, before: Date): Promise<number> {
  const result = await db.deleteFrom('idempotency_keys').where('created_at', '<=', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
