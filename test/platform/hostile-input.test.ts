import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { json, raw, registerShop, type TestShop } from '../support/business.js';
import { expectError, expectResultError } from '../support/expect.js';
import { customerRows } from '../support/loyalty.js';
import { useTestServer } from '../support/setup.js';

const server = useTestServer();

let shop: TestShop;
beforeAll(async () => {
  shop = await registerShop(server());
});

const asOwner = (method: string, path: string, init: Parameters<typeof raw>[3] = {}) =>
  raw(server(), method, path, { token: shop.accessToken, ...init });

/** A JSON text with `\u0000` or a lone surrogate escaped in it, as a client may send (JSON allows both). */
const withEscape = (template: string, escape: string) => template.replace('%s', escape);

describe('text PostgreSQL cannot store is refused before it reaches the database', () => {
  it('refuses a NUL in a body string with 422 naming the field, creating nothing', async () => {
    const res = await asOwner('POST', '/v1/customers', {
      headers: { 'content-type': 'application/json' },
      body: withEscape('{"name":"Ada%s Lovelace"}', '\\u0000'),
    });
    expectError(res, 422, 'VALIDATION_ERROR', 'name');
    expect(await customerRows(server(), shop.businessId)).toEqual([]);
  });

  it('refuses an unpaired surrogate in a map value stored as jsonb (422 naming attributes.tier)', async () => {
    for (const lone of ['\\ud800', '\\udfff', '\\udc00x']) {
      const res = await asOwner('POST', '/v1/customers', {
        headers: { 'content-type': 'application/json' },
        body: withEscape('{"name":"Ada","attributes":{"tier":"gold%s"}}', lone),
      });
      expectError(res, 422, 'VALIDATION_ERROR', 'attributes.tier');
    }
    expect(await customerRows(server(), shop.businessId)).toEqual([]);
  });

  it('refuses such text in an object key, and in nested arrays, by dotted path', async () => {
    const key = await asOwner('POST', '/v1/customers', {
      headers: { 'content-type': 'application/json' },
      body: '{"name":"Ada","attributes":{"a\\u0000b":"x"}}',
    });
    expectError(key, 422, 'VALIDATION_ERROR', 'attributes.a\u0000b');
    const item = await asOwner('POST', '/v1/invoices', {
      headers: { 'content-type': 'application/json' },
      body: '{"customer_id":"cus_x","due_date":"2026-12-31","items":[{"description":"ok","quantity":1,"unit_price":1},{"description":"\\ud83d","quantity":1,"unit_price":1}]}',
    });
    expectError(item, 422, 'VALIDATION_ERROR', 'items.1.description');
  });

  it('accepts paired surrogates (emoji) and right-to-left text as they are', async () => {
    const res = await asOwner(
      'POST',
      '/v1/customers',
      json({ name: 'Ada 🚀 עדה', attributes: { note: '😀' } }),
    );
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ name: 'Ada 🚀 עדה', attributes: { note: '😀' } });
  });

  it('refuses a NUL in a query parameter (422 naming it), in both envelopes', async () => {
    expectError(await asOwner('GET', '/v1/customers?search=a%00b'), 422, 'VALIDATION_ERROR', 'search');
    const balance = await raw(server(), 'GET', '/v1/public/loyalty/balance?email=a%00@example.test', {
      headers: { 'x-api-key': shop.apiKey },
    });
    expectResultError(balance, 422, 'VALIDATION_ERROR', 'email');
  });

  it('answers 404 for a path id that decodes to NUL or a lone surrogate', async () => {
    expectError(await asOwner('GET', '/v1/customers/cus_%00'), 404, 'NOT_FOUND');
    expectResultError(await asOwner('GET', '/v1/loyalty/members/mem_%00x'), 404, 'NOT_FOUND');
  });

  it('answers 400 for a malformed percent-escape in the path', async () => {
    for (const path of [
      '/v1/customers/%FF',
      '/v1/customers/%E0%A4%A',
      '/v1/customers/%ED%A0%80',
      '/v1/customers/%',
    ]) {
      expectError(await asOwner('GET', path), 400, 'BAD_REQUEST');
    }
    expectResultError(await asOwner('DELETE', '/v1/loyalty/tiers/%C0'), 400, 'BAD_REQUEST');
  });
});

