import { PgBoss, fromKysely, fromPglite } from 'pg-boss';
import type { DatabaseHandle, Trx } from './db/database.js';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics.js';

/**
 * Every job queue of the service and what one of its jobs carries: checked where jobs are sent
 * (`send`, `sendMany`) and where they are worked (a module's `jobs`), so a handler never casts.
 */
export interface JobPayloads {
  /** Hand an outbox event to the modules that consume events (server/platform/outbox.ts). */
  'events.dispatch': { businessId: string; eventId: string };
  /** One webhook delivery attempt (server/webhooks/deliveries/service.ts). */
  'webhooks.deliver': {
    businessId: string;
    deliveryId: string;
    /** A redelivery asked for by the business: one extra attempt, outside the retry schedule. */
    redelivery?: boolean;
  };
  /** Send one message of the mail outbox (server/platform/mail.ts). */
  'mail.send': { businessId: string; messageId: string };
  /** Mail a password reset link if the email has an account (server/auth/password-reset.ts). */
  'auth.password-reset': { email: string; requestedAt: string };
  /** The test payment provider confirms a payment it said would succeed later (server/general/online-payments). */
  'payments.confirm-test': { businessId: string; checkoutId: string };
  /** Ask the payment provider for a credit note's refund to the card (server/general/online-payments). */
  'payments.refund-card': { businessId: string; creditNoteId: string };
}

export type QueueName = keyof JobPayloads;

/** The queues by the names the code uses. */
export const QUEUES = {
  dispatchEvent: 'events.dispatch',
  deliverWebhook: 'webhooks.deliver',
  sendMail: 'mail.send',
  passwordReset: 'auth.password-reset',
  confirmTestPayment: 'payments.confirm-test',
  refundToCard: 'payments.refund-card',
} as const satisfies Record<string, QueueName>;

/** How many held jobs one statement enqueues. */
const HELD_CHUNK = 2000;

/**
 * pg-boss as the job engine on both databases. Jobs are enqueued inside the transaction of the
 * change that caused them, so a rollback drops them and a commit keeps them.
 */
export class JobEngine {
  private workerIds: string[] = [];
  private timers: NodeJS.Timeout[] = [];

  private constructor(
    readonly boss: PgBoss,
    private readonly log: Logger,
    private readonly metrics: Metrics,
  ) {}

  static async start(handle: DatabaseHandle, log: Logger, metrics: Metrics): Promise<JobEngine> {
    const boss =
      handle.kind === 'pglite'
        ? new PgBoss({
            db: fromPglite(handle.pglite!),
            backend: 'pglite',
            schedule: false,
            supervise: true,
            useListenNotify: true,
          })
        : new PgBoss({
            connectionString: handle.connectionString,
            max: 4,
            application_name: 'bms-jobs',
            useListenNotify: true,
          });
    boss.on('error', (err: unknown) => log.error({ err }, 'job engine error'));
    await boss.start();
    for (const name of Object.values(QUEUES)) {
      // notify: a new job wakes idle workers at once (LISTEN/NOTIFY) instead of at their next poll.
      await boss.createQueue(name, { retryLimit: 10, retryBackoff: true, retryDelay: 2, notify: true });
      // Loads the queue into pg-boss's cache now. Otherwise the first send() inside a transaction
      // looks it up on pg-boss's own connection, which on PGlite (a single connection) waits for
      // that very transaction: a process without a worker would hang on its first event.
      await boss.getJobById(name, '00000000-0000-0000-0000-000000000000');
    }
    return new JobEngine(boss, log, metrics);
  }

  /** Enqueues a job in the caller's transaction. */
  async send<Q extends QueueName>(trx: Trx, name: Q, data: JobPayloads[Q]): Promise<void> {
    await this.boss.send(name, data, { db: fromKysely(trx) });
  }

  /** Enqueues a job in the caller's transaction, to run no sooner than `seconds` after it commits. */
  async sendLater<Q extends QueueName>(
    trx: Trx,
    name: Q,
    data: JobPayloads[Q],
    seconds: number,
  ): Promise<void> {
    await this.boss.send(name, data, { db: fromKysely(trx), startAfter: seconds });
  }

  /** Enqueues many jobs of one queue in the caller's transaction, in one statement. */
  async sendMany<Q extends QueueName>(trx: Trx, name: Q, data: readonly JobPayloads[Q][]): Promise<void> {
    if (data.length === 0) return;
    await this.boss.insert(
      name,
      data.map((d) => ({ data: d })),
      { db: fromKysely(trx) },
    );
  }

