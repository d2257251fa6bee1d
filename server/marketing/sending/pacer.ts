import type { Deps } from '../../platform/deps.js';
import { slot } from '../../platform/state.js';
import { reserveSendSlots } from './queries.js';

/** Slots a business may catch up on after a pause in its sending (a slow claim, say), in ms. */
const CATCH_UP_MS = 250;

/** How much sending time a process reserves at once: a few round trips a second at most. */
const RESERVE_MS = 50;

/** The slots this process holds for one business, on its own clock (`performance.now()`). */
interface Reserved {
  next: number;
  left: number;
  intervalMs: number;
  /** The reservation under way, which the lanes that find no slot left wait for together. */
  pending?: Promise<void>;
}

const RESERVED = slot('campaign pacing', () => new Map<string, Reserved>());

/**
 * Waits for the business's next sending slot (MAIL_RATE_PER_SECOND; 0: unpaced). Slots are
 * reserved in the database a few at a time, so the rate holds for the business across every worker
 * process; the ones a process reserved and did not use only delay the others, never speed them up.
 */
export async function pace(
  deps: Pick<Deps, 'state' | 'db'>,
  businessId: string,
  perSecond: number,
): Promise<void> {
  if (perSecond <= 0) return;
  const held = deps.state.get(RESERVED);
  const intervalMs = 1000 / perSecond;
  let reserved = held.get(businessId);
  if (!reserved || reserved.intervalMs !== intervalMs) {
    reserved = { next: 0, left: 0, intervalMs };
    held.set(businessId, reserved);
  }
  while (reserved.left === 0) {
    reserved.pending ??= reserve(deps, businessId, reserved).finally(() => (reserved.pending = undefined));
    await reserved.pending;
  }
  const at = reserved.next;
  reserved.next += intervalMs;
  reserved.left -= 1;
  const wait = at - performance.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}

async function reserve(deps: Pick<Deps, 'db'>, businessId: string, reserved: Reserved): Promise<void> {
  const count = Math.max(1, Math.min(100, Math.floor(RESERVE_MS / reserved.intervalMs)));
  const { first, now } = await reserveSendSlots(deps.db, businessId, count, reserved.intervalMs, CATCH_UP_MS);
  // The database's `now` is placed at this process's instant of the answer, after it on any clock:
  // a slot may start a round trip late here, never early.
  reserved.next = performance.now() + (first.getTime() - now.getTime());
  reserved.left = count;
}
