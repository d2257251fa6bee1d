import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';
import { registerShop, uniqueEmail } from '../support/business.js';
import { configErrorOf } from '../support/config.js';
import type { TestServer } from '../support/server.js';
import { useTestServer } from '../support/setup.js';

const SHOP = 'https://shop.example.com';
const WWW = 'https://www.example.com';
const EARN = '/v1/public/loyalty/earn';
const REWARDS = '/v1/public/loyalty/rewards';

/** Raw fetch, as a browser would send it (the typed client never sends Origin). */
async function call(
  s: TestServer,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: unknown,
) {
  const res = await fetch(`${s.baseUrl}${path}`, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text };
}

/** A browser's preflight of a cross-origin earn. */
const preflight = (s: TestServer, origin: string, path = EARN) =>
  call(s, 'OPTIONS', path, {
    origin,
    'access-control-request-method': 'POST',
    'access-control-request-headers': 'x-api-key,content-type,idempotency-key',
  });

/** The comma-separated header as lower-case names. */
const listOf = (headers: Headers, name: string) =>
  (headers.get(name) ?? '')
    .split(',')
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean);

const corsHeaders = (headers: Headers) => [...headers.keys()].filter((k) => k.startsWith('access-control-'));

describe('CORS on /v1/public/* (CORS_ORIGINS=https://shop.example.com,https://www.example.com)', () => {
  const server = useTestServer({ env: { CORS_ORIGINS: `${SHOP},${WWW}` } });

  it('answers a preflight from a listed origin with 204, echoing the origin and allowing the headers', async () => {
    const res = await preflight(server(), SHOP);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(res.headers.get('access-control-allow-origin')).toBe(SHOP);
    expect(listOf(res.headers, 'access-control-allow-headers')).toEqual(
      expect.arrayContaining(['x-api-key', 'content-type', 'idempotency-key']),
    );
    expect(listOf(res.headers, 'access-control-allow-methods')).toEqual(
      expect.arrayContaining(['post', 'get']),
    );
    expect(res.headers.get('access-control-max-age')).toBe('600');
    // No cookies or other ambient credentials: the API key travels in a header.
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(listOf(res.headers, 'vary')).toContain('origin');
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  it('echoes the second listed origin too', async () => {
    const res = await preflight(server(), WWW);
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(WWW);
  });

  it('answers a preflight of the other public routes', async () => {
    const res = await call(server(), 'OPTIONS', '/v1/public/loyalty/balance?email=a%40example.test', {
      origin: SHOP,
      'access-control-request-method': 'GET',
      'access-control-request-headers': 'x-api-key',
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(SHOP);
  });

  it('marks an actual GET from a listed origin, exposing X-Request-Id and Idempotent-Replayed', async () => {
    const shop = await registerShop(server(), {}, 'Widget');
    const res = await call(server(), 'GET', REWARDS, { origin: SHOP, 'x-api-key': shop.apiKey });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(SHOP);
    expect(listOf(res.headers, 'access-control-expose-headers')).toEqual(
      expect.arrayContaining([
        'x-request-id',
        'idempotent-replayed',
        'retry-after',
        'x-ratelimit-limit',
        'x-ratelimit-remaining',
        'x-ratelimit-reset',
      ]),
    );
    expect(listOf(res.headers, 'vary')).toContain('origin');
  });

  it('marks a POST earn and its replay, which carries Idempotent-Replayed for the page to read', async () => {
    const shop = await registerShop(server(), {}, 'Widget');
    const headers = { origin: SHOP, 'x-api-key': shop.apiKey, 'idempotency-key': randomUUID() };
    const body = { email: uniqueEmail('member'), amount: 2 };
    const first = await call(server(), 'POST', EARN, headers, body);
    expect(first.status, first.text).toBe(200);
    expect(first.headers.get('access-control-allow-origin')).toBe(SHOP);
    const replay = await call(server(), 'POST', EARN, headers, body);
    expect(replay.status).toBe(200);
    expect(replay.text).toBe(first.text);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.headers.get('access-control-allow-origin')).toBe(SHOP);
    expect(listOf(replay.headers, 'access-control-expose-headers')).toContain('idempotent-replayed');
  });

  it('marks error answers too, so the page can read a 401', async () => {
    const res = await call(server(), 'GET', REWARDS, { origin: SHOP, 'x-api-key': 'bms_pk_unknown' });
    expect(res.status).toBe(401);
    expect(res.headers.get('access-control-allow-origin')).toBe(SHOP);
    expect(JSON.parse(res.text)).toMatchObject({ result: 'error', error: { code: 'UNAUTHORIZED' } });
  });

  it.each([
    ['an unlisted origin', 'https://evil.example.com'],
    ['a listed host over another scheme', 'http://shop.example.com'],
    ['a listed host on another port', 'https://shop.example.com:8443'],
    ['a look-alike suffix', 'https://shop.example.com.evil.test'],
    ['the opaque origin null', 'null'],
  ])('sends no Access-Control-Allow-Origin to %s', async (_what, origin) => {
    const shop = await registerShop(server(), {}, 'Widget');
    const pre = await preflight(server(), origin);
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
    expect(corsHeaders(pre.headers)).toEqual([]);
    expect(pre.status).not.toBe(204);
    const res = await call(server(), 'GET', REWARDS, { origin, 'x-api-key': shop.apiKey });
    expect(res.status).toBe(200);
    expect(corsHeaders(res.headers)).toEqual([]);
    // The answer depends on Origin even without CORS headers: caches must key on it.
    expect(listOf(res.headers, 'vary')).toContain('origin');
  });

  it('sends no CORS headers to a request without Origin (a server, not a browser)', async () => {
    const shop = await registerShop(server(), {}, 'Widget');
    const res = await call(server(), 'GET', REWARDS, { 'x-api-key': shop.apiKey });
    expect(res.status).toBe(200);
    expect(corsHeaders(res.headers)).toEqual([]);
  });

  it('sends no CORS headers on token routes, even to a listed origin', async () => {
    const shop = await registerShop(server(), {}, 'Widget');
    const auth = { origin: SHOP, authorization: `Bearer ${shop.accessToken}` };
    const members = await call(server(), 'GET', '/v1/loyalty/members', auth);
    expect(members.status, members.text).toBe(200);
    expect(corsHeaders(members.headers)).toEqual([]);
    const customer = await call(server(), 'POST', '/v1/customers', auth, { name: 'Browser Co' });
    expect(customer.status, customer.text).toBe(201);
    expect(corsHeaders(customer.headers)).toEqual([]);
    for (const path of ['/v1/loyalty/members', '/v1/customers', '/v1/api-keys']) {
      const pre = await preflight(server(), SHOP, path);
      expect(pre.status, path).not.toBe(204);
      expect(corsHeaders(pre.headers), path).toEqual([]);
    }
  });
});

describe('CORS with CORS_ORIGINS unset', () => {
  const server = useTestServer();

  it('sends no CORS headers at all, preflight or actual request', async () => {
    const shop = await registerShop(server(), {}, 'Widget');
    const pre = await preflight(server(), SHOP);
    expect(pre.status).not.toBe(204);
    expect(corsHeaders(pre.headers)).toEqual([]);
    const res = await call(server(), 'GET', REWARDS, { origin: SHOP, 'x-api-key': shop.apiKey });
    expect(res.status).toBe(200);
    expect(corsHeaders(res.headers)).toEqual([]);
    const earned = await call(
      server(),
      'POST',
      EARN,
      { origin: SHOP, 'x-api-key': shop.apiKey },
      {
        email: uniqueEmail(),
        amount: 1,
      },
    );
    expect(earned.status).toBe(200);
    expect(corsHeaders(earned.headers)).toEqual([]);
  });
});

describe('CORS with CORS_ORIGINS=*', () => {
  const server = useTestServer({ env: { CORS_ORIGINS: '*' } });

  it('allows any origin on the public routes', async () => {
    const shop = await registerShop(server(), {}, 'Widget');
    for (const origin of ['https://anything.example.org', 'http://localhost:5173']) {
      const pre = await preflight(server(), origin);
      expect(pre.status).toBe(204);
      expect([origin, '*']).toContain(pre.headers.get('access-control-allow-origin'));
      const res = await call(server(), 'GET', REWARDS, { origin, 'x-api-key': shop.apiKey });
      expect(res.status).toBe(200);
      expect([origin, '*']).toContain(res.headers.get('access-control-allow-origin'));
    }
  });

  it('still sends nothing on token routes', async () => {
    const shop = await registerShop(server(), {}, 'Widget');
    const res = await call(server(), 'GET', '/v1/loyalty/members', {
      origin: 'https://anything.example.org',
      authorization: `Bearer ${shop.accessToken}`,
    });
    expect(res.status).toBe(200);
    expect(corsHeaders(res.headers)).toEqual([]);
  });
});

describe('CORS origins compare as browsers serialise them (CORS_ORIGINS=https://Shop.Example.com:443/)', () => {
  const server = useTestServer({ env: { CORS_ORIGINS: 'https://Shop.Example.com:443/' } });

  it('allows https://shop.example.com, echoing it as the browser sent it', async () => {
    const res = await preflight(server(), SHOP);
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(SHOP);
    expect(
      (await preflight(server(), 'https://www.example.com')).headers.get('access-control-allow-origin'),
    ).toBeNull();
  });
});

describe('CORS_ORIGINS in loadConfig', () => {
  it.each([
    ['an origin without a scheme', 'shop.example.com'],
    ['one bad entry among good ones', `${SHOP},www.example.com`],
    ['an origin with a path', 'https://shop.example.com/widget'],
    ['another scheme', 'ftp://shop.example.com'],
    ['a wildcard subdomain', 'https://*.example.com/x'],
  ])('refuses %s, naming CORS_ORIGINS', (_what, value) => {
    expect(configErrorOf({ CORS_ORIGINS: value }).message).toMatch(/\bCORS_ORIGINS\b/);
  });

  it('reads a comma-separated list, trimming spaces and trailing slashes', () => {
    expect(loadConfig({ CORS_ORIGINS: ` ${SHOP}/ , ${WWW}` }).CORS_ORIGINS).toEqual([SHOP, WWW]);
  });

  it('reads * and defaults to no origins', () => {
    expect(loadConfig({ CORS_ORIGINS: '*' }).CORS_ORIGINS).toEqual(['*']);
    expect(loadConfig({}).CORS_ORIGINS).toEqual([]);
  });
});
