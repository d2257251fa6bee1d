import { insertParamsIntoPath, type AppRoute } from '@ts-rest/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createClient, unwrap, sessionOf } from '../../client/index.js';
import type { RouteMetadata } from '../../contract/common/metadata.js';
import {
  OPERATION_PERMISSIONS,
  PERMISSIONS,
  ROLE_PERMISSIONS,
  ROLES,
  type Role,
} from '../../contract/permissions.js';
import { contract } from '../../contract/index.js';
import { newId } from '../../server/platform/ids.js';
import { hashPassword } from '../../server/auth/secrets.js';
import { createApiKey } from '../support/auth.js';
import { registerBusiness, uniqueEmail, type TestBusiness } from '../support/business.js';
import { useTestServer } from '../support/setup.js';

const UNLIMITED = '1000000000';
/** The signed-in person's own account: every role manages it. */
const OWN_ACCOUNT = [
  'logout',
  'getSession',
  'getTwoFactor',
  'startTwoFactorEnrolment',
  'confirmTwoFactor',
  'disableTwoFactor',
  'regenerateRecoveryCodes',
  'listSessions',
  'revokeSession',
  'revokeOtherSessions',
  'changePassword',
];

const server = useTestServer({
  worker: false,
  env: { RATE_LIMITS: `free:${UNLIMITED},standard:${UNLIMITED},enterprise:${UNLIMITED}` },
});

const PASSWORD = 'correct horse battery staple';

/** Every operation of the contract with its name. */
function operations(): { name: string; route: AppRoute }[] {
  const found: { name: string; route: AppRoute }[] = [];
  const walk = (router: object) => {
    for (const [name, entry] of Object.entries(router)) {
      if (entry && typeof entry === 'object' && 'method' in entry && 'path' in entry) {
        found.push({ name, route: entry as AppRoute });
      } else if (entry && typeof entry === 'object') walk(entry);
    }
  };
  walk(contract);
  return found;
}

/** A person with `role` in the business, made as the team routes will (user and membership). */
async function memberWith(biz: TestBusiness, role: Role): Promise<string> {
  const db = server().deps.db;
  const userId = newId('usr');
  const email = uniqueEmail(role);
  await db
    .insertInto('users')
    .values({ id: userId, business_id: biz.businessId, email, password_hash: await hashPassword(PASSWORD) })
    .execute();
  await db.insertInto('memberships').values({ business_id: biz.businessId, user_id: userId, role }).execute();
  const anonymous = createClient({ baseUrl: server().baseUrl, maxRetries: 0 });
  return sessionOf((await unwrap(anonymous.auth.signIn({ body: { email, password: PASSWORD } }))).data)
    .accessToken;
}

const REFUSAL = /lacks the permission (\S+) this operation needs/;

describe('the permission table', () => {
  it('names a permission (or none) for every operation of the contract, and nothing else', () => {
    const names = operations().map((o) => o.name);
    expect(new Set(names).size).toBe(names.length);
    expect(Object.keys(OPERATION_PERMISSIONS).sort()).toEqual([...names].sort());
    for (const permission of Object.values(OPERATION_PERMISSIONS)) {
      if (permission !== null) expect(PERMISSIONS).toContain(permission);
    }
  });

  it("needs no permission only where the credential decides: sign-up, sign-in, sign-out, who am I, the person's own account (second factor, sessions, password) and the public loyalty keys", () => {
    for (const { name, route } of operations()) {
      const { auth } = route.metadata as RouteMetadata;
      const open = OPERATION_PERMISSIONS[name] === null;
      expect(open, name).toBe(auth === 'none' || auth === 'apiKey' || OWN_ACCOUNT.includes(name));
    }
  });

  it('gives owners and admins every permission, viewers every read but the audit log, and no role a write it cannot read', () => {
    expect([...ROLE_PERMISSIONS.owner].sort()).toEqual([...PERMISSIONS].sort());
    expect([...ROLE_PERMISSIONS.admin].sort()).toEqual([...PERMISSIONS].sort());
    expect(ROLE_PERMISSIONS.viewer.every((p) => p.endsWith('.read'))).toBe(true);
    expect(ROLE_PERMISSIONS.viewer).not.toContain('audit.read');
    for (const role of ROLES) {
      for (const p of ROLE_PERMISSIONS[role]) {
        if (p.endsWith('.write'))
          expect(ROLE_PERMISSIONS[role], `${role} ${p}`).toContain(p.replace('.write', '.read'));
      }
    }
  });
});

describe('every operation with a token of every role', () => {
  let biz: TestBusiness;
  const tokens = new Map<Role | 'full key', string>();

  beforeAll(async () => {
    biz = await registerBusiness(server());
    tokens.set('owner', biz.accessToken);
    for (const role of ROLES.filter((r) => r !== 'owner')) tokens.set(role, await memberWith(biz, role));
    tokens.set('full key', (await createApiKey(biz.client, 'full')).key);
  }, 60_000);

  const checked = operations().filter(({ name, route }) => {
    const { auth } = route.metadata as RouteMetadata;
    // Signing out would end the token the walk goes on with; it, who am I and the person's own
    // account need no permission (above).
    return (auth === 'token' || auth === 'user') && !OWN_ACCOUNT.includes(name);
  });

  for (const who of [...ROLES, 'full key'] as const) {
    it(`answers ${who} as the table says: 403 FORBIDDEN naming the permission, or past the check`, async () => {
      const role: Role = who === 'full key' ? 'admin' : who;
      const token = tokens.get(who)!;
      for (const { name, route } of checked) {
        const { auth } = route.metadata as RouteMetadata;
        if (who === 'full key' && auth === 'user') continue; // account routes take sign-in tokens only
        const permission = OPERATION_PERMISSIONS[name]!;
        const path = insertParamsIntoPath({
          path: route.path,
          params: Object.fromEntries([...route.path.matchAll(/:(\w+)/g)].map((m) => [m[1]!, 'nope'])),
        });
        const res = await fetch(`${server().baseUrl}${path}`, {
          method: route.method,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          ...(route.method === 'GET' ? {} : { body: '{}' }),
        });
        // A report's PDF answers its file, not JSON, when the request passes the check.
        const body = (
          res.headers.get('content-type')?.startsWith('application/json') ? await res.json() : {}
        ) as { error?: { code: string; message: string } };
        const refused = res.status === 403 && REFUSAL.exec(body.error?.message ?? '');
        if (ROLE_PERMISSIONS[role].includes(permission)) {
          expect(refused, `${who} ${name}: ${res.status} ${JSON.stringify(body)}`).toBeFalsy();
        } else {
          expect(res.status, `${who} ${name}`).toBe(403);
          expect(body.error?.code, `${who} ${name}`).toBe('FORBIDDEN');
          expect(refused && refused[1], `${who} ${name}: ${body.error?.message}`).toBe(permission);
        }
      }
    }, 300_000);
  }
});
