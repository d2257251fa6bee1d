import { tsRestFetchApi, type ApiFetcherArgs } from '@ts-rest/core';
import type { ErrorObject } from '../contract/common/errors.js';

/*
 * How every client of the SDK talks to the service: the options, the headers, the retries and the
 * refusals. A module of its own, without the contract, so that a client of one domain
 * (`./auth.js`) shares it without loading the others.
 */

export interface ClientOptions {
  /** Root of the service, e.g. `https://api.example.com` (paths already start with `/v1`). */
  baseUrl: string;
  /** Access token from sign-in, sent as `Authorization: Bearer`. */
  accessToken?: string;
  /**
   * API key. A `full` key (`bms_sk_...`) is sent as `Authorization: Bearer` and as `X-Api-Key`; a
   * `public_loyalty` key (`bms_pk_...`) only as `X-Api-Key`.
   */
  apiKey?: string;
  /**
   * The environment the credential is meant for, sent as `Bms-Environment` on every request: a
   * credential of the other one is then refused (401) instead of reaching its data, so a test key
   * (`bms_sk_test_...`) left in a live configuration fails at once. Unset, the credential decides.
   */
  environment?: 'live' | 'sandbox';
  /**
   * Retries of a request that got no answer (network error) or a 429 or 409 IDEMPOTENCY_IN_PROGRESS,
   * waiting as `Retry-After` says. Every POST is sent with an `Idempotency-Key` (a random UUID unless
   * the call gives one) that its retries repeat, so a retried POST is never applied twice. Default 3;
   * 0 turns retries and the automatic key off.
   */
  maxRetries?: number;
  /** Longest wait between retries, in milliseconds. Default 60 000. */
  maxRetryDelayMs?: number;
  /** Extra headers on every request. */
  headers?: Record<string, string>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `Retry-After` in milliseconds (delay-seconds or an HTTP date), or null when absent or unreadable. */
function retryAfterMs(headers: Headers): number | null {
  const value = headers.get('retry-after')?.trim();
  if (!value) return null;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

/** As `Retry-After` says, else exponential backoff (0.5 s, 1 s, 2 s, ...); with jitter, capped. */
function retryDelayMs(headers: Headers, attempt: number, cap: number): number {
  const base = retryAfterMs(headers) ?? 2 ** attempt * 500;
  return Math.min(base + Math.floor(Math.random() * 250), cap);
}

/** A POST gets an `Idempotency-Key` its retries repeat, unless the caller set one. */
function withIdempotencyKey(args: ApiFetcherArgs, retrying: boolean): ApiFetcherArgs {
  if (!retrying || args.method !== 'POST') return args;
  const present = Object.keys(args.headers).some((h) => h.toLowerCase() === 'idempotency-key');
  if (present) return args;
  return { ...args, headers: { ...args.headers, 'idempotency-key': globalThis.crypto.randomUUID() } };
}

const isNetworkError = (err: unknown) => err instanceof TypeError;

function isRetryable(response: { status: number; body: unknown }): boolean {
  if (response.status === 429) return true;
  const code = (response.body as { error?: { code?: string } } | null)?.error?.code;
  return response.status === 409 && code === 'IDEMPOTENCY_IN_PROGRESS';
}

/** What a client passes to ts-rest's `initClient`: it decides the request and response types of every method. */
export interface SdkClientArgs {
  baseUrl: string;
  baseHeaders: Record<string, string>;
  throwOnUnknownStatus: boolean;
  api: (args: ApiFetcherArgs) => ReturnType<typeof tsRestFetchApi>;
}

/** The ts-rest client arguments of `options`: base URL, headers, and the fetch that retries. */
export function clientArgs(options: ClientOptions): SdkClientArgs {
  const maxRetries = options.maxRetries ?? 3;
  const maxDelay = options.maxRetryDelayMs ?? 60_000;
  return {
    baseUrl: options.baseUrl.replace(/\/$/, ''),
    baseHeaders: headersOf(options, 'application/json'),
    throwOnUnknownStatus: false,
    api: async (args: ApiFetcherArgs) => {
      const call = withIdempotencyKey(args, maxRetries > 0);
      for (let attempt = 0; ; attempt++) {
        let response: Awaited<ReturnType<typeof tsRestFetchApi>>;
        try {
          response = await tsRestFetchApi(call);
        } catch (err) {
          // No answer at all (connection refused or reset, response lost): safe to repeat a GET,
          // and a POST carries its idempotency key.
          if (attempt >= maxRetries || !isNetworkError(err)) throw err;
          await sleep(retryDelayMs(new Headers(), attempt, maxDelay));
          continue;
        }
        if (!isRetryable(response) || attempt >= maxRetries) return response;
        await sleep(retryDelayMs(response.headers, attempt, maxDelay));
      }
    },
  };
}

/** The headers every request of `options` carries. */
export function headersOf(options: ClientOptions, accept: string): Record<string, string> {
  const headers: Record<string, string> = { accept, ...options.headers };
  if (options.environment) headers['bms-environment'] = options.environment;
  if (options.accessToken) headers.authorization = `Bearer ${options.accessToken}`;
  if (options.apiKey) {
    headers['x-api-key'] = options.apiKey;
    if (!options.accessToken && options.apiKey.startsWith('bms_sk_'))
      headers.authorization = `Bearer ${options.apiKey}`;
  }
  return headers;
}

/** A non-2xx answer, carrying the service's error object and the whole envelope. */
export class BmsApiError extends Error {
  readonly status: number;
  readonly code: ErrorObject['code'] | 'UNKNOWN';
  readonly details?: ErrorObject['details'];
  constructor(
    status: number,
    readonly body: unknown,
  ) {
    const error = (body as { error?: ErrorObject } | null)?.error;
    super(error?.message ?? `Request failed with status ${status}`);
    this.name = 'BmsApiError';
    this.status = status;
    this.code = error?.code ?? 'UNKNOWN';
    this.details = error?.details;
  }
}

type Success<R> = R extends { status: 200 | 201; body: infer B } ? B : never;

/** The body of a 2xx response, or a thrown `BmsApiError`. */
export async function unwrap<R extends { status: number; body: unknown }>(
  call: R | Promise<R>,
): Promise<Success<R>> {
  const response = await call;
  if (response.status >= 200 && response.status < 300) return response.body as Success<R>;
  throw new BmsApiError(response.status, response.body);
}
