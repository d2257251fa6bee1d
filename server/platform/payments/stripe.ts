import Stripe from 'stripe';
import {
  RefundRefusedError,
  type CheckoutRequest,
  type ConnectionCheck,
  type ConfirmedPayment,
  type OpenedCheckout,
  type PaymentProvider,
  type RefundStatus,
} from './provider.js';

/**
 * The `stripe` provider (docs/decisions.md D270): a Stripe Checkout Session per checkout, and
 * Stripe's signed webhooks for what happened to it afterwards. The service asks Stripe for nothing
 * else: what a webhook says is all it needs, so the mapping below is the whole of what it reads.
 */

export interface StripeOptions {
  /** The account's secret key (`sk_live_...`, `sk_test_...`, or a restricted `rk_...`). */
  secretKey: string;
  /** The signing secret of the webhook endpoint (`whsec_...`). */
  webhookSecret: string;
  /** Where the API answers, e.g. `http://127.0.0.1:12111` for a local stand-in; Stripe's own by default. */
  apiBase?: string;
}

/** A webhook whose signature, age or body Stripe's rules refuse: it did not come from Stripe. */
export class ProviderSignatureError extends Error {
  override readonly name = 'ProviderSignatureError';
}

/** What a Stripe webhook means to the service; `eventId` lets it skip a delivery it already took. */
export type StripeWebhookEvent =
  | { kind: 'payment'; eventId: string; payment: ConfirmedPayment }
  /** The checkout closed without money arriving: expired, declined later, or left unpaid. */
  | { kind: 'checkout ended'; eventId: string; session: string }
  /**
   * `amountMinor` is everything refunded on the payment so far, not this refund alone. `refundId`
   * is null when the event leaves the charge's refunds out, as API versions since 2022-11-15 do
   * unless the endpoint expands them.
   */
  | {
      kind: 'refund';
      eventId: string;
      paymentId: string;
      refundId: string | null;
      amountMinor: number;
      currency: string;
    }
  /** One refund where it now stands (`refund.updated`, `refund.failed`, `charge.refund.updated`). */
  | {
      kind: 'refund status';
      eventId: string;
      paymentId: string | null;
      refundId: string;
      status: RefundStatus;
    }
  /** Money Stripe paid into the business's bank account, on `arrivalDate` (YYYY-MM-DD, UTC). */
  | {
      kind: 'payout';
      eventId: string;
      payoutId: string;
      amountMinor: number;
      currency: string;
      arrivalDate: string;
    }
  | { kind: 'ignored'; eventId: string; type: string };

export interface StripePaymentProvider extends PaymentProvider {
  readonly name: 'stripe';
  /** Reads a webhook from its raw body; `nowSeconds` is when it arrived (now by default). */
  parseWebhook(
    rawBody: Buffer | string,
    signatureHeader: string | undefined,
    nowSeconds?: number,
  ): StripeWebhookEvent;
}

/**
 * The presentment currencies of Stripe's currency page (docs.stripe.com/currencies) whose minor
 * unit is the service's (ISO 4217). Two listed there are left out because their units differ, so an
 * amount would be charged 100 times too much or too little: ISK, which Stripe keeps at two decimals
 * although it charges whole krónur, and MGA, which Stripe counts in whole ariary. Stripe takes the
 * three-decimal ones (BHD, JOD, KWD, OMR, TND) only in multiples of ten minor units.
 */
export const STRIPE_CURRENCIES: ReadonlySet<string> = new Set(
  (
    'AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BWP BZD ' +
    'CAD CDF CHF CLP CNY COP CRC CVE CZK DJF DKK DOP DZD EGP ETB EUR FJD FKP GBP GEL GIP GMD GNF ' +
    'GTQ GYD HKD HNL HTG HUF IDR ILS INR JMD JOD JPY KES KGS KHR KMF KRW KWD KYD KZT LAK LBP LKR ' +
    'LRD LSL MAD MDL MKD MNT MOP MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK ' +
    'PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SEK SGD SHP SOS SRD SZL THB TJS TND TOP TRY ' +
    'TTD TWD TZS UAH UGX USD UYU UZS VND VUV WST XAF XCD XOF XPF YER ZAR ZMW'
  ).split(' '),
);

/** The events the service reads (`meaningOf`): an endpoint missing one loses what it tells. */
export const STRIPE_EVENTS = [
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
  'charge.refunded',
  'refund.updated',
  'refund.failed',
  'payout.paid',
] as const;

/** How old a webhook may be, as Stripe's own libraries allow: a replayed one is refused after it. */
const WEBHOOK_TOLERANCE_SECONDS = 300;

