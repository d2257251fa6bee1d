import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClient, unwrap } from '../../client/index.js';
import { raw, uniqueEmail, type TestBusiness } from '../support/business.js';
import { onPostgres } from '../support/database.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { useTestServer } from '../support/setup.js';
import { atLeast, itemAt } from '../support/expect.js';

/** standard (the default plan) allows 5 requests a minute per business. */
const LIMIT = 5;
const LIMITS_ENV = { RATE_LIMITS: `free:100,standard:${LIMIT},enterprise:10000` };

type RawResponse = Awaited<ReturnType<typeof raw>>;

let nextIp = 10;
/** A distinct client address per registration (the servers here trust X-Forwarded-For). */
const freshIp = () => `198.51.100.${nextIp++}`;

/**
 * Registers a business from its own address, so registrations never eat into the anonymous
 * per-IP limit another test is measuring.
 */
async function register(server: TestServer): Promise<TestBusiness> {
  const email = uniqueEmail();
  const password = 'correct horse battery staple';
  const anonymous = createClient({
    baseUrl: server.baseUrl,
    maxRetries: 0,
    headers: { 'x-forwarded-for': freshIp() },
  });
  const { data } = await unwrap(
    anonymous.auth.register({ body: { businessName: 'Rate Limited Ltd', email, password } }),
  );
  return {
    businessId: data.businessId,
    email,
    password,
    accessToken: data.accessToken,
    client: createClient({ baseUrl: server.baseUrl, accessToken: data.accessToken, maxRetries: 0 }),
  };
}

const listCustomers = (server: TestServer, token: string) => raw(server, 'GET', '/v1/customers', { token });

function rateHeaders(res: RawResponse) {
  return {
    limit: Number(res.headers.get('x-ratelimit-limit')),
    remaining: Number(res.headers.get('x-ratelimit-remaining')),
    reset: Number(res.headers.get('x-ratelimit-reset')),
  };
}

