import { initClient, type InitClientReturn } from '@ts-rest/core';
import {
  authContract,
  type AuthSession,
  type SignInChallenge,
  type SignInResult,
} from '../contract/auth/index.js';
import { c, V1, type Mounted } from '../contract/mount.js';
import { clientArgs, type ClientOptions, type SdkClientArgs } from './transport.js';

/*
 * The auth domain on its own: a client of its routes alone (`client.auth.signIn`, `client.auth.getSession`),
 * for code that needs nothing else, such as a sign-in page that must load fast; it carries the auth
 * contract instead of the whole one (docs/decisions.md D260). `createClient` from `./index.js` has the
 * same `auth` methods beside every other domain's.
 */

export * as auth from '../contract/auth/index.js';
/** Who may do what, as a signed-in UI's frame shows it (the whole table is in `./index.js`). */
export { readsCapturedLiveMail, type Permission, type Role } from '../contract/roles.js';

const authRoutes: { auth: Mounted<typeof authContract> } = c.router({ auth: authContract }, V1);

export type AuthClient = InitClientReturn<typeof authRoutes, SdkClientArgs>;

/** A client of the auth routes only, sending and retrying as `createClient` does. */
export function createAuthClient(options: ClientOptions): AuthClient {
  return initClient(authRoutes, clientArgs(options));
}

/**
 * Whether a sign-in answer (`auth.signIn`, `auth.acceptInvitation`) is the challenge of the second
 * step, for a person with two-factor sign-in on, rather than an access token: answer it with
 * `auth.completeSignIn({ body: { challengeToken, code } })`.
 */
export function isSignInChallenge(data: SignInResult): data is SignInChallenge {
  return 'challengeToken' in data;
}

/**
 * The access token of a sign-in answer, for code that signs in people without a second factor (a
 * script's service account); a challenge throws, saying what to do.
 */
export function sessionOf(data: SignInResult): AuthSession {
  if (isSignInChallenge(data)) {
    throw new Error(
      'Two-factor sign-in is on for this person: send the code with the password, or answer the challenge with auth.completeSignIn',
    );
  }
  return data;
}
