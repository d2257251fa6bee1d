import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  unwrap,
  WEBHOOK_MESSAGE_SCHEMAS,
  WebhookMessageSchema,
  type WebhookMessage,
} from '../../client/index.js';
import {
  verifyWebhook,
  WebhookVerificationError,
  type VerifyWebhookOptions,
  type WebhookHeaders,
  type WebhookVerificationErrorCode,
} from '../../client/webhooks.js';
import { EVENT_NAMES, type EventName } from '../../contract/common/events.js';
import { OPENAPI_PATH } from '../../server/app.js';
import { sendDueReminders } from '../../server/loyalty/reminders/service.js';
import { registerBusiness, uniqueEmail, type TestBusiness } from '../support/business.js';
import { itemAt } from '../support/expect.js';
import { createBill, payBill } from '../support/finance.js';
import {
  createCreditNote,
  createCustomer,
  createInvoice,
  createProduct,
  createQuote,
  issueInvoice,
  payInvoice,
} from '../support/general.js';
import { createEmployee, createLeave, updateLeave } from '../support/hr.js';
import {
  createProgram,
  createReminder,
  createRedemption,
  createTier,
  enrollMember,
  newReward,
} from '../support/loyalty.js';
import { settleDeliveries, useReceivers, type ReceivedRequest } from '../support/receiver.js';
import { useTestServer } from '../support/setup.js';
import { waitFor } from '../support/wait.js';
import { createWebhook } from '../support/webhooks.js';

// verifyWebhook (client/webhooks.ts) on deliveries the service really sent: every event of the
// catalogue, caused through the API and received by a real HTTP receiver.
const server = useTestServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
const startReceiver = useReceivers();
type Hit = ReceivedRequest<unknown>;

const DAY_MS = 24 * 60 * 60 * 1000;

/** The headers of one scheme only: the other scheme's are stripped. */
const only = (scheme: 'standard' | 'spec', headers: IncomingHttpHeaders): WebhookHeaders =>
  Object.fromEntries(
    Object.entries(headers).filter(([name]) =>
      scheme === 'standard' ? !name.startsWith('x-webhook-') : !name.startsWith('webhook-'),
    ),
  );

/** Verifying with the time the service signed at (deliveries made after the clock moved are ahead). */
const at = (hit: Hit): VerifyWebhookOptions => ({ now: Number(hit.headers['webhook-timestamp']) * 1000 });

/** The code of the WebhookVerificationError that `verify` throws. */
function refusal(verify: () => unknown): WebhookVerificationErrorCode {
  try {
    verify();
  } catch (err) {
    if (err instanceof WebhookVerificationError) return err.code;
    throw err;
  }
  throw new Error('verifyWebhook accepted it');
}

const eventOf = (hit: Hit) => String(hit.headers['x-webhook-event']);
// Deliveries arrive in any order: `containing` picks one of several of the same event by its body.
const hitOf = (hits: Hit[], event: EventName, containing = '') => {
  const hit = hits.find((h) => eventOf(h) === event && h.rawBody.includes(containing));
  if (!hit) throw new Error(`no ${event} delivery received${containing && ` containing ${containing}`}`);
  return hit;
};

let biz: TestBusiness;
let secret: string;
let hits: Hit[];

