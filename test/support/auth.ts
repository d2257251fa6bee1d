import { createClient, unwrap, type auth, type Client, sessionOf } from '../../client/index.js';
import type { TestBusiness } from './business.js';
import type { TestServer } from './server.js';
import { waitFor } from './wait.js';

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

/** The newest invitation mailed to `email`, read from the stored mail, with the token of its link. */
export async function invitationMailTo(server: TestServer, email: string) {
  const message = await server.deps.db
    .selectFrom('mail_messages')
    .select(['body', 'subject', 'html'])
    .where('to_address', '=', email)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  const token = /bms_inv_[A-Za-z0-9_-]+/.exec(message.body)?.[0];
  if (!token) throw new Error(`no invitation token in ${message.body}`);
  return { ...message, token };
}

/** The password reset links mailed to `email`, oldest first, read from the stored mail. */
export async function resetLinksFor(server: TestServer, email: string): Promise<string[]> {
  const rows = await server.deps.db
    .selectFrom('mail_messages')
    .select('body')
    .where('to_address', '=', email.toLowerCase())
    .where('subject', '=', 'Reset your password')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => {
    const link = /https?:\/\/\S+\/app\/reset-password#token=bms_pwr_[A-Za-z0-9_-]+/.exec(row.body)?.[0];
    if (!link) throw new Error(`no reset link in ${row.body}`);
    return link;
  });
}

/**
 * Waits for the reset link that follows the `seen` already mailed to `email` (a job mails it in the
 * background) and returns it.
 */
export async function nextResetLink(server: TestServer, email: string, seen = 0): Promise<string> {
  const links = await waitFor(`reset link ${seen + 1} for ${email}`, async () => {
    const found = await resetLinksFor(server, email);
    return found.length > seen ? found : null;
  });
  return links[seen]!;
}

/** The token of a reset link: what its fragment carries. */
export const resetTokenOf = (link: string): string => new URL(link).hash.replace(/^#token=/, '');
