import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createClient, unwrap, type Client } from '../../client/index.js';
import { keyClient, registerShop, uniqueEmail, type TestShop } from '../support/business.js';
import { transactionRows } from '../support/loyalty.js';
import { useTestServer } from '../support/setup.js';
import { itemAt } from '../support/expect.js';

const server = useTestServer({ env: { ACCESS_TOKEN_TTL: '3650d' } });

afterEach(() => server().clock.reset());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const EARN = '/v1/public/loyalty/earn';

/** One request the proxy got, and what the service answered it. */
interface Hit {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** Date.now() when it arrived. */
  at: number;
  /** The service's status, also when the proxy then dropped the answer. */
  status?: number;
  dropped: boolean;
}

interface Proxy {
  baseUrl: string;
  hits: Hit[];
}

const HOP_BY_HOP = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

const proxies: { close(): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(proxies.map((p) => p.close()));
});

/**
 * A local HTTP proxy in front of the test server that records every request. For the requests
 * `drop(index)` names, it forwards the request and waits for the whole answer (so the service has
 * done the work), then destroys the client's socket instead of answering: a response lost on the way
 * back. `onAnswer` runs after the service answered, before the proxy passes the answer on.
 */
async function startProxy(
  options: {
    drop?: (index: number) => boolean;
    onAnswer?: (hit: Hit) => void | Promise<void>;
    /** An answer the proxy gives itself, without forwarding, for the requests it names. */
    answer?: (index: number) => { status: number; headers: Record<string, string>; body: string } | undefined;
  } = {},
): Promise<Proxy> {
  const target = server().baseUrl;
  const hits: Hit[] = [];
  const http = createServer((req, res) => {
    const hit: Hit = {
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      at: Date.now(),
      dropped: options.drop?.(hits.length) ?? false,
    };
    const own = options.answer?.(hits.length);
    hits.push(hit);
    if (own) {
      hit.status = own.status;
      req.resume();
      req.on('end', () => res.writeHead(own.status, own.headers).end(own.body));
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = String(value);
      }
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      void (async () => {
        const answer = await fetch(`${target}${hit.path}`, { method: hit.method, headers, body });
        const text = await answer.text();
        hit.status = answer.status;
        await options.onAnswer?.(hit);
        if (hit.dropped) {
          req.socket.destroy();
          return;
        }
        const out: Record<string, string> = {};
        answer.headers.forEach((value, name) => {
          if (!HOP_BY_HOP.has(name) && name !== 'content-encoding') out[name] = value;
        });
        res.writeHead(answer.status, out).end(text);
      })().catch(() => req.socket.destroy());
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  proxies.push({
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  });
  const { port } = http.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}`, hits };
}

/** The point of sale: the SDK with the shop's key, talking to the service through `proxy`. */
const till = (shop: TestShop, proxy: Proxy, maxRetries?: number): Client =>
  createClient({ baseUrl: proxy.baseUrl, apiKey: shop.apiKey, maxRetries });

async function balanceOf(shop: TestShop, email: string): Promise<number> {
  return (await unwrap(keyClient(server(), shop.apiKey).publicLoyalty.publicGetBalance({ query: { email } })))
    .data.pointsBalance;
}

const keysOf = (hits: Hit[]) => hits.map((h) => h.headers['idempotency-key']);

describe('SDK: a POST whose response was lost is retried with its idempotency key', () => {
  it('credits a retried earn once: the retry carries the same automatic key and gets the replay', async () => {
    const shop = await registerShop(server());
    const proxy = await startProxy({ drop: (i) => i === 0 });
    const email = uniqueEmail('member');
    const res = await till(shop, proxy).publicLoyalty.publicEarn({ body: { email, amount: 12.5 } });

    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: 'success',
      data: { pointsEarned: 125, multiplierApplied: 1, newBalance: 125, tierName: null },
    });
    expect(res.headers.get('idempotent-replayed')).toBe('true');

    expect(proxy.hits.map((h) => [h.method, h.path, h.status, h.dropped])).toEqual([
      ['POST', EARN, 200, true],
      ['POST', EARN, 200, false],
    ]);
    const [key, retryKey] = keysOf(proxy.hits);
    expect(key).toMatch(UUID);
    expect(retryKey).toBe(key);
    // No Retry-After on a network error: exponential backoff, 500 ms for the first retry.
    expect(itemAt(proxy.hits, 1).at - itemAt(proxy.hits, 0).at).toBeGreaterThanOrEqual(450);

    expect(await balanceOf(shop, email)).toBe(125);
    expect(await transactionRows(server(), shop.businessId)).toHaveLength(1);
    const row = await server()
      .deps.db.selectFrom('idempotency_keys')
      .select(['status_code'])
      .where('business_id', '=', shop.businessId)
      .where('key', '=', String(key))
      .executeTakeFirst();
    expect(row).toEqual({ status_code: 200 });
  });

  it('keeps a key the caller gives, on every attempt', async () => {
    const shop = await registerShop(server());
    const proxy = await startProxy({ drop: (i) => i === 0 });
    const email = uniqueEmail('member');
    const res = await till(shop, proxy).publicLoyalty.publicEarn({
      body: { email, amount: 2, reference: 'POS-7' },
      headers: { 'idempotency-key': 'till-7-sale-42' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('idempotent-replayed')).toBe('true');
    expect(keysOf(proxy.hits)).toEqual(['till-7-sale-42', 'till-7-sale-42']);
    expect(await balanceOf(shop, email)).toBe(20);
    expect(await transactionRows(server(), shop.businessId)).toHaveLength(1);
  });

  it('gives up after maxRetries lost responses and throws the network error, having credited once', async () => {
    const shop = await registerShop(server());
    const proxy = await startProxy({ drop: () => true });
    const email = uniqueEmail('member');
    await expect(
      till(shop, proxy, 1).publicLoyalty.publicEarn({ body: { email, amount: 1 } }),
    ).rejects.toBeInstanceOf(TypeError);
    expect(proxy.hits).toHaveLength(2);
    const [key, retryKey] = keysOf(proxy.hits);
    expect(key).toMatch(UUID);
    expect(retryKey).toBe(key);
    expect(await balanceOf(shop, email)).toBe(10);
  });

  it('with maxRetries: 0 sends no automatic key and does not retry', async () => {
    const shop = await registerShop(server());
    const proxy = await startProxy({ drop: (i) => i === 0 });
    const pos = till(shop, proxy, 0);
    const email = uniqueEmail('member');
    await expect(pos.publicLoyalty.publicEarn({ body: { email, amount: 1 } })).rejects.toBeInstanceOf(
      TypeError,
    );
    expect(proxy.hits).toHaveLength(1);
    expect(itemAt(proxy.hits, 0).headers).not.toHaveProperty('idempotency-key');

    const second = await pos.publicLoyalty.publicEarn({ body: { email, amount: 1 } });
    expect(second.status).toBe(200);
    expect(itemAt(proxy.hits, 1).headers).not.toHaveProperty('idempotency-key');
    // Without a key nothing deduplicates: both earns counted.
    expect(await balanceOf(shop, email)).toBe(20);
  });

  it('with maxRetries: 0 still sends a key the caller gives', async () => {
    const shop = await registerShop(server());
    const proxy = await startProxy();
    const res = await till(shop, proxy, 0).publicLoyalty.publicEarn({
      body: { email: uniqueEmail('member'), amount: 1 },
      headers: { 'idempotency-key': 'caller-key-1' },
    });
    expect(res.status).toBe(200);
    expect(keysOf(proxy.hits)).toEqual(['caller-key-1']);
  });

  it('gives every POST its own key and a GET none', async () => {
    const shop = await registerShop(server());
    const proxy = await startProxy();
    const pos = till(shop, proxy);
    const email = uniqueEmail('member');
    expect((await pos.publicLoyalty.publicEarn({ body: { email, amount: 1 } })).status).toBe(200);
    expect((await pos.publicLoyalty.publicEarn({ body: { email, amount: 1 } })).status).toBe(200);
    expect((await pos.publicLoyalty.publicGetBalance({ query: { email } })).status).toBe(200);
    const [first, second, get] = keysOf(proxy.hits);
    expect(first).toMatch(UUID);
    expect(second).toMatch(UUID);
    expect(second).not.toBe(first);
    expect(get).toBeUndefined();
    expect(await balanceOf(shop, email)).toBe(20);
  });
});

describe('SDK: 409 IDEMPOTENCY_IN_PROGRESS', () => {
  /** The service's answer while another request with the same key is still running. */
  const IN_PROGRESS = {
    status: 409,
    headers: { 'content-type': 'application/json', 'retry-after': '1' },
    body: JSON.stringify({
      result: 'error',
      error: { code: 'IDEMPOTENCY_IN_PROGRESS', message: 'still running', status: 409 },
    }),
  };

  it('retries after Retry-After and resolves with the result once the claim is released', async () => {
    const shop = await registerShop(server());
    const email = uniqueEmail('member');
    const body = { email, amount: 3 };
    // The first attempt meets the key still held by another request; by the retry it is free.
    const proxy = await startProxy({ answer: (index) => (index === 0 ? IN_PROGRESS : undefined) });
    const res = await till(shop, proxy).publicLoyalty.publicEarn({
      body,
      headers: { 'idempotency-key': 'busy-key' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ result: 'success', data: { pointsEarned: 30, newBalance: 30 } });
    expect(proxy.hits.map((h) => h.status)).toEqual([409, 200]);
    expect(keysOf(proxy.hits)).toEqual(['busy-key', 'busy-key']);
    // Retry-After: 1
    expect(itemAt(proxy.hits, 1).at - itemAt(proxy.hits, 0).at).toBeGreaterThanOrEqual(950);
    expect(await transactionRows(server(), shop.businessId)).toHaveLength(1);
  });

  it('returns the 409 as is with maxRetries: 0', async () => {
    const shop = await registerShop(server());
    const body = { email: uniqueEmail('member'), amount: 3 };
    const proxy = await startProxy({ answer: () => IN_PROGRESS });
    const res = await till(shop, proxy, 0).publicLoyalty.publicEarn({
      body,
      headers: { 'idempotency-key': 'busy-key' },
    });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      result: 'error',
      error: { code: 'IDEMPOTENCY_IN_PROGRESS', status: 409 },
    });
    expect(res.headers.get('retry-after')).toBe('1');
    expect(proxy.hits).toHaveLength(1);
    expect(await transactionRows(server(), shop.businessId)).toEqual([]);
  });

  it('does not retry other refusals: 409 CONFLICT and 422 IDEMPOTENCY_KEY_REUSED come back at once', async () => {
    const shop = await registerShop(server());
    const proxy = await startProxy();
    const pos = till(shop, proxy);
    const email = uniqueEmail('member');
    await unwrap(
      pos.publicLoyalty.publicEarn({
        body: { email, amount: 1, reference: 'R-1' },
        headers: { 'idempotency-key': 'sale-1' },
      }),
    );
    const conflict = await pos.publicLoyalty.publicEarn({ body: { email, amount: 1, reference: 'R-1' } });
    expect(conflict.status).toBe(409);
    expect(conflict.body).toMatchObject({ error: { code: 'CONFLICT' } });
    const reused = await pos.publicLoyalty.publicEarn({
      body: { email, amount: 2 },
      headers: { 'idempotency-key': 'sale-1' },
    });
    expect(reused.status).toBe(422);
    expect(reused.body).toMatchObject({ error: { code: 'IDEMPOTENCY_KEY_REUSED' } });
    expect(proxy.hits.map((h) => h.status)).toEqual([200, 409, 422]);
    expect(await balanceOf(shop, email)).toBe(10);
  });
});
