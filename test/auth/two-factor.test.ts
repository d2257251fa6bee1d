import { describe, expect, it } from 'vitest';
import {
  createClient,
  isSignInChallenge,
  sessionOf,
  unwrap,
  type auth,
  type Client,
} from '../../client/index.js';
import { json, raw, registerBusiness, signedInMember, type TestBusiness } from '../support/business.js';
import { expectResultError, itemAt } from '../support/expect.js';
import { useTestServer } from '../support/setup.js';
import { enableTwoFactor, totpCode } from '../support/two-factor.js';

// Wrong codes count as failed sign-ins; this file makes many on purpose (throttling is tested in
// throttling.test.ts).
const server = useTestServer({ env: { SIGNIN_MAX_FAILURES: '1000' } });

const STEP_MS = 30_000;
const anonymous = () => createClient({ baseUrl: server().baseUrl, maxRetries: 0 });
const tokenClient = (accessToken: string): Client =>
  createClient({ baseUrl: server().baseUrl, accessToken, maxRetries: 0 });

/** Signs in with the password: the challenge of the second step (two-factor on). */
async function challengeOf(biz: Pick<TestBusiness, 'email' | 'password'>): Promise<auth.SignInChallenge> {
  const { data } = await unwrap(
    anonymous().auth.signIn({ body: { email: biz.email, password: biz.password } }),
  );
  if (!isSignInChallenge(data)) throw new Error('expected a challenge, got an access token');
  return data;
}

const complete = (challengeToken: string, code: string) =>
  anonymous().auth.completeSignIn({ body: { challengeToken, code } });

/** The next step's code: the one confirming or signing in last used up the current step. */
async function nextCode(secret: string): Promise<string> {
  server().clock.advance(STEP_MS);
  return totpCode(server(), secret);
}

/** The enrolment started and not yet confirmed, as stored (sealed), or null. */
const pendingSecretOf = async (biz: TestBusiness) =>
  (
    await server()
      .deps.db.selectFrom('users')
      .select('totp_pending_secret')
      .where('email', '=', biz.email)
      .executeTakeFirstOrThrow()
  ).totp_pending_secret;

async function withTwoFactor() {
  const biz = await registerBusiness(server());
  const on = await enableTwoFactor(server(), biz.client);
  return { biz, ...on };
}

