import { describe, expect, it } from 'vitest';
import { createClient, isSignInChallenge, unwrap } from '../../client/index.js';
import { invitationMailTo, nextResetLink, resetTokenOf } from '../support/auth.js';
import { registerBusiness, uniqueEmail, type TestBusiness } from '../support/business.js';
import { onPostgres } from '../support/database.js';
import { useTestServer } from '../support/setup.js';
import { enableTwoFactor, totpCode } from '../support/two-factor.js';

/**
 * Every throttle guarding a secret counts an attempt before it checks it, so a burst of concurrent
 * guesses is checked no more often than the limit allows, however they interleave. Each case sends
 * 30 requests at once (Promise.all) and counts the answers that show the secret was checked ("wrong
 * password", "wrong code", "unknown token") against those refused unchecked (429, or a spent
 * challenge). Proven on PostgreSQL, in both stores the service offers (in memory, and the
 * `rate_limits` table on connections of its own, so a burst holding every pool connection in request
 * transactions still counts); on PGlite, which serialises requests, in memory.
 */
const BURST = 30;
const MAX_FAILURES = 10;
const CHALLENGE_MAX = 5;
const WRONG_PASSWORD = 'definitely not the password';

interface Answer {
  status: number;
  body: unknown;
}

const messageOf = (res: Answer) => (res.body as { error?: { message?: string } }).error?.message ?? '';
const fieldsOf = (res: Answer) =>
  ((res.body as { error?: { details?: { field: string }[] } }).error?.details ?? []).map((d) => d.field);

/** How many answers of a burst match. */
const count = (answers: Answer[], matches: (res: Answer) => boolean) => answers.filter(matches).length;

/** Every answer is either a check of the secret or a refusal without one: nothing else (no 5xx). */
function expectOnly(answers: Answer[], ...kinds: ((res: Answer) => boolean)[]) {
  for (const res of answers) {
    expect(
      kinds.some((kind) => kind(res)),
      `unexpected ${res.status}: ${JSON.stringify(res.body)}`,
    ).toBe(true);
  }
}

const tooMany = (res: Answer) => res.status === 429;

let addresses = 0;
/** A fresh address (X-Forwarded-For, honoured with TRUST_PROXY) so no other case's counts meet it. */
const freshIp = () => {
  addresses += 1;
  return `198.18.${Math.floor(addresses / 250)}.${(addresses % 250) + 1}`;
};

