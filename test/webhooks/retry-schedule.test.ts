import { createHmac, randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS, retryDelayMs } from '../../server/webhooks/deliveries/service.js';
import {
  deliveryHeaders,
  newWebhookSecret,
  specSignature,
  standardSignature,
} from '../../server/webhooks/deliveries/signing.js';
import { DAY, MINUTE, SCHEDULE_MS, SECOND } from '../support/schedule.js';

const noJitter = () => 0;
const fullJitter = () => 0.999;

describe('retryDelayMs', () => {
  it('waits 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h after attempts 1..9 without jitter', () => {
    const delays = SCHEDULE_MS.map((_, i) => retryDelayMs(i + 1, null, noJitter));
    expect(delays).toEqual(SCHEDULE_MS);
  });

  it('adds at most 10% jitter, never less than the scheduled wait', () => {
    SCHEDULE_MS.forEach((base, i) => {
      const delay = retryDelayMs(i + 1, null, fullJitter);
      expect(delay).not.toBeNull();
      expect(delay!).toBeGreaterThan(base);
      expect(delay!).toBeLessThanOrEqual(base * 1.1);
    });
  });

  it('gives up after the 10th attempt (null), whatever Retry-After says', () => {
    expect(MAX_ATTEMPTS).toBe(10);
    expect(retryDelayMs(10, null, noJitter)).toBeNull();
    expect(retryDelayMs(10, 60, noJitter)).toBeNull();
    expect(retryDelayMs(11, null, noJitter)).toBeNull();
  });

  it('spreads the retries over about 3 days in all', () => {
    let total = 0;
    for (let attempts = 1; attempts < MAX_ATTEMPTS; attempts++) {
      total += retryDelayMs(attempts, null, noJitter)!;
    }
    expect(total).toBe(SCHEDULE_MS.reduce((sum, ms) => sum + ms, 0));
    expect(total).toBe(272_105 * SECOND);
    expect(total).toBeGreaterThan(3 * DAY);
    expect(total).toBeLessThan(3.5 * DAY);
  });

  it('honours a Retry-After longer than the scheduled wait', () => {
    expect(retryDelayMs(1, 3600, noJitter)).toBe(3600 * SECOND);
    expect(retryDelayMs(2, 3600, fullJitter)).toBe(3600 * SECOND);
  });

  it('keeps the scheduled wait when Retry-After is shorter', () => {
    expect(retryDelayMs(3, 60, noJitter)).toBe(30 * MINUTE);
    expect(retryDelayMs(1, 0, noJitter)).toBe(5 * SECOND);
  });

  it('caps a Retry-After over 24 hours at 24 hours', () => {
    expect(retryDelayMs(1, 3 * 24 * 3600, noJitter)).toBe(DAY);
    expect(retryDelayMs(4, 10 * 24 * 3600, noJitter)).toBe(DAY);
  });
});

/** Independent Standard Webhooks signature: base64 HMAC of `id.timestamp.body` keyed with the decoded secret. */
const independentStandard = (secret: string, id: string, ts: number, body: string) =>
  `v1,${createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64'))
    .update(`${id}.${ts}.${body}`)
    .digest('base64')}`;

describe('webhook signing', () => {
  const body = JSON.stringify({
    event: 'customer.created',
    data: { id: 'cus_01JD7X2R5VQ8N3K4M6P9T1W2Y3', name: 'Ada Lovelace', note: 'naïve – ünïcode' },
    timestamp: '2026-11-21T09:00:00.000Z',
    deliveryId: '7b0e9a4c-6a43-4d8e-9d3b-2f1c5e8a9b10',
    occurredAt: '2026-11-21T09:00:00.000Z',
  });
  const now = () => Math.floor(Date.now() / 1000);

  it('issues whsec_ secrets of 32 random bytes', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(secret);
  });

  it('signs the spec header as hex HMAC-SHA256 of the body keyed with the whole secret string', () => {
    const secret = newWebhookSecret();
    const expected = createHmac('sha256', secret).update(body).digest('hex');
    expect(specSignature(secret, body)).toBe(expected);
    expect(specSignature(secret, `${body} `)).not.toBe(expected);
  });

  it('produces a Standard Webhooks signature the standardwebhooks library verifies', () => {
    const secret = newWebhookSecret();
    const id = randomUUID();
    const ts = now();
    const signature = standardSignature(secret, id, ts, body);
    expect(signature).toBe(independentStandard(secret, id, ts, body));
    const headers = { 'webhook-id': id, 'webhook-timestamp': String(ts), 'webhook-signature': signature };
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(secret).verify(`${body} `, headers)).toThrow();
  });

  it('builds every delivery header of one attempt', () => {
    const secret = newWebhookSecret();
    const deliveryId = randomUUID();
    const ts = now();
    const headers = deliveryHeaders({ secret, deliveryId, event: 'customer.created', body, timestamp: ts });
    expect(headers).toEqual({
      'content-type': 'application/json',
      'user-agent': expect.stringMatching(/\S/),
      'x-webhook-signature': createHmac('sha256', secret).update(body).digest('hex'),
      'x-webhook-event': 'customer.created',
      'x-webhook-delivery-id': deliveryId,
      'x-webhook-timestamp': String(ts),
      'webhook-id': deliveryId,
      'webhook-timestamp': String(ts),
      'webhook-signature': independentStandard(secret, deliveryId, ts, body),
    });
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('signs webhook-signature with the new and the previous secret during a rotation', () => {
    const secret = newWebhookSecret();
    const previousSecret = newWebhookSecret();
    const deliveryId = randomUUID();
    const ts = now();
    const headers = deliveryHeaders({
      secret,
      previousSecret,
      deliveryId,
      event: 'invoice.paid',
      body,
      timestamp: ts,
    });
    const parts = headers['webhook-signature']?.split(' ') ?? [];
    expect(parts).toHaveLength(2);
    for (const part of parts) expect(part).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(parts).toEqual([
      independentStandard(secret, deliveryId, ts, body),
      independentStandard(previousSecret, deliveryId, ts, body),
    ]);
    // Receivers holding either secret accept the attempt.
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(previousSecret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
    // The spec's header only ever uses the current secret.
    expect(headers['x-webhook-signature']).toBe(createHmac('sha256', secret).update(body).digest('hex'));
  });

  it('sends one signature when no previous secret is in its overlap window', () => {
    const secret = newWebhookSecret();
    const headers = deliveryHeaders({
      secret,
      previousSecret: null,
      deliveryId: randomUUID(),
      event: 'invoice.paid',
      body,
      timestamp: now(),
    });
    expect(headers['webhook-signature']?.split(' ')).toHaveLength(1);
  });
});
