import type { BalanceSheetQuery, ProfitLossQuery } from '../../../contract/finance/index.js';
import type { Ctx } from '../../platform/context.js';

/** The balance sheet as an A4 PDF. */
export async function balanceSheetPdf(
  _ctx: Ctx,
  _query: BalanceSheetQuery,
): Promise<{ filename: string; content: Buffer }> {
  throw new Error('not built');
}

/** The profit and loss report as an A4 PDF. */
export async function profitLossPdf(
  _ctx: Ctx,
  _query: ProfitLossQuery,
): Promise<{ filename: string; content: Buffer }> {
  throw new Error('not built');
}
