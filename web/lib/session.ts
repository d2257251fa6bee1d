import { computed, signal } from '@preact/signals';
import {
  createAuthClient,
  readsCapturedLiveMail,
  type auth,
  type AuthClient,
  type Permission,
} from '../../client/auth.js';
import { BmsApiError, unwrap } from '../../client/transport.js';

/**
 * Who is signed in: the access token (in memory, and in sessionStorage so a reload keeps it; never
 * localStorage), its environment, and what the credential may do (GET /v1/auth/session).
 *
 * The sign-in page and the dashboard's frame load with this module, so it speaks to the service
 * through the auth routes alone; the client of every route is `api` in api.ts, which only the
 * screens import (docs/decisions.md D260).
 */

export type Environment = 'live' | 'sandbox';

export interface Session {
  accessToken: string;
  environment: Environment;
  info: auth.SessionInfo;
  /** How far the business's clock (a sandbox's test clock) runs ahead of this browser's. */
  clockAheadMs: number;
}

const STORAGE_KEY = 'bms.session';

export const session = signal<Session | null>(null);
/** True until a stored token has been checked at start. */
export const restoring = signal(true);

const anonymousClient = createAuthClient({ baseUrl: location.origin, maxRetries: 1 });

/**
 * The auth routes as the signed-in person (or anonymously, for sign-in, register and a forgotten
 * password).
 */
export const authApi = computed<AuthClient>(() => {
  const current = session.value;
  if (!current) return anonymousClient;
  return createAuthClient({
    baseUrl: location.origin,
    accessToken: current.accessToken,
    environment: current.environment,
    maxRetries: 2,
  });
});

export const inSandbox = computed(() => session.value?.environment === 'sandbox');

/**
 * The business requires a second factor the person has not turned on: until they do, the service
 * answers only the account routes, so the dashboard opens only the security screen.
 */
export const twoFactorPending = computed(() => {
  const twoFactor = session.value?.info.twoFactor;
  return Boolean(twoFactor?.required && !twoFactor.enabled);
});

/**
 * The business's now: the browser's clock moved as far as the business's runs ahead (a sandbox whose
 * test clock was advanced; live, the service's real time). Every default date range starts here.
 */
export function businessNow(): Date {
  return new Date(Date.now() + (session.value?.clockAheadMs ?? 0));
}

/** The business's time zone, which decides its today (the browser's own before sign-in). */
export const businessTimeZone = (): string | undefined => session.value?.info.clock.timezone;

/**
 * Whether the signed-in person reads the captured mail of a live business (no SMTP server
 * configured): owners and admins only, as the service decides.
 */
export const readsLiveMail = computed(() => {
  const info = session.value?.info;
  return info?.environment === 'live' && info.mail === 'captured' && readsCapturedLiveMail(info.role);
});

/** Whether the role holds the permission. */
export function allowed(permission: Permission | null): boolean {
  if (permission === null) return true;
  return session.value?.info.permissions.includes(permission) ?? false;
}

function store(value: Session | null): void {
  if (value) {
    sessionStorage.setItem(
      STORAGE_KEY,
      JSON.stringify({ accessToken: value.accessToken, environment: value.environment }),
    );
  } else {
    sessionStorage.removeItem(STORAGE_KEY);
  }
  session.value = value;
}

/** Reads what the token may do and keeps it as the session. */
export async function adopt(accessToken: string, environment: Environment): Promise<void> {
  const client = createAuthClient({ baseUrl: location.origin, accessToken, environment, maxRetries: 1 });
  const info = (await unwrap(client.auth.getSession())).data;
  const clockAheadMs = Date.parse(info.clock.now) - Date.now();
  store({ accessToken, environment: info.environment, info, clockAheadMs });
}

/** At start: the token of this tab, if it still works. */
export async function restore(): Promise<void> {
  try {
    const raw = sessionStorage.getItem(STORAGE_KEY);
    if (!raw) return;
    const saved = JSON.parse(raw) as { accessToken?: unknown; environment?: unknown };
    if (typeof saved.accessToken !== 'string') return;
    const environment = saved.environment === 'sandbox' ? 'sandbox' : 'live';
    await adopt(saved.accessToken, environment).catch((err: unknown) => {
      if (err instanceof BmsApiError && err.status === 401) store(null);
      else throw err;
    });
  } finally {
    restoring.value = false;
  }
}

/**
 * Signs out: the token is revoked, then forgotten; forgotten anyway when the service cannot be
 * reached or takes longer than a few seconds to answer.
 */
export async function signOut(): Promise<void> {
  const client = authApi.value;
  const patience = new Promise((resolve) => setTimeout(resolve, 5000));
  await Promise.race([client.auth.logout().catch(() => undefined), patience]);
  store(null);
}

/** Reads what the current token may do again (after two-factor sign-in is turned on or off). */
export async function refresh(): Promise<void> {
  const current = session.value;
  if (current) await adopt(current.accessToken, current.environment);
}

/**
 * The business's clock as an answer just read it (a sandbox's clock advanced or reset): the default
 * ranges follow at once. The token and what it may do are unchanged.
 */
export function followClock(now: string): void {
  const current = session.value;
  const clockAheadMs = Date.parse(now) - Date.now();
  if (current && Number.isFinite(clockAheadMs)) session.value = { ...current, clockAheadMs };
}

/** A session expired or revoked under the dashboard: back to sign-in. */
export function expired(): void {
  store(null);
}

/** Switches between live and sandbox: a token to the other environment, and the old one revoked. */
export async function switchEnvironment(environment: Environment): Promise<void> {
  const before = authApi.value;
  const next = (await unwrap(before.auth.switchEnvironment({ body: { environment } }))).data;
  await adopt(next.accessToken, next.environment);
  await before.auth.logout().catch(() => undefined);
}
