import { createClient, sessionOf, unwrap, type Client } from '../../client/index.js';
import type { Role } from '../../contract/permissions.js';
import { invitationMailTo } from './auth.js';
import { uniqueEmail, type TestBusiness } from './business.js';
import type { TestServer } from './server.js';

/** Factories of the team: members invited and joined. */

/** The password every member made by `newMember` signs in with. */
export const MEMBER_PASSWORD = 'another horse battery staple';

export interface TestMember {
  email: string;
  userId: string;
  /** The access token the member got by accepting. */
  token: string;
  client: Client;
}

/** Invites a new person with the role and accepts for them: their user id, token and client. */
export async function newMember(server: TestServer, owner: TestBusiness, role: Role): Promise<TestMember> {
  const email = uniqueEmail(role);
  await unwrap(owner.client.team.inviteMember({ body: { email, role } }));
  const { token } = await invitationMailTo(server, email);
  const anonymous = createClient({ baseUrl: server.baseUrl, maxRetries: 0 });
  const session = sessionOf(
    (await unwrap(anonymous.auth.acceptInvitation({ body: { token, password: MEMBER_PASSWORD } }))).data,
  );
  const team = (await unwrap(owner.client.team.getTeam())).data;
  const member = team.members.find((m) => m.email === email);
  if (!member) throw new Error(`${email} did not join`);
  return {
    email,
    userId: member.userId,
    token: session.accessToken,
    client: createClient({ baseUrl: server.baseUrl, accessToken: session.accessToken, maxRetries: 0 }),
  };
}

/** A new access token of the member, signed in to the environment (live unless told). */
export async function signInMember(
  server: TestServer,
  member: Pick<TestMember, 'email'>,
  environment: 'live' | 'sandbox' = 'live',
) {
  const anonymous = createClient({ baseUrl: server.baseUrl, maxRetries: 0 });
  return sessionOf(
    (
      await unwrap(
        anonymous.auth.signIn({ body: { email: member.email, password: MEMBER_PASSWORD, environment } }),
      )
    ).data,
  );
}

/** A client of `server` with this access token or full API key. */
export const clientWith = (server: TestServer, accessToken: string): Client =>
  createClient({ baseUrl: server.baseUrl, accessToken, maxRetries: 0 });
