import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, unwrap, sessionOf } from '../../client/index.js';
import { createBusiness } from '../../server/auth/provisioning.js';
import { json, raw, registerBusiness, uniqueEmail } from '../support/business.js';
import { useTestServer } from '../support/setup.js';
import type { TestServer } from '../support/server.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const PASSWORD = 'correct horse battery staple';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

const anonymousClient = (s: TestServer) => createClient({ baseUrl: s.baseUrl, maxRetries: 0 });
const tokenClient = (s: TestServer, accessToken: string) =>
  createClient({ baseUrl: s.baseUrl, accessToken, maxRetries: 0 });

/** Every value of every row, as text, to prove a secret is absent in any form. */
const cellsOf = (rows: Record<string, unknown>[]) =>
  rows.flatMap((row) => Object.values(row).map((v) => (v instanceof Date ? v.toISOString() : String(v))));

/** Status of a call on a token-protected route, with the credential given as a raw header. */
async function customersWith(s: TestServer, authorization: string) {
  return raw(s, 'GET', '/v1/customers', { headers: { authorization } });
}

const server = useTestServer();

afterEach(() => {
  server().clock.reset();
});

describe('POST /v1/auth/register', () => {
  it('creates a business and answers 201 with a bearer token valid for 7 days', async () => {
    const before = server().clock.now().getTime();
    const res = await anonymousClient(server()).auth.register({
      body: { businessName: 'Acme Ltd', email: uniqueEmail(), password: PASSWORD },
    });
    const after = server().clock.now().getTime();

    expect(res.status).toBe(201);
    if (res.status !== 201) return;
    expect(res.body.result).toBe('success');
    const { data } = res.body;
    expect(Object.keys(data).sort()).toEqual([
      'accessToken',
      'businessId',
      'environment',
      'expiresAt',
      'tokenType',
    ]);
    expect(data.environment).toBe('live');
    expect(data.businessId).toMatch(/^biz_/);
    expect(data.tokenType).toBe('Bearer');
    expect(data.accessToken.length).toBeGreaterThanOrEqual(32);
    expect(data.expiresAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const expiresAt = Date.parse(data.expiresAt);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 7 * DAY_MS);
    expect(expiresAt).toBeLessThanOrEqual(after + 7 * DAY_MS);
  });

  it('returns a token that works on /v1/customers (create and list)', async () => {
    const { data } = await unwrap(
      anonymousClient(server()).auth.register({
        body: { businessName: 'Token Works Ltd', email: uniqueEmail(), password: PASSWORD },
      }),
    );
    const client = tokenClient(server(), data.accessToken);

    const created = await client.general.customers.createCustomer({ body: { name: 'Grace Hopper' } });
    expect(created.status).toBe(201);
    const listed = await unwrap(client.general.customers.listCustomers({ query: {} }));
    expect(listed.data.map((c) => c.name)).toEqual(['Grace Hopper']);
  });

  it('accepts a password of exactly 12 characters', async () => {
    const res = await anonymousClient(server()).auth.register({
      body: { businessName: 'Twelve Ltd', email: uniqueEmail(), password: '123456789012' },
    });
    expect(res.status).toBe(201);
  });

  it('refuses a password under 12 characters (422 naming password)', async () => {
    const res = await anonymousClient(server()).auth.register({
      body: { businessName: 'Short Ltd', email: uniqueEmail(), password: '12345678901' },
    });
    expect(res.status).toBe(422);
    if (res.status !== 422) return;
    expect(res.body).toMatchObject({ result: 'error', error: { code: 'VALIDATION_ERROR', status: 422 } });
    expect(res.body.error.details?.map((d) => d.field)).toEqual(['password']);
  });

  it('refuses an invalid email (422 naming email)', async () => {
    const res = await anonymousClient(server()).auth.register({
      body: { businessName: 'Bad Email Ltd', email: 'not-an-email', password: PASSWORD },
    });
    expect(res.status).toBe(422);
    if (res.status !== 422) return;
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details?.map((d) => d.field)).toEqual(['email']);
  });

  it('refuses an unknown field (422 naming it)', async () => {
    const res = await raw(
      server(),
      'POST',
      '/v1/auth/register',
      json({ businessName: 'Sneaky Ltd', email: uniqueEmail(), password: PASSWORD, plan: 'enterprise' }),
    );
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ result: 'error', error: { code: 'VALIDATION_ERROR', status: 422 } });
    expect(res.body.error.details).toContainEqual(expect.objectContaining({ field: 'plan' }));
  });

  it('refuses a missing business name (422)', async () => {
    const res = await raw(
      server(),
      'POST',
      '/v1/auth/register',
      json({ email: uniqueEmail(), password: PASSWORD }),
    );
    expect(res.status).toBe(422);
    expect(res.body.error.details).toContainEqual(expect.objectContaining({ field: 'businessName' }));
  });

  it('refuses an email already registered, in any letter case (409 CONFLICT)', async () => {
    const email = uniqueEmail('dup');
    const client = anonymousClient(server());
    await unwrap(client.auth.register({ body: { businessName: 'First Ltd', email, password: PASSWORD } }));

    for (const variant of [email, email.toUpperCase()]) {
      const res = await client.auth.register({
        body: { businessName: 'Second Ltd', email: variant, password: PASSWORD },
      });
      expect(res.status).toBe(409);
      if (res.status !== 409) return;
      expect(res.body).toMatchObject({ result: 'error', error: { code: 'CONFLICT', status: 409 } });
    }
  });
});

