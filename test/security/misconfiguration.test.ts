import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { raw, registerBusiness, type TestBusiness } from '../support/business.js';
import { useTestServer } from '../support/setup.js';

/**
 * Security misconfiguration (OWASP API8): every surface the service answers on, JSON or HTML,
 * carries the same transport and framing headers, HTML pages carry a Content-Security-Policy that
 * allows no inline script, no other origin and no framing, and only the public loyalty routes
 * answer a browser of another origin.
 */

const ORIGIN = 'https://shop.example.com';
const server = useTestServer({ worker: false, env: { CORS_ORIGINS: ORIGIN } });

let owner: TestBusiness;
const asOwner = (method: string, path: string) => raw(server(), method, path, { token: owner.accessToken });

/** Every kind of surface: the API (answered and refused), probes, reference, dashboard and public pages. */
const SURFACES: [string, string][] = [
  ['an authenticated API answer', '/v1/customers'],
  ['a refused API request', '/v1/invoices'],
  ['an unknown API route', '/v1/nope'],
  ['the liveness probe', '/healthz'],
  ['the readiness probe', '/readyz'],
  ['the OpenAPI document', '/openapi.json'],
  ['the API reference', '/docs'],
  ['the API reference script', '/docs/init.js'],
  ['the dashboard', '/app'],
  ['a dashboard deep link', '/app/invoices'],
  ['the metrics (loopback)', '/metrics'],
  ['the open pixel with a bad token', '/t/o/not-a-token'],
  ['a click link with a bad token', '/t/c/not-a-token?u=https%3A%2F%2Fexample.com&s=x'],
  ['the unsubscribe page with a bad token', '/u/not-a-token'],
  ['a hosted invoice with a bad token', '/i/not-a-token'],
  ['a hosted quote with a bad token', '/q/not-a-token'],
  ['a hosted credit note with a bad token', '/c/not-a-token'],
  ['the invitation page with a bad token', '/invitations/bms_inv_not-a-token'],
  ['the document stylesheet', '/documents/page.css'],
  ['a path nothing answers', '/nothing-here'],
];

/** The HTML pages, each with its Content-Security-Policy. */
const PAGES: [string, string][] = [
  ['the API reference', '/docs'],
  ['the dashboard', '/app'],
  ['a dashboard deep link', '/app/settings/api-keys'],
  ['the unsubscribe page', '/u/not-a-token'],
  ['a hosted invoice', '/i/not-a-token'],
  ['a hosted quote', '/q/not-a-token'],
  ['a hosted credit note', '/c/not-a-token'],
  ['the invitation page', '/invitations/bms_inv_not-a-token'],
];

/** A Content-Security-Policy as a map of directive to its values. */
function directivesOf(csp: string): Record<string, string[]> {
  return Object.fromEntries(
    csp
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name = '', ...values] = d.split(/\s+/);
        return [name.toLowerCase(), values];
      }),
  );
}

describe('headers on every surface', () => {
  it.each(SURFACES)(
    '%s (%s): HSTS, nosniff, no framing, no referrer, no X-Powered-By',
    async (_label, path) => {
      if (!owner) owner = await registerBusiness(server());
      const res = path === '/v1/customers' ? await asOwner('GET', path) : await raw(server(), 'GET', path);
      expect(res.status).toBeLessThan(500);
      const hsts = res.headers.get('strict-transport-security') ?? '';
      expect(hsts).toMatch(/max-age=\d+/);
      expect(Number(/max-age=(\d+)/.exec(hsts)?.[1])).toBeGreaterThanOrEqual(180 * 24 * 3600);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('x-powered-by')).toBeNull();
      expect(res.headers.get('server')).toBeNull();
    },
  );
});

