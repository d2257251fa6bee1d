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

/** Turns two-factor sign-in on for the signed-in person of `client`, as the dashboard does. */
export async function enableTwoFactor(server: TestServer, client: Client): Promise<TwoFactorOn> {
  const { secret } = (await unwrap(client.auth.startTwoFactorEnrolment())).data;
  const code = await totpCode(server, secret);
  const { recoveryCodes } = (await unwrap(client.auth.confirmTwoFactor({ body: { code } }))).data;
  return { secret, recoveryCodes };
}