describe('POST /v1/auth/token', () => {
  it('signs in with email and password and answers 200 with a new working token', async () => {
    const biz = await registerBusiness(server());
    const before = server().clock.now().getTime();
    const res = await anonymousClient(server()).auth.signIn({
      body: { email: biz.email, password: biz.password },
    });
    expect(res.status).toBe(200);
    if (res.status !== 200) return;
    expect(res.body.result).toBe('success');
    const data = sessionOf(res.body.data);
    expect(data.businessId).toBe(biz.businessId);
    expect(data.tokenType).toBe('Bearer');
    expect(data.accessToken).not.toBe(biz.accessToken);
    expect(Date.parse(data.expiresAt)).toBeGreaterThanOrEqual(before + 7 * DAY_MS);

    const listed = await tokenClient(server(), data.accessToken).general.customers.listCustomers({
      query: {},
    });
    expect(listed.status).toBe(200);
  });

  it('refuses a wrong password and an unknown email alike (401 UNAUTHORIZED, WWW-Authenticate)', async () => {
    const biz = await registerBusiness(server());
    const client = anonymousClient(server());

    const wrongPassword = await client.auth.signIn({
      body: { email: biz.email, password: 'not the right password' },
    });
    const unknownEmail = await client.auth.signIn({
      body: { email: uniqueEmail('nobody'), password: biz.password },
    });

    for (const res of [wrongPassword, unknownEmail]) {
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      expect(res.body).toMatchObject({ result: 'error', error: { code: 'UNAUTHORIZED', status: 401 } });
      expect(JSON.stringify(res.body)).not.toContain('accessToken');
    }
    // The same answer for both, so sign-in does not reveal which emails have accounts.
    expect((unknownEmail.body as { error: unknown }).error).toEqual(
      (wrongPassword.body as { error: unknown }).error,
    );
  });

  it('refuses a body without a password (422)', async () => {
    const res = await raw(server(), 'POST', '/v1/auth/token', json({ email: uniqueEmail() }));
    expect(res.status).toBe(422);
    expect(res.body.error.details).toContainEqual(expect.objectContaining({ field: 'password' }));
  });
});

describe('POST /v1/auth/logout', () => {
  it('revokes the presented token while another token of the same user keeps working', async () => {
    const biz = await registerBusiness(server());
    const second = await unwrap(
      anonymousClient(server()).auth.signIn({ body: { email: biz.email, password: biz.password } }),
    );

    const res = await biz.client.auth.logout();
    expect(res.status).toBe(200);
    if (res.status !== 200) return;
    expect(res.body.result).toBe('success');
    expect(typeof res.body.message).toBe('string');

    const revoked = await biz.client.general.customers.listCustomers({ query: {} });
    expect(revoked.status).toBe(401);
    expect(revoked.headers.get('www-authenticate')).toBe('Bearer');
    expect(revoked.body).toMatchObject({ error: { code: 'UNAUTHORIZED', status: 401 } });

    const again = await biz.client.auth.logout();
    expect(again.status).toBe(401);

    const other = await tokenClient(
      server(),
      sessionOf(second.data).accessToken,
    ).general.customers.listCustomers({
      query: {},
    });
    expect(other.status).toBe(200);
  });

  it('refuses a request without a credential (401)', async () => {
    const res = await anonymousClient(server()).auth.logout();
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    expect(res.body).toMatchObject({ result: 'error', error: { code: 'UNAUTHORIZED' } });
  });
});

