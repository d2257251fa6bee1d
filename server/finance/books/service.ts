import type {
  AgedPayablesRow,
  AgedReceivablesRow,
  AgeingQuery,
  AgeingTotals,
  BalanceSheet,
  BalanceSheetLine,
  BalanceSheetQuery,
  CashFlow,
  CashFlowCategory,
  CashFlowLine,
  CashFlowQuery,
  GeneralLedger,
  GeneralLedgerLine,
  GeneralLedgerQuery,
  LockDate,
  VatReturn,
  VatReturnDocument,
  VatReturnQuery,
} from '../../../contract/finance/index.js';
import { AGEING_BUCKETS } from '../../../contract/finance/index.js';
import { addDays, today } from '../../platform/calendar.js';
import { type Ctx, inTransaction } from '../../platform/context.js';
import { ApiError, invalid } from '../../platform/errors.js';
import { exactSum } from '../../platform/money.js';
import { baseCurrency, businessSettings } from '../../platform/settings.js';
import type { Role } from '../../../contract/roles.js';
import { receivablesAsOf } from '../../general/index.js';
import { requireRange } from '../reports/service.js';
import { DEBIT_NORMAL } from '../accounts/service.js';
import { ACCOUNTS } from '../ledger/service.js';
import * as queries from './queries.js';

/**
 * The books (docs/decisions.md D276, D277): reports read from the per-day totals the database keeps
 * as entries are written (account days, cash-flow days), so their cost follows days and accounts, not
 * journal lines; ageing reads the documents. Amounts are minor units, exact (422 beyond 2^53).
 */

const int = (value: bigint) => exactSum(value, 'currency');

/** The first day of the financial year holding `date`, when years start in `month` (1-12). */
export function financialYearStart(date: string, month: number): string {
  const year = Number(date.slice(0, 4));
  const start = Number(date.slice(5, 7)) >= month ? year : year - 1;
  return `${String(start).padStart(4, '0')}-${String(month).padStart(2, '0')}-01`;
}

// Balance sheet -------------------------------------------------------------------------------

export async function balanceSheet(
  ctx: Ctx,
  query: BalanceSheetQuery,
): Promise<{ data: BalanceSheet; lines: BalanceSheetLine[] }> {
  const [settings, on] = await Promise.all([businessSettings(ctx), today(ctx)]);
  const asOf = query.as_of ?? on;
  // No currency asked: every currency, converted (docs/decisions.md D278).
  const currency = query.currency ?? settings.baseCurrency;
  const of = query.currency ?? null;
  const yearStart = financialYearStart(asOf, settings.financialYearStartMonth);
  const rows = await queries.balancesAsOf(ctx.db, ctx.businessId, of, asOf, yearStart);
  const lines: BalanceSheetLine[] = [];
  const totals = { asset: 0n, liability: 0n, equity: 0n };
  let earnings = 0n;
  let retained = 0n;
  for (const row of rows) {
    const netDebit = BigInt(row.net_debit);
    if (row.type === 'revenue' || row.type === 'expense') {
      // Profit is credit - debit: what the year earned so far, and what the years before it kept.
      earnings += -(netDebit - BigInt(row.before_year));
      retained += -BigInt(row.before_year);
      continue;
    }
    const balance = row.type === 'asset' ? netDebit : -netDebit;
    if (balance === 0n && netDebit === 0n) continue;
    totals[row.type] += balance;
    lines.push({ section: row.type, code: row.code, name: row.name, balance: int(balance) });
  }
  // Assets, then liabilities, then equity, each by code (2210 VAT receivable is an asset among liabilities' codes).
  const order = { asset: 0, liability: 1, equity: 2 };
  lines.sort((a, b) => order[a.section] - order[b.section]);
  lines.push(
    { section: 'equity', code: null, name: 'Current year earnings', balance: int(earnings) },
    { section: 'equity', code: null, name: 'Retained earnings', balance: int(retained) },
  );
  const totalEquity = totals.equity + earnings + retained;
  if (totals.asset !== totals.liability + totalEquity) {
    // The journal balances every entry at commit, so this cannot happen; if it does, say so loudly.
    throw new Error(`Balance sheet of ${ctx.businessId} on ${asOf} in ${currency} does not balance`);
  }
  return {
    data: {
      as_of: asOf,
      currency,
      financial_year_start: yearStart,
      total_assets: int(totals.asset),
      total_liabilities: int(totals.liability),
      current_year_earnings: int(earnings),
      retained_earnings: int(retained),
      total_equity: int(totalEquity),
      total_liabilities_and_equity: int(totals.liability + totalEquity),
    },
    lines,
  };
}

// Cash flow -----------------------------------------------------------------------------------

