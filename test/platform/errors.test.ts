import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, raw, registerBusiness, type TestBusiness } from '../support/business.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { useTestServer } from '../support/setup.js';

const server = useTestServer();

let owner: TestBusiness;
beforeAll(async () => {
  owner = await registerBusiness(server());
});

const error = (code: string, status: number) => ({
  code,
  status,
  message: expect.any(String),
});

/** What must never reach a client: stack frames, source or dependency paths, SQL. */
const INTERNALS = [
  /\bat [\w.<>]+ \(/, // stack frame "at fn (file:line)"
  /\bat (file:|\/|node:)/, // stack frame without a function name
  /:\d+:\d+\)?$/m, // file:line:column
  /\.[cm]?[jt]s\b/, // source file names
  /node_modules/,
  /\/work\/|file:\/\//,
  /\bSELECT\b|\bINSERT\b|\bUPDATE\b.*\bSET\b|\bFROM\b\s+"?\w+"?\s+WHERE\b/i,
  /\brelation "|\bcolumn "|\bsyntax error\b/i,
  /\bpglite\b|\bkysely\b|\bzod\b|\bexpress\b/i,
];

function expectNoInternals(label: string, text: string) {
  for (const pattern of INTERNALS) {
    expect(text, `${label} leaks ${pattern}`).not.toMatch(pattern);
  }
}

describe('malformed requests', () => {
  it('refuses broken JSON with 400 BAD_REQUEST in the general envelope', async () => {
    const res = await raw(server(), 'POST', '/v1/customers', {
      token: owner.accessToken,
      headers: { 'content-type': 'application/json' },
      body: '{"name": "Ada",',
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: error('BAD_REQUEST', 400) });
  });

  it('refuses broken JSON with 400 BAD_REQUEST in the result envelope', async () => {
    const res = await raw(server(), 'POST', '/v1/api-keys', {
      token: owner.accessToken,
      headers: { 'content-type': 'application/json' },
      body: "{name: 'till'}",
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: 'error', error: error('BAD_REQUEST', 400) });
  });

  it('refuses a text/plain body with 400 BAD_REQUEST', async () => {
    const res = await raw(server(), 'POST', '/v1/customers', {
      token: owner.accessToken,
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ name: 'Ada' }),
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: error('BAD_REQUEST', 400) });
  });

  it('refuses a form-encoded body with 400 BAD_REQUEST', async () => {
    const res = await raw(server(), 'POST', '/v1/auth/token', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=a%40example.test&password=x',
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: 'error', error: error('BAD_REQUEST', 400) });
  });

  it('refuses a JSON body over 1 MiB with 413 PAYLOAD_TOO_LARGE', async () => {
    const body = JSON.stringify({ name: 'Ada', company: 'x'.repeat(1024 * 1024 + 1) });
    const res = await raw(server(), 'POST', '/v1/customers', {
      token: owner.accessToken,
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: error('PAYLOAD_TOO_LARGE', 413) });
  });

  it('reads a JSON body just under 1 MiB (and validates it instead)', async () => {
    const body = JSON.stringify({ name: 'Ada', company: 'x'.repeat(1024 * 1024 - 100) });
    expect(Buffer.byteLength(body)).toBeLessThan(1024 * 1024);
    const res = await raw(server(), 'POST', '/v1/customers', {
      token: owner.accessToken,
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toContainEqual({ field: 'company', message: expect.any(String) });
  });

  it('refuses an unknown body field with 422 VALIDATION_ERROR naming it', async () => {
    const res = await raw(server(), 'POST', '/v1/customers', {
      token: owner.accessToken,
      ...json({ name: 'Ada', nickname: 'Countess' }),
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      error: {
        ...error('VALIDATION_ERROR', 422),
        details: [{ field: 'nickname', message: expect.any(String) }],
      },
    });
  });

  it('names an unknown nested body field by its dotted path', async () => {
    const res = await raw(server(), 'POST', '/v1/customers', {
      token: owner.accessToken,
      ...json({ name: 'Ada', address: { city: 'London', planet: 'Earth' } }),
    });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details).toContainEqual({ field: 'address.planet', message: expect.any(String) });
  });

  it('refuses an unknown field on a result-envelope route too', async () => {
    const res = await raw(server(), 'POST', '/v1/api-keys', {
      token: owner.accessToken,
      ...json({ name: 'till', scope: 'full', admin: true }),
    });
    expect(res.status).toBe(422);
    expect(res.body.result).toBe('error');
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details).toContainEqual({ field: 'admin', message: expect.any(String) });
  });
});

describe('unknown routes', () => {
  it('answers /v1/nope with 404 NOT_FOUND in the result envelope', async () => {
    const res = await raw(server(), 'GET', '/v1/nope', { token: owner.accessToken });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ result: 'error', error: error('NOT_FOUND', 404) });
  });

  it('answers /v1/invoices/x/y/z with 404 NOT_FOUND in the general envelope', async () => {
    const res = await raw(server(), 'GET', '/v1/invoices/x/y/z', { token: owner.accessToken });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: error('NOT_FOUND', 404) });
  });

  it('answers an unknown route without credentials with 404, not 401', async () => {
    const res = await raw(server(), 'POST', '/v1/nope', json({}));
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ result: 'error', error: error('NOT_FOUND', 404) });
  });

  it('answers an unknown id with 404 NOT_FOUND', async () => {
    const res = await raw(server(), 'GET', '/v1/customers/cus_01JAAAAAAAAAAAAAAAAAAAAAAA', {
      token: owner.accessToken,
    });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: error('NOT_FOUND', 404) });
  });
});

