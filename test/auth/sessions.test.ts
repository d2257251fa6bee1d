import { afterEach, describe, expect, it } from 'vitest';
import { createClient, unwrap, sessionOf, type Client } from '../../client/index.js';
import type { AccessSession } from '../../contract/auth/index.js';
import { newId } from '../../server/platform/ids.js';
import { createApiKey } from '../support/auth.js';
import { registerBusiness, uniqueEmail, type Environment, type TestBusiness } from '../support/business.js';
import { expectResultError, itemAt } from '../support/expect.js';
import { useTestServer } from '../support/setup.js';

const server = useTestServer({ worker: false });

afterEach(() => {
  server().clock.reset();
});

const DAY_MS = 24 * 60 * 60 * 1000;
const T0 = '2030-03-04T09:00:00.000Z';
const at = (msAfterT0: number) => new Date(Date.parse(T0) + msAfterT0).toISOString();

const clientOf = (accessToken: string) =>
  createClient({ baseUrl: server().baseUrl, accessToken, maxRetries: 0 });

interface SignIn {
  userAgent?: string;
  environment?: Environment;
  businessId?: string;
  password?: string;
}

/** A new access token of the account, from a sign-in that presents `userAgent` when given. */
async function signIn(account: Pick<TestBusiness, 'email' | 'password'>, options: SignIn = {}) {
  const { userAgent, password = account.password, ...choice } = options;
  const anonymous = createClient({
    baseUrl: server().baseUrl,
    maxRetries: 0,
    headers: userAgent === undefined ? {} : { 'user-agent': userAgent },
  });
  const res = await anonymous.auth.signIn({ body: { email: account.email, password, ...choice } });
  return sessionOf((await unwrap(res)).data).accessToken;
}

/** The status a token gets on `GET /v1/auth/session`: 200 while it works, 401 once it does not. */
const statusOf = async (accessToken: string) => (await clientOf(accessToken).auth.getSession()).status;

const sessionsOf = async (accessToken: string): Promise<AccessSession[]> =>
  (await unwrap(clientOf(accessToken).auth.listSessions())).data;

/** The session that the token of the request is (the one flagged current). */
async function currentSession(accessToken: string): Promise<AccessSession> {
  const current = (await sessionsOf(accessToken)).filter((s) => s.current);
  expect(current).toHaveLength(1);
  return itemAt(current, 0);
}

/** The token of the last invitation mailed to `email`, read from the stored mail. */
async function invitationTokenFor(email: string): Promise<string> {
  const message = await server()
    .deps.db.selectFrom('mail_messages')
    .select('body')
    .where('to_address', '=', email)
    .orderBy('created_at', 'desc')
    .executeTakeFirstOrThrow();
  const token = /bms_inv_[A-Za-z0-9_-]+/.exec(message.body)?.[0];
  if (!token) throw new Error(`no invitation token in ${message.body}`);
  return token;
}

/**
 * A person who owns one business (`first`, signed in as `first.accessToken`) and joined another
 * (`second`) with their own account: `joinedToken` is their token to the second business.
 */
async function personInTwoBusinesses() {
  const first = await registerBusiness(server(), 'First Ltd');
  const second = await registerBusiness(server(), 'Second Ltd');
  await unwrap(second.client.team.inviteMember({ body: { email: first.email, role: 'accountant' } }));
  const token = await invitationTokenFor(first.email);
  const anonymous = createClient({ baseUrl: server().baseUrl, maxRetries: 0 });
  const joined = sessionOf(
    (await unwrap(anonymous.auth.acceptInvitation({ body: { token, password: first.password } }))).data,
  );
  expect(joined.businessId).toBe(second.businessId);
  return { first, second, joinedToken: joined.accessToken };
}

