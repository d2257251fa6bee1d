import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * A local stand-in for the part of Stripe's API the `stripe` provider calls, so that its tests
 * run against the real SDK, its form encoding and its headers, and never reach the internet.
 */

/** One request the stand-in got, its form body flattened as the SDK sent it (`metadata[invoice_id]`). */
export interface StandInRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  form: Record<string, string>;
}

/** The fields of a Checkout Session the service reads, as the stand-in answers them. */
export interface StandInSession {
  id: string;
  object: 'checkout.session';
  mode: 'payment';
  url: string;
  amount_total: number;
  currency: string;
  metadata: Record<string, string>;
  client_reference_id: string | null;
  payment_intent: string | null;
  payment_status: 'paid' | 'unpaid' | 'no_payment_required';
  status: 'open' | 'complete' | 'expired';
  success_url: string;
  cancel_url: string;
}

export interface StandInEndpoint {
  url: string;
  status: 'enabled' | 'disabled';
  enabled_events: string[];
}

export interface StripeStandIn {
  /** The base to give the provider as `apiBase`. */
  url: string;
  requests: StandInRequest[];
  /** Every session opened, by id. */
  sessions: Map<string, StandInSession>;
  /** The account's webhook endpoints, as `GET /v1/webhook_endpoints` lists them; a test sets them. */
  endpoints: StandInEndpoint[];
  close(): Promise<void>;
}

const randomId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

/** The `metadata[...]` fields of a form as one object. */
function metadataOf(form: Record<string, string>): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const [key, value] of Object.entries(form)) {
    const match = /^metadata\[(.+)\]$/.exec(key);
    if (match?.[1]) metadata[match[1]] = value;
  }
  return metadata;
}

function answer(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': randomId('req') });
  res.end(JSON.stringify(body));
}

