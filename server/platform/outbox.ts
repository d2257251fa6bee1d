import type { EventName } from '../../contract/common/events.js';
import { newId } from './ids.js';
import type { Ctx } from './context.js';
import type { Trx } from './db/database.js';
import { QUEUES } from './jobs.js';

export interface DispatchEventJob {
  businessId: string;
  eventId: string;
}

/**
 * Records a catalogue event in the outbox, in the transaction of the change, and enqueues its
 * dispatch job in the same transaction: nothing is announced for a change that rolled back and
 * nothing is lost when the process dies after commit.
 */
export async function emit(trx: Trx, ctx: Ctx, type: EventName, data: unknown): Promise<void> {
  const id = newId('evt');
  await trx
    .insertInto('events')
    .values({
      business_id: ctx.businessId,
      id,
      type,
      data: JSON.stringify(data),
      occurred_at: ctx.clock.now(),
      dispatched_at: null,
    })
    .execute();
  await ctx.jobs.send(trx, QUEUES.dispatchEvent, {
    businessId: ctx.businessId,
    eventId: id,
  } satisfies DispatchEventJob);
}