describe('Content-Security-Policy of every HTML page', () => {
  it.each(PAGES)('%s (%s): no inline or third-party script, no plugin, no framing', async (_label, path) => {
    const res = await raw(server(), 'GET', path);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const directives = directivesOf(res.headers.get('content-security-policy') ?? '');
    const scripts = directives['script-src'] ?? directives['default-src'];
    expect(scripts, 'script-src or default-src').toBeDefined();
    for (const source of scripts!) expect(["'self'", "'none'"]).toContain(source);
    expect(directives['frame-ancestors']).toEqual(["'none'"]);
    const objects = directives['object-src'] ?? directives['default-src'];
    for (const source of objects!) expect(["'self'", "'none'"]).toContain(source);
    // No directive names another origin: every source is a keyword, data: or this origin.
    for (const [name, values] of Object.entries(directives)) {
      for (const value of values) expect(value, `${name} ${value}`).toMatch(/^('[a-z-]+'|data:)$/);
    }
  });

  it('serves no page with an inline script', async () => {
    for (const [label, path] of PAGES) {
      const res = await raw(server(), 'GET', path);
      const html = String(res.body);
      const inline = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)].filter(
        ([, attributes = '', body = '']) => !/\bsrc=/.test(attributes) || body.trim() !== '',
      );
      expect(inline, label).toEqual([]);
      expect(html, label).not.toMatch(/\son[a-z]+\s*=/i);
    }
  });
});

describe('CORS beyond the public loyalty routes', () => {
  it.each([
    ['the dashboard', '/app'],
    ['the API reference', '/docs'],
    ['the OpenAPI document', '/openapi.json'],
    ['a token route', '/v1/customers'],
    ['the sign-in route', '/v1/auth/token'],
    ['a hosted invoice', '/i/not-a-token'],
    ['a hosted credit note', '/c/not-a-token'],
    ['the unsubscribe page', '/u/not-a-token'],
  ])('answers %s to a listed origin without CORS headers, preflight or not', async (_label, path) => {
    const actual = await raw(server(), 'GET', path, { headers: { origin: ORIGIN } });
    expect(actual.headers.get('access-control-allow-origin')).toBeNull();
    expect(actual.headers.get('access-control-allow-credentials')).toBeNull();
    const preflight = await raw(server(), 'OPTIONS', path, {
      headers: {
        origin: ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expect(preflight.headers.get('access-control-allow-methods')).toBeNull();
  });

  it('never allows credentials from a browser, even on the public loyalty routes', async () => {
    const res = await raw(server(), 'OPTIONS', '/v1/public/loyalty/rewards', {
      headers: { origin: ORIGIN, 'access-control-request-method': 'GET' },
    });
    expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(res.headers.get('access-control-allow-headers') ?? '').not.toMatch(/authorization/i);
  });
});

describe('methods and answers that could leak', () => {
  it('answers TRACE without echoing the request and its headers back', async () => {
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const url = new URL('/v1/customers', server().baseUrl);
      const req = request(url, {
        method: 'TRACE',
        headers: { authorization: `Bearer ${owner.accessToken}`, 'x-probe': 'echo-me' },
      });
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(500);
    expect(body).not.toContain('echo-me');
    expect(body).not.toContain(owner.accessToken);
  });

  it('lists no directory and serves no source file or dotfile next to the dashboard and reference assets', async () => {
    for (const path of [
      '/app/assets/',
      '/docs/assets/',
      '/docs/assets/package.json',
      '/app/assets/../../package.json',
      '/app/assets/%2e%2e/%2e%2e/package.json',
      '/docs/assets/%2e%2e%2f%2e%2e%2fpackage.json',
      '/.env',
      '/server/config.ts',
      '/package.json',
    ]) {
      const res = await raw(server(), 'GET', path);
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(String(typeof res.body === 'string' ? res.body : JSON.stringify(res.body)), path).not.toMatch(
        /"dependencies"|DATABASE_URL|Index of/,
      );
    }
    // Under /app every other path is the dashboard's own page (it routes in the browser), never a file.
    const dotfile = await raw(server(), 'GET', '/app/.env');
    expect(dotfile.headers.get('content-type')).toMatch(/^text\/html/);
    expect(dotfile.body).toBe((await raw(server(), 'GET', '/app')).body);
  });
});
