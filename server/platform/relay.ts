import { slot } from './state.js';
import type { Ctx } from './context.js';
import { withTransaction } from './db/database.js';
import type { Deps } from './deps.js';
import { dispatchIn } from './outbox.js';
import { EVENTS_CHANNEL, lockPending } from './outbox.queries.js';

/** How often a worker looks for events written without a dispatch job. */
export const RELAY_INTERVAL_MS = 250;
// The dispatch job's batch size; PGlite's stack does not take a row-value IN list of 500.
const RELAY_BATCH = 100;
const WAKE_DELAY_MS = 5;

/**
 * The outbox relay (docs/decisions.md D265). Workers fan out every undispatched event here: each run
 * locks a batch of the oldest (SKIP LOCKED, so workers share the backlog) and fans it out in the
 * same transaction, until none is left. A run happens when a transaction that wrote events through
 * `emit` commits (its notification on `EVENTS_CHANNEL` reaches every worker), when this process
 * wrote events of the public earn (`announce`: its single statement at point-of-sale rates sends
 * no notification), and every RELAY_INTERVAL_MS whatever happens, so that nothing waits for ever on
 * a notification that was lost.
 */
export async function relayPendingEvents(deps: Deps): Promise<number> {
  let total = 0;
  for (;;) {
    const relayed = await withTransaction(deps.db, async (trx) => {
      const pending = await lockPending(trx, RELAY_BATCH);
      await dispatchIn(
        trx,
        deps,
        pending.map((e) => ({ businessId: e.business_id, eventId: e.id })),
      );
      return pending.length;
    });
    total += relayed;
    if (relayed < RELAY_BATCH) return total;
  }
}

/** Wakes this service's relay, when it runs one. */
const WAKER = slot('event relay waker', () => ({ wake: undefined as (() => void) | undefined }));

/** Runs the relay in this worker: on a timer, and when `announce` wakes it. */
export function startEventRelay(deps: Deps): void {
  let running = false;
  let again = false;
  const run = () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    relayPendingEvents(deps)
      .catch((err: unknown) => deps.log.error({ err }, 'event relay failed'))
      .finally(() => {
        running = false;
        if (again) {
          again = false;
          setImmediate(run);
        }
      });
  };
  let woken = false;
  // Wake-ups within a few milliseconds share one run.
  deps.state.get(WAKER).wake = () => {
    if (woken) return;
    woken = true;
    setTimeout(() => {
      woken = false;
      run();
    }, WAKE_DELAY_MS);
  };
  deps.jobs.every(RELAY_INTERVAL_MS, 'event relay', async () => run());
  deps.database
    .listen(EVENTS_CHANNEL, () => deps.state.get(WAKER).wake?.())
    .catch((err: unknown) =>
      deps.log.error({ err }, 'the event relay cannot listen for events; it runs on its timer'),
    );
}

/** Tells this process's relay (when it runs one) that events were just committed without a job. */
export function announce(ctx: Ctx): void {
  ctx.state.get(WAKER).wake?.();
}
