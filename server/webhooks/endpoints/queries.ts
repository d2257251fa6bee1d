import { sql, type Insertable, type Updateable } from 'kysely';
import type { Executor, Trx } from '../../platform/db/database.js';
import type { WebhooksTable } from '../../platform/db/types.js';

export async function countWebhooks(db: Executor, businessId: string): Promise<number> {
  const { n } = await db
    .selectFrom('webhooks')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('business_id', '=', businessId)
    .executeTakeFirstOrThrow();
  return Number(n);
}

export async function insertWebhook(
  db: Executor,
  row: Omit<Insertable<WebhooksTable>, 'id'>,
): Promise<number> {
  const { id } = await db.insertInto('webhooks').values(row).returning('id').executeTakeFirstOrThrow();
  return Number(id);
}

export const findWebhook = (db: Executor, businessId: string, id: number) =>
  db
    .selectFrom('webhooks')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .executeTakeFirst();

/** The business's webhooks, newest first. */
export const listWebhooks = (db: Executor, businessId: string) =>
  db
    .selectFrom('webhooks')
    .selectAll()
    .where('business_id', '=', businessId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();

export async function updateWebhook(
  db: Executor,
  businessId: string,
  id: number,
  patch: Omit<Updateable<WebhooksTable>, 'id' | 'business_id'>,
): Promise<void> {
  await db
    .updateTable('webhooks')
    .set(patch)
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .execute();
}

/** Puts `secretSealed` in place and keeps the current secret as the previous one until `previousExpiresAt`. */
export async function rotateSecret(
  db: Executor,
  businessId: string,
  id: number,
  change: { secretSealed: string; previousExpiresAt: Date; at: Date },
): Promise<void> {
  await db
    .updateTable('webhooks')
    .set({
      previous_secret_sealed: sql<string>`secret_sealed`,
      previous_secret_expires_at: change.previousExpiresAt,
      secret_sealed: change.secretSealed,
      updated_at: change.at,
    })
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .execute();
}

/** How many rows were deleted: 0 when the business has no such webhook. */
export async function deleteWebhook(db: Executor, businessId: string, id: number): Promise<number> {
  const res = await db
    .deleteFrom('webhooks')
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

/** The active webhooks of the given businesses, with the events they subscribe to. */
export const activeWebhooksOf = (db: Executor, businessIds: readonly string[]) =>
  db
    .selectFrom('webhooks')
    .select(['business_id', 'id', 'events'])
    .where('business_id', 'in', businessIds)
    .where('is_active', '=', true)
    .execute();

/** The webhook's failure state, locked until the transaction ends. */
export const lockFailureState = (trx: Trx, businessId: string, id: number) =>
  trx
    .selectFrom('webhooks')
    .select(['is_active', 'failing_since'])
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();

/** Clears `failing_since` when it is set (a success after failures). */
export async function clearFailingSince(
  db: Executor,
  businessId: string,
  id: number,
  at: Date,
): Promise<void> {
  await db
    .updateTable('webhooks')
    .set({ failing_since: null, updated_at: at })
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .where('failing_since', 'is not', null)
    .execute();
}
