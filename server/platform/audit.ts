import { isAppRoute, type AppRoute, type AppRouter } from '@ts-rest/core';
import type { AuditEntry, AuditSummary, ListAuditLogQuery } from '../../contract/audit/index.js';
import { CURRENCY_EXPONENTS } from '../../contract/common/currencies.js';
import { contract } from '../../contract/index.js';
import type { Ctx } from './context.js';
import type { Executor } from './db/database.js';
import type { AuthInfo } from './deps.js';
import { newId } from './ids.js';
import { toMinor } from './money.js';
import * as queries from './audit.queries.js';

/**
 * The audit trail (docs/decisions.md D59): every change a business's credential makes (a request other
 * than a read, answered 2xx) is written to `audit_log` in the change's own transaction, so a change
 * that rolls back leaves no row. The request transaction (server/platform/idempotency.ts) writes it
 * just before its commit. The public earn, which runs without one, writes no row here
 * (SELF_AUDITED): its ledger row is its record, carrying the key or user and the request id, and the
 * log reads both through the view `audit_entries` (docs/decisions.md D233). Rows are append-only (a
 * trigger refuses UPDATE and DELETE but a sandbox's) and kept at least 2 years: nothing purges
 * them. A valid credential refused for its role or scope leaves a
 * `denied` row too (recordDenied), at most one per actor and operation a minute.
 */

/** Who made a change: a person (their user id) or an API key (its id). */
export interface AuditActor {
  kind: 'user' | 'api_key';
  id: string;
}

export const actorOf = (auth: AuthInfo): AuditActor =>
  auth.kind === 'user' && auth.userId
    ? { kind: 'user', id: auth.userId }
    : { kind: 'api_key', id: auth.credentialId };

/**
 * Operations that record themselves with the change they make: the public earn in its ledger row;
 * an import, a row per record it changed and none for a dry run (server/imports/run.ts).
 */
export const SELF_AUDITED: ReadonlySet<string> = new Set([
  'publicEarn',
  'importCustomers',
  'importProducts',
  'importVendors',
  'importEmployees',
  'importExchangeRates',
  'importHolidays',
]);

const keyOf = (route: Pick<AppRoute, 'method' | 'path'>) => `${route.method} ${route.path}`;

let operations: Map<string, string> | undefined;

/** The contract's name of the route's operation (`createInvoice`). */
export function operationOf(route: AppRoute): string {
  if (!operations) {
    const found = new Map<string, string>();
    const walk = (router: AppRouter) => {
      for (const [name, entry] of Object.entries(router)) {
        if (isAppRoute(entry)) found.set(keyOf(entry), name);
        else walk(entry);
      }
    };
    walk(contract);
    operations = found;
  }
  return operations.get(keyOf(route)) ?? `${route.method} ${route.path}`;
}

const idText = (value: unknown): string | null =>
  typeof value === 'string' && value.length > 0 && value.length <= 200 ? value : null;

/**
 * The resource a change is about: the path's last parameter (`:id`, `:publicId`, ...); else the id
 * in the answer (`data.id`, `id`, or the one `<resource>_id` field of a result envelope); else null.
 */
export function resourceIdOf(params: Record<string, string> | undefined, body: unknown): string | null {
  const values = Object.values(params ?? {});
  const fromPath = idText(values[values.length - 1]);
  if (fromPath) return fromPath;
  if (typeof body !== 'object' || body === null) return null;
  const answer = body as Record<string, unknown>;
  const data = answer.data as Record<string, unknown> | null | undefined;
  const fromData = typeof data === 'object' && data !== null ? idText(data.id) : null;
  if (fromData) return fromData;
  const own = idText(answer.id);
  if (own) return own;
  const named = Object.keys(answer).filter((k) => k.endsWith('_id'));
  return named.length === 1 ? idText(answer[named[0]!]) : null;
}

const labelText = (value: unknown): string | null =>
  typeof value === 'string' && value.trim().length > 0 ? value.trim().slice(0, 200) : null;

/** Operations whose request body's `amount` (major units) is the money the change moved. */
const MAJOR_AMOUNT_OPERATIONS: ReadonlySet<string> = new Set(['createPayment']);

