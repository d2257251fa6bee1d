import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, isSignInChallenge, sessionOf, unwrap } from '../../client/index.js';
import { nextResetLink, resetLinksFor, resetTokenOf } from '../support/auth.js';
import { json, raw, registerBusiness, uniqueEmail, type TestBusiness } from '../support/business.js';
import { expectResultError } from '../support/expect.js';
import type { TestServer } from '../support/server.js';
import { useTestServer } from '../support/setup.js';
import { hashSecret } from '../../server/auth/secrets.js';
import { enableTwoFactor, totpCode } from '../support/two-factor.js';
import { waitFor } from '../support/wait.js';

/**
 * A forgotten password (docs/decisions.md D208): `POST /v1/auth/password/forgot` mails a link, and
 * `POST /v1/auth/password/reset` sets the new password with its token and ends every session.
 */

// Each test comes from its own address (X-Forwarded-For, trusted from loopback), so the sign-in
// throttle of one test never reaches another.
const server = useTestServer({ env: { TRUST_PROXY: 'loopback' } });

afterEach(() => {
  server().clock.reset();
});

const NEW_PASSWORD = 'a brand new passphrase';
const HOUR_MS = 60 * 60 * 1000;

let lastOctet = 0;
/** A client address of its own for each test (198.51.100.0/24 is for documentation). */
function address(): string {
  lastOctet = (lastOctet % 250) + 1;
  return `198.51.100.${lastOctet}`;
}

const anonymous = (s: TestServer, ip: string) =>
  createClient({ baseUrl: s.baseUrl, maxRetries: 0, headers: { 'x-forwarded-for': ip } });

const forgot = (ip: string, email: string) =>
  anonymous(server(), ip).auth.forgotPassword({ body: { email } });

const reset = (ip: string, token: string, password = NEW_PASSWORD) =>
  anonymous(server(), ip).auth.resetPassword({ body: { token, password } });

const signIn = (ip: string, email: string, password: string, businessId?: string) =>
  anonymous(server(), ip).auth.signIn({ body: { email, password, ...(businessId ? { businessId } : {}) } });

/** The status a token gets on `GET /v1/auth/session`: 200 while it works, 401 once it does not. */
const statusOf = async (accessToken: string) =>
  (await createClient({ baseUrl: server().baseUrl, accessToken, maxRetries: 0 }).auth.getSession()).status;

/** Asks for a link for the account and returns its token, once the job has mailed it. */
async function mailedToken(ip: string, account: Pick<TestBusiness, 'email'>): Promise<string> {
  const seen = (await resetLinksFor(server(), account.email)).length;
  expect((await forgot(ip, account.email)).status).toBe(202);
  return resetTokenOf(await nextResetLink(server(), account.email, seen));
}

/** Waits until every password reset job asked for so far has been worked. */
async function jobsSettled() {
  await waitFor('password reset jobs', async () => {
    const { rows } = await sql<{ pending: number }>`
      SELECT count(*)::int AS pending FROM pgboss.job
      WHERE name = 'auth.password-reset' AND state NOT IN ('completed', 'failed', 'cancelled')`.execute(
      server().deps.db,
    );
    return rows[0]?.pending === 0;
  });
}

