import type {
  ProfitLoss,
  ProfitLossQuery,
  RevenueCalculatorQuery,
  RevenueMetrics,
  SalesSchedule,
  SalesScheduleQuery,
} from '../../../contract/finance/index.js';
import { today } from '../../platform/calendar.js';
import type { Ctx } from '../../platform/context.js';
import { invalid } from '../../platform/errors.js';
import { divideHalfUp, exactSum, toMajor } from '../../platform/money.js';
import { baseCurrency } from '../../platform/settings.js';
import { salesItems } from '../../general/index.js';
import { accountTotalsBetween } from '../ledger/queries.js';
import {
  addMonths,
  dayOfYear,
  daysInYear,
  periodsBetween,
  rollingYearStart,
  startOfYear,
} from './periods.js';
import { salesBetween, salesByPeriod } from '../sales/queries.js';
import { NO_VAT_BLOCK, vatBlock } from '../vat/service.js';

/** A report range: end on or after start, less than ten years after it (422 otherwise). */
export function requireRange(start: string, end: string, fields: { end: string }): void {
  if (end < start) throw invalid(fields.end, 'Must be on or after the start date');
  // Compared as dates, not strings: ten years after a date late in 9999 has five digits.
  if (Date.parse(end) >= Date.parse(addMonths(start, 120))) {
    throw invalid(fields.end, 'A report covers at most 10 years');
  }
}

/** A sum of minor units as an exact JSON number (422 beyond 2^53). */
const int = (value: bigint) => exactSum(value, 'currency');

/**
 * The currency a revenue report answers in, and the sales it reads: the documents of `currency` (the
 * base currency by default) in their own amounts, or with `converted` every currency's in the base
 * currency, at the rates they posted at (docs/decisions.md D278); `converted` with another currency
 * than the base is 422.
 */
async function revenueCurrency(
  ctx: Ctx,
  query: { currency?: string | undefined; converted?: boolean | undefined },
): Promise<{ currency: string; of: string | null }> {
  const base = await baseCurrency(ctx);
  const currency = query.currency ?? base;
  if (query.converted !== true) return { currency, of: currency };
  if (currency !== base) {
    throw invalid(
      'converted',
      `With converted=true the sales are in the base currency, ${base}: leave currency out (or send ${base}), ` +
        `or leave converted out for the sales in ${currency} alone`,
    );
  }
  return { currency, of: null };
}

export async function salesSchedule(ctx: Ctx, query: SalesScheduleQuery): Promise<SalesSchedule> {
  requireRange(query.startDate, query.endDate, { end: 'endDate' });
  const { currency, of } = await revenueCurrency(ctx, query);
  const on = await today(ctx);
  const [sums, items, vat] = await Promise.all([
    salesByPeriod(ctx.db, ctx.businessId, of, query.startDate, query.endDate, query.groupBy),
    salesItems(ctx, {
      currency: of,
      from: query.startDate,
      to: query.endDate,
      limit: query.limit,
      offset: query.offset,
    }),
    vatBlock(ctx, on),
  ]);
  const byStart = new Map(sums.map((s) => [s.start, s]));
  let cumulative = 0n;
  let invoices = 0;
  const periods = periodsBetween(query.startDate, query.endDate, query.groupBy).map((p) => {
    const sum = byStart.get(p.start);
    const revenue = sum?.revenue ?? 0n;
    cumulative += revenue;
    invoices += sum?.invoices ?? 0;
    return {
      period: p.key,
      label: p.label,
      revenue: int(revenue),
      invoiceCount: sum?.invoices ?? 0,
      cumulative: int(cumulative),
    };
  });
  return {
    items,
    periods,
    summary: { totalRevenue: int(cumulative), totalInvoices: invoices, currency },
    vatThreshold: vat ?? NO_VAT_BLOCK,
  };
}

/**
 * Year to date (from 1 January of asOfDate's year), the 12 months ending asOfDate, their monthly
 * average, and the year projected from the days elapsed (asOfDate included), rounded half up.
 */
export async function revenueCalculator(ctx: Ctx, query: RevenueCalculatorQuery): Promise<RevenueMetrics> {
  const asOf = query.asOfDate ?? (await today(ctx));
  const { currency, of } = await revenueCurrency(ctx, query);
  const [ytd, rolling, vat] = await Promise.all([
    salesBetween(ctx.db, ctx.businessId, of, startOfYear(asOf), asOf),
    salesBetween(ctx.db, ctx.businessId, of, rollingYearStart(asOf), asOf),
    vatBlock(ctx, asOf),
  ]);
  const year = Number(asOf.slice(0, 4));
  return {
    ytdRevenue: int(ytd.revenue),
    rolling12MonthRevenue: int(rolling.revenue),
    monthlyAverage: int(divideHalfUp(rolling.revenue, 12n)),
    projectedAnnual: int(divideHalfUp(ytd.revenue * BigInt(daysInYear(year)), BigInt(dayOfYear(asOf)))),
    currency,
    asOfDate: asOf,
    ...(vat && { vatThreshold: vat }),
  };
}

/** Revenue and expense accounts of the ledger over the range, in major units. */
export async function profitLoss(ctx: Ctx, query: ProfitLossQuery): Promise<ProfitLoss> {
  requireRange(query.start_date, query.end_date, { end: 'end_date' });
  const currency = query.currency ?? (await baseCurrency(ctx));
  // No currency asked: every currency, in the base (docs/decisions.md D278).
  const rows = await accountTotalsBetween(
    ctx.db,
    ctx.businessId,
    query.currency ?? null,
    query.start_date,
    query.end_date,
    ['revenue', 'expense'],
  );
  const major = (minor: bigint) => toMajor(exactSum(minor, 'currency'), currency);
  const side = (type: 'revenue' | 'expense') => {
    let total = 0n;
    const accounts = rows
      .filter((r) => r.type === type)
      .map((r) => {
        const amount =
          type === 'revenue' ? BigInt(r.credit) - BigInt(r.debit) : BigInt(r.debit) - BigInt(r.credit);
        total += amount;
        return { code: r.code, name: r.name, amount: major(amount) };
      });
    return { total, accounts };
  };
  const revenue = side('revenue');
  const expenses = side('expense');
  return {
    start_date: query.start_date,
    end_date: query.end_date,
    currency,
    revenue: { total: major(revenue.total), accounts: revenue.accounts },
    expenses: { total: major(expenses.total), accounts: expenses.accounts },
    net_profit: major(revenue.total - expenses.total),
  };
}
