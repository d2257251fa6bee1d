import { createHmac, timingSafeEqual } from 'node:crypto';
import { EVENT_NAMES, type EventName } from '../contract/common/events.js';
import type { WebhookMessage } from '../contract/webhooks/events.js';

/*
 * Verifying a delivery (docs/decisions.md D94, D228, docs/webhooks.md). Every delivery carries two
 * signatures of the same body, and either proves it came from the service:
 *
 * - Standard Webhooks: `webhook-signature: v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`,
 *   keyed with the base64-decoded bytes after `whsec_`. For 24 hours after a secret rotation it lists a
 *   signature per secret, separated by spaces. The timestamp is signed.
 * - The spec's: `X-Webhook-Signature: <hex HMAC-SHA256 of the body>`, keyed with the whole secret string
 *   (`whsec_...`) as UTF-8, beside `X-Webhook-Timestamp`. Only the body is signed, so the time that
 *   counts is the body's own `timestamp`.
 *
 * Node only (node:crypto), hence a module of its own: the SDK's main entry stays usable in browsers.
 */

export type WebhookVerificationErrorCode =
  | 'MISSING_HEADER'
  | 'INVALID_SIGNATURE'
  | 'TIMESTAMP_OUT_OF_TOLERANCE'
  | 'INVALID_JSON'
  | 'INVALID_PAYLOAD'
  | 'UNKNOWN_EVENT';

/** Why a delivery was refused: `code` says which check failed, `message` says how. */
export class WebhookVerificationError extends Error {
  constructor(
    readonly code: WebhookVerificationErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

/**
 * The request's headers: a fetch `Headers` (or anything with `get`), or a plain object such as Node's
 * `req.headers` (names in any case).
 */
export type WebhookHeaders =
  | { get(name: string): string | null | undefined }
  | Readonly<Record<string, string | readonly string[] | undefined>>;

export interface VerifyWebhookOptions {
  /** How far, in seconds, the signed time may be from now, either way. Default 300 (five minutes). */
  toleranceSeconds?: number;
  /** The time to compare with (a Date or epoch milliseconds). Default: now. For tests. */
  now?: Date | number;
}

const DEFAULT_TOLERANCE_SECONDS = 300;

function headerOf(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof headers.get === 'function') {
    return (headers as { get(name: string): string | null | undefined }).get(name) ?? undefined;
  }
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return typeof value === 'string' ? value : value?.join(', ');
}

function required(headers: WebhookHeaders, name: string): string {
  const value = headerOf(headers, name)?.trim();
  if (!value) throw new WebhookVerificationError('MISSING_HEADER', `The ${name} header is missing`);
  return value;
}

/** Constant-time comparison; inputs of different lengths are unequal (length is not secret). */
const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && timingSafeEqual(a, b);

const hmac = (key: Uint8Array | string, ...parts: (Uint8Array | string)[]) => {
  const mac = createHmac('sha256', key);
  for (const part of parts) mac.update(part);
  return mac.digest();
};

/** The key Standard Webhooks signs with: the base64 after `whsec_`. */
function standardKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
}

/** Checks `webhook-signature`; returns the signed time (unix seconds). */
function verifyStandard(body: Uint8Array, headers: WebhookHeaders, secrets: readonly string[]): number {
  const id = required(headers, 'webhook-id');
  const timestamp = required(headers, 'webhook-timestamp');
  const header = required(headers, 'webhook-signature');
  if (!/^\d+$/.test(timestamp)) {
    throw new WebhookVerificationError(
      'INVALID_SIGNATURE',
      'The webhook-timestamp header is not unix seconds',
    );
  }
  const given = header
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .map((entry) => Buffer.from(entry.slice(3), 'base64'));
  const matches = secrets.some((secret) => {
    const expected = hmac(standardKey(secret), `${id}.${timestamp}.`, body);
    // Every listed signature is compared, so the time taken does not say which one matched.
    return given.map((signature) => same(signature, expected)).includes(true);
  });
  if (!matches) {
    throw new WebhookVerificationError(
      'INVALID_SIGNATURE',
      'No signature in webhook-signature matches the body with this secret',
    );
  }
  return Number(timestamp);
}

