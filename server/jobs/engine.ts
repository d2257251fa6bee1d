import { PgBoss, fromKysely, fromPglite } from 'pg-boss';
import type { DatabaseHandle, Trx } from '../db/database.js';
import type { Logger } from '../logger.js';

/** Job queues of the service. Each later domain adds its own here. */
export const QUEUES = {
  dispatchEvent: 'events.dispatch',
} as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

export type JobHandler<T> = (data: T) => Promise<void>;

/**
 * pg-boss as the job engine on both databases. Jobs are enqueued inside the transaction of the
 * change that caused them, so a rollback drops them and a commit keeps them.
 */
export class JobEngine {
  private workerIds: string[] = [];

  private constructor(
    readonly boss: PgBoss,
    private readonly log: Logger,
  ) {}

  static async start(handle: DatabaseHandle, log: Logger): Promise<JobEngine> {
    const boss =
      handle.kind === 'pglite'
        ? new PgBoss({ db: fromPglite(handle.pglite!), backend: 'pglite', schedule: false, supervise: true })
        : new PgBoss({
            connectionString: handle.connectionString,
            max: 4,
            application_name: 'bms-jobs',
            useListenNotify: true,
          });
    boss.on('error', (err: unknown) => log.error({ err }, 'job engine error'));
    await boss.start();
    for (const name of Object.values(QUEUES)) {
      await boss.createQueue(name, { retryLimit: 10, retryBackoff: true, retryDelay: 2 });
    }
    return new JobEngine(boss, log);
  }

  /** Enqueues a job in the caller's transaction. */
  async send(trx: Trx, name: QueueName, data: object): Promise<void> {
    await this.boss.send(name, data, { db: fromKysely(trx) });
  }

  async work<T extends object>(name: QueueName, handler: JobHandler<T>): Promise<void> {
    const id = await this.boss.work<T>(name, { batchSize: 20, pollingIntervalSeconds: 0.5 }, async (jobs) => {
      for (const job of jobs) await handler(job.data);
    });
    this.workerIds.push(id);
  }

  /** Stops the workers, letting running jobs finish, then the engine. */
  async stop(timeoutMs: number): Promise<void> {
    await this.boss.stop({ graceful: true, timeout: timeoutMs, close: true });
    this.workerIds = [];
    this.log.debug('job engine stopped');
  }
}