describe('enrolment', () => {
  it('answers a base32 secret, its otpauth URI (issuer, email, SHA-1, 6 digits, 30 s) and the URI as an SVG QR code; nothing changes for signing in until confirmed', async () => {
    const biz = await registerBusiness(server());
    const { data } = await unwrap(
      biz.client.auth.startTwoFactorEnrolment({ body: { password: biz.password } }),
    );
    expect(data.secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(data.otpauthUri);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe(`/Business Management Service:${biz.email}`);
    expect(uri.searchParams.get('secret')).toBe(data.secret);
    expect(uri.searchParams.get('issuer')).toBe('Business Management Service');
    expect(data.qrCode.startsWith('data:image/svg+xml;base64,')).toBe(true);
    const svg = Buffer.from(data.qrCode.slice('data:image/svg+xml;base64,'.length), 'base64').toString(
      'utf8',
    );
    expect(svg).toMatch(/^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toContain('<path');

    expect((await unwrap(biz.client.auth.getTwoFactor())).data).toEqual({
      enabled: false,
      enabledAt: null,
      recoveryCodesRemaining: 0,
      required: false,
    });
    const signedIn = (
      await unwrap(anonymous().auth.signIn({ body: { email: biz.email, password: biz.password } }))
    ).data;
    expect(isSignInChallenge(signedIn)).toBe(false);
  });

  it('stores the secret sealed, never as given', async () => {
    const biz = await registerBusiness(server());
    const { data } = await unwrap(
      biz.client.auth.startTwoFactorEnrolment({ body: { password: biz.password } }),
    );
    await unwrap(
      biz.client.auth.confirmTwoFactor({
        body: { password: biz.password, code: await totpCode(server(), data.secret) },
      }),
    );
    const row = await server()
      .deps.db.selectFrom('users')
      .select(['totp_secret', 'totp_pending_secret'])
      .where('email', '=', biz.email)
      .executeTakeFirstOrThrow();
    expect(row.totp_pending_secret).toBeNull();
    expect(row.totp_secret).toMatch(/^v1\./);
    expect(row.totp_secret).not.toContain(data.secret);
    expect(server().deps.secrets.open(row.totp_secret!)).toBe(data.secret);
  });

  it('refuses a wrong code with 422 on code and stays off; the right one turns it on and answers ten distinct recovery codes, stored only as hashes', async () => {
    const biz = await registerBusiness(server());
    const { secret } = (
      await unwrap(biz.client.auth.startTwoFactorEnrolment({ body: { password: biz.password } }))
    ).data;
    const right = await totpCode(server(), secret);
    const wrong = right === '000000' ? '111111' : '000000';
    expectResultError(
      await biz.client.auth.confirmTwoFactor({ body: { password: biz.password, code: wrong } }),
      422,
      'VALIDATION_ERROR',
      'code',
    );
    expect((await unwrap(biz.client.auth.getTwoFactor())).data.enabled).toBe(false);

    const before = server().clock.now();
    const { recoveryCodes } = (
      await unwrap(biz.client.auth.confirmTwoFactor({ body: { password: biz.password, code: right } }))
    ).data;
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);

    const status = (await unwrap(biz.client.auth.getTwoFactor())).data;
    expect(status).toMatchObject({ enabled: true, recoveryCodesRemaining: 10, required: false });
    expect(Date.parse(status.enabledAt!)).toBeGreaterThanOrEqual(before.getTime() - 1000);

    const stored = await server()
      .deps.db.selectFrom('user_recovery_codes')
      .innerJoin('users', 'users.id', 'user_recovery_codes.user_id')
      .select('code_hash')
      .where('users.email', '=', biz.email)
      .execute();
    expect(stored).toHaveLength(10);
    const text = JSON.stringify(stored);
    for (const code of recoveryCodes) {
      expect(text).not.toContain(code);
      expect(text).not.toContain(code.replace(/-/g, ''));
    }
  });

  it('refuses to confirm with no enrolment started, and to start or confirm again once on (409 INVALID_STATE)', async () => {
    const biz = await registerBusiness(server());
    expectResultError(
      await biz.client.auth.confirmTwoFactor({ body: { password: biz.password, code: '123456' } }),
      409,
      'INVALID_STATE',
    );
    const { secret } = await enableTwoFactor(server(), biz.client);
    expectResultError(
      await biz.client.auth.startTwoFactorEnrolment({ body: { password: biz.password } }),
      409,
      'INVALID_STATE',
    );
    expectResultError(
      await biz.client.auth.confirmTwoFactor({
        body: { password: biz.password, code: await nextCode(secret) },
      }),
      409,
      'INVALID_STATE',
    );
  });

  it('starting again replaces the secret: a code of the first one no longer confirms', async () => {
    const biz = await registerBusiness(server());
    const first = (
      await unwrap(biz.client.auth.startTwoFactorEnrolment({ body: { password: biz.password } }))
    ).data.secret;
    const second = (
      await unwrap(biz.client.auth.startTwoFactorEnrolment({ body: { password: biz.password } }))
    ).data.secret;
    expect(second).not.toBe(first);
    expectResultError(
      await biz.client.auth.confirmTwoFactor({
        body: { password: biz.password, code: await totpCode(server(), first) },
      }),
      422,
      'VALIDATION_ERROR',
      'code',
    );
    await unwrap(
      biz.client.auth.confirmTwoFactor({
        body: { password: biz.password, code: await totpCode(server(), second) },
      }),
    );
  });

  it('asks for the current password to start: missing or wrong is 422 on password, and no secret is made', async () => {
    const biz = await registerBusiness(server());
    const missing = await raw(server(), 'POST', '/v1/auth/two-factor/enrolment', {
      ...json({}),
      token: biz.accessToken,
    });
    expect(missing.status).toBe(422);
    expect(missing.body).toMatchObject({ result: 'error', error: { code: 'VALIDATION_ERROR' } });
    expect(JSON.stringify(missing.body.error.details)).toContain('password');
    const wrong = await biz.client.auth.startTwoFactorEnrolment({ body: { password: 'not the password' } });
    expectResultError(wrong, 422, 'VALIDATION_ERROR', 'password');
    expect((wrong.body as { error: { message: string } }).error.message).toBe('Incorrect password');
    expect(JSON.stringify(wrong.body)).not.toContain('otpauth');
    expect(await pendingSecretOf(biz)).toBeNull();

    await unwrap(biz.client.auth.startTwoFactorEnrolment({ body: { password: biz.password } }));
    expect(await pendingSecretOf(biz)).not.toBeNull();
  });

  it('asks for the current password again to confirm: missing or wrong is 422 on password, and it stays off', async () => {
    const biz = await registerBusiness(server());
    const { secret } = (
      await unwrap(biz.client.auth.startTwoFactorEnrolment({ body: { password: biz.password } }))
    ).data;
    const code = await totpCode(server(), secret);
    const missing = await raw(server(), 'POST', '/v1/auth/two-factor/confirm', {
      ...json({ code }),
      token: biz.accessToken,
    });
    expect(missing.status).toBe(422);
    expect(JSON.stringify(missing.body.error.details)).toContain('password');
    expectResultError(
      await biz.client.auth.confirmTwoFactor({ body: { password: 'not the password', code } }),
      422,
      'VALIDATION_ERROR',
      'password',
    );
    expect((await unwrap(biz.client.auth.getTwoFactor())).data.enabled).toBe(false);
    await unwrap(biz.client.auth.confirmTwoFactor({ body: { password: biz.password, code } }));
    expect((await unwrap(biz.client.auth.getTwoFactor())).data.enabled).toBe(true);
  });

  it('refuses an API key (403): two-factor sign-in belongs to a person', async () => {
    const biz = await registerBusiness(server());
    const key = (await unwrap(biz.client.auth.createApiKey({ body: { name: 'Backend', scope: 'full' } })))
      .data.key;
    const keyClient = createClient({ baseUrl: server().baseUrl, accessToken: key, maxRetries: 0 });
    expectResultError(
      await keyClient.auth.startTwoFactorEnrolment({ body: { password: biz.password } }),
      403,
      'FORBIDDEN',
    );
    expectResultError(await keyClient.auth.getTwoFactor(), 403, 'FORBIDDEN');
  });
});

describe('signing in in two steps', () => {
  it('answers the password with a challenge and no token; the code then gives a working access token', async () => {
    const { biz, secret } = await withTwoFactor();
    const challenge = await challengeOf(biz);
    expect(challenge.challengeToken).toMatch(/^bms_ch_/);
    expect(challenge.methods).toEqual(['totp', 'recovery_code']);
    expect(Date.parse(challenge.expiresAt) - server().clock.now().getTime()).toBeLessThanOrEqual(5 * 60_000);
    expect(JSON.stringify(challenge)).not.toContain('bms_at_');

    const session = (await unwrap(complete(challenge.challengeToken, await nextCode(secret)))).data;
    expect(session).toMatchObject({ businessId: biz.businessId, tokenType: 'Bearer', environment: 'live' });
    const me = (await unwrap(tokenClient(session.accessToken).auth.getSession())).data;
    expect(me.twoFactor).toEqual({ enabled: true, required: false });
  });

  it('answers a challenge once: a second answer, even with a fresh code, is 401', async () => {
    const { biz, secret } = await withTwoFactor();
    const challenge = await challengeOf(biz);
    await unwrap(complete(challenge.challengeToken, await nextCode(secret)));
    expectResultError(await complete(challenge.challengeToken, await nextCode(secret)), 401, 'UNAUTHORIZED');
  });

  it('refuses a code used already, even within its step, for another challenge (401)', async () => {
    const { biz, secret } = await withTwoFactor();
    const code = await nextCode(secret);
    await unwrap(complete((await challengeOf(biz)).challengeToken, code));
    const again = await complete((await challengeOf(biz)).challengeToken, code);
    expectResultError(again, 401, 'UNAUTHORIZED');
    expect((again.body as { error: { message: string } }).error.message).toMatch(/used already/);
  });

  it('lets one of two concurrent sign-ins with the same code or recovery code through, never both', async () => {
    const { biz, secret, recoveryCodes } = await withTwoFactor();
    const code = await nextCode(secret);
    for (const given of [code, itemAt(recoveryCodes, 0)]) {
      const [a, b] = [await challengeOf(biz), await challengeOf(biz)];
      const answers = await Promise.all([
        complete(a.challengeToken, given),
        complete(b.challengeToken, given),
      ]);
      expect(answers.map((r) => r.status).sort()).toEqual([200, 401]);
    }
  });

  it('refuses the code that confirmed the enrolment (its step is used)', async () => {
    const biz = await registerBusiness(server());
    const { secret } = (
      await unwrap(biz.client.auth.startTwoFactorEnrolment({ body: { password: biz.password } }))
    ).data;
    const code = await totpCode(server(), secret);
    await unwrap(biz.client.auth.confirmTwoFactor({ body: { password: biz.password, code } }));
    expectResultError(await complete((await challengeOf(biz)).challengeToken, code), 401, 'UNAUTHORIZED');
  });

  it('accepts the step before and after the current one, and refuses two steps either way (window edges on the test clock)', async () => {
    const { biz, secret } = await withTwoFactor();
    // Start at the beginning of a step far from the confirmation's, so each case has its own step.
    const now = server().clock.now().getTime();
    server().clock.set(new Date((Math.floor(now / STEP_MS) + 10) * STEP_MS).toISOString());

    const at = async (steps: number) =>
      complete((await challengeOf(biz)).challengeToken, await totpCode(server(), secret, steps));
    expectResultError(await at(-2), 401, 'UNAUTHORIZED');
    expectResultError(await at(2), 401, 'UNAUTHORIZED');
    // The step before (a code typed as it changed), then the current one, then the next (a fast clock).
    expect((await at(-1)).status).toBe(200);
    expect((await at(0)).status).toBe(200);
    expect((await at(1)).status).toBe(200);
    // Each step is used now: the current and the previous are refused, even within the window.
    expectResultError(await at(0), 401, 'UNAUTHORIZED');
    expectResultError(await at(-1), 401, 'UNAUTHORIZED');

    // 29 s into a step the previous step's code is still taken; 61 s later it is two steps old.
    server().clock.advance(3 * STEP_MS + 29_000);
    expect((await at(-1)).status).toBe(200);
    server().clock.advance(STEP_MS + 2_000);
    expectResultError(await at(-2), 401, 'UNAUTHORIZED');
  });

  it('spends a challenge after 5 wrong codes: the right code then gets 401, and a new sign-in works', async () => {
    const { biz, secret } = await withTwoFactor();
    const challenge = await challengeOf(biz);
    const right = await nextCode(secret);
    const wrong = right === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++)
      expectResultError(await complete(challenge.challengeToken, wrong), 401, 'UNAUTHORIZED');
    const spent = await complete(challenge.challengeToken, right);
    expectResultError(spent, 401, 'UNAUTHORIZED');
    expect((spent.body as { error: { message: string } }).error.message).toMatch(/sign in again/);
    expect((await complete((await challengeOf(biz)).challengeToken, right)).status).toBe(200);
  });

  it('lets a challenge expire after 5 minutes on the test clock (401)', async () => {
    const { biz, secret } = await withTwoFactor();
    const challenge = await challengeOf(biz);
    server().clock.advance(5 * 60_000 + 1_000);
    expectResultError(
      await complete(challenge.challengeToken, await totpCode(server(), secret)),
      401,
      'UNAUTHORIZED',
    );
  });

  it('refuses an unknown or malformed challenge token (401) and a code of the wrong shape (422)', async () => {
    expectResultError(await complete('bms_ch_nothing', '123456'), 401, 'UNAUTHORIZED');
    expectResultError(await complete('not a challenge', '123456'), 401, 'UNAUTHORIZED');
    expectResultError(await complete('bms_ch_x', '123'), 422, 'VALIDATION_ERROR', 'code');
  });

  it('signs in in one step with the code in the body; a wrong code there is 401 and gives no challenge', async () => {
    const { biz, secret } = await withTwoFactor();
    const body = { email: biz.email, password: biz.password };
    const wrong = await anonymous().auth.signIn({ body: { ...body, code: '000000' } });
    expectResultError(wrong, 401, 'UNAUTHORIZED');
    expect(JSON.stringify(wrong.body)).not.toContain('bms_ch_');
    const session = sessionOf(
      (await unwrap(anonymous().auth.signIn({ body: { ...body, code: await nextCode(secret) } }))).data,
    );
    expect(session.businessId).toBe(biz.businessId);
  });

  it('asks a wrong password for no code: 401 without a challenge', async () => {
    const { biz } = await withTwoFactor();
    const res = await anonymous().auth.signIn({
      body: { email: biz.email, password: 'not the password at all' },
    });
    expectResultError(res, 401, 'UNAUTHORIZED');
    expect(JSON.stringify(res.body)).not.toContain('challenge');
  });

  it('signs in to the sandbox through the challenge too', async () => {
    const { biz, secret } = await withTwoFactor();
    const { data } = await unwrap(
      anonymous().auth.signIn({ body: { email: biz.email, password: biz.password, environment: 'sandbox' } }),
    );
    if (!isSignInChallenge(data)) throw new Error('expected a challenge');
    const session = (await unwrap(complete(data.challengeToken, await nextCode(secret)))).data;
    expect(session.environment).toBe('sandbox');
    expect(session.businessId).not.toBe(biz.businessId);
  });
});

