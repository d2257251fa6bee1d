import { afterEach, describe, expect, it } from 'vitest';
import { createClient, isSignInChallenge, sessionOf, unwrap, type Client } from '../../client/index.js';
import type { Role } from '../../contract/permissions.js';
import { publicBaseUrl } from '../../server/config.js';
import { hashSecret, INVITATION_PREFIX, newSecret } from '../../server/auth/secrets.js';
import { newId } from '../../server/platform/ids.js';
import { invitationMailTo } from '../support/auth.js';
import { registerBusiness, signedInMember, uniqueEmail, type TestBusiness } from '../support/business.js';
import { expectApiError, expectResultError } from '../support/expect.js';
import { useTestServer } from '../support/setup.js';
import { enableTwoFactor, totpCode } from '../support/two-factor.js';

// Wrong tokens and passwords count as failed sign-ins of the address; this file makes more than the default allows.
const server = useTestServer({ worker: false, env: { SIGNIN_MAX_FAILURES: '1000' } });

afterEach(() => {
  server().clock.reset();
});

const DAY_MS = 24 * 60 * 60 * 1000;
const PASSWORD = 'another horse battery staple';

const anonymous = () => createClient({ baseUrl: server().baseUrl, maxRetries: 0 });
const clientOf = (accessToken: string) =>
  createClient({ baseUrl: server().baseUrl, accessToken, maxRetries: 0 });

const mailTo = (email: string) => invitationMailTo(server(), email);

const mailCount = async (email: string) =>
  (await server().deps.db.selectFrom('mail_messages').select('id').where('to_address', '=', email).execute())
    .length;

async function invite(client: Client, email: string, role: Role = 'viewer') {
  return (await unwrap(client.team.inviteMember({ body: { email, role } }))).data;
}

const membersOf = async (owner: TestBusiness) =>
  (await unwrap(owner.client.team.getTeam())).data.members.map((m) => m.email);

/** The access tokens a user holds to the business (a refused acceptance makes none). */
const tokensTo = async (businessId: string, email: string) =>
  (
    await server()
      .deps.db.selectFrom('access_tokens as t')
      .innerJoin('users as u', 'u.id', 't.user_id')
      .select('t.id')
      .where('t.business_id', '=', businessId)
      .where('u.email', '=', email)
      .execute()
  ).length;

/** A person with an account (the owner of a business of their own) invited to `inviter`'s business. */
async function existingPersonInvited() {
  const inviter = await registerBusiness(server(), 'Inviting Ltd');
  const person = await registerBusiness(server(), 'Own Ltd');
  await invite(inviter.client, person.email, 'accountant');
  const { token } = await mailTo(person.email);
  return { inviter, person, token };
}

