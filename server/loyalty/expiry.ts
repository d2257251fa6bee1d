import { jobCtx, type CtxSource } from '../platform/context.js';
import { inTransaction } from '../platform/db/database.js';
import { post } from './ledger.js';

const JOB = 'points expiry';
const BATCH = 500;

type Credit = {
  business_id: string;
  id: string;
  member_id: string;
  expires_at: Date | null;
  created_at: Date;
};

/**
 * Writes an `expire` transaction for the rest of every credit whose expiry has passed, oldest first,
 * one credit per transaction. Credits of deleted members are left alone (their balance is no longer
 * shown anywhere). Returns how many credits expired.
 */
export async function expirePoints(deps: CtxSource): Promise<number> {
  const now = deps.clock.now();
  let expired = 0;
  let after: Credit | undefined;
  for (;;) {
    let query = deps.db
      .selectFrom('loyalty_transactions as t')
      .innerJoin('loyalty_members as m', (j) =>
        j.onRef('m.business_id', '=', 't.business_id').onRef('m.id', '=', 't.member_id'),
      )
      .select(['t.business_id', 't.id', 't.member_id', 't.expires_at', 't.created_at'])
      .where('t.remaining', '>', 0)
      .where('t.expires_at', '<=', now)
      .where('m.deleted_at', 'is', null);
    if (after) {
      const last = after;
      query = query.where((eb) =>
        eb(
          eb.refTuple('t.expires_at', 't.created_at', 't.business_id', 't.id'),
          '>',
          eb.tuple(last.expires_at, last.created_at, last.business_id, last.id),
        ),
      );
    }
    const batch = await query
      .orderBy('t.expires_at')
      .orderBy('t.created_at')
      .orderBy('t.business_id')
      .orderBy('t.id')
      .limit(BATCH)
      .execute();
    for (const credit of batch) {
      try {
        if (await expireOne(deps, credit, now)) expired++;
      } catch (err) {
        // One credit that cannot expire must not hold up the others; the next run retries it.
        deps.log.error({ err, businessId: credit.business_id, creditId: credit.id }, 'points expiry failed');
      }
    }
    if (batch.length < BATCH) break;
    after = batch.at(-1);
  }
  if (expired > 0) deps.log.info({ expired }, 'loyalty points expired');
  return expired;
}

async function expireOne(deps: CtxSource, credit: Credit, now: Date): Promise<boolean> {
  return inTransaction(deps.db, async (trx) => {
    // The member first, then the credit: the order every balance change takes its locks in.
    const member = await trx
      .selectFrom('loyalty_members')
      .select('id')
      .where('business_id', '=', credit.business_id)
      .where('id', '=', credit.member_id)
      .where('deleted_at', 'is', null)
      .forUpdate()
      .executeTakeFirst();
    if (!member) return false;
    const current = await trx
      .selectFrom('loyalty_transactions')
      .select(['remaining', 'expires_at'])
      .where('business_id', '=', credit.business_id)
      .where('id', '=', credit.id)
      .forUpdate()
      .executeTakeFirst();
    const remaining = Number(current?.remaining ?? 0);
    if (remaining <= 0 || !current?.expires_at || current.expires_at > now) return false;
    await post(trx, jobCtx({ ...deps, db: trx }, credit.business_id, JOB), credit.member_id, {
      type: 'expire',
      points: -remaining,
      description: 'Points expired',
      referenceType: null,
      expiringCreditId: credit.id,
    });
    return true;
  });
}
