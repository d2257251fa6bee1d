import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unwrap, type Client } from '../../client/index.js';
import { createApiKey } from '../support/auth.js';
import { raw, registerBusiness, registerShop, uniqueEmail } from '../support/business.js';
import { startSecondServer } from '../support/second-server.js';
import type { TestServer } from '../support/server.js';
import { useTestServer } from '../support/setup.js';
import { clientWith, newMember, signInMember } from '../support/team.js';
import { enableTwoFactor } from '../support/two-factor.js';

// A change that restricts access, made through one service, applies to the very next request
// another service over the same database answers, though that service had the credential in its
// cache (no clock moves: the cache's time has not run out).
const a = useTestServer({ worker: false });
let second: TestServer | undefined;
const b = () => {
  if (!second) throw new Error('second server not started');
  return second;
};

beforeAll(async () => {
  second = await startSecondServer(a());
});
afterAll(async () => {
  const violations = second?.violations ?? [];
  await second?.close();
  expect(violations, 'responses that do not match openapi.json').toEqual([]);
});

const TIMEOUT = 120_000;

/** A write through `server` with the credential: 201 while it may. */
const write = async (server: TestServer, credential: string) =>
  (await clientWith(server, credential).general.customers.createCustomer({ body: { name: 'Ada' } })).status;

/** Writes twice through B with the credential, so that it is in B's cache, and checks both were let in. */
async function warm(credential: string) {
  expect(await write(b(), credential)).toBe(201);
  expect(await write(b(), credential)).toBe(201);
}

describe('a restriction made through one service applies to the next request of another', () => {
  it(
    'requiring two-factor sign-in: the member without it is refused (403) at once',
    async () => {
      const owner = await registerBusiness(a());
      await enableTwoFactor(a(), owner.client);
      const member = await newMember(a(), owner, 'accountant');
      await warm(member.token);

      const owners: Client = owner.client;
      await unwrap(owners.auth.updateBusiness({ body: { require_two_factor: true } }));

      const refused = await clientWith(b(), member.token).general.customers.createCustomer({
        body: { name: 'Ada' },
      });
      expect(refused.status).toBe(403);
      expect(JSON.stringify(refused.body)).toContain('two-factor');
    },
    TIMEOUT,
  );

  it(
    'removing a member: their token and the key they made are refused (401) at once',
    async () => {
      const owner = await registerBusiness(a());
      const member = await newMember(a(), owner, 'admin');
      const key = await createApiKey(member.client, 'full');
      await warm(member.token);
      await warm(key.key);

      await unwrap(owner.client.team.removeMember({ params: { userId: member.userId } }));

      expect(await write(b(), member.token)).toBe(401);
      expect(await write(b(), key.key)).toBe(401);
    },
    TIMEOUT,
  );

  it(
    "downgrading a member's role: their next write is refused (403) at once",
    async () => {
      const owner = await registerBusiness(a());
      const member = await newMember(a(), owner, 'accountant');
      await warm(member.token);

      await unwrap(
        owner.client.team.changeMemberRole({ params: { userId: member.userId }, body: { role: 'viewer' } }),
      );

      expect(await write(b(), member.token)).toBe(403);
      expect(
        (await clientWith(b(), member.token).general.customers.listCustomers({ query: {} })).status,
      ).toBe(200);
    },
    TIMEOUT,
  );

  it(
    'revoking an API key or a session: refused (401) at once',
    async () => {
      const owner = await registerBusiness(a());
      const key = await createApiKey(owner.client, 'full');
      const member = await newMember(a(), owner, 'accountant');
      const other = await signInMember(a(), member);
      await warm(key.key);
      await warm(other.accessToken);

      await unwrap(owner.client.auth.revokeApiKey({ params: { id: key.id } }));
      await unwrap(member.client.auth.revokeOtherSessions());

      expect(await write(b(), key.key)).toBe(401);
      expect(await write(b(), other.accessToken)).toBe(401);
      // The member's own session, never restricted, goes on through B.
      expect(await write(b(), member.token)).toBe(201);
    },
    TIMEOUT,
  );
});

describe('the public earn, which confirms a cached key with its own first read', () => {
  it(
    'refuses a key revoked through another service (401) and earns nothing; a key still valid goes on',
    async () => {
      const shop = await registerShop(a());
      const revoked = await createApiKey(shop.client, 'public_loyalty', 'Till 1');
      const kept = await createApiKey(shop.client, 'public_loyalty', 'Till 2');
      const email = uniqueEmail('buyer');
      const earn = (key: string, reference: string) =>
        raw(b(), 'POST', '/v1/public/loyalty/earn', {
          headers: { 'x-api-key': key, 'content-type': 'application/json' },
          body: JSON.stringify({ email, amount: 1, reference }),
        });
      for (const key of [revoked, kept]) {
        expect((await earn(key.key, `${key.id}-1`)).status).toBe(200);
        expect((await earn(key.key, `${key.id}-2`)).status).toBe(200);
      }

      // Revoking raises the business's access generation; B still holds both keys in its cache.
      await unwrap(shop.client.auth.revokeApiKey({ params: { id: revoked.id } }));

      const refused = await earn(revoked.key, 'AFTER');
      expect(refused.status).toBe(401);
      expect(refused.body.error.code).toBe('UNAUTHORIZED');
      expect(refused.headers.get('www-authenticate')).toBe('ApiKey header="X-Api-Key"');
      expect(refused.headers.get('bms-environment')).toBeNull();
      // The other key is resolved again under the new generation and earns, with the reference the
      // refused earn would have used: nothing of that earn was written.
      const earned = await earn(kept.key, 'AFTER');
      expect(earned.status).toBe(200);
      expect(earned.body.data.newBalance).toBe(50);
    },
    TIMEOUT,
  );
});
