import { describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import { relayPendingEvents } from '../../server/platform/relay.js';
import { newId } from '../../server/platform/ids.js';
import { keyClient, registerBusiness, registerShop } from '../support/business.js';
import { onPostgres } from '../support/database.js';
import { useReceivers } from '../support/receiver.js';
import { useTestServer } from '../support/setup.js';
import type { TestServer } from '../support/server.js';
import { waitFor } from '../support/wait.js';

interface Body {
  event: string;
  data: { transaction?: { points: number }; member?: { pointsBalance: number } };
}

const startReceiver = useReceivers<Body>();

const undispatched = (srv: TestServer, businessId: string) =>
  srv.deps.db
    .selectFrom('events')
    .select(['id', 'type'])
    .where('business_id', '=', businessId)
    .where('dispatched_at', 'is', null)
    .execute();

/** Events written straight into the outbox without a dispatch job, as the public earn writes them. */
async function writeBareEvents(srv: TestServer, businessId: string, n: number): Promise<string[]> {
  const ids = Array.from({ length: n }, () => newId('evt'));
  await srv.deps.db
    .insertInto('events')
    .values(
      ids.map((id) => ({
        business_id: businessId,
        id,
        type: 'customer.created',
        data: JSON.stringify({ id }),
        occurred_at: srv.deps.clock.now(),
        dispatched_at: null,
      })),
    )
    .execute();
  return ids;
}

describe('outbox relay with a running worker', () => {
  const server = useTestServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });

  it('delivers the events of a public earn, which are written without a dispatch job', async () => {
    const biz = await registerShop(server());
    const receiver = await startReceiver();
    await unwrap(
      biz.client.webhooks.createWebhook({ body: { url: receiver.url, events: ['loyalty.points_earned'] } }),
    );
    const pos = keyClient(server(), biz.apiKey);

    await unwrap(pos.publicLoyalty.publicEarn({ body: { email: 'ada@example.test', amount: 4.2 } }));

    await waitFor('the points_earned delivery', () => receiver.hits.length >= 1);
    expect(receiver.hits.map((h) => h.body.event)).toEqual(['loyalty.points_earned']);
    expect(receiver.hits[0]?.body.data.transaction?.points).toBe(42);
    expect(receiver.hits[0]?.body.data.member?.pointsBalance).toBe(42);
    await waitFor(
      'the outbox to be dispatched',
      async () => (await undispatched(server(), biz.businessId)).length === 0,
    );
  });
});

describe(`outbox relay runs (${onPostgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  // No worker: the test runs the relay itself.
  const server = useTestServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true', DB_POOL_SIZE: '20' }, worker: false });

  it('fans out every undispatched event, in batches, and leaves nothing behind', async () => {
    const biz = await registerBusiness(server());
    const receiver = await startReceiver();
    await unwrap(
      biz.client.webhooks.createWebhook({ body: { url: receiver.url, events: ['customer.created'] } }),
    );
    const ids = await writeBareEvents(server(), biz.businessId, 620);

    const relayed = await relayPendingEvents(server().deps);

    expect(relayed).toBeGreaterThanOrEqual(620);
    expect(await undispatched(server(), biz.businessId)).toEqual([]);
    const deliveries = await server()
      .deps.db.selectFrom('webhook_deliveries')
      .select('event_id')
      .where('business_id', '=', biz.businessId)
      .execute();
    expect(deliveries.map((d) => d.event_id).sort()).toEqual([...ids].sort());
    expect(await relayPendingEvents(server().deps)).toBe(0);
  });

  it('gives every event one delivery when relays run concurrently', async () => {
    const biz = await registerBusiness(server());
    const receiver = await startReceiver();
    await unwrap(
      biz.client.webhooks.createWebhook({ body: { url: receiver.url, events: ['customer.created'] } }),
    );
    const ids = await writeBareEvents(server(), biz.businessId, 1200);

    const runs = await Promise.all(Array.from({ length: 4 }, () => relayPendingEvents(server().deps)));

    expect(runs.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1200);
    const deliveries = await server()
      .deps.db.selectFrom('webhook_deliveries')
      .select('event_id')
      .where('business_id', '=', biz.businessId)
      .execute();
    expect(deliveries).toHaveLength(ids.length);
    expect(new Set(deliveries.map((d) => d.event_id)).size).toBe(ids.length);
    expect(await undispatched(server(), biz.businessId)).toEqual([]);
  });
});
