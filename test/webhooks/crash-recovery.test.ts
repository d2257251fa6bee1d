import { afterEach, describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import { relayPendingEvents } from '../../server/platform/relay.js';
import { QUEUES } from '../../server/platform/jobs.js';
import { startWorker } from '../../server/platform/runtime.js';
import {
  deliver,
  sweep,
  UNLEASED_STALE_AFTER_MS,
  type DeliverJob,
} from '../../server/webhooks/deliveries/service.js';
import { registerBusiness } from '../support/business.js';
import type { TestServer } from '../support/server.js';
import { settleDeliveries, useReceivers, type Receiver } from '../support/receiver.js';
import { attemptRows } from '../support/webhooks.js';
import { useTestServer } from '../support/setup.js';
import { waitFor } from '../support/wait.js';
import { atLeast } from '../support/expect.js';

// The services start without a worker: each test plays the worker that fetches a delivery job and
// dies before it leases the delivery, and starts a real worker, or calls deliver(), only after that.
const TIMEOUT_MS = 1000;
const ENV = { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) };

const startReceiver = useReceivers<{ event: string; deliveryId: string }>();

const deliveryRow = (srv: TestServer, businessId: string, id: string) =>
  srv.deps.db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

/** The jobs of a delivery still waiting in the queue for a worker. */
const queuedJobs = (srv: TestServer, deliveryId: string) =>
  srv.deps.jobs.boss.findJobs<DeliverJob>(QUEUES.deliverWebhook, { data: { deliveryId }, queued: true });

/**
 * A customer.created delivery to `receiver` whose only job a worker fetched and then died with:
 * pg-boss holds the job as active (until it expires, 15 minutes on), the delivery is pending with
 * no lease, and nothing is left in the queue.
 */
async function strandedDelivery(srv: TestServer, receiver: Receiver<unknown>) {
  const biz = await registerBusiness(srv);
  await unwrap(
    biz.client.webhooks.createWebhook({ body: { url: receiver.url, events: ['customer.created'] } }),
  );
  await unwrap(biz.client.general.customers.createCustomer({ body: { name: 'Ada Lovelace' } }));
  // The fan-out a worker's event relay does: the delivery row and its job, in one transaction.
  await relayPendingEvents(srv.deps);
  const [delivery] = atLeast(
    await srv.deps.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('business_id', '=', biz.businessId)
      .execute(),
    1,
  );

  // The dying worker: pg-boss hands it the job, and it never leases the delivery nor completes it.
  // (It takes whatever else is queued too, as a worker fetching a batch would.)
  const fetched = await srv.deps.jobs.boss.fetch<DeliverJob>(QUEUES.deliverWebhook, { batchSize: 100 });
  const job = fetched.find((j) => j.data.deliveryId === delivery.id)!;
  expect(job.data).toEqual({ businessId: biz.businessId, deliveryId: delivery.id });
  const [held] = atLeast(await srv.deps.jobs.boss.findJobs(QUEUES.deliverWebhook, { id: job.id }), 1);
  expect(held.state).toBe('active');
  expect(delivery).toMatchObject({ status: 'pending', locked_until: null, requeued_at: null });
  expect(await queuedJobs(srv, delivery.id)).toEqual([]);
  return { businessId: biz.businessId, deliveryId: delivery.id, job: job.data };
}

