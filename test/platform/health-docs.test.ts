import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { raw } from '../support/business.js';
import { useTestServer } from '../support/setup.js';
import { atLeast } from '../support/expect.js';

const server = useTestServer();

/** Every `src` and `href` in a page. */
const referencesIn = (html: string) =>
  [...html.matchAll(/\b(?:src|href)\s*=\s*["']([^"']+)["']/gi)].map((m) => m[1]);

describe('health', () => {
  it('GET /healthz answers 200 {status: "ok"} without credentials', async () => {
    const res = await raw(server(), 'GET', '/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('GET /healthz ignores a bad credential', async () => {
    const res = await raw(server(), 'GET', '/healthz', { token: 'bms_at_nope' });
    expect(res.status).toBe(200);
  });

  it('GET /readyz answers 200 when the database is reachable and migrations are current', async () => {
    const res = await raw(server(), 'GET', '/readyz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ready' });
  });

  it('GET /readyz answers 503 while a migration is pending', async () => {
    const { db } = server().deps;
    const { rows } = await sql<{ name: string; timestamp: string }>`
      SELECT name, timestamp FROM kysely_migration ORDER BY name DESC LIMIT 1
    `.execute(db);
    expect(rows).toHaveLength(1);
    const [last] = atLeast(rows, 1);
    await sql`DELETE FROM kysely_migration WHERE name = ${last.name}`.execute(db);
    try {
      const res = await raw(server(), 'GET', '/readyz');
      expect(res.status).toBe(503);
      expect(res.body.status).toEqual(expect.any(String));
      expect(res.body.status).not.toBe('ready');
    } finally {
      await sql`INSERT INTO kysely_migration (name, timestamp) VALUES (${last.name}, ${last.timestamp})`.execute(
        db,
      );
    }
    expect((await raw(server(), 'GET', '/readyz')).status).toBe(200);
  });
});

describe('API reference', () => {
  const ASSETS = ['/docs/assets/swagger-ui-bundle.js', '/docs/assets/swagger-ui.css', '/docs/init.js'];

  it('GET /docs serves an HTML page', async () => {
    const res = await raw(server(), 'GET', '/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.body).toMatch(/<!doctype html>/i);
  });

  it('loads only assets served by this service', async () => {
    const { body: html } = await raw(server(), 'GET', '/docs');
    const refs = referencesIn(html);
    expect(refs).toEqual(expect.arrayContaining(ASSETS));
    for (const ref of refs) {
      expect(ref, `${ref} is not local`).not.toMatch(/^(https?:)?\/\//i);
      expect(ref, `${ref} is not local`).toMatch(/^\//);
    }
    expect(html).not.toMatch(/\b(?:src|href)\s*=\s*["']?(?:https?:)?\/\//i);
    expect(html).not.toMatch(/@import\s+url\(\s*["']?(?:https?:)?\/\//i);
  });

  it.each(ASSETS)('serves %s', async (path) => {
    const res = await fetch(`${server().baseUrl}${path}`);
    expect(res.status).toBe(200);
    const type = res.headers.get('content-type') ?? '';
    expect(type).toMatch(path.endsWith('.css') ? /^text\/css/ : /javascript/);
    expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(100);
  });

  it('initialises the reference from the local /openapi.json', async () => {
    const res = await raw(server(), 'GET', '/docs/init.js');
    expect(res.body).toContain("'/openapi.json'");
    expect(res.body).not.toMatch(/https?:\/\//);
  });

  it('answers 404 for an asset that does not exist', async () => {
    const res = await raw(server(), 'GET', '/docs/assets/no-such-file.js');
    expect(res.status).toBe(404);
  });
});