describe('X-Request-Id', () => {
  const requests: [string, string, string, Parameters<typeof raw>[3]?][] = [
    ['a success', 'GET', '/v1/customers'],
    ['a create', 'POST', '/v1/customers', json({ name: 'Grace Hopper' })],
    ['/healthz', 'GET', '/healthz'],
    ['a 400', 'POST', '/v1/customers', { headers: { 'content-type': 'application/json' }, body: '{' }],
    ['a 404', 'GET', '/v1/nope'],
    ['a 422', 'POST', '/v1/customers', json({ name: '' })],
  ];

  it.each(requests)('is set on %s', async (_label, method, path, init = {}) => {
    const res = await raw(server(), method, path, { token: owner.accessToken, ...init });
    expect(res.headers.get('x-request-id')).toMatch(/^[A-Za-z0-9._:-]{8,128}$/);
  });

  it('is set on a 401', async () => {
    const res = await raw(server(), 'GET', '/v1/customers');
    expect(res.status).toBe(401);
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  it('differs between requests', async () => {
    const ids = await Promise.all(
      [1, 2, 3].map(async () => (await raw(server(), 'GET', '/healthz')).headers.get('x-request-id')),
    );
    expect(new Set(ids).size).toBe(3);
  });

  it.each(requests)('echoes the one given on %s', async (_label, method, path, init = {}) => {
    const id = `req-${Math.random().toString(36).slice(2)}.test:1`;
    const res = await raw(server(), method, path, {
      token: owner.accessToken,
      ...init,
      headers: { ...init.headers, 'x-request-id': id },
    });
    expect(res.headers.get('x-request-id')).toBe(id);
  });

  it('replaces a given id that is not a sane token with its own', async () => {
    const bad = `evil id\twith spaces ${'x'.repeat(200)}`;
    const res = await raw(server(), 'GET', '/healthz', { headers: { 'x-request-id': bad } });
    const id = res.headers.get('x-request-id');
    expect(id).toBeTruthy();
    expect(id).not.toBe(bad);
    expect(id).toMatch(/^[A-Za-z0-9._:-]{8,128}$/);
  });
});

describe('error bodies never show internals', () => {
  const cases: [string, string, string, Parameters<typeof raw>[3]][] = [
    [
      'broken JSON',
      'POST',
      '/v1/customers',
      { headers: { 'content-type': 'application/json' }, body: '{"a":' },
    ],
    [
      'wrong content type',
      'POST',
      '/v1/customers',
      { headers: { 'content-type': 'text/plain' }, body: 'hi' },
    ],
    [
      'oversized body',
      'POST',
      '/v1/customers',
      { headers: { 'content-type': 'application/json' }, body: `"${'x'.repeat(1100 * 1024)}"` },
    ],
    ['validation failure', 'POST', '/v1/customers', json({ name: 42, email: 'not-an-email', extra: 1 })],
    ['unknown route', 'DELETE', '/v1/nope/../../etc/passwd', {}],
    ['unknown id', 'GET', '/v1/invoices/inv_nope', {}],
    ['wrong type of id', 'PUT', "/v1/products/1' OR '1'='1", json({ price: -1 })],
    ['bad query', 'GET', '/v1/customers?limit=100000&page=-1&sort=password:asc', {}],
  ];

  it.each(cases)('%s', async (label, method, path, init) => {
    const res = await raw(server(), method, path, { token: owner.accessToken, ...init });
    expect(res.status, label).toBeGreaterThanOrEqual(400);
    expect(res.status, label).toBeLessThan(500);
    expect(typeof res.body, label).toBe('object');
    expectNoInternals(label, JSON.stringify(res.body));
  });

  it('a 401', async () => {
    const res = await raw(server(), 'GET', '/v1/customers', { token: 'bms_at_nope' });
    expect(res.status).toBe(401);
    expectNoInternals('401', JSON.stringify(res.body));
  });
});

describe('internal failures', () => {
  let broken: TestServer;
  let business: TestBusiness;

  beforeAll(async () => {
    broken = await startTestServer({ worker: false });
    business = await registerBusiness(broken);
  });

  afterAll(async () => {
    const violations = broken?.violations ?? [];
    await broken?.close();
    expect(violations, 'responses that do not match openapi.json').toEqual([]);
  });

  it('answer 500 INTERNAL_ERROR with nothing internal, and the service recovers', async () => {
    const { db } = broken.deps;
    await sql`ALTER TABLE customers RENAME TO customers_gone`.execute(db);
    let res: Awaited<ReturnType<typeof raw>>;
    try {
      res = await raw(broken, 'GET', '/v1/customers', {
        token: business.accessToken,
        headers: { 'x-request-id': 'req-broken-1' },
      });
    } finally {
      await sql`ALTER TABLE customers_gone RENAME TO customers`.execute(db);
    }
    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      error: { code: 'INTERNAL_ERROR', message: 'Internal server error', status: 500 },
    });
    expect(res.headers.get('x-request-id')).toBe('req-broken-1');
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expectNoInternals('500', JSON.stringify(res.body));

    const again = await raw(broken, 'GET', '/v1/customers', { token: business.accessToken });
    expect(again.status).toBe(200);
  });
});
