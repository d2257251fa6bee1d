import { ServiceState } from './state.js';
import type { QueueName } from './jobs.js';
import type { JobOf } from './module.js';
import type { Server } from 'node:http';
import { systemClock, type Clock } from './clock.js';
import { limiterFactory } from './rate-limit.js';
import type { Config } from '../config.js';
import { databaseOptions, openDatabase } from './db/database.js';
import { systemDns, type DnsResolver } from './dns.js';
import { migrateToLatest } from './db/migrate.js';
import { migratedTemplate } from './db/template.js';
import type { Deps, Limiters } from './deps.js';
import { loadSecretBox } from './secret-box.js';
import { Hooks } from './hooks.js';
import { JobEngine } from './jobs.js';
import { metricsOf } from './metrics.js';
import type { DomainModule } from './module.js';
import { platformModule } from './platform-module.js';
import { startEventRelay } from './relay.js';
import { createLogger, type Logger } from './logger.js';

export interface RuntimeOptions {
  clock?: Clock;
  log?: Logger;
  dns?: DnsResolver;
  /** See DatabaseOptions.pgliteSeed. */
  pgliteSeed?: Blob;
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
export async function startRuntime(
  config: Readonly<Config>,
  domains: readonly DomainModule[],
  options: RuntimeOptions = {},
): Promise<Runtime> {
  /** What the service runs: the platform's own work, then every domain module in its order. */
  const modules = [platformModule, ...domains];
  const log = options.log ?? createLogger(config.LOG_LEVEL);
  const open = () =>
    openDatabase({
      ...databaseOptions(config),
      pgliteSeed: options.pgliteSeed,
      pgliteTemplate: config.MIGRATE_ON_START ? migratedTemplate() : undefined,
    });
  let database = await open();
  try {
    if (config.MIGRATE_ON_START) {
      const applied = await migrateToLatest(database.db);
      if (applied.length) log.info({ applied }, 'migrations applied');
      // PGlite's WebAssembly memory grows while it migrates and never shrinks: a directory just
      // migrated is opened again, so the service runs in the memory of one that was not
      // (docs/decisions.md D238).
      if (applied.length && database.kind === 'pglite' && config.DATA_DIR !== 'memory://') {
        await database.close();
        database = await open();
      }
    }
    const state = new ServiceState(config);
    const metrics = metricsOf(state);
    const jobs = await JobEngine.start(database, log, metrics);
    const deps: Deps = {
      config,
      database,
      db: database.db,
      jobs,
      clock: options.clock ?? systemClock,
      log,
      limiters: buildLimiters(config, { database }),
      secrets: loadSecretBox(config, log),
      dns: options.dns ?? systemDns,
      state,
      hooks: new Hooks(modules.flatMap((m) => (m.subscriptions ? [m.subscriptions] : []))),
      modules,
    };
    metrics.watch(deps);
    return {
      deps,
      async close() {
        await jobs.stop(config.SHUTDOWN_TIMEOUT_MS);
        for (const module of modules) await module.stop?.(deps);
        await database.close();
      },
    };
  } catch (err) {
    await database.close();
    throw err;
  }
}

/** Works one module's queue: generic, so the queue's payload and the handler meet by type. */
async function workQueue<Q extends QueueName>(deps: Deps, job: JobOf<Q>): Promise<void> {
  if (job.batch) await deps.jobs.workBatch(job.queue, (batch) => job.handle(deps, batch), job.options);
  else await deps.jobs.work(job.queue, (data) => job.handle(deps, data), job.options);
}

/** Registers every module's job handlers and periodic work: this process now works the queues. */
export async function startWorker(deps: Deps): Promise<void> {
  for (const module of deps.modules) {
    for (const job of module.jobs ?? []) {
      await workQueue(deps, job);
    }
    for (const task of module.periodic ?? []) {
      deps.jobs.every(task.everyMs(deps.config), task.name, () => task.run(deps), { atStart: task.atStart });
    }
  }
  startEventRelay(deps);
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
