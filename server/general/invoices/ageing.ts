import type { Ctx } from '../../platform/context.js';
import * as queries from './ageing.queries.js';

/**
 * What each customer owed at the end of `asOf` in `currency`, in buckets of days past due, for
 * finance's aged receivables (docs/decisions.md D277): the invoices are general's, read here. The
 * later changes are looked for first, so a report of today reads the unpaid invoices alone.
 */
export async function receivablesAsOf(
  ctx: Ctx,
  currency: string,
  asOf: string,
  timeZone: string,
): Promise<queries.ReceivablesRow[]> {
  const changed = await queries.changedAfter(ctx.db, ctx.businessId, asOf, timeZone);
  return queries.receivablesAsOf(ctx.db, ctx.businessId, currency, asOf, timeZone, changed);
}