function expectWindowHeaders(res: RawResponse, limit: number) {
  expect(res.headers.get('x-ratelimit-limit')).toBe(String(limit));
  expect(res.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
  expect(res.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
  const { reset } = rateHeaders(res);
  expect(reset).toBeGreaterThanOrEqual(1);
  expect(reset).toBeLessThanOrEqual(60);
}

function expectRateLimited(res: RawResponse, envelope: 'general' | 'result' = 'general') {
  expect(res.status).toBe(429);
  const error = { code: 'RATE_LIMITED', status: 429, message: expect.any(String) };
  expect(res.body).toEqual(envelope === 'general' ? { error } : { result: 'error', error });
  expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
}

/** Spends a business's whole window, checking the headers on the way; returns the 429. */
async function exhaust(send: (i: number) => Promise<RawResponse>, limit = LIMIT): Promise<RawResponse> {
  const remaining: number[] = [];
  for (let i = 0; i < limit; i++) {
    const res = await send(i);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expectWindowHeaders(res, limit);
    remaining.push(rateHeaders(res).remaining);
  }
  expect(remaining).toEqual(Array.from({ length: limit }, (_, i) => limit - 1 - i));
  return send(limit);
}

describe('per-business limits (memory counters)', () => {
  // No credential cache: a test changes a business's plan in the database and expects it at once.
  const server = useTestServer({
    env: { ...LIMITS_ENV, ANONYMOUS_RATE_LIMIT: '3', TRUST_PROXY: 'true', CREDENTIAL_CACHE_MS: '0' },
  });

  it('sends X-RateLimit headers counting down and answers the 6th request with 429 and Retry-After', async () => {
    const biz = await register(server());
    const limited = await exhaust(() => listCustomers(server(), biz.accessToken));
    expectRateLimited(limited);
    expectWindowHeaders(limited, LIMIT);
  });

  it('keeps refusing for the rest of the window, on every route and in its envelope', async () => {
    const biz = await register(server());
    expectRateLimited(await exhaust(() => listCustomers(server(), biz.accessToken)));
    expectRateLimited(await raw(server(), 'GET', '/v1/api-keys', { token: biz.accessToken }), 'result');
    expectRateLimited(
      await raw(server(), 'POST', '/v1/invoices', {
        token: biz.accessToken,
        headers: { 'content-type': 'application/json' },
        body: '{}',
      }),
    );
  });

  it('never lets one business exhausting its limit affect another', async () => {
    const first = await register(server());
    const second = await register(server());
    expectRateLimited(await exhaust(() => listCustomers(server(), first.accessToken)));
    const other = await listCustomers(server(), second.accessToken);
    expect(other.status).toBe(200);
    expect(rateHeaders(other)).toMatchObject({ limit: LIMIT, remaining: LIMIT - 1 });
    expectRateLimited(await listCustomers(server(), first.accessToken));
  });

  it('counts access-token and API-key requests of one business together', async () => {
    const biz = await register(server());
    const created = await raw(server(), 'POST', '/v1/api-keys', {
      token: biz.accessToken,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'server', scope: 'full' }),
    });
    expect(created.status).toBe(201);
    expect(rateHeaders(created).remaining).toBe(LIMIT - 1);
    const key: string = created.body.data.key;
    const tokens = [biz.accessToken, key, biz.accessToken, key];
    for (const [i, token] of tokens.entries()) {
      const res = await listCustomers(server(), token);
      expect(res.status).toBe(200);
      expect(rateHeaders(res).remaining).toBe(LIMIT - 2 - i);
    }
    expectRateLimited(await listCustomers(server(), key));
  });

  it("applies the business's own plan", async () => {
    const biz = await register(server());
    await server()
      .deps.db.updateTable('businesses')
      .set({ plan: 'free' })
      .where('id', '=', biz.businessId)
      .execute();
    const free = await listCustomers(server(), biz.accessToken);
    expect(free.status).toBe(200);
    expectWindowHeaders(free, 100);
    await server()
      .deps.db.updateTable('businesses')
      .set({ plan: 'enterprise' })
      .where('id', '=', biz.businessId)
      .execute();
    expectWindowHeaders(await listCustomers(server(), biz.accessToken), 10000);
  });

  it('counts requests without a valid credential per IP', async () => {
    const ip = '203.0.113.50';
    for (let i = 0; i < 3; i++) {
      const res = await raw(server(), 'GET', '/v1/customers', { headers: { 'x-forwarded-for': ip } });
      expect(res.status).toBe(401);
      expectWindowHeaders(res, 3);
      expect(rateHeaders(res).remaining).toBe(2 - i);
    }
    expectRateLimited(await raw(server(), 'GET', '/v1/customers', { headers: { 'x-forwarded-for': ip } }));
    // An invalid token does not escape the per-IP count...
    expectRateLimited(
      await raw(server(), 'GET', '/v1/customers', {
        token: 'bms_at_nope',
        headers: { 'x-forwarded-for': ip },
      }),
    );
    // ...and another address is unaffected.
    const other = await raw(server(), 'GET', '/v1/customers', {
      headers: { 'x-forwarded-for': '203.0.113.51' },
    });
    expect(other.status).toBe(401);
    expect(rateHeaders(other).remaining).toBe(2);
  });

  it('counts requests with an invalid bearer token per IP', async () => {
    const headers = { 'x-forwarded-for': '203.0.113.52' };
    for (let i = 0; i < 3; i++) {
      expect((await raw(server(), 'GET', '/v1/invoices', { token: 'bms_at_nope', headers })).status).toBe(
        401,
      );
    }
    expectRateLimited(await raw(server(), 'GET', '/v1/invoices', { token: 'bms_at_nope', headers }));
  });

  it('does not rate limit /healthz, /readyz, /openapi.json or /docs, nor send X-RateLimit headers there', async () => {
    const headers = { 'x-forwarded-for': '203.0.113.60' };
    for (let i = 0; i < 4; i++) {
      expect((await raw(server(), 'GET', '/v1/nope', { headers })).status).toBe(i < 3 ? 404 : 429);
    }
    for (const path of ['/healthz', '/readyz', '/openapi.json', '/docs']) {
      for (let i = 0; i < 5; i++) {
        const res = await raw(server(), 'GET', path, { headers });
        expect(res.status, path).toBe(200);
        expect(res.headers.get('x-ratelimit-limit'), path).toBeNull();
        expect(res.headers.get('x-ratelimit-remaining'), path).toBeNull();
        expect(res.headers.get('retry-after'), path).toBeNull();
      }
    }
  });
});

