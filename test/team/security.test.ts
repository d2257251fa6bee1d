import { contract } from '../../client/index.js';
import { hashPassword, hashSecret, INVITATION_PREFIX, newSecret } from '../../server/auth/secrets.js';
import { newId } from '../../server/platform/ids.js';
import { registerBusiness, uniqueEmail, type TestBusiness } from '../support/business.js';
import { describeRouteSecurity } from '../support/security.js';
import { useTestServer } from '../support/setup.js';

const server = useTestServer({ worker: false });

const { team } = contract;

/** A viewer of the business, made as accepting an invitation does (user and membership): their user id. */
async function memberOf(t: TestBusiness): Promise<string> {
  const db = server().deps.db;
  const userId = newId('usr');
  const password_hash = await hashPassword('correct horse battery staple');
  await db
    .insertInto('users')
    .values({ id: userId, business_id: t.businessId, email: uniqueEmail('member'), password_hash })
    .execute();
  await db
    .insertInto('memberships')
    .values({ business_id: t.businessId, user_id: userId, role: 'viewer' })
    .execute();
  return userId;
}

/** A pending invitation of the business, made as inviting does (its token sealed): its id. */
async function invitationOf(t: TestBusiness): Promise<string> {
  const token = newSecret(INVITATION_PREFIX);
  const id = newId('inv');
  const now = Date.now();
  await server()
    .deps.db.insertInto('invitations')
    .values({
      id,
      business_id: t.businessId,
      email: uniqueEmail('invited'),
      role: 'viewer',
      token_hash: hashSecret(token),
      token_sealed: server().deps.secrets.seal(token),
      expires_at: new Date(now + 7 * 24 * 3600_000),
    })
    .execute();
  return id;
}

describeRouteSecurity({
  server,
  tenant: registerBusiness,
  router: team,
  routes: (route) => [
    route(team.getTeam, async () => ({})),
    route(team.inviteMember, async () => ({
      body: { email: uniqueEmail('invited'), role: 'viewer' as const },
    })),
    route(team.resendInvitation, async (t) => ({ params: { id: await invitationOf(t) } })),
    route(team.getInvitationLink, async (t) => ({ params: { id: await invitationOf(t) } })),
    route(team.revokeInvitation, async (t) => ({ params: { id: await invitationOf(t) } })),
    route(team.changeMemberRole, async (t) => ({
      params: { userId: await memberOf(t) },
      body: { role: 'hr' as const },
    })),
    route(team.removeMember, async (t) => ({ params: { userId: await memberOf(t) } })),
  ],
});
