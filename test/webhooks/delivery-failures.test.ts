import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import { sweep } from '../../server/webhooks/deliveries/service.js';
import { newWebhookSecret } from '../../server/webhooks/deliveries/signing.js';
import { registerBusiness, type TestBusiness } from '../support/business.js';
import { atLeast, itemAt } from '../support/expect.js';
import type { TestServer } from '../support/server.js';
import { useTestServer } from '../support/setup.js';
import { settleDeliveries, useReceivers, type ReceivedRequest } from '../support/receiver.js';
import { waitFor } from '../support/wait.js';
import { DAY, MINUTE, SCHEDULE_MS, SECOND } from '../support/schedule.js';
import { createWebhook, deliveriesOf, attemptRows } from '../support/webhooks.js';
import { createCustomer } from '../support/general.js';

// Short, so the test of a receiver that never answers is quick; long enough that a busy machine's
// receiver still answers the others in time.
const TIMEOUT_MS = 1500;

// ---------------------------------------------------------------------------------------------
// Receivers whose answer each test scripts per request.

type Hit = ReceivedRequest<{
  event: string;
  deliveryId: string;
  timestamp: string;
  data: Record<string, unknown>;
}>;

const startReceiver = useReceivers<Hit['body']>();

// ---------------------------------------------------------------------------------------------
// Waiting.