describe('a person who already has an account', () => {
  it('is refused with the token alone: 422 on password, no session, not joined, the invitation still pending', async () => {
    const { inviter, person, token } = await existingPersonInvited();
    await expectApiError(
      anonymous().auth.acceptInvitation({ body: { token } }),
      422,
      'VALIDATION_ERROR',
      'password',
    );
    expect(await membersOf(inviter)).not.toContain(person.email);
    expect(await tokensTo(inviter.businessId, person.email)).toBe(0);
    const team = (await unwrap(inviter.client.team.getTeam())).data;
    expect(team.invitations.map((i) => i.email)).toEqual([person.email]);
  });

  it("is refused with another person's session (422), and with a wrong password (401, counted as a failed sign-in)", async () => {
    const { inviter, person, token } = await existingPersonInvited();
    const stranger = await registerBusiness(server(), 'Stranger Ltd');
    await expectApiError(
      clientOf(stranger.accessToken).auth.acceptInvitation({ body: { token } }),
      422,
      'VALIDATION_ERROR',
      'password',
    );
    const wrong = await anonymous().auth.acceptInvitation({ body: { token, password: 'not the right one' } });
    expectResultError(wrong, 401, 'UNAUTHORIZED');
    expectResultError(
      await anonymous().auth.acceptInvitation({ body: { token, password: `${person.password}!` } }),
      401,
      'UNAUTHORIZED',
    );
    expect(await membersOf(inviter)).not.toContain(person.email);
    expect(await tokensTo(inviter.businessId, person.email)).toBe(0);
    const counted = await server().deps.limiters.signInFailuresByEmail.get(
      `email:${person.email.toLowerCase()}`,
    );
    expect(counted?.consumedPoints).toBe(2);
  });

  it('joins with their password and is signed in to the inviting business; their password is unchanged', async () => {
    const { inviter, person, token } = await existingPersonInvited();
    const session = sessionOf(
      (await unwrap(anonymous().auth.acceptInvitation({ body: { token, password: person.password } }))).data,
    );
    expect(session.businessId).toBe(inviter.businessId);
    const team = (await unwrap(inviter.client.team.getTeam())).data;
    expect(team.members.find((m) => m.email === person.email)?.role).toBe('accountant');
    expect(team.invitations).toEqual([]);
    const me = (await unwrap(clientOf(session.accessToken).auth.getSession())).data;
    expect(me).toMatchObject({ businessId: inviter.businessId, role: 'accountant' });
    await expectApiError(
      anonymous().auth.acceptInvitation({ body: { token, password: person.password } }),
      422,
      'VALIDATION_ERROR',
      'token',
    );
  });

  it('joins when signed in as themselves, without a password', async () => {
    const { inviter, person, token } = await existingPersonInvited();
    const session = sessionOf(
      (await unwrap(clientOf(person.accessToken).auth.acceptInvitation({ body: { token } }))).data,
    );
    expect(session.businessId).toBe(inviter.businessId);
    expect(await membersOf(inviter)).toContain(person.email);
  });

  it('with two-factor sign-in on: the password answers the challenge, and only its second step joins', async () => {
    const inviter = await registerBusiness(server(), 'Inviting Ltd');
    const person = await registerBusiness(server());
    const { secret } = await enableTwoFactor(server(), person.client);
    await invite(inviter.client, person.email, 'viewer');
    const { token } = await mailTo(person.email);

    const { data } = await unwrap(
      anonymous().auth.acceptInvitation({ body: { token, password: person.password } }),
    );
    if (!isSignInChallenge(data)) throw new Error('expected a challenge');
    expect(await membersOf(inviter)).not.toContain(person.email);
    expect(await tokensTo(inviter.businessId, person.email)).toBe(0);

    server().clock.advance(30_000);
    const signed = (
      await unwrap(
        anonymous().auth.completeSignIn({
          body: { challengeToken: data.challengeToken, code: await totpCode(server(), secret) },
        }),
      )
    ).data;
    expect(signed.businessId).toBe(inviter.businessId);
    expect(await membersOf(inviter)).toContain(person.email);
    expect((await unwrap(inviter.client.team.getTeam())).data.invitations).toEqual([]);
  });

  it('with two-factor sign-in on: an invitation revoked before the second step joins nothing (422)', async () => {
    const inviter = await registerBusiness(server(), 'Inviting Ltd');
    const person = await registerBusiness(server());
    const { secret } = await enableTwoFactor(server(), person.client);
    const invitation = await invite(inviter.client, person.email, 'viewer');
    const { token } = await mailTo(person.email);
    const { data } = await unwrap(
      anonymous().auth.acceptInvitation({ body: { token, password: person.password } }),
    );
    if (!isSignInChallenge(data)) throw new Error('expected a challenge');
    await unwrap(inviter.client.team.revokeInvitation({ params: { id: invitation.id } }));
    server().clock.advance(30_000);
    const refused = await anonymous().auth.completeSignIn({
      body: { challengeToken: data.challengeToken, code: await totpCode(server(), secret) },
    });
    expectResultError(refused, 422, 'VALIDATION_ERROR', 'challengeToken');
    expect(await membersOf(inviter)).not.toContain(person.email);
    expect(await tokensTo(inviter.businessId, person.email)).toBe(0);
  });
});

