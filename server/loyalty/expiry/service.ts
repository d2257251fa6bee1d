import { sweep } from '../../platform/sweep.js';
import { inTransaction, jobCtx, type CtxSource } from '../../platform/context.js';

import * as queries from './queries.js';
import type { ExpiringCredit } from './queries.js';
import { post } from '../ledger/service.js';
import { lockMember } from '../members/queries.js';

const JOB = 'points expiry';
const BATCH = 500;

/**
 * Writes an `expire` transaction for the rest of every credit whose expiry has passed, oldest first,
 * one credit per transaction. Credits of deleted members are left alone (their balance is no longer
 * shown anywhere). Every business's, or only `businessId`'s (a sandbox's test clock). Returns how
 * many credits expired.
 */
export async function expirePoints(deps: CtxSource, businessId?: string): Promise<number> {
  const now = deps.clock.now();
  let expired = 0;
  let after: ExpiringCredit | undefined;
  for (;;) {
    const batch = await queries.expiredCredits(deps.db, now, BATCH, after, businessId);
    expired += await sweep(
      deps,
      batch,
      { message: 'points expiry failed', describe: (c) => ({ businessId: c.business_id, creditId: c.id }) },
      async (credit) => ((await expireOne(deps, credit, now)) ? 1 : 0),
    );
    if (batch.length < BATCH) break;
    after = batch.at(-1);
  }
  if (expired > 0) deps.log.info({ expired }, 'loyalty points expired');
  return expired;
}

/** Whether some credit of the business has expired by `deps.clock`'s time and is not expired yet. */
export async function hasExpiredPoints(deps: CtxSource, businessId: string): Promise<boolean> {
  return (await queries.expiredCredits(deps.db, deps.clock.now(), 1, undefined, businessId)).length > 0;
}

async function expireOne(deps: CtxSource, credit: ExpiringCredit, now: Date): Promise<boolean> {
  return inTransaction(jobCtx(deps, credit.business_id, JOB), async (ctx) => {
    // The member first, then the credit: the order every balance change takes its locks in.
    if (!(await lockMember(ctx.db, credit.business_id, credit.member_id))) return false;
    const current = await queries.lockCredit(ctx.db, credit.business_id, credit.id);
    const remaining = Number(current?.remaining ?? 0);
    if (remaining <= 0 || !current?.expires_at || current.expires_at > now) return false;
    await post(ctx, credit.member_id, {
      type: 'expire',
      points: -remaining,
      description: 'Points expired',
      referenceType: null,
      expiringCreditId: credit.id,
    });
    return true;
  });
}
