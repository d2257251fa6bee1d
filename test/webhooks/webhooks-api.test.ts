import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unwrap, type EventName } from '../../client/index.js';
import type { Delivery } from '../../contract/webhooks/index.js';
import { json, raw, registerBusiness, type TestBusiness } from '../support/business.js';
import { outbox } from '../support/events.js';
import { type AtLeast, atLeast, expectError, expectInvalid, itemAt } from '../support/expect.js';
import type { TestServer } from '../support/server.js';
import { useTestServer } from '../support/setup.js';
import { quietUrl } from '../support/webhooks.js';
import { createCustomer } from '../support/general.js';

/** Receivers below are local node:http servers, so private targets (and http://) must be allowed. */
const server = useTestServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });

const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const DAY_MS = 24 * 60 * 60 * 1000;
/** An id of the right type that no webhook has. */
const MISSING_ID = 987_654_321;

type Body = { url?: string; events?: EventName[]; is_active?: boolean };

async function createWebhook(biz: TestBusiness, body: Body = {}) {
  const res = await biz.client.webhooks.createWebhook({
    body: { url: quietUrl(), events: ['invoice.paid'], ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  if (res.status !== 201) throw new Error('unreachable');
  return res.body;
}

const getWebhook = async (biz: TestBusiness, id: number) =>
  (await unwrap(biz.client.webhooks.getWebhook({ params: { id } }))).webhook;

const webhookRow = (s: TestServer, id: number) =>
  s.deps.db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/** Sends what the typed client would refuse to send. */
const send = (s: TestServer, biz: TestBusiness, method: string, path: string, body?: unknown) =>
  raw(
    s,
    method,
    path,
    body === undefined ? { token: biz.accessToken } : { ...json(body), token: biz.accessToken },
  );

/** Polls `probe` until it returns a value (bounded; no fixed sleeps). */
async function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A local webhook receiver: 410 on /gone, 200 anywhere else; records every request. */
async function startReceiver() {
  const received: Received[] = [];
  const http: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.statusCode = req.url === '/gone' ? 410 : 200;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

describe('POST /v1/webhooks', () => {
  let biz: TestBusiness;
  beforeAll(async () => {
    biz = await registerBusiness(server(), 'Hooks Ltd');
  });

  it('creates a webhook (201) and returns an integer id and a whsec_ secret of 32 random bytes', async () => {
    const body = await createWebhook(biz, { events: ['customer.created', 'invoice.paid'] });
    expect(Object.keys(body).sort()).toEqual(['id', 'message', 'result', 'secret']);
    expect(body.result).toBe('success');
    expect(body.message).toEqual(expect.any(String));
    expect(Number.isInteger(body.id)).toBe(true);
    expect(body.id).toBeGreaterThan(0);
    expect(body.secret).toMatch(SECRET);
    expect(Buffer.from(body.secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
  });

  it('gives every webhook its own id and secret', async () => {
    const one = await createWebhook(biz);
    const two = await createWebhook(biz);
    expect(two.id).not.toBe(one.id);
    expect(two.secret).not.toBe(one.secret);
  });

  it('stores the secret sealed (v1.…), never in clear, and the secret box opens it', async () => {
    const { id, secret } = await createWebhook(biz);
    const row = await webhookRow(server(), id);
    expect(row.business_id).toBe(biz.businessId);
    expect(row.secret_sealed.startsWith('v1.')).toBe(true);
    expect(row.secret_sealed).not.toContain(secret);
    expect(row.secret_sealed).not.toContain(secret.slice('whsec_'.length));
    expect(JSON.stringify(row)).not.toContain(secret.slice('whsec_'.length));
    expect(row.previous_secret_sealed).toBeNull();
    expect(row.previous_secret_expires_at).toBeNull();
    expect(server().deps.secrets.open(row.secret_sealed)).toBe(secret);
  });

  it('never shows the secret again: not in get, list, update or delete answers', async () => {
    const { id, secret } = await createWebhook(biz);
    const bare = secret.slice('whsec_'.length);
    const answers = [
      await send(server(), biz, 'GET', `/v1/webhooks/${id}`),
      await send(server(), biz, 'GET', '/v1/webhooks'),
      await send(server(), biz, 'PUT', `/v1/webhooks/${id}`, { is_active: false }),
      await send(server(), biz, 'GET', `/v1/webhooks/${id}/deliveries`),
      await send(server(), biz, 'DELETE', `/v1/webhooks/${id}`),
    ];
    for (const res of answers) {
      expect(res.status).toBe(200);
      const text = JSON.stringify(res.body);
      expect(text).not.toContain(bare);
      expect(text).not.toMatch(/whsec_|secret/i);
    }
  });

  it('is active by default and can be created inactive', async () => {
    const active = await createWebhook(biz);
    expect((await getWebhook(biz, active.id)).is_active).toBe(true);
    const inactive = await createWebhook(biz, { is_active: false });
    expect((await getWebhook(biz, inactive.id)).is_active).toBe(false);
  });

  it('refuses an unknown event name (422 naming it)', async () => {
    const res = await send(server(), biz, 'POST', '/v1/webhooks', {
      url: quietUrl(),
      events: ['customer.created', 'lead.created'],
    });
    expectInvalid(res, 'events.1');
    const { error } = res.body as { error: { details: { field: string; message: string }[] } };
    expect(error.details.map((d) => d.message).join(' ')).toContain('lead.created');
  });

  it('refuses an empty event list (422 naming events)', async () => {
    expectInvalid(
      await send(server(), biz, 'POST', '/v1/webhooks', { url: quietUrl(), events: [] }),
      'events',
    );
  });

  it('refuses a repeated event (422 naming events)', async () => {
    expectInvalid(
      await send(server(), biz, 'POST', '/v1/webhooks', {
        url: quietUrl(),
        events: ['invoice.paid', 'customer.created', 'invoice.paid'],
      }),
      'events',
    );
  });

  it('refuses an unknown field (422 naming it)', async () => {
    expectInvalid(
      await send(server(), biz, 'POST', '/v1/webhooks', {
        url: quietUrl(),
        events: ['invoice.paid'],
        secret: 'whsec_mine',
      }),
      'secret',
    );
  });

  it('refuses a URL over 2048 characters (422 naming url) and accepts one of exactly 2048', async () => {
    const base = quietUrl('');
    const exact = base + 'a'.repeat(2048 - base.length);
    expect(exact).toHaveLength(2048);
    expectInvalid(
      await send(server(), biz, 'POST', '/v1/webhooks', { url: `${exact}a`, events: ['invoice.paid'] }),
      'url',
    );
    const ok = await createWebhook(biz, { url: exact });
    expect((await getWebhook(biz, ok.id)).url).toBe(exact);
  });

  it.each([
    ['a missing url', { events: ['invoice.paid'] }, 'url'],
    ['a url that is not a URL', { url: 'not a url', events: ['invoice.paid'] }, 'url'],
    ['a url that is not a string', { url: 42, events: ['invoice.paid'] }, 'url'],
    ['missing events', { url: 'https://receiver.example.test/x' }, 'events'],
    [
      'events that are not an array',
      { url: 'https://receiver.example.test/x', events: 'invoice.paid' },
      'events',
    ],
    [
      'a non-boolean is_active',
      { url: 'https://receiver.example.test/x', events: ['invoice.paid'], is_active: 'yes' },
      'is_active',
    ],
  ])('refuses %s (422)', async (_name, body, field) => {
    expectInvalid(await send(server(), biz, 'POST', '/v1/webhooks', body), field);
  });

  it.each(['ftp://receiver.example.test/x', 'file:///etc/passwd'])(
    'refuses the scheme of %s even with private targets allowed (422 naming url)',
    async (url) => {
      expectInvalid(
        await send(server(), biz, 'POST', '/v1/webhooks', { url, events: ['invoice.paid'] }),
        'url',
      );
    },
  );

  it('refuses credentials in the URL (422 naming url)', async () => {
    expectInvalid(
      await send(server(), biz, 'POST', '/v1/webhooks', {
        url: 'https://user:pass@receiver.example.test/x',
        events: ['invoice.paid'],
      }),
      'url',
    );
  });

  it('allows 10 webhooks per business, refuses the 11th (422 LIMIT_EXCEEDED), and allows it after a delete', async () => {
    const full = await registerBusiness(server(), 'Full Ltd');
    const ids: number[] = [];
    for (let i = 0; i < 10; i++) ids.push((await createWebhook(full, { url: quietUrl(`h${i}`) })).id);
    expect(new Set(ids).size).toBe(10);

    const refused = await send(server(), full, 'POST', '/v1/webhooks', {
      url: quietUrl('eleventh'),
      events: ['invoice.paid'],
    });
    expectError(refused, 422, 'LIMIT_EXCEEDED');
    expect(refused.body).toMatchObject({ result: 'error' });
    const count = await server()
      .deps.db.selectFrom('webhooks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('business_id', '=', full.businessId)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(10);

    // Another business is not affected by this one's limit.
    await createWebhook(biz);

    await unwrap(full.client.webhooks.deleteWebhook({ params: { id: itemAt(ids, 3) } }));
    const eleventh = await createWebhook(full, { url: quietUrl('eleventh') });
    expect(ids).not.toContain(eleventh.id);
    const list = await unwrap(full.client.webhooks.listWebhooks());
    expect(list.webhooks).toHaveLength(10);
  });
});

describe('GET /v1/webhooks/:id', () => {
  let biz: TestBusiness;
  beforeAll(async () => {
    biz = await registerBusiness(server(), 'Reader Ltd');
  });

  it('returns the webhook with every field and no secret', async () => {
    const at = new Date(Math.floor(Date.now() / 1000) * 1000).toISOString();
    server().clock.set(at);
    let id: number;
    try {
      id = (await createWebhook(biz, { url: quietUrl('get'), events: ['customer.created', 'invoice.paid'] }))
        .id;
    } finally {
      server().clock.reset();
    }
    const res = await unwrap(biz.client.webhooks.getWebhook({ params: { id } }));
    expect(Object.keys(res).sort()).toEqual(['result', 'webhook']);
    expect(res.result).toBe('success');
    expect(res.webhook).toEqual({
      id,
      url: quietUrl('get'),
      events: ['customer.created', 'invoice.paid'],
      is_active: true,
      dateCreated: at,
      dateUpdated: at,
      disabled_reason: null,
    });
  });

  it('answers 404 for an id that does not exist', async () => {
    expectError(await send(server(), biz, 'GET', `/v1/webhooks/${MISSING_ID}`), 404, 'NOT_FOUND');
  });

  it.each(['abc', '1.5', '0', '-1', '1e3', '99999999999999999999'])(
    'answers 404 for the id path segment %j',
    async (segment) => {
      const res = await send(server(), biz, 'GET', `/v1/webhooks/${segment}`);
      expectError(res, 404, 'NOT_FOUND');
      expect(res.body).toMatchObject({ result: 'error' });
    },
  );
});

describe('GET /v1/webhooks', () => {
  it('lists nothing for a new business', async () => {
    const biz = await registerBusiness(server(), 'Empty Ltd');
    expect(await unwrap(biz.client.webhooks.listWebhooks())).toEqual({ result: 'success', webhooks: [] });
  });

  it("lists the business's webhooks newest first, each as get shows it", async () => {
    const biz = await registerBusiness(server(), 'Lister Ltd');
    const base = Math.floor(Date.now() / 1000) * 1000 - 60_000;
    const at = (i: number) => new Date(base + Math.min(i, 2) * 1000).toISOString();
    const ids: number[] = [];
    try {
      for (let i = 0; i < 4; i++) {
        server().clock.set(at(i));
        ids.push((await createWebhook(biz, { url: quietUrl(`list-${i}`) })).id);
      }
    } finally {
      server().clock.reset();
    }
    // The last two were created in the same instant: the one created later (higher id) lists first.
    const res = await unwrap(biz.client.webhooks.listWebhooks());
    expect(Object.keys(res).sort()).toEqual(['result', 'webhooks']);
    expect(res.webhooks.map((w) => w.id)).toEqual([...ids].reverse());
    for (const webhook of res.webhooks) expect(webhook).toEqual(await getWebhook(biz, webhook.id));
    expect(res.webhooks.map((w) => w.dateCreated)).toEqual([at(3), at(2), at(1), at(0)]);
    expect(res.webhooks[3]?.url).toBe(quietUrl('list-0'));
  });
});

describe('PUT /v1/webhooks/:id', () => {
  let biz: TestBusiness;
  beforeAll(async () => {
    biz = await registerBusiness(server(), 'Updater Ltd');
  });

  it('updates only the url, keeping events and is_active; dateUpdated moves, dateCreated does not', async () => {
    server().clock.set('2026-11-21T09:00:00.000Z');
    try {
      const { id } = await createWebhook(biz, { url: quietUrl('before'), events: ['customer.created'] });
      server().clock.set('2026-11-21T10:00:00.000Z');
      const res = await unwrap(
        biz.client.webhooks.updateWebhook({ params: { id }, body: { url: quietUrl('after') } }),
      );
      expect(res).toEqual({ result: 'success', message: expect.any(String) });
      expect(await getWebhook(biz, id)).toEqual({
        id,
        url: quietUrl('after'),
        events: ['customer.created'],
        is_active: true,
        dateCreated: '2026-11-21T09:00:00.000Z',
        dateUpdated: '2026-11-21T10:00:00.000Z',
        disabled_reason: null,
      });
    } finally {
      server().clock.reset();
    }
  });

  it('updates only the events', async () => {
    const { id } = await createWebhook(biz, { url: quietUrl('events'), events: ['customer.created'] });
    await unwrap(
      biz.client.webhooks.updateWebhook({
        params: { id },
        body: { events: ['invoice.created', 'invoice.paid', 'product.deleted'] },
      }),
    );
    expect(await getWebhook(biz, id)).toMatchObject({
      url: quietUrl('events'),
      events: ['invoice.created', 'invoice.paid', 'product.deleted'],
      is_active: true,
    });
  });

  it('turns a webhook off and on again', async () => {
    const { id } = await createWebhook(biz);
    await unwrap(biz.client.webhooks.updateWebhook({ params: { id }, body: { is_active: false } }));
    expect((await getWebhook(biz, id)).is_active).toBe(false);
    await unwrap(biz.client.webhooks.updateWebhook({ params: { id }, body: { is_active: true } }));
    expect((await getWebhook(biz, id)).is_active).toBe(true);
  });

  it('updates every field at once', async () => {
    const { id } = await createWebhook(biz);
    await unwrap(
      biz.client.webhooks.updateWebhook({
        params: { id },
        body: { url: quietUrl('all'), events: ['customer.deleted'], is_active: false },
      }),
    );
    expect(await getWebhook(biz, id)).toMatchObject({
      url: quietUrl('all'),
      events: ['customer.deleted'],
      is_active: false,
    });
  });

  it('clears disabled_reason (and the failure clock) when re-activated', async () => {
    const { id } = await createWebhook(biz);
    await server()
      .deps.db.updateTable('webhooks')
      .set({
        is_active: false,
        disabled_reason: 'No successful delivery for 5 days',
        failing_since: new Date('2026-11-01T00:00:00.000Z'),
      })
      .where('id', '=', id)
      .execute();
    expect(await getWebhook(biz, id)).toMatchObject({
      is_active: false,
      disabled_reason: 'No successful delivery for 5 days',
    });

    await unwrap(biz.client.webhooks.updateWebhook({ params: { id }, body: { is_active: true } }));
    expect(await getWebhook(biz, id)).toMatchObject({ is_active: true, disabled_reason: null });
    const row = await webhookRow(server(), id);
    expect(row.failing_since).toBeNull();
  });

  it('refuses an unknown event, empty or repeated events, an unknown field and a long url (422)', async () => {
    const { id } = await createWebhook(biz, { url: quietUrl('keep'), events: ['invoice.paid'] });
    const put = (body: unknown) => send(server(), biz, 'PUT', `/v1/webhooks/${id}`, body);

    const unknown = await put({ events: ['lead.created'] });
    expectInvalid(unknown, 'events.0');
    expect(JSON.stringify(unknown.body)).toContain('lead.created');
    expectInvalid(await put({ events: [] }), 'events');
    expectInvalid(await put({ events: ['invoice.paid', 'invoice.paid'] }), 'events');
    expectInvalid(await put({ secret: 'whsec_mine' }), 'secret');
    expectInvalid(await put({ url: quietUrl('x'.repeat(2048)) }), 'url');
    expectInvalid(await put({ url: 'ftp://receiver.example.test/x' }), 'url');
    expectInvalid(await put({ is_active: 'false' }), 'is_active');

    expect(await getWebhook(biz, id)).toMatchObject({ url: quietUrl('keep'), events: ['invoice.paid'] });
  });

  it('answers 404 for an unknown or non-integer id', async () => {
    expectError(
      await send(server(), biz, 'PUT', `/v1/webhooks/${MISSING_ID}`, { is_active: false }),
      404,
      'NOT_FOUND',
    );
    expectError(await send(server(), biz, 'PUT', '/v1/webhooks/abc', { is_active: false }), 404, 'NOT_FOUND');
  });
});

describe('DELETE /v1/webhooks/:id', () => {
  it('deletes the webhook (200); it is then 404 and gone from the list', async () => {
    const biz = await registerBusiness(server(), 'Deleter Ltd');
    const keep = await createWebhook(biz);
    const { id } = await createWebhook(biz);
    const res = await unwrap(biz.client.webhooks.deleteWebhook({ params: { id } }));
    expect(res).toEqual({ result: 'success', message: expect.any(String) });

    expectError(await send(server(), biz, 'GET', `/v1/webhooks/${id}`), 404, 'NOT_FOUND');
    expectError(await send(server(), biz, 'DELETE', `/v1/webhooks/${id}`), 404, 'NOT_FOUND');
    expectError(
      await send(server(), biz, 'PUT', `/v1/webhooks/${id}`, { is_active: true }),
      404,
      'NOT_FOUND',
    );
    const list = await unwrap(biz.client.webhooks.listWebhooks());
    expect(list.webhooks.map((w) => w.id)).toEqual([keep.id]);
    const row = await server()
      .deps.db.selectFrom('webhooks')
      .select('id')
      .where('id', '=', id)
      .executeTakeFirst();
    expect(row).toBeUndefined();
  });

  it('answers 404 for an unknown or non-integer id', async () => {
    const biz = await registerBusiness(server(), 'Deleter Two Ltd');
    expectError(await send(server(), biz, 'DELETE', `/v1/webhooks/${MISSING_ID}`), 404, 'NOT_FOUND');
    expectError(await send(server(), biz, 'DELETE', '/v1/webhooks/abc'), 404, 'NOT_FOUND');
  });
});

describe('POST /v1/webhooks/:id/rotate-secret', () => {
  let biz: TestBusiness;
  beforeAll(async () => {
    biz = await registerBusiness(server(), 'Rotator Ltd');
  });

  it('returns a new whsec_ secret and keeps the old sealed one for 24 hours', async () => {
    const created = await createWebhook(biz);
    const before = await webhookRow(server(), created.id);
    const now = '2026-11-21T12:34:56.789Z';
    server().clock.set(now);
    let body;
    try {
      const res = await biz.client.webhooks.rotateSecret({ params: { id: created.id } });
      expect(res.status).toBe(200);
      if (res.status !== 200) return;
      body = res.body;
    } finally {
      server().clock.reset();
    }
    expect(Object.keys(body).sort()).toEqual(['message', 'result', 'secret']);
    expect(body.result).toBe('success');
    expect(body.message).toEqual(expect.any(String));
    expect(body.secret).toMatch(SECRET);
    expect(body.secret).not.toBe(created.secret);

    const after = await webhookRow(server(), created.id);
    expect(after.previous_secret_sealed).toBe(before.secret_sealed);
    expect(after.previous_secret_expires_at?.toISOString()).toBe(
      new Date(Date.parse(now) + DAY_MS).toISOString(),
    );
    expect(after.secret_sealed).not.toBe(before.secret_sealed);
    expect(after.secret_sealed.startsWith('v1.')).toBe(true);
    expect(after.secret_sealed).not.toContain(body.secret.slice('whsec_'.length));
    expect(server().deps.secrets.open(after.secret_sealed)).toBe(body.secret);
    expect(server().deps.secrets.open(after.previous_secret_sealed!)).toBe(created.secret);

    const webhook = await getWebhook(biz, created.id);
    expect(webhook.dateUpdated).toBe(now);
    expect(JSON.stringify(webhook)).not.toContain(body.secret.slice('whsec_'.length));
  });

  it('rotating again keeps only the secret it replaced', async () => {
    const created = await createWebhook(biz);
    const first = await unwrap(biz.client.webhooks.rotateSecret({ params: { id: created.id } }));
    const second = await unwrap(biz.client.webhooks.rotateSecret({ params: { id: created.id } }));
    expect(new Set([created.secret, first.secret, second.secret]).size).toBe(3);
    const row = await webhookRow(server(), created.id);
    expect(server().deps.secrets.open(row.secret_sealed)).toBe(second.secret);
    expect(server().deps.secrets.open(row.previous_secret_sealed!)).toBe(first.secret);
  });

  it('answers 404 for an unknown or non-integer id', async () => {
    expectError(
      await send(server(), biz, 'POST', `/v1/webhooks/${MISSING_ID}/rotate-secret`),
      404,
      'NOT_FOUND',
    );
    expectError(await send(server(), biz, 'POST', '/v1/webhooks/abc/rotate-secret'), 404, 'NOT_FOUND');
  });
});

describe('deliveries, redelivery and tenant isolation', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  /** A business with one webhook that has received three customer.created deliveries. */
  let owner: TestBusiness;
  let webhookId: number;
  let webhookSecret: string;
  /** The three deliveries, newest first. */
  let delivered: AtLeast<3, Delivery>;

  const list = (biz: TestBusiness, id: number, query: Record<string, string | number> = {}) => {
    const search = new URLSearchParams(
      Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]),
    );
    return send(server(), biz, 'GET', `/v1/webhooks/${id}/deliveries?${search.toString()}`);
  };

  const deliveriesOf = async (biz: TestBusiness, id: number) =>
    unwrap(biz.client.webhooks.listDeliveries({ params: { id }, query: { limit: 200 } }));

  beforeAll(async () => {
    receiver = await startReceiver();
    owner = await registerBusiness(server(), 'Delivered Ltd');
    const created = await createWebhook(owner, {
      url: receiver.url('/hooks/ok'),
      events: ['customer.created'],
    });
    webhookId = created.id;
    webhookSecret = created.secret;
    // One customer at a time, so the deliveries are created in a known order.
    for (let n = 1; n <= 3; n++) {
      await createCustomer(owner.client, { name: `Customer ${n}` });
      await eventually(`delivery ${n}`, async () => {
        const res = await deliveriesOf(owner, webhookId);
        return res.total_count === n && res.deliveries.every((d) => d.status === 'succeeded')
          ? true
          : undefined;
      });
    }
    delivered = atLeast((await deliveriesOf(owner, webhookId)).deliveries, 3);
  });

  afterAll(async () => {
    await receiver?.close();
  });

  it('lists each delivery with its one successful attempt (200)', async () => {
    const res = await list(owner, webhookId);
    expect(res.status).toBe(200);
    const body = res.body as { result: string; deliveries: Delivery[]; total_count: number };
    expect(Object.keys(body).sort()).toEqual(['deliveries', 'result', 'total_count']);
    expect(body.result).toBe('success');
    expect(body.total_count).toBe(3);
    expect(body.deliveries).toHaveLength(3);

    const events = (await outbox(server(), owner.businessId)).filter((e) => e.type === 'customer.created');
    expect(events).toHaveLength(3);
    for (const delivery of body.deliveries) {
      expect(delivery).toEqual({
        deliveryId: expect.stringMatching(UUID),
        event: 'customer.created',
        eventId: expect.any(String),
        status: 'succeeded',
        createdAt: expect.stringMatching(ISO),
        nextAttemptAt: null,
        attempts: [
          {
            attemptedAt: expect.stringMatching(ISO),
            statusCode: 200,
            durationMs: expect.any(Number),
            errorClass: null,
            redelivery: false,
          },
        ],
      });
      expect(itemAt(delivery.attempts, 0).durationMs).toBeGreaterThanOrEqual(0);
    }
    expect(new Set(body.deliveries.map((d) => d.deliveryId)).size).toBe(3);
    expect(body.deliveries.map((d) => d.eventId).sort()).toEqual(events.map((e) => e.id).sort());
  });

  it('lists newest first: the last customer created is the first delivery', async () => {
    const events = (await outbox(server(), owner.businessId)).filter((e) => e.type === 'customer.created');
    expect(delivered.map((d) => d.eventId)).toEqual(events.map((e) => e.id).reverse());
    const times = delivered.map((d) => Date.parse(d.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('delivered what it lists to the receiver, signed with the secret returned at creation', async () => {
    for (const delivery of delivered) {
      const requests = receiver.received.filter((r) => r.headers['webhook-id'] === delivery.deliveryId);
      expect(requests.length).toBeGreaterThanOrEqual(1);
      const [request] = atLeast(requests, 1);
      expect(request.path).toBe('/hooks/ok');
      expect(request.headers['x-webhook-delivery-id']).toBe(delivery.deliveryId);
      expect(request.headers['x-webhook-event']).toBe('customer.created');
      const payload = JSON.parse(request.body) as { event: string; deliveryId: string };
      expect(payload).toMatchObject({ event: 'customer.created', deliveryId: delivery.deliveryId });
      const verified = new StandardWebhook(webhookSecret).verify(request.body, {
        'webhook-id': String(request.headers['webhook-id']),
        'webhook-timestamp': String(request.headers['webhook-timestamp']),
        'webhook-signature': String(request.headers['webhook-signature']),
      });
      expect(verified).toMatchObject({ deliveryId: delivery.deliveryId });
    }
  });

  it('pages with limit and offset, and total_count counts them all', async () => {
    const first = await list(owner, webhookId, { limit: 2 });
    expect(first.status).toBe(200);
    const firstBody = first.body as { deliveries: Delivery[]; total_count: number };
    expect(firstBody.total_count).toBe(3);
    expect(firstBody.deliveries.map((d) => d.deliveryId)).toEqual(
      delivered.slice(0, 2).map((d) => d.deliveryId),
    );

    const second = await list(owner, webhookId, { limit: 2, offset: 2 });
    const secondBody = second.body as { deliveries: Delivery[]; total_count: number };
    expect(secondBody.total_count).toBe(3);
    expect(secondBody.deliveries.map((d) => d.deliveryId)).toEqual([delivered[2].deliveryId]);

    const beyond = await list(owner, webhookId, { limit: 200, offset: 3 });
    expect(beyond.body).toEqual({ result: 'success', deliveries: [], total_count: 3 });
  });

  it('filters by status', async () => {
    const succeeded = (await list(owner, webhookId, { status: 'succeeded' })).body as {
      deliveries: Delivery[];
      total_count: number;
    };
    expect(succeeded.total_count).toBe(3);
    expect(succeeded.deliveries.map((d) => d.deliveryId)).toEqual(delivered.map((d) => d.deliveryId));
    for (const status of ['pending', 'retrying', 'failed']) {
      expect((await list(owner, webhookId, { status })).body).toEqual({
        result: 'success',
        deliveries: [],
        total_count: 0,
      });
    }
  });

  it.each([
    ['limit', { limit: 0 }],
    ['limit', { limit: 201 }],
    ['limit', { limit: 'ten' }],
    ['offset', { offset: -1 }],
    ['status', { status: 'delivered' }],
  ])('refuses an out-of-range %s (422)', async (field, query) => {
    const res = await list(owner, webhookId, query);
    expectInvalid(res, field);
    expect(res.body).toMatchObject({ result: 'error' });
  });

  it('answers 404 for the deliveries of an unknown or non-integer webhook id', async () => {
    expectError(await list(owner, MISSING_ID), 404, 'NOT_FOUND');
    expectError(await send(server(), owner, 'GET', '/v1/webhooks/abc/deliveries'), 404, 'NOT_FOUND');
  });

  it('redelivers the same delivery (200): a second attempt marked redelivery, same deliveryId', async () => {
    const target = delivered[1];
    const sentBefore = receiver.received.filter((r) => r.headers['webhook-id'] === target.deliveryId).length;
    const res = await unwrap(
      owner.client.webhooks.redeliver({ params: { id: webhookId, deliveryId: target.deliveryId } }),
    );
    expect(res).toEqual({ result: 'success', message: expect.any(String) });

    const again = await eventually('the redelivery attempt', async () => {
      const found = (await deliveriesOf(owner, webhookId)).deliveries.find(
        (d) => d.deliveryId === target.deliveryId,
      );
      return found && found.attempts.length === 2 ? found : undefined;
    });
    expect(again.status).toBe('succeeded');
    expect(again.eventId).toBe(target.eventId);
    expect(again.attempts[0]).toEqual(target.attempts[0]);
    expect(again.attempts[1]).toMatchObject({ statusCode: 200, errorClass: null, redelivery: true });
    expect(Date.parse(itemAt(again.attempts, 1).attemptedAt)).toBeGreaterThanOrEqual(
      Date.parse(itemAt(again.attempts, 0).attemptedAt),
    );
    expect(receiver.received.filter((r) => r.headers['webhook-id'] === target.deliveryId)).toHaveLength(
      sentBefore + 1,
    );
    // No new delivery: the log still has three.
    expect((await deliveriesOf(owner, webhookId)).total_count).toBe(3);
  });

  it('answers 404 to redeliver an unknown deliveryId', async () => {
    const res = await send(
      server(),
      owner,
      'POST',
      `/v1/webhooks/${webhookId}/deliveries/${randomUUID()}/redeliver`,
    );
    expectError(res, 404, 'NOT_FOUND');
    expect(res.body).toMatchObject({ result: 'error' });
  });

  it('answers 404 (not 500) to redeliver a deliveryId that is not a uuid', async () => {
    for (const bad of ['not-a-uuid', '12345', 'x'.repeat(300), `${delivered[0].deliveryId}0`]) {
      const res = await send(
        server(),
        owner,
        'POST',
        `/v1/webhooks/${webhookId}/deliveries/${bad}/redeliver`,
      );
      expect(res.status, `${bad}: ${JSON.stringify(res.body)}`).not.toBe(500);
      expectError(res, 404, 'NOT_FOUND');
    }
  });

  it('answers 404 to redeliver through an unknown webhook id', async () => {
    expectError(
      await send(
        server(),
        owner,
        'POST',
        `/v1/webhooks/${MISSING_ID}/deliveries/${delivered[0].deliveryId}/redeliver`,
      ),
      404,
      'NOT_FOUND',
    );
  });

  it('answers 404 to redeliver a delivery through another webhook of the same business', async () => {
    const other = await createWebhook(owner, { url: receiver.url('/hooks/other'), events: ['invoice.paid'] });
    try {
      expectError(
        await send(
          server(),
          owner,
          'POST',
          `/v1/webhooks/${other.id}/deliveries/${delivered[0].deliveryId}/redeliver`,
        ),
        404,
        'NOT_FOUND',
      );
    } finally {
      await unwrap(owner.client.webhooks.deleteWebhook({ params: { id: other.id } }));
    }
  });

  it('refuses to redeliver while the webhook is inactive (409 INVALID_STATE)', async () => {
    await unwrap(
      owner.client.webhooks.updateWebhook({ params: { id: webhookId }, body: { is_active: false } }),
    );
    try {
      const res = await send(
        server(),
        owner,
        'POST',
        `/v1/webhooks/${webhookId}/deliveries/${delivered[0].deliveryId}/redeliver`,
      );
      expectError(res, 409, 'INVALID_STATE');
      expect(res.body).toMatchObject({ result: 'error' });
    } finally {
      await unwrap(
        owner.client.webhooks.updateWebhook({ params: { id: webhookId }, body: { is_active: true } }),
      );
    }
  });

  it('lists a delivery the receiver refused with 410 as failed; the webhook is off and redeliver is 409', async () => {
    const biz = await registerBusiness(server(), 'Gone Ltd');
    const { id } = await createWebhook(biz, { url: receiver.url('/gone'), events: ['customer.created'] });
    await createCustomer(biz.client, { name: 'Nobody Home' });
    const failed = await eventually('the failed delivery', async () => {
      const res = await deliveriesOf(biz, id);
      return res.deliveries[0]?.status === 'failed' ? res.deliveries[0] : undefined;
    });
    expect(failed.attempts).toEqual([
      expect.objectContaining({ statusCode: 410, errorClass: 'http_status' }),
    ]);

    expect((await list(biz, id, { status: 'failed' })).body).toMatchObject({ total_count: 1 });
    expect((await list(biz, id, { status: 'succeeded' })).body).toMatchObject({
      deliveries: [],
      total_count: 0,
    });
    expect(await getWebhook(biz, id)).toMatchObject({
      is_active: false,
      disabled_reason: expect.any(String),
    });

    expectError(
      await send(server(), biz, 'POST', `/v1/webhooks/${id}/deliveries/${failed.deliveryId}/redeliver`),
      409,
      'INVALID_STATE',
    );

    // Deleting the webhook deletes its delivery log with it.
    await unwrap(biz.client.webhooks.deleteWebhook({ params: { id } }));
    const left = await server()
      .deps.db.selectFrom('webhook_deliveries')
      .select('id')
      .where('business_id', '=', biz.businessId)
      .execute();
    expect(left).toEqual([]);
  });

  describe("another business's webhook", () => {
    let intruder: TestBusiness;
    beforeAll(async () => {
      intruder = await registerBusiness(server(), 'Intruder Ltd');
    });

    it('is 404 on get, update, delete, deliveries, redeliver and rotate-secret, and left untouched', async () => {
      const before = await webhookRow(server(), webhookId);
      const deliveryId = delivered[0].deliveryId;
      const attempts = [
        await send(server(), intruder, 'GET', `/v1/webhooks/${webhookId}`),
        await send(server(), intruder, 'PUT', `/v1/webhooks/${webhookId}`, {
          url: 'https://attacker.example.test/steal',
          is_active: false,
        }),
        await send(server(), intruder, 'DELETE', `/v1/webhooks/${webhookId}`),
        await send(server(), intruder, 'GET', `/v1/webhooks/${webhookId}/deliveries`),
        await send(
          server(),
          intruder,
          'POST',
          `/v1/webhooks/${webhookId}/deliveries/${deliveryId}/redeliver`,
        ),
        await send(server(), intruder, 'POST', `/v1/webhooks/${webhookId}/rotate-secret`),
      ];
      for (const res of attempts) {
        expectError(res, 404, 'NOT_FOUND');
        expect(JSON.stringify(res.body)).not.toContain(receiver.url(''));
      }

      const after = await webhookRow(server(), webhookId);
      expect(after).toEqual(before);
      expect((await getWebhook(owner, webhookId)).url).toBe(receiver.url('/hooks/ok'));
      expect((await deliveriesOf(owner, webhookId)).total_count).toBe(3);
    });

    it("never shows it in the intruder's list", async () => {
      const own = await createWebhook(intruder);
      const list = await unwrap(intruder.client.webhooks.listWebhooks());
      expect(list.webhooks.map((w) => w.id)).toEqual([own.id]);
      const ownersList = await unwrap(owner.client.webhooks.listWebhooks());
      expect(ownersList.webhooks.map((w) => w.id)).toContain(webhookId);
      expect(ownersList.webhooks.map((w) => w.id)).not.toContain(own.id);
    });

    it("cannot redeliver the owner's delivery through its own webhook", async () => {
      const own = await createWebhook(intruder);
      expectError(
        await send(
          server(),
          intruder,
          'POST',
          `/v1/webhooks/${own.id}/deliveries/${delivered[0].deliveryId}/redeliver`,
        ),
        404,
        'NOT_FOUND',
      );
    });
  });
});

describe('authentication', () => {
  const id = 1;
  const deliveryId = '3f2b8c3e-5b7a-4f1e-9a52-1c2d3e4f5a6b';
  it.each([
    ['POST', '/v1/webhooks', { url: 'https://receiver.example.test/x', events: ['invoice.paid'] }],
    ['GET', '/v1/webhooks', undefined],
    ['GET', `/v1/webhooks/${id}`, undefined],
    ['PUT', `/v1/webhooks/${id}`, { is_active: false }],
    ['DELETE', `/v1/webhooks/${id}`, undefined],
    ['GET', `/v1/webhooks/${id}/deliveries`, undefined],
    ['POST', `/v1/webhooks/${id}/deliveries/${deliveryId}/redeliver`, undefined],
    ['POST', `/v1/webhooks/${id}/rotate-secret`, undefined],
  ])('%s %s answers 401 without a token', async (method, path, body) => {
    const res = await raw(server(), method, path, body === undefined ? {} : json(body));
    expectError(res, 401, 'UNAUTHORIZED');
    expect(res.body).toMatchObject({ result: 'error' });
  });
});

describe('with the address guard on (WEBHOOK_ALLOW_PRIVATE unset)', () => {
  // Nothing here is ever dialled: no worker runs and no URL below is looked up in DNS.
  const guarded = useTestServer({ worker: false });
  let biz: TestBusiness;
  beforeAll(async () => {
    biz = await registerBusiness(guarded(), 'Guarded Ltd');
  });

  const create = (url: string) =>
    send(guarded(), biz, 'POST', '/v1/webhooks', { url, events: ['customer.created'] });

  it('refuses a URL that is not HTTPS (422 naming url)', async () => {
    const res = await create('http://example.com/hook');
    expectInvalid(res, 'url');
    expect(JSON.stringify(res.body)).toMatch(/HTTPS/);
  });

  it.each([
    'https://127.0.0.1/x',
    'https://localhost/x',
    'https://api.localhost/x',
    'https://[::1]/x',
    'https://10.0.0.5/x',
    'https://192.168.1.10/x',
    'https://169.254.169.254/latest',
    'https://2130706433/',
    'https://0x7f.0.0.1/',
    'https://0177.0.0.1/',
    'https://[::ffff:127.0.0.1]/',
    'https://[fd12:3456::1]/',
  ])('refuses the private target %s (422 naming url)', async (url) => {
    const res = await create(url);
    expectInvalid(res, 'url');
    expect(res.body).toMatchObject({ result: 'error' });
  });

  it('creates nothing when it refuses', async () => {
    await create('https://127.0.0.1/x');
    expect(await unwrap(biz.client.webhooks.listWebhooks())).toEqual({ result: 'success', webhooks: [] });
  });

  it('refuses credentials in the URL (422 naming url)', async () => {
    expectInvalid(await create('https://user:pass@8.8.8.8/x'), 'url');
  });

  it('accepts a public IP literal', async () => {
    const res = await create('https://8.8.8.8/hook');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });

  it('accepts a host name that resolves to public addresses only', async () => {
    guarded().dns.publishAddresses('hooks.acme.example', '8.8.8.8');
    const res = await create('https://hooks.acme.example/hook');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });

  it('refuses a host name that does not resolve (422 naming url, saying so), creating nothing', async () => {
    const before = await unwrap(biz.client.webhooks.listWebhooks());
    const res = await create('https://typo.acme.example/hook');
    expectInvalid(res, 'url');
    expect(JSON.stringify(res.body)).toMatch(/could not be resolved/);
    expect(await unwrap(biz.client.webhooks.listWebhooks())).toEqual(before);
  });

  it('refuses a host name whose DNS does not answer in time (422 naming url and the bound)', async () => {
    guarded().dns.silence('slow.acme.example');
    const res = await create('https://slow.acme.example/hook');
    expectInvalid(res, 'url');
    expect(JSON.stringify(res.body)).toMatch(
      /could not be resolved: No DNS answer for slow\.acme\.example within 3 s/,
    );
  });

  it('refuses a host name that resolves to a private address (422 naming url)', async () => {
    guarded().dns.publishAddresses('intranet.acme.example', '8.8.8.8', '192.168.1.10');
    const res = await create('https://intranet.acme.example/hook');
    expectInvalid(res, 'url');
    expect(JSON.stringify(res.body)).toMatch(/resolves to a private or reserved address/);
  });

  it('refuses the same URLs on update and leaves the webhook as it was', async () => {
    const created = await create('https://1.1.1.1/hook');
    expect(created.status).toBe(201);
    const { id } = created.body as { id: number };
    for (const url of [
      'http://example.com/hook',
      'https://127.0.0.1/x',
      'https://localhost/x',
      'https://[::1]/x',
      'https://10.0.0.5/x',
      'https://169.254.169.254/latest',
      'https://2130706433/',
      'https://0x7f.0.0.1/',
    ]) {
      expectInvalid(await send(guarded(), biz, 'PUT', `/v1/webhooks/${id}`, { url }), 'url');
    }
    const webhook = (await unwrap(biz.client.webhooks.getWebhook({ params: { id } }))).webhook;
    expect(webhook.url).toBe('https://1.1.1.1/hook');
  });
});