describe('recovery codes', () => {
  it('sign in once each, whatever the case, spaces or dashes; a used one is refused and the count goes down', async () => {
    const { biz, recoveryCodes } = await withTwoFactor();
    const code = itemAt(recoveryCodes, 3);
    const typed = ` ${code.toUpperCase().replace(/-/g, ' ')} `;
    const session = (await unwrap(complete((await challengeOf(biz)).challengeToken, typed))).data;
    expect(session.businessId).toBe(biz.businessId);
    expectResultError(await complete((await challengeOf(biz)).challengeToken, code), 401, 'UNAUTHORIZED');
    expect((await unwrap(biz.client.auth.getTwoFactor())).data.recoveryCodesRemaining).toBe(9);
  });

  it("are the person's own: another person's code is refused", async () => {
    const first = await withTwoFactor();
    const second = await withTwoFactor();
    expectResultError(
      await complete((await challengeOf(first.biz)).challengeToken, itemAt(second.recoveryCodes, 0)),
      401,
      'UNAUTHORIZED',
    );
  });

  it('are replaced all at once given an app code: the old ones stop working, the new ones work (wrong code: 422)', async () => {
    const { biz, secret, recoveryCodes } = await withTwoFactor();
    expectResultError(
      await biz.client.auth.regenerateRecoveryCodes({ body: { code: '000000' } }),
      422,
      'VALIDATION_ERROR',
      'code',
    );
    const fresh = (
      await unwrap(biz.client.auth.regenerateRecoveryCodes({ body: { code: await nextCode(secret) } }))
    ).data.recoveryCodes;
    expect(fresh).toHaveLength(10);
    expect(fresh.some((c) => recoveryCodes.includes(c))).toBe(false);
    expectResultError(
      await complete((await challengeOf(biz)).challengeToken, itemAt(recoveryCodes, 0)),
      401,
      'UNAUTHORIZED',
    );
    expect((await complete((await challengeOf(biz)).challengeToken, itemAt(fresh, 0))).status).toBe(200);
  });

  it('cannot be made while two-factor sign-in is off (409)', async () => {
    const biz = await registerBusiness(server());
    expectResultError(
      await biz.client.auth.regenerateRecoveryCodes({ body: { code: '123456' } }),
      409,
      'INVALID_STATE',
    );
  });
});

