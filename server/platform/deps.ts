import type { ServiceState } from './state.js';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { ApiKeyScope } from '../../contract/auth/api-keys.js';
import type { Role } from '../../contract/permissions.js';
import { offsetClock, type Clock } from './clock.js';
import type { SecretBox } from './secret-box.js';
import type { Config } from '../config.js';
import type { Ctx } from './context.js';
import type { DnsResolver } from './dns.js';
import type { DatabaseHandle, Db, Executor, Trx } from './db/database.js';
import type { Environment } from './db/types.js';
import type { Hooks } from './hooks.js';
import type { DomainModule } from './module.js';
import type { JobEngine } from './jobs.js';
import type { Logger } from './logger.js';

export interface Limiters {
  /** One limiter per plan, requests per minute per business. */
  plans: Record<string, RateLimiterAbstract>;
  anonymous: RateLimiterAbstract;
  register: RateLimiterAbstract;
  signInFailuresByIp: RateLimiterAbstract;
  signInFailuresByEmail: RateLimiterAbstract;
}

/** Everything the HTTP layer needs, built once at start-up (or by a test). */
export interface Deps {
  config: Readonly<Config>;
  database: DatabaseHandle;
  db: Db;
  jobs: JobEngine;
  clock: Clock;
  log: Logger;
  limiters: Limiters;
  /** Seals secrets stored at rest (webhook signing secrets). */
  secrets: SecretBox;
  /** DNS lookups: the system resolver, or a test's stub. */
  dns: DnsResolver;
  /** What this service keeps in memory (caches, pacing, pooled transports): platform/state.ts. */
  state: ServiceState;
  /** The domain modules' subscriptions to each other's changes. */
  hooks: Hooks;
  /** The platform's own module, then every domain module, in order (server/domains.ts). */
  modules: readonly DomainModule[];
}

/** Who is calling, resolved from the presented credential (by the auth domain's middleware). */
export interface AuthInfo {
  businessId: string;
  plan: string;
  kind: 'user' | 'apiKey';
  scope?: ApiKeyScope;
  /** Access token id or API key id. */
  credentialId: string;
  /** The person an access token was given to (the audit trail's actor). */
  userId?: string;
  /** When an access token expires (API keys do not). */
  expiresAt?: Date;
  /**
   * The person's role in the business (a sandbox's: in its live business); `full` API keys act as
   * `admin`; none for `public_loyalty` keys, which reach only the public loyalty interface.
   */
  role?: Role;
  /** The business's environment: a sandbox credential reaches only its sandbox. */
  environment: Environment;
  /** How far the sandbox's test clock runs ahead of real time (0 for live businesses). */
  clockOffsetMs: number;
  /**
   * An access token's person: whether they sign in with a second factor, and whether the business
   * requires it (required and not enabled: the token reaches only the routes to turn it on).
   */
  twoFactor?: { enabled: boolean; required: boolean };
}

/**
 * Confirms a credential answered from the cache without reading its business's access generation:
 * given the generation the route read, it returns when the credential still holds and throws the
 * 401 it would have had otherwise (server/auth/credential-cache.ts).
 */
export type AccessConfirmation = (generation: string | undefined) => Promise<void>;

export interface Credentials {
  /** undefined: no `Authorization` header; null: presented but invalid, revoked or expired. */
  bearer?: AuthInfo | null;
  /** Same for `X-Api-Key`. */
  apiKey?: AuthInfo | null;
  /** Set when `apiKey` came from the cache unconfirmed: the route confirms it before writing. */
  confirmApiKey?: AccessConfirmation;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      requestId: string;
      log: Logger;
      credentials: Credentials;
      /** Set by the auth middleware on authenticated routes. */
      auth?: AuthInfo;
      /** The transaction an idempotent request runs in (server/platform/idempotency.ts). */
      transaction?: Trx;
    }
  }
}

/** What a request's work runs on: its idempotent transaction, when it has one. */
export const dbOf = (req: Express.Request, deps: Deps): Executor => req.transaction ?? deps.db;

/** The service context of an authenticated request. */
export function ctxOf(req: Express.Request, deps: Deps): Ctx {
  if (!req.auth) throw new Error('ctxOf called on an unauthenticated request');
  return {
    db: dbOf(req, deps),
    businessId: req.auth.businessId,
    clock: offsetClock(deps.clock, req.auth.clockOffsetMs),
    log: req.log,
    requestId: req.requestId,
    jobs: deps.jobs,
    hooks: deps.hooks,
    config: deps.config,
    secrets: deps.secrets,
    dns: deps.dns,
    state: deps.state,
  };
}

/** The `ctx(req)` of a routes file: `const ctx = ctxFor(deps);` at the top, then `ctx(req)` in handlers. */
export const ctxFor =
  (deps: Deps) =>
  (req: Express.Request): Ctx =>
    ctxOf(req, deps);