export async function startStripeStandIn(): Promise<StripeStandIn> {
  const requests: StandInRequest[] = [];
  const sessions = new Map<string, StandInSession>();
  const endpoints: StandInEndpoint[] = [];
  // Stripe answers a repeated idempotency key with the first answer, whatever the body says.
  const answered = new Map<string, { status: number; body: unknown }>();
  let url = '';

  function route(request: StandInRequest): { status: number; body: unknown } {
    const { form } = request;
    // A key whose text says it was revoked is refused, as Stripe refuses a rolled key.
    if (String(request.headers.authorization ?? '').includes('revoked')) {
      return {
        status: 401,
        body: {
          error: { type: 'invalid_request_error', message: 'Invalid API Key provided: sk_test_****oked' },
        },
      };
    }
    if (request.method === 'GET' && request.path === '/v1/account') {
      return {
        status: 200,
        body: {
          id: 'acct_standin0001',
          object: 'account',
          business_profile: { name: 'Harbour Supplies Ltd' },
          settings: { dashboard: { display_name: 'Harbour Supplies' } },
        },
      };
    }
    if (request.method === 'GET' && request.path === '/v1/webhook_endpoints') {
      return {
        status: 200,
        body: {
          object: 'list',
          url: '/v1/webhook_endpoints',
          has_more: false,
          data: endpoints.map((e, i) => ({ id: `we_standin${i}`, object: 'webhook_endpoint', ...e })),
        },
      };
    }
    if (request.method === 'POST' && request.path === '/v1/checkout/sessions') {
      const id = randomId('cs_test');
      const session: StandInSession = {
        id,
        object: 'checkout.session',
        mode: 'payment',
        url: `${url}/checkout/${id}`,
        amount_total:
          Number(form['line_items[0][price_data][unit_amount]']) *
          Number(form['line_items[0][quantity]'] ?? 1),
        currency: form['line_items[0][price_data][currency]'] ?? '',
        metadata: metadataOf(form),
        client_reference_id: form['client_reference_id'] ?? null,
        payment_intent: null,
        payment_status: 'unpaid',
        status: 'open',
        success_url: form['success_url'] ?? '',
        cancel_url: form['cancel_url'] ?? '',
      };
      sessions.set(id, session);
      return { status: 200, body: session };
    }
    if (request.method === 'POST' && request.path === '/v1/refunds') {
      // A payment the customer disputed cannot be refunded, as Stripe answers it.
      if (form['payment_intent']?.startsWith('pi_disputed')) {
        return {
          status: 400,
          body: {
            error: {
              type: 'invalid_request_error',
              code: 'charge_disputed',
              message: `Charge for ${form['payment_intent']} has been charged back; cannot issue a refund.`,
            },
          },
        };
      }
      return {
        status: 200,
        body: {
          id: randomId('re_test'),
          object: 'refund',
          amount: Number(form['amount']),
          payment_intent: form['payment_intent'] ?? null,
          status: 'pending',
        },
      };
    }
    return {
      status: 404,
      body: {
        error: {
          type: 'invalid_request_error',
          message: `Unrecognized request URL (${request.method}: ${request.path}).`,
        },
      },
    };
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://stand-in').pathname;
      const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      const request: StandInRequest = { method: req.method ?? '', path, headers: req.headers, form };
      requests.push(request);
      const key = req.headers['idempotency-key'];
      const replay = typeof key === 'string' ? answered.get(`${request.method} ${path} ${key}`) : undefined;
      const reply = replay ?? route(request);
      if (typeof key === 'string') answered.set(`${request.method} ${path} ${key}`, reply);
      answer(res, reply.status, reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    requests,
    sessions,
    endpoints,
    close: () =>
      new Promise<void>((resolve, reject) => {
        // The SDK keeps its connections alive; without this, close would wait for them to idle out.
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** A webhook body and its Stripe-Signature header, signed as Stripe signs them (`t=...,v1=...`). */
export function signedEvent(
  secret: string,
  event: object,
  timestampSeconds?: number,
): { body: string; header: string } {
  return signedBody(secret, JSON.stringify(event), timestampSeconds);
}

/** Any text signed as a webhook body, for bodies that are not an event's JSON. */
export function signedBody(
  secret: string,
  body: string,
  timestampSeconds = Math.floor(Date.now() / 1000),
): { body: string; header: string } {
  const header = Stripe.webhooks.generateTestHeaderString({
    payload: body,
    secret,
    timestamp: timestampSeconds,
  });
  return { body, header };
}

/** An event as Stripe delivers it, wrapping `object`. */
export function stripeEvent(type: string, object: object): Record<string, unknown> {
  return {
    id: randomId('evt_test'),
    object: 'event',
    api_version: Stripe.API_VERSION,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  };
}

/** The session, paid by card through `paymentIntentId`. */
export function checkoutCompleted(
  session: StandInSession,
  paymentIntentId: string,
  paymentStatus: StandInSession['payment_status'] = 'paid',
): Record<string, unknown> {
  return stripeEvent('checkout.session.completed', {
    ...session,
    status: 'complete',
    payment_status: paymentStatus,
    payment_intent: paymentIntentId,
  });
}

/** The session, closed unpaid when its 24 hours ran out. */
export function checkoutExpired(session: StandInSession): Record<string, unknown> {
  return stripeEvent('checkout.session.expired', { ...session, status: 'expired', url: null });
}

/**
 * The charge of `paymentIntentId` refunded so far by `amountRefunded`. With `refundId` its refunds
 * come listed (newest first), as when the webhook endpoint expands them; without, they are left
 * out, as current API versions send it.
 */
export function chargeRefunded(options: {
  paymentIntentId: string;
  amountRefunded: number;
  amount?: number;
  currency: string;
  refundId?: string;
}): Record<string, unknown> {
  const amount = options.amount ?? options.amountRefunded;
  return stripeEvent('charge.refunded', {
    id: randomId('ch_test'),
    object: 'charge',
    amount,
    amount_refunded: options.amountRefunded,
    currency: options.currency.toLowerCase(),
    payment_intent: options.paymentIntentId,
    paid: true,
    refunded: options.amountRefunded === amount,
    status: 'succeeded',
    ...(options.refundId && {
      refunds: {
        object: 'list',
        data: [
          { id: options.refundId, object: 'refund', amount: options.amountRefunded, status: 'succeeded' },
        ],
        has_more: false,
      },
    }),
  });
}

/** One refund where it now stands, as `refund.updated` or `refund.failed` tells it. */
export function refundUpdated(options: {
  refundId: string;
  paymentIntentId: string;
  amount: number;
  currency: string;
  status: 'succeeded' | 'failed' | 'pending';
}): Record<string, unknown> {
  return stripeEvent(options.status === 'failed' ? 'refund.failed' : 'refund.updated', {
    id: options.refundId,
    object: 'refund',
    amount: options.amount,
    currency: options.currency.toLowerCase(),
    payment_intent: options.paymentIntentId,
    status: options.status,
  });
}

/** A payout of `amount` that reached the bank on `arrivalDate` (seconds since the epoch). */
export function payoutPaid(options: {
  payoutId: string;
  amount: number;
  currency: string;
  arrivalDate: number;
}): Record<string, unknown> {
  return stripeEvent('payout.paid', {
    id: options.payoutId,
    object: 'payout',
    amount: options.amount,
    currency: options.currency.toLowerCase(),
    arrival_date: options.arrivalDate,
    status: 'paid',
    type: 'bank_account',
  });
}