describe('a worker that dies between fetching a delivery job and leasing the delivery', () => {
  const server = useTestServer({ env: ENV, worker: false });
  afterEach(() => server().clock.reset());

  it('leaves a delivery unleased for less than the threshold alone, then re-queues it once', async () => {
    const receiver = await startReceiver();
    const { businessId, deliveryId } = await strandedDelivery(server(), receiver);

    // Unleased for a while, as a job waiting behind busy workers can be: nothing is queued again.
    await sweep(server().deps);
    server().clock.advance(UNLEASED_STALE_AFTER_MS - 2000);
    await sweep(server().deps);
    expect(await queuedJobs(server(), deliveryId)).toEqual([]);
    expect(await deliveryRow(server(), businessId, deliveryId)).toMatchObject({
      status: 'pending',
      locked_until: null,
      requeued_at: null,
    });

    server().clock.advance(2000);
    await sweep(server().deps);
    const requeued = await queuedJobs(server(), deliveryId);
    expect(requeued.map((j) => j.data)).toEqual([{ businessId, deliveryId }]);
    const row = await deliveryRow(server(), businessId, deliveryId);
    expect(row).toMatchObject({ status: 'pending', locked_until: null, attempt_count: 0 });
    expect(row.requeued_at?.getTime()).toBeLessThanOrEqual(server().clock.now().getTime());
    expect(row.requeued_at?.getTime()).toBeGreaterThan(server().clock.now().getTime() - 1000);

    // The new job counts from its own queueing: later sweeps within the threshold add none.
    server().clock.advance(UNLEASED_STALE_AFTER_MS - 2000);
    await sweep(server().deps);
    expect(await queuedJobs(server(), deliveryId)).toHaveLength(1);
    expect(receiver.hits).toEqual([]);
  });

  it('delivers it exactly once, within seconds, and the job of the dead worker coming back does nothing', async () => {
    const receiver = await startReceiver();
    const { businessId, deliveryId, job } = await strandedDelivery(server(), receiver);

    server().clock.advance(UNLEASED_STALE_AFTER_MS + 1000);
    await sweep(server().deps);
    expect(await queuedJobs(server(), deliveryId)).toHaveLength(1);

    // A worker process starts (as after the crash) and works the queue.
    await startWorker(server().deps);
    await waitFor('the recovered delivery', () => receiver.hits.length >= 1);
    await settleDeliveries(server(), businessId);
    expect(receiver.hits.map((h) => [h.body.event, h.body.deliveryId])).toEqual([
      ['customer.created', deliveryId],
    ]);
    expect(await deliveryRow(server(), businessId, deliveryId)).toMatchObject({
      status: 'succeeded',
      attempt_count: 1,
      locked_until: null,
    });

    // pg-boss retries the dead worker's job once it expires: the delivery is done, so it is a no-op.
    await deliver(server().deps, job);
    // And sweeps long after find nothing of it to take.
    server().clock.advance(10 * UNLEASED_STALE_AFTER_MS);
    await sweep(server().deps);
    await settleDeliveries(server(), businessId);
    expect(receiver.hits).toHaveLength(1);
    expect(await attemptRows(server(), businessId, deliveryId)).toHaveLength(1);
    expect(await queuedJobs(server(), deliveryId)).toEqual([]);
  });
});

describe('a delivery job that runs twice', () => {
  const server = useTestServer({ env: ENV, worker: false });
  afterEach(() => server().clock.reset());

  it('attempts once when both copies run at the same time, and not again once it succeeded', async () => {
    const receiver = await startReceiver();
    const { businessId, deliveryId, job } = await strandedDelivery(server(), receiver);

    await Promise.all([deliver(server().deps, job), deliver(server().deps, job)]);
    expect(receiver.hits.map((h) => h.body.deliveryId)).toEqual([deliveryId]);
    await deliver(server().deps, job);

    expect(receiver.hits).toHaveLength(1);
    expect(await attemptRows(server(), businessId, deliveryId)).toHaveLength(1);
    expect(await deliveryRow(server(), businessId, deliveryId)).toMatchObject({
      status: 'succeeded',
      attempt_count: 1,
    });
  });

  it('does nothing while another attempt holds the lease, nor after that attempt failed', async () => {
    const receiver = await startReceiver(() => 'hang');
    const { businessId, deliveryId, job } = await strandedDelivery(server(), receiver);

    const first = deliver(server().deps, job);
    await waitFor('the first attempt to reach the receiver', () => receiver.hits.length >= 1);
    const leased = await deliveryRow(server(), businessId, deliveryId);
    expect(leased.status).toBe('pending');
    expect(leased.locked_until!.getTime()).toBeGreaterThan(server().clock.now().getTime());

    // The copy returns at once, the first attempt still hanging.
    await deliver(server().deps, job);
    expect(receiver.hits).toHaveLength(1);
    await first;
    const failed = await deliveryRow(server(), businessId, deliveryId);
    expect(failed).toMatchObject({ status: 'retrying', attempt_count: 1, locked_until: null });
    expect(await attemptRows(server(), businessId, deliveryId)).toMatchObject([{ error_class: 'timeout' }]);

    // A copy after the failure does not jump the retry schedule.
    await deliver(server().deps, job);
    expect(receiver.hits).toHaveLength(1);
    expect(await deliveryRow(server(), businessId, deliveryId)).toEqual(failed);
  });
});
