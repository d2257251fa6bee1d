import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { unwrap, type Client, type sandbox as sb } from '../../client/index.js';
import { registerBusiness, sandboxOf, type TestBusiness } from '../support/business.js';
import { businessRows } from '../support/security.js';
import { useTestServer } from '../support/setup.js';

const server = useTestServer();

/** What the general group, HR and finance seed (loyalty and marketing add their own kinds). */
const FIXED_COUNTS = {
  customers: 24,
  products: 12,
  quotes: 10,
  recurring_invoices: 2,
  credit_notes: 1,
  departments: 4,
  employees: 10,
  leaves: 15,
  // Four fixed holidays in this year and the next.
  holidays: 8,
  vendors: 6,
  bills: 32,
  vat_thresholds: 1,
  bank_accounts: 1,
  // The euro, the pound and the yen to the sandbox's base currency (USD), on 20 days each.
  exchange_rates: 60,
};

/** The kinds this file's domains seed, whose counts depend on the demo's draws. */
const DRAWN = [
  'invoices',
  'payments',
  'bill_payments',
  'bank_transactions',
  'bank_transactions_reconciled',
] as const;

/** The counts of the general group, HR and finance in a reset's answer. */
const ownCounts = (seeded: Record<string, number>) =>
  Object.fromEntries([...Object.keys(FIXED_COUNTS), ...DRAWN].map((kind) => [kind, seeded[kind]]));

/**
 * A seeded reset, with the time it took and the CPU time of this process meanwhile (the service and,
 * on the embedded database, the database run in it): what it takes on an idle machine.
 */
const reset = async (client: Client): Promise<{ reset: sb.SandboxReset; ms: number; cpuMs: number }> => {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const { data } = await unwrap(client.sandbox.reset.resetSandbox({ body: { seed: true } }));
  const used = process.cpuUsage(cpu);
  return { reset: data, ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000 };
};

/** `YYYY-MM-DD` of `months` calendar months before `instant`. */
function monthsBefore(instant: string, months: number): string {
  const at = new Date(instant);
  at.setUTCMonth(at.getUTCMonth() - months);
  return at.toISOString().slice(0, 10);
}

/** Every item of a general-group list, page by page. */
async function everyPage<T>(
  list: (page: number) => Promise<{ data: T[]; pagination: { total_pages: number } }>,
): Promise<T[]> {
  const all: T[] = [];
  for (let page = 1; ; page++) {
    const { data, pagination } = await list(page);
    all.push(...data);
    if (page >= pagination.total_pages) return all;
  }
}