describe('bodies that cannot be decoded', () => {
  it('refuses Content-Encoding: gzip on a plain body with 400 BAD_REQUEST', async () => {
    const res = await asOwner('POST', '/v1/customers', {
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: JSON.stringify({ name: 'Plain' }),
    });
    expectError(res, 400, 'BAD_REQUEST');
    expect((await customerRows(server(), shop.businessId)).filter((c) => c.name === 'Plain')).toEqual([]);
  });

  it('refuses an unsupported Content-Encoding with 400 BAD_REQUEST', async () => {
    for (const encoding of ['br', 'compress', 'x-unknown']) {
      const res = await asOwner('POST', '/v1/customers', {
        headers: { 'content-type': 'application/json', 'content-encoding': encoding },
        body: JSON.stringify({ name: 'Plain' }),
      });
      expectError(res, 400, 'BAD_REQUEST');
    }
  });

  it('reads a body that really is gzip-encoded', async () => {
    const res = await asOwner('POST', '/v1/customers', {
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync(JSON.stringify({ name: 'Zipped' })),
    });
    expect(res.status).toBe(201);
    expect(res.body.data.name).toBe('Zipped');
  });
});

describe('bodies that are not UTF-8', () => {
  const bytes = (...parts: (string | number[])[]) =>
    Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

  it.each([
    ['a byte that starts no character (FF)', bytes('{"name":"a', [0xff], 'b"}')],
    ['a CESU-encoded surrogate (ED A0 80)', bytes('{"name":"a', [0xed, 0xa0, 0x80], 'b"}')],
    ['a CESU-encoded surrogate pair', bytes('{"name":"a', [0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80], '"}')],
    ['an overlong NUL (C0 80)', bytes('{"name":"a', [0xc0, 0x80], '"}')],
    ['a sequence cut short (E2 82)', bytes('{"name":"a', [0xe2, 0x82], '"}')],
    ['Latin-1 text', bytes('{"name":"caf', [0xe9], '"}')],
    [
      'UTF-16 text with its byte-order mark',
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{"name":"Ada"}', 'utf16le')]),
    ],
  ])('refuses %s with 400 BAD_REQUEST, storing nothing', async (_name, body) => {
    const before = await customerRows(server(), shop.businessId);
    const res = await asOwner('POST', '/v1/customers', {
      headers: { 'content-type': 'application/json' },
      body,
    });
    expectError(res, 400, 'BAD_REQUEST');
    expect(res.body.error.message).toMatch(/not valid UTF-8/);
    expect(await customerRows(server(), shop.businessId)).toEqual(before);
  });

  it('refuses it in the result envelope on a result-envelope group too', async () => {
    const res = await asOwner('POST', '/v1/hr/departments', {
      headers: { 'content-type': 'application/json' },
      body: bytes('{"name":"R', [0xff], 'D"}'),
    });
    expectResultError(res, 400, 'BAD_REQUEST');
  });

  it('refuses it inside a gzip-encoded body too', async () => {
    const res = await asOwner('POST', '/v1/customers', {
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync(bytes('{"name":"a', [0xff], '"}')),
    });
    expectError(res, 400, 'BAD_REQUEST');
  });

  it('accepts every plane of valid UTF-8 as sent: 2-, 3- and 4-byte characters', async () => {
    const res = await asOwner('POST', '/v1/customers', json({ name: 'Zoë 中文 𝄞' }));
    expect(res.status).toBe(201);
    expect(res.body.data.name).toBe('Zoë 中文 𝄞');
  });
});

