import type { Revaluation, RevaluationLine } from '../../../contract/finance/index.js';
import { toBase } from '../../../contract/common/exchange.js';
import { addDays, today } from '../../platform/calendar.js';
import { inTransaction, jobCtx, type Ctx, type CtxSource, type TxCtx } from '../../platform/context.js';
import { isUniqueViolation } from '../../platform/db/errors.js';
import { ApiError, conflict, invalid } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { baseCurrency } from '../../platform/settings.js';
import { findLockDate } from '../books/queries.js';
import { rateForPosting } from '../exchange-rates/service.js';
import { ACCOUNTS, post, reverse } from '../ledger/service.js';
import * as queries from './queries.js';

/*
 * Revaluation (docs/decisions.md D278): what receivables, payables and cash accounts hold in a
 * currency other than the base is carried at the rates it was posted at; on a day, each balance
 * converted at that day's rate less its carrying amount is an unrealised gain or loss. It is posted
 * on the day (the account moved by its difference, 4910 / 5910 taking the net of each currency) and
 * reversed the next, so the carrying amounts stay those of the postings and the next revaluation
 * starts from them again.
 */

type Summary = Omit<Revaluation, 'id' | 'as_of' | 'created_at' | 'reversal_date'>;

const toRevaluation = (row: queries.RevaluationRow): Revaluation => ({
  id: row.id,
  as_of: row.as_of,
  ...(row.summary as Summary),
  reversal_date: addDays(row.as_of, 1),
  created_at: row.created_at.toISOString(),
});

/** The revaluation's own source id for one currency's entry (a document posts once per source). */
const sourceOf = (id: string, currency: string) => ({
  type: 'revaluation' as const,
  id: `${id}:${currency}`,
});

/** Revalues on `asOf` in the caller's transaction: the lines, the entries posted and reversed. */
/** The business's lock date when it closes `date`, else null. */
async function lockedOn(ctx: TxCtx, date: string): Promise<string | null> {
  const lock = await findLockDate(ctx.db, ctx.businessId);
  return lock && lock.lock_date >= date ? lock.lock_date : null;
}

export async function revalue(ctx: TxCtx, asOf: string): Promise<Revaluation> {
  // A closed period refuses the revaluation itself, even one with nothing to post (the journal's
  // lock refuses only postings).
  const locked = await lockedOn(ctx, asOf);
  if (locked !== null) {
    throw new ApiError(
      'PERIOD_LOCKED',
      `The books are locked up to and including ${locked}: nothing can be revalued as of ${asOf}. ` +
        `Revalue a day after ${locked}, or have an owner move the lock date earlier`,
    );
  }
  if (await queries.findRevaluationOn(ctx.db, ctx.businessId, asOf)) {
    throw conflict(
      `The books were already revalued on ${asOf}: revalue another day, or read it in GET /v1/finance/revaluations`,
    );
  }
  const base = await baseCurrency(ctx);
  const id = newId('reval');
  const balances = await queries.foreignBalances(ctx.db, ctx.businessId, base, asOf);
  const lines: RevaluationLine[] = [];
  const byCurrency = new Map<string, RevaluationLine[]>();
  for (const row of balances) {
    const rate = await rateForPosting(ctx, row.currency, asOf, null, 'as_of');
    const balance = Number(row.balance);
    const revalued = toBase(balance, row.currency, base, rate);
    const line: RevaluationLine = {
      account_code: row.account_code,
      currency: row.currency,
      balance,
      base_balance: Number(row.base_balance),
      rate,
      revalued,
      difference: revalued - Number(row.base_balance),
    };
    lines.push(line);
    byCurrency.set(row.currency, [...(byCurrency.get(row.currency) ?? []), line]);
  }
  let gain = 0;
  let loss = 0;
  const entryIds: string[] = [];
  for (const [currency, moved] of byCurrency) {
    const changed = moved.filter((l) => l.difference !== 0);
    if (changed.length === 0) continue;
    const net = changed.reduce((total, l) => total + l.difference, 0);
    if (net > 0) gain += net;
    else loss -= net;
    const entryId = await post(ctx, {
      date: asOf,
      description: `Revaluation of ${currency} balances on ${asOf}`,
      currency,
      rate: changed[0]!.rate,
      source: sourceOf(id, currency),
      differences: { gain: ACCOUNTS.unrealisedGain, loss: ACCOUNTS.unrealisedLoss },
      debits: changed
        .filter((l) => l.difference > 0)
        .map((l) => ({ account: l.account_code, amount: 0, base: l.difference })),
      credits: changed
        .filter((l) => l.difference < 0)
        .map((l) => ({ account: l.account_code, amount: 0, base: -l.difference })),
    });
    if (entryId) entryIds.push(entryId);
    await reverse(
      ctx,
      sourceOf(id, currency),
      addDays(asOf, 1),
      `Reversal of the revaluation of ${currency} balances on ${asOf}`,
    );
  }
  const summary: Summary = { lines, gain, loss, entry_ids: entryIds };
  const row = await queries.insertRevaluation(ctx.db, {
    business_id: ctx.businessId,
    id,
    as_of: asOf,
    summary: JSON.stringify(summary),
    created_at: ctx.clock.now(),
  });
  return toRevaluation(row);
}

export async function createRevaluation(ctx: Ctx, input: { as_of: string }): Promise<Revaluation> {
  const now = await today(ctx);
  if (input.as_of > now)
    throw invalid('as_of', `Must be on or before today (${now}): rates of later days are not known`);
  try {
    return await inTransaction(ctx, (ctx) => revalue(ctx, input.as_of));
  } catch (err) {
    if (isUniqueViolation(err)) {
      throw conflict(`The books were already revalued on ${input.as_of}: revalue another day`);
    }
    throw err;
  }
}

export async function listRevaluations(ctx: Ctx, page: { limit: number; offset: number }) {
  const { rows, total } = await queries.listRevaluations(ctx.db, ctx.businessId, page);
  return { revaluations: rows.map(toRevaluation), total_count: total };
}

/**
 * The sandbox's month-end close: on the first day of a month (the business's today at the step of a
 * test-clock advance), revalues as of the day before unless that day was revalued already.
 */
export async function revalueMonthEnd(deps: CtxSource, businessId: string): Promise<number> {
  const ctx = jobCtx(deps, businessId, 'month-end revaluation');
  const on = await today(ctx);
  if (!on.endsWith('-01')) return 0;
  const asOf = addDays(on, -1);
  return inTransaction(ctx, async (tx) => {
    // A month already revalued, or closed, is left as it is.
    if (await queries.findRevaluationOn(tx.db, tx.businessId, asOf)) return 0;
    if ((await lockedOn(tx, asOf)) !== null) return 0;
    await revalue(tx, asOf);
    return 1;
  });
}
