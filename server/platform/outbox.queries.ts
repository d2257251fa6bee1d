import { sql } from 'kysely';
import type { Executor, Trx } from './db/database.js';

/** An outbox event as its consumers receive it. */
export interface OutboxEvent {
  business_id: string;
  id: string;
  type: string;
}

/** The channel on which the relay hears of events written (docs/decisions.md D265). */
export const EVENTS_CHANNEL = 'bms_events';

/**
 * Events in one statement that also notifies `EVENTS_CHANNEL`: PostgreSQL delivers the notification
 * when the transaction commits (one per transaction, however many statements sent it), and never
 * for one that rolled back.
 */
export async function insertEvents(
  trx: Trx,
  rows: readonly { business_id: string; id: string; type: string; data: string; occurred_at: Date }[],
): Promise<void> {
  if (rows.length === 0) return;
  await trx
    .with('written', (db) =>
      db
        .insertInto('events')
        .values(rows.map((row) => ({ ...row, dispatched_at: null })))
        .returning('id'),
    )
    .selectNoFrom(sql`pg_notify(${EVENTS_CHANNEL}, '')`.as('notified'))
    .where(sql<boolean>`EXISTS (SELECT 1 FROM written)`)
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

/** When the oldest undispatched event occurred (null when none waits): the outbox's lag. */
export async function oldestPendingEvent(db: Executor): Promise<Date | null> {
  const row = await db
    .selectFrom('events')
    .select((eb) => eb.fn.min('occurred_at').as('oldest'))
    .where('dispatched_at', 'is', null)
    .executeTakeFirst();
  return row?.oldest ?? null;
}

/**
 * The outbox's insert as SQL text, for a domain's single-statement write that records its events
 * with its change (the public earn): the events of a JSON array parameter (`[{id, type, data}]`),
 * undispatched, inserted once per row of the statement's CTE `onlyWith`, so none when it matched
 * nothing. The arguments are the statement's parameter placeholders (`$1`) and CTE name; the text is
 * fixed, so the statement stays preparable.
 */
export const outboxInsert = (p: {
  businessId: string;
  events: string;
  occurredAt: string;
  onlyWith: string;
}) => `
    INSERT INTO events (business_id, id, type, data, occurred_at, dispatched_at)
    SELECT ${p.businessId}, e.id, e.type, e.data, ${p.occurredAt}, NULL
      FROM jsonb_to_recordset(${p.events}::jsonb) AS e (id text, type text, data jsonb), ${p.onlyWith}`;

/** An event's content as its consumers deliver it. */
export function findEvent(db: Executor, businessId: string, id: string) {
  return db
    .selectFrom('events')
    .select(['type', 'data', 'occurred_at'])
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}