// One business subscribed to the whole catalogue causes every event once or more.
beforeAll(async () => {
  biz = await registerBusiness(server());
  const receiver = await startReceiver();
  ({ secret } = await createWebhook(biz.client, { url: receiver.url, events: [...EVENT_NAMES] }));
  const { client } = biz;

  // Loyalty first, so that the paid invoice earns points: a member in Bronze, Gold from 1,000 points.
  await createProgram(client, { pointsPerCurrency: 10 });
  await createTier(client, { name: 'Bronze', minPoints: 0, color: '#CD7F32' });
  await createTier(client, { name: 'Gold', minPoints: 1000, color: '#FFD700' });
  const ada = await createCustomer(client, { name: 'Ada Lovelace', email: uniqueEmail('ada') }); // customer.created
  const member = await enrollMember(client, { customerId: ada.id }); // loyalty.tier_changed (none -> Bronze)

  const customer = await createCustomer(client, { name: 'Charles Babbage' });
  await unwrap(
    client.general.customers.updateCustomer({ params: { id: customer.id }, body: { company: 'Engines' } }),
  ); // customer.updated
  await unwrap(client.general.customers.deleteCustomer({ params: { id: customer.id } })); // customer.deleted

  const product = await createProduct(client); // product.created
  await unwrap(client.general.products.updateProduct({ params: { id: product.id }, body: { stock: 5 } }));
  await unwrap(client.general.products.deleteProduct({ params: { id: product.id } }));

  // invoice.created, invoice.updated (issued, paid), payment.created, invoice.paid; 150 USD earns
  // 1,500 points: loyalty.points_earned and loyalty.tier_changed (Bronze -> Gold).
  const invoice = await createInvoice(client, {
    customer_id: ada.id,
    currency: 'USD',
    items: [{ description: 'Consulting', quantity: 1, unit_price: 150 }],
  });
  await issueInvoice(client, invoice.id);
  await payInvoice(client, invoice.id, 150);
  // credit_note.created: 10 USD of the paid invoice to the customer's credit.
  await createCreditNote(client, {
    invoice_id: invoice.id,
    amount: 10,
    credit_amount: 0,
    refund_amount: 0,
    customer_credit_amount: 10,
  });
  const draft = await createInvoice(client, { customer_id: ada.id });
  await unwrap(client.general.invoices.deleteInvoice({ params: { id: draft.id } })); // invoice.deleted

  const quote = await createQuote(client, ada.id, 'sent'); // quote.created, quote.updated
  const draftQuote = await createQuote(client, ada.id);
  await unwrap(client.general.quotes.deleteQuote({ params: { id: draftQuote.id } })); // quote.deleted
  expect(quote.status).toBe('sent');

  const employee = await createEmployee(client); // employee.created
  await unwrap(
    client.hr.employees.updateEmployee({ params: { id: employee.id }, body: { position: 'Lead engineer' } }),
  );
  const leave = await createLeave(client, employee.id); // leave.created
  await updateLeave(client, leave.id, 'approved'); // leave.updated
  const other = await createLeave(client, employee.id, { start_date: '2027-01-04', end_date: '2027-01-05' });
  await unwrap(client.hr.leaves.deleteLeave({ params: { id: other.id } })); // leave.deleted
  await unwrap(client.hr.employees.deleteEmployee({ params: { id: employee.id } })); // employee.deleted

  const bill = await createBill(client); // pending
  await payBill(client, bill.id, 1000); // payment.created, a bill payment

  const reward = await newReward(biz); // 100 points
  await createRedemption(client, { memberId: member.publicId, rewardId: reward.publicId }); // reward_redeemed

  // loyalty.reminder_sent: a service completed today is due tomorrow, when the reminder job runs.
  const reminder = await createReminder(client, { intervalDays: 1 });
  await unwrap(
    client.loyalty.reminders.completeReminder({
      params: { publicId: reminder.publicId },
      body: { memberId: member.publicId },
    }),
  );
  await settleDeliveries(server(), biz.businessId);
  server().clock.advance(DAY_MS);
  try {
    expect(await sendDueReminders(server().deps)).toBe(1);
    await settleDeliveries(server(), biz.businessId);
  } finally {
    server().clock.reset();
  }

  hits = await waitFor('a delivery of every event of the catalogue', () => {
    const received = new Set(receiver.hits.map(eventOf));
    return EVENT_NAMES.every((e) => received.has(e)) && receiver.hits;
  });
}, 120_000);

