import { afterAll, describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import type { Invoice } from '../../contract/general/index.js';
import { updateBusiness } from '../support/auth.js';
import { raw, registerBusiness, sandboxOf, type TestBusiness } from '../support/business.js';
import { onPostgres } from '../support/database.js';
import { outbox } from '../support/events.js';
import { expectApiError } from '../support/expect.js';
import { journal } from '../support/finance.js';
import { createCustomer, getInvoice, invoiceLine, issuedInvoice } from '../support/general.js';
import { useTestServer } from '../support/setup.js';
import {
  checkoutCompleted,
  checkoutExpired,
  signedEvent,
  startStripeStandIn,
} from '../support/stripe-stand-in.js';

/**
 * A business's own Stripe account (docs/decisions.md D270), against a local stand-in of Stripe's API:
 * connecting it (secrets sealed, never answered), Pay opening a Checkout Session for what is due, and
 * Stripe's signed webhook recording the payment once, refused when forged, stale or misaddressed.
 */

const stripe = await startStripeStandIn();
afterAll(() => stripe.close());

// A pool larger than the concurrency below, so the checkout's row lock, not the pool, serialises.
const server = useTestServer({ env: { STRIPE_API_BASE: stripe.url, DB_POOL_SIZE: '30' } });

/**
 * A business that keeps its books in pounds, the currency these payments are in (so no rate is
 * needed to post them: docs/decisions.md D278).
 */
async function registerGbpBusiness(...args: Parameters<typeof registerBusiness>): Promise<TestBusiness> {
  const business = await registerBusiness(...args);
  await updateBusiness(business.client, { base_currency: 'GBP' });
  return business;
}

const where = onPostgres ? 'on PostgreSQL, under real concurrency' : 'on PGlite, serialised by the engine';

const SECRET_KEY = 'sk_test_51HxAbCdEfGh4242';
const WEBHOOK_SECRET = 'whsec_3f9aBcDeFgHiJkLmNoPq';

const path = (url: string) => new URL(url).pathname;

async function connected(): Promise<TestBusiness & { customerId: string }> {
  const biz = await registerGbpBusiness(server(), 'Harbour Supplies');
  await unwrap(
    biz.client.auth.updatePaymentSettings({
      body: { provider: 'stripe', secret_key: SECRET_KEY, webhook_secret: WEBHOOK_SECRET },
    }),
  );
  const customer = await createCustomer(biz.client, { name: 'Ada Lovelace' });
  return { ...biz, customerId: customer.id };
}

const issued = (biz: TestBusiness & { customerId: string }, amount: number): Promise<Invoice> =>
  issuedInvoice(biz.client, {
    customer_id: biz.customerId,
    currency: 'GBP',
    items: [invoiceLine({ description: 'Rope, 50 m', unit_price: amount })],
  });

/** Pay on the invoice's page: the Stripe session it opened. */
async function pay(invoice: Invoice) {
  const res = await fetch(`${server().baseUrl}${path(invoice.hosted_url!)}/pay`, {
    method: 'POST',
    redirect: 'manual',
  });
  expect(res.status).toBe(303);
  const id = /\/checkout\/(cs_test_\w+)$/.exec(res.headers.get('location') ?? '')?.[1];
  expect(id, 'a redirect to the session').toBeDefined();
  return stripe.sessions.get(id!)!;
}

/** Delivers a webhook to the business's endpoint as Stripe does. */
const deliver = (businessId: string, signed: { body: string; header: string }) =>
  raw(server(), 'POST', `/v1/payments/webhooks/stripe/${businessId}`, {
    headers: { 'content-type': 'application/json', 'stripe-signature': signed.header },
    body: signed.body,
  });

describe('connecting Stripe', () => {
  it('keeps the keys sealed: the settings show the last four characters, never a key', async () => {
    const biz = await connected();
    const settings = await biz.client.auth.getPaymentSettings();
    expect(settings.body).toEqual({
      result: 'success',
      data: { provider: 'stripe', secret_key_hint: '4242', webhook_secret_set: true },
    });
    const stored = await server()
      .deps.db.selectFrom('payment_connections')
      .selectAll()
      .where('business_id', '=', biz.businessId)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(SECRET_KEY);
    expect(JSON.stringify(stored)).not.toContain(WEBHOOK_SECRET);
  });

  it('refuses Stripe without its secret key or webhook secret, naming the field and the endpoint', async () => {
    const biz = await registerGbpBusiness(server());
    const noSecret = await biz.client.auth.updatePaymentSettings({
      body: { provider: 'stripe', secret_key: SECRET_KEY },
    });
    await expectApiError(noSecret, 422, 'VALIDATION_ERROR', 'webhook_secret');
    expect(JSON.stringify(noSecret.body)).toContain(`/v1/payments/webhooks/stripe/${biz.businessId}`);
    await expectApiError(
      biz.client.auth.updatePaymentSettings({ body: { provider: 'stripe', webhook_secret: WEBHOOK_SECRET } }),
      422,
      'VALIDATION_ERROR',
      'secret_key',
    );
    await expectApiError(
      biz.client.auth.updatePaymentSettings({
        body: { provider: 'stripe', secret_key: 'pk_live_notasecret', webhook_secret: WEBHOOK_SECRET },
      }),
      422,
      'VALIDATION_ERROR',
      'secret_key',
    );
    expect((await unwrap(biz.client.auth.getPaymentSettings())).data.provider).toBeNull();
  });
});

describe('POST /v1/business/payments/check', () => {
  const check = async (biz: TestBusiness) => (await unwrap(biz.client.auth.checkPaymentSettings())).data;

  it('finds the key accepted and says which endpoint is missing, then which events, then that all is well', async () => {
    const biz = await connected();
    stripe.endpoints.length = 0;
    const none = await check(biz);
    expect(none.provider).toBe('stripe');
    expect(none.ok).toBe(false);
    expect(none.checks.map((c) => [c.name, c.result])).toEqual([
      ['secret_key', 'passed'],
      ['webhook_endpoint', 'failed'],
    ]);
    expect(none.checks[0]!.message).toContain('acct_standin0001 (Harbour Supplies)');
    const url = /sends to (\S+): add one/.exec(none.checks[1]!.message)?.[1];
    expect(url).toMatch(new RegExp(`/v1/payments/webhooks/stripe/${biz.businessId}$`));

    const allBut = [
      'checkout.session.completed',
      'checkout.session.async_payment_succeeded',
      'checkout.session.async_payment_failed',
      'checkout.session.expired',
      'charge.refunded',
      'refund.updated',
      'refund.failed',
    ];
    stripe.endpoints.push({ url: url!, status: 'enabled', enabled_events: allBut });
    const partial = await check(biz);
    expect(partial.ok).toBe(false);
    expect(partial.checks[1]).toMatchObject({
      result: 'failed',
      message: expect.stringContaining('payout.paid'),
    });
    expect(partial.checks[1]!.message).not.toContain('charge.refunded');

    stripe.endpoints[0]!.enabled_events = ['*'];
    const good = await check(biz);
    expect(good.ok).toBe(true);
    expect(good.checks.map((c) => c.result)).toEqual(['passed', 'passed']);
    stripe.endpoints.length = 0;
  });

  it('says a key Stripe refuses failed, and asks nothing more with it', async () => {
    const biz = await registerGbpBusiness(server());
    await unwrap(
      biz.client.auth.updatePaymentSettings({
        body: { provider: 'stripe', secret_key: 'sk_test_revokedKey0001', webhook_secret: WEBHOOK_SECRET },
      }),
    );
    const before = stripe.requests.length;
    const refused = await check(biz);
    expect(refused).toMatchObject({ provider: 'stripe', ok: false });
    expect(refused.checks).toEqual([
      {
        name: 'secret_key',
        result: 'failed',
        message: expect.stringContaining('Stripe refused the secret key'),
      },
    ]);
    expect(stripe.requests.slice(before).map((r) => r.path)).toEqual(['/v1/account']);
  });

  it('answers 409 with no provider connected, and the test provider passes in a sandbox', async () => {
    const live = await registerGbpBusiness(server());
    const none = await live.client.auth.checkPaymentSettings();
    expect(none.status).toBe(409);
    expect(JSON.stringify(none.body)).toContain('PUT /v1/business/payments');
    const sandbox = await sandboxOf(server(), live);
    const test = await check(sandbox);
    expect(test).toMatchObject({
      provider: 'test',
      ok: true,
      checks: [{ name: 'provider', result: 'passed' }],
    });
  });
});

describe('paying through Stripe', () => {
  it('Pay opens a Checkout Session for the amount due; the signed webhook records the payment once', async () => {
    const biz = await connected();
    const invoice = await issued(biz, 120.5);
    const page = await raw(server(), 'GET', path(invoice.hosted_url!));
    // The page's Pay form may lead to Stripe's checkout, and nowhere else but this service.
    expect(page.headers.get('content-security-policy')).toContain(`form-action 'self' ${stripe.url}`);

    const session = await pay(invoice);
    expect(session).toMatchObject({ amount_total: 12050, currency: 'gbp' });
    expect(session.metadata).toMatchObject({ business_id: biz.businessId, invoice_id: invoice.id });
    const sent = stripe.requests.find((r) => r.path === '/v1/checkout/sessions')!;
    expect(sent.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);

    const before = (await outbox(server(), biz.businessId)).length;
    const event = signedEvent(WEBHOOK_SECRET, checkoutCompleted(session, 'pi_test_0001'));
    const first = await deliver(biz.businessId, event);
    expect(first).toMatchObject({ status: 200, body: { data: { received: true, outcome: 'recorded' } } });
    const again = await deliver(biz.businessId, event);
    expect(again.body).toEqual({ data: { received: true, outcome: 'already recorded' } });

    const now = await getInvoice(biz.client, invoice.id);
    expect(now.status).toBe('paid');
    expect(now.payments).toEqual([
      expect.objectContaining({ amount: 120.5, payment_method: 'card', reference: 'pi_test_0001' }),
    ]);
    const types = (await outbox(server(), biz.businessId)).slice(before).map((e) => e.type);
    expect(types.filter((t) => t === 'payment.created')).toHaveLength(1);
    expect(types.filter((t) => t === 'invoice.paid')).toHaveLength(1);
    const entries = await journal(biz.client, { account: '1030' });
    expect(entries.map((e) => e.debits)).toEqual([[{ account: '1030', amount: 12050, base_amount: 12050 }]]);
  });

  it(`the same event delivered ten times at once records one payment (${where})`, async () => {
    const biz = await connected();
    const invoice = await issued(biz, 99.99);
    const session = await pay(invoice);
    const event = signedEvent(WEBHOOK_SECRET, checkoutCompleted(session, 'pi_test_0010'));
    const answers = await Promise.all(Array.from({ length: 10 }, () => deliver(biz.businessId, event)));
    const outcomes = answers.map((a) => (a.body as { data: { outcome: string } }).data.outcome).sort();
    expect(outcomes).toEqual(['recorded', ...Array(9).fill('already recorded')].sort());
    expect((await getInvoice(biz.client, invoice.id)).payments).toHaveLength(1);
  });

  it('an expired checkout records nothing', async () => {
    const biz = await connected();
    const invoice = await issued(biz, 10);
    const session = await pay(invoice);
    const answer = await deliver(biz.businessId, signedEvent(WEBHOOK_SECRET, checkoutExpired(session)));
    expect(answer.body).toEqual({ data: { received: true, outcome: 'checkout ended' } });
    expect((await getInvoice(biz.client, invoice.id)).payments).toEqual([]);
  });

  it('refuses a forged, a stale or a misaddressed webhook with 400, and records nothing', async () => {
    const biz = await connected();
    const invoice = await issued(biz, 30);
    const session = await pay(invoice);
    const completed = checkoutCompleted(session, 'pi_test_0030');

    const forged = signedEvent('whsec_someoneElsesSecret', completed);
    expect((await deliver(biz.businessId, forged)).status).toBe(400);
    const stale = signedEvent(WEBHOOK_SECRET, completed, Math.floor(Date.now() / 1000) - 600);
    expect((await deliver(biz.businessId, stale)).status).toBe(400);
    const altered = signedEvent(WEBHOOK_SECRET, completed);
    const tampered = { ...altered, body: altered.body.replace('"amount_total":3000', '"amount_total":1') };
    expect(tampered.body).not.toBe(altered.body);
    expect((await deliver(biz.businessId, tampered)).status).toBe(400);
    const unsigned = await raw(server(), 'POST', `/v1/payments/webhooks/stripe/${biz.businessId}`, {
      headers: { 'content-type': 'application/json' },
      body: altered.body,
    });
    expect(unsigned.status).toBe(400);

    const good = signedEvent(WEBHOOK_SECRET, completed);
    expect((await deliver('biz_01NOSUCHBUSINESS000000000', good)).status).toBe(400);
    const sandbox = await sandboxOf(server(), biz);
    const wrongPlace = await deliver(sandbox.businessId, good);
    expect(wrongPlace.status).toBe(400);
    expect(JSON.stringify(wrongPlace.body)).toContain('not connected to Stripe');

    expect((await getInvoice(biz.client, invoice.id)).payments).toEqual([]);
  });
});
