import { randomBytes } from 'node:crypto';
import { createClient, unwrap, type Client } from '../../client/index.js';
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
  const customer = await unwrap(
    business.client.general.customers.createCustomer({ body: { name: 'Ada Lovelace' } }),
  );
  return { ...business, customerId: customer.data.id };
}