/** Checks `X-Webhook-Signature` (the body only is signed). */
function verifySpec(body: Uint8Array, headers: WebhookHeaders, secrets: readonly string[]): void {
  const header = required(headers, 'x-webhook-signature');
  required(headers, 'x-webhook-timestamp');
  const given = /^[0-9a-f]{64}$/i.test(header) ? Buffer.from(header, 'hex') : Buffer.alloc(0);
  const matches = secrets
    .map((secret) => same(given, hmac(Buffer.from(secret, 'utf8'), body)))
    .includes(true);
  if (!matches) {
    throw new WebhookVerificationError(
      'INVALID_SIGNATURE',
      'X-Webhook-Signature does not match the body with this secret',
    );
  }
}

function checkTime(signedAt: number, what: string, options: VerifyWebhookOptions): void {
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const now = options.now === undefined ? Date.now() : Number(options.now);
  const skew = now / 1000 - signedAt;
  if (!Number.isFinite(signedAt) || Math.abs(skew) > tolerance) {
    throw new WebhookVerificationError(
      'TIMESTAMP_OUT_OF_TOLERANCE',
      !Number.isFinite(signedAt)
        ? `The ${what} is not a time`
        : skew > 0
          ? `The ${what} is ${Math.round(skew)} s old, more than the ${tolerance} s allowed (a replay?)`
          : `The ${what} is ${Math.round(-skew)} s in the future, more than the ${tolerance} s allowed`,
    );
  }
}

const isEventName = (name: unknown): name is EventName =>
  typeof name === 'string' && (EVENT_NAMES as readonly string[]).includes(name);

/**
 * Verifies a webhook delivery and returns its body, typed by its `event`:
 *
 * ```ts
 * app.post('/hooks/bms', express.raw({ type: 'application/json' }), (req, res) => {
 *   const message = verifyWebhook(req.body, req.headers, process.env.BMS_WEBHOOK_SECRET!);
 *   if (message.event === 'invoice.paid') console.log(message.data.number, message.data.amount_paid);
 *   res.sendStatus(204);
 * });
 * ```
 *
 * `rawBody` is the body exactly as received (bytes or text: parse nothing before verifying). The
 * Standard Webhooks signature (`webhook-*` headers) is checked when present, otherwise
 * `X-Webhook-Signature`. `secret` is the webhook's `whsec_...` secret, or several (an old and a new one
 * while rotating). Signatures are compared in constant time; the signed time must be within five
 * minutes of now (`toleranceSeconds`). Throws a `WebhookVerificationError` whose `code` says what
 * failed: MISSING_HEADER, INVALID_SIGNATURE, TIMESTAMP_OUT_OF_TOLERANCE, INVALID_JSON, INVALID_PAYLOAD
 * (JSON, but not a delivery) or UNKNOWN_EVENT. `data` is returned as sent, not validated: the
 * signature vouches for it (`WebhookMessageSchema.parse` checks it against the schemas).
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string | readonly string[],
  options: VerifyWebhookOptions = {},
): WebhookMessage {
  const secrets = (typeof secret === 'string' ? [secret] : secret).filter((s) => s.length > 0);
  if (secrets.length === 0) throw new TypeError('verifyWebhook needs the webhook secret (whsec_...)');
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody;

  const standard = headerOf(headers, 'webhook-signature') !== undefined;
  const signedAt = standard ? verifyStandard(body, headers, secrets) : null;
  if (!standard) {
    if (headerOf(headers, 'x-webhook-signature') === undefined) {
      throw new WebhookVerificationError(
        'MISSING_HEADER',
        'Neither webhook-signature nor X-Webhook-Signature is present',
      );
    }
    verifySpec(body, headers, secrets);
  }
  if (signedAt !== null) checkTime(signedAt, 'webhook-timestamp', options);

  let message: unknown;
  try {
    message = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    throw new WebhookVerificationError('INVALID_JSON', 'The body is not JSON');
  }
  if (typeof message !== 'object' || message === null || !('event' in message) || !('data' in message)) {
    throw new WebhookVerificationError('INVALID_PAYLOAD', 'The body is not a webhook delivery');
  }
  const { event, timestamp } = message as { event: unknown; timestamp?: unknown };
  if (signedAt === null) {
    // X-Webhook-Signature signs the body alone: its `timestamp` is the signed time.
    checkTime(
      typeof timestamp === 'string' ? Date.parse(timestamp) / 1000 : NaN,
      'timestamp of the body',
      options,
    );
  }
  if (!isEventName(event)) {
    throw new WebhookVerificationError('UNKNOWN_EVENT', `Unknown event ${JSON.stringify(event)}`);
  }
  return message as WebhookMessage;
}
