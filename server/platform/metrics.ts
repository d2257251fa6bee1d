import { createHash, timingSafeEqual } from 'node:crypto';
import { isIPv4 } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { Request, RequestHandler } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Clock } from './clock.js';
import type { DatabaseHandle } from './db/database.js';
import type { Deps } from './deps.js';
import { QUEUES } from './jobs.js';
import { queuedJobCounts } from './jobs.queries.js';
import { oldestPendingEvent } from './outbox.queries.js';
import { slot, type ServiceState } from './state.js';

/**
 * What `GET /metrics` reports (docs/decisions.md D61), in a registry of this service's own: the tests
 * run several services in one process, and each reports only what it did. The names, types and
 * labels are documented in README ("Metrics"); docs/grafana-dashboard.json charts them.
 */

/** How long a scrape reuses the database's answer: scrapes from several Prometheus servers share one query. */
export const DATABASE_READ_CACHE_MS = 5_000;

export type MailOutcome = 'sent' | 'bounced' | 'failed';
const MAIL_OUTCOMES: readonly MailOutcome[] = ['sent', 'bounced', 'failed'];
const WEBHOOK_OUTCOMES = ['success', 'failure'] as const;

/** What the gauges read when scraped: the service's database, its clock, and where to log a failed read. */
type Source = Pick<Deps, 'database' | 'clock' | 'log'>;

export class Metrics {
  readonly registry = new Registry();