// The PostgreSQL store exists on PostgreSQL only (the configuration refuses it without DATABASE_URL).
for (const store of onPostgres ? (['memory', 'postgres'] as const) : (['memory'] as const)) {
  // Each burst hashes 30 passwords at once: slow on a busy machine.
  describe(`counters in ${store}`, { timeout: 180_000 }, () => {
    const server = useTestServer({
      env: { RATE_LIMIT_STORE: store, TRUST_PROXY: 'loopback', SIGNIN_MAX_FAILURES: String(MAX_FAILURES) },
    });

    const from = (ip: string, accessToken?: string) =>
      createClient({
        baseUrl: server().baseUrl,
        maxRetries: 0,
        headers: { 'x-forwarded-for': ip },
        ...(accessToken === undefined ? {} : { accessToken }),
      });

    /** The challenge of the second step, asked for from an address of its own. */
    async function challengeOf(biz: TestBusiness): Promise<string> {
      const { data } = await unwrap(
        from(freshIp()).auth.signIn({ body: { email: biz.email, password: biz.password } }),
      );
      if (!isSignInChallenge(data)) throw new Error('expected a challenge');
      return data.challengeToken;
    }

    /** The person's sign-in challenges as stored: answers counted, and whether one was used. */
    const challengesOf = (biz: TestBusiness) =>
      server()
        .deps.db.selectFrom('sign_in_challenges')
        .innerJoin('users', 'users.id', 'sign_in_challenges.user_id')
        .select(['sign_in_challenges.failed_attempts', 'sign_in_challenges.used_at'])
        .where('users.email', '=', biz.email)
        .execute();

    describe('the second step', () => {
      for (const kind of ['app codes', 'recovery codes'] as const) {
        it(`checks at most ${CHALLENGE_MAX} of ${BURST} concurrent wrong ${kind} on one challenge, each from its own address; the right code after them is refused`, async () => {
          const biz = await registerBusiness(server());
          const { secret } = await enableTwoFactor(server(), biz.client);
          const challengeToken = await challengeOf(biz);
          server().clock.advance(30_000);
          const right = await totpCode(server(), secret);
          const wrong =
            kind === 'app codes' ? (right === '000000' ? '111111' : '000000') : 'aaaa-bbbb-cccc-dddd';

          const answers = await Promise.all(
            Array.from({ length: BURST }, () =>
              from(freshIp()).auth.completeSignIn({ body: { challengeToken, code: wrong } }),
            ),
          );
          const checked = (res: Answer) => res.status === 401 && /Invalid code/.test(messageOf(res));
          const spent = (res: Answer) => res.status === 401 && /sign in again/.test(messageOf(res));
          expectOnly(answers, checked, spent, tooMany);
          expect(count(answers, checked)).toBeLessThanOrEqual(CHALLENGE_MAX);
          expect(count(answers, checked)).toBeGreaterThan(0);

          const after = await from(freshIp()).auth.completeSignIn({ body: { challengeToken, code: right } });
          expect([401, 429]).toContain(after.status);
          expect(JSON.stringify(after.body)).not.toContain('accessToken');
          const rows = await challengesOf(biz);
          expect(rows).toHaveLength(1);
          expect(rows.every((row) => row.used_at === null)).toBe(true);
          expect(Math.max(...rows.map((row) => row.failed_attempts))).toBeLessThanOrEqual(CHALLENGE_MAX);
        });
      }

      it(`checks at most ${MAX_FAILURES} of ${BURST} concurrent wrong codes of one email over several challenges; then even the right code gets 429`, async () => {
        const biz = await registerBusiness(server());
        const { secret } = await enableTwoFactor(server(), biz.client);
        const challenges: string[] = [];
        for (let i = 0; i < BURST / CHALLENGE_MAX; i++) challenges.push(await challengeOf(biz));
        server().clock.advance(30_000);
        const right = await totpCode(server(), secret);
        const wrong = right === '000000' ? '111111' : '000000';

        const answers = await Promise.all(
          Array.from({ length: BURST }, (_, i) =>
            from(freshIp()).auth.completeSignIn({
              body: { challengeToken: challenges[i % challenges.length]!, code: wrong },
            }),
          ),
        );
        const checked = (res: Answer) => res.status === 401 && /Invalid code/.test(messageOf(res));
        const spent = (res: Answer) => res.status === 401 && /sign in again/.test(messageOf(res));
        expectOnly(answers, checked, spent, tooMany);
        expect(count(answers, checked)).toBeLessThanOrEqual(MAX_FAILURES);
        expect(count(answers, tooMany)).toBeGreaterThan(0);

        expect(
          (await from(freshIp()).auth.signIn({ body: { email: biz.email, password: biz.password } })).status,
        ).toBe(429);
        const after = await from(freshIp()).auth.signIn({
          body: { email: biz.email, password: biz.password, code: right },
        });
        expect(after.status).toBe(429);
      });
    });

    describe('passwords', () => {
      it(`checks at most ${MAX_FAILURES} of ${BURST} concurrent wrong passwords for one email, from as many addresses; then the right one gets 429`, async () => {
        const biz = await registerBusiness(server());
        const answers = await Promise.all(
          Array.from({ length: BURST }, () =>
            from(freshIp()).auth.signIn({ body: { email: biz.email, password: WRONG_PASSWORD } }),
          ),
        );
        const checked = (res: Answer) => res.status === 401;
        expectOnly(answers, checked, tooMany);
        expect(count(answers, checked)).toBeLessThanOrEqual(MAX_FAILURES);
        expect(count(answers, tooMany)).toBeGreaterThanOrEqual(BURST - MAX_FAILURES);
        expect(
          (await from(freshIp()).auth.signIn({ body: { email: biz.email, password: biz.password } })).status,
        ).toBe(429);
      });

      it(`checks at most ${MAX_FAILURES} of ${BURST} concurrent wrong passwords from one address, for as many emails; then a right one from it gets 429`, async () => {
        const biz = await registerBusiness(server());
        const ip = freshIp();
        const answers = await Promise.all(
          Array.from({ length: BURST }, () =>
            from(ip).auth.signIn({ body: { email: uniqueEmail('burst'), password: WRONG_PASSWORD } }),
          ),
        );
        const checked = (res: Answer) => res.status === 401;
        expectOnly(answers, checked, tooMany);
        expect(count(answers, checked)).toBeLessThanOrEqual(MAX_FAILURES);
        expect(
          (await from(ip).auth.signIn({ body: { email: biz.email, password: biz.password } })).status,
        ).toBe(429);
        // Another address is not blocked by it.
        expect(
          (await from(freshIp()).auth.signIn({ body: { email: biz.email, password: biz.password } })).status,
        ).toBe(200);
      });

      it(`checks at most ${MAX_FAILURES} of ${BURST} concurrent wrong passwords to start two-factor enrolment; nothing is set up, and the right one then gets 429`, async () => {
        const biz = await registerBusiness(server());
        const answers = await Promise.all(
          Array.from({ length: BURST }, () =>
            from(freshIp(), biz.accessToken).auth.startTwoFactorEnrolment({
              body: { password: WRONG_PASSWORD },
            }),
          ),
        );
        const checked = (res: Answer) => res.status === 422 && fieldsOf(res).includes('password');
        expectOnly(answers, checked, tooMany);
        expect(count(answers, checked)).toBeLessThanOrEqual(MAX_FAILURES);
        const refused = await from(freshIp(), biz.accessToken).auth.startTwoFactorEnrolment({
          body: { password: biz.password },
        });
        expect(refused.status).toBe(429);
        const row = await server()
          .deps.db.selectFrom('users')
          .select(['totp_pending_secret', 'totp_secret'])
          .where('email', '=', biz.email)
          .executeTakeFirstOrThrow();
        expect(row).toEqual({ totp_pending_secret: null, totp_secret: null });
      });

      it(`checks at most ${MAX_FAILURES} of ${BURST} concurrent wrong codes confirming an enrolment; it stays off`, async () => {
        const biz = await registerBusiness(server());
        const body = { password: biz.password };
        const { secret } = (
          await unwrap(from(freshIp(), biz.accessToken).auth.startTwoFactorEnrolment({ body }))
        ).data;
        const right = await totpCode(server(), secret);
        const wrong = right === '000000' ? '111111' : '000000';
        const answers = await Promise.all(
          Array.from({ length: BURST }, () =>
            from(freshIp(), biz.accessToken).auth.confirmTwoFactor({ body: { ...body, code: wrong } }),
          ),
        );
        const checked = (res: Answer) => res.status === 422 && fieldsOf(res).includes('code');
        expectOnly(answers, checked, tooMany);
        expect(count(answers, checked)).toBeLessThanOrEqual(MAX_FAILURES);
        const after = await from(freshIp(), biz.accessToken).auth.confirmTwoFactor({
          body: { ...body, code: right },
        });
        expect(after.status).toBe(429);
        expect((await unwrap(biz.client.auth.getTwoFactor())).data.enabled).toBe(false);
      });
    });

    describe('tokens', () => {
      it(`checks at most ${MAX_FAILURES} of ${BURST} concurrent unknown password reset tokens from one address; then a real one from it gets 429 and changes nothing`, async () => {
        const biz = await registerBusiness(server());
        expect((await from(freshIp()).auth.forgotPassword({ body: { email: biz.email } })).status).toBe(202);
        const token = resetTokenOf(await nextResetLink(server(), biz.email));
        const ip = freshIp();
        const answers = await Promise.all(
          Array.from({ length: BURST }, (_, i) =>
            from(ip).auth.resetPassword({
              body: { token: `bms_pwr_guess${i}`, password: 'a brand new passphrase' },
            }),
          ),
        );
        const checked = (res: Answer) => res.status === 422 && fieldsOf(res).includes('token');
        expectOnly(answers, checked, tooMany);
        expect(count(answers, checked)).toBeLessThanOrEqual(MAX_FAILURES);

        const refused = await from(ip).auth.resetPassword({
          body: { token, password: 'a brand new passphrase' },
        });
        expect(refused.status).toBe(429);
        expect(
          (await from(freshIp()).auth.signIn({ body: { email: biz.email, password: biz.password } })).status,
        ).toBe(200);
      });

      it(`checks at most ${MAX_FAILURES} of ${BURST} concurrent unknown invitation tokens from one address; then a real one from it gets 429`, async () => {
        const inviter = await registerBusiness(server());
        const invited = uniqueEmail('invited');
        await unwrap(inviter.client.team.inviteMember({ body: { email: invited, role: 'viewer' } }));
        const { token } = await invitationMailTo(server(), invited);
        const ip = freshIp();
        const answers = await Promise.all(
          Array.from({ length: BURST }, (_, i) =>
            from(ip).auth.describeInvitation({ body: { token: `bms_inv_guess${i}` } }),
          ),
        );
        const checked = (res: Answer) => res.status === 422 && fieldsOf(res).includes('token');
        expectOnly(answers, checked, tooMany);
        expect(count(answers, checked)).toBeLessThanOrEqual(MAX_FAILURES);
        expect((await from(ip).auth.describeInvitation({ body: { token } })).status).toBe(429);
        expect((await from(freshIp()).auth.describeInvitation({ body: { token } })).status).toBe(200);
      });

      it(`checks at most ${MAX_FAILURES} of ${BURST} concurrent wrong passwords accepting an invitation as an existing person`, async () => {
        const inviter = await registerBusiness(server());
        const person = await registerBusiness(server());
        await unwrap(inviter.client.team.inviteMember({ body: { email: person.email, role: 'viewer' } }));
        const { token } = await invitationMailTo(server(), person.email);
        const answers = await Promise.all(
          Array.from({ length: BURST }, () =>
            from(freshIp()).auth.acceptInvitation({ body: { token, password: WRONG_PASSWORD } }),
          ),
        );
        const checked = (res: Answer) => res.status === 401;
        expectOnly(answers, checked, tooMany);
        expect(count(answers, checked)).toBeLessThanOrEqual(MAX_FAILURES);
        expect(
          (await from(freshIp()).auth.acceptInvitation({ body: { token, password: person.password } }))
            .status,
        ).toBe(429);
      });
    });
  });
}