describe('access tokens', () => {
  it('keeps a token valid until just before its expiry and refuses it after (401)', async () => {
    const biz = await registerBusiness(server());
    const list = () => biz.client.general.customers.listCustomers({ query: {} });

    server().clock.advance(7 * DAY_MS - 60_000);
    expect((await list()).status).toBe(200);

    server().clock.advance(61_000);
    const expired = await list();
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toBe('Bearer');
    expect(expired.body).toMatchObject({ error: { code: 'UNAUTHORIZED', status: 401 } });

    server().clock.reset();
    expect((await list()).status).toBe(200);
  });

  it('refuses a malformed or unknown Authorization header (401)', async () => {
    const biz = await registerBusiness(server());
    const basic = `Basic ${Buffer.from(`${biz.email}:${biz.password}`).toString('base64')}`;
    for (const header of [
      basic,
      'Bearer',
      'Bearer ',
      `Token ${biz.accessToken}`,
      biz.accessToken,
      `Bearer ${biz.accessToken}x`,
      'Bearer bms_at_unknown',
      `Bearer ${biz.accessToken} extra`,
    ]) {
      const res = await customersWith(server(), header);
      expect(res.status, header).toBe(401);
      expect(res.headers.get('www-authenticate'), header).toBe('Bearer');
      expect(res.body, header).toMatchObject({ error: { code: 'UNAUTHORIZED', status: 401 } });
    }
  });

  it('refuses a request with no credential at all (401)', async () => {
    const res = await raw(server(), 'GET', '/v1/customers');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('accepts the Bearer scheme in any letter case', async () => {
    const biz = await registerBusiness(server());
    const res = await customersWith(server(), `bearer ${biz.accessToken}`);
    expect(res.status).toBe(200);
  });

  it('stores a token only as a hash', async () => {
    const biz = await registerBusiness(server());
    const rows = await server().deps.db.selectFrom('access_tokens').selectAll().execute();
    const cells = cellsOf(rows);
    expect(cells.some((cell) => cell.includes(biz.accessToken))).toBe(false);
    expect(cells).toContain(sha256(biz.accessToken));
  });

  it('stores a password only as a scrypt hash', async () => {
    const biz = await registerBusiness(server());
    const user = await server()
      .deps.db.selectFrom('users')
      .selectAll()
      .where('business_id', '=', biz.businessId)
      .executeTakeFirstOrThrow();
    expect(user.password_hash.startsWith('scrypt$')).toBe(true);
    expect(cellsOf([user]).some((cell) => cell.includes(biz.password))).toBe(false);
  });
});

describe('with ACCESS_TOKEN_TTL=60', () => {
  const shortLived = useTestServer({ env: { ACCESS_TOKEN_TTL: '60' } });

  afterEach(() => {
    shortLived().clock.reset();
  });

  it('issues tokens that expire after 60 seconds', async () => {
    const before = shortLived().clock.now().getTime();
    const biz = await registerBusiness(shortLived());
    const session = await unwrap(
      anonymousClient(shortLived()).auth.signIn({ body: { email: biz.email, password: biz.password } }),
    );
    const after = shortLived().clock.now().getTime();
    expect(Date.parse(session.data.expiresAt)).toBeGreaterThanOrEqual(before + 60_000);
    expect(Date.parse(session.data.expiresAt)).toBeLessThanOrEqual(after + 60_000);

    expect((await biz.client.general.customers.listCustomers({ query: {} })).status).toBe(200);
    shortLived().clock.advance(61_000);
    const expired = await biz.client.general.customers.listCustomers({ query: {} });
    expect(expired.status).toBe(401);
    expect(expired.body).toMatchObject({ error: { code: 'UNAUTHORIZED' } });
  });
});

describe('with SIGNUP_ENABLED=false', () => {
  const closed = useTestServer({ env: { SIGNUP_ENABLED: 'false' } });

  it('refuses registration (403 FORBIDDEN)', async () => {
    const res = await anonymousClient(closed()).auth.register({
      body: { businessName: 'Closed Ltd', email: uniqueEmail(), password: PASSWORD },
    });
    expect(res.status).toBe(403);
    if (res.status !== 403) return;
    expect(res.body).toMatchObject({ result: 'error', error: { code: 'FORBIDDEN', status: 403 } });
    const businesses = await closed().deps.db.selectFrom('businesses').select('id').execute();
    expect(businesses).toEqual([]);
  });

  it('still signs in a business provisioned from the command line', async () => {
    const { deps } = closed();
    const email = uniqueEmail('cli');
    const provisioned = await createBusiness(deps, {
      name: 'Provisioned Ltd',
      email,
      password: PASSWORD,
      plan: deps.config.DEFAULT_PLAN,
    });
    const res = await anonymousClient(closed()).auth.signIn({ body: { email, password: PASSWORD } });
    expect(res.status).toBe(200);
    if (res.status !== 200) return;
    expect(sessionOf(res.body.data).businessId).toBe(provisioned.businessId);
  });
});
