import { afterEach, describe, expect, it } from 'vitest';
import { createClient, unwrap, type Client, sessionOf } from '../../client/index.js';
import type { Role } from '../../contract/permissions.js';
import { invitationMailTo } from '../support/auth.js';
import { registerBusiness, uniqueEmail, type TestBusiness } from '../support/business.js';
import { expectApiError, expectError, expectResultError } from '../support/expect.js';
import { useTestServer } from '../support/setup.js';

// Wrong and used tokens count as failed sign-ins of the address; this file makes more than the default allows.
const server = useTestServer({ worker: false, env: { SIGNIN_MAX_FAILURES: '1000' } });

afterEach(() => {
  server().clock.reset();
});

const DAY_MS = 24 * 60 * 60 * 1000;
const PASSWORD = 'another horse battery staple';

const anonymous = () => createClient({ baseUrl: server().baseUrl, maxRetries: 0 });
const clientOf = (accessToken: string) =>
  createClient({ baseUrl: server().baseUrl, accessToken, maxRetries: 0 });

/** The token of the last invitation mailed to `email`, read from the captured mail. */
const invitationToken = (email: string) => invitationMailTo(server(), email);

async function invite(client: Client, email: string, role: Role) {
  return (await unwrap(client.team.inviteMember({ body: { email, role } }))).data;
}

/** Invites a new person with the role and accepts for them: their user id and client. */
async function newMember(owner: TestBusiness, role: Role) {
  const email = uniqueEmail(role);
  await invite(owner.client, email, role);
  const { token } = await invitationToken(email);
  const session = sessionOf(
    (await unwrap(anonymous().auth.acceptInvitation({ body: { token, password: PASSWORD } }))).data,
  );
  const team = (await unwrap(owner.client.team.getTeam())).data;
  const member = team.members.find((m) => m.email === email)!;
  return { email, userId: member.userId, token: session.accessToken, client: clientOf(session.accessToken) };
}

const ownerIdOf = async (owner: TestBusiness) =>
  (await unwrap(owner.client.team.getTeam())).data.members.find((m) => m.email === owner.email)!.userId;