/** Within operating activities, who the cash came from or went to, by the counter account (D277). */
function operatingCategory(code: string, type: string): CashFlowCategory {
  if (code === ACCOUNTS.vatPayable || code === ACCOUNTS.vatReceivable) return 'tax';
  if (
    code === ACCOUNTS.receivable ||
    code === ACCOUNTS.customerCredit ||
    code === ACCOUNTS.providerClearing ||
    type === 'revenue'
  )
    return 'customers';
  if (code === ACCOUNTS.payable || type === 'expense') return 'suppliers';
  return 'other';
}

export async function cashFlow(
  ctx: Ctx,
  query: CashFlowQuery,
): Promise<{ data: CashFlow; lines: CashFlowLine[] }> {
  requireRange(query.start_date, query.end_date, { end: 'end_date' });
  const currency = query.currency ?? (await baseCurrency(ctx));
  const of = query.currency ?? null;
  const [opening, movements] = await Promise.all([
    queries.cashAsOf(ctx.db, ctx.businessId, of, addDays(query.start_date, -1)),
    queries.cashMovements(ctx.db, ctx.businessId, of, query.start_date, query.end_date),
  ]);
  const sums = { customers: 0n, suppliers: 0n, tax: 0n, other: 0n, investing: 0n, financing: 0n };
  const lines = movements.map((row): CashFlowLine => {
    const amount = BigInt(row.amount);
    const category =
      row.cash_flow_group === 'operating' ? operatingCategory(row.code, row.type) : row.cash_flow_group;
    sums[category] += amount;
    return { activity: row.cash_flow_group, category, code: row.code, name: row.name, amount: int(amount) };
  });
  const operating = sums.customers + sums.suppliers + sums.tax + sums.other;
  const net = operating + sums.investing + sums.financing;
  return {
    data: {
      start_date: query.start_date,
      end_date: query.end_date,
      currency,
      opening_cash: int(opening),
      operating: {
        customers: int(sums.customers),
        suppliers: int(sums.suppliers),
        tax: int(sums.tax),
        other: int(sums.other),
        total: int(operating),
      },
      investing: int(sums.investing),
      financing: int(sums.financing),
      net_change: int(net),
      closing_cash: int(opening + net),
    },
    lines,
  };
}

// Ageing --------------------------------------------------------------------------------------

type BucketRow = Record<(typeof AGEING_BUCKETS)[number] | 'total', string>;

function ageingTotals(rows: BucketRow[]): AgeingTotals {
  const sum = (field: keyof BucketRow) => int(rows.reduce((total, row) => total + BigInt(row[field]), 0n));
  return {
    current: sum('current'),
    days_1_30: sum('days_1_30'),
    days_31_60: sum('days_31_60'),
    days_61_90: sum('days_61_90'),
    days_over_90: sum('days_over_90'),
    total: sum('total'),
  };
}

const buckets = (row: BucketRow) => ({
  current: int(BigInt(row.current)),
  days_1_30: int(BigInt(row.days_1_30)),
  days_31_60: int(BigInt(row.days_31_60)),
  days_61_90: int(BigInt(row.days_61_90)),
  days_over_90: int(BigInt(row.days_over_90)),
  total: int(BigInt(row.total)),
});

async function ageingScope(ctx: Ctx, query: AgeingQuery) {
  const [settings, on] = await Promise.all([businessSettings(ctx), today(ctx)]);
  return {
    asOf: query.as_of ?? on,
    currency: query.currency ?? settings.baseCurrency,
    timeZone: settings.timezone,
  };
}

export async function agedReceivables(ctx: Ctx, query: AgeingQuery) {
  const { asOf, currency, timeZone } = await ageingScope(ctx, query);
  const rows = await receivablesAsOf(ctx, currency, asOf, timeZone);
  return {
    data: { as_of: asOf, currency, totals: ageingTotals(rows) },
    customers: rows.map((row): AgedReceivablesRow => ({
      customer_id: row.customer_id,
      customer_name: row.customer_name,
      invoices: row.invoices,
      ...buckets(row),
    })),
  };
}

export async function agedPayables(ctx: Ctx, query: AgeingQuery) {
  const { asOf, currency, timeZone } = await ageingScope(ctx, query);
  const rows = await queries.payablesAsOf(ctx.db, ctx.businessId, currency, asOf, timeZone);
  return {
    data: { as_of: asOf, currency, totals: ageingTotals(rows) },
    vendors: rows.map((row): AgedPayablesRow => ({
      vendor_id: row.vendor_id,
      vendor_name: row.vendor_name,
      bills: row.bills,
      ...buckets(row),
    })),
  };
}

// General ledger ------------------------------------------------------------------------------

