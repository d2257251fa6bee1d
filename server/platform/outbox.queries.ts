import type { Executor, Trx } from './db/database.js';

/** An outbox event as its consumers receive it. */
export interface OutboxEvent {
  business_id: string;
  id: string;
  type: string;
}

export async function insertEvent(
  trx: Trx,
  row: { business_id: string; id: string; type: string; data: string; occurred_at: Date },
): Promise<void> {
  await trx
    .insertInto('events')
    .values({ ...row, dispatched_at: null })
    .execute();
}

/**
 * Marks the named events dispatched and returns those that were not yet: marking first also locks
 * them, so a concurrent dispatch of the same events finds nothing.
 */
export function markDispatched(
  trx: Trx,
  at: Date,
  events: readonly { businessId: string; eventId: string }[],
): Promise<OutboxEvent[]> {
  return trx
    .updateTable('events')
    .set({ dispatched_at: at })
    .where((eb) =>
      eb(
        eb.refTuple('business_id', 'id'),
        'in',
        events.map((e) => eb.tuple(e.businessId, e.eventId)),
      ),
    )
    .where('dispatched_at', 'is', null)
    .returning(['business_id', 'id', 'type'])
    .execute();
}

/** Locks up to `limit` of the oldest undispatched events (SKIP LOCKED: workers share the backlog). */
export function lockPending(trx: Trx, limit: number) {
  return trx
    .selectFrom('events')
    .select(['business_id', 'id'])
    .where('dispatched_at', 'is', null)
    .orderBy('occurred_at')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
}

/** An event's content as its consumers deliver it. */
export function findEvent(db: Executor, businessId: string, id: string) {
  return db
    .selectFrom('events')
    .select(['type', 'data', 'occurred_at'])
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}