describe('GET /v1/auth/sessions', () => {
  it('lists the tokens newest first, each with its business, times, user agent, address and which one is current', async () => {
    server().clock.set(T0);
    const biz = await registerBusiness(server());
    server().clock.advance(1000);
    const desktop = await signIn(biz, { userAgent: 'Lantern/1.0 (Desktop; test)' });
    server().clock.advance(1000);
    const phone = await signIn(biz, { userAgent: 'Lantern/2.0 (Phone; test)' });

    const res = await clientOf(phone).auth.listSessions();
    expect(res.status).toBe(200);
    if (res.status !== 200) return;
    const sessions = res.body.data;
    expect(sessions.map((s) => (s.userAgent?.startsWith('Lantern/') ? s.userAgent : 'register'))).toEqual([
      'Lantern/2.0 (Phone; test)',
      'Lantern/1.0 (Desktop; test)',
      'register',
    ]);
    expect(sessions.map((s) => s.createdAt)).toEqual([at(2000), at(1000), at(0)]);
    expect(sessions.map((s) => s.expiresAt)).toEqual([
      at(2000 + 7 * DAY_MS),
      at(1000 + 7 * DAY_MS),
      at(7 * DAY_MS),
    ]);
    expect(sessions.map((s) => s.current)).toEqual([true, false, false]);
    for (const session of sessions) {
      expect(Object.keys(session).sort()).toEqual([
        'businessId',
        'createdAt',
        'current',
        'environment',
        'expiresAt',
        'id',
        'ip',
        'lastUsedAt',
        'userAgent',
      ]);
      expect(session).toMatchObject({
        id: expect.stringMatching(/^tok_/),
        businessId: biz.businessId,
        environment: 'live',
        ip: expect.stringMatching(/^(::ffff:)?127\.0\.0\.1$/),
      });
    }
    expect(new Set(sessions.map((s) => s.id)).size).toBe(3);
    // Never the tokens themselves.
    const text = JSON.stringify(res.body);
    for (const token of [biz.accessToken, desktop, phone]) expect(text).not.toContain(token);

    // Listed with another token, that one is current.
    const fromDesktop = await sessionsOf(desktop);
    expect(fromDesktop.map((s) => s.current)).toEqual([false, true, false]);
    expect(fromDesktop.map((s) => s.id)).toEqual(sessions.map((s) => s.id));
  });

  it('keeps the first 256 characters of a long User-Agent', async () => {
    const biz = await registerBusiness(server());
    const userAgent = `Lantern/3.0 ${'x'.repeat(300)}`;
    const token = await signIn(biz, { userAgent });
    const session = await currentSession(token);
    expect(session.userAgent).toBe(userAgent.slice(0, 256));
  });

  it('shows lastUsedAt null until a token is used, then the time of its first use', async () => {
    server().clock.set(T0);
    const biz = await registerBusiness(server());
    const unused = await signIn(biz, { userAgent: 'Unused/1.0' });
    const byAgent = async (agent: string) =>
      (await sessionsOf(biz.accessToken)).find((s) => s.userAgent === agent);

    expect((await byAgent('Unused/1.0'))?.lastUsedAt).toBeNull();
    // The request that lists is a use of its own token.
    expect((await currentSession(biz.accessToken)).lastUsedAt).toBe(at(0));

    server().clock.advance(5000);
    expect(await statusOf(unused)).toBe(200);
    expect((await byAgent('Unused/1.0'))?.lastUsedAt).toBe(at(5000));
  });

  it('stamps lastUsedAt again only once a minute has passed since the last stamp', async () => {
    // A sandbox token: live credentials are also held for a few seconds of real time in the process's
    // credential cache, which the test clock does not move; a sandbox credential is read every time.
    server().clock.set(T0);
    const biz = await registerBusiness(server());
    const sandbox = await signIn(biz, { environment: 'sandbox', userAgent: 'Sandbox/1.0' });
    const lastUsed = async () =>
      (await sessionsOf(biz.accessToken)).find((s) => s.userAgent === 'Sandbox/1.0')?.lastUsedAt;

    expect(await statusOf(sandbox)).toBe(200);
    expect(await lastUsed()).toBe(at(0));

    server().clock.advance(30_000);
    expect(await statusOf(sandbox)).toBe(200);
    expect(await lastUsed()).toBe(at(0));

    server().clock.advance(31_000);
    expect(await statusOf(sandbox)).toBe(200);
    expect(await lastUsed()).toBe(at(61_000));
  });

  it('leaves out expired tokens', async () => {
    server().clock.set(T0);
    const biz = await registerBusiness(server());
    server().clock.advance(6 * DAY_MS);
    const later = await signIn(biz);
    expect((await sessionsOf(later)).map((s) => s.createdAt)).toEqual([at(6 * DAY_MS), at(0)]);

    // The registration's token is 7 days and a minute old; the later one is a day old.
    server().clock.advance(DAY_MS + 60_000);
    expect(await statusOf(biz.accessToken)).toBe(401);
    const sessions = await sessionsOf(later);
    expect(sessions.map((s) => s.createdAt)).toEqual([at(6 * DAY_MS)]);
    expect(itemAt(sessions, 0).current).toBe(true);
  });

  it('leaves out revoked tokens', async () => {
    const biz = await registerBusiness(server());
    const signedOut = await signIn(biz, { userAgent: 'Gone/1.0' });
    const kept = await signIn(biz, { userAgent: 'Kept/1.0' });
    expect((await clientOf(signedOut).auth.logout()).status).toBe(200);

    const agents = (await sessionsOf(biz.accessToken)).map((s) => s.userAgent);
    expect(agents).toContain('Kept/1.0');
    expect(agents).not.toContain('Gone/1.0');
    expect(agents).toHaveLength(2);
    expect(await statusOf(kept)).toBe(200);
  });

  it("lists the person's tokens of every business they are in and of their sandbox, and only theirs", async () => {
    const { first, second, joinedToken } = await personInTwoBusinesses();
    const sandbox = await signIn(first, { businessId: first.businessId, environment: 'sandbox' });

    const sessions = await sessionsOf(joinedToken);
    expect(sessions).toHaveLength(3);
    const byBusiness = new Map(sessions.map((s) => [s.businessId, s]));
    expect(byBusiness.get(first.businessId)).toMatchObject({ environment: 'live', current: false });
    expect(byBusiness.get(second.businessId)).toMatchObject({ environment: 'live', current: true });
    const sandboxSession = sessions.find((s) => s.environment === 'sandbox');
    expect(sandboxSession?.businessId).not.toBe(first.businessId);
    expect(sandboxSession?.businessId).toMatch(/^biz_/);
    expect(sandboxSession?.current).toBe(false);
    expect((await sessionsOf(sandbox)).find((s) => s.current)?.environment).toBe('sandbox');

    // The owner of the second business sees only their own token.
    const others = await sessionsOf(second.accessToken);
    expect(others.map((s) => s.businessId)).toEqual([second.businessId]);
  });

  it('refuses an API key (403 FORBIDDEN)', async () => {
    const biz = await registerBusiness(server());
    const key = await createApiKey(biz.client, 'full');
    const keyed = clientOf(key.key);
    expectResultError(await keyed.auth.listSessions(), 403, 'FORBIDDEN');
    expectResultError(await keyed.auth.revokeOtherSessions(), 403, 'FORBIDDEN');
    expectResultError(
      await keyed.auth.changePassword({
        body: { currentPassword: biz.password, newPassword: `${biz.password} and more` },
      }),
      403,
      'FORBIDDEN',
    );
  });
});

