import {
  initClient,
  tsRestFetchApi,
  type ApiFetcherArgs,
  type AppRoute,
  type ClientInferRequest,
  type InitClientReturn,
} from '@ts-rest/core';
import type { AuthSession, SignInChallenge, SignInResult } from '../contract/auth/index.js';
import type { ErrorObject } from '../contract/common/errors.js';
import { contract, type Contract } from '../contract/index.js';

export { contract };
export { toMajor, toMinor } from './money.js';
/**
 * How the service prices lines, invoices, quotes and bills (`pricing.priceLine`, ...), exact in BigInt,
 * for showing a total before sending it; `hr.workingDays` counts a leave's days the same way.
 */
export * as pricing from '../contract/common/pricing.js';
/**
 * When a recurring invoice or bill falls due (`schedule.nextPeriodDates`, `schedule.periodDate`, ...):
 * the rule the service makes them by, for showing the next dates before creating a schedule.
 */
export * as schedule from '../contract/common/schedule.js';
/** Who may do what: each operation's permission and each role's permissions (a UI hides the rest). */
export {
  OPERATION_PERMISSIONS,
  PERMISSIONS,
  ROLE_PERMISSIONS,
  ROLES,
  roleAllows,
  type Permission,
  type Role,
} from '../contract/permissions.js';
/** What a webhook receives, typed by event; `verifyWebhook` (from `@bms/client/webhooks`) returns it. */
export {
  WebhookEnvelopeSchema,
  WebhookMessageSchema,
  WEBHOOK_EVENT_DATA,
  WEBHOOK_MESSAGE_SCHEMAS,
} from '../contract/webhooks/events.js';
export type {
  WebhookEnvelope,
  WebhookEventData,
  WebhookMessage,
  WebhookMessageOf,
} from '../contract/webhooks/events.js';
/**
 * Each domain's schemas and types under its own name: `loyalty.Member`, `general.Invoice`,
 * `hr.Employee`, `webhooks.Delivery` as types, and `general.CreateInvoiceBodySchema` as the Zod schema a
 * form can check its input with before sending.
 */
export {
  audit,
  auth,
  finance,
  general,
  hr,
  imports,
  loyalty,
  marketing,
  publicLoyalty,
  sandbox,
  team,
  webhooks,
} from '../contract/index.js';
/** What every domain shares: `ErrorCode`, `ErrorObject`, `EventName`, `Pagination`, ... */
export type * from '../contract/common/index.js';
/**
 * The event names a webhook may subscribe to, the currency codes the service accepts and the
 * assigned ISO 3166-1 country codes.
 */
export { COUNTRY_CODES, CURRENCY_CODES, EVENT_NAMES } from '../contract/common/index.js';

/**
 * Whether a sign-in answer (`auth.signIn`, `auth.acceptInvitation`) is the challenge of the second
 * step, for a person with two-factor sign-in on, rather than an access token: answer it with
 * `auth.completeSignIn({ body: { challengeToken, code } })`.
 */
export function isSignInChallenge(data: SignInResult): data is SignInChallenge {
  return 'challengeToken' in data;
}

/**
 * The access token of a sign-in answer, for code that signs in people without a second factor (a
 * script's service account); a challenge throws, saying what to do.
 */
export function sessionOf(data: SignInResult): AuthSession {
  if (isSignInChallenge(data)) {
    throw new Error(
      'Two-factor sign-in is on for this person: send the code with the password, or answer the challenge with auth.completeSignIn',
    );
  }
  return data;
}

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

/** What `createClient` passes to ts-rest: it decides the request and response types of every method. */
interface SdkClientArgs {
  baseUrl: string;
  baseHeaders: Record<string, string>;
  throwOnUnknownStatus: boolean;
  api: (args: ApiFetcherArgs) => ReturnType<typeof tsRestFetchApi>;
}

/**
 * The client's type, named (rather than inferred from `createClient`) so that the declaration file
 * refers to the contract instead of spelling out every method's types.
 */
export type Client = InitClientReturn<Contract, SdkClientArgs>;

/**
 * The typed client: one method per route of the contract, e.g.
 * `client.general.invoices.createInvoice({ body, headers: { 'idempotency-key': key } })`.
 * Every call resolves to `{ status, body, headers }`; `unwrap()` turns it into the body or a thrown
 * `BmsApiError`.
 */
export function createClient(options: ClientOptions): Client {
  const baseHeaders = headersOf(options, 'application/json');
  const maxRetries = options.maxRetries ?? 3;
  const maxDelay = options.maxRetryDelayMs ?? 60_000;

  const args: SdkClientArgs = {
    baseUrl: options.baseUrl.replace(/\/$/, ''),
    baseHeaders,
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
  return initClient(contract, args);
}

/** The headers every request of `options` carries. */
function headersOf(options: ClientOptions, accept: string): Record<string, string> {
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

/** A list operation of the contract (a GET answering a page of items). */
type ListRoute = AppRoute & { method: 'GET' };

/**
 * Every item of a list as CSV (docs/decisions.md D155): `route` is the list's operation in `contract`
 * (`contract.finance.journal.listJournal`), with its filters and order; paging is ignored. Resolves
 * to the response, whose body streams the file (`await response.text()`, or `response.body`); a
 * refusal throws `BmsApiError`.
 */
export async function exportCsv<R extends ListRoute>(
  options: ClientOptions,
  route: R,
  request: {
    params?: ClientInferRequest<R>['params'];
    query?: Partial<Record<keyof NonNullable<ClientInferRequest<R>['query']>, string | number | boolean>>;
  } = {},
): Promise<Response> {
  const params = (request.params ?? {}) as Record<string, string>;
  const path = route.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(request.query ?? {})) {
    if (value !== undefined) search.set(key, String(value));
  }
  search.set('format', 'csv');
  const response = await fetch(`${options.baseUrl.replace(/\/$/, '')}${path}?${search.toString()}`, {
    headers: headersOf(options, 'text/csv'),
  });
  if (!response.ok) {
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON: the text is the error.
    }
    throw new BmsApiError(response.status, body);
  }
  return response;
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
