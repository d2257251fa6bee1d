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
