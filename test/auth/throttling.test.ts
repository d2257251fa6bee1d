import { describe, expect, it } from 'vitest';
import { createClient } from '../../client/index.js';
import { registerBusiness, uniqueEmail, type TestBusiness } from '../support/business.js';
import { enableTwoFactor, totpCode } from '../support/two-factor.js';
import { isSignInChallenge, unwrap } from '../../client/index.js';
import type { TestServer } from '../support/server.js';
import { useTestServer } from '../support/setup.js';
import { atLeast, itemAt } from '../support/expect.js';

const PASSWORD = 'correct horse battery staple';
const WRONG = 'definitely not the password';
const MAX_FAILURES = 10;

/** An anonymous client; `ip` is sent as X-Forwarded-For (honoured only with TRUST_PROXY). */
const anonymous = (s: TestServer, ip?: string) =>
  createClient({
    baseUrl: s.baseUrl,
    maxRetries: 0,
    headers: ip ? { 'x-forwarded-for': ip } : {},
  });

const signIn = (s: TestServer, email: string, password: string, ip?: string) =>
  anonymous(s, ip).auth.signIn({ body: { email, password } });

const register = (s: TestServer, ip?: string) =>
  anonymous(s, ip).auth.register({
    body: { businessName: 'Throttled Ltd', email: uniqueEmail('reg'), password: PASSWORD },
  });

/** A 429 in the result envelope with a Retry-After of at most the one-minute window. */
function expectRateLimited(res: { status: number; headers: Headers; body: unknown }) {
  expect(res.status).toBe(429);
  expect(res.body).toMatchObject({ result: 'error', error: { code: 'RATE_LIMITED', status: 429 } });
  expect(JSON.stringify(res.body)).not.toContain('accessToken');
  const retryAfter = res.headers.get('retry-after');
  expect(retryAfter).toMatch(/^\d+$/);
  expect(Number(retryAfter)).toBeGreaterThan(0);
  expect(Number(retryAfter)).toBeLessThanOrEqual(60);
}

async function failSignIn(s: TestServer, email: string, ip?: string) {
  const res = await signIn(s, email, WRONG, ip);
  expect(res.status, `failed sign-in for ${email}`).toBe(401);
}

describe('sign-in throttling per email', () => {
  const server = useTestServer();

  it('refuses every attempt, even with the right password, after 10 failures in a minute (429)', async () => {
    const biz = await registerBusiness(server());

    for (let i = 0; i < MAX_FAILURES - 1; i++) await failSignIn(server(), biz.email);
    // Nine failures are not yet enough.
    expect((await signIn(server(), biz.email, biz.password)).status).toBe(200);

    await failSignIn(server(), biz.email);
    expectRateLimited(await signIn(server(), biz.email, biz.password));
    expectRateLimited(await signIn(server(), biz.email, WRONG));

    // Only sign-in is throttled: the token already issued keeps working.
    expect((await biz.client.general.customers.listCustomers({ query: {} })).status).toBe(200);
  });
});

describe('second-factor codes are throttled as passwords are', () => {
  const server = useTestServer();

  it('counts wrong codes against the address and the email: after 10, even the right code and password get 429', async () => {
    const biz = await registerBusiness(server());
    const { secret } = await enableTwoFactor(server(), biz.client);
    const challenges: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { data } = await unwrap(signIn(server(), biz.email, biz.password));
      if (!isSignInChallenge(data)) throw new Error('expected a challenge');
      challenges.push(data.challengeToken);
    }
    server().clock.advance(30_000);
    const right = await totpCode(server(), secret);
    const wrong = right === '000000' ? '111111' : '000000';
    // Five wrong codes spend a challenge; ten in all reach the limit.
    for (let i = 0; i < MAX_FAILURES; i++) {
      const res = await anonymous(server()).auth.completeSignIn({
        body: { challengeToken: itemAt(challenges, Math.floor(i / 5)), code: wrong },
      });
      expect(res.status, `wrong code ${i + 1}`).toBe(401);
    }
    expectRateLimited(
      await anonymous(server()).auth.completeSignIn({
        body: { challengeToken: itemAt(challenges, 2), code: right },
      }),
    );
    expectRateLimited(await signIn(server(), biz.email, biz.password));
  });
});

describe('sign-in throttling per IP', () => {
  const server = useTestServer();

  it('counts failures for different emails from one IP, then refuses yet another email (429)', async () => {
    const victims: TestBusiness[] = [];
    for (let i = 0; i < 3; i++) victims.push(await registerBusiness(server()));
    const target = await registerBusiness(server());
    const emails = [...victims.map((v) => v.email), uniqueEmail('unknown'), uniqueEmail('unknown')];

    // 10 failures spread over 5 emails: no single email reaches the limit.
    for (let i = 0; i < MAX_FAILURES; i++) await failSignIn(server(), itemAt(emails, i % emails.length));

    expectRateLimited(await signIn(server(), target.email, target.password));
    const [victim] = atLeast(victims, 1);
    expectRateLimited(await signIn(server(), victim.email, victim.password));
  });
});

describe('sign-in throttling keeps IP and email counters apart', () => {
  const server = useTestServer({ env: { TRUST_PROXY: 'loopback' } });

  it('blocks an email failed from 10 different IPs, but not other emails from those IPs', async () => {
    const target = await registerBusiness(server());
    const bystander = await registerBusiness(server());

    for (let i = 1; i <= MAX_FAILURES; i++) await failSignIn(server(), target.email, `203.0.113.${i}`);

    expectRateLimited(await signIn(server(), target.email, target.password, '203.0.113.200'));
    // The email counter ignores letter case.
    expectRateLimited(await signIn(server(), target.email.toUpperCase(), target.password, '203.0.113.201'));
    expect((await signIn(server(), bystander.email, bystander.password, '203.0.113.1')).status).toBe(200);
  });

  it('blocks an IP after 10 failures, but not the same email from another IP', async () => {
    const target = await registerBusiness(server());
    const emails = [uniqueEmail('a'), uniqueEmail('b'), uniqueEmail('c')];

    for (let i = 0; i < MAX_FAILURES; i++)
      await failSignIn(server(), itemAt(emails, i % emails.length), '198.51.100.7');

    expectRateLimited(await signIn(server(), target.email, target.password, '198.51.100.7'));
    expect((await signIn(server(), target.email, target.password, '198.51.100.8')).status).toBe(200);
  });
});

describe('register throttling per IP', () => {
  const server = useTestServer({ env: { REGISTER_RATE_LIMIT: '10', TRUST_PROXY: 'loopback' } });

  it('accepts 10 registrations in a minute and refuses the 11th (429)', async () => {
    for (let i = 0; i < 10; i++) {
      const res = await register(server());
      expect(res.status, `registration ${i + 1}`).toBe(201);
    }
    const refused = await register(server());
    expectRateLimited(refused);

    const businesses = await server().deps.db.selectFrom('businesses').select('id').execute();
    expect(businesses).toHaveLength(10);
  });

  it('still accepts registrations from another IP', async () => {
    expect((await register(server(), '192.0.2.44')).status).toBe(201);
  });
});
