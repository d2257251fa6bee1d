import type { Deps } from './deps.js';
import { purgeIdempotencyKeys } from './idempotency.js';
import { QUEUES } from './jobs.js';
import { mailSender } from './mail.js';
import type { DomainModule } from './module.js';
import { dispatch } from './outbox.js';

const senders = new WeakMap<Deps, ReturnType<typeof mailSender>>();
/** One mail transport per runtime (pooled connections are reused across jobs). */
const senderOf = (deps: Deps) => {
  let sender = senders.get(deps);
  if (!sender) senders.set(deps, (sender = mailSender(deps.config, deps.db, deps.clock, deps.log)));
  return sender;
};

/** The platform's own queues and periodic work, run by every worker before the domains'. */
export const platformModule: DomainModule = {
  name: 'platform',
  jobs: [
    {
      queue: QUEUES.dispatchEvent,
      batch: true,
      options: { batchSize: 100 },
      handle: (deps, batch) => dispatch(deps, batch),
    },
    { queue: QUEUES.sendMail, handle: (deps, data) => senderOf(deps)(data) },
  ],
  periodic: [{ name: 'idempotency key purge', everyMs: () => 10 * 60_000, run: purgeIdempotencyKeys }],
};
