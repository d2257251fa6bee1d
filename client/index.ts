import { initClient, type AppRoute, type ClientInferRequest, type InitClientReturn } from '@ts-rest/core';
import { contract, type Contract } from '../contract/index.js';
import { BmsApiError, clientArgs, headersOf, type ClientOptions, type SdkClientArgs } from './transport.js';

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
/**
 * How an amount in another currency is converted to the base currency at a rate (`exchange.toBase`),
 * exact in BigInt and rounded once as the service posts it, for showing a base equivalent.
 */
export * as exchange from '../contract/common/exchange.js';
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

export { isSignInChallenge, sessionOf } from './auth.js';
export { BmsApiError, unwrap, type ClientOptions } from './transport.js';

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
  return initClient(contract, clientArgs(options));
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
