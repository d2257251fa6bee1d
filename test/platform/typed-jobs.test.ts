import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Trx } from '../../server/platform/db/database.js';
import { QUEUES, type JobEngine, type JobPayloads, type QueueName } from '../../server/platform/jobs.js';
import type { Job } from '../../server/platform/module.js';
import { platformModule } from '../../server/platform/platform-module.js';
import { domains } from '../../server/domains.js';

// The type checker (the typecheck step of CI) runs these: each `@ts-expect-error` fails the build
// when the mistake below it stops being one.
function sendsOnlyTheQueuesPayload(jobs: JobEngine, trx: Trx) {
  void jobs.send(trx, QUEUES.sendMail, { businessId: 'biz', messageId: 'mail' });
  // @ts-expect-error a mail job carries a messageId, not an eventId
  void jobs.send(trx, QUEUES.sendMail, { businessId: 'biz', eventId: 'evt' });
  // @ts-expect-error a queue that does not exist
  void jobs.send(trx, 'mail.sned', { businessId: 'biz', messageId: 'mail' });
  void jobs.sendMany(trx, QUEUES.deliverWebhook, [
    { businessId: 'biz', deliveryId: 'dlv', redelivery: true },
  ]);
  // @ts-expect-error a delivery job names its delivery
  void jobs.sendMany(trx, QUEUES.deliverWebhook, [{ businessId: 'biz' }]);
}

const handledWithItsPayload: Job = {
  queue: QUEUES.deliverWebhook,
  handle: async (_deps, data) => {
    expectTypeOf(data).toEqualTypeOf<JobPayloads['webhooks.deliver']>();
  },
};

const batchHandledWithItsPayloads: Job = {
  queue: QUEUES.dispatchEvent,
  batch: true,
  handle: async (_deps, batch) => {
    expectTypeOf(batch).toEqualTypeOf<JobPayloads['events.dispatch'][]>();
  },
};

const wrongPayload: Job = {
  queue: QUEUES.sendMail,
  // @ts-expect-error a mail job has no deliveryId
  handle: async (_deps, data) => void data.deliveryId,
};

describe('jobs are typed by their queue', () => {
  it('names every queue once, and every module job works a named queue', () => {
    const names: QueueName[] = Object.values(QUEUES);
    expect(new Set(names).size).toBe(names.length);
    const worked = [platformModule, ...domains].flatMap((m) => m.jobs ?? []).map((job) => job.queue);
    expect(worked.sort()).toEqual([...names].sort());
    expect([
      sendsOnlyTheQueuesPayload,
      handledWithItsPayload,
      batchHandledWithItsPayloads,
      wrongPayload,
    ]).toHaveLength(4);
  });
});
