import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import { registerBusiness } from '../support/business.js';
import { atLeast, itemAt } from '../support/expect.js';
import { useTestServer } from '../support/setup.js';
import { settleDeliveries, useReceivers, type ReceivedRequest } from '../support/receiver.js';
import { waitFor } from '../support/wait.js';
import { createWebhook, deliveriesOf } from '../support/webhooks.js';
import { createCustomer } from '../support/general.js';

// Tokens outlive the clock moves of the rotation test.
const server = useTestServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true', ACCESS_TOKEN_TTL: '3650d' } });

afterEach(() => server().clock.reset());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const DAY_MS = 24 * 60 * 60 * 1000;

// ---------------------------------------------------------------------------------------------
// Receivers: real HTTP servers on 127.0.0.1 that record every request.

type Hit = ReceivedRequest<{
  event: string;
  data: Record<string, unknown>;
  timestamp: string;
  deliveryId: string;
  occurredAt: string;
  livemode: boolean;
}>;

const startReceiver = useReceivers<Hit['body']>();
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

// ---------------------------------------------------------------------------------------------
// Waiting and checking.

const waitForHits = async <N extends number>(receiver: Receiver, n: N) =>
  atLeast(
    await waitFor(`${n} request(s) at ${receiver.url}`, () => receiver.hits.length >= n && receiver.hits),
    n,
  );

const hmacHex = (secret: string, body: string) => createHmac('sha256', secret).update(body).digest('hex');

/** The Standard Webhooks signature computed independently: keyed with the decoded secret bytes. */
const standardSig = (secret: string, hit: Hit) =>
  `v1,${createHmac('sha256', Buffer.from(secret.replace(/^whsec_/, ''), 'base64'))
    .update(`${String(hit.headers['webhook-id'])}.${String(hit.headers['webhook-timestamp'])}.${hit.rawBody}`)
    .digest('base64')}`;

const verifyStandard = (secret: string, hit: Hit) =>
  new Webhook(secret).verify(hit.rawBody, hit.headers as Record<string, string>);

const nowSeconds = () => Math.floor(Date.now() / 1000);

// ---------------------------------------------------------------------------------------------
// API shortcuts.

const deliveryRows = (businessId: string) =>
  server()
    .deps.db.selectFrom('webhook_deliveries')
    .selectAll()
    .where('business_id', '=', businessId)
    .execute();

// ---------------------------------------------------------------------------------------------

