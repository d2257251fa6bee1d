import type { EventName } from '../../contract/common/events.js';
import type { Ctx, TxCtx } from './context.js';
import { withTransaction, type Trx } from './db/database.js';
import type { Deps } from './deps.js';
import { newId } from './ids.js';
import type { JobPayloads } from './jobs.js';
import * as queries from './outbox.queries.js';

export type { OutboxEvent } from './outbox.queries.js';

export type DispatchEventJob = JobPayloads['events.dispatch'];

/**
 * Records a catalogue event in the outbox, in the transaction of the change: nothing is announced
 * for a change that rolled back, and nothing is lost when the process dies after commit. The relay
 * (server/platform/relay.ts) dispatches it, woken by the notification its commit sends
 * (docs/decisions.md D265).
 */
export const emit = (ctx: TxCtx, type: EventName, data: unknown): Promise<void> =>
  emitMany(ctx, type, [data]);

/** `emit` for many changes of one transaction at once: one statement, whatever their number. */
export const emitMany = (ctx: TxCtx, type: EventName, data: readonly unknown[]): Promise<void> =>
  emitEach(
    ctx,
    data.map((d) => [type, d] as const),
  );

/** Events of different types of one transaction, in this order, in one statement. */
export async function emitEach(
  ctx: TxCtx,
  events: ReadonlyArray<readonly [EventName, unknown]>,
): Promise<void> {
  const occurredAt = ctx.clock.now();
  await queries.insertEvents(
    ctx.db,
    events.map(([type, d]) => ({
      business_id: ctx.businessId,
      id: newId('evt'),
      type,
      data: JSON.stringify(d),
      occurred_at: occurredAt,
    })),
  );
}

/**
 * Dispatches a batch of outbox events in the caller's transaction: marks them dispatched and hands
 * those not dispatched before to every module that consumes events (webhooks fan them out).
 * Re-running it is harmless: dispatched events are skipped.
 */
export async function dispatchIn(trx: Trx, deps: Deps, batch: readonly DispatchEventJob[]): Promise<void> {
  if (batch.length === 0) return;
  const events = await queries.markDispatched(trx, deps.clock.now(), batch);
  if (events.length === 0) return;
  for (const module of deps.modules) await module.dispatch?.(trx, deps, events);
}

/** The dispatch job's handler: one transaction for the whole batch. */
export async function dispatch(deps: Deps, batch: readonly DispatchEventJob[]): Promise<void> {
  if (batch.length === 0) return;
  await withTransaction(deps.db, (trx) => dispatchIn(trx, deps, batch));
}

/**
 * The business's event `eventId` as consumers deliver it (its type, data and time); throws when
 * there is none (a consumer's foreign key keeps the events it references).
 */
export function outboxEvent(ctx: Pick<Ctx, 'db' | 'businessId'>, eventId: string) {
  return queries.findEvent(ctx.db, ctx.businessId, eventId);
}