describe('a new person', () => {
  it('sets a password of 12+ characters and is signed in; a session of someone else changes nothing', async () => {
    const owner = await registerBusiness(server(), 'New Person Ltd');
    const email = uniqueEmail('new-person');
    await invite(owner.client, email, 'hr');
    const { token } = await mailTo(email);
    const someoneElse = await registerBusiness(server());
    await expectApiError(
      clientOf(someoneElse.accessToken).auth.acceptInvitation({ body: { token } }),
      422,
      'VALIDATION_ERROR',
      'password',
    );
    const session = sessionOf(
      (await unwrap(anonymous().auth.acceptInvitation({ body: { token, password: PASSWORD } }))).data,
    );
    expect(session.businessId).toBe(owner.businessId);
    expect((await unwrap(clientOf(session.accessToken).auth.getSession())).data.role).toBe('hr');
  });
});

describe('POST /v1/auth/invitations/describe', () => {
  it('shows the business, the invited email, the role, who invited and whether the email has an account', async () => {
    const owner = await registerBusiness(server(), 'Acme Ltd');
    const email = uniqueEmail('preview');
    const invitation = await invite(owner.client, email, 'marketing');
    const { token } = await mailTo(email);
    const res = await anonymous().auth.describeInvitation({ body: { token } });
    expect(res.status).toBe(200);
    if (res.status !== 200) return;
    expect(res.body.data).toEqual({
      businessName: 'Acme Ltd',
      email,
      role: 'marketing',
      invitedBy: owner.email,
      expiresAt: invitation.expiresAt,
      hasAccount: false,
    });

    const existing = await existingPersonInvited();
    const shown = (await unwrap(anonymous().auth.describeInvitation({ body: { token: existing.token } })))
      .data;
    expect(shown).toMatchObject({
      businessName: 'Inviting Ltd',
      email: existing.person.email,
      hasAccount: true,
    });
  });

  it('refuses an unknown, a used and an expired token with 422 on token', async () => {
    const owner = await registerBusiness(server());
    for (const token of ['bms_inv_nope', 'not-even-a-token']) {
      await expectApiError(
        anonymous().auth.describeInvitation({ body: { token } }),
        422,
        'VALIDATION_ERROR',
        'token',
      );
    }
    const used = uniqueEmail('used');
    await invite(owner.client, used);
    const usedToken = (await mailTo(used)).token;
    await unwrap(anonymous().auth.acceptInvitation({ body: { token: usedToken, password: PASSWORD } }));
    await expectApiError(
      anonymous().auth.describeInvitation({ body: { token: usedToken } }),
      422,
      'VALIDATION_ERROR',
      'token',
    );
    const late = uniqueEmail('late');
    await invite(owner.client, late);
    const lateToken = (await mailTo(late)).token;
    server().clock.advance(7 * DAY_MS + 1000);
    await expectApiError(
      anonymous().auth.describeInvitation({ body: { token: lateToken } }),
      422,
      'VALIDATION_ERROR',
      'token',
    );
  });
});

describe('the invitation mail', () => {
  it('speaks to the person: who invites them where, as what, the link, 7 days, what if unexpected; text and HTML', async () => {
    const owner = await registerBusiness(server(), 'Acme Ltd');
    const email = uniqueEmail('mail');
    await invite(owner.client, email, 'accountant');
    const mail = await mailTo(email);
    expect(mail.subject).toBe(`${owner.email} invited you to Acme Ltd`);
    const link = `${publicBaseUrl(server().deps.config)}/invitations/${mail.token}`;
    for (const part of [mail.body, mail.html ?? '']) {
      expect(part).toContain(`${owner.email} invited you to join Acme Ltd as an accountant`);
      expect(part).toContain('customers, sales and the books');
      expect(part).toContain(link);
      expect(part).toContain('valid for 7 days');
      expect(part).toContain('Not expecting this?');
      // No API for the person to call: the token only ever appears inside the link.
      expect(part).not.toContain('/v1/');
      expect(part).not.toContain('POST');
      expect(part.split(mail.token).length).toBe(part.split(link).length);
    }
    expect(mail.html).toContain(`href="${link}"`);
  });
});