describe('DELETE /v1/auth/sessions/:id', () => {
  it('revokes one session at once: its token answers 401, the others keep working', async () => {
    const biz = await registerBusiness(server());
    const doomed = await signIn(biz, { userAgent: 'Doomed/1.0' });
    // Used once, so this process holds it in its credential cache.
    expect(await statusOf(doomed)).toBe(200);
    const { id } = await currentSession(doomed);

    const res = await biz.client.auth.revokeSession({ params: { id } });
    expect(res.status).toBe(200);
    if (res.status !== 200) return;
    expect(res.body).toEqual({ result: 'success', message: expect.any(String) });

    expect(await statusOf(doomed)).toBe(401);
    expect(await statusOf(biz.accessToken)).toBe(200);
    expect((await sessionsOf(biz.accessToken)).map((s) => s.id)).not.toContain(id);

    // Revoked already: as unknown.
    expectResultError(await biz.client.auth.revokeSession({ params: { id } }), 404, 'NOT_FOUND');
  });

  it('revokes the current session too: that is signing out', async () => {
    const biz = await registerBusiness(server());
    const other = await signIn(biz);
    const { id } = await currentSession(biz.accessToken);

    expect((await biz.client.auth.revokeSession({ params: { id } })).status).toBe(200);
    expect(await statusOf(biz.accessToken)).toBe(401);
    expect(await statusOf(other)).toBe(200);
  });

  it("refuses another person's session, a team-mate's included, and an unknown id (404); nothing is revoked", async () => {
    const { first, second, joinedToken } = await personInTwoBusinesses();
    const stranger = await registerBusiness(server());
    const strangerSession = await currentSession(stranger.accessToken);
    const joinedSession = await currentSession(joinedToken);

    // The owner of the second business and its new member share the business, not their sessions.
    expectResultError(
      await second.client.auth.revokeSession({ params: { id: joinedSession.id } }),
      404,
      'NOT_FOUND',
    );
    expectResultError(
      await first.client.auth.revokeSession({ params: { id: strangerSession.id } }),
      404,
      'NOT_FOUND',
    );
    expectResultError(
      await first.client.auth.revokeSession({ params: { id: newId('tok') } }),
      404,
      'NOT_FOUND',
    );

    for (const token of [joinedToken, stranger.accessToken, first.accessToken, second.accessToken]) {
      expect(await statusOf(token)).toBe(200);
    }
  });

  it("revokes a live session with the person's sandbox token (their sessions are theirs in both environments)", async () => {
    const biz = await registerBusiness(server());
    const sandbox = await signIn(biz, { environment: 'sandbox' });
    expect(await statusOf(biz.accessToken)).toBe(200);
    const live = await currentSession(biz.accessToken);
    expect(live.environment).toBe('live');

    expect((await clientOf(sandbox).auth.revokeSession({ params: { id: live.id } })).status).toBe(200);
    expect(await statusOf(biz.accessToken)).toBe(401);
    expect(await statusOf(sandbox)).toBe(200);
  });
});

