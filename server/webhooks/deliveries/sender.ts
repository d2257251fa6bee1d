import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { hasRefusedPort, isPublicAddress } from '../endpoints/address-guard.js';

export const ERROR_CLASSES = [
  'timeout',
  'connection',
  'dns',
  'blocked_address',
  'redirect',
  'http_status',
  'invalid_url',
] as const;
export type ErrorClass = (typeof ERROR_CLASSES)[number];

export interface AttemptResult {
  statusCode: number | null;
  errorClass: ErrorClass | null;
  durationMs: number;
  /** Seconds the receiver asked to wait (429/503 with Retry-After). */
  retryAfterSeconds: number | null;
}

export interface SendOptions {
  timeoutMs: number;
  allowPrivate: boolean;
}

class BlockedAddressError extends Error {
  readonly code = 'EBLOCKED';
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * Resolves like dns.lookup, then refuses private addresses: the check applies to the very address
 * the socket will dial, so a DNS answer that changes after registration cannot reach inside.
 */
function guardedLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    if (addresses.some((a) => !isPublicAddress(a.address))) {
      return callback(new BlockedAddressError(`${hostname} resolves to a private address`), []);
    }
    if (options.all) return callback(null, addresses);
    // A lookup that succeeds has at least one address.
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
}

const agents = {
  guarded: {
    http: new http.Agent({ keepAlive: true, maxSockets: 64, lookup: guardedLookup }),
    https: new https.Agent({ keepAlive: true, maxSockets: 64, lookup: guardedLookup }),
  },
  open: {
    http: new http.Agent({ keepAlive: true, maxSockets: 64 }),
    https: new https.Agent({ keepAlive: true, maxSockets: 64 }),
  },
};

function retryAfter(value: string | undefined, now: number): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

function classify(err: NodeJS.ErrnoException): ErrorClass {
  if (err instanceof BlockedAddressError) return 'blocked_address';
  // AbortSignal.timeout() surfaces as an AbortError whose cause is the TimeoutError.
  const cause = (err as { cause?: { name?: string } }).cause;
  if (err.name === 'TimeoutError' || err.code === 'ETIMEDOUT' || cause?.name === 'TimeoutError') {
    return 'timeout';
  }
  if (err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN' || err.code === 'ENODATA') return 'dns';
  return 'connection';
}

/**
 * Errors of a request written on a kept-alive connection that the receiver had closed meanwhile
 * (its idle timeout, often 5 s, meets the first retry, due 5 s after a failure).
 */
const STALE_CONNECTION_ERRORS = new Set(['ECONNRESET', 'EPIPE']);

type Answer = Omit<AttemptResult, 'durationMs'>;

interface Dial {
  url: URL;
  body: string;
  headers: Record<string, string>;
  signal: AbortSignal;
  /** A connection of the pool, or (`'fresh'`) a new one used for this request only. */
  connection: 'pooled' | 'fresh';
  allowPrivate: boolean;
}

/** One request on one connection; `stale` when a pooled connection turned out closed before any answer. */
function dial({ url, body, headers, signal, connection, allowPrivate }: Dial): Promise<{
  answer: Answer;
  stale: boolean;
}> {
  const secure = url.protocol === 'https:';
  const pool = allowPrivate ? agents.open : agents.guarded;
  const how =
    connection === 'pooled'
      ? { agent: secure ? pool.https : pool.http }
      : // A one-off agent: the guard must still check the address this new connection dials.
        { agent: false as const, ...(allowPrivate ? {} : { lookup: guardedLookup }) };
  return new Promise((resolve) => {
    const request = (secure ? https : http).request(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      signal,
      ...how,
    });
    request.on('response', (res) => {
      const status = res.statusCode ?? 0;
      res.resume();
      res.on('end', () => {
        if (status >= 200 && status < 300) {
          resolve({
            answer: { statusCode: status, errorClass: null, retryAfterSeconds: null },
            stale: false,
          });
        } else {
          resolve({
            answer: {
              statusCode: status,
              errorClass: status >= 300 && status < 400 ? 'redirect' : 'http_status',
              retryAfterSeconds:
                status === 429 || status === 503 ? retryAfter(res.headers['retry-after'], Date.now()) : null,
            },
            stale: false,
          });
        }
      });
      res.on('error', (err) =>
        resolve({
          answer: { statusCode: status, errorClass: classify(err), retryAfterSeconds: null },
          stale: false,
        }),
      );
    });
    request.on('error', (err: NodeJS.ErrnoException) =>
      resolve({
        answer: { statusCode: null, errorClass: classify(err), retryAfterSeconds: null },
        // 'error' before 'response': the receiver answered nothing on this connection.
        stale: request.reusedSocket && !signal.aborted && STALE_CONNECTION_ERRORS.has(err.code ?? ''),
      }),
    );
    request.end(body);
  });
}

/**
 * One POST: no redirects followed, the body of the answer read and dropped, never kept.
 *
 * Connections are kept alive between attempts. A receiver closes an idle one after its own timeout,
 * and a request written on it as that happens is reset before the receiver read it. Such a request
 * is sent once more on a new connection, within the same attempt and time limit: it was never
 * delivered, so the reset is not the receiver's answer and must not cost the delivery a retry (the
 * next one is minutes away). See docs/decisions.md D88, "Stale kept-alive connections".
 */
export async function postWebhook(
  urlText: string,
  body: string,
  headers: Record<string, string>,
  options: SendOptions,
): Promise<AttemptResult> {
  const started = performance.now();
  const done = (partial: Answer): AttemptResult => ({
    ...partial,
    durationMs: Math.round(performance.now() - started),
  });

  let url: URL;
  try {
    url = new URL(urlText);
  } catch {
    return done({ statusCode: null, errorClass: 'invalid_url', retryAfterSeconds: null });
  }
  const secure = url.protocol === 'https:';
  if ((!secure && !(options.allowPrivate && url.protocol === 'http:')) || hasRefusedPort(url)) {
    return done({ statusCode: null, errorClass: 'invalid_url', retryAfterSeconds: null });
  }
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (!options.allowPrivate && isIP(literal) && !isPublicAddress(literal)) {
    return done({ statusCode: null, errorClass: 'blocked_address', retryAfterSeconds: null });
  }

  const signal = AbortSignal.timeout(options.timeoutMs);
  const request = { url, body, headers, signal, allowPrivate: options.allowPrivate };
  const first = await dial({ ...request, connection: 'pooled' });
  if (!first.stale) return done(first.answer);
  return done((await dial({ ...request, connection: 'fresh' })).answer);
}
