import type { Server } from 'node:http';
import { systemClock, type Clock } from './clock.js';
import { limiterFactory } from './rate-limit.js';
import type { Config } from '../config.js';
import { databaseOptions, openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import type { Deps, Limiters } from './deps.js';
import type { DispatchEventJob } from './outbox.js';
import { mailSender, type SendMailJob } from './mail.js';
import { deliver, fanOut, sweep, type DeliverJob } from '../webhooks/delivery.js';
import { startEventRelay } from './relay.js';
import { purgeIdempotencyKeys } from './idempotency.js';
import { loadSecretBox } from './secret-box.js';
import { JobEngine, QUEUES } from './jobs.js';
import { expireVouchers } from '../loyalty/redemptions.js';
import { createLogger, type Logger } from './logger.js';
import { expirePoints } from '../loyalty/expiry.js';
import { sendDueReminders } from '../loyalty/reminders.js';

export interface RuntimeOptions {
  clock?: Clock;
  log?: Logger;
}

export interface Runtime {
  deps: Deps;
  close(): Promise<void>;
}

export function buildLimiters(config: Readonly<Config>, deps: Pick<Deps, 'database'>): Limiters {
  const make = limiterFactory(config.RATE_LIMIT_STORE, deps.database);
  return {
    plans: Object.fromEntries(
      Object.entries(config.RATE_LIMITS).map(([plan, n]) => [plan, make(`plan_${plan}`, n, 60)]),
    ),
    anonymous: make('anon', config.ANONYMOUS_RATE_LIMIT, 60),
    register: make('register', config.REGISTER_RATE_LIMIT, 60),
    // Failure counters only grow through penalty(); they are read, never consumed.
    signInFailuresByIp: make('signin_ip', 1_000_000, 60),
    signInFailuresByEmail: make('signin_email', 1_000_000, 60),
  };
}

/** Opens the database, migrates when asked, starts the job engine. */
export async function startRuntime(config: Readonly<Config>, options: RuntimeOptions = {}): Promise<Runtime> {
  const log = options.log ?? createLogger(config.LOG_LEVEL);
  const database = await openDatabase(databaseOptions(config));
  try {
    if (config.MIGRATE_ON_START) {
      const applied = await migrateToLatest(database.db);
      if (applied.length) log.info({ applied }, 'migrations applied');
    }
    const jobs = await JobEngine.start(database, log);
    const deps: Deps = {
      config,
      database,
      db: database.db,
      jobs,
      clock: options.clock ?? systemClock,
      log,
      limiters: buildLimiters(config, { database }),
      secrets: loadSecretBox(config, log),
    };
    return {
      deps,
      async close() {
        await jobs.stop(config.SHUTDOWN_TIMEOUT_MS);
        await database.close();
      },
    };
  } catch (err) {
    await database.close();
    throw err;
  }
}

/** Registers the job handlers and periodic sweeps: this process now works the queues. */
export async function startWorker(deps: Deps): Promise<void> {
  await deps.jobs.workBatch<DispatchEventJob>(QUEUES.dispatchEvent, (batch) => fanOut(deps, batch), {
    batchSize: 100,
  });
  await deps.jobs.work<DeliverJob>(QUEUES.deliverWebhook, (job) => deliver(deps, job), {
    batchSize: 50,
    parallel: true,
    concurrency: 2,
  });
  await deps.jobs.work<SendMailJob>(QUEUES.sendMail, mailSender(deps.config, deps.db, deps.clock, deps.log));
  deps.jobs.every(deps.config.WEBHOOK_SWEEP_INTERVAL_MS, 'webhook sweep', () => sweep(deps));
  deps.jobs.every(60_000, 'points expiry', () => expirePoints(deps));
  deps.jobs.every(60_000, 'service reminders', () => sendDueReminders(deps));
  deps.jobs.every(60_000, 'voucher expiry', () => expireVouchers(deps));
  startEventRelay(deps);
  deps.jobs.every(10 * 60_000, 'idempotency key purge', () => purgeIdempotencyKeys(deps));
  deps.log.info('worker started');
}

/** Stops accepting connections and waits for in-flight requests (bounded by `timeoutMs`). */
export function closeHttp(server: Server, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      server.closeAllConnections();
      resolve();
    }, timeoutMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}