  readonly requestDuration = new Histogram({
    name: 'bms_http_request_duration_seconds',
    help: 'Time from the request to the end of its response, by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });

  readonly jobFailures = new Counter({
    name: 'bms_job_failures_total',
    help: 'Job handler runs that threw (the job is retried by the queue), by queue',
    labelNames: ['queue'] as const,
    registers: [this.registry],
  });

  readonly webhookDeliveries = new Counter({
    name: 'bms_webhook_deliveries_total',
    help: 'Webhook delivery attempts, by outcome (success: the receiver answered 2xx)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly mailMessages = new Counter({
    name: 'bms_mail_messages_total',
    help: 'Messages handed to SMTP, by outcome: sent, bounced (refused for good) or failed (may be retried)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  /** Set once the service's database is open (`watch`); until then the gauges report nothing. */
  private source?: Source;
  private readonly queueCounts = readEvery(DATABASE_READ_CACHE_MS, () =>
    queuedJobCounts(this.source!.database.db),
  );
  private readonly oldestEvent = readEvery(DATABASE_READ_CACHE_MS, () =>
    oldestPendingEvent(this.source!.database.db),
  );

  constructor() {
    const pool: Gauge<'state'> = new Gauge({
      name: 'bms_db_pool_connections',
      help: 'Database connections of the service pool by state: total, idle, waiting (requests queued for one); PGlite is one connection',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect: () => poolUse(pool, this.source?.database),
    });
    const queueDepth: Gauge<'queue'> = new Gauge({
      name: 'bms_job_queue_depth',
      help: 'Jobs waiting to be worked (queued or waiting for a retry), by queue; the same for every process on one database',
      labelNames: ['queue'] as const,
      registers: [this.registry],
      collect: async () => {
        if (!this.source) return;
        const counts = await this.read(this.queueCounts, 'job queue depth');
        queueDepth.reset();
        if (!counts) return;
        for (const queue of Object.values(QUEUES)) queueDepth.set({ queue }, 0);
        for (const { name, queued } of counts) queueDepth.set({ queue: name }, queued);
      },
    });
    const outboxLag: Gauge = new Gauge({
      name: 'bms_outbox_lag_seconds',
      help: 'Age of the oldest outbox event not yet dispatched (0 when none waits); the same for every process on one database',
      registers: [this.registry],
      collect: async () => {
        if (!this.source) return;
        const oldest = await this.read(this.oldestEvent, 'outbox lag');
        outboxLag.reset();
        if (oldest !== undefined) outboxLag.set(lagSeconds(this.source.clock, oldest));
      },
    });
    // Every known label value from the start, so rate() has a series before the first event.
    for (const queue of Object.values(QUEUES)) this.jobFailures.inc({ queue }, 0);
    for (const outcome of WEBHOOK_OUTCOMES) this.webhookDeliveries.inc({ outcome }, 0);
    for (const outcome of MAIL_OUTCOMES) this.mailMessages.inc({ outcome }, 0);
    // The standard names (process_*, nodejs_*) that stock Node.js dashboards read; `bms_` is for the
    // service's own metrics (docs/decisions.md, the Libraries table).
    collectDefaultMetrics({ register: this.registry });
  }

  /** Lets the gauges read the service's database pool, queues and outbox. */
  watch(source: Source): void {
    this.source = source;
  }

  /** A database read for a gauge; a failure is logged and the gauge left without a value. */
  private async read<T>(cached: () => Promise<T>, what: string): Promise<T | undefined> {
    try {
      return await cached();
    } catch (err) {
      this.source?.log.warn({ err }, `metrics: reading the ${what} failed`);
      return undefined;
    }
  }
}

const METRICS = slot('metrics', () => new Metrics());

/** This service's metrics. */
export const metricsOf = (state: ServiceState): Metrics => state.get(METRICS);

/** Counts a webhook delivery attempt: `success` when the receiver answered 2xx. */
export function countWebhookDelivery(state: ServiceState, success: boolean): void {
  metricsOf(state).webhookDeliveries.inc({ outcome: success ? 'success' : 'failure' });
}

/** Counts a message handed to SMTP. */
export function countMail(state: ServiceState, outcome: MailOutcome): void {
  metricsOf(state).mailMessages.inc({ outcome });
}

/** The outcome of an SMTP refusal: a permanent (5xx) answer bounced, anything else failed. */
export function mailFailureOutcome(err: unknown): MailOutcome {
  const code = (err as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600 ? 'bounced' : 'failed';
}

function poolUse(gauge: Gauge<'state'>, database: DatabaseHandle | undefined): void {
  gauge.reset();
  if (!database) return;
  const { pool } = database;
  if (!pool) {
    gauge.set({ state: 'total' }, 1);
    return;
  }
  gauge.set({ state: 'total' }, pool.totalCount);
  gauge.set({ state: 'idle' }, pool.idleCount);
  gauge.set({ state: 'waiting' }, pool.waitingCount);
}

/** Seconds since `oldest` by the service's clock (an event a sandbox dated ahead counts as 0). */
const lagSeconds = (clock: Clock, oldest: Date | null): number =>
  oldest ? Math.max(0, (clock.now().getTime() - oldest.getTime()) / 1000) : 0;

/**
 * `read`, run at most once every `ms`: callers within that time share its answer (or the read
 * under way). A failed read is not kept, so the next scrape tries again.
 */
function readEvery<T>(ms: number, read: () => Promise<T>): () => Promise<T> {
  let at = 0;
  let held: Promise<T> | undefined;
  return () => {
    const now = performance.now();
    if (held && now - at < ms) return held;
    at = now;
    const reading = read();
    held = reading;
    reading.catch(() => {
      if (held === reading) held = undefined;
    });
    return reading;
  };
}

/**
 * The route template a request matched (`/v1/invoices/:id`), never its path with ids in it: what
 * the request histogram is labelled by. A router's static files count under their mount path;
 * a request answered before any route matched (a 404, a rate-limit refusal) is `unmatched`.
 */
export function routeOf(req: Request): string {
  const route = req.route as { path?: unknown } | undefined;
  if (!route) return req.baseUrl || 'unmatched';
  const path = typeof route.path === 'string' ? route.path : String(route.path);
  return req.baseUrl ? req.baseUrl + path : path;
}

/** Observes every request's duration once its response is finished. */
export function requestMetrics(state: ServiceState): RequestHandler {
  const histogram = metricsOf(state).requestDuration;
  return (req, res, next) => {
    const started = performance.now();
    res.once('finish', () => {
      histogram.observe(
        { method: req.method, route: routeOf(req), status: res.statusCode },
        (performance.now() - started) / 1000,
      );
    });
    next();
  };
}

/** IPv4 127.0.0.0/8, IPv6 ::1, and IPv4 loopback mapped into IPv6 (`::ffff:127.0.0.1`). */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const lower = address.toLowerCase();
  if (lower === '::1') return true;
  const v4 = lower.startsWith('::ffff:') ? lower.slice(7) : lower;
  return isIPv4(v4) && v4.startsWith('127.');
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Whether a scrape may read the metrics: from a loopback peer (the socket's own address, never a
 * forwarded header), or with `Authorization: Bearer <METRICS_TOKEN>` when a token is configured.
 * The token is compared by digest in constant time, so neither its content nor its length leaks.
 */
export function mayScrape(
  remoteAddress: string | undefined,
  authorization: string | undefined,
  token: string | undefined,
): boolean {
  if (isLoopback(remoteAddress)) return true;
  if (!token || !authorization) return false;
  const given = /^Bearer +(\S+) *$/i.exec(authorization)?.[1];
  return given !== undefined && timingSafeEqual(digest(given), digest(token));
}

/**
 * `GET /metrics` in the Prometheus text format, for the peers `mayScrape` lets in. Anyone else goes
 * on to the routes after it, where none answers: the same 404 as any path that does not exist (and
 * the same rate limit). A middleware rather than a route, so that such a request is counted as the
 * unmatched request it is, and a scrape is never counted at all.
 */
export function metricsRoute(deps: Pick<Deps, 'state' | 'config'>): RequestHandler {
  const { registry } = metricsOf(deps.state);
  return (req, res, next) => {
    if (
      req.path !== '/metrics' ||
      (req.method !== 'GET' && req.method !== 'HEAD') ||
      !mayScrape(req.socket.remoteAddress, req.get('authorization'), deps.config.METRICS_TOKEN)
    ) {
      next();
      return;
    }
    registry.metrics().then(
      (text) => {
        res.setHeader('Cache-Control', 'no-store');
        // As prom-client names it: Express's `type()` would reorder its parameters.
        res.setHeader('Content-Type', registry.contentType);
        res.end(text);
      },
      (err: unknown) => next(err),
    );
  };
}