describe('invitations', () => {
  it('mails a single-use link with the token, lists the invitation as pending and never answers the token', async () => {
    const owner = await registerBusiness(server(), 'Acme Ltd');
    const email = uniqueEmail('bookkeeper');
    const res = await owner.client.team.inviteMember({ body: { email, role: 'accountant' } });
    expect(res.status).toBe(201);
    if (res.status !== 201) return;
    const invitation = res.body.data;
    expect(invitation).toEqual({
      id: expect.stringMatching(/^inv_/),
      email,
      role: 'accountant',
      createdAt: expect.any(String),
      sentAt: invitation.createdAt,
      expiresAt: expect.any(String),
    });
    expect(Date.parse(invitation.expiresAt) - Date.parse(invitation.createdAt)).toBe(7 * DAY_MS);
    expect(JSON.stringify(res.body)).not.toContain('bms_inv_');

    const { token, body } = await invitationToken(email);
    expect(body).toContain(`/invitations/${token}`);
    const stored = await server()
      .deps.db.selectFrom('invitations')
      .selectAll()
      .where('id', '=', invitation.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(token);

    const team = (await unwrap(owner.client.team.getTeam())).data;
    expect(team.members).toEqual([
      {
        userId: expect.stringMatching(/^usr_/),
        email: owner.email,
        role: 'owner',
        joinedAt: expect.any(String),
        activeApiKeys: 0,
      },
    ]);
    expect(team.invitations).toEqual([invitation]);
  });

  it('makes a new person a user with their password and a member with the role; the token works once', async () => {
    const owner = await registerBusiness(server());
    const email = uniqueEmail('new');
    await invite(owner.client, email, 'hr');
    const { token } = await invitationToken(email);

    // A new person must choose a password of 12+ characters.
    await expectApiError(
      anonymous().auth.acceptInvitation({ body: { token } }),
      422,
      'VALIDATION_ERROR',
      'password',
    );
    await expectApiError(
      anonymous().auth.acceptInvitation({ body: { token, password: 'short' } }),
      422,
      'VALIDATION_ERROR',
      'password',
    );

    const session = sessionOf(
      (await unwrap(anonymous().auth.acceptInvitation({ body: { token, password: PASSWORD } }))).data,
    );
    expect(session).toMatchObject({ businessId: owner.businessId, tokenType: 'Bearer', environment: 'live' });
    const member = clientOf(session.accessToken);
    expect((await member.hr.departments.listDepartments({ query: {} })).status).toBe(200);

    const team = (await unwrap(owner.client.team.getTeam())).data;
    expect(team.members.map((m) => [m.email, m.role])).toEqual([
      [owner.email, 'owner'],
      [email, 'hr'],
    ]);
    expect(team.invitations).toEqual([]);

    // Used: refused the second time, whatever the password.
    await expectApiError(
      anonymous().auth.acceptInvitation({ body: { token, password: PASSWORD } }),
      422,
      'VALIDATION_ERROR',
      'token',
    );
    // The new person signs in with their password.
    const signedIn = sessionOf(
      (await unwrap(anonymous().auth.signIn({ body: { email, password: PASSWORD } }))).data,
    );
    expect(signedIn.businessId).toBe(owner.businessId);
  });

  it('refuses an unknown token and an expired one (past 7 days) with 422 on token', async () => {
    const owner = await registerBusiness(server());
    const email = uniqueEmail('late');
    await invite(owner.client, email, 'viewer');
    const { token } = await invitationToken(email);

    await expectApiError(
      anonymous().auth.acceptInvitation({ body: { token: 'bms_inv_nope', password: PASSWORD } }),
      422,
      'VALIDATION_ERROR',
      'token',
    );
    server().clock.advance(7 * DAY_MS + 1000);
    await expectApiError(
      anonymous().auth.acceptInvitation({ body: { token, password: PASSWORD } }),
      422,
      'VALIDATION_ERROR',
      'token',
    );
    const user = await server()
      .deps.db.selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirst();
    expect(user).toBeUndefined();
  });

  it('joins a person of another business with their own account; then signing in needs businessId', async () => {
    const first = await registerBusiness(server(), 'First Ltd');
    const second = await registerBusiness(server(), 'Second Ltd');
    await invite(second.client, first.email, 'marketing');
    const { token } = await invitationToken(first.email);

    const session = sessionOf(
      (await unwrap(anonymous().auth.acceptInvitation({ body: { token, password: first.password } }))).data,
    );
    expect(session.businessId).toBe(second.businessId);
    const team = (await unwrap(second.client.team.getTeam())).data;
    expect(team.members.find((m) => m.email === first.email)?.role).toBe('marketing');

    // The same password as before: no account was made.
    const choose = await anonymous().auth.signIn({ body: { email: first.email, password: first.password } });
    const error = expectResultError(choose, 422, 'VALIDATION_ERROR', 'businessId');
    expect(error.details?.map((d) => d.message)).toEqual(
      expect.arrayContaining([`${first.businessId}: First Ltd`, `${second.businessId}: Second Ltd`]),
    );

    const toSecond = sessionOf(
      (
        await unwrap(
          anonymous().auth.signIn({
            body: { email: first.email, password: first.password, businessId: second.businessId },
          }),
        )
      ).data,
    );
    expect(toSecond.businessId).toBe(second.businessId);
    const toFirst = sessionOf(
      (
        await unwrap(
          anonymous().auth.signIn({
            body: { email: first.email, password: first.password, businessId: first.businessId },
          }),
        )
      ).data,
    );
    expect(toFirst.businessId).toBe(first.businessId);

    // A business the person is not a member of: as wrong credentials.
    const stranger = await registerBusiness(server());
    const refused = await anonymous().auth.signIn({
      body: { email: first.email, password: first.password, businessId: stranger.businessId },
    });
    expectResultError(refused, 401, 'UNAUTHORIZED');

    // The sandbox of the chosen business.
    const sandbox = sessionOf(
      (
        await unwrap(
          anonymous().auth.signIn({
            body: {
              email: first.email,
              password: first.password,
              businessId: second.businessId,
              environment: 'sandbox',
            },
          }),
        )
      ).data,
    );
    expect(sandbox.environment).toBe('sandbox');
    const sandboxOf = await server()
      .deps.db.selectFrom('businesses')
      .select('live_business_id')
      .where('id', '=', sandbox.businessId)
      .executeTakeFirstOrThrow();
    expect(sandboxOf.live_business_id).toBe(second.businessId);
  });

  it('refuses to invite a member again (409), and an owner invited by a non-owner (403)', async () => {
    const owner = await registerBusiness(server());
    const admin = await newMember(owner, 'admin');
    await expectApiError(
      owner.client.team.inviteMember({ body: { email: admin.email, role: 'viewer' } }),
      409,
      'CONFLICT',
    );
    await expectApiError(
      owner.client.team.inviteMember({ body: { email: owner.email.toUpperCase(), role: 'viewer' } }),
      409,
      'CONFLICT',
    );
    await expectApiError(
      admin.client.team.inviteMember({ body: { email: uniqueEmail(), role: 'owner' } }),
      403,
      'FORBIDDEN',
    );
    expect(
      (await admin.client.team.inviteMember({ body: { email: uniqueEmail(), role: 'admin' } })).status,
    ).toBe(201);
    expect(
      (await owner.client.team.inviteMember({ body: { email: uniqueEmail(), role: 'owner' } })).status,
    ).toBe(201);
  });
});

describe('roles and removal', () => {
  it('a member made viewer is refused a write at their next request', async () => {
    const owner = await registerBusiness(server());
    const member = await newMember(owner, 'accountant');
    const write = () => member.client.general.customers.createCustomer({ body: { name: 'Ada' } });
    expect((await write()).status).toBe(201);

    const changed = await unwrap(
      owner.client.team.changeMemberRole({ params: { userId: member.userId }, body: { role: 'viewer' } }),
    );
    expect(changed.data).toMatchObject({ userId: member.userId, email: member.email, role: 'viewer' });
    // The general group answers in its own envelope.
    expectError(await write(), 403, 'FORBIDDEN');
    expect((await member.client.general.customers.listCustomers({ query: {} })).status).toBe(200);
  });

  it('only an owner makes or unmakes an owner (403 to an admin); the last owner cannot be demoted or removed (409)', async () => {
    const owner = await registerBusiness(server());
    const admin = await newMember(owner, 'admin');
    const viewer = await newMember(owner, 'viewer');
    const ownerId = await ownerIdOf(owner);

    await expectApiError(
      admin.client.team.changeMemberRole({ params: { userId: viewer.userId }, body: { role: 'owner' } }),
      403,
      'FORBIDDEN',
    );
    await expectApiError(
      admin.client.team.changeMemberRole({ params: { userId: ownerId }, body: { role: 'admin' } }),
      403,
      'FORBIDDEN',
    );
    await expectApiError(admin.client.team.removeMember({ params: { userId: ownerId } }), 403, 'FORBIDDEN');
    // An admin changes the other roles.
    await unwrap(
      admin.client.team.changeMemberRole({ params: { userId: viewer.userId }, body: { role: 'hr' } }),
    );

    await expectApiError(
      owner.client.team.changeMemberRole({ params: { userId: ownerId }, body: { role: 'admin' } }),
      409,
      'CONFLICT',
    );
    await expectApiError(owner.client.team.removeMember({ params: { userId: ownerId } }), 409, 'CONFLICT');

    // With a second owner, the first may step down.
    await unwrap(
      owner.client.team.changeMemberRole({ params: { userId: admin.userId }, body: { role: 'owner' } }),
    );
    await unwrap(
      owner.client.team.changeMemberRole({ params: { userId: ownerId }, body: { role: 'admin' } }),
    );
    const roles = (await unwrap(admin.client.team.getTeam())).data.members.map((m) => [m.userId, m.role]);
    expect(roles).toEqual(
      expect.arrayContaining([
        [ownerId, 'admin'],
        [admin.userId, 'owner'],
      ]),
    );
    await expectApiError(
      owner.client.team.changeMemberRole({ params: { userId: 'usr_nope' }, body: { role: 'viewer' } }),
      404,
      'NOT_FOUND',
    );
  });

  it("removal revokes the person's tokens at once, live and sandbox: their next request is 401", async () => {
    const owner = await registerBusiness(server());
    const member = await newMember(owner, 'admin');
    const sandbox = sessionOf(
      (
        await unwrap(
          anonymous().auth.signIn({
            body: { email: member.email, password: PASSWORD, environment: 'sandbox' },
          }),
        )
      ).data,
    );
    const sandboxClient = clientOf(sandbox.accessToken);
    // Both tokens work (and the live one is now in the credential cache).
    expect((await member.client.team.getTeam()).status).toBe(200);
    expect((await sandboxClient.team.getTeam()).status).toBe(200);

    expect((await owner.client.team.removeMember({ params: { userId: member.userId } })).status).toBe(200);

    expect((await member.client.team.getTeam()).status).toBe(401);
    expect((await sandboxClient.team.getTeam()).status).toBe(401);
    const revoked = await server()
      .deps.db.selectFrom('access_tokens')
      .select('revoked_at')
      .where('business_id', 'in', [owner.businessId, sandbox.businessId])
      .where('user_id', '=', member.userId)
      .execute();
    expect(revoked.length).toBe(2);
    expect(revoked.every((t) => t.revoked_at !== null)).toBe(true);
    // And signing in finds no business for them.
    expectResultError(
      await anonymous().auth.signIn({ body: { email: member.email, password: PASSWORD } }),
      401,
      'UNAUTHORIZED',
    );
    const team = (await unwrap(owner.client.team.getTeam())).data;
    expect(team.members.map((m) => m.userId)).not.toContain(member.userId);
  });
});

describe('the link in the mail', () => {
  it("redirects to the dashboard's acceptance screen with the token in the fragment, never stored or cached", async () => {
    const owner = await registerBusiness(server(), 'Page Ltd');
    const email = uniqueEmail('page');
    await invite(owner.client, email, 'accountant');
    const { token, body } = await invitationToken(email);
    expect(body).toContain(`/invitations/${token}`);

    const answer = await fetch(`${server().baseUrl}/invitations/${encodeURIComponent(token)}`, {
      redirect: 'manual',
    });
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe(`/app/invitation#${token}`);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    // Opening the link accepts nothing.
    const team = (await unwrap(owner.client.team.getTeam())).data;
    expect(team.invitations.map((i) => i.email)).toEqual([email]);
  });

  it("joins only the invited email: a token presented with another person's password makes no one else a member", async () => {
    const owner = await registerBusiness(server(), 'Invited Only Ltd');
    const stranger = await registerBusiness(server(), 'Stranger Ltd');
    const email = uniqueEmail('invited-only');
    await invite(owner.client, email, 'viewer');
    const { token } = await invitationToken(email);

    await unwrap(anonymous().auth.acceptInvitation({ body: { token, password: stranger.password } }));
    const team = (await unwrap(owner.client.team.getTeam())).data;
    expect(team.members.map((m) => m.email).sort()).toEqual([owner.email, email].sort());
    // The stranger still has one business: signing in needs no choice, and lands in their own.
    const signedIn = sessionOf(
      (
        await unwrap(
          anonymous().auth.signIn({ body: { email: stranger.email, password: stranger.password } }),
        )
      ).data,
    );
    expect(signedIn.businessId).toBe(stranger.businessId);
  });
});