export async function generalLedger(
  ctx: Ctx,
  query: GeneralLedgerQuery,
): Promise<{ data: GeneralLedger; lines: GeneralLedgerLine[]; total_count: number }> {
  requireRange(query.start_date, query.end_date, { end: 'end_date' });
  const currency = query.currency ?? (await baseCurrency(ctx));
  const account = await queries.findAccount(ctx.db, ctx.businessId, query.account);
  if (!account)
    throw invalid('account', `No account ${query.account} in the chart; GET /v1/finance/accounts lists them`);
  // The normal side: a debit raises an asset's or expense's balance, a credit the others'.
  const sign = DEBIT_NORMAL.has(account.type) ? 1n : -1n;
  const span = { from: query.start_date, to: query.end_date, limit: query.limit, offset: query.offset };
  const [totals, rows] = await Promise.all([
    queries.accountTotals(ctx.db, ctx.businessId, account.code, currency, query.start_date, query.end_date),
    queries.ledgerLines(ctx.db, ctx.businessId, account.code, currency, span),
  ]);
  const totalCount =
    rows[0] !== undefined
      ? Number(rows[0].total_count)
      : await queries.countLedgerLines(ctx.db, ctx.businessId, account.code, currency, span.from, span.to);
  const opening = sign * totals.before;
  return {
    data: {
      account: { code: account.code, name: account.name, type: account.type },
      start_date: query.start_date,
      end_date: query.end_date,
      currency,
      opening_balance: int(opening),
      total_debit: int(totals.debit),
      total_credit: int(totals.credit),
      closing_balance: int(opening + sign * (totals.debit - totals.credit)),
    },
    lines: rows.map((row) => ({
      entry_id: row.entry_id,
      date: row.date,
      description: row.description,
      source: { type: row.source_type, id: row.source_id },
      debit: int(BigInt(row.debit)),
      credit: int(BigInt(row.credit)),
      balance: int(opening + sign * BigInt(row.running)),
    })),
    total_count: totalCount,
  };
}

// VAT return ----------------------------------------------------------------------------------

export async function vatReturn(
  ctx: Ctx,
  query: VatReturnQuery,
): Promise<{ data: VatReturn; documents: VatReturnDocument[] }> {
  requireRange(query.start_date, query.end_date, { end: 'end_date' });
  const currency = query.currency ?? (await baseCurrency(ctx));
  const entries = await queries.taxEntries(
    ctx.db,
    ctx.businessId,
    currency,
    query.start_date,
    query.end_date,
  );
  const sums = { output: 0n, input: 0n, sales: 0n, purchases: 0n };
  const documents: VatReturnDocument[] = [];
  for (const entry of entries) {
    const base = {
      date: entry.date,
      entry_id: entry.id,
      source: { type: entry.source_type, id: entry.source_id },
      description: entry.description,
    };
    const [outputTax, sales] = [BigInt(entry.output_tax), BigInt(entry.sales)];
    const [inputTax, purchases] = [BigInt(entry.input_tax), BigInt(entry.purchases)];
    if (outputTax !== 0n || sales !== 0n) {
      sums.output += outputTax;
      sums.sales += sales;
      documents.push({ side: 'output', ...base, net: int(sales), tax: int(outputTax) });
    }
    if (inputTax !== 0n || purchases !== 0n) {
      sums.input += inputTax;
      sums.purchases += purchases;
      documents.push({ side: 'input', ...base, net: int(purchases), tax: int(inputTax) });
    }
  }
  return {
    data: {
      start_date: query.start_date,
      end_date: query.end_date,
      currency,
      output_tax: int(sums.output),
      input_tax: int(sums.input),
      net: int(sums.output - sums.input),
      sales_net: int(sums.sales),
      purchases_net: int(sums.purchases),
    },
    documents,
  };
}

// Lock date -----------------------------------------------------------------------------------

export async function getLockDate(ctx: Ctx): Promise<LockDate> {
  const row = await queries.findLockDate(ctx.db, ctx.businessId);
  return { lock_date: row?.lock_date ?? null, updated_at: row ? row.updated_at.toISOString() : null };
}

/**
 * Sets the lock date (docs/decisions.md D276): today or earlier; moving it earlier (or clearing it)
 * reopens a closed period, which only an owner may do. The journal refuses entries on or before it.
 */
export async function setLockDate(
  ctx: Ctx,
  role: Role | undefined,
  lockDate: string | null,
): Promise<LockDate> {
  const on = await today(ctx);
  if (lockDate !== null && lockDate > on) {
    throw invalid('lock_date', `Must be today (${on}) or earlier: a period is locked once it has ended`);
  }
  await inTransaction(ctx, async (ctx) => {
    const current = await queries.lockLockDate(ctx.db, ctx.businessId);
    const earlier = current !== undefined && (lockDate === null || lockDate < current.lock_date);
    if (earlier && role !== 'owner') {
      throw new ApiError(
        'FORBIDDEN',
        `Only an owner can move the lock date earlier than ${current.lock_date} or clear it: it reopens a closed period`,
        [{ field: 'lock_date', message: `On or after ${current.lock_date}, unless an owner sets it` }],
      );
    }
    if (lockDate === null) await queries.clearLockDate(ctx.db, ctx.businessId);
    else await queries.saveLockDate(ctx.db, ctx.businessId, lockDate, ctx.clock.now());
  });
  return getLockDate(ctx);
}