describe('a delivery', () => {
  it('POSTs the event with the resource as the API serialises it, once per subscribed event', async () => {
    const biz = await registerBusiness(server());
    const receiver = await startReceiver();
    const { secret } = await createWebhook(biz.client, {
      url: receiver.url,
      events: ['customer.created', 'customer.updated'],
    });

    const before = Date.now();
    const customer = await createCustomer(biz.client, { name: 'Ada Lovelace' });
    const [hit] = await waitForHits(receiver, 1);
    const after = Date.now();

    expect(hit.method).toBe('POST');
    expect(hit.path).toBe(new URL(receiver.url).pathname);
    expect(Object.keys(hit.body).sort()).toEqual([
      'data',
      'deliveryId',
      'event',
      'livemode',
      'occurredAt',
      'timestamp',
    ]);
    expect(hit.body.event).toBe('customer.created');
    expect(hit.body.data).toEqual(customer);
    expect(hit.body.timestamp).toMatch(ISO);
    expect(hit.body.occurredAt).toMatch(ISO);
    expect(Date.parse(hit.body.timestamp)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(hit.body.timestamp)).toBeLessThanOrEqual(after);
    expect(Date.parse(hit.body.occurredAt)).toBeLessThanOrEqual(Date.parse(hit.body.timestamp));
    expect(hit.body.deliveryId).toMatch(UUID);
    expect(hit.body.livemode).toBe(true);

    expect(hit.headers['content-type']).toBe('application/json');
    expect(hit.headers['user-agent']).toMatch(/\S/);
    expect(hit.headers['x-webhook-event']).toBe('customer.created');
    expect(hit.headers['x-webhook-delivery-id']).toBe(hit.body.deliveryId);
    expect(hit.headers['webhook-id']).toBe(hit.body.deliveryId);
    const ts = hit.headers['x-webhook-timestamp'];
    expect(ts).toMatch(/^\d+$/);
    expect(hit.headers['webhook-timestamp']).toBe(ts);
    expect(Math.abs(Number(ts) - nowSeconds())).toBeLessThanOrEqual(5);
    expect(Number(ts)).toBe(Math.floor(Date.parse(hit.body.timestamp) / 1000));

    // The spec's signature over the raw bytes received, keyed with the secret string from create.
    expect(hit.headers['x-webhook-signature']).toBe(hmacHex(secret, hit.rawBody));
    // The Standard Webhooks signature, checked by the stock verifier.
    expect(verifyStandard(secret, hit)).toEqual(hit.body);
    expect(hit.headers['webhook-signature']).toBe(standardSig(secret, hit));

    // An update is a second, separate delivery; a delete (not subscribed) is none.
    const updated = await unwrap(
      biz.client.general.customers.updateCustomer({
        params: { id: customer.id },
        body: { company: 'Analytical Engines' },
      }),
    );
    await unwrap(biz.client.general.customers.deleteCustomer({ params: { id: customer.id } }));
    await settleDeliveries(server(), biz.businessId);

    expect(receiver.hits.map((h) => h.body.event)).toEqual(['customer.created', 'customer.updated']);
    const second = itemAt(receiver.hits, 1);
    expect(second.body.data).toEqual(updated.data);
    expect(second.body.deliveryId).not.toBe(hit.body.deliveryId);
    expect(verifyStandard(secret, second)).toEqual(second.body);

    const rows = await deliveryRows(biz.businessId);
    expect(rows.map((r) => r.event_type).sort()).toEqual(['customer.created', 'customer.updated']);
    expect(rows.every((r) => r.status === 'succeeded' && r.attempt_count === 1)).toBe(true);
  });

  it('records the successful attempt in the delivery log', async () => {
    const biz = await registerBusiness(server());
    const receiver = await startReceiver();
    const { id } = await createWebhook(biz.client, { url: receiver.url, events: ['product.created'] });
    const before = Date.now();
    await unwrap(
      biz.client.general.products.createProduct({
        body: { name: 'Difference Engine', sku: 'DE-1', price: 1200 },
      }),
    );
    const [hit] = await waitForHits(receiver, 1);
    await settleDeliveries(server(), biz.businessId);

    const [delivery, ...others] = atLeast(await deliveriesOf(biz.client, id), 1);
    expect(others).toEqual([]);
    expect(delivery).toMatchObject({
      deliveryId: hit.body.deliveryId,
      event: 'product.created',
      status: 'succeeded',
      nextAttemptAt: null,
      attempts: [{ statusCode: 200, errorClass: null, redelivery: false }],
    });
    const [event] = atLeast(
      await server()
        .deps.db.selectFrom('events')
        .selectAll()
        .where('business_id', '=', biz.businessId)
        .execute(),
      1,
    );
    expect(delivery.eventId).toBe(event.id);
    expect(event.dispatched_at).not.toBeNull();
    expect(hit.body.occurredAt).toBe(event.occurred_at.toISOString());
    expect(Date.parse(itemAt(delivery.attempts, 0).attemptedAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(delivery.attempts[0]?.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('sends nothing for events the webhook does not subscribe to', async () => {
    const biz = await registerBusiness(server());
    const receiver = await startReceiver();
    const { id } = await createWebhook(biz.client, { url: receiver.url, events: ['invoice.paid'] });

    await createCustomer(biz.client, { name: 'Not Subscribed' });
    await unwrap(
      biz.client.general.products.createProduct({ body: { name: 'Widget', sku: 'W-1', price: 5 } }),
    );
    await settleDeliveries(server(), biz.businessId);

    expect(receiver.hits).toEqual([]);
    expect(await deliveryRows(biz.businessId)).toEqual([]);
    expect(await deliveriesOf(biz.client, id)).toEqual([]);
  });

  it('gives each webhook subscribed to the same event its own delivery', async () => {
    const biz = await registerBusiness(server());
    const [first, second] = await Promise.all([startReceiver(), startReceiver()]);
    const hookA = await createWebhook(biz.client, { url: first.url, events: ['customer.created'] });
    const hookB = await createWebhook(biz.client, {
      url: second.url,
      events: ['customer.created', 'customer.deleted'],
    });

    const customer = await createCustomer(biz.client, { name: 'Grace Hopper' });
    const [a] = await waitForHits(first, 1);
    const [b] = await waitForHits(second, 1);
    await settleDeliveries(server(), biz.businessId);

    expect(first.hits).toHaveLength(1);
    expect(second.hits).toHaveLength(1);
    expect(a.body.deliveryId).not.toBe(b.body.deliveryId);
    expect(a.body.data).toEqual(customer);
    expect(b.body.data).toEqual(customer);
    expect(a.body.occurredAt).toBe(b.body.occurredAt);
    // Each is signed with its own webhook's secret.
    expect(a.headers['x-webhook-signature']).toBe(hmacHex(hookA.secret, a.rawBody));
    expect(b.headers['x-webhook-signature']).toBe(hmacHex(hookB.secret, b.rawBody));
    expect(verifyStandard(hookA.secret, a)).toEqual(a.body);
    expect(verifyStandard(hookB.secret, b)).toEqual(b.body);
    expect(() => verifyStandard(hookB.secret, a)).toThrow();

    expect((await deliveriesOf(biz.client, hookA.id)).map((d) => d.deliveryId)).toEqual([a.body.deliveryId]);
    expect((await deliveriesOf(biz.client, hookB.id)).map((d) => d.deliveryId)).toEqual([b.body.deliveryId]);
  });

  it("never sends another business's events to this business's receiver", async () => {
    const [mine, theirs] = await Promise.all([registerBusiness(server()), registerBusiness(server())]);
    const [myReceiver, theirReceiver] = await Promise.all([startReceiver(), startReceiver()]);
    const myHook = await createWebhook(mine.client, { url: myReceiver.url, events: ['customer.created'] });
    await createWebhook(theirs.client, { url: theirReceiver.url, events: ['customer.created'] });

    const theirCustomer = await createCustomer(theirs.client, { name: 'Their Customer' });
    await waitForHits(theirReceiver, 1);
    await settleDeliveries(server(), theirs.businessId);
    expect(theirReceiver.hits[0]?.body.data).toEqual(theirCustomer);
    expect(myReceiver.hits).toEqual([]);
    expect(await deliveriesOf(mine.client, myHook.id)).toEqual([]);

    const myCustomer = await createCustomer(mine.client, { name: 'My Customer' });
    await waitForHits(myReceiver, 1);
    await settleDeliveries(server(), mine.businessId);
    expect(myReceiver.hits.map((h) => h.body.data)).toEqual([myCustomer]);
    expect(theirReceiver.hits).toHaveLength(1);
  });

  it('delivers the lifecycle of an invoice paid in full', async () => {
    const biz = await registerBusiness(server());
    const receiver = await startReceiver();
    const { secret } = await createWebhook(biz.client, {
      url: receiver.url,
      events: ['invoice.created', 'invoice.updated', 'payment.created', 'invoice.paid'],
    });
    const customer = await createCustomer(biz.client, { name: 'Charles Babbage' });
    const invoices = biz.client.general.invoices;
    const created = (
      await unwrap(
        invoices.createInvoice({
          body: {
            customer_id: customer.id,
            items: [{ description: 'Consulting', quantity: 2, unit_price: 150 }],
            due_date: '2099-01-31',
          },
        }),
      )
    ).data;
    const issued = (await unwrap(invoices.issueInvoice({ params: { id: created.id } }))).data;
    const paid = (
      await unwrap(
        invoices.createPayment({
          params: { id: created.id },
          body: { amount: 300, payment_method: 'bank_transfer' },
        }),
      )
    ).data;
    expect(paid.status).toBe('paid');

    await waitForHits(receiver, 5);
    await settleDeliveries(server(), biz.businessId);
    expect(receiver.hits).toHaveLength(5);

    const byEvent = (name: string) => receiver.hits.filter((h) => h.body.event === name);
    expect(byEvent('invoice.created').map((h) => h.body.data)).toEqual([created]);
    expect(
      byEvent('invoice.updated')
        .map((h) => h.body.data)
        .sort((x, y) => String(x.status).localeCompare(String(y.status))),
    ).toEqual([paid, issued].sort((x, y) => x.status.localeCompare(y.status)));
    expect(byEvent('invoice.paid').map((h) => h.body.data)).toEqual([paid]);
    const [payment] = atLeast(byEvent('payment.created'), 1);
    expect(payment.body.data).toMatchObject({ invoice_id: created.id, amount: 300 });
    for (const hit of receiver.hits) {
      expect(hit.headers['x-webhook-event']).toBe(hit.body.event);
      expect(hit.headers['x-webhook-signature']).toBe(hmacHex(secret, hit.rawBody));
      expect(verifyStandard(secret, hit)).toEqual(hit.body);
    }
    expect(new Set(receiver.hits.map((h) => h.body.deliveryId)).size).toBe(5);
  });
});

describe('is_active', () => {
  it('stops new deliveries while the webhook is inactive and resumes them when it is reactivated', async () => {
    const biz = await registerBusiness(server());
    const receiver = await startReceiver();
    const { id } = await createWebhook(biz.client, { url: receiver.url, events: ['customer.created'] });

    await unwrap(biz.client.webhooks.updateWebhook({ params: { id }, body: { is_active: false } }));
    await createCustomer(biz.client, { name: 'While Inactive' });
    await settleDeliveries(server(), biz.businessId);
    expect(receiver.hits).toEqual([]);
    expect(await deliveryRows(biz.businessId)).toEqual([]);

    await unwrap(biz.client.webhooks.updateWebhook({ params: { id }, body: { is_active: true } }));
    const back = await createCustomer(biz.client, { name: 'After Reactivation' });
    await waitForHits(receiver, 1);
    await settleDeliveries(server(), biz.businessId);
    expect(receiver.hits.map((h) => h.body.data)).toEqual([back]);
    expect(await deliveryRows(biz.businessId)).toHaveLength(1);
  });
});

describe('secret rotation', () => {
  it('signs with the new and the old secret for 24 hours, then with the new one only', async () => {
    const biz = await registerBusiness(server());
    const receiver = await startReceiver();
    const { id, secret: oldSecret } = await createWebhook(biz.client, {
      url: receiver.url,
      events: ['customer.created'],
    });

    const rotated = await unwrap(biz.client.webhooks.rotateSecret({ params: { id } }));
    const newSecret = rotated.secret;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(oldSecret);

    await createCustomer(biz.client, { name: 'During Overlap' });
    const [hit] = await waitForHits(receiver, 1);
    await settleDeliveries(server(), biz.businessId);
    const parts = String(hit.headers['webhook-signature']).split(' ');
    expect(parts).toHaveLength(2);
    expect(parts.every((p) => p.startsWith('v1,'))).toBe(true);
    // Stock verifiers holding either secret accept it (clock still at real time).
    expect(verifyStandard(newSecret, hit)).toEqual(hit.body);
    expect(verifyStandard(oldSecret, hit)).toEqual(hit.body);
    expect(parts).toContain(standardSig(newSecret, hit));
    expect(parts).toContain(standardSig(oldSecret, hit));
    // The spec's header already uses the new secret.
    expect(hit.headers['x-webhook-signature']).toBe(hmacHex(newSecret, hit.rawBody));

    // After the overlap, the old secret signs nothing (verified by HMAC: the clock is a day ahead).
    server().clock.advance(DAY_MS + 60_000);
    await createCustomer(biz.client, { name: 'After Overlap' });
    const [, later] = await waitForHits(receiver, 2);
    await settleDeliveries(server(), biz.businessId);
    expect(Number(later.headers['webhook-timestamp'])).toBeGreaterThanOrEqual(nowSeconds() + DAY_MS / 1000);
    expect(later.headers['webhook-signature']).toBe(standardSig(newSecret, later));
    expect(String(later.headers['webhook-signature'])).not.toContain(' ');
    expect(later.headers['x-webhook-signature']).toBe(hmacHex(newSecret, later.rawBody));
    expect(receiver.hits).toHaveLength(2);
  });
});

describe('redeliver', () => {
  it('sends the same deliveryId again with a fresh timestamp and a valid signature', async () => {
    const biz = await registerBusiness(server());
    const receiver = await startReceiver();
    const { id, secret } = await createWebhook(biz.client, {
      url: receiver.url,
      events: ['customer.created'],
    });
    const customer = await createCustomer(biz.client, { name: 'Ada Redelivered' });
    const [first] = await waitForHits(receiver, 1);
    await settleDeliveries(server(), biz.businessId);

    // Within the Standard Webhooks tolerance, so the stock verifier still applies.
    server().clock.advance(90_000);
    await unwrap(biz.client.webhooks.redeliver({ params: { id, deliveryId: first.body.deliveryId } }));
    const [, again] = await waitForHits(receiver, 2);
    await settleDeliveries(server(), biz.businessId);

    expect(again.body.deliveryId).toBe(first.body.deliveryId);
    expect(again.headers['webhook-id']).toBe(first.body.deliveryId);
    expect(again.headers['x-webhook-delivery-id']).toBe(first.body.deliveryId);
    expect(again.body.event).toBe('customer.created');
    expect(again.body.data).toEqual(customer);
    expect(again.body.occurredAt).toBe(first.body.occurredAt);
    expect(Date.parse(again.body.timestamp) - Date.parse(first.body.timestamp)).toBeGreaterThanOrEqual(
      90_000,
    );
    expect(Number(again.headers['x-webhook-timestamp'])).toBeGreaterThanOrEqual(
      Number(first.headers['x-webhook-timestamp']) + 90,
    );
    expect(again.headers['webhook-timestamp']).toBe(again.headers['x-webhook-timestamp']);
    expect(again.headers['x-webhook-signature']).toBe(hmacHex(secret, again.rawBody));
    expect(again.headers['x-webhook-signature']).not.toBe(first.headers['x-webhook-signature']);
    expect(verifyStandard(secret, again)).toEqual(again.body);

    const [delivery] = atLeast(await deliveriesOf(biz.client, id), 1);
    expect(delivery.status).toBe('succeeded');
    expect(delivery.attempts.map((a) => [a.statusCode, a.redelivery])).toEqual([
      [200, false],
      [200, true],
    ]);
    expect(receiver.hits).toHaveLength(2);
  });
});