describe('POST /v1/sandbox/reset {"seed": true}', () => {
  let live: TestBusiness;
  let sandbox: TestBusiness;
  let first: sb.SandboxReset;
  let liveBefore: Awaited<ReturnType<typeof businessRows>>;

  beforeAll(async () => {
    live = await registerBusiness(server());
    sandbox = await sandboxOf(server(), live);
    liveBefore = await businessRows(server(), live.businessId);
    const seeded = await reset(sandbox.client);
    first = seeded.reset;
    console.log(
      `seeded reset: ${Math.round(seeded.ms)} ms (${Math.round(seeded.cpuMs)} ms of CPU in this process)`,
      JSON.stringify(first.seeded),
    );
  });

  it('seeds what the general group, HR and finance make, as their lists count it', async () => {
    expect(first.seeded).toMatchObject(FIXED_COUNTS);
    const c = sandbox.client;
    const general = c.general;
    const total = async (r: Promise<unknown>) =>
      ((await unwrap(r as never)) as { pagination: { total: number } }).pagination.total;
    expect(await total(general.customers.listCustomers({ query: { limit: 1 } }))).toBe(24);
    expect(await total(general.products.listProducts({ query: { limit: 1 } }))).toBe(12);
    expect(await total(general.quotes.listQuotes({ query: { limit: 1 } }))).toBe(10);
    expect(await total(general.invoices.listInvoices({ query: { limit: 1 } }))).toBe(first.seeded.invoices);
    expect(first.seeded.invoices).toBeGreaterThanOrEqual(150);
    expect(first.seeded.payments).toBeGreaterThan(first.seeded.invoices! / 2);
    const schedules = (await unwrap(general.recurringInvoices.listRecurringInvoices({ query: {} }))).data;
    expect(schedules.map((s) => [s.interval, s.status])).toEqual(
      expect.arrayContaining([
        ['month', 'active'],
        ['quarter', 'active'],
      ]),
    );
    // A tenth of a paid invoice refunded by bank transfer, against one credit note.
    const [creditNote] = (await unwrap(general.creditNotes.listCreditNotes({ query: {} }))).data;
    expect(creditNote).toMatchObject({ status: 'issued', credit_amount: 0, refund_method: 'bank_transfer' });
    expect(creditNote!.refund_amount).toBe(creditNote!.total);
    const refunded = await unwrap(general.invoices.getInvoice({ params: { id: creditNote!.invoice_id } }));
    expect(refunded.data).toMatchObject({ status: 'paid', amount_due: 0 });
    expect(creditNote!.total).toBeCloseTo(refunded.data.total / 10, 1);

    const hr = c.hr;
    expect((await unwrap(hr.departments.listDepartments({ query: {} }))).total_count).toBe(4);
    const { employees } = await unwrap(hr.employees.listEmployees({ query: { limit: 200 } }));
    expect(employees).toHaveLength(10);
    expect(await total(hr.employees.listGeneralEmployees({ query: { limit: 1 } }))).toBe(10);
    const { departments } = await unwrap(hr.departments.listDepartments({ query: {} }));
    expect(departments.every((d) => d.head !== null)).toBe(true);
    const { leaves } = await unwrap(hr.leaves.listLeaves({ query: { limit: 200 } }));
    expect(leaves).toHaveLength(15);
    expect(new Set(leaves.map((l) => l.status))).toEqual(
      new Set(['approved', 'pending', 'rejected', 'cancelled']),
    );
    // No two pending or approved leaves of one employee overlap.
    const held = leaves.filter((l) => l.status === 'pending' || l.status === 'approved');
    for (const a of held) {
      for (const b of held) {
        if (a.id === b.id || a.employee_id !== b.employee_id) continue;
        expect(a.end_date < b.start_date || b.end_date < a.start_date).toBe(true);
      }
    }

    // Annual leave is tracked, and every employee has a balance of it.
    const { leave_types: types } = await unwrap(hr.leaveTypes.listLeaveTypes({ query: {} }));
    expect(types.find((t) => t.name === 'annual')).toMatchObject({ tracked: true, days_per_year: 25 });
    const { balances } = await unwrap(
      hr.leaveTypes.getLeaveBalances({ params: { id: employees[0]!.id }, query: {} }),
    );
    expect(balances.map((b) => b.type).sort()).toEqual(['annual', 'sick']);
    expect((await unwrap(hr.holidays.listHolidays({ query: {} }))).total_count).toBe(8);

    const finance = c.finance;
    expect((await unwrap(finance.vendors.listVendors({ query: {} }))).total_count).toBe(6);
    const { bills } = await unwrap(finance.bills.listBills({ query: { limit: 200 } }));
    expect(bills).toHaveLength(32);
    const statuses = bills.map((b) => b.status);
    expect(statuses.filter((s) => s === 'void')).toHaveLength(1);
    expect(statuses.filter((s) => s === 'overdue').length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s === 'pending').length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s === 'paid').length).toBeGreaterThan(20);
  });

  it('issues invoices in every one of the 18 months, paid, partly paid, open, overdue and void', async () => {
    const invoices = await everyPage((page) =>
      unwrap(sandbox.client.general.invoices.listInvoices({ query: { page, limit: 100 } })),
    );
    expect(invoices).toHaveLength(first.seeded.invoices!);
    const dates = invoices.map((i) => i.issue_date!);
    for (let month = 0; month < 18; month++) {
      const from = monthsBefore(first.clock, month + 1);
      const to = monthsBefore(first.clock, month);
      expect(
        dates.some((d) => d >= from && d <= to),
        `an invoice issued from ${from} to ${to}`,
      ).toBe(true);
    }
    const byStatus = (status: string) => invoices.filter((i) => i.status === status);
    expect(byStatus('paid').length).toBeGreaterThan(invoices.length / 2);
    expect(byStatus('overdue').length).toBeGreaterThan(0);
    expect(byStatus('unpaid').length).toBeGreaterThan(0);
    expect(byStatus('void')).toHaveLength(2);
    expect(byStatus('draft')).toHaveLength(0);
    const partly = invoices.filter((i) => i.amount_paid > 0 && i.amount_due > 0);
    expect(partly.length).toBeGreaterThan(0);
    const payments = invoices.reduce((n, i) => n + i.payments.length, 0);
    expect(payments).toBe(first.seeded.payments);
    // Every payment is dated after its invoice and not in the future.
    for (const invoice of invoices) {
      for (const payment of invoice.payments) {
        expect(payment.payment_date >= invoice.issue_date!).toBe(true);
        expect(payment.payment_date <= first.clock.slice(0, 10)).toBe(true);
      }
    }
    const overdue = await unwrap(
      sandbox.client.general.invoices.listInvoices({ query: { status: 'overdue', limit: 100 } }),
    );
    expect(overdue.pagination.total).toBe(byStatus('overdue').length);

    const quotes = (await unwrap(sandbox.client.general.quotes.listQuotes({ query: { limit: 100 } }))).data;
    expect(new Set(quotes.map((q) => q.status))).toEqual(
      new Set(['draft', 'sent', 'accepted', 'declined', 'converted', 'expired']),
    );
    const converted = quotes.find((q) => q.status === 'converted')!;
    expect(invoices.find((i) => i.id === converted.invoice_id)?.status).toBe('paid');
  });

  it('balances the books, and every finance report answers with data', async () => {
    const finance = sandbox.client.finance;
    const today = first.clock.slice(0, 10);
    const start = monthsBefore(first.clock, 18);

    const { data: trial } = await unwrap(finance.accounts.getTrialBalance({ query: {} }));
    expect(trial.total_debit).toBeGreaterThan(0);
    expect(trial.total_credit).toBe(trial.total_debit);
    const debits = trial.accounts.reduce((sum, a) => sum + a.debit, 0);
    const credits = trial.accounts.reduce((sum, a) => sum + a.credit, 0);
    expect(debits).toBe(credits);
    for (const code of ['1010', '1200', '2000', '2200', '4000', '5000']) {
      expect(trial.accounts.find((a) => a.code === code)?.debit, `movement on ${code}`).toBeGreaterThan(0);
    }

    const { data: pnl } = await unwrap(
      finance.reports.getProfitLoss({ query: { start_date: start, end_date: today } }),
    );
    expect(pnl.revenue.total).toBeGreaterThan(0);
    expect(pnl.expenses.total).toBeGreaterThan(0);
    expect(pnl.revenue.accounts.length).toBeGreaterThan(0);
    expect(pnl.net_profit).toBeCloseTo(pnl.revenue.total - pnl.expenses.total, 2);

    const periods = { month: 18, quarter: 6, year: 2 };
    for (const groupBy of ['month', 'quarter', 'year'] as const) {
      const { data } = await unwrap(
        finance.reports.getSalesSchedule({ query: { startDate: start, endDate: today, groupBy } }),
      );
      expect(data.items.length, groupBy).toBeGreaterThan(0);
      expect(data.periods.length, groupBy).toBeGreaterThanOrEqual(periods[groupBy]);
      expect(data.summary.totalRevenue, groupBy).toBeGreaterThan(0);
      // Every invoice but the two voided is in the schedule.
      expect(data.summary.totalInvoices, groupBy).toBe(first.seeded.invoices! - 2);
      expect(data.vatThreshold.configured).toBe(true);
    }

    const { data: vat } = await unwrap(finance.vat.getVatThreshold());
    expect(vat).not.toBeNull();
    expect(vat!.currentRevenue).toBeGreaterThan(0);
    expect(vat!.percentageReached).toBeGreaterThan(40);
    expect(vat!.percentageReached).toBeLessThan(vat!.alertAtPercentage);

    const { data: revenue } = await unwrap(finance.reports.getRevenueCalculator({ query: {} }));
    expect(revenue.rolling12MonthRevenue).toBe(vat!.currentRevenue);
    expect(revenue.ytdRevenue).toBeGreaterThan(0);
    expect(revenue.vatThreshold?.configured).toBe(true);

    const journal = await unwrap(finance.journal.listJournal({ query: { limit: 200 } }));
    expect(journal.entries.length).toBeGreaterThan(0);
    expect(journal.total_count).toBeGreaterThan(first.seeded.invoices! + first.seeded.bills!);
    for (const entry of journal.entries) {
      const sum = (lines: { amount: number }[]) => lines.reduce((s, l) => s + l.amount, 0);
      expect(sum(entry.debits)).toBe(sum(entry.credits));
    }
  });

  it('keeps a bank account whose statement is half reconciled, each waiting line with a suggestion', async () => {
    const finance = sandbox.client.finance;
    const { bank_accounts: accounts } = await unwrap(finance.bankAccounts.listBankAccounts({ query: {} }));
    expect(accounts).toHaveLength(1);
    const account = accounts[0]!;
    const { bank_transactions: lines, total_count: total } = await unwrap(
      finance.bankTransactions.listBankTransactions({ query: { bank_account_id: account.id, limit: 200 } }),
    );
    expect(total).toBe(first.seeded.bank_transactions);
    expect(total).toBeGreaterThan(4);
    const matched = lines.filter((l) => l.status === 'matched');
    expect(matched).toHaveLength(first.seeded.bank_transactions_reconciled!);
    expect(matched.length).toBe(Math.floor(total / 2));
    // The older half is reconciled, the newer half waits.
    const waiting = lines.filter((l) => l.status === 'unmatched');
    expect(waiting.length).toBe(total - matched.length);
    expect(matched.at(-1)!.date <= waiting[0]!.date).toBe(true);
    for (const line of waiting) {
      const { suggestions } = await unwrap(
        finance.bankTransactions.getBankTransactionSuggestions({ params: { id: line.id } }),
      );
      expect(suggestions.length, line.description).toBeGreaterThan(0);
    }
    const { reconciliation } = await unwrap(
      finance.bankAccounts.getReconciliation({ params: { id: account.id }, query: {} }),
    );
    expect(reconciliation.difference).toBe(reconciliation.statement_balance - reconciliation.ledger_balance);
    expect(reconciliation.items.reduce((sum, item) => sum + item.difference, 0)).toBe(
      reconciliation.difference,
    );
    expect(reconciliation.items.filter((i) => i.kind === 'unmatched_line')).toHaveLength(waiting.length);
  });

  it('keeps demo exchange rates at every month-end of the demo and today, so its first day converts', async () => {
    const rates = sandbox.client.finance.exchangeRates;
    const today = first.clock.slice(0, 10);
    const { exchange_rates: list, total_count } = await unwrap(
      rates.listExchangeRates({ query: { limit: 200 } }),
    );
    expect(total_count).toBe(first.seeded.exchange_rates);
    expect(new Set(list.map((r) => r.source))).toEqual(new Set(['demo']));
    expect(new Set(list.map((r) => r.currency))).toEqual(new Set(['EUR', 'GBP', 'JPY']));
    const days = [...new Set(list.map((r) => r.date))].sort();
    expect(days).toHaveLength(20);
    expect(days.at(-1)).toBe(today);
    for (const day of days.slice(0, -1)) {
      const next = new Date(`${day}T00:00:00Z`);
      next.setUTCDate(next.getUTCDate() + 1);
      expect(next.getUTCDate(), day).toBe(1);
    }
    const start = monthsBefore(first.clock, 18);
    expect(days[0]! < start).toBe(true);
    const { exchange_rate: onStart } = await unwrap(
      rates.lookupExchangeRate({ query: { currency: 'JPY', date: start } }),
    );
    expect(onStart).toMatchObject({ currency: 'JPY', base_currency: 'USD', source: 'demo' });
    expect(Number(onStart.rate)).toBeCloseTo(1.1 / 160, 3);
    const { exchange_rate: now } = await unwrap(rates.lookupExchangeRate({ query: { currency: 'EUR' } }));
    expect(now).toMatchObject({ rate_date: today, source: 'demo' });
  });

  it('keeps no event of the demo (no webhook) and sends no VAT alert', async () => {
    const { rows } = await sql<{ n: string }>`
      SELECT count(*) AS n FROM events WHERE business_id = ${sandbox.businessId}`.execute(server().deps.db);
    expect(Number(rows[0]?.n)).toBe(0);
    const messages = await unwrap(sandbox.client.sandbox.messages.listMessages({ query: { limit: 200 } }));
    expect(messages.messages.filter((m) => /VAT/.test(m.subject))).toEqual([]);
  });

  it('seeds the same again on a second reset, and leaves the live business as it was', async () => {
    const again = await reset(sandbox.client);
    expect(ownCounts(again.reset.seeded)).toEqual(ownCounts(first.seeded));
    expect(again.reset.deleted_rows).toBeGreaterThan(0);
    expect(await businessRows(server(), live.businessId)).toEqual(liveBefore);
  });
});
