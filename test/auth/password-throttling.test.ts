import { describe, expect, it } from 'vitest';
import { createClient } from '../../client/index.js';
import { registerBusiness, type TestBusiness } from '../support/business.js';
import { expectResultError } from '../support/expect.js';
import { useTestServer } from '../support/setup.js';

/**
 * A wrong current password on `POST /v1/auth/password` counts as a failed sign-in of the address and
 * of the email. Its own server: the blocks it reaches would refuse other files' requests, which all
 * come from one address. Addresses are told apart with X-Forwarded-For (TRUST_PROXY).
 */
const MAX_FAILURES = 3;
const server = useTestServer({
  worker: false,
  env: { SIGNIN_MAX_FAILURES: String(MAX_FAILURES), TRUST_PROXY: 'loopback' },
});

const WRONG = 'not the current password';
const NEW_PASSWORD = 'a brand new passphrase';

/** The client of `accessToken` (or none) whose requests come from `ip`. */
const from = (ip: string, accessToken?: string) =>
  createClient({
    baseUrl: server().baseUrl,
    maxRetries: 0,
    headers: { 'x-forwarded-for': ip },
    ...(accessToken === undefined ? {} : { accessToken }),
  });

const changePassword = (biz: TestBusiness, ip: string, currentPassword: string) =>
  from(ip, biz.accessToken).auth.changePassword({ body: { currentPassword, newPassword: NEW_PASSWORD } });

const signIn = (biz: TestBusiness, ip: string) =>
  from(ip).auth.signIn({ body: { email: biz.email, password: biz.password } });

async function failChanges(biz: TestBusiness, ip: string) {
  for (let i = 0; i < MAX_FAILURES; i++) {
    expectResultError(await changePassword(biz, ip, WRONG), 422, 'VALIDATION_ERROR', 'currentPassword');
  }
}

/** A 429 in the result envelope with a Retry-After within the one-minute window. */
function expectRateLimited(res: { status: number; headers: Headers; body: unknown }) {
  expectResultError(res, 429, 'RATE_LIMITED');
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(60);
}

const passwordHashOf = async (biz: TestBusiness) =>
  (
    await server()
      .deps.db.selectFrom('users')
      .select('password_hash')
      .where('email', '=', biz.email)
      .executeTakeFirstOrThrow()
  ).password_hash;

describe('POST /v1/auth/password throttling', () => {
  it('refuses every change from an address after 3 wrong current passwords (429), even the right one; the token keeps working', async () => {
    const biz = await registerBusiness(server());
    const neighbour = await registerBusiness(server());
    const hash = await passwordHashOf(biz);

    await failChanges(biz, '203.0.113.10');

    expectRateLimited(await changePassword(biz, '203.0.113.10', biz.password));
    // The block is the address's: another person's change from it is refused too.
    expectRateLimited(await changePassword(neighbour, '203.0.113.10', neighbour.password));
    expect(await passwordHashOf(biz)).toBe(hash);
    expect((await from('203.0.113.10', biz.accessToken).auth.getSession()).status).toBe(200);

    // Another address is not blocked by it.
    expect((await changePassword(neighbour, '203.0.113.11', neighbour.password)).status).toBe(200);
  });

  it("counts the failures against the person's email: sign-in with it is refused from any address (429)", async () => {
    const biz = await registerBusiness(server());
    const bystander = await registerBusiness(server());

    await failChanges(biz, '198.51.100.20');

    expectRateLimited(await signIn(biz, '198.51.100.21'));
    expect((await signIn(bystander, '198.51.100.21')).status).toBe(200);
  });

  it("refuses a change from a fresh address once the person's email is over the limit (429): rotating addresses does not help", async () => {
    const biz = await registerBusiness(server());
    const hash = await passwordHashOf(biz);
    for (let i = 0; i < MAX_FAILURES; i++) {
      expectResultError(
        await changePassword(biz, `192.0.2.${30 + i}`, WRONG),
        422,
        'VALIDATION_ERROR',
        'currentPassword',
      );
    }
    expectRateLimited(await changePassword(biz, '192.0.2.99', biz.password));
    expect(await passwordHashOf(biz)).toBe(hash);
  });

  it('counts a wrong password when setting up two-factor sign-in: after 3, even the right one gets 429 and nothing is set up', async () => {
    const biz = await registerBusiness(server());
    const start = (ip: string, password: string) =>
      from(ip, biz.accessToken).auth.startTwoFactorEnrolment({ body: { password } });
    for (let i = 0; i < MAX_FAILURES; i++) {
      expectResultError(await start(`192.0.2.${60 + i}`, WRONG), 422, 'VALIDATION_ERROR', 'password');
    }
    // Counted against the person's email: a fresh address does not help.
    expectRateLimited(await start('192.0.2.99', biz.password));
    expectRateLimited(await signIn(biz, '192.0.2.98'));
    const row = await server()
      .deps.db.selectFrom('users')
      .select('totp_pending_secret')
      .where('email', '=', biz.email)
      .executeTakeFirstOrThrow();
    expect(row.totp_pending_secret).toBeNull();
  });
});