describe('POST /v1/auth/password/forgot', () => {
  it('answers the same 202 for a known and an unknown email, and mails a link only to the known one', async () => {
    const ip = address();
    const owner = await registerBusiness(server());
    const unknown = uniqueEmail('nobody');

    const forUnknown = await forgot(ip, unknown);
    const forKnown = await forgot(ip, owner.email.toUpperCase());
    expect(forKnown.status).toBe(202);
    expect(forUnknown.status).toBe(202);
    expect(forKnown.body).toEqual(forUnknown.body);
    expect(forKnown.body).toEqual({
      result: 'success',
      message: 'If an account exists for that address, a reset link has been mailed to it',
    });

    const link = await nextResetLink(server(), owner.email);
    await jobsSettled();
    expect(await resetLinksFor(server(), unknown)).toEqual([]);
    const mails = await server()
      .deps.db.selectFrom('mail_messages')
      .select(['to_address', 'subject', 'body', 'business_id'])
      .where('to_address', 'in', [owner.email, unknown])
      .execute();
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.subject).toBe('Reset your password');
    expect(mail.business_id).toBe(owner.businessId);
    expect(mail.body).toContain('valid for 1 hour');
    expect(mail.body).toContain('If you did not ask for this, ignore this mail');
    // The token rides in the fragment of the dashboard's reset page: a browser never sends it.
    const url = new URL(link);
    expect(url.pathname).toBe('/app/reset-password');
    expect(url.search).toBe('');
    expect(url.hash).toMatch(/^#token=bms_pwr_[A-Za-z0-9_-]{43}$/);
    // The page it opens is the dashboard's.
    const page = await raw(server(), 'GET', url.pathname);
    expect(page.status).toBe(200);
    expect(String(page.body)).toContain('<div id="app">');
  });

  it('stores the token only as its SHA-256 hash, expiring an hour after the request', async () => {
    server().clock.set('2030-05-06T10:00:00.000Z');
    const owner = await registerBusiness(server());
    const token = await mailedToken(address(), owner);
    const rows = await server().deps.db.selectFrom('password_resets').selectAll().execute();
    const row = rows.find((r) => r.token_hash === hashSecret(token));
    expect(row).toBeDefined();
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(row?.expires_at.toISOString()).toBe('2030-05-06T11:00:00.000Z');
  });

  it('refuses a body that is not exactly an email (422)', async () => {
    const ip = address();
    expectResultError(
      await raw(server(), 'POST', '/v1/auth/password/forgot', {
        ...json({ email: 'not an email' }),
        headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
      }),
      422,
      'VALIDATION_ERROR',
      'email',
    );
    const long = `${'a'.repeat(250)}@example.test`;
    expect((await raw(server(), 'POST', '/v1/auth/password/forgot', json({ email: long }))).status).toBe(422);
    const extra = await raw(server(), 'POST', '/v1/auth/password/forgot', json({ email: 'a@b.test', x: 1 }));
    expect(extra.status).toBe(422);
  });

  it('is throttled per email: the 11th request in a minute for one email is refused (429 with Retry-After)', async () => {
    const owner = await registerBusiness(server());
    for (let i = 0; i < 10; i++) expect((await forgot(address(), owner.email)).status).toBe(202);
    const refused = await raw(server(), 'POST', '/v1/auth/password/forgot', {
      ...json({ email: owner.email }),
      headers: { 'content-type': 'application/json', 'x-forwarded-for': address() },
    });
    expectResultError(refused, 429, 'RATE_LIMITED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
  });

  it('is throttled per address: the 11th request in a minute from one address is refused (429)', async () => {
    const ip = address();
    for (let i = 0; i < 10; i++) expect((await forgot(ip, uniqueEmail('probe'))).status).toBe(202);
    const refused = await raw(server(), 'POST', '/v1/auth/password/forgot', {
      ...json({ email: uniqueEmail('probe') }),
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    });
    expectResultError(refused, 429, 'RATE_LIMITED');
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});

describe('POST /v1/auth/password/reset', () => {
  it('sets the password once: the new one signs in, the old one and a second use of the link do not', async () => {
    const ip = address();
    const owner = await registerBusiness(server());
    const token = await mailedToken(ip, owner);

    const done = await reset(ip, token);
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ result: 'success', message: 'Password changed: sign in with the new one' });

    expect((await signIn(ip, owner.email, NEW_PASSWORD)).status).toBe(200);
    expect((await signIn(ip, owner.email, owner.password)).status).toBe(401);

    const again = await reset(ip, token, 'yet another passphrase');
    expectResultError(again, 422, 'VALIDATION_ERROR', 'token');
    expect(JSON.stringify(again.body)).toContain('ask for a new one');
    expect((await signIn(ip, owner.email, NEW_PASSWORD)).status).toBe(200);
  });

  it('ends every session of the person, in every business and environment (old tokens 401)', async () => {
    const ip = address();
    const owner = await registerBusiness(server(), 'First Ltd');
    const other = await registerBusiness(server(), 'Second Ltd');
    const me = (await unwrap(owner.client.auth.getSession())).data.user!;
    await server()
      .deps.db.insertInto('memberships')
      .values({ business_id: other.businessId, user_id: me.id, role: 'accountant' })
      .execute();
    const inOther = sessionOf(
      (await unwrap(await signIn(ip, owner.email, owner.password, other.businessId))).data,
    );
    const sandbox = sessionOf(
      (
        await unwrap(
          await anonymous(server(), ip).auth.signIn({
            body: {
              email: owner.email,
              password: owner.password,
              environment: 'sandbox',
              businessId: owner.businessId,
            },
          }),
        )
      ).data,
    );
    expect(sandbox.environment).toBe('sandbox');
    for (const t of [owner.accessToken, inOther.accessToken, sandbox.accessToken])
      expect(await statusOf(t)).toBe(200);

    const token = await mailedToken(ip, owner);
    expect((await reset(ip, token)).status).toBe(200);

    for (const t of [owner.accessToken, inOther.accessToken, sandbox.accessToken])
      expect(await statusOf(t)).toBe(401);
    // The other person of the second business keeps their session.
    expect(await statusOf(other.accessToken)).toBe(200);
  });

  it('writes an audit row in each business the person belongs to', async () => {
    const ip = address();
    const owner = await registerBusiness(server(), 'Audited Ltd');
    const other = await registerBusiness(server(), 'Also Audited Ltd');
    const me = (await unwrap(owner.client.auth.getSession())).data.user!;
    await server()
      .deps.db.insertInto('memberships')
      .values({ business_id: other.businessId, user_id: me.id, role: 'admin' })
      .execute();
    const token = await mailedToken(ip, owner);
    expect((await reset(ip, token)).status).toBe(200);

    for (const business of [owner, other]) {
      const signed = sessionOf(
        (await unwrap(await signIn(ip, owner.email, NEW_PASSWORD, business.businessId))).data,
      );
      const client = createClient({
        baseUrl: server().baseUrl,
        accessToken: signed.accessToken,
        maxRetries: 0,
      });
      const { entries } = await unwrap(
        client.auditLog.listAuditLog({ query: { operation: 'resetPassword' } }),
      );
      const entry = entries.find((e) => e.actor.id === me.id);
      expect(entry, business.businessId).toMatchObject({
        actor: { kind: 'user', id: me.id },
        operation: 'resetPassword',
        resource_id: me.id,
      });
    }
  });

  it('refuses an unknown token, and a link more than an hour old (422 on token)', async () => {
    const ip = address();
    expectResultError(await reset(ip, 'bms_pwr_unknown'), 422, 'VALIDATION_ERROR', 'token');
    expectResultError(await reset(ip, 'not-a-reset-token'), 422, 'VALIDATION_ERROR', 'token');

    server().clock.set('2030-05-06T10:00:00.000Z');
    const owner = await registerBusiness(server());
    const token = await mailedToken(ip, owner);
    server().clock.advance(HOUR_MS);
    expectResultError(await reset(ip, token), 422, 'VALIDATION_ERROR', 'token');
    expect((await signIn(ip, owner.email, owner.password)).status).toBe(200);
  });

  it('accepts a link just before its hour is up', async () => {
    const ip = address();
    server().clock.set('2030-05-06T10:00:00.000Z');
    const owner = await registerBusiness(server());
    const token = await mailedToken(ip, owner);
    server().clock.advance(HOUR_MS - 1000);
    expect((await reset(ip, token)).status).toBe(200);
  });

  it('keeps only the newest link: an earlier one no longer works', async () => {
    const ip = address();
    const owner = await registerBusiness(server());
    const first = await mailedToken(ip, owner);
    const second = await mailedToken(ip, owner);
    expectResultError(await reset(ip, first), 422, 'VALIDATION_ERROR', 'token');
    expect((await reset(ip, second)).status).toBe(200);
  });

  it('refuses a password shorter than 12 characters (422 on password) and leaves the link usable', async () => {
    const ip = address();
    const owner = await registerBusiness(server());
    const token = await mailedToken(ip, owner);
    const weak = await reset(ip, token, 'short');
    expectResultError(weak, 422, 'VALIDATION_ERROR', 'password');
    expect(JSON.stringify(weak.body)).toContain('Password must be at least 12 characters');
    expect(
      (await raw(server(), 'POST', '/v1/auth/password/reset', json({ token, password: NEW_PASSWORD, x: 1 })))
        .status,
    ).toBe(422);
    expect((await reset(ip, token)).status).toBe(200);
  });

  it('keeps two-factor sign-in on: the next sign-in still asks for the second factor', async () => {
    const ip = address();
    const owner = await registerBusiness(server());
    await enableTwoFactor(server(), owner.client);
    const token = await mailedToken(ip, owner);
    expect((await reset(ip, token)).status).toBe(200);
    const signed = (await unwrap(await signIn(ip, owner.email, NEW_PASSWORD))).data;
    expect(isSignInChallenge(signed)).toBe(true);
  });

  it('ends the second steps of sign-ins begun with the old password (401 on completing one)', async () => {
    const ip = address();
    const owner = await registerBusiness(server());
    const { secret } = await enableTwoFactor(server(), owner.client);
    const challenge = (await unwrap(await signIn(ip, owner.email, owner.password))).data;
    if (!isSignInChallenge(challenge)) throw new Error('expected a sign-in challenge');
    const token = await mailedToken(ip, owner);
    expect((await reset(ip, token)).status).toBe(200);
    const completed = await anonymous(server(), ip).auth.completeSignIn({
      body: { challengeToken: challenge.challengeToken, code: await totpCode(server(), secret) },
    });
    expectResultError(completed, 401, 'UNAUTHORIZED');
  });

  it('is throttled as sign-in is: after 10 wrong tokens from an address, 429 even with a good one', async () => {
    const ip = address();
    const owner = await registerBusiness(server());
    const token = await mailedToken(address(), owner);
    for (let i = 0; i < 10; i++) expect((await reset(ip, `bms_pwr_wrong${i}`)).status).toBe(422);
    const refused = await raw(server(), 'POST', '/v1/auth/password/reset', {
      ...json({ token, password: NEW_PASSWORD }),
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    });
    expectResultError(refused, 429, 'RATE_LIMITED');
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await reset(address(), token)).status).toBe(200);
  });

  it('lets exactly one of two concurrent uses of a link succeed', async () => {
    const ip = address();
    const owner = await registerBusiness(server());
    const token = await mailedToken(ip, owner);
    const answers = await Promise.all([
      reset(ip, token, 'first concurrent passphrase'),
      reset(ip, token, 'second concurrent passphrase'),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 422]);
    const winner = answers[0].status === 200 ? 'first concurrent passphrase' : 'second concurrent passphrase';
    expect((await signIn(ip, owner.email, winner)).status).toBe(200);
  });
});
