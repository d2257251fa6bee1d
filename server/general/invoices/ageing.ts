import type { Ctx } from '../../platform/context.js';
import * as queries from './ageing.queries.js';

/**
 * What each customer owed at the end of `asOf` in `currency`, in buckets of days past due, for
 * finance's aged receivables (docs/decisions.md D277): the invoices are general's, read here.
 */
export const receivablesAsOf = (
  ctx: Ctx,
  currency: string,
  asOf: string,
  timeZone: string,
): Promise<queries.ReceivablesRow[]> =>
  queries.receivablesAsOf(ctx.db, ctx.businessId, currency, asOf, timeZone);
