import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import { createApp } from '../../server/app.js';
import { isLoopback, mayScrape } from '../../server/platform/metrics.js';
import { startWorker } from '../../server/platform/runtime.js';
import { raw, registerBusiness, type TestBusiness } from '../support/business.js';
import { configErrorOf } from '../support/config.js';
import { createCustomer } from '../support/general.js';
import { useReceivers } from '../support/receiver.js';
import { useTestServer } from '../support/setup.js';
import { waitFor } from '../support/wait.js';

const TOKEN = 'metrics-token-0123456789abcdef';
// No worker at first: the events of the changes below wait in the queue and the outbox.
const server = useTestServer({
  worker: false,
  env: { METRICS_TOKEN: TOKEN, WEBHOOK_ALLOW_PRIVATE: 'true' },
});
const receivers = useReceivers();

/** The metric names README's "Metrics" section documents. */
function documentedNames(): string[] {
  const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
  const section = /^## Metrics\n([\s\S]*?)(?=^## )/m.exec(readme)?.[1] ?? '';
  return [...new Set([...section.matchAll(/`((?:bms|process|nodejs)_[a-z0-9_]+)`/g)].map((m) => m[1]!))];
}

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition. */
function samples(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!m) throw new Error(`not a sample line: ${line}`);
      const labels = Object.fromEntries(
        [...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1]!, l[2]!]),
      );
      return { name: m[1]!, labels, value: Number(m[3]) };
    });
}

/** The value of the sample `name` whose labels include `labels`, or undefined. */
function valueOf(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  return samples(text).find(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  )?.value;
}

async function scrape(): Promise<string> {
  const res = await raw(server(), 'GET', '/metrics');
  expect(res.status).toBe(200);
  return res.body as string;
}

const requestCount = (text: string, method: string, route: string, status: string) =>
  valueOf(text, 'bms_http_request_duration_seconds_count', { method, route, status }) ?? 0;

let business: TestBusiness;
let customerId: string;

beforeAll(async () => {
  business = await registerBusiness(server());
  // customer.created is written to the outbox with its dispatch job; no worker takes it yet.
  customerId = (await createCustomer(business.client)).id;
});

describe('who may scrape', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.255.255.254', true],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
    ['::FFFF:127.1.2.3', true],
    ['128.0.0.1', false],
    ['10.0.0.1', false],
    ['::ffff:10.0.0.1', false],
    ['::2', false],
    ['fe80::1', false],
    ['127.example', false],
    ['', false],
    [undefined, false],
  ])('isLoopback(%s) is %s', (address, expected) => {
    expect(isLoopback(address)).toBe(expected);
  });

  it('answers a loopback peer without a token, whether or not one is configured', () => {
    expect(mayScrape('127.0.0.1', undefined, undefined)).toBe(true);
    expect(mayScrape('::1', 'Bearer wrong', TOKEN)).toBe(true);
  });

  it('answers another peer only with the configured token', () => {
    expect(mayScrape('192.0.2.7', undefined, undefined)).toBe(false);
    expect(mayScrape('192.0.2.7', `Bearer ${TOKEN}`, undefined)).toBe(false);
    expect(mayScrape('192.0.2.7', undefined, TOKEN)).toBe(false);
    expect(mayScrape('192.0.2.7', `Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(mayScrape('192.0.2.7', `bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(mayScrape('192.0.2.7', `Bearer ${TOKEN}x`, TOKEN)).toBe(false);
    expect(mayScrape('192.0.2.7', `Bearer ${TOKEN.slice(0, -1)}`, TOKEN)).toBe(false);
    expect(mayScrape('192.0.2.7', TOKEN, TOKEN)).toBe(false);
    expect(mayScrape('192.0.2.7', `Basic ${TOKEN}`, TOKEN)).toBe(false);
  });

  it('refuses a METRICS_TOKEN shorter than 16 characters, naming METRICS_TOKEN', () => {
    expect(configErrorOf({ METRICS_TOKEN: 'short' }).message).toMatch(/\bMETRICS_TOKEN\b/);
  });
});