describe('managing pending invitations', () => {
  it('resends the same link, valid 7 days from the resend, with a new mail', async () => {
    const owner = await registerBusiness(server());
    const email = uniqueEmail('resend');
    const invitation = await invite(owner.client, email);
    const first = await mailTo(email);
    server().clock.advance(3 * DAY_MS);
    const res = await owner.client.team.resendInvitation({ params: { id: invitation.id } });
    expect(res.status).toBe(200);
    if (res.status !== 200) return;
    const resent = res.body.data;
    expect(resent).toMatchObject({ id: invitation.id, createdAt: invitation.createdAt });
    expect(Date.parse(resent.sentAt) - Date.parse(invitation.sentAt)).toBeGreaterThanOrEqual(3 * DAY_MS);
    expect(Date.parse(resent.expiresAt) - Date.parse(resent.sentAt)).toBe(7 * DAY_MS);
    expect(await mailCount(email)).toBe(2);
    expect((await mailTo(email)).token).toBe(first.token);
    // Past the first 7 days, the resent link still works.
    server().clock.advance(5 * DAY_MS);
    await unwrap(anonymous().auth.acceptInvitation({ body: { token: first.token, password: PASSWORD } }));
    const audit = await server()
      .deps.db.selectFrom('audit_log')
      .select(['operation', 'resource_id'])
      .where('business_id', '=', owner.businessId)
      .where('operation', '=', 'resendInvitation')
      .execute();
    expect(audit).toEqual([{ operation: 'resendInvitation', resource_id: invitation.id }]);
  });

  it('answers the link of the mail to copy; a row made before links were kept gets a new token', async () => {
    const owner = await registerBusiness(server());
    const email = uniqueEmail('link');
    const invitation = await invite(owner.client, email);
    const mail = await mailTo(email);
    const { token } = mail;
    const res = await owner.client.team.getInvitationLink({ params: { id: invitation.id } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toContain('no-store');
    if (res.status !== 200) return;
    expect(res.body.data).toEqual({
      url: expect.stringMatching(/^https?:\/\//),
      expiresAt: invitation.expiresAt,
    });
    expect(res.body.data.url.endsWith(`/invitations/${token}`)).toBe(true);
    expect(mail.body).toContain(res.body.data.url);

    // An invitation of before: no sealed token, so the link is a new one and the old stops working.
    const legacyToken = newSecret(INVITATION_PREFIX);
    const legacyId = newId('inv');
    await server()
      .deps.db.insertInto('invitations')
      .values({
        id: legacyId,
        business_id: owner.businessId,
        email: uniqueEmail('legacy'),
        role: 'viewer',
        token_hash: hashSecret(legacyToken),
        expires_at: new Date(Date.now() + DAY_MS),
      })
      .execute();
    const fresh = (await unwrap(owner.client.team.getInvitationLink({ params: { id: legacyId } }))).data;
    const freshToken = fresh.url.split('/invitations/')[1] ?? '';
    expect(freshToken).toMatch(/^bms_inv_/);
    expect(freshToken).not.toBe(legacyToken);
    await expectApiError(
      anonymous().auth.describeInvitation({ body: { token: legacyToken } }),
      422,
      'VALIDATION_ERROR',
      'token',
    );
    await unwrap(anonymous().auth.describeInvitation({ body: { token: freshToken } }));
  });

  it('revokes: the link stops working and the invitation leaves the list', async () => {
    const owner = await registerBusiness(server());
    const email = uniqueEmail('revoke');
    const invitation = await invite(owner.client, email);
    const { token } = await mailTo(email);
    const res = await owner.client.team.revokeInvitation({ params: { id: invitation.id } });
    expect(res.status).toBe(200);
    expect((await unwrap(owner.client.team.getTeam())).data.invitations).toEqual([]);
    await expectApiError(
      anonymous().auth.acceptInvitation({ body: { token, password: PASSWORD } }),
      422,
      'VALIDATION_ERROR',
      'token',
    );
    // Gone: a second revoke, a resend or a link is 404.
    await expectApiError(
      owner.client.team.revokeInvitation({ params: { id: invitation.id } }),
      404,
      'NOT_FOUND',
    );
    await expectApiError(
      owner.client.team.resendInvitation({ params: { id: invitation.id } }),
      404,
      'NOT_FOUND',
    );
    await expectApiError(
      owner.client.team.getInvitationLink({ params: { id: invitation.id } }),
      404,
      'NOT_FOUND',
    );
  });

  it('refuses an accepted invitation (409 INVALID_STATE) and an expired one for resend and link (409); an expired one can be revoked', async () => {
    const owner = await registerBusiness(server());
    const accepted = uniqueEmail('accepted');
    const done = await invite(owner.client, accepted);
    await unwrap(
      anonymous().auth.acceptInvitation({
        body: { token: (await mailTo(accepted)).token, password: PASSWORD },
      }),
    );
    for (const call of [
      owner.client.team.resendInvitation({ params: { id: done.id } }),
      owner.client.team.getInvitationLink({ params: { id: done.id } }),
      owner.client.team.revokeInvitation({ params: { id: done.id } }),
    ]) {
      await expectApiError(call, 409, 'INVALID_STATE');
    }

    // Expired (the owner's own session would not outlive a clock moved 7 days).
    const late = await invite(owner.client, uniqueEmail('expired'));
    await server()
      .deps.db.updateTable('invitations')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', late.id)
      .execute();
    await expectApiError(
      owner.client.team.resendInvitation({ params: { id: late.id } }),
      409,
      'INVALID_STATE',
    );
    await expectApiError(
      owner.client.team.getInvitationLink({ params: { id: late.id } }),
      409,
      'INVALID_STATE',
    );
    await unwrap(owner.client.team.revokeInvitation({ params: { id: late.id } }));
  });

  it("refuses another business's invitation (404) and an owner's invitation to an admin (403); a viewer may not manage (403)", async () => {
    const owner = await registerBusiness(server());
    const other = await registerBusiness(server());
    const theirs = await invite(other.client, uniqueEmail('theirs'));
    await expectApiError(owner.client.team.resendInvitation({ params: { id: theirs.id } }), 404, 'NOT_FOUND');
    await expectApiError(owner.client.team.revokeInvitation({ params: { id: theirs.id } }), 404, 'NOT_FOUND');

    const ownerInvitation = await invite(owner.client, uniqueEmail('co-owner'), 'owner');
    const admin = clientOf((await signedInMember(server(), owner, 'admin')).accessToken);
    for (const call of [
      admin.team.resendInvitation({ params: { id: ownerInvitation.id } }),
      admin.team.getInvitationLink({ params: { id: ownerInvitation.id } }),
      admin.team.revokeInvitation({ params: { id: ownerInvitation.id } }),
    ]) {
      await expectApiError(call, 403, 'FORBIDDEN');
    }
    const viewer = clientOf((await signedInMember(server(), owner, 'viewer')).accessToken);
    await expectApiError(
      viewer.team.getInvitationLink({ params: { id: ownerInvitation.id } }),
      403,
      'FORBIDDEN',
    );
    expect((await unwrap(owner.client.team.getTeam())).data.invitations.map((i) => i.id)).toEqual([
      ownerInvitation.id,
    ]);
  });
});
