import { generate } from 'otplib';
import { unwrap, type Client } from '../../client/index.js';
import type { TestServer } from './server.js';

/** The code an authenticator app shows at the server's now, `steps` 30-second steps away. */
export async function totpCode(server: TestServer, secret: string, steps = 0): Promise<string> {
  const epoch = Math.floor(server.clock.now().getTime() / 1000) + steps * 30;
  return generate({ secret, epoch });
}

export interface TwoFactorOn {
  secret: string;
  recoveryCodes: string[];
}

/** The password the business factories (registerBusiness, signedInMember) give every person. */
export const FACTORY_PASSWORD = 'correct horse battery staple';

/**
 * Turns two-factor sign-in on for the signed-in person of `client`, as the dashboard does: with
 * their password (the factories' one unless given) and a code of the new secret.
 */
export async function enableTwoFactor(
  server: TestServer,
  client: Client,
  password = FACTORY_PASSWORD,
): Promise<TwoFactorOn> {
  const { secret } = (await unwrap(client.auth.startTwoFactorEnrolment({ body: { password } }))).data;
  const code = await totpCode(server, secret);
  const { recoveryCodes } = (await unwrap(client.auth.confirmTwoFactor({ body: { password, code } }))).data;
  return { secret, recoveryCodes };
}