describe('turning it off', () => {
  it('needs the password and a code (422 on the wrong one); then sign-in is one step again and the recovery codes are gone', async () => {
    const { biz, secret, recoveryCodes } = await withTwoFactor();
    expectResultError(
      await biz.client.auth.disableTwoFactor({
        body: { password: 'not the password', code: itemAt(recoveryCodes, 0) },
      }),
      422,
      'VALIDATION_ERROR',
      'password',
    );
    expectResultError(
      await biz.client.auth.disableTwoFactor({ body: { password: biz.password, code: '000000' } }),
      422,
      'VALIDATION_ERROR',
      'code',
    );
    expect((await unwrap(biz.client.auth.getTwoFactor())).data.enabled).toBe(true);

    const status = (
      await unwrap(
        biz.client.auth.disableTwoFactor({ body: { password: biz.password, code: await nextCode(secret) } }),
      )
    ).data;
    expect(status).toEqual({ enabled: false, enabledAt: null, recoveryCodesRemaining: 0, required: false });
    const signedIn = (
      await unwrap(anonymous().auth.signIn({ body: { email: biz.email, password: biz.password } }))
    ).data;
    expect(isSignInChallenge(signedIn)).toBe(false);
    const left = await server()
      .deps.db.selectFrom('user_recovery_codes')
      .innerJoin('users', 'users.id', 'user_recovery_codes.user_id')
      .select('code_hash')
      .where('users.email', '=', biz.email)
      .execute();
    expect(left).toEqual([]);
  });

  it('is refused while it is off (409)', async () => {
    const biz = await registerBusiness(server());
    expectResultError(
      await biz.client.auth.disableTwoFactor({ body: { password: biz.password, code: '123456' } }),
      409,
      'INVALID_STATE',
    );
  });
});