describe('verifyWebhook on the service’s deliveries', () => {
  it('accepts every event the service sent, under either signature scheme, and returns it typed by event', () => {
    expect(new Set(hits.map(eventOf))).toEqual(new Set(EVENT_NAMES));
    for (const hit of hits) {
      const sent = JSON.parse(hit.rawBody) as unknown;
      const both = verifyWebhook(hit.rawBody, hit.headers, secret, at(hit));
      const standard = verifyWebhook(hit.rawBody, only('standard', hit.headers), secret, at(hit));
      // X-Webhook-Signature signs the body only: the time checked is the body's own timestamp.
      const spec = verifyWebhook(Buffer.from(hit.rawBody), only('spec', hit.headers), secret, {
        now: Date.parse((sent as { timestamp: string }).timestamp),
      });
      expect(both, eventOf(hit)).toEqual(sent);
      expect(standard).toEqual(sent);
      expect(spec).toEqual(sent);
      expect(both.event).toBe(eventOf(hit));
      expect(both.deliveryId).toBe(hit.headers['webhook-id']);
    }
  });

  it("matches the contract's schema of each event's message exactly: the envelope and data, no field missing or extra", () => {
    for (const hit of hits) {
      const message = verifyWebhook(hit.rawBody, hit.headers, secret, at(hit));
      // Zod drops unknown keys, so a parse equal to its input has every field of the schema and no other.
      expect(WEBHOOK_MESSAGE_SCHEMAS[message.event].parse(message), message.event).toEqual(message);
      expect(WebhookMessageSchema.parse(message)).toEqual(message);
      expect(Object.keys(message).sort()).toEqual([
        'data',
        'deliveryId',
        'event',
        'livemode',
        'occurredAt',
        'timestamp',
      ]);
    }
    // payment.created carries an invoice payment (major units) or a bill payment (minor units).
    const payments = hits
      .filter((h) => eventOf(h) === 'payment.created')
      .map((h) => verifyWebhook(h.rawBody, h.headers, secret, at(h)))
      .map((m) => (m.event === 'payment.created' ? m.data : null));
    expect(payments).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ invoice_id: expect.any(String), amount: 150 }),
        expect.objectContaining({ bill_id: expect.any(String), amount: 1000 }),
      ]),
    );
  });

  it("is what openapi.json's x-webhooks documents: every event, every header, each body its named schema", () => {
    const doc = JSON.parse(readFileSync(OPENAPI_PATH, 'utf8')) as {
      'x-webhooks': Record<string, { post: { parameters: { name: string }[]; requestBody: unknown } }>;
      components: { schemas: Record<string, { properties: { event: { enum: string[] } } }> };
    };
    const documented = doc['x-webhooks'];
    expect(Object.keys(documented).sort()).toEqual([...EVENT_NAMES].sort());
    const transport = new Set(['content-type', 'content-length', 'host', 'connection']);
    for (const hit of hits) {
      const operation = documented[eventOf(hit)]!.post;
      const named = new Set(operation.parameters.map((p) => p.name.toLowerCase()));
      const undocumented = Object.keys(hit.headers).filter((h) => !transport.has(h) && !named.has(h));
      expect(undocumented, eventOf(hit)).toEqual([]);
      const ref = JSON.stringify(operation.requestBody).match(/#\/components\/schemas\/(\w+)/)?.[1];
      expect(doc.components.schemas[ref!]?.properties.event.enum).toEqual([eventOf(hit)]);
    }
  });

  it('narrows data by event for the compiler and at run time', () => {
    const summaries = hits.map((hit) => {
      const message: WebhookMessage = verifyWebhook(hit.rawBody, hit.headers, secret, at(hit));
      switch (message.event) {
        case 'invoice.paid':
          return `paid ${message.data.number}: ${message.data.amount_paid} ${message.data.currency}`;
        case 'loyalty.tier_changed':
          return `tier ${message.data.previousTier?.name ?? 'none'} -> ${message.data.newTier?.name ?? 'none'}`;
        case 'loyalty.points_earned':
          return `earned ${message.data.transaction.points}, balance ${message.data.member.pointsBalance}`;
        case 'loyalty.reminder_sent':
          return `reminder ${message.data.reminder.name} due ${message.data.dueDate}`;
        default:
          return null;
      }
    });
    const today = new Date(Date.now() + DAY_MS).toISOString().slice(0, 10);
    expect(summaries.filter((s) => s !== null).sort()).toEqual(
      [
        'earned 1500, balance 1500',
        'paid INV-000001: 150 USD',
        `reminder Bike service due ${today}`,
        'tier Bronze -> Gold',
        'tier none -> Bronze',
      ].sort(),
    );
  });

  it('takes fetch Headers and a secret among several', () => {
    const hit = hitOf(hits, 'customer.created');
    const headers = new Headers(hit.headers as Record<string, string>);
    const other = `whsec_${randomBytes(32).toString('base64')}`;
    expect(verifyWebhook(hit.rawBody, headers, [other, secret], at(hit)).event).toBe('customer.created');
    expect(verifyWebhook(hit.rawBody, only('spec', hit.headers), [other, secret], at(hit)).event).toBe(
      'customer.created',
    );
  });
});

