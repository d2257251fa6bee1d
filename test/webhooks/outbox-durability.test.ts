import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import { inTransaction, jobCtx, type Ctx } from '../../server/platform/context.js';
import { emit } from '../../server/platform/outbox.js';
import { startWorker } from '../../server/platform/runtime.js';
import { sweep } from '../../server/webhooks/deliveries/service.js';
import { registerBusiness } from '../support/business.js';
import type { TestServer } from '../support/server.js';
import { useReceivers } from '../support/receiver.js';
import { useTestServer } from '../support/setup.js';
import { waitFor } from '../support/wait.js';
import { atLeast } from '../support/expect.js';
import { createWebhook } from '../support/webhooks.js';

const ENV = { WEBHOOK_ALLOW_PRIVATE: 'true' };

// Receivers that record every request and answer 200.

interface Body {
  event: string;
  deliveryId: string;
  data: { id?: string; name?: string };
}

const startReceiver = useReceivers<Body>();
/** The bodies a receiver got, in order. */
const bodies = (receiver: Awaited<ReturnType<typeof startReceiver>>) => receiver.hits.map((h) => h.body);

const eventRows = (srv: TestServer, businessId: string) =>
  srv.deps.db
    .selectFrom('events')
    .selectAll()
    .where('business_id', '=', businessId)
    .orderBy('occurred_at')
    .orderBy('id')
    .execute();