describe('URLs and headers over the limit', () => {
  /** A request sent byte for byte, read until the server closes (fetch would refuse some of these). */
  function rawHttp(head: string): Promise<{ status: number; headers: string; body: any; error?: string }> {
    return new Promise((resolve) => {
      const { port } = new URL(server().baseUrl);
      const socket = connect(Number(port), '127.0.0.1');
      const chunks: Buffer[] = [];
      socket.on('data', (c) => chunks.push(c));
      const done = (error?: string) => {
        const text = Buffer.concat(chunks).toString('utf8');
        const [headers = '', body = ''] = text.split('\r\n\r\n');
        let parsed: unknown = body;
        try {
          parsed = JSON.parse(body);
        } catch {
          // not JSON
        }
        resolve({
          status: Number(/^HTTP\/1\.1 (\d{3})/.exec(headers)?.[1] ?? 0),
          headers,
          body: parsed,
          error,
        });
      };
      socket.on('end', () => done());
      socket.on('error', (err) => done(err.message));
      socket.write(head);
    });
  }

  it.each([20_000, 100_000, 1_000_000])(
    'answers a %i-character query with 414 URI_TOO_LONG in the envelope of its path',
    async (n) => {
      const res = await asOwner('GET', `/v1/customers?q=${'a'.repeat(n)}`);
      expectError(res, 414, 'URI_TOO_LONG');
      expect(res.body.error.message).toMatch(/16 KiB/);
      expect(res.headers.get('x-request-id')).toBeTruthy();
      const hr = await asOwner('GET', `/v1/hr/employees?q=${'a'.repeat(n)}`);
      expectResultError(hr, 414, 'URI_TOO_LONG');
    },
  );

  it('answers headers over the limit with 431 HEADERS_TOO_LARGE in the envelope', async () => {
    const res = await asOwner('GET', '/v1/customers', { headers: { 'x-padding': 'p'.repeat(20_000) } });
    expectError(res, 431, 'HEADERS_TOO_LARGE');
    const many = await asOwner('GET', '/v1/hr/employees', {
      headers: Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`x-h${i}`, 'v'.repeat(50)])),
    });
    expectResultError(many, 431, 'HEADERS_TOO_LARGE');
  });

  it('answers a long URL sent slowly, then a body, without resetting the connection', async () => {
    const res = await rawHttp(
      `POST /v1/customers?q=${'a'.repeat(200_000)} HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}`,
    );
    expect(res.error).toBeUndefined();
    expect(res.status).toBe(414);
    expect(res.body).toEqual({
      error: { code: 'URI_TOO_LONG', status: 414, message: expect.stringMatching(/longer than 16 KiB/) },
    });
  });

  it('answers bytes that are not HTTP with 400 BAD_REQUEST in the envelope', async () => {
    const res = await rawHttp('GET /v1/customers HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: { code: 'BAD_REQUEST', status: 400, message: 'The request is not valid HTTP/1.1' },
    });
  });

  it('serves a URL just under the limit', async () => {
    const res = await asOwner('GET', `/v1/customers?q=${'a'.repeat(12_000)}`);
    expect(res.status).toBe(200);
  });
});

describe('a query parameter sent under another spelling', () => {
  it('names the spelling the route takes, in both envelopes', async () => {
    const schedule = await asOwner('GET', '/v1/get/salesSchedule?start_date=2026-01-01&endDate=2026-12-31');
    expectResultError(schedule, 422, 'VALIDATION_ERROR', 'startDate');
    expect(schedule.body.error.details).toEqual([
      { field: 'startDate', message: 'Required: the parameter is spelt "startDate", not "start_date"' },
    ]);
    const pnl = await asOwner('GET', '/v1/reports/profit-loss?startDate=2026-01-01&end_date=2026-12-31');
    expectError(pnl, 422, 'VALIDATION_ERROR', 'start_date');
    expect(pnl.body.error.details).toEqual([
      { field: 'start_date', message: 'Required: the parameter is spelt "start_date", not "startDate"' },
    ]);
  });
});

describe('security headers', () => {
  it('sends nosniff, no-referrer, DENY framing and no-store on API answers, authenticated or not', async () => {
    for (const res of [await asOwner('GET', '/v1/customers'), await raw(server(), 'GET', '/v1/customers')]) {
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('x-powered-by')).toBeNull();
    }
  });

  it('sends no-store on answers that carry a credential or a secret', async () => {
    const key = await asOwner('POST', '/v1/api-keys', json({ name: 'Till', scope: 'public_loyalty' }));
    expect(key.status).toBe(201);
    expect(key.headers.get('cache-control')).toBe('no-store');
    const token = await raw(
      server(),
      'POST',
      '/v1/auth/token',
      json({ email: shop.email, password: shop.password }),
    );
    expect(token.status).toBe(200);
    expect(token.headers.get('cache-control')).toBe('no-store');
  });

  it('gives /docs a Content-Security-Policy with no inline script, no third-party origin and no framing', async () => {
    const res = await raw(server(), 'GET', '/docs');
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    const directives = Object.fromEntries(
      csp.split(';').map((d) => {
        const [name = '', ...values] = d.trim().split(/\s+/);
        return [name, values];
      }),
    );
    expect(directives['script-src']).toEqual(["'self'"]);
    expect(directives['frame-ancestors']).toEqual(["'none'"]);
    expect(directives['default-src']).toEqual(["'self'"]);
    for (const values of Object.values(directives)) {
      for (const v of values) expect(v).toMatch(/^('self'|'none'|'unsafe-inline'|data:)$/);
    }
    // The page itself holds no inline script: every <script> has a same-origin src.
    const page = String(res.body);
    const scripts = [...page.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, content = ''] of scripts) {
      expect(attributes).toMatch(/src="\/docs\//);
      expect(content.trim()).toBe('');
    }
  });

  it('redirects / to the API reference', async () => {
    const res = await fetch(`${server().baseUrl}/`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/docs');
  });
});