describe('verifyWebhook refuses', () => {
  const schemes = ['standard', 'spec'] as const;

  it('a tampered body (INVALID_SIGNATURE), under either scheme', () => {
    const hit = hitOf(hits, 'customer.created', 'Ada Lovelace');
    const tampered = hit.rawBody.replace('Ada Lovelace', 'Eve Lovelace');
    expect(tampered).not.toBe(hit.rawBody);
    for (const scheme of schemes) {
      expect(refusal(() => verifyWebhook(tampered, only(scheme, hit.headers), secret, at(hit)))).toBe(
        'INVALID_SIGNATURE',
      );
    }
    // The signatures themselves tampered with, or cut short.
    const flipped = { ...hit.headers, 'webhook-signature': `v1,${randomBytes(32).toString('base64')}` };
    expect(refusal(() => verifyWebhook(hit.rawBody, only('standard', flipped), secret, at(hit)))).toBe(
      'INVALID_SIGNATURE',
    );
    const short = {
      ...hit.headers,
      'x-webhook-signature': String(hit.headers['x-webhook-signature']).slice(2),
    };
    expect(refusal(() => verifyWebhook(hit.rawBody, only('spec', short), secret, at(hit)))).toBe(
      'INVALID_SIGNATURE',
    );
  });

  it('the wrong secret (INVALID_SIGNATURE), under either scheme', () => {
    const hit = hitOf(hits, 'invoice.paid');
    const wrong = `whsec_${randomBytes(32).toString('base64')}`;
    for (const scheme of schemes) {
      expect(refusal(() => verifyWebhook(hit.rawBody, only(scheme, hit.headers), wrong, at(hit)))).toBe(
        'INVALID_SIGNATURE',
      );
    }
  });

  it('a signed time more than five minutes from now, either way (TIMESTAMP_OUT_OF_TOLERANCE), unless the tolerance is widened', () => {
    const hit = hitOf(hits, 'customer.created');
    const signedAt = Number(hit.headers['webhook-timestamp']) * 1000;
    for (const scheme of schemes) {
      const headers = only(scheme, hit.headers);
      for (const now of [signedAt + 301_000, signedAt - 301_000]) {
        expect(refusal(() => verifyWebhook(hit.rawBody, headers, secret, { now }))).toBe(
          'TIMESTAMP_OUT_OF_TOLERANCE',
        );
      }
      expect(verifyWebhook(hit.rawBody, headers, secret, { now: signedAt + 299_000 }).event).toBe(
        'customer.created',
      );
      const wide = { now: signedAt + 3_600_000, toleranceSeconds: 7200 };
      expect(verifyWebhook(hit.rawBody, headers, secret, wide).event).toBe('customer.created');
    }
    // The default clock is the real one: the reminder was sent a day ahead of it.
    const ahead = hitOf(hits, 'loyalty.reminder_sent');
    expect(refusal(() => verifyWebhook(ahead.rawBody, ahead.headers, secret))).toBe(
      'TIMESTAMP_OUT_OF_TOLERANCE',
    );
  });

  it('an old body replayed under a fresh X-Webhook-Timestamp: the body’s signed timestamp counts', () => {
    const hit = hitOf(hits, 'customer.created');
    const bodyTime = Date.parse((JSON.parse(hit.rawBody) as { timestamp: string }).timestamp);
    const later = bodyTime + 10 * 60_000;
    const replayed = {
      ...only('spec', hit.headers),
      'x-webhook-timestamp': String(Math.floor(later / 1000)),
    };
    expect(refusal(() => verifyWebhook(hit.rawBody, replayed, secret, { now: later }))).toBe(
      'TIMESTAMP_OUT_OF_TOLERANCE',
    );
  });

  it('a delivery without its headers (MISSING_HEADER), naming the header', () => {
    const hit = hitOf(hits, 'customer.created');
    const without = (...names: string[]) =>
      Object.fromEntries(Object.entries(hit.headers).filter(([name]) => !names.includes(name)));
    const cases: [WebhookHeaders, RegExp][] = [
      [without('webhook-signature', 'x-webhook-signature'), /webhook-signature nor X-Webhook-Signature/],
      [{}, /webhook-signature nor X-Webhook-Signature/],
      [without('webhook-id'), /webhook-id/],
      [without('webhook-timestamp'), /webhook-timestamp/],
      [only('spec', without('x-webhook-timestamp')), /x-webhook-timestamp/],
    ];
    for (const [headers, message] of cases) {
      const err = (() => {
        try {
          verifyWebhook(hit.rawBody, headers, secret, at(hit));
        } catch (e) {
          return e;
        }
      })();
      expect(err).toBeInstanceOf(WebhookVerificationError);
      expect((err as WebhookVerificationError).code).toBe('MISSING_HEADER');
      expect((err as WebhookVerificationError).message).toMatch(message);
    }
  });

  it('a signed body that is not JSON (INVALID_JSON), not a delivery (INVALID_PAYLOAD) or of an unknown event (UNKNOWN_EVENT)', () => {
    const id = randomUUID();
    const now = new Date();
    /** Both schemes' headers for `body`, signed with the secret as the service signs. */
    const signed = (body: string) => ({
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign(id, now, body),
      'x-webhook-signature': createHmac('sha256', secret).update(body).digest('hex'),
      'x-webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    });
    const delivery = (event: string) =>
      JSON.stringify({
        event,
        data: {},
        timestamp: now.toISOString(),
        deliveryId: id,
        occurredAt: now.toISOString(),
      });
    const cases: [string, WebhookVerificationErrorCode][] = [
      ['event=invoice.paid', 'INVALID_JSON'],
      ['{"event":"invoice.paid"', 'INVALID_JSON'],
      ['[1,2,3]', 'INVALID_PAYLOAD'],
      ['{"data":{}}', 'INVALID_PAYLOAD'],
      [delivery('invoice.exploded'), 'UNKNOWN_EVENT'],
    ];
    for (const [body, code] of cases) {
      for (const scheme of schemes) {
        expect(
          refusal(() => verifyWebhook(body, only(scheme, signed(body)), secret, { now })),
          body,
        ).toBe(code);
      }
    }
    // Bytes that are not UTF-8 are not JSON either.
    const bytes = Uint8Array.from([0x7b, 0xff, 0x7d]);
    const bytesSigned = {
      'x-webhook-signature': createHmac('sha256', secret).update(bytes).digest('hex'),
      'x-webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    };
    expect(refusal(() => verifyWebhook(bytes, bytesSigned, secret, { now }))).toBe('INVALID_JSON');
    // And a known event signed the same way is accepted: the refusals above are about the body.
    expect(
      verifyWebhook(delivery('invoice.paid'), signed(delivery('invoice.paid')), secret, { now }).event,
    ).toBe('invoice.paid');
  });
});

describe('verifyWebhook after a secret rotation', () => {
  it('accepts either secret while webhook-signature lists a v1 signature for each; X-Webhook-Signature only the new one', async () => {
    const receiver = await startReceiver();
    const { id, secret: oldSecret } = await createWebhook(biz.client, {
      url: receiver.url,
      events: ['customer.created'],
    });
    const { secret: newSecret } = await unwrap(biz.client.webhooks.rotateSecret({ params: { id } }));
    await createCustomer(biz.client, { name: 'Grace Hopper' });
    const hit = itemAt(
      await waitFor('the delivery after rotation', () => receiver.hits.length > 0 && receiver.hits),
      0,
    );
    expect(String(hit.headers['webhook-signature']).split(' ')).toHaveLength(2);

    for (const key of [oldSecret, newSecret]) {
      const message = verifyWebhook(hit.rawBody, only('standard', hit.headers), key, at(hit));
      expect(message.event === 'customer.created' && message.data.name).toBe('Grace Hopper');
    }
    expect(verifyWebhook(hit.rawBody, only('spec', hit.headers), newSecret, at(hit)).event).toBe(
      'customer.created',
    );
    expect(refusal(() => verifyWebhook(hit.rawBody, only('spec', hit.headers), oldSecret, at(hit)))).toBe(
      'INVALID_SIGNATURE',
    );
  });
});
