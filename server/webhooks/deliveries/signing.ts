import { createHmac, randomBytes } from 'node:crypto';

/** `whsec_` + base64 of 32 random bytes: the Standard Webhooks secret format. */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/** The spec's signature: hex HMAC-SHA256 of the raw body, keyed with the whole secret string. */
export const specSignature = (secret: string, body: string): string =>
  createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex');

/** Standard Webhooks: base64 HMAC-SHA256 of `id.timestamp.body`, keyed with the decoded secret. */
export function standardSignature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

export interface SignInput {
  secret: string;
  /** A rotated-out secret still inside its overlap window: signs `webhook-signature` too. */
  previousSecret?: string | null;
  deliveryId: string;
  event: string;
  body: string;
  /** Unix seconds of this attempt. */
  timestamp: number;
}

/** Every header of one attempt (docs/decisions.md D228). */
export function deliveryHeaders(input: SignInput): Record<string, string> {
  const signatures = [standardSignature(input.secret, input.deliveryId, input.timestamp, input.body)];
  if (input.previousSecret) {
    signatures.push(standardSignature(input.previousSecret, input.deliveryId, input.timestamp, input.body));
  }
  return {
    'content-type': 'application/json',
    'user-agent': 'BMS-Webhooks/1.0',
    'x-webhook-signature': specSignature(input.secret, input.body),
    'x-webhook-event': input.event,
    'x-webhook-delivery-id': input.deliveryId,
    'x-webhook-timestamp': String(input.timestamp),
    'webhook-id': input.deliveryId,
    'webhook-timestamp': String(input.timestamp),
    'webhook-signature': signatures.join(' '),
  };
}
