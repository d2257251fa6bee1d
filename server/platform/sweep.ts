import type { CtxSource } from './context.js';
import { isolatesFailures } from './db/database.js';

/**
 * Works each item of a batch of due work (expiry, reminders, recurring documents) and adds up what
 * `work` counts for it. Where each item's work is a transaction of its own (the workers, on the
 * database handle), one item that fails must not hold up the others: the failure is logged with
 * `describe(item)` and the next run retries the item. Inside a transaction that owns its failures (a
 * sandbox's clock advance, all or nothing: docs/decisions.md D264) nothing undid the item's work, so
 * the failure ends the whole.
 */
export async function sweep<K>(
  deps: Pick<CtxSource, 'db' | 'log'>,
  items: readonly K[],
  failure: { message: string; describe: (item: K) => object },
  work: (item: K) => Promise<number>,
): Promise<number> {
  let done = 0;
  for (const item of items) {
    try {
      done += await work(item);
    } catch (err) {
      if (!isolatesFailures(deps.db)) throw err;
      deps.log.error({ err, ...failure.describe(item) }, failure.message);
    }
  }
  return done;
}
