import type { ServiceState } from './state.js';
import type { Config } from '../config.js';
import type { Clock } from './clock.js';
import { withTransaction, type Executor, type Trx } from './db/database.js';
import type { DnsResolver } from './dns.js';
import type { Hooks } from './hooks.js';
import type { JobEngine } from './jobs.js';
import type { Logger } from './logger.js';
import type { SecretBox } from './secret-box.js';

/**
 * What every service call gets, from a request or from a job (docs/decisions.md D49): the database (or a
 * transaction), the tenant, time, logging, jobs, the hooks to announce changes through, and the
 * configuration and secrets the services read. No per-domain settings objects.
 */
export interface Ctx {
  db: Executor;
  businessId: string;
  clock: Clock;
  log: Logger;
  requestId: string;
  jobs: JobEngine;
  hooks: Hooks;
  config: Readonly<Config>;
  secrets: SecretBox;
  /** DNS lookups (sender-domain verification). */
  dns: DnsResolver;
  /** What this service keeps in memory (caches, pacing): see platform/state.ts. */
  state: ServiceState;
}

/** The context inside a transaction: the same request or job, its database the transaction. */
export type TxCtx = Ctx & { db: Trx };

/**
 * Runs `fn` in a transaction (a savepoint inside one already open, retried on a deadlock; see
 * `withTransaction`) and hands it the same context on that transaction. Inside, everything goes
 * through the `ctx` it is given, so no statement can run outside the transaction by mistake:
 * `inTransaction(ctx, async (ctx) => ...)`.
 */
export function inTransaction<T>(ctx: Ctx, fn: (ctx: TxCtx) => Promise<T>): Promise<T> {
  return withTransaction(ctx.db, (trx) => fn({ ...ctx, db: trx }));
}

/** What the service is made of, from which each request's or job's context is cut. */
export type CtxSource = Pick<
  Ctx,
  'db' | 'clock' | 'log' | 'jobs' | 'hooks' | 'config' | 'secrets' | 'dns' | 'state'
>;

/** The context of background work done for one business (jobs have no request). */
export function jobCtx(deps: CtxSource, businessId: string, job: string): Ctx {
  return {
    db: deps.db,
    businessId,
    clock: deps.clock,
    log: deps.log.child({ job, businessId }),
    requestId: job,
    jobs: deps.jobs,
    hooks: deps.hooks,
    config: deps.config,
    secrets: deps.secrets,
    dns: deps.dns,
    state: deps.state,
  };
}
