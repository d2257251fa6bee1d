import { describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import { createApiKey as createKeyFromCli } from '../../server/auth/index.js';
import { createApiKey } from '../support/auth.js';
import { registerBusiness } from '../support/business.js';
import { expectApiError } from '../support/expect.js';
import { useTestServer } from '../support/setup.js';
import { clientWith, newMember, signInMember } from '../support/team.js';

const server = useTestServer({ worker: false });
const TIMEOUT = 120_000;

/** Creates a customer with the full key: 201 while the key works, 401 once revoked. */
const createWith = async (key: string) =>
  (await clientWith(server(), key).general.customers.createCustomer({ body: { name: 'Ada' } })).status;

const keyRows = (ids: string[]) =>
  server()
    .deps.db.selectFrom('api_keys')
    .select(['id', 'business_id', 'created_by', 'revoked_at'])
    .where('id', 'in', ids)
    .orderBy('id')
    .execute();

describe('removing a member revokes the API keys they made', () => {
  it(
    'revokes their live and sandbox keys in the removal, says how many, and leaves the keys of others',
    async () => {
      const owner = await registerBusiness(server());
      const admin = await newMember(server(), owner, 'admin');
      const live = await createApiKey(admin.client, 'full', 'Accounting sync');
      const sandboxSession = await signInMember(server(), admin, 'sandbox');
      const sandbox = await createApiKey(
        clientWith(server(), sandboxSession.accessToken),
        'full',
        'Staging sync',
      );
      const ownersKey = await createApiKey(owner.client, 'full', 'Owner sync');
      // Each key works, and the live ones are now in the credential cache.
      expect(await createWith(live.key)).toBe(201);
      expect(await createWith(sandbox.key)).toBe(201);
      expect(await createWith(ownersKey.key)).toBe(201);

      // Who made each key is kept and listed.
      const listed = (await unwrap(owner.client.auth.listApiKeys())).data;
      expect(listed.find((k) => k.id === live.id)?.createdBy).toBe(admin.userId);
      const ownerId = (await unwrap(owner.client.team.getTeam())).data.members.find(
        (m) => m.email === owner.email,
      )?.userId;
      expect(listed.find((k) => k.id === ownersKey.id)?.createdBy).toBe(ownerId);
      expect(live.createdBy).toBe(admin.userId);
      expect(sandbox.createdBy).toBe(admin.userId);
      // The team says beforehand how many keys a removal would revoke.
      const before = (await unwrap(owner.client.team.getTeam())).data.members;
      expect(before.find((m) => m.userId === admin.userId)?.activeApiKeys).toBe(2);
      expect(before.find((m) => m.email === owner.email)?.activeApiKeys).toBe(1);

      const removed = await unwrap(owner.client.team.removeMember({ params: { userId: admin.userId } }));
      expect(removed.data).toEqual({ userId: admin.userId, email: admin.email, revokedApiKeys: 2 });
      expect(removed.message).toContain('2 API keys');

      expect(await createWith(live.key)).toBe(401);
      expect(await createWith(sandbox.key)).toBe(401);
      expect(await createWith(ownersKey.key)).toBe(201);
      const rows = await keyRows([live.id, sandbox.id, ownersKey.id]);
      expect(rows.find((r) => r.id === live.id)).toMatchObject({
        created_by: admin.userId,
        revoked_at: expect.any(Date),
      });
      expect(rows.find((r) => r.id === sandbox.id)).toMatchObject({
        business_id: sandboxSession.businessId,
        created_by: admin.userId,
        revoked_at: expect.any(Date),
      });
      expect(rows.find((r) => r.id === ownersKey.id)?.revoked_at).toBeNull();
      expect((await unwrap(owner.client.auth.listApiKeys())).data.map((k) => k.id)).toEqual([ownersKey.id]);

      // The audit row of the removal names the member and the keys revoked with them.
      const audit = (
        await unwrap(owner.client.auditLog.listAuditLog({ query: { resource_id: admin.userId } }))
      ).entries;
      const removal = audit.find((e) => e.operation === 'removeMember');
      expect(removal?.summary?.label).toBe(`${admin.email} (2 API keys revoked)`);
    },
    TIMEOUT,
  );

  it(
    'revokes nothing of a member who made no key, and keeps keys of unknown makers (the command line)',
    async () => {
      const owner = await registerBusiness(server());
      const viewer = await newMember(server(), owner, 'viewer');
      const cli = await createKeyFromCli(
        { db: server().deps.db, clock: server().deps.clock, businessId: owner.businessId },
        { name: 'Provisioned', scope: 'full' },
      );
      expect(cli.createdBy).toBeNull();

      const removed = await unwrap(owner.client.team.removeMember({ params: { userId: viewer.userId } }));
      expect(removed.data.revokedApiKeys).toBe(0);
      expect(removed.message).toContain('0 API keys');
      expect(await createWith(cli.key)).toBe(201);
    },
    TIMEOUT,
  );

  it(
    'a refused removal (an admin removing an owner: 403) revokes none of their keys',
    async () => {
      const owner = await registerBusiness(server());
      const coOwner = await newMember(server(), owner, 'owner');
      const admin = await newMember(server(), owner, 'admin');
      const key = await createApiKey(coOwner.client, 'full');
      await expectApiError(
        admin.client.team.removeMember({ params: { userId: coOwner.userId } }),
        403,
        'FORBIDDEN',
      );
      expect(await createWith(key.key)).toBe(201);
      expect((await keyRows([key.id]))[0]?.revoked_at).toBeNull();
    },
    TIMEOUT,
  );
});

describe('lowering a member to a role that may not manage API keys', () => {
  it(
    'revokes the keys they made (live and sandbox) and says how many; a change between admin and owner keeps them',
    async () => {
      const owner = await registerBusiness(server());
      const admin = await newMember(server(), owner, 'admin');
      const live = await createApiKey(admin.client, 'full', 'Accounting sync');
      const sandboxSession = await signInMember(server(), admin, 'sandbox');
      const sandbox = await createApiKey(clientWith(server(), sandboxSession.accessToken), 'full', 'Staging');
      expect(await createWith(live.key)).toBe(201);

      // Admin to owner and back: both may manage keys, so the keys stay.
      await unwrap(
        owner.client.team.changeMemberRole({ params: { userId: admin.userId }, body: { role: 'owner' } }),
      );
      const back = await unwrap(
        owner.client.team.changeMemberRole({ params: { userId: admin.userId }, body: { role: 'admin' } }),
      );
      expect((back as { message?: string }).message).toBe('Role changed');
      expect(back.data.activeApiKeys).toBe(2);
      expect(await createWith(live.key)).toBe(201);

      const lowered = await unwrap(
        owner.client.team.changeMemberRole({
          params: { userId: admin.userId },
          body: { role: 'accountant' },
        }),
      );
      expect((lowered as { message?: string }).message).toBe('Role changed; 2 API keys they made revoked');
      expect(lowered.data).toMatchObject({ role: 'accountant', activeApiKeys: 0 });
      expect(await createWith(live.key)).toBe(401);
      expect(await createWith(sandbox.key)).toBe(401);
      const rows = await keyRows([live.id, sandbox.id]);
      expect(rows.every((r) => r.revoked_at !== null)).toBe(true);
    },
    TIMEOUT,
  );
});