/** The delivery rows of a webhook, oldest first. */
const deliveryRows = (srv: TestServer, businessId: string, webhookId: number) =>
  srv.deps.db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('webhook_id', '=', webhookId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();

/** Waits until the webhook's only delivery has recorded `attempts` attempts and is not in flight. */
async function waitForAttempts(srv: TestServer, businessId: string, webhookId: number, attempts: number) {
  return waitFor(`attempt ${attempts} of webhook ${webhookId}`, async () => {
    const [row] = await deliveryRows(srv, businessId, webhookId);
    return row && row.status !== 'pending' && row.attempt_count >= attempts ? row : undefined;
  });
}

const webhookRow = (srv: TestServer, businessId: string, id: number) =>
  srv.deps.db
    .selectFrom('webhooks')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

// ---------------------------------------------------------------------------------------------
// API shortcuts.

async function getWebhook(biz: TestBusiness, id: number) {
  return (await unwrap(biz.client.webhooks.getWebhook({ params: { id } }))).webhook;
}

/** Turns a test's webhook off so its leftover retries never call out again. */
async function retire(biz: TestBusiness, id: number) {
  await unwrap(biz.client.webhooks.updateWebhook({ params: { id }, body: { is_active: false } }));
}

// ---------------------------------------------------------------------------------------------

describe('failed attempts', () => {
  // Tokens outlive the clock moves (days) below.
  const server = useTestServer({
    env: { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS), ACCESS_TOKEN_TTL: '3650d' },
  });

  /** The clock is frozen at the start of every test: only the test moves it. */
  let t0: number;
  beforeEach(() => {
    t0 = Date.now();
    server().clock.set(new Date(t0).toISOString());
  });
  afterEach(() => server().clock.reset());

  const at = (ms: number) => server().clock.set(new Date(ms).toISOString());

  it('retries a 500 after 5 s with the same deliveryId and then succeeds', async () => {
    const biz = await registerBusiness(server());
    const receiver = await startReceiver((i) => ({ status: i === 0 ? 500 : 200 }));
    const { id } = await createWebhook(biz.client, { url: receiver.url, events: ['customer.created'] });
    await createCustomer(biz.client, { name: 'Flaky Receiver Customer' });

    const afterFirst = await waitForAttempts(server(), biz.businessId, id, 1);
    expect(afterFirst.status).toBe('retrying');
    const wait = afterFirst.next_attempt_at!.getTime() - server().clock.now().getTime();
    expect(wait).toBeGreaterThanOrEqual(5 * SECOND);
    expect(wait).toBeLessThanOrEqual(5.5 * SECOND);
    expect((await webhookRow(server(), biz.businessId, id)).failing_since?.getTime()).toBe(t0);

    const [logged] = atLeast(await deliveriesOf(biz.client, id), 1);
    expect(logged).toMatchObject({
      deliveryId: afterFirst.id,
      status: 'retrying',
      nextAttemptAt: afterFirst.next_attempt_at!.toISOString(),
      attempts: [{ statusCode: 500, errorClass: 'http_status', redelivery: false }],
    });

    // Not due yet: a sweep leaves it alone.
    await sweep(server().deps);
    const [untouched] = await deliveryRows(server(), biz.businessId, id);
    expect(untouched).toMatchObject({ status: 'retrying', attempt_count: 1 });
    expect(receiver.hits).toHaveLength(1);

    at(afterFirst.next_attempt_at!.getTime());
    await sweep(server().deps);
    await waitFor('the retry', () => receiver.hits.length >= 2);
    await settleDeliveries(server(), biz.businessId);

    const [first, second] = atLeast(receiver.hits, 2);
    expect(receiver.hits).toHaveLength(2);
    expect(second.body.deliveryId).toBe(first.body.deliveryId);
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(Number(second.headers['x-webhook-timestamp']) - Number(first.headers['x-webhook-timestamp'])).toBe(
      Math.floor(afterFirst.next_attempt_at!.getTime() / 1000) - Math.floor(t0 / 1000),
    );

    const [done] = atLeast(await deliveriesOf(biz.client, id), 1);
    expect(done).toMatchObject({
      deliveryId: first.body.deliveryId,
      status: 'succeeded',
      nextAttemptAt: null,
    });
    expect(done.attempts.map((a) => [a.statusCode, a.errorClass])).toEqual([
      [500, 'http_status'],
      [200, null],
    ]);
    expect((await webhookRow(server(), biz.businessId, id)).failing_since).toBeNull();
  });

  it('walks the whole retry schedule and gives up after the 10th attempt', async () => {
    const biz = await registerBusiness(server());
    const receiver = await startReceiver(() => ({ status: 500 }));
    const { id } = await createWebhook(biz.client, { url: receiver.url, events: ['customer.created'] });
    await createCustomer(biz.client, { name: 'Always Failing' });

    for (let attempt = 1; attempt < 10; attempt++) {
      const row = await waitForAttempts(server(), biz.businessId, id, attempt);
      expect(row.attempt_count).toBe(attempt);
      expect(row.status).toBe('retrying');
      const attempts = await attemptRows(server(), biz.businessId, row.id);
      expect(attempts).toHaveLength(attempt);
      const gap = row.next_attempt_at!.getTime() - itemAt(attempts, attempt - 1).attempted_at.getTime();
      const base = itemAt(SCHEDULE_MS, attempt - 1);
      expect(gap, `wait after attempt ${attempt}`).toBeGreaterThanOrEqual(base);
      expect(gap, `wait after attempt ${attempt}`).toBeLessThanOrEqual(base * 1.1);
      at(row.next_attempt_at!.getTime());
      await sweep(server().deps);
    }

    const last = await waitForAttempts(server(), biz.businessId, id, 10);
    expect(last).toMatchObject({ status: 'failed', attempt_count: 10, next_attempt_at: null });
    expect(receiver.hits).toHaveLength(10);
    expect(new Set(receiver.hits.map((h) => h.body.deliveryId))).toEqual(new Set([last.id]));
    const [logged] = atLeast(await deliveriesOf(biz.client, id), 1);
    expect(logged.status).toBe('failed');
    expect(logged.attempts).toHaveLength(10);
    expect(logged.attempts.every((a) => a.statusCode === 500 && a.errorClass === 'http_status')).toBe(true);
    // About 3 days in all, short of the 5 days that would turn the webhook off.
    const span = server().clock.now().getTime() - t0;
    expect(span).toBeGreaterThanOrEqual(272_105 * SECOND);
    expect(span).toBeLessThanOrEqual(272_105 * SECOND * 1.1);
    expect((await getWebhook(biz, id)).is_active).toBe(true);

    // Spent: later sweeps make no more attempts.
    server().clock.advance(2 * DAY);
    await sweep(server().deps);
    await settleDeliveries(server(), biz.businessId);
    const [after] = await deliveryRows(server(), biz.businessId, id);
    expect(after).toMatchObject({ status: 'failed', attempt_count: 10 });
    expect(await attemptRows(server(), biz.businessId, last.id)).toHaveLength(10);
    expect(receiver.hits).toHaveLength(10);
  }, 120_000);

  it('counts a redirect as a failure and never follows it', async () => {
    const biz = await registerBusiness(server());
    const target = await startReceiver();
    const receiver = await startReceiver(() => ({ status: 302, headers: { location: target.url } }));
    const { id } = await createWebhook(biz.client, { url: receiver.url, events: ['customer.created'] });
    await createCustomer(biz.client, { name: 'Redirected' });

    const row = await waitForAttempts(server(), biz.businessId, id, 1);
    expect(row.status).toBe('retrying');
    const [logged] = atLeast(await deliveriesOf(biz.client, id), 1);
    expect(logged.attempts).toMatchObject([{ statusCode: 302, errorClass: 'redirect' }]);
    expect(receiver.hits).toHaveLength(1);
    expect(target.hits).toHaveLength(0);
    expect(target.connections).toBe(0);
    await retire(biz, id);
  });

  it('turns the webhook off on 410 Gone and delivers nothing more to it', async () => {
    const biz = await registerBusiness(server());
    const receiver = await startReceiver(() => ({ status: 410 }));
    const { id } = await createWebhook(biz.client, { url: receiver.url, events: ['customer.created'] });
    await createCustomer(biz.client, { name: 'Gone Receiver' });

    const row = await waitForAttempts(server(), biz.businessId, id, 1);
    expect(row).toMatchObject({ status: 'failed', next_attempt_at: null });
    const [logged] = atLeast(await deliveriesOf(biz.client, id), 1);
    expect(logged).toMatchObject({
      status: 'failed',
      nextAttemptAt: null,
      attempts: [{ statusCode: 410, errorClass: 'http_status' }],
    });
    const webhook = await getWebhook(biz, id);
    expect(webhook.is_active).toBe(false);
    expect(webhook.disabled_reason).toMatch(/410/);

    await createCustomer(biz.client, { name: 'After Gone' });
    server().clock.advance(DAY);
    await sweep(server().deps);
    await settleDeliveries(server(), biz.businessId);
    expect(await deliveryRows(server(), biz.businessId, id)).toHaveLength(1);
    expect(receiver.hits).toHaveLength(1);
  });

  it.each([429, 503])('honours Retry-After: 3600 on %i', async (status) => {
    const biz = await registerBusiness(server());
    const receiver = await startReceiver((i) =>
      i === 0 ? { status, headers: { 'retry-after': '3600' } } : { status: 200 },
    );
    const { id } = await createWebhook(biz.client, { url: receiver.url, events: ['customer.created'] });
    await createCustomer(biz.client, { name: `Busy ${status}` });

    const row = await waitForAttempts(server(), biz.businessId, id, 1);
    expect(row.status).toBe('retrying');
    expect(row.next_attempt_at!.getTime() - t0).toBeGreaterThanOrEqual(3600 * SECOND);
    expect((await deliveriesOf(biz.client, id))[0]?.attempts).toMatchObject([
      { statusCode: status, errorClass: 'http_status' },
    ]);

    // The usual 5 s (or even 30 min) later, it is still waiting.
    server().clock.advance(30 * MINUTE);
    await sweep(server().deps);
    const [waiting] = await deliveryRows(server(), biz.businessId, id);
    expect(waiting).toMatchObject({ status: 'retrying', attempt_count: 1 });
    expect(receiver.hits).toHaveLength(1);

    at(row.next_attempt_at!.getTime());
    await sweep(server().deps);
    await waitFor('the retry', () => receiver.hits.length >= 2);
    await settleDeliveries(server(), biz.businessId);
    const [done] = await deliveryRows(server(), biz.businessId, id);
    expect(done).toMatchObject({ status: 'succeeded', attempt_count: 2 });
  });

  it('gives up on a receiver that never answers after the timeout (errorClass timeout)', async () => {
    const biz = await registerBusiness(server());
    const receiver = await startReceiver(() => 'hang');
    const { id } = await createWebhook(biz.client, { url: receiver.url, events: ['customer.created'] });
    const started = Date.now();
    await createCustomer(biz.client, { name: 'Silent Receiver' });

    const row = await waitForAttempts(server(), biz.businessId, id, 1);
    expect(row.status).toBe('retrying');
    const [logged] = atLeast(await deliveriesOf(biz.client, id), 1);
    const [attempt] = atLeast(logged.attempts, 1);
    expect(attempt).toMatchObject({ statusCode: null, errorClass: 'timeout' });
    expect(attempt.durationMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    // It gave up while the receiver still hung: the attempt fits in the time the test waited for it.
    expect(attempt.durationMs).toBeLessThanOrEqual(Date.now() - started);
    expect(receiver.hits).toHaveLength(1);
    await retire(biz, id);
  });

  it('records a refused connection (errorClass connection)', async () => {
    const biz = await registerBusiness(server());
    const closed = await startReceiver();
    await closed.close();
    const { id } = await createWebhook(biz.client, { url: closed.url, events: ['customer.created'] });
    await createCustomer(biz.client, { name: 'Nobody Listening' });

    const row = await waitForAttempts(server(), biz.businessId, id, 1);
    expect(row.status).toBe('retrying');
    const [logged] = atLeast(await deliveriesOf(biz.client, id), 1);
    expect(logged.attempts).toMatchObject([{ statusCode: null, errorClass: 'connection' }]);
    await retire(biz, id);
  });

  it('turns a webhook off after 5 days without a success and emails the business once', async () => {
    const biz = await registerBusiness(server());
    const receiver = await startReceiver(() => ({ status: 500 }));
    const { id } = await createWebhook(biz.client, { url: receiver.url, events: ['customer.created'] });
    const mails = () =>
      server()
        .deps.db.selectFrom('mail_messages')
        .selectAll()
        .where('business_id', '=', biz.businessId)
        .execute();

    await createCustomer(biz.client, { name: 'Day 0' });
    await settleDeliveries(server(), biz.businessId);
    expect((await webhookRow(server(), biz.businessId, id)).failing_since?.getTime()).toBe(t0);

    // Several failing deliveries (and due retries) over the following days.
    for (const day of [1, 2, 4]) {
      at(t0 + day * DAY);
      await sweep(server().deps);
      await createCustomer(biz.client, { name: `Day ${day}` });
      await settleDeliveries(server(), biz.businessId);
      const row = await webhookRow(server(), biz.businessId, id);
      expect(row.is_active, `still active on day ${day}`).toBe(true);
      expect(row.failing_since?.getTime()).toBe(t0);
      expect(await mails()).toEqual([]);
    }

    at(t0 + 5 * DAY + MINUTE);
    await sweep(server().deps);
    await createCustomer(biz.client, { name: 'Day 5' });
    await settleDeliveries(server(), biz.businessId);

    const webhook = await getWebhook(biz, id);
    expect(webhook.is_active).toBe(false);
    expect(webhook.disabled_reason).toMatch(/5 days/);
    expect((await webhookRow(server(), biz.businessId, id)).failing_since?.getTime()).toBe(t0);
    expect(receiver.hits.length).toBeGreaterThanOrEqual(5);

    const [mail, ...more] = atLeast(await mails(), 1);
    expect(more).toEqual([]);
    expect(mail.to_address).toBe(biz.email.toLowerCase());
    expect(mail.subject).toContain(receiver.url);
    const logged = await waitFor('the mail to be logged', async () => {
      const [m] = atLeast(await mails(), 1);
      return m.status === 'logged' ? m : undefined;
    });
    expect(logged.sent_at).not.toBeNull();

    // Off means off: the next event reaches nobody and mails nobody.
    const hits = receiver.hits.length;
    await createCustomer(biz.client, { name: 'After Disable' });
    server().clock.advance(DAY);
    await sweep(server().deps);
    await settleDeliveries(server(), biz.businessId);
    expect(receiver.hits).toHaveLength(hits);
    expect(await mails()).toHaveLength(1);
  }, 60_000);

  it('restarts the 5-day count after a success in between', async () => {
    const biz = await registerBusiness(server());
    let failing = true;
    const receiver = await startReceiver(() => ({ status: failing ? 500 : 200 }));
    const { id } = await createWebhook(biz.client, { url: receiver.url, events: ['customer.created'] });

    await createCustomer(biz.client, { name: 'Fails First' });
    await settleDeliveries(server(), biz.businessId);
    expect((await webhookRow(server(), biz.businessId, id)).failing_since?.getTime()).toBe(t0);

    // A day later the receiver is back and the retry succeeds.
    failing = false;
    at(t0 + DAY);
    await sweep(server().deps);
    await waitFor('the retry', () => receiver.hits.length >= 2);
    await settleDeliveries(server(), biz.businessId);
    expect((await webhookRow(server(), biz.businessId, id)).failing_since).toBeNull();

    // Failing again 5 days after the first failure: the count starts from this failure.
    failing = true;
    at(t0 + 5 * DAY + MINUTE);
    await createCustomer(biz.client, { name: 'Fails Again' });
    await settleDeliveries(server(), biz.businessId);
    const row = await webhookRow(server(), biz.businessId, id);
    expect(row.is_active).toBe(true);
    expect(row.disabled_reason).toBeNull();
    expect(row.failing_since?.getTime()).toBe(t0 + 5 * DAY + MINUTE);
    const mails = await server()
      .deps.db.selectFrom('mail_messages')
      .select('id')
      .where('business_id', '=', biz.businessId)
      .execute();
    expect(mails).toEqual([]);
    await retire(biz, id);
  });
});

describe('the address guard at connect time', () => {
  // No WEBHOOK_ALLOW_PRIVATE: the service refuses to dial private addresses.
  const guarded = useTestServer();

  it('refuses to dial a URL that resolves to a private address (errorClass blocked_address)', async () => {
    const biz = await registerBusiness(guarded());
    const receiver = await startReceiver();
    const now = guarded().clock.now();
    // Written directly, past the check that creation would have made.
    const inserted = await guarded()
      .deps.db.insertInto('webhooks')
      .values(
        [`https://localhost:${receiver.port}/hook`, `https://127.0.0.1:${receiver.port}/hook`].map((url) => ({
          business_id: biz.businessId,
          url,
          events: JSON.stringify(['customer.created']),
          is_active: true,
          secret_sealed: guarded().deps.secrets.seal(newWebhookSecret()),
          previous_secret_sealed: null,
          previous_secret_expires_at: null,
          failing_since: null,
          disabled_reason: null,
          created_at: now,
          updated_at: now,
        })),
      )
      .returning('id')
      .execute();
    expect(inserted).toHaveLength(2);

    await createCustomer(biz.client, { name: 'Aimed Inside' });
    for (const { id } of inserted) {
      const row = await waitForAttempts(guarded(), biz.businessId, Number(id), 1);
      expect(row.status).toBe('retrying');
      const attempts = await attemptRows(guarded(), biz.businessId, row.id);
      expect(attempts).toMatchObject([{ status_code: null, error_class: 'blocked_address' }]);
      const [logged] = atLeast(await deliveriesOf(biz.client, Number(id)), 1);
      expect(logged.attempts).toMatchObject([{ statusCode: null, errorClass: 'blocked_address' }]);
      await retire(biz, Number(id));
    }
    expect(receiver.hits).toHaveLength(0);
    expect(receiver.connections).toBe(0);
  });
});
