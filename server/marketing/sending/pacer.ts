import type { Deps } from '../../platform/deps.js';
import { slot } from '../../platform/state.js';

/** Per business, the time the next message may start (MAIL_RATE_PER_SECOND; 0: unpaced). */
const NEXT_SLOT = slot('campaign pacing', () => new Map<string, number>());

/** Slots a worker may catch up on after a pause in its sending (a slow claim, say), in ms. */
const CATCH_UP_MS = 250;

/** Waits for the business's next sending slot in this service. */
export async function pace(deps: Pick<Deps, 'state'>, businessId: string, perSecond: number): Promise<void> {
  const nextSlot = deps.state.get(NEXT_SLOT);
  if (perSecond <= 0) return;
  const now = performance.now();
  const next = Math.max(now - CATCH_UP_MS, nextSlot.get(businessId) ?? now);
  nextSlot.set(businessId, next + 1000 / perSecond);
  if (next > now) await new Promise((resolve) => setTimeout(resolve, next - now));
}
