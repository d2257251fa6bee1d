import type { Clock } from './clock.js';
import type { Executor } from './db/database.js';
import type { JobEngine } from './jobs.js';
import type { Logger } from './logger.js';

/** What every service call gets: the database (or a transaction), the tenant, time, logging, jobs. */
export interface Ctx {
  db: Executor;
  businessId: string;
  clock: Clock;
  log: Logger;
  requestId: string;
  jobs: JobEngine;
}

/** The context of background work done for one business (jobs have no request). */
export function jobCtx(
  deps: { db: Executor; clock: Clock; log: Logger; jobs: JobEngine },
  businessId: string,
  job: string,
): Ctx {
  return {
    db: deps.db,
    businessId,
    clock: deps.clock,
    log: deps.log.child({ job, businessId }),
    requestId: job,
    jobs: deps.jobs,
  };
}
