import { beforeAll, describe, expect, it } from 'vitest';
import { createClient, unwrap, type Client } from '../../client/index.js';
import { ROLES, type Role } from '../../contract/permissions.js';
import { createApiKey } from '../support/auth.js';
import { registerBusiness, signedInMember, signInTo, type TestBusiness } from '../support/business.js';
import { expectResultError } from '../support/expect.js';
import { useTestServer } from '../support/setup.js';
import { waitFor } from '../support/wait.js';

// No SMTP_URL: live mail is captured too, and it carries invitation links.
const server = useTestServer();

const PASSWORD = 'correct horse battery staple';
const tokenClient = (accessToken: string): Client =>
  createClient({ baseUrl: server().baseUrl, accessToken, maxRetries: 0 });

let owner: TestBusiness;
const live = new Map<Role | 'full key', Client>();
const sandbox = new Map<Role, Client>();
const invited = 'new-admin@example.test';

beforeAll(async () => {
  owner = await registerBusiness(server());
  live.set('owner', owner.client);
  sandbox.set('owner', (await signInTo(server(), owner, 'sandbox')).client);
  for (const role of ROLES.filter((r) => r !== 'owner')) {
    const member = await signedInMember(server(), owner, role);
    live.set(role, tokenClient(member.accessToken));
    sandbox.set(
      role,
      (await signInTo(server(), { email: member.email, password: PASSWORD }, 'sandbox')).client,
    );
  }
  live.set(
    'full key',
    createClient({
      baseUrl: server().baseUrl,
      apiKey: (await createApiKey(owner.client, 'full')).key,
      maxRetries: 0,
    }),
  );
  // An admin's invitation: its mail carries the link that makes whoever follows it an admin.
  await unwrap(owner.client.team.inviteMember({ body: { email: invited, role: 'admin' } }));
  await waitFor('the invitation to be captured', async () => {
    const { messages } = await unwrap(owner.client.sandbox.messages.listMessages({ query: {} }));
    return messages.some((m) => m.to === invited);
  });
}, 120_000);

describe('GET /v1/sandbox/messages in live without SMTP_URL, by role', () => {
  for (const who of ['owner', 'admin', 'full key'] as const) {
    it(`lists captured live mail, the invitation included, to ${who === 'full key' ? 'a full API key' : `an ${who}`}`, async () => {
      const { messages, total_count } = await unwrap(
        live.get(who)!.sandbox.messages.listMessages({ query: {} }),
      );
      expect(total_count).toBeGreaterThanOrEqual(1);
      const invitation = messages.find((m) => m.to === invited);
      expect(invitation?.text).toMatch(/https?:\/\/\S+/);
    });
  }

  for (const role of ROLES.filter((r) => r !== 'owner' && r !== 'admin')) {
    it(`refuses the ${role} role (403 FORBIDDEN saying only owners and admins read it)`, async () => {
      const error = expectResultError(
        await live.get(role)!.sandbox.messages.listMessages({ query: {} }),
        403,
        'FORBIDDEN',
      );
      expect(error.message).toContain('only owners and admins (and full API keys) read it');
      expect(error.message).toContain(`not the ${role} role`);
    });
  }

  it('tells each role where mail goes (session: mail captured)', async () => {
    for (const client of live.values()) {
      expect((await unwrap(client.auth.getSession())).data.mail).toBe('captured');
    }
  });
});

describe("GET /v1/sandbox/messages in the sandbox: every role's (a sandbox invites nobody)", () => {
  for (const role of ROLES) {
    it(`lists the sandbox's captured mail to the ${role} role`, async () => {
      const answer = await unwrap(sandbox.get(role)!.sandbox.messages.listMessages({ query: {} }));
      expect(answer.result).toBe('success');
      // The live business's mail never shows in its sandbox.
      expect(answer.messages.map((m) => m.to)).not.toContain(invited);
    });
  }
});