describe('GET /metrics', () => {
  it('answers a loopback peer in the Prometheus text format, uncached', async () => {
    const res = await raw(server(), 'GET', '/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toMatch(/^# HELP /);
  });

  it('reports every metric README documents, and documents every metric of its own', async () => {
    const text = await scrape();
    const documented = documentedNames();
    expect(documented).toEqual(
      expect.arrayContaining([
        'bms_http_request_duration_seconds',
        'bms_db_pool_connections',
        'bms_job_queue_depth',
        'bms_job_failures_total',
        'bms_outbox_lag_seconds',
        'bms_webhook_deliveries_total',
        'bms_mail_messages_total',
        'process_cpu_seconds_total',
        'process_resident_memory_bytes',
      ]),
    );
    const reported = [...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]!);
    expect(reported).toEqual(expect.arrayContaining(documented));
    // The service's own metrics are all documented, and all carry its prefix; prom-client's process
    // and Node.js ones keep their standard names.
    const own = reported.filter((name) => !/^(process|nodejs)_/.test(name));
    expect(own.every((name) => name.startsWith('bms_'))).toBe(true);
    expect(reported).toEqual(
      expect.arrayContaining(['nodejs_heap_size_used_bytes', 'nodejs_eventloop_lag_p99_seconds']),
    );
    expect(reported.filter((name) => /^bms_(process|nodejs)_/.test(name))).toEqual([]);
    expect(documented).toEqual(expect.arrayContaining(own));
  });

  it('counts a request under its route template and status, never its path with the id', async () => {
    const route = '/v1/customers/:id';
    const before = await scrape();
    const found = await raw(server(), 'GET', `/v1/customers/${customerId}`, { token: business.accessToken });
    expect(found.status).toBe(200);
    const otherId = customerId.slice(0, -1) + (customerId.endsWith('0') ? '1' : '0');
    const missing = await raw(server(), 'GET', `/v1/customers/${otherId}`, { token: business.accessToken });
    expect(missing.status).toBe(404);
    const after = await scrape();
    expect(requestCount(after, 'GET', route, '200')).toBe(requestCount(before, 'GET', route, '200') + 1);
    expect(requestCount(after, 'GET', route, '404')).toBe(requestCount(before, 'GET', route, '404') + 1);
    expect(after).not.toContain(customerId);
    expect(after).not.toContain(otherId);
    expect(valueOf(after, 'bms_http_request_duration_seconds_sum', { route, status: '200' })).toBeGreaterThan(
      0,
    );
    expect(
      valueOf(after, 'bms_http_request_duration_seconds_bucket', { route, status: '200', le: '+Inf' }),
    ).toBe(requestCount(after, 'GET', route, '200'));
  });

  it('counts a path no route answers as unmatched', async () => {
    const before = await scrape();
    expect((await raw(server(), 'GET', '/no/such/path/123')).status).toBe(404);
    const after = await scrape();
    expect(requestCount(after, 'GET', 'unmatched', '404')).toBe(
      requestCount(before, 'GET', 'unmatched', '404') + 1,
    );
    expect(after).not.toContain('/no/such/path');
  });

  it('does not count scrapes', async () => {
    const first = await scrape();
    await scrape();
    const third = await scrape();
    expect(third).not.toContain('route="/metrics"');
    const total = (text: string) =>
      samples(text)
        .filter((s) => s.name === 'bms_http_request_duration_seconds_count')
        .reduce((sum, s) => sum + s.value, 0);
    expect(total(third)).toBe(total(first));
  });

  it('reports the database pool', async () => {
    const text = await scrape();
    const pool = server().deps.database.pool;
    if (!pool) {
      expect(valueOf(text, 'bms_db_pool_connections', { state: 'total' })).toBe(1);
      return;
    }
    expect(valueOf(text, 'bms_db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(text, 'bms_db_pool_connections', { state: 'idle' })).toBeGreaterThanOrEqual(0);
    expect(valueOf(text, 'bms_db_pool_connections', { state: 'waiting' })).toBe(0);
  });

  it('reports the queued jobs of every queue and the age of the oldest undispatched event', async () => {
    const text = await scrape();
    // Events are dispatched by the relay (docs/decisions.md D265): the queue remains for jobs of earlier versions.
    expect(valueOf(text, 'bms_job_queue_depth', { queue: 'events.dispatch' })).toBe(0);
    expect(valueOf(text, 'bms_job_queue_depth', { queue: 'webhooks.deliver' })).toBe(0);
    expect(valueOf(text, 'bms_job_queue_depth', { queue: 'mail.send' })).toBeGreaterThanOrEqual(0);
    expect(valueOf(text, 'bms_outbox_lag_seconds')).toBeGreaterThan(0);
  });

  it('starts every failure and outcome counter at zero', async () => {
    const text = await scrape();
    for (const queue of ['events.dispatch', 'webhooks.deliver', 'mail.send']) {
      expect(valueOf(text, 'bms_job_failures_total', { queue })).toBe(0);
    }
    for (const outcome of ['sent', 'bounced', 'failed']) {
      expect(valueOf(text, 'bms_mail_messages_total', { outcome })).toBe(0);
    }
    expect(valueOf(text, 'bms_webhook_deliveries_total', { outcome: 'failure' })).toBe(0);
  });

  it('counts webhook delivery attempts by outcome', async () => {
    const accepting = await receivers();
    const refusing = await receivers(() => ({ status: 500 }));
    for (const receiver of [accepting, refusing]) {
      await unwrap(
        business.client.webhooks.createWebhook({ body: { url: receiver.url, events: ['customer.created'] } }),
      );
    }
    const before = await scrape();
    // The worker dispatches the waiting customer.created to both webhooks.
    await startWorker(server().deps);
    await waitFor(
      'both receivers to be called',
      async () => accepting.hits.length >= 1 && refusing.hits.length >= 1,
    );
    const after = await waitFor('both attempts to be counted', async () => {
      const text = await scrape();
      return (valueOf(text, 'bms_webhook_deliveries_total', { outcome: 'failure' }) ?? 0) >= 1 && text;
    });
    const delta = (outcome: string) =>
      valueOf(after, 'bms_webhook_deliveries_total', { outcome })! -
      valueOf(before, 'bms_webhook_deliveries_total', { outcome })!;
    expect(delta('success')).toBe(1);
    expect(delta('failure')).toBeGreaterThanOrEqual(1);
  });
});

describe('docs/grafana-dashboard.json', () => {
  const dashboard = JSON.parse(
    readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'grafana-dashboard.json'), 'utf8'),
  );
  const expressions: string[] = dashboard.panels.flatMap((p: any) =>
    (p.targets ?? []).map((t: any) => t.expr as string),
  );

  it('has a Prometheus data source variable that every panel uses', () => {
    const variable = dashboard.templating.list.find((v: any) => v.type === 'datasource');
    expect(variable).toMatchObject({ name: 'datasource', query: 'prometheus' });
    for (const panel of dashboard.panels.filter((p: any) => p.type !== 'row')) {
      expect(panel.datasource, panel.title).toEqual({ type: 'prometheus', uid: '${datasource}' });
    }
  });

  it('charts every metric of the service and only documented ones', () => {
    const charted = new Set(
      expressions.flatMap((e) => e.match(/\b(?:bms|process|nodejs)_[a-z0-9_]+/g) ?? []),
    );
    const base = (name: string) => name.replace(/_(bucket|count|sum)$/, '');
    const documented = documentedNames();
    for (const name of charted) expect(documented, name).toContain(base(name));
    const own = documented.filter((name) => name.startsWith('bms_'));
    for (const name of own) expect([...charted].map(base), name).toContain(name);
  });
});

