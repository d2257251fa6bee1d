import { randomBytes } from 'node:crypto';
import { createClient, unwrap, type Client, sessionOf } from '../../client/index.js';
import type { CreateProgramBody, Program } from '../../contract/loyalty/index.js';
import type { Role } from '../../contract/permissions.js';
import { hashPassword } from '../../server/auth/secrets.js';
import { newId } from '../../server/platform/ids.js';
import { createApiKey } from './auth.js';
import { createCustomer } from './general.js';
import { createProgram } from './loyalty.js';
import type { TestServer } from './server.js';

export type Environment = 'live' | 'sandbox';

export interface TestBusiness {
  businessId: string;
  email: string;
  password: string;
  accessToken: string;
  client: Client;
  /** The environment its credentials reach (absent: live). */
  environment?: Environment;
}

export const uniqueEmail = (tag = 'owner') => `${tag}-${randomBytes(5).toString('hex')}@example.test`;

/** Where `registerBusiness` makes its business on a server seen through `inEnvironment`. */
const TARGET = Symbol('environment');
interface Target {
  environment: Environment;
  account?: Pick<TestBusiness, 'email' | 'password'>;
}
type Targeted = TestServer & { [TARGET]?: Target };

/**
 * The server as seen from one environment: `registerBusiness` through it (and so every factory built
 * on it: registerShop, registerTenant, ...) gives a business of `environment`, so the factory makes
 * its fixtures there. With `account`, that business is the account's own in that environment (its
 * sandbox twin, or its live business) rather than a newly registered one; without, a new business
 * is registered and, for the sandbox, its sandbox twin is returned.
 */
export const inEnvironment = (
  server: TestServer,
  environment: Environment,
  account?: Pick<TestBusiness, 'email' | 'password'>,
): TestServer => ({ ...server, [TARGET]: { environment, account } }) as Targeted;

/**
 * Registers a new business through the API and returns a client signed in as its owner (in the
 * environment the server is seen from: `inEnvironment`).
 */
export async function registerBusiness(server: TestServer, name = 'Test Business'): Promise<TestBusiness> {
  const target = (server as Targeted)[TARGET];
  if (target?.account) return signInTo(server, target.account, target.environment);
  const email = uniqueEmail();
  const password = 'correct horse battery staple';
  const anonymous = createClient({ baseUrl: server.baseUrl, maxRetries: 0 });
  const { data } = await unwrap(anonymous.auth.register({ body: { businessName: name, email, password } }));
  if (target?.environment === 'sandbox') return signInTo(server, { email, password }, 'sandbox');
  return {
    businessId: data.businessId,
    email,
    password,
    accessToken: data.accessToken,
    client: createClient({ baseUrl: server.baseUrl, accessToken: data.accessToken, maxRetries: 0 }),
  };
}

/** The account signed in anew to `environment` (its sandbox twin is made at the first sandbox sign-in). */
export async function signInTo(
  server: TestServer,
  account: Pick<TestBusiness, 'email' | 'password'>,
  environment: Environment = 'live',
): Promise<TestBusiness> {
  const anonymous = createClient({ baseUrl: server.baseUrl, maxRetries: 0 });
  const { email, password } = account;
  const data = sessionOf(
    (await unwrap(anonymous.auth.signIn({ body: { email, password, environment } }))).data,
  );
  return {
    businessId: data.businessId,
    email,
    password,
    accessToken: data.accessToken,
    client: createClient({ baseUrl: server.baseUrl, accessToken: data.accessToken, maxRetries: 0 }),
    environment,
  };
}

/**
 * The staging sandbox of a registered business (made at its first sandbox sign-in): the same owner,
 * signed in with `environment: "sandbox"`, as a business of its own.
 */
export const sandboxOf = (
  server: TestServer,
  live: Pick<TestBusiness, 'email' | 'password'>,
): Promise<TestBusiness> => signInTo(server, live, 'sandbox');

/** The typed client that presents `key` as `X-Api-Key`: a point of sale, or a full-key backend. */
export const keyClient = (server: TestServer, key: string): Client =>
  createClient({ baseUrl: server.baseUrl, apiKey: key, maxRetries: 0 });

export interface TestShop extends TestBusiness {
  program: Program;
  /** A public_loyalty API key of the business. */
  apiKey: string;
}

/**
 * Registers a business with an active loyalty program (Club: 10 Stars per USD, automatic enrollment;
 * `program` overrides any of it) and a public_loyalty API key named `keyName`.
 */
export async function registerShop(
  server: TestServer,
  program: Partial<CreateProgramBody> = {},
  keyName = 'Till',
): Promise<TestShop> {
  const business = await registerBusiness(server);
  const created = await createProgram(business.client, program);
  const key = await createApiKey(business.client, 'public_loyalty', keyName);
  return { ...business, program: created, apiKey: key.key };
}

/** Raw HTTP for what the typed client refuses to send (broken JSON, wrong types, odd headers). */
export async function raw(
  server: TestServer,
  method: string,
  path: string,
  init: { headers?: Record<string, string>; body?: string | Buffer; token?: string } = {},
): Promise<{ status: number; headers: Headers; body: any }> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  const res = await fetch(`${server.baseUrl}${path}`, { method, headers, body: init.body });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON; keep the text
  }
  return { status: res.status, headers: res.headers, body };
}

export const json = (value: unknown) => ({
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(value),
});

export interface TestTenant extends TestBusiness {
  /** A customer of the business, ready to invoice. */
  customerId: string;
}

/** A registered business with one customer (Ada Lovelace). */
export async function registerTenant(server: TestServer): Promise<TestTenant> {
  const business = await registerBusiness(server);
  const customer = await createCustomer(business.client, { name: 'Ada Lovelace' });
  return { ...business, customerId: customer.id };
}

/**
 * A person of the business with `role`, made as accepting an invitation does (a user and a
 * membership), signed in: their email and access token.
 */
export async function signedInMember(
  server: TestServer,
  owner: Pick<TestBusiness, 'businessId'>,
  role: Role,
): Promise<{ email: string; accessToken: string }> {
  const email = uniqueEmail(role);
  const userId = newId('usr');
  const password = 'correct horse battery staple';
  await server.deps.db
    .insertInto('users')
    .values({ id: userId, business_id: owner.businessId, email, password_hash: await hashPassword(password) })
    .execute();
  await server.deps.db
    .insertInto('memberships')
    .values({ business_id: owner.businessId, user_id: userId, role })
    .execute();
  const anonymous = createClient({ baseUrl: server.baseUrl, maxRetries: 0 });
  const session = sessionOf((await unwrap(anonymous.auth.signIn({ body: { email, password } }))).data);
  return { email, accessToken: session.accessToken };
}