export function stripeProvider(options: StripeOptions): StripePaymentProvider {
  const stripe = stripeClient(options);
  return {
    name: 'stripe',
    // Stripe's hosted checkout; with a stand-in (apiBase), the stand-in's own pages.
    checkoutOrigin: options.apiBase ? new URL(options.apiBase).origin : 'https://checkout.stripe.com',

    supportsCurrency: (currency) => STRIPE_CURRENCIES.has(currency.toUpperCase()),

    async createCheckout(request: CheckoutRequest): Promise<OpenedCheckout> {
      const metadata = {
        business_id: request.businessId,
        invoice_id: request.invoiceId,
        checkout_id: request.checkoutId,
      };
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: request.currency.toLowerCase(),
                unit_amount: request.amountMinor,
                product_data: { name: request.description },
              },
            },
          ],
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
          client_reference_id: request.checkoutId,
          metadata,
          // So that the payment, its charge and its refunds name the invoice in Stripe's dashboard too.
          payment_intent_data: { metadata },
        },
        // Opening the same checkout twice (a retry after a lost answer) gives back the same session.
        { idempotencyKey: `checkout-${request.checkoutId}` },
      );
      if (!session.url) throw new Error(`Stripe opened checkout session ${session.id} without a page`);
      return { session: session.id, url: session.url };
    },

    parseWebhook(rawBody, signatureHeader, nowSeconds) {
      if (!signatureHeader) throw new ProviderSignatureError('The webhook has no Stripe-Signature header');
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(
          rawBody,
          signatureHeader,
          options.webhookSecret,
          WEBHOOK_TOLERANCE_SECONDS,
          undefined,
          nowSeconds === undefined ? undefined : nowSeconds * 1000,
        );
      } catch (error) {
        // The SDK throws its own error for a signature or age it refuses, and a SyntaxError for a
        // signed body that is not JSON: either way nothing in it can be trusted.
        throw new ProviderSignatureError(error instanceof Error ? error.message : String(error), {
          cause: error,
        });
      }
      return meaningOf(event);
    },

    async refund(paymentId, amountMinor, idempotencyKey) {
      try {
        const refund = await stripe.refunds.create(
          { payment_intent: paymentId, amount: amountMinor },
          { idempotencyKey },
        );
        return { refundId: refund.id, status: refundStatusOf(refund.status) };
      } catch (error) {
        // Stripe refused the request itself (charge already refunded, disputed, amount too large):
        // asking again gives the same answer. A network error or a 5xx is thrown as it is, to retry.
        if (error instanceof Stripe.errors.StripeInvalidRequestError) {
          throw new RefundRefusedError(error.message, { cause: error });
        }
        throw error;
      }
    },

    checkConnection: (webhookUrl) => checkStripe(stripe, webhookUrl),
  };
}

/** Whether Stripe takes the key, and whether an endpoint sends what the service reads to `webhookUrl`. */
async function checkStripe(stripe: Stripe, webhookUrl: string): Promise<ConnectionCheck[]> {
  const refusal = (error: unknown) => (error instanceof Error ? error.message : String(error));
  let key: ConnectionCheck;
  try {
    const account = await stripe.accounts.retrieveCurrent();
    const name = account.settings?.dashboard?.display_name ?? account.business_profile?.name;
    key = {
      name: 'secret_key',
      result: 'passed',
      message: `Stripe accepted the key of account ${account.id}${name ? ` (${name})` : ''}`,
    };
  } catch (error) {
    if (error instanceof Stripe.errors.StripeAuthenticationError) {
      key = {
        name: 'secret_key',
        result: 'failed',
        message: `Stripe refused the secret key (${refusal(error)}): copy it again from Stripe's Developers, API keys`,
      };
      // Nothing else can be asked with a key Stripe refuses.
      return [key];
    }
    if (error instanceof Stripe.errors.StripePermissionError) {
      key = {
        name: 'secret_key',
        result: 'passed',
        message: 'Stripe accepted the key, a restricted one that may not read the account',
      };
    } else {
      return [
        { name: 'secret_key', result: 'unknown', message: `Stripe could not be reached: ${refusal(error)}` },
      ];
    }
  }
  return [key, await checkEndpoint(stripe, webhookUrl)];
}

