import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RefundRefusedError, type CheckoutRequest } from '../../server/platform/payments/provider.js';
import {
  ProviderSignatureError,
  stripeProvider,
  type StripePaymentProvider,
} from '../../server/platform/payments/stripe.js';
import {
  chargeRefunded,
  checkoutCompleted,
  checkoutExpired,
  payoutPaid,
  refundUpdated,
  signedBody,
  signedEvent,
  startStripeStandIn,
  stripeEvent,
  type StandInSession,
  type StripeStandIn,
} from '../support/stripe-stand-in.js';

const SECRET_KEY = `sk_test_${randomBytes(12).toString('hex')}`;
const WEBHOOK_SECRET = `whsec_${randomBytes(24).toString('base64')}`;

const checkout = (overrides: Partial<CheckoutRequest> = {}): CheckoutRequest => ({
  checkoutId: `chk_${randomBytes(8).toString('hex')}`,
  businessId: 'biz_01',
  invoiceId: 'inv_01',
  description: 'Invoice INV-000012 from Acme Ltd',
  amountMinor: 12_345,
  currency: 'EUR',
  successUrl: 'https://pay.example.com/done?checkout=1',
  cancelUrl: 'https://pay.example.com/back?checkout=1',
  ...overrides,
});

describe('the stripe payment provider', () => {
  let standIn: StripeStandIn;
  let stripe: StripePaymentProvider;

  beforeAll(async () => {
    standIn = await startStripeStandIn();
    stripe = stripeProvider({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, apiBase: standIn.url });
  });
  afterAll(async () => {
    await standIn.close();
  });

  /** A checkout opened through the provider, and the session the stand-in made for it. */
  async function openedSession(overrides: Partial<CheckoutRequest> = {}): Promise<StandInSession> {
    const opened = await stripe.createCheckout(checkout(overrides));
    const session = standIn.sessions.get(opened.session);
    if (!session) throw new Error(`The stand-in has no session ${opened.session}`);
    return session;
  }

  describe('createCheckout', () => {
    it('opens a payment session for the amount in minor units, named, with the way back and the ids', async () => {
      const request = checkout({ amountMinor: 12_345, currency: 'EUR' });
      const opened = await stripe.createCheckout(request);

      expect(opened.session).toMatch(/^cs_test_[0-9a-f]+$/);
      expect(opened.url).toBe(`${standIn.url}/checkout/${opened.session}`);
      const sent = standIn.requests.at(-1)!;
      expect(sent.method).toBe('POST');
      expect(sent.path).toBe('/v1/checkout/sessions');
      expect(sent.form).toMatchObject({
        mode: 'payment',
        'line_items[0][quantity]': '1',
        'line_items[0][price_data][unit_amount]': '12345',
        'line_items[0][price_data][currency]': 'eur',
        'line_items[0][price_data][product_data][name]': 'Invoice INV-000012 from Acme Ltd',
        success_url: request.successUrl,
        cancel_url: request.cancelUrl,
        client_reference_id: request.checkoutId,
        'metadata[business_id]': 'biz_01',
        'metadata[invoice_id]': 'inv_01',
        'metadata[checkout_id]': request.checkoutId,
      });
    });

    it('authenticates with the secret key and sends the checkout id as the idempotency key', async () => {
      const request = checkout();
      await stripe.createCheckout(request);

      const sent = standIn.requests.at(-1)!;
      expect(sent.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
      expect(sent.headers['idempotency-key']).toBe(`checkout-${request.checkoutId}`);
    });

    it('gives back the same session when the same checkout is opened again', async () => {
      const request = checkout();
      const first = await stripe.createCheckout(request);
      const again = await stripe.createCheckout({ ...request });

      expect(again.session).toBe(first.session);
    });

    it('charges a zero-decimal currency in whole units', async () => {
      await stripe.createCheckout(checkout({ amountMinor: 5000, currency: 'JPY' }));

      expect(standIn.requests.at(-1)!.form).toMatchObject({
        'line_items[0][price_data][unit_amount]': '5000',
        'line_items[0][price_data][currency]': 'jpy',
      });
    });
  });

  describe('supportsCurrency', () => {
    it('takes the currencies Stripe presents in, in either case', () => {
      for (const code of ['USD', 'EUR', 'GBP', 'JPY', 'KWD', 'NZD', 'AUD', 'CAD', 'CHF', 'SEK', 'NOK']) {
        expect(stripe.supportsCurrency(code), code).toBe(true);
      }
      for (const code of ['DKK', 'PLN', 'CZK', 'HUF', 'INR', 'SGD', 'HKD', 'MXN', 'BRL', 'ZAR']) {
        expect(stripe.supportsCurrency(code), code).toBe(true);
      }
      expect(stripe.supportsCurrency('usd')).toBe(true);
    });

    it('refuses codes Stripe does not take, and those whose minor unit Stripe counts differently', () => {
      for (const code of ['XXX', 'XAU', 'BTC', 'IRR', 'KPW', 'ISK', 'MGA', '']) {
        expect(stripe.supportsCurrency(code), code).toBe(false);
      }
    });
  });

  describe('parseWebhook', () => {
    it('reads a paid checkout.session.completed as the payment', async () => {
      const session = await openedSession({ amountMinor: 4_250, currency: 'GBP' });
      const event = checkoutCompleted(session, 'pi_test_paid');
      const { body, header } = signedEvent(WEBHOOK_SECRET, event);

      expect(stripe.parseWebhook(Buffer.from(body), header)).toEqual({
        kind: 'payment',
        eventId: event.id,
        payment: {
          provider: 'stripe',
          session: session.id,
          paymentId: 'pi_test_paid',
          amountMinor: 4_250,
          currency: 'GBP',
        },
      });
    });

    it('reads a delayed payment that succeeded as the payment', async () => {
      const session = await openedSession({ amountMinor: 990, currency: 'EUR' });
      const event = stripeEvent('checkout.session.async_payment_succeeded', {
        ...session,
        status: 'complete',
        payment_status: 'paid',
        payment_intent: { id: 'pi_test_sepa', object: 'payment_intent' },
      });
      const { body, header } = signedEvent(WEBHOOK_SECRET, event);

      const parsed = stripe.parseWebhook(body, header);
      expect(parsed).toMatchObject({
        kind: 'payment',
        payment: { paymentId: 'pi_test_sepa', amountMinor: 990 },
      });
    });

    it('reads a checkout completed but not yet paid, and an expired one, as ended with nothing to record', async () => {
      const session = await openedSession();
      const unpaid = checkoutCompleted(session, 'pi_test_pending', 'unpaid');
      const expired = checkoutExpired(session);

      const first = signedEvent(WEBHOOK_SECRET, unpaid);
      expect(stripe.parseWebhook(first.body, first.header)).toEqual({
        kind: 'checkout ended',
        eventId: unpaid.id,
        session: session.id,
      });
      const second = signedEvent(WEBHOOK_SECRET, expired);
      expect(stripe.parseWebhook(second.body, second.header)).toEqual({
        kind: 'checkout ended',
        eventId: expired.id,
        session: session.id,
      });
    });

    it('reads charge.refunded as the refund of the payment intent, with the latest refund when listed', () => {
      const listed = chargeRefunded({
        paymentIntentId: 'pi_test_refunded',
        amount: 5_000,
        amountRefunded: 1_500,
        currency: 'usd',
        refundId: 're_test_latest',
      });
      const { body, header } = signedEvent(WEBHOOK_SECRET, listed);
      expect(stripe.parseWebhook(body, header)).toEqual({
        kind: 'refund',
        eventId: listed.id,
        paymentId: 'pi_test_refunded',
        refundId: 're_test_latest',
        amountMinor: 1_500,
        currency: 'USD',
      });

      const unlisted = chargeRefunded({
        paymentIntentId: 'pi_test_refunded',
        amountRefunded: 5_000,
        currency: 'usd',
      });
      const again = signedEvent(WEBHOOK_SECRET, unlisted);
      expect(stripe.parseWebhook(again.body, again.header)).toMatchObject({
        kind: 'refund',
        refundId: null,
        amountMinor: 5_000,
      });
    });

    it('reads refund.updated and refund.failed as that refund where it stands', () => {
      for (const status of ['succeeded', 'failed', 'pending'] as const) {
        const event = refundUpdated({
          refundId: 're_test_7',
          paymentIntentId: 'pi_test_7',
          amount: 1_200,
          currency: 'eur',
          status,
        });
        expect(event.type).toBe(status === 'failed' ? 'refund.failed' : 'refund.updated');
        const { body, header } = signedEvent(WEBHOOK_SECRET, event);
        expect(stripe.parseWebhook(body, header)).toEqual({
          kind: 'refund status',
          eventId: event.id,
          paymentId: 'pi_test_7',
          refundId: 're_test_7',
          status,
        });
      }
    });

    it('reads payout.paid with its arrival date in UTC', () => {
      // 2026-03-31T23:30:00Z: a day later in Asia, the same day in UTC.
      const event = payoutPaid({
        payoutId: 'po_test_1',
        amount: 98_765,
        currency: 'eur',
        arrivalDate: Date.UTC(2026, 2, 31, 23, 30) / 1000,
      });
      const { body, header } = signedEvent(WEBHOOK_SECRET, event);

      expect(stripe.parseWebhook(body, header)).toEqual({
        kind: 'payout',
        eventId: event.id,
        payoutId: 'po_test_1',
        amountMinor: 98_765,
        currency: 'EUR',
        arrivalDate: '2026-03-31',
      });
    });

    it('ignores an event the service has no use for, naming its type', () => {
      const event = stripeEvent('customer.created', { id: 'cus_test_1', object: 'customer' });
      const { body, header } = signedEvent(WEBHOOK_SECRET, event);

      expect(stripe.parseWebhook(body, header)).toEqual({
        kind: 'ignored',
        eventId: event.id,
        type: 'customer.created',
      });
    });

    it('accepts a webhook up to 300 s old by the clock it is given', async () => {
      const session = await openedSession();
      const sentAt = 1_700_000_000;
      const { body, header } = signedEvent(
        WEBHOOK_SECRET,
        checkoutCompleted(session, 'pi_test_late'),
        sentAt,
      );

      expect(stripe.parseWebhook(body, header, sentAt + 300).kind).toBe('payment');
    });

    describe('refuses, as not from Stripe', () => {
      let signed: { body: string; header: string };
      beforeAll(async () => {
        signed = signedEvent(WEBHOOK_SECRET, checkoutCompleted(await openedSession(), 'pi_test_forged'));
      });

      const refusal = (run: () => unknown) => {
        try {
          run();
        } catch (error) {
          return error;
        }
        throw new Error('The webhook was accepted');
      };

      it('a webhook signed with another secret', () => {
        const forged = signedEvent(`whsec_${randomBytes(24).toString('base64')}`, JSON.parse(signed.body));
        expect(refusal(() => stripe.parseWebhook(forged.body, forged.header))).toBeInstanceOf(
          ProviderSignatureError,
        );
      });

      it('a body altered after it was signed', () => {
        const altered = signed.body.replace('"amount_total":12345', '"amount_total":1');
        expect(altered).not.toBe(signed.body);
        expect(refusal(() => stripe.parseWebhook(altered, signed.header))).toBeInstanceOf(
          ProviderSignatureError,
        );
      });

      it('a webhook older than 300 s', () => {
        const sentAt = 1_700_000_000;
        const old = signedEvent(WEBHOOK_SECRET, JSON.parse(signed.body), sentAt);
        const error = refusal(() => stripe.parseWebhook(old.body, old.header, sentAt + 301));
        expect(error).toBeInstanceOf(ProviderSignatureError);
        expect((error as Error).message).toMatch(/tolerance/);
      });

      it('a webhook without a signature header', () => {
        expect(refusal(() => stripe.parseWebhook(signed.body, undefined))).toBeInstanceOf(
          ProviderSignatureError,
        );
        expect(refusal(() => stripe.parseWebhook(signed.body, ''))).toBeInstanceOf(ProviderSignatureError);
      });

      it('a signed body that is not JSON', () => {
        // Signed properly over the broken text, so only the parse can refuse it.
        const broken = signedBody(WEBHOOK_SECRET, '{"id": "evt_test_cut", "object": "ev');
        expect(refusal(() => stripe.parseWebhook(broken.body, broken.header))).toBeInstanceOf(
          ProviderSignatureError,
        );
      });
    });
  });

  describe('refund', () => {
    it('asks Stripe to refund the amount of the payment intent under the idempotency key, and answers pending', async () => {
      const answer = await stripe.refund('pi_test_to_refund', 2_500, 'refund-rfd_01');

      expect(answer.refundId).toMatch(/^re_test_[0-9a-f]+$/);
      expect(answer.status).toBe('pending');
      const sent = standIn.requests.at(-1)!;
      expect(sent.path).toBe('/v1/refunds');
      expect(sent.form).toEqual({ payment_intent: 'pi_test_to_refund', amount: '2500' });
      expect(sent.headers['idempotency-key']).toBe('refund-rfd_01');
      expect(sent.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
    });

    it('throws RefundRefusedError when Stripe refuses the refund itself, so it is not retried', async () => {
      const refused = await stripe.refund('pi_disputed_1', 2_500, 'refund-rfd_02').catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(RefundRefusedError);
      expect((refused as Error).message).toContain('charged back');
    });
  });
});
