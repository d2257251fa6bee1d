import { randomBytes } from 'node:crypto';
import { createClient, unwrap, type Client } from '../../client/index.js';
import type { CreateProgramBody, Program } from '../../contract/loyalty/index.js';
import { createApiKey } from './auth.js';
import { createCustomer } from './general.js';
import { createProgram } from './loyalty.js';
import type { TestServer } from './server.js';

export interface TestBusiness {
  businessId: string;
  email: string;
  password: string;
  accessToken: string;
  client: Client;
}

export const uniqueEmail = (tag = 'owner') => `${tag}-${randomBytes(5).toString('hex')}@example.test`;

/** Registers a new business through the API and returns a client signed in as its owner. */
export async function registerBusiness(server: TestServer, name = 'Test Business'): Promise<TestBusiness> {
  const email = uniqueEmail();
  const password = 'correct horse battery staple';
  const anonymous = createClient({ baseUrl: server.baseUrl, maxRetries: 0 });
  const { data } = await unwrap(anonymous.auth.register({ body: { businessName: name, email, password } }));
  return {
    businessId: data.businessId,
    email,
    password,
    accessToken: data.accessToken,
    client: createClient({ baseUrl: server.baseUrl, accessToken: data.accessToken, maxRetries: 0 }),
  };
}

/**
 * The staging sandbox of a registered business (made at its first sandbox sign-in): the same owner,
 * signed in with `environment: "sandbox"`, as a business of its own.
 */
export async function sandboxOf(
  server: TestServer,
  live: Pick<TestBusiness, 'email' | 'password'>,
): Promise<TestBusiness> {
  const anonymous = createClient({ baseUrl: server.baseUrl, maxRetries: 0 });
  const { email, password } = live;
  const { data } = await unwrap(anonymous.auth.signIn({ body: { email, password, environment: 'sandbox' } }));
  return {
    businessId: data.businessId,
    email,
    password,
    accessToken: data.accessToken,
    client: createClient({ baseUrl: server.baseUrl, accessToken: data.accessToken, maxRetries: 0 }),
  };
}

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
