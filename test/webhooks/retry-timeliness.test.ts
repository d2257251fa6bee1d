import { describe, expect, it } from 'vitest';
import { postWebhook } from '../../server/webhooks/deliveries/sender.js';
import { sweep } from '../../server/webhooks/deliveries/service.js';
import { registerBusiness } from '../support/business.js';
import { itemAt } from '../support/expect.js';
import { createCustomer } from '../support/general.js';
import { useReceivers } from '../support/receiver.js';
import { SECOND } from '../support/schedule.js';
import { useTestServer } from '../support/setup.js';
import { waitFor } from '../support/wait.js';
import { attemptRows, createWebhook } from '../support/webhooks.js';

/**
 * The first retry of a failed delivery is due 5 s after it, which is also how long many receivers
 * (node's own http server among them) keep an idle connection open. A retry written on a kept-alive
 * connection just as the receiver closes it is reset before the receiver reads it. These tests play
 * that moment on purpose: the receiver keeps its connections open until the test marks them closed,
 * then resets a request that comes on one of them, as the closed socket would.
 */

const startReceiver = useReceivers<{ deliveryId: string }>();
/** Long enough that only the test closes a receiver's connections. */
const KEEP_ALIVE_MS = 10 * 60 * SECOND;

describe('the first retry of a failed delivery', () => {
  const server = useTestServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });

  it('reaches the receiver within 10 s of its due time for each of 100 failed deliveries, though the receiver closed the connections of their first attempts', async () => {
    const WEBHOOKS = 10;
    const CUSTOMERS = 10;
    const DELIVERIES = WEBHOOKS * CUSTOMERS;
    server().clock.set(new Date().toISOString());
    const biz = await registerBusiness(server());

    /** Each request's delivery, and the service's time when it was answered. */
    const answered = new Map<string, Date[]>();
    const receiver = await startReceiver(
      (_, { body, staleConnection }) => {
        if (staleConnection) return 'reset';
        const times = answered.get(body.deliveryId) ?? [];
        answered.set(body.deliveryId, [...times, server().clock.now()]);
        return { status: times.length === 0 ? 500 : 200 };
      },
      { keepAliveTimeoutMs: KEEP_ALIVE_MS },
    );
    for (let i = 0; i < WEBHOOKS; i++) {
      await createWebhook(biz.client, { url: `${receiver.url}/${i}`, events: ['customer.created'] });
    }
    for (let i = 0; i < CUSTOMERS; i++) await createCustomer(biz.client, { name: `Retry Customer ${i}` });

    const deliveries = () =>
      server()
        .deps.db.selectFrom('webhook_deliveries')
        .selectAll()
        .where('business_id', '=', biz.businessId)
        .execute();
    const failed = await waitFor(
      `${DELIVERIES} failed first attempts`,
      async () => {
        const rows = await deliveries();
        return rows.length === DELIVERIES && rows.every((d) => d.status === 'retrying') && rows;
      },
      60_000,
    );
    expect(receiver.hits).toHaveLength(DELIVERIES);
    expect(receiver.hits.map((h) => h.body.deliveryId).sort()).toEqual(failed.map((d) => d.id).sort());
    const due = new Map(failed.map((d) => [d.id, d.next_attempt_at!]));

    // The receiver's idle timeout has passed by the time the retries are due.
    receiver.closeIdleConnections();
    const latestDue = Math.max(...[...due.values()].map((at) => at.getTime()));
    server().clock.set(new Date(latestDue).toISOString());
    // The worker's own sweep runs each second too; this one just need not be waited for.
    await sweep(server().deps);

    await waitFor(
      `the first retry of ${DELIVERIES} deliveries`,
      async () => (await deliveries()).every((d) => d.attempt_count >= 2),
      60_000,
    );
    // Some retries were written on a connection the receiver had closed.
    expect(receiver.resets).toBeGreaterThan(0);
    const late = [...due]
      .filter(([id, dueAt]) => {
        const retried = answered.get(id)?.[1];
        return !retried || retried.getTime() - dueAt.getTime() > 10 * SECOND;
      })
      .map(([id]) => id);
    expect(
      late,
      'deliveries whose first retry did not reach the receiver within 10 s of its due time',
    ).toEqual([]);
    for (const [id, dueAt] of due) {
      const retried = itemAt(answered.get(id) ?? [], 1);
      expect(retried.getTime()).toBeGreaterThanOrEqual(dueAt.getTime());
      const attempts = await attemptRows(server(), biz.businessId, id);
      expect(attempts.map((a) => [a.status_code, a.error_class])).toEqual([
        [500, 'http_status'],
        [200, null],
      ]);
    }
    expect((await deliveries()).every((d) => d.status === 'succeeded' && d.attempt_count === 2)).toBe(true);
  }, 120_000);
});

describe('one attempt on a kept-alive connection', () => {
  const send = (url: string) =>
    postWebhook(
      url,
      JSON.stringify({ deliveryId: 'd' }),
      { 'content-type': 'application/json' },
      { timeoutMs: 10_000, allowPrivate: true },
    );

  it('is sent again on a new connection when the receiver had closed the pooled one, and counts once', async () => {
    const receiver = await startReceiver(
      (i, { staleConnection }) => (staleConnection ? 'reset' : { status: i === 0 ? 500 : 200 }),
      { keepAliveTimeoutMs: KEEP_ALIVE_MS },
    );
    expect(await send(receiver.url)).toMatchObject({ statusCode: 500, errorClass: 'http_status' });
    expect(receiver.connections).toBe(1);

    receiver.closeIdleConnections();
    expect(await send(receiver.url)).toMatchObject({
      statusCode: 200,
      errorClass: null,
      retryAfterSeconds: null,
    });
    expect(receiver.resets).toBe(1);
    expect(receiver.hits).toHaveLength(2);
    expect(receiver.connections).toBe(2);
  });

  it('is not sent again when a new connection is reset: that is the receiver failing', async () => {
    const receiver = await startReceiver(() => 'reset', { keepAliveTimeoutMs: KEEP_ALIVE_MS });
    expect(await send(receiver.url)).toMatchObject({ statusCode: null, errorClass: 'connection' });
    expect(receiver.resets).toBe(1);
    expect(receiver.connections).toBe(1);
  });

  it('is not sent again when the reused connection is reset after a new one was, once more', async () => {
    // The pooled connection is stale and the new one is reset too: one attempt, failed, two requests.
    const receiver = await startReceiver(
      (i, { staleConnection }) => (staleConnection || i > 0 ? 'reset' : { status: 500 }),
      { keepAliveTimeoutMs: KEEP_ALIVE_MS },
    );
    expect(await send(receiver.url)).toMatchObject({ statusCode: 500 });
    receiver.closeIdleConnections();
    expect(await send(receiver.url)).toMatchObject({ statusCode: null, errorClass: 'connection' });
    expect(receiver.resets).toBe(2);
    expect(receiver.connections).toBe(2);
  });
});