async function checkEndpoint(stripe: Stripe, webhookUrl: string): Promise<ConnectionCheck> {
  const check = (result: ConnectionCheck['result'], message: string): ConnectionCheck => ({
    name: 'webhook_endpoint',
    result,
    message,
  });
  let endpoints: Stripe.WebhookEndpoint[];
  try {
    endpoints = (await stripe.webhookEndpoints.list({ limit: 100 })).data;
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return check(
      'unknown',
      `The webhook endpoints could not be read with this key (${why}): check them in Stripe`,
    );
  }
  const ours = endpoints.filter((e) => e.url === webhookUrl);
  if (ours.length === 0) {
    return check(
      'failed',
      `No webhook endpoint of this Stripe account sends to ${webhookUrl}: add one in Stripe's Developers, Webhooks`,
    );
  }
  const enabled = ours.find((e) => e.status === 'enabled');
  if (!enabled) return check('failed', `The endpoint for ${webhookUrl} is disabled in Stripe: enable it`);
  const sent = new Set(enabled.enabled_events);
  const missing = sent.has('*') ? [] : STRIPE_EVENTS.filter((event) => !sent.has(event));
  if (missing.length > 0) {
    return check(
      'failed',
      `The endpoint for ${webhookUrl} does not send ${missing.join(', ')}: add them in Stripe`,
    );
  }
  return check('passed', `The endpoint for ${webhookUrl} is enabled and sends every event the service reads`);
}

function stripeClient(options: StripeOptions): Stripe {
  const config: Stripe.StripeConfig = {
    // The version the SDK's types describe, so that what the code reads is what Stripe sends.
    apiVersion: Stripe.API_VERSION,
    // Every POST carries an idempotency key, so a retry after a lost answer changes nothing twice.
    maxNetworkRetries: 2,
    timeout: 15_000,
  };
  if (options.apiBase) {
    const base = new URL(options.apiBase);
    const protocol = base.protocol === 'http:' ? 'http' : 'https';
    config.host = base.hostname;
    config.port = base.port || (protocol === 'http' ? 80 : 443);
    config.protocol = protocol;
  }
  return new Stripe(options.secretKey, config);
}

function meaningOf(event: Stripe.Event): StripeWebhookEvent {
  const eventId = event.id;
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const session = event.data.object;
      // A card is paid on completion; a bank debit completes unpaid and succeeds (or fails) later.
      if (session.payment_status !== 'paid') return { kind: 'checkout ended', eventId, session: session.id };
      return { kind: 'payment', eventId, payment: paymentOf(session) };
    }
    case 'checkout.session.async_payment_failed':
    case 'checkout.session.expired':
      return { kind: 'checkout ended', eventId, session: event.data.object.id };
    case 'charge.refunded': {
      const charge = event.data.object;
      const paymentId = idOf(charge.payment_intent);
      // A charge without a payment intent was not made through a checkout the service opened.
      if (!paymentId) return { kind: 'ignored', eventId, type: event.type };
      return {
        kind: 'refund',
        eventId,
        paymentId,
        refundId: charge.refunds?.data[0]?.id ?? null,
        amountMinor: charge.amount_refunded,
        currency: charge.currency.toUpperCase(),
      };
    }
    case 'refund.updated':
    case 'refund.failed':
    case 'charge.refund.updated': {
      const refund = event.data.object;
      return {
        kind: 'refund status',
        eventId,
        paymentId: idOf(refund.payment_intent),
        refundId: refund.id,
        status: refundStatusOf(refund.status),
      };
    }
    case 'payout.paid': {
      const payout = event.data.object;
      return {
        kind: 'payout',
        eventId,
        payoutId: payout.id,
        amountMinor: payout.amount,
        currency: payout.currency.toUpperCase(),
        arrivalDate: new Date(payout.arrival_date * 1000).toISOString().slice(0, 10),
      };
    }
    default:
      return { kind: 'ignored', eventId, type: event.type };
  }
}

function paymentOf(session: Stripe.Checkout.Session): ConfirmedPayment {
  const paymentId = idOf(session.payment_intent);
  // A paid session in payment mode always has both; without them there is nothing to record, and
  // failing the delivery makes Stripe send it again rather than lose the payment.
  if (!paymentId || session.amount_total === null || !session.currency) {
    throw new Error(`Paid checkout session ${session.id} has no payment intent, amount or currency`);
  }
  return {
    provider: 'stripe',
    session: session.id,
    paymentId,
    amountMinor: session.amount_total,
    currency: session.currency.toUpperCase(),
  };
}

/** An expandable field's id, whether Stripe sent the id or the whole object. */
function idOf(field: string | { id: string } | null): string | null {
  return typeof field === 'string' ? field : (field?.id ?? null);
}

function refundStatusOf(status: string | null): RefundStatus {
  if (status === 'succeeded') return 'succeeded';
  if (status === 'failed' || status === 'canceled') return 'failed';
  // pending, requires_action (the customer must give bank details), or not yet known.
  return 'pending';
}
