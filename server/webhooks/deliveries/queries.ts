import type { Insertable } from 'kysely';
import type { ListDeliveriesQuery } from '../../../contract/webhooks/index.js';
import type { Executor, Trx } from '../../platform/db/database.js';
import { pageWithTotal } from '../../platform/db/paged.js';
import type { DeliveryRow, WebhookAttemptsTable, WebhookDeliveriesTable } from '../../platform/db/types.js';

export type NewAttempt = Insertable<WebhookAttemptsTable>;

/** A delivery's key, as jobs name it. */
export interface DeliveryKey {
  business_id: string;
  id: string;
}

/** One page of a webhook's deliveries, newest first, and how many match in all. */
export async function listDeliveries(
  db: Executor,
  businessId: string,
  webhookId: number,
  query: ListDeliveriesQuery,
) {
  let base = db
    .selectFrom('webhook_deliveries')
    .where('business_id', '=', businessId)
    .where('webhook_id', '=', webhookId);
  if (query.status) base = base.where('status', '=', query.status);
  return pageWithTotal(base.selectAll(), (q) => q.orderBy('created_at', 'desc').orderBy('id', 'desc'), query);
}

/** The attempts of the given deliveries, oldest first. */
export const attemptsOf = (db: Executor, businessId: string, deliveryIds: readonly string[]) =>
  db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('delivery_id', 'in', deliveryIds)
    .orderBy('attempted_at')
    .orderBy('id')
    .execute();

export const findDelivery = (db: Executor, businessId: string, webhookId: number, id: string) =>
  db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('business_id', '=', businessId)
    .where('webhook_id', '=', webhookId)
    .where('id', '=', id)
    .executeTakeFirst();

/** Inserts deliveries, skipping any that exist for the same webhook and event; returns the new ones. */
export const insertDeliveries = (trx: Trx, rows: readonly Insertable<WebhookDeliveriesTable>[]) =>
  trx
    .insertInto('webhook_deliveries')
    .values(rows)
    .onConflict((oc) => oc.columns(['business_id', 'webhook_id', 'event_id']).doNothing())
    .returning(['business_id', 'id'])
    .execute();

/**
 * Sets the lease on a delivery that nobody holds (no lease, or an expired one) and, unless
 * `anyStatus`, that is pending; returns the delivery with its webhook's columns, in one statement.
 * undefined when the delivery is held, not pending, or unknown.
 */
export function leaseDelivery(
  db: Executor,
  key: { businessId: string; deliveryId: string },
  lease: { now: Date; until: Date; anyStatus: boolean },
) {
  let q = db
    .updateTable('webhook_deliveries as d')
    .from('webhooks as w')
    .set({ locked_until: lease.until })
    .whereRef('w.business_id', '=', 'd.business_id')
    .whereRef('w.id', '=', 'd.webhook_id')
    .where('d.business_id', '=', key.businessId)
    .where('d.id', '=', key.deliveryId)
    .where((eb) => eb.or([eb('d.locked_until', 'is', null), eb('d.locked_until', '<', lease.now)]));
  if (!lease.anyStatus) q = q.where('d.status', '=', 'pending');
  return q
    .returningAll('d')
    .returning([
      'w.url',
      'w.is_active',
      'w.secret_sealed',
      'w.previous_secret_sealed',
      'w.previous_secret_expires_at',
      'w.failing_since',
    ])
    .executeTakeFirst();
}

/** What an attempt changes on its delivery besides releasing the lease. */
export interface DeliveryChange {
  status?: DeliveryRow['status'];
  next_attempt_at?: Date | null;
  /** Whether the attempt counts towards the retry schedule (redeliveries do not). */
  countAttempt: boolean;
}

/** Applies `change` to the delivery and releases its lease. */
export async function updateDelivery(
  db: Executor,
  businessId: string,
  id: string,
  { countAttempt, ...patch }: DeliveryChange,
): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set((eb) => ({
      ...patch,
      locked_until: null,
      ...(countAttempt ? { attempt_count: eb('attempt_count', '+', 1) } : {}),
    }))
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .execute();
}

/** Records the attempt and applies `change` to its delivery (releasing the lease) in one statement. */
export async function recordAttemptAndUpdate(
  db: Executor,
  attempt: NewAttempt,
  change: DeliveryChange,
): Promise<void> {
  const { countAttempt, ...patch } = change;
  await db
    .with('attempt', (q) => q.insertInto('webhook_attempts').values(attempt))
    .updateTable('webhook_deliveries')
    .set((eb) => ({
      ...patch,
      locked_until: null,
      ...(countAttempt ? { attempt_count: eb('attempt_count', '+', 1) } : {}),
    }))
    .where('business_id', '=', attempt.business_id)
    .where('id', '=', attempt.delivery_id)
    .execute();
}

export async function insertAttempt(trx: Trx, attempt: NewAttempt): Promise<void> {
  await trx.insertInto('webhook_attempts').values(attempt).execute();
}

/**
 * Locks (SKIP LOCKED, up to `limit`) the deliveries to queue again: retries due by `now`, pending
 * ones whose lease expired, and pending ones never leased whose job was queued at or before
 * `staleBefore`.
 */
export const lockDueDeliveries = (trx: Trx, now: Date, staleBefore: Date, limit: number) =>
  trx
    .selectFrom('webhook_deliveries')
    .select(['business_id', 'id'])
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'retrying'), eb('next_attempt_at', '<=', now)]),
        eb.and([eb('status', '=', 'pending'), eb('locked_until', '<', now)]),
        eb.and([
          eb('status', '=', 'pending'),
          eb('locked_until', 'is', null),
          eb(eb.fn.coalesce('requeued_at', 'created_at'), '<=', staleBefore),
        ]),
      ]),
    )
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();

/** Makes the deliveries pending and unleased again, noting when they were queued anew. */
export async function markRequeued(trx: Trx, deliveries: readonly DeliveryKey[], at: Date): Promise<void> {
  await trx
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', next_attempt_at: null, locked_until: null, requeued_at: at })
    .where((eb) =>
      eb(
        eb.refTuple('business_id', 'id'),
        'in',
        deliveries.map((d) => eb.tuple(d.business_id, d.id)),
      ),
    )
    .execute();
}
