import type {
  BalanceSheetLine,
  BalanceSheetQuery,
  ProfitLossQuery,
} from '../../../contract/finance/index.js';
import type { Ctx } from '../../platform/context.js';
import { toMajor } from '../../platform/money.js';
import { reportPdf, type ReportRow } from '../../general/index.js';
import { profitLoss } from '../reports/service.js';
import { balanceSheet } from './service.js';

/**
 * The balance sheet and the profit and loss report as PDFs: the figures of their JSON routes (and
 * the same refusals), printed by the general group's document renderer under the business's name.
 */

const SECTIONS: Array<{ section: BalanceSheetLine['section']; heading: string; total: string }> = [
  { section: 'asset', heading: 'Assets', total: 'Total assets' },
  { section: 'liability', heading: 'Liabilities', total: 'Total liabilities' },
  { section: 'equity', heading: 'Equity', total: 'Total equity' },
];

/** The balance sheet as an A4 PDF. */
export async function balanceSheetPdf(
  ctx: Ctx,
  query: BalanceSheetQuery,
): Promise<{ filename: string; content: Buffer }> {
  const { data, lines } = await balanceSheet(ctx, query);
  const major = (minor: number) => toMajor(minor, data.currency);
  const totals = {
    asset: data.total_assets,
    liability: data.total_liabilities,
    equity: data.total_equity,
  };
  const rows = SECTIONS.flatMap(({ section, heading, total }): ReportRow[] => [
    { type: 'heading', label: heading },
    ...lines
      .filter((line) => line.section === section)
      .map((line): ReportRow => ({
        type: 'account',
        code: line.code,
        name: line.name,
        amount: major(line.balance),
      })),
    { type: 'total', label: total, amount: major(totals[section]) },
  ]);
  return reportPdf(ctx, {
    title: 'Balance sheet',
    period: `As of ${data.as_of}`,
    dates: [['Financial year from', data.financial_year_start]],
    currency: data.currency,
    date: data.as_of,
    rows,
    totals: [
      { label: 'Total assets', amount: major(data.total_assets), strong: false },
      {
        label: 'Total liabilities and equity',
        amount: major(data.total_liabilities_and_equity),
        strong: true,
      },
    ],
    file: `balance-sheet-${data.as_of}`,
  });
}

/** The profit and loss report as an A4 PDF. */
export async function profitLossPdf(
  ctx: Ctx,
  query: ProfitLossQuery,
): Promise<{ filename: string; content: Buffer }> {
  const report = await profitLoss(ctx, query);
  const section = (heading: string, side: (typeof report)['revenue'], total: string): ReportRow[] => [
    { type: 'heading', label: heading },
    ...side.accounts.map((account): ReportRow => ({ type: 'account', ...account })),
    { type: 'total', label: total, amount: side.total },
  ];
  return reportPdf(ctx, {
    title: 'Profit and loss',
    period: `${report.start_date} to ${report.end_date}`,
    dates: [
      ['From', report.start_date],
      ['To', report.end_date],
    ],
    currency: report.currency,
    date: report.end_date,
    rows: [
      ...section('Revenue', report.revenue, 'Total revenue'),
      ...section('Expenses', report.expenses, 'Total expenses'),
    ],
    totals: [{ label: 'Net profit', amount: report.net_profit, strong: true }],
    file: `profit-loss-${report.start_date}-${report.end_date}`,
  });
}
