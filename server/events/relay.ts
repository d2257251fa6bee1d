import type { Clock } from '../common/clock.js';
import type { Ctx } from '../context.js';
import type { Executor } from '../db/database.js';
import { QUEUES, type JobEngine } from '../jobs/engine.js';
import type { Logger } from '../logger.js';
import type { DispatchEventJob } from './outbox.js';

/** Events older than this and still undispatched are taken to have lost their dispatch job. */
const STRANDED_AFTER_MS = 5 * 60 * 1000;
const SWEEP_BATCH = 1000;

/**
 * Hands committed events to the dispatcher, for changes that wrote their events without enqueueing
 * a job in the same transaction (the public earn path, which keeps its write to one statement).
 * The event rows are the durable record: should the process die before the job is inserted,
 * relayStrandedEvents finds them.
 */
export function announce(ctx: Ctx, eventIds: string[]): void {
  for (const eventId of eventIds) {
    ctx.jobs.sendSoon(ctx.db, QUEUES.dispatchEvent, {
      businessId: ctx.businessId,
      eventId,
    } satisfies DispatchEventJob);
  }
}

/**
 * Enqueues dispatch jobs for events that have waited undispatched for minutes. A duplicate job for an
 * event whose first job is merely slow does no harm: dispatch marks events once (webhooks/delivery.ts).
 */
export async function relayStrandedEvents(deps: {
  db: Executor;
  clock: Clock;
  jobs: JobEngine;
  log: Logger;
}): Promise<number> {
  const before = new Date(deps.clock.now().getTime() - STRANDED_AFTER_MS);
  const stranded = await deps.db
    .selectFrom('events')
    .select(['business_id', 'id'])
    .where('dispatched_at', 'is', null)
    .where('occurred_at', '<', before)
    .orderBy('occurred_at')
    .limit(SWEEP_BATCH)
    .execute();
  if (stranded.length === 0) return 0;
  await deps.db.transaction().execute((trx) =>
    deps.jobs.sendMany(
      trx,
      QUEUES.dispatchEvent,
      stranded.map((e) => ({ businessId: e.business_id, eventId: e.id }) satisfies DispatchEventJob),
    ),
  );
  deps.log.warn({ events: stranded.length }, 'relayed events whose dispatch job was missing');
  return stranded.length;
}