/**
 * What a change was about, as people name it, read from its request and answer so that the log
 * reads as sentences without a request per line (docs/decisions.md D201): the
 * resource's number or name, and for a payment its amount (minor units) and currency. Null when the
 * answer names nothing (a deletion).
 */
export function summaryOf(operation: string, request: unknown, body: unknown): AuditSummary | null {
  if (typeof body !== 'object' || body === null) return null;
  const answer = body as Record<string, unknown>;
  const data = answer.data;
  const object = (
    typeof data === 'object' && data !== null && !Array.isArray(data) ? data : answer
  ) as Record<string, unknown>;
  const fullName = [labelText(object.first_name), labelText(object.last_name)].filter(Boolean).join(' ');
  let label =
    labelText(object.number) ??
    labelText(object.name) ??
    (fullName || null) ??
    labelText(object.email) ??
    labelText(object.domain) ??
    labelText(object.url);
  // A member's removal names the API keys it revoked with them.
  const revokedKeys = object.revokedApiKeys;
  if (label !== null && typeof revokedKeys === 'number') {
    label = `${label} (${revokedKeys} API ${revokedKeys === 1 ? 'key' : 'keys'} revoked)`;
  }
  const currency =
    typeof object.currency === 'string' && object.currency in CURRENCY_EXPONENTS ? object.currency : null;
  let amount: number | null = null;
  const sent = (request as { amount?: unknown } | null)?.amount;
  if (MAJOR_AMOUNT_OPERATIONS.has(operation) && currency && typeof sent === 'number') {
    try {
      amount = toMinor(sent, currency, 'amount');
    } catch {
      amount = null;
    }
  }
  if (label === null && amount === null) return null;
  return { label, amount, currency: amount === null ? null : currency };
}

export interface AuditRecord {
  businessId: string;
  actor: AuditActor;
  operation: string;
  resourceId: string | null;
  requestId: string;
  at: Date;
  summary?: AuditSummary | null;
}

/** Writes one audit row on `db`, the change's own transaction. */
export function recordChange(db: Executor, record: AuditRecord): Promise<void> {
  return queries.insertAuditEntry(db, rowOf(record));
}

const rowOf = (record: AuditRecord) => ({
  business_id: record.businessId,
  id: newId('aud'),
  occurred_at: record.at,
  actor_kind: record.actor.kind,
  actor_id: record.actor.id,
  operation: record.operation,
  resource_id: record.resourceId,
  request_id: record.requestId,
  summary: record.summary ? JSON.stringify(record.summary) : null,
});

/** Writes many audit rows in one statement on `db`, the change's own transaction. */
export function recordChanges(db: Executor, records: readonly AuditRecord[]): Promise<void> {
  return queries.insertAuditEntries(db, records.map(rowOf));
}

const MINUTE_MS = 60_000;

/** The minute an instant falls in: a refusal's row is unique per actor, operation and minute. */
export const minuteOf = (at: Date): Date => new Date(Math.floor(at.getTime() / MINUTE_MS) * MINUTE_MS);

/**
 * Writes the row of an attempt refused for the credential's role or scope (docs/decisions.md D60,
 * "Refused attempts in the audit trail"), on its own: the refused request has no transaction, and
 * the refusal must be kept whatever happens after it. A second refusal of the same actor and
 * operation in the same minute writes nothing, even when both race.
 */
export function recordDenied(db: Executor, record: Omit<AuditRecord, 'summary'>): Promise<void> {
  return queries.insertDeniedEntry(db, { ...rowOf(record), denied_minute: minuteOf(record.at) });
}

/** `GET /v1/audit-log`: the business's changes, newest first. */
export async function listAuditLog(
  ctx: Ctx,
  query: ListAuditLogQuery,
): Promise<{ entries: AuditEntry[]; total_count: number }> {
  const { rows, total } = await queries.listAuditEntries(ctx.db, ctx.businessId, {
    ...query,
    from: query.from === undefined ? undefined : new Date(query.from),
    to: query.to === undefined ? undefined : new Date(query.to),
  });
  return {
    entries: rows.map((r) => ({
      id: r.id,
      occurred_at: r.occurred_at.toISOString(),
      actor: { kind: r.actor_kind, id: r.actor_id },
      operation: r.operation,
      outcome: r.outcome,
      resource_id: r.resource_id,
      request_id: r.request_id,
      summary: r.summary ?? null,
    })),
    total_count: total,
  };
}
