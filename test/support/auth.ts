import { createClient, unwrap, type auth, type Client, sessionOf } from '../../client/index.js';
import type { TestBusiness } from './business.js';
import type { TestServer } from './server.js';

/** Factories of the auth group: API keys, sessions and the business settings. */

/** An API key of the business (`public_loyalty` unless told), with its secret (shown only once). */
export async function createApiKey(
  client: Client,
  scope: auth.ApiKeyScope = 'public_loyalty',
  name = `Till ${scope}`,
): Promise<auth.CreatedApiKey> {
  return (await unwrap(client.auth.createApiKey({ body: { name, scope } }))).data;
}

/** A new access token of the business's owner, from sign-in. */
export async function signIn(server: TestServer, business: Pick<TestBusiness, 'email' | 'password'>) {
  const anonymous = createClient({ baseUrl: server.baseUrl, maxRetries: 0 });
  const { email, password } = business;
  return sessionOf((await unwrap(anonymous.auth.signIn({ body: { email, password } }))).data).accessToken;
}

/** The business's settings (`GET /v1/business`). */
export async function getBusiness(client: Client): Promise<auth.Business> {
  return (await unwrap(client.auth.getBusiness())).data;
}

/** Changes the business's settings (`PATCH /v1/business`, e.g. its time zone) and returns them. */
export async function updateBusiness(client: Client, body: auth.UpdateBusinessBody): Promise<auth.Business> {
  return (await unwrap(client.auth.updateBusiness({ body }))).data;
}