/** An address of this machine that is not loopback, when it has one. */
const outsideAddress = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;

describe.skipIf(!outsideAddress)('GET /metrics from another address', () => {
  let http: Server;
  let base: string;

  beforeAll(async () => {
    // The same service on the machine's own non-loopback address: its requests come from there.
    http = createServer(createApp(server().deps));
    await new Promise<void>((resolve) => http.listen(0, outsideAddress, resolve));
    base = `http://${outsideAddress}:${(http.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => http.close(() => resolve())));

  const get = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${base}${path}`, { headers });
    return { status: res.status, body: (await res.json().catch(() => undefined)) as any };
  };

  it('answers 404 in the not-found envelope without a token, as for a path that does not exist', async () => {
    const refused = await get('/metrics');
    const nothing = await get('/metricz');
    expect(refused.status).toBe(404);
    expect(nothing.status).toBe(404);
    expect(refused.body).toEqual(JSON.parse(JSON.stringify(nothing.body).replaceAll('/metricz', '/metrics')));
  });

  it('ignores X-Forwarded-For naming loopback', async () => {
    expect((await get('/metrics', { 'x-forwarded-for': '127.0.0.1' })).status).toBe(404);
  });

  it('answers 404 to a wrong token and 200 to METRICS_TOKEN', async () => {
    expect((await get('/metrics', { authorization: `Bearer ${TOKEN}-wrong` })).status).toBe(404);
    expect((await get('/metrics', { authorization: 'Bearer ' })).status).toBe(404);
    const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('# TYPE bms_http_request_duration_seconds histogram');
  });
});