describe('SDK retries of 429', () => {
  let stub: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (stub ? stub.close(() => resolve()) : resolve()));
    stub = undefined;
  });

  /** A local service that answers 429 to the first `limited` requests, then 200. */
  async function startStub(limited: number, retryAfter: string) {
    const received: number[] = [];
    stub = createServer((req: IncomingMessage, res: ServerResponse) => {
      received.push(Date.now());
      req.resume();
      res.setHeader('content-type', 'application/json');
      if (received.length <= limited) {
        res.writeHead(429, { 'retry-after': retryAfter });
        res.end(
          JSON.stringify({ error: { code: 'RATE_LIMITED', message: 'Rate limit exceeded', status: 429 } }),
        );
        return;
      }
      res.writeHead(200);
      res.end(JSON.stringify({ data: [], pagination: { page: 1, limit: 20, total: 0, total_pages: 0 } }));
    });
    await new Promise<void>((resolve) => stub!.listen(0, '127.0.0.1', resolve));
    const { port } = stub.address() as AddressInfo;
    return { baseUrl: `http://127.0.0.1:${port}`, received };
  }

  it('retries a 429 after the Retry-After delay and resolves with the 200', async () => {
    const { baseUrl, received } = await startStub(1, '1');
    const client = createClient({ baseUrl, accessToken: 'bms_at_test' });
    const res = await client.general.customers.listCustomers();
    expect(res.status).toBe(200);
    expect(received).toHaveLength(2);
    expect(itemAt(received, 1) - itemAt(received, 0)).toBeGreaterThanOrEqual(950);
  });

  it('returns the 429 when maxRetries is 0', async () => {
    const { baseUrl, received } = await startStub(1, '1');
    const client = createClient({ baseUrl, accessToken: 'bms_at_test', maxRetries: 0 });
    const res = await client.general.customers.listCustomers();
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(received).toHaveLength(1);
  });

  it('gives up after maxRetries retries and returns the last 429', async () => {
    const { baseUrl, received } = await startStub(100, '0');
    const client = createClient({ baseUrl, accessToken: 'bms_at_test', maxRetries: 2 });
    const res = await client.general.customers.listCustomers();
    expect(res.status).toBe(429);
    expect(received).toHaveLength(3);
  });
});

// Counters shared in PostgreSQL exist only there: the embedded database serves one process, and the
// configuration refuses the store without DATABASE_URL (test/platform/config.test.ts).
if (onPostgres) {
  describe('per-business limits (PostgreSQL counters, RATE_LIMIT_STORE=postgres)', () => {
    const env = { ...LIMITS_ENV, RATE_LIMIT_STORE: 'postgres', TRUST_PROXY: 'true' };
    const server = useTestServer({ env });

    const countersOf = async (s: TestServer, businessId: string) => {
      const { rows } = await sql<{ key: string; points: number }>`
        SELECT key, points FROM rate_limits WHERE key LIKE ${`%${businessId}`}
      `.execute(s.deps.db);
      return rows;
    };

    it('enforces the same limits, keeping the counters in the rate_limits table', async () => {
      const biz = await register(server());
      expectRateLimited(await exhaust(() => listCustomers(server(), biz.accessToken)));
      const rows = await countersOf(server(), biz.businessId);
      expect(rows).toHaveLength(1);
      const [counter] = atLeast(rows, 1);
      expect(counter.key).toContain(biz.businessId);
      expect(Number(counter.points)).toBeGreaterThanOrEqual(LIMIT + 1);
    });

    it('keeps businesses apart', async () => {
      const first = await register(server());
      const second = await register(server());
      expectRateLimited(await exhaust(() => listCustomers(server(), first.accessToken)));
      const other = await listCustomers(server(), second.accessToken);
      expect(other.status).toBe(200);
      expect(rateHeaders(other).remaining).toBe(LIMIT - 1);
    });

    // A second service on the same database: the counters can only be shared through it.
    describe('two servers sharing one PostgreSQL database', () => {
      let second: TestServer | undefined;
      beforeAll(async () => {
        second = await startTestServer({
          databaseUrl: server().deps.config.DATABASE_URL,
          env,
          worker: false,
        });
      });
      afterAll(async () => {
        const violations = second?.violations ?? [];
        await second?.close();
        expect(violations, 'responses that do not match openapi.json').toEqual([]);
      });

      it('share the counters: requests split across both hit the limit together', async () => {
        const biz = await register(server());
        const servers = [server(), second!];
        const limited = await exhaust((i) => listCustomers(itemAt(servers, i % 2), biz.accessToken));
        expectRateLimited(limited);
        expectRateLimited(await listCustomers(server(), biz.accessToken));
      });
    });
  });
}