  /**
   * A view of the engine that holds the jobs sent through it until `flush` enqueues them, a few
   * statements per queue, in the transaction it is given: for one all-or-nothing transaction that
   * sends thousands (a sandbox's clock advance, docs/decisions.md D264). The jobs commit with that
   * transaction as they would have one by one; what they were sent in must be that transaction.
   */
  held(): JobEngine & { flush(trx: Trx): Promise<void> } {
    const pending = new Map<QueueName, unknown[]>();
    const hold = (name: QueueName, data: readonly unknown[]) => {
      const held = pending.get(name) ?? [];
      for (const d of data) held.push(d);
      pending.set(name, held);
      return Promise.resolve();
    };
    const flush = async (trx: Trx) => {
      for (const [name, data] of pending) {
        for (let at = 0; at < data.length; at += HELD_CHUNK) {
          await this.sendMany(trx, name, data.slice(at, at + HELD_CHUNK) as JobPayloads[typeof name][]);
        }
      }
      pending.clear();
    };
    return Object.assign(Object.create(this) as JobEngine, {
      send: (_trx: Trx, name: QueueName, data: unknown) => hold(name, [data]),
      sendMany: (_trx: Trx, name: QueueName, data: readonly unknown[]) => hold(name, data),
      flush,
    });
  }

  /** Works a queue a whole batch at a time (the handler sees every job of the batch at once). */
  async workBatch<Q extends QueueName>(
    name: Q,
    handler: (batch: JobPayloads[Q][]) => Promise<void>,
    options: { batchSize?: number; concurrency?: number } = {},
  ): Promise<void> {
    const { batchSize = 50, concurrency = 1 } = options;
    const id = await this.boss.work<JobPayloads[Q]>(
      name,
      { ...this.pollingOptions(batchSize), localConcurrency: concurrency },
      async (jobs) => {
        try {
          await handler(jobs.map((job) => job.data));
        } catch (err) {
          this.metrics.jobFailures.inc({ queue: name });
          throw err;
        }
      },
    );
    this.workerIds.push(id);
  }

  /** Keep fetching while batches come back full; otherwise NOTIFY wakes the worker, a slow poll behind it. */
  private pollingOptions(batchSize: number) {
    return {
      batchSize,
      burstWhenBatchFull: true,
      pollingIntervalSeconds: 0.5,
      notifyPollingIntervalSeconds: 2,
    };
  }

  /**
   * Works a queue in batches. `parallel` runs a batch's jobs concurrently (for I/O-bound work such as
   * webhook attempts); a failure fails the batch, which pg-boss retries, so handlers are idempotent.
   */
  async work<Q extends QueueName>(
    name: Q,
    handler: (data: JobPayloads[Q]) => Promise<void>,
    options: { batchSize?: number; parallel?: boolean; concurrency?: number } = {},
  ): Promise<void> {
    const { batchSize = 20, parallel = false, concurrency = 1 } = options;
    const workOptions = { ...this.pollingOptions(batchSize), localConcurrency: concurrency };
    const id = await this.boss.work<JobPayloads[Q]>(name, workOptions, async (jobs) => {
      if (!parallel) {
        for (const job of jobs) {
          try {
            await handler(job.data);
          } catch (err) {
            this.metrics.jobFailures.inc({ queue: name });
            throw err;
          }
        }
        return;
      }
      const rejected = (await Promise.allSettled(jobs.map((job) => handler(job.data)))).filter(
        (r) => r.status === 'rejected',
      );
      if (rejected[0]) {
        this.metrics.jobFailures.inc({ queue: name }, rejected.length);
        throw rejected[0].reason;
      }
    });
    this.workerIds.push(id);
  }

  /**
   * Runs `task` every `ms` until the engine stops, and at once too when `atStart`; a run never
   * overlaps the previous one.
   */
  every(ms: number, name: string, task: () => Promise<unknown>, options: { atStart?: boolean } = {}): void {
    let running = false;
    const run = () => {
      if (running) return;
      running = true;
      task()
        .catch((err: unknown) => this.log.error({ err, task: name }, 'periodic task failed'))
        .finally(() => {
          running = false;
        });
    };
    const timer = setInterval(run, ms);
    timer.unref();
    this.timers.push(timer);
    if (options.atStart) run();
  }

  /** Stops the workers, letting running jobs finish, then the engine. */
  async stop(timeoutMs: number): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    await this.boss.stop({ graceful: true, timeout: timeoutMs, close: true });
    this.workerIds = [];
    this.log.debug('job engine stopped');
  }
}