const deliveryRows = (srv: TestServer, businessId: string) =>
  srv.deps.db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('business_id', '=', businessId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();

/** Waits until every event of the business is fanned out and no delivery is in flight. */
async function settle(srv: TestServer, businessId: string): Promise<void> {
  await waitFor(`the outbox of ${businessId} to settle`, async () => {
    const events = await eventRows(srv, businessId);
    const deliveries = await deliveryRows(srv, businessId);
    return events.every((e) => e.dispatched_at !== null) && deliveries.every((d) => d.status !== 'pending');
  });
}

/** The service context of a change made by the business, as a request would build it. */
const ctxFor = (srv: TestServer, businessId: string): Ctx =>
  jobCtx(srv.deps, businessId, `req_${randomUUID()}`);

// ---------------------------------------------------------------------------------------------

describe('with a running worker', () => {
  const server = useTestServer({ env: ENV });
  afterEach(() => server().clock.reset());

  it('delivers nothing for a change that rolled back, and what was committed', async () => {
    const biz = await registerBusiness(server());
    const receiver = await startReceiver();
    await createWebhook(biz.client, { url: receiver.url, events: ['customer.created'] });
    const ctx = ctxFor(server(), biz.businessId);

    await expect(
      inTransaction(ctx, async (ctx) => {
        await emit(ctx, 'customer.created', { id: 'cus_rolled_back', name: 'Rolled Back' });
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await inTransaction(ctx, (ctx) =>
      emit(ctx, 'customer.created', { id: 'cus_committed', name: 'Committed' }),
    );

    await waitFor('the committed event', () => receiver.hits.length >= 1);
    await settle(server(), biz.businessId);

    const events = await eventRows(server(), biz.businessId);
    expect(events.map((e) => e.data)).toEqual([{ id: 'cus_committed', name: 'Committed' }]);
    const [event] = atLeast(events, 1);
    const deliveries = await deliveryRows(server(), biz.businessId);
    expect(deliveries).toHaveLength(1);
    const [delivery] = atLeast(deliveries, 1);
    expect(delivery).toMatchObject({ event_id: event.id, status: 'succeeded' });
    expect(bodies(receiver)).toEqual([
      {
        event: 'customer.created',
        data: { id: 'cus_committed', name: 'Committed' },
        deliveryId: delivery.id,
        timestamp: expect.any(String),
        occurredAt: event.occurred_at.toISOString(),
        livemode: true,
      },
    ]);
  });

  it('delivers nothing for an API change refused mid-transaction', async () => {
    const biz = await registerBusiness(server());
    const receiver = await startReceiver();
    await createWebhook(biz.client, { url: receiver.url, events: ['customer.created'] });

    // An invoice for a customer that does not exist fails inside its transaction.
    const refused = await biz.client.general.invoices.createInvoice({
      body: {
        customer_id: 'cus_01JD7X2R5VQ8N3K4M6P9T1W2Y3',
        items: [{ description: 'Consulting', quantity: 1, unit_price: 10 }],
        due_date: '2099-01-31',
      },
    });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    const customer = (
      await unwrap(biz.client.general.customers.createCustomer({ body: { name: 'Only This' } }))
    ).data;

    await waitFor('the customer event', () => receiver.hits.length >= 1);
    await settle(server(), biz.businessId);
    expect((await eventRows(server(), biz.businessId)).map((e) => e.type)).toEqual(['customer.created']);
    expect(bodies(receiver).map((b) => b.data.id)).toEqual([customer.id]);
  });

  it('picks up a delivery whose lease expired while pending (the worker died mid-attempt)', async () => {
    const biz = await registerBusiness(server());
    const receiver = await startReceiver();
    const { id: webhookId } = await createWebhook(biz.client, {
      url: receiver.url,
      events: ['customer.created'],
    });
    const db = server().deps.db;
    const now = server().clock.now();

    // What a worker leaves behind when it dies holding the lease: the event fanned out, the
    // delivery pending and locked, and no job left in the queue.
    const eventId = 'evt_01JD7X2R5VQ8N3K4M6P9T1W2Y3';
    await db
      .insertInto('events')
      .values({
        business_id: biz.businessId,
        id: eventId,
        type: 'customer.created',
        data: JSON.stringify({ id: 'cus_orphaned', name: 'Orphaned' }),
        occurred_at: new Date(now.getTime() - 60_000),
        dispatched_at: new Date(now.getTime() - 59_000),
      })
      .execute();
    const expired = randomUUID();
    const live = randomUUID();
    const liveLease = new Date(now.getTime() + 10 * 60_000);
    const base = {
      business_id: biz.businessId,
      webhook_id: webhookId,
      event_type: 'customer.created',
      status: 'pending' as const,
      attempt_count: 0,
      next_attempt_at: null,
      created_at: new Date(now.getTime() - 59_000),
    };
    // A second event, still held by a live lease, shows the sweep only takes expired ones.
    await db
      .insertInto('events')
      .values({
        business_id: biz.businessId,
        id: 'evt_01JD7X2R5VQ8N3K4M6P9T1W2Y4',
        type: 'customer.created',
        data: JSON.stringify({ id: 'cus_leased', name: 'Leased' }),
        occurred_at: new Date(now.getTime() - 60_000),
        dispatched_at: new Date(now.getTime() - 59_000),
      })
      .execute();
    await db
      .insertInto('webhook_deliveries')
      .values([
        { ...base, id: expired, event_id: eventId, locked_until: new Date(now.getTime() - 1000) },
        { ...base, id: live, event_id: 'evt_01JD7X2R5VQ8N3K4M6P9T1W2Y4', locked_until: liveLease },
      ])
      .execute();

    await sweep(server().deps);
    await waitFor('the orphaned delivery', () => receiver.hits.length >= 1);
    await waitFor('the attempt to be recorded', async () => {
      const rows = await deliveryRows(server(), biz.businessId);
      return rows.find((r) => r.id === expired)?.status === 'succeeded';
    });

    expect(bodies(receiver)).toMatchObject([
      { event: 'customer.created', deliveryId: expired, data: { id: 'cus_orphaned', name: 'Orphaned' } },
    ]);
    const stillLeased = (await deliveryRows(server(), biz.businessId)).find((r) => r.id === live)!;
    expect(stillLeased).toMatchObject({ status: 'pending', attempt_count: 0 });
    expect(stillLeased.locked_until?.getTime()).toBe(liveLease.getTime());

    // Once that lease runs out too, the sweep takes it.
    server().clock.advance(11 * 60_000);
    await sweep(server().deps);
    await waitFor('the second orphaned delivery', () => receiver.hits.length >= 2);
    await settle(server(), biz.businessId);
    expect(bodies(receiver).map((b) => b.deliveryId)).toEqual([expired, live]);
    const rows = await deliveryRows(server(), biz.businessId);
    expect(rows.map((r) => [r.status, r.attempt_count])).toEqual([
      ['succeeded', 1],
      ['succeeded', 1],
    ]);
  });
});

describe('with no worker running at commit time', () => {
  const server = useTestServer({ env: ENV, worker: false });

  it('keeps every committed event and delivers each exactly once when a worker starts later', async () => {
    const biz = await registerBusiness(server());
    const receiver = await startReceiver();
    await createWebhook(biz.client, { url: receiver.url, events: ['customer.created'] });

    const customers = [];
    for (const name of ['Ada', 'Grace', 'Edsger', 'Barbara', 'Donald']) {
      customers.push((await unwrap(biz.client.general.customers.createCustomer({ body: { name } }))).data);
    }

    // Committed, but nobody works the queue: nothing is dispatched or sent.
    const pending = await eventRows(server(), biz.businessId);
    expect(pending).toHaveLength(5);
    expect(pending.every((e) => e.dispatched_at === null)).toBe(true);
    expect(await deliveryRows(server(), biz.businessId)).toEqual([]);
    expect(bodies(receiver)).toEqual([]);

    await startWorker(server().deps);
    await waitFor('five deliveries', () => receiver.hits.length >= 5);
    await settle(server(), biz.businessId);

    expect(receiver.hits).toHaveLength(5);
    expect(
      bodies(receiver)
        .map((b) => b.data.id)
        .sort(),
    ).toEqual(customers.map((c) => c.id).sort());
    expect(bodies(receiver).every((b) => b.event === 'customer.created')).toBe(true);
    const deliveries = await deliveryRows(server(), biz.businessId);
    expect(deliveries).toHaveLength(5);
    expect(deliveries.every((d) => d.status === 'succeeded' && d.attempt_count === 1)).toBe(true);
    expect(new Set(bodies(receiver).map((b) => b.deliveryId))).toEqual(new Set(deliveries.map((d) => d.id)));
    const events = await eventRows(server(), biz.businessId);
    expect(events.every((e) => e.dispatched_at !== null)).toBe(true);
    expect(new Set(deliveries.map((d) => d.event_id))).toEqual(new Set(events.map((e) => e.id)));
  });
});
