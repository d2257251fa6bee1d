import { describe, expect, it } from 'vitest';
import { createClient, unwrap } from '../../client/index.js';
import { invitationMailTo } from '../support/auth.js';
import { raw, registerBusiness, uniqueEmail, type TestBusiness } from '../support/business.js';
import { expectResultError } from '../support/expect.js';
import { useTestServer } from '../support/setup.js';

/**
 * Unrestricted access to sensitive business flows (OWASP API6): the flows anyone can reach without
 * a credential are bounded per client address. Sign-in and register throttling are tested in
 * test/auth/throttling.test.ts; here the invitation flows (page and API), which take a secret token
 * as a password would be taken, and the capability pages whose tokens a client might try to guess.
 */

const MAX_FAILURES = 3;
const ANONYMOUS_LIMIT = 20;
const PASSWORD = 'correct horse battery staple';
const server = useTestServer({
  worker: false,
  env: {
    SIGNIN_MAX_FAILURES: String(MAX_FAILURES),
    ANONYMOUS_RATE_LIMIT: String(ANONYMOUS_LIMIT),
    TRUST_PROXY: 'loopback',
  },
});

let lastIp = 10;
/** A client address no other test uses (sent as X-Forwarded-For, trusted from loopback). */
const newIp = () => `203.0.113.${++lastIp}`;
const from = (ip: string) => ({ 'x-forwarded-for': ip });

/** An invitation of a new person to a business: its token as mailed. */
async function invitation(owner: TestBusiness): Promise<string> {
  const email = uniqueEmail('invitee');
  await unwrap(owner.client.team.inviteMember({ body: { email, role: 'viewer' } }));
  return (await invitationMailTo(server(), email)).token;
}

const guess = () => `bms_inv_${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;

describe('guessing invitation tokens', () => {
  it(`blocks an address on the invitation screen's lookup after ${MAX_FAILURES} unknown tokens, even for a real one (429)`, async () => {
    const owner = await registerBusiness(server());
    const token = await invitation(owner);
    const ip = newIp();
    const client = (address: string) =>
      createClient({ baseUrl: server().baseUrl, maxRetries: 0, headers: from(address) });
    // The mail's link only hands the token to the dashboard, in the fragment: it checks nothing.
    const guessed = guess();
    const link = await fetch(`${server().baseUrl}/invitations/${guessed}`, {
      headers: from(ip),
      redirect: 'manual',
    });
    expect(link.status).toBe(303);
    expect(link.headers.get('location')).toBe(`/app/invitation#${guessed}`);
    for (let i = 0; i < MAX_FAILURES; i++) {
      const res = await client(ip).auth.describeInvitation({ body: { token: guess() } });
      expectResultError(res, 422, 'VALIDATION_ERROR', 'token');
    }
    const blocked = await client(ip).auth.describeInvitation({ body: { token } });
    expectResultError(blocked, 429, 'RATE_LIMITED');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    const accepting = await client(ip).auth.acceptInvitation({ body: { token, password: PASSWORD } });
    expect(accepting.status).toBe(429);
    // Another address is not affected, and the invitation was not used up.
    const other = await client(newIp()).auth.describeInvitation({ body: { token } });
    expect(other.status).toBe(200);
    expect((await unwrap(owner.client.team.getTeam())).data.members).toHaveLength(1);
  });

  it(`blocks an address on POST /v1/auth/invitations/accept after ${MAX_FAILURES} unknown tokens (429)`, async () => {
    const owner = await registerBusiness(server());
    const token = await invitation(owner);
    const ip = newIp();
    const client = (address: string) =>
      createClient({ baseUrl: server().baseUrl, maxRetries: 0, headers: from(address) });
    for (let i = 0; i < MAX_FAILURES; i++) {
      const res = await client(ip).auth.acceptInvitation({ body: { token: guess(), password: PASSWORD } });
      expect(res.status).toBe(422);
    }
    const blocked = await client(ip).auth.acceptInvitation({ body: { token, password: PASSWORD } });
    expectResultError(blocked, 429, 'RATE_LIMITED');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    const team = (await unwrap(owner.client.team.getTeam())).data;
    expect(team.members).toHaveLength(1);
    // The same token from another address is accepted: the guesses used nothing up.
    const accepted = await client(newIp()).auth.acceptInvitation({ body: { token, password: PASSWORD } });
    expect(accepted.status).toBe(200);
  });

  it('counts the lookup and the acceptance together: failures on one block the other', async () => {
    const owner = await registerBusiness(server());
    const token = await invitation(owner);
    const ip = newIp();
    const client = createClient({ baseUrl: server().baseUrl, maxRetries: 0, headers: from(ip) });
    for (let i = 0; i < MAX_FAILURES; i++) {
      expect((await client.auth.describeInvitation({ body: { token: guess() } })).status).toBe(422);
    }
    const res = await client.auth.acceptInvitation({ body: { token, password: PASSWORD } });
    expect(res.status).toBe(429);
  });
});

describe('guessing the tokens of capability pages', () => {
  it.each([
    ['hosted invoices', (t: string) => `/i/${t}`],
    ['hosted quotes', (t: string) => `/q/${t}`],
    ['hosted credit notes', (t: string) => `/c/${t}`],
    ['unsubscribe pages', (t: string) => `/u/${t}`],
    ['open pixels', (t: string) => `/t/o/${t}`],
  ])(
    `bounds guesses at %s to ${ANONYMOUS_LIMIT} a minute per address (429 with Retry-After)`,
    async (_label, path) => {
      const ip = newIp();
      const attempt = () =>
        raw(server(), 'GET', path(`${Math.random().toString(36).slice(2)}.sig`), { headers: from(ip) });
      for (let i = 0; i < ANONYMOUS_LIMIT; i++) expect((await attempt()).status).toBe(404);
      const limited = await attempt();
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      // Another address still gets its answer.
      const other = await raw(server(), 'GET', path('x.sig'), { headers: from(newIp()) });
      expect(other.status).toBe(404);
    },
  );
});