describe('DELETE /v1/auth/sessions', () => {
  it('revokes every other token of the person in every business and environment, and answers how many', async () => {
    const { first, second, joinedToken } = await personInTwoBusinesses();
    const sandbox = await signIn(first, { businessId: first.businessId, environment: 'sandbox' });
    const keep = await signIn(first, { businessId: first.businessId });
    const others = [first.accessToken, joinedToken, sandbox];
    for (const token of [...others, keep]) expect(await statusOf(token)).toBe(200);

    const res = await clientOf(keep).auth.revokeOtherSessions();
    expect(res.status).toBe(200);
    if (res.status !== 200) return;
    expect(res.body).toEqual({ result: 'success', data: { revoked: 3 } });

    for (const token of others) expect(await statusOf(token), 'another token').toBe(401);
    expect(await statusOf(keep)).toBe(200);
    expect((await sessionsOf(keep)).map((s) => s.current)).toEqual([true]);
    // Another person (the second business's owner) keeps theirs.
    expect(await statusOf(second.accessToken)).toBe(200);

    expect((await unwrap(clientOf(keep).auth.revokeOtherSessions())).data).toEqual({ revoked: 0 });
  });
});

describe('POST /v1/auth/password', () => {
  const NEW_PASSWORD = 'a brand new passphrase';

  const changePassword = (client: Client, currentPassword: string, newPassword: string) =>
    client.auth.changePassword({ body: { currentPassword, newPassword } });

  it('sets the new password, ends every other session in every business, and keeps the current one', async () => {
    const { first, second, joinedToken } = await personInTwoBusinesses();
    const sandbox = await signIn(first, { businessId: first.businessId, environment: 'sandbox' });
    const others = [joinedToken, sandbox];
    for (const token of [...others, first.accessToken]) expect(await statusOf(token)).toBe(200);

    const res = await changePassword(first.client, first.password, NEW_PASSWORD);
    expect(res.status).toBe(200);
    if (res.status !== 200) return;
    expect(res.body).toEqual({ result: 'success', data: { revoked: 2 } });

    for (const token of others) expect(await statusOf(token), 'another token').toBe(401);
    expect(await statusOf(first.accessToken)).toBe(200);
    expect(await statusOf(second.accessToken)).toBe(200);

    const anonymous = createClient({ baseUrl: server().baseUrl, maxRetries: 0 });
    const old = await anonymous.auth.signIn({
      body: { email: first.email, password: first.password, businessId: first.businessId },
    });
    expectResultError(old, 401, 'UNAUTHORIZED');
    for (const businessId of [first.businessId, second.businessId]) {
      const token = await signIn(first, { businessId, password: NEW_PASSWORD });
      expect(await statusOf(token)).toBe(200);
    }
  });

  it('refuses a wrong current password (422 on currentPassword) and changes nothing', async () => {
    const biz = await registerBusiness(server());
    const other = await signIn(biz);

    const res = await changePassword(biz.client, 'not the current password', NEW_PASSWORD);
    expectResultError(res, 422, 'VALIDATION_ERROR', 'currentPassword');

    expect(await statusOf(other)).toBe(200);
    expect(await statusOf(await signIn(biz))).toBe(200);
  });

  it('refuses a new password equal to the current one (422 on newPassword)', async () => {
    const biz = await registerBusiness(server());
    const other = await signIn(biz);
    const res = await changePassword(biz.client, biz.password, biz.password);
    expectResultError(res, 422, 'VALIDATION_ERROR', 'newPassword');
    expect(await statusOf(other)).toBe(200);
  });

  it('refuses a new password under 12 characters (422 on newPassword)', async () => {
    const biz = await registerBusiness(server());
    const other = await signIn(biz);
    const res = await changePassword(biz.client, biz.password, '12345678901');
    expectResultError(res, 422, 'VALIDATION_ERROR', 'newPassword');
    expect(await statusOf(other)).toBe(200);
    expect(await statusOf(await signIn(biz))).toBe(200);
  });

  it('records the change in the audit log, without either password', async () => {
    const biz = await registerBusiness(server());
    const newPassword = `${NEW_PASSWORD} ${uniqueEmail('audit')}`;
    const res = await biz.client.auth.changePassword({
      body: { currentPassword: biz.password, newPassword },
      headers: { 'idempotency-key': `password-${newId('req')}` },
    });
    expect(res.status).toBe(200);
    const requestId = res.headers.get('x-request-id');

    const log = (await unwrap(biz.client.auditLog.listAuditLog({ query: { operation: 'changePassword' } })))
      .entries;
    expect(log).toHaveLength(1);
    expect(itemAt(log, 0)).toMatchObject({
      actor: { kind: 'user', id: expect.stringMatching(/^usr_/) },
      operation: 'changePassword',
      request_id: requestId,
    });
    const rows = await server()
      .deps.db.selectFrom('audit_log')
      .selectAll()
      .where('business_id', '=', biz.businessId)
      .execute();
    const stored = JSON.stringify(rows);
    expect(stored).toContain('changePassword');
    for (const password of [biz.password, newPassword]) {
      expect(JSON.stringify(log)).not.toContain(password);
      expect(stored).not.toContain(password);
    }
  });

  // PGlite runs one request's transaction at a time; on PostgreSQL the two overlap.
  it('makes exactly one of two concurrent changes from the same current password, and sign-in works with it', async () => {
    const biz = await registerBusiness(server());
    const laptop = await signIn(biz);
    const phone = await signIn(biz);
    const candidates = ['laptop passphrase one', 'phone passphrase two'];

    const answers = await Promise.all([
      changePassword(clientOf(laptop), biz.password, itemAt(candidates, 0)),
      changePassword(clientOf(phone), biz.password, itemAt(candidates, 1)),
    ]);
    const succeeded = candidates.filter((_, i) => itemAt(answers, i).status === 200);
    // The change checks the password it replaces: of two concurrent ones exactly one is made.
    expect(succeeded).toHaveLength(1);
    for (const res of answers) {
      // The other change came first: it ended this request's token, or changed the password it checks.
      if (res.status === 401) expectResultError(res, 401, 'UNAUTHORIZED');
      else if (res.status !== 200) expectResultError(res, 422, 'VALIDATION_ERROR', 'currentPassword');
    }

    const anonymous = createClient({ baseUrl: server().baseUrl, maxRetries: 0 });
    const attempt = async (password: string) =>
      (await anonymous.auth.signIn({ body: { email: biz.email, password } })).status;
    const working = [];
    for (const password of [biz.password, ...candidates]) {
      if ((await attempt(password)) === 200) working.push(password);
    }
    expect(working).toHaveLength(1);
    expect(succeeded).toContain(itemAt(working, 0));
  });
});
