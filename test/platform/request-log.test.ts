import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { loggedPath } from '../../server/platform/middleware.js';
import { raw } from '../support/business.js';
import { useTestServer } from '../support/setup.js';

/** Every line the service logs, parsed. */
const lines: Record<string, unknown>[] = [];
const log = pino(
  { level: 'info', base: { service: 'bms' } },
  { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
);

const server = useTestServer({ log, worker: false });

/** A string shaped like the service's signed tokens, different every time. */
const token = () => randomBytes(30).toString('base64url');

/** The request-log lines of requests to paths starting with `prefix`. */
const requestLines = (prefix: string) =>
  lines.filter((l) => l.msg === 'request' && String(l.path).startsWith(prefix));

describe('the request log never carries a capability token (docs/decisions.md D28)', () => {
  it.each([
    ['the open pixel', '/t/o/', '/t/o/:token', ''],
    ['a click link', '/t/c/', '/t/c/:token', '?u=https%3A%2F%2Fexample.com'],
    ['the unsubscribe page', '/u/', '/u/:token', ''],
    ['a hosted invoice', '/i/', '/i/:token', ''],
    ['a hosted quote', '/q/', '/q/:token', ''],
    ['a hosted credit note', '/c/', '/c/:token', ''],
    ['an invitation', '/invitations/', '/invitations/:token', ''],
  ])('logs %s by its route template', async (_name, prefix, template, query) => {
    const secret = token();
    for (const method of ['GET', 'POST']) {
      await raw(server(), method, `${prefix}${secret}${query}`);
      await raw(server(), method, `${prefix}${secret}/extra`);
    }
    const logged = requestLines(prefix);
    expect(logged.length).toBeGreaterThanOrEqual(4);
    expect(logged.map((l) => l.path)).toContain(template);
    expect(JSON.stringify(lines)).not.toContain(secret);
  });

  it('keeps the path of every other route as it was requested (ids help to debug)', async () => {
    await raw(server(), 'GET', '/v1/customers/cus_01JD7X2R5VQ8N3K4M6P9T1W2Y3');
    expect(requestLines('/v1/customers/').map((l) => l.path)).toContain(
      '/v1/customers/cus_01JD7X2R5VQ8N3K4M6P9T1W2Y3',
    );
  });
});

describe('loggedPath', () => {
  it.each([
    ['/u/abc.def', '/u/:token'],
    ['/u/', '/u/:token'],
    ['/t/o/abc', '/t/o/:token'],
    ['/t/c/abc/more', '/t/c/:token/more'],
    ['/i/abc', '/i/:token'],
    ['/q/abc', '/q/:token'],
    ['/c/abc/pdf', '/c/:token/pdf'],
    ['/invitations/abc', '/invitations/:token'],
    ['/v1/invoices/inv_1', '/v1/invoices/inv_1'],
    ['/users/abc', '/users/abc'],
    ['/t/x/abc', '/t/x/abc'],
  ])('shows %s as %s', (path, shown) => {
    expect(loggedPath(path)).toBe(shown);
  });
});
