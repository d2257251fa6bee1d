import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { unwrap } from '../../client/index.js';
import { expectResultError } from '../support/expect.js';
import { json, raw, registerBusiness } from '../support/business.js';
import { createCustomer } from '../support/general.js';
import { createDomain, createTemplate, MARKETING_ENV } from '../support/marketing.js';
import { useTestServer } from '../support/setup.js';
import { waitFor } from '../support/wait.js';
import { attemptRows, createWebhook, deliveriesOf } from '../support/webhooks.js';

/**
 * Server-side request forgery and unbounded outbound calls (OWASP API7): the address guard itself is
 * unit-tested in test/webhooks/address-guard.test.ts and at connect time in delivery-failures.test.ts.
 * Here: a receiver cannot hold a delivery (an answer that never ends, a huge answer), and the other
 * places a business writes a URL or host name (templates, sender domains) make the service dial
 * nothing.
 */

/**
 * The delivery timeout of this file's server: long enough that a 64 MiB answer is read through on a
 * machine running two test files at once (1.8 s was seen there against 1.5 s), short enough that the
 * endless answer's test ends soon.
 */
const TIMEOUT_MS = 6000;
const server = useTestServer({
  env: { ...MARKETING_ENV, WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) },
});

/** A local listener scripted per path, counting every connection it accepts. */
interface Listener {
  base: string;
  connections: number;
  requests: string[];
}
let http: Server;
const listener: Listener = { base: '', connections: 0, requests: [] };

beforeAll(async () => {
  http = createServer((req, res) => {
    listener.requests.push(req.url ?? '');
    req.resume();
    req.on('end', () => {
      if (req.url === '/endless') {
        // A 200 whose body never ends: a kilobyte every 10 ms, for as long as the caller reads.
        res.writeHead(200, { 'content-type': 'text/plain' });
        const timer = setInterval(() => res.write('x'.repeat(1024)), 10);
        res.on('close', () => clearInterval(timer));
      } else if (req.url === '/huge') {
        // 64 MiB, as fast as the caller reads it.
        res.writeHead(200, { 'content-type': 'text/plain' });
        const chunk = Buffer.alloc(1 << 20, 'y');
        let sent = 0;
        const pump = () => {
          while (sent < 64) {
            sent++;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        pump();
      } else {
        res.writeHead(200, { 'content-type': 'text/css' }).end('p{color:red}');
      }
    });
  });
  http.on('connection', () => listener.connections++);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  listener.base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});

afterAll(
  () =>
    new Promise<void>((resolve) => {
      http.closeAllConnections();
      http.close(() => resolve());
    }),
);

/** The first attempt of the webhook's only delivery, once recorded. */
async function firstAttempt(businessId: string, webhookId: number) {
  return waitFor(`an attempt of webhook ${webhookId}`, async () => {
    const [delivery] = await server()
      .deps.db.selectFrom('webhook_deliveries')
      .selectAll()
      .where('business_id', '=', businessId)
      .where('webhook_id', '=', webhookId)
      .execute();
    if (!delivery || delivery.status === 'pending') return undefined;
    const [attempt] = await attemptRows(server(), businessId, delivery.id);
    return attempt ? { delivery, attempt } : undefined;
  });
}

describe('a webhook receiver cannot hold a delivery', () => {
  it('ends an attempt whose 200 answer never finishes at the timeout, as a failure to retry', async () => {
    const biz = await registerBusiness(server());
    const { id } = await createWebhook(biz.client, {
      url: `${listener.base}/endless`,
      events: ['customer.created'],
    });
    const started = Date.now();
    await createCustomer(biz.client, { name: 'Endless Answer' });
    const { delivery, attempt } = await firstAttempt(biz.businessId, id);
    expect(delivery.status).toBe('retrying');
    expect(attempt.error_class).toBe('timeout');
    expect(attempt.duration_ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    // It gave up while the answer still streamed: the attempt fits in the time the test waited.
    expect(attempt.duration_ms).toBeLessThanOrEqual(Date.now() - started);
    await unwrap(biz.client.webhooks.updateWebhook({ params: { id }, body: { is_active: false } }));
  });

  it('reads a 64 MiB answer through and drops it: the delivery succeeds and no byte of it is kept', async () => {
    const biz = await registerBusiness(server());
    const { id } = await createWebhook(biz.client, {
      url: `${listener.base}/huge`,
      events: ['customer.created'],
    });
    await createCustomer(biz.client, { name: 'Huge Answer' });
    const { delivery, attempt } = await firstAttempt(biz.businessId, id);
    expect(delivery.status).toBe('succeeded');
    // Read to its end before the timeout: a timed-out attempt has error_class 'timeout'.
    expect(attempt).toMatchObject({ status_code: 200, error_class: null });
    expect(JSON.stringify(attempt)).not.toContain('yyyy');
    expect(JSON.stringify(delivery)).not.toContain('yyyy');
    expect(JSON.stringify(await deliveriesOf(biz.client, id))).not.toContain('yyyy');
  });
});

describe('URLs in an email template are never fetched by the service', () => {
  it('previews a template with a remote stylesheet, @import, images and backgrounds without dialling any', async () => {
    const biz = await registerBusiness(server());
    const before = listener.connections;
    const base = listener.base;
    const template = await createTemplate(biz.client, {
      html_body:
        `<html><head><link rel="stylesheet" href="${base}/linked.css">` +
        `<style>@import url("${base}/imported.css"); p{background:url(${base}/background.png)}</style></head>` +
        `<body><p>Hello {{first_name}}</p><img src="${base}/pixel.png">` +
        `<table background="${base}/table.png"><tr><td>x</td></tr></table>` +
        `<a href="http://169.254.169.254/latest/meta-data/">link</a></body></html>`,
    });
    const preview = await unwrap(
      biz.client.marketing.templates.previewTemplate({ params: { id: template.id }, body: {} }),
    );
    expect(JSON.stringify(preview)).toContain('Hello Ada');
    // Long enough for a fetch that was started to have connected.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(listener.connections - before).toBe(0);
    expect(listener.requests.filter((path) => !['/endless', '/huge'].includes(path))).toEqual([]);
  });
});

describe('sender domains are checked through DNS TXT records only', () => {
  it.each(['127.0.0.1', '169.254.169.254', '[::1]', 'localhost', '0x7f000001', 'http://mail.example.com/'])(
    'refuses %s as a domain name (422 naming domain)',
    async (domain) => {
      const biz = await registerBusiness(server());
      const res = await raw(server(), 'POST', '/v1/marketing/domains', {
        token: biz.accessToken,
        ...json({ domain }),
      });
      expectResultError(res, 422, 'VALIDATION_ERROR', 'domain');
    },
  );

  it('verifies by reading TXT records, never resolving the domain to an address or dialling it', async () => {
    const biz = await registerBusiness(server());
    const lookup = vi.spyOn(server().dns, 'lookup');
    const resolveTxt = vi.spyOn(server().dns, 'resolveTxt');
    const before = listener.connections;
    try {
      const domain = await createDomain(biz.client);
      const verified = await unwrap(biz.client.marketing.domains.verifyDomain({ params: { id: domain.id } }));
      expect(verified.domain.status).toBe('pending');
      expect(resolveTxt).toHaveBeenCalled();
      expect(lookup).not.toHaveBeenCalled();
      expect(listener.connections - before).toBe(0);
    } finally {
      lookup.mockRestore();
      resolveTxt.mockRestore();
    }
  });
});
