import type { ErrorRequestHandler, Express, RequestHandler } from 'express';
import type { Config } from '../config.js';
import type { Deps } from './deps.js';
import type { Subscriptions } from './hooks.js';
import type { JobPayloads, QueueName } from './jobs.js';
import type { Trx } from './db/database.js';
import type { OutboxEvent } from './outbox.js';

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

/** Work a worker repeats (sweeps, expiry, reminders); a run never overlaps the previous one. */
export interface Periodic {
  name: string;
  everyMs(config: Readonly<Config>): number;
  run(deps: Deps): Promise<unknown>;
}

/**
 * A domain as the rest of the service sees it (DESIGN section 1): `server/<domain>/index.ts` exports
 * one, and `server/domains.ts` lists them. `app.ts` mounts their routes in that order and the worker
 * runs their jobs and periodic work; their subscriptions follow other domains' changes in the
 * announcing transaction.
 */
export interface DomainModule {
  readonly name: string;
  /**
   * The tables this module owns: only its queries files read or write them (docs/decisions.md,
   * "Table ownership"); other domains call its services or read one of its published `views`.
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
  /** Releases what the module holds open (connection pools) when the service stops. */
  stop?(deps: Deps): Promise<void> | void;
  readonly jobs?: readonly Job[];
  readonly periodic?: readonly Periodic[];
  readonly subscriptions?: Subscriptions;
  /** Receives outbox events as they are dispatched, in the dispatching transaction. */
  dispatch?(trx: Trx, deps: Deps, events: readonly OutboxEvent[]): Promise<void>;
}
