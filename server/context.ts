import type { Clock } from './common/clock.js';
import type { Executor } from './db/database.js';
import type { JobEngine } from './jobs/engine.js';
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
