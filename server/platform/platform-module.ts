import type { Deps } from './deps.js';
import { slot } from './state.js';
import { purgeIdempotencyKeys } from './idempotency.js';
import { QUEUES } from './jobs.js';
import { mailSender } from './mail.js';
import type { DomainModule } from './module.js';
import { dispatch } from './outbox.js';

/** The service's mail sender, made on first use (its transport is reused across jobs). */
const SENDER = slot('mail sender', () => ({ send: undefined as ReturnType<typeof mailSender> | undefined }));
const senderOf = (deps: Deps) => {
  const held = deps.state.get(SENDER);
  held.send ??= mailSender(deps.config, deps.db, deps.clock, deps.log, deps.state);
  return held.send;
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
    {
      queue: QUEUES.sendMail,
      // A batch's messages go out at once over the pooled connections; each is marked when sent,
      // so a retried batch sends only what had not gone.
      options: { batchSize: 20, parallel: true },
      handle: (deps, data) => senderOf(deps).send(data),
    },
  ],
  periodic: [{ name: 'idempotency key purge', everyMs: () => 10 * 60_000, run: purgeIdempotencyKeys }],
  stop: (deps) => {
    const held = deps.state.get(SENDER);
    held.send?.close();
    held.send = undefined;
  },
};
