/**
 * How a route authenticates, read by the one auth middleware:
 * - `user`: an access token from sign-in only (account management);
 * - `token`: an access token, or a `full` API key, as `Authorization: Bearer`;
 * - `apiKey`: `X-Api-Key` with a `public_loyalty` or `full` key (public loyalty only);
 * - `none`: public.
 */
export type RouteAuth = 'user' | 'token' | 'apiKey' | 'none';

export interface RouteMetadata {
  auth: RouteAuth;
  /** OpenAPI tag, one per domain. */
  tag: string;
}

export const meta = (auth: RouteAuth, tag: string): RouteMetadata => ({ auth, tag });