describe('a business that requires it', () => {
  it('is set by an owner with their own on: an admin gets 403, an owner without it 409', async () => {
    const owner = await registerBusiness(server());
    const admin = tokenClient((await signedInMember(server(), owner, 'admin')).accessToken);
    expectResultError(
      await admin.auth.updateBusiness({ body: { require_two_factor: true } }),
      403,
      'FORBIDDEN',
      'require_two_factor',
    );
    const refused = await owner.client.auth.updateBusiness({ body: { require_two_factor: true } });
    expectResultError(refused, 409, 'INVALID_STATE');
    expect((refused.body as { error: { message: string } }).error.message).toMatch(/yourself first/);
    expect((await unwrap(owner.client.auth.getBusiness())).data.require_two_factor).toBe(false);

    await enableTwoFactor(server(), owner.client);
    const { data } = await unwrap(owner.client.auth.updateBusiness({ body: { require_two_factor: true } }));
    expect(data.require_two_factor).toBe(true);
  });

  it('lets a member without it reach only their own account until they turn it on; then everything their role allows', async () => {
    const owner = await registerBusiness(server());
    await enableTwoFactor(server(), owner.client);
    await unwrap(owner.client.auth.updateBusiness({ body: { require_two_factor: true } }));

    const member = await signedInMember(server(), owner, 'accountant');
    const client = tokenClient(member.accessToken);
    const refused = await client.general.customers.listCustomers({ query: {} });
    expect(refused.status).toBe(403);
    expect(JSON.stringify(refused.body)).toMatch(/requires two-factor sign-in/);
    expect((await unwrap(client.auth.getSession())).data.twoFactor).toEqual({
      enabled: false,
      required: true,
    });
    expect((await unwrap(client.auth.getTwoFactor())).data).toMatchObject({ enabled: false, required: true });
    expect((await client.auth.listSessions()).status).toBe(200);

    await enableTwoFactor(server(), client);
    expect((await client.general.customers.listCustomers({ query: {} })).status).toBe(200);
    expect((await unwrap(client.auth.getSession())).data.twoFactor).toEqual({
      enabled: true,
      required: true,
    });
  });

  it('keeps a member from turning theirs off (409 naming the business) until the owner lifts it', async () => {
    const owner = await registerBusiness(server(), 'Strict Ltd');
    await enableTwoFactor(server(), owner.client);
    await unwrap(owner.client.auth.updateBusiness({ body: { require_two_factor: true } }));
    const member = tokenClient((await signedInMember(server(), owner, 'viewer')).accessToken);
    const { recoveryCodes } = await enableTwoFactor(server(), member);
    const password = 'correct horse battery staple';

    const refused = await member.auth.disableTwoFactor({
      body: { password, code: itemAt(recoveryCodes, 0) },
    });
    expectResultError(refused, 409, 'INVALID_STATE');
    expect((refused.body as { error: { message: string } }).error.message).toContain('Strict Ltd');

    await unwrap(owner.client.auth.updateBusiness({ body: { require_two_factor: false } }));
    await unwrap(member.auth.disableTwoFactor({ body: { password, code: itemAt(recoveryCodes, 1) } }));
    expect((await unwrap(member.auth.getTwoFactor())).data.enabled).toBe(false);
  });

  it('holds in the sandbox too, set once on the live business', async () => {
    const owner = await registerBusiness(server());
    await enableTwoFactor(server(), owner.client);
    await unwrap(owner.client.auth.updateBusiness({ body: { require_two_factor: true } }));
    const sandbox = (await unwrap(owner.client.auth.switchEnvironment({ body: { environment: 'sandbox' } })))
      .data;
    const sandboxClient = tokenClient(sandbox.accessToken);
    expect((await unwrap(sandboxClient.auth.getBusiness())).data.require_two_factor).toBe(true);
    expect((await unwrap(sandboxClient.auth.getSession())).data.twoFactor).toEqual({
      enabled: true,
      required: true,
    });
  });
});

describe('invitations', () => {
  it('answers a person who has two-factor sign-in on with the challenge, not a token', async () => {
    const inviter = await registerBusiness(server(), 'Inviting Ltd');
    const { biz: person, secret } = await withTwoFactor();
    await unwrap(inviter.client.team.inviteMember({ body: { email: person.email, role: 'viewer' } }));
    const mail = await server()
      .deps.db.selectFrom('mail_messages')
      .select('body')
      .where('to_address', '=', person.email)
      .executeTakeFirstOrThrow();
    const token = /bms_inv_[A-Za-z0-9_-]+/.exec(mail.body)?.[0];
    if (!token) throw new Error('no invitation token in the mail');
    const { data } = await unwrap(
      anonymous().auth.acceptInvitation({ body: { token, password: person.password } }),
    );
    if (!isSignInChallenge(data)) throw new Error('expected a challenge');
    const session = (await unwrap(complete(data.challengeToken, await nextCode(secret)))).data;
    expect(session.businessId).toBe(inviter.businessId);
  });
});
