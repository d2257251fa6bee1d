import type { ErrorRequestHandler, Express, RequestHandler } from 'express';
import type { Config } from '../config.js';
import type { Deps } from './deps.js';
import type { Subscriptions } from './hooks.js';
import type { ImportTarget } from './import-target.js';
import type { JobPayloads, QueueName } from './jobs.js';
import type { Trx } from './db/database.js';
import type { Database } from './db/types.js';
import type { OutboxEvent } from './outbox.js';
import type { CtxSource, TxCtx } from './context.js';
import type { DueRun } from '../../contract/sandbox/clock.js';

/** How every module's routes are mounted: the same middleware and validation-error handling. */
export interface EndpointOptions {
  logInitialization: boolean;
  globalMiddleware: RequestHandler[];
  requestValidationErrorHandler: ErrorRequestHandler;
}

/** A queue a module works, its handler typed by the queue: each job's data, or a whole batch at once. */
export type JobOf<Q extends QueueName> =
  | {
      queue: Q;
      batch?: false;
      options?: { batchSize?: number; parallel?: boolean; concurrency?: number };
      handle(deps: Deps, data: JobPayloads[Q]): Promise<void>;
    }
  | {
      queue: Q;
      batch: true;
      options?: { batchSize?: number; concurrency?: number };
      handle(deps: Deps, batch: JobPayloads[Q][]): Promise<void>;
    };

/** Any queue's job. */
export type Job = { [Q in QueueName]: JobOf<Q> }[QueueName];

/** The counts a sandbox clock advance answers (`POST /v1/sandbox/clock`), one per due rule. */
export type DueCount = keyof DueRun;

/**
 * A rule that time makes due (expiry, reminders, scheduled sends, alerts), run for one business at
 * the time of `deps.clock`: a sandbox's test clock runs each domain's on its way (docs/decisions.md D76).
 * Returns how many things it did, counted as `counts`.
 */
export interface DueRule {
  counts: DueCount;
  run(deps: CtxSource, businessId: string): Promise<number>;
  /**
   * Whether anything is due for the business at the time of `deps.clock`. For a rule whose due
   * things stay due until run (an expiry, a date), asked once at the end of an advance: nothing due
   * then means nothing due on the way, and the rule is left out of every step.
   */
  pending?(deps: CtxSource, businessId: string): Promise<boolean>;
  /**
   * The tables a run adds rows to in bulk (a document a schedule and period, each posted): an advance
   * that has made many refreshes their planner statistics as they grow (docs/decisions.md D264).
   */
  grows?: readonly (keyof Database)[];
  /** A rule an advance runs only when its body asks for it (`revalue_month_ends`). */
  askedBy?: 'revalue_month_ends';
}

/** What a domain's demo data is made with (`POST /v1/sandbox/reset {"seed": true}`). */
export interface DemoSeed {
  /** The sandbox's context in the reset's transaction, its clock stopped at `instant`. */
  at(instant: Date): TxCtx;
  /** The span the demo covers: `start` is 18 months before `now`, the sandbox's time. */
  readonly start: Date;
  readonly now: Date;
  /** A pseudo-random number in [0, 1), the same sequence on every seed. */
  random(): number;
  /** Adds `n` (default 1) to what the reset reports as seeded, by kind (`customers`, `invoices`). */
  count(kind: string, n?: number): void;
}

/** Work a worker repeats (sweeps, expiry, reminders); a run never overlaps the previous one. */
export interface Periodic {
  name: string;
  everyMs(config: Readonly<Config>): number;
  /** Also run once as the worker starts, for work whose interval is long (a daily fetch). */
  atStart?: boolean;
  run(deps: Deps): Promise<unknown>;
}

/**
 * A domain as the rest of the service sees it (docs/decisions.md D47): `server/<domain>/index.ts` exports
 * one, and `server/domains.ts` lists them. `app.ts` mounts their routes in that order and the worker
 * runs their jobs and periodic work; their subscriptions follow other domains' changes in the
 * announcing transaction.
 */
export interface DomainModule {
  readonly name: string;
  /**
   * The tables this module owns: only its queries files read or write them (docs/decisions.md D70,
   * "Each table has one owner"); other domains call its services or read one of its published `views`.
   */
  readonly tables?: readonly string[];
  /** Read-only views this module publishes for other domains' set-based SQL (its SQL interface). */
  readonly views?: readonly string[];
  mount?(app: Express, deps: Deps, options: EndpointOptions): void;
  /**
   * Public pages outside the contract (no credential, any body type, rate limited per IP), mounted
   * before JSON body parsing: the links in emails.
   */
  pages?(app: Express, deps: Deps): void;
  /**
   * Routes of the contract that take a file (`multipart/form-data` or the file as the body), each
   * with the reader that puts it in `req.body` before JSON body parsing refuses other types.
   */
  readonly uploads?: readonly { path: string; read: RequestHandler }[];
  /** Releases what the module holds open (connection pools) when the service stops. */
  stop?(deps: Deps): Promise<void> | void;
  readonly jobs?: readonly Job[];
  readonly periodic?: readonly Periodic[];
  /** What time makes due for one business, in the order it runs within a domain. */
  readonly due?: readonly DueRule[];
  /**
   * Fills a reset sandbox with this domain's part of the demo business, through its own services;
   * run in module order (the general group's customers exist before loyalty enrols them).
   */
  seedDemo?(seed: DemoSeed): Promise<void>;
  /**
   * Puts back what every new business starts with in this module's tables (the default chart of
   * accounts), after a sandbox reset emptied them.
   */
  restoreDefaults?(ctx: TxCtx): Promise<void>;
  /** What the module takes from a CSV file (`POST /v1/imports/{kind}`), through its own services. */
  readonly imports?: readonly ImportTarget[];
  readonly subscriptions?: Subscriptions;
  /** Receives outbox events as they are dispatched, in the dispatching transaction. */
  dispatch?(trx: Trx, deps: Deps, events: readonly OutboxEvent[]): Promise<void>;
}
