import { sql } from 'kysely';
import type { AccountType, SourceType } from '../../../contract/finance/index.js';
import { ageingColumns, ageingSums } from '../../platform/db/ageing.js';
import type { Executor } from '../../platform/db/database.js';

/**
 * Which money a report reads (docs/decisions.md D278): one currency's own amounts (`currency`), or,
 * for null, every currency's amounts in the base currency.
 */
const ofCurrency = (currency: string | null) => (currency === null ? sql`TRUE` : sql`currency = ${currency}`);
const debitIn = (currency: string | null) => sql.ref(currency === null ? 'base_debit' : 'debit');
const creditIn = (currency: string | null) => sql.ref(currency === null ? 'base_credit' : 'credit');

/**
 * The per-account totals to the end of `asOf` (in `currency`, or every currency in the base for
 * null): the whole months before its month from the per-month totals, the days of its month from the
 * per-day ones (both kept by the database at commit).
 */
const totalsTo = (businessId: string, currency: string | null, asOf: string) => sql`
  SELECT account_code, month AS day, ${debitIn(currency)} AS debit, ${creditIn(currency)} AS credit
    FROM finance_account_months
   WHERE business_id = ${businessId} AND ${ofCurrency(currency)}
     AND month < date_trunc('month', ${asOf}::date)::date
  UNION ALL
  SELECT account_code, date, ${debitIn(currency)}, ${creditIn(currency)} FROM finance_account_days
   WHERE business_id = ${businessId} AND ${ofCurrency(currency)}
     AND date >= date_trunc('month', ${asOf}::date)::date AND date <= ${asOf}`;

/**
 * Every account's net debit (debit - credit) in `currency` at the end of `asOf`, and the part of it
 * dated before `yearStart` (the first day of a month, so whole months).
 */
export async function balancesAsOf(
  db: Executor,
  businessId: string,
  currency: string | null,
  asOf: string,
  yearStart: string,
) {
  const { rows } = await sql<{
    code: string;
    name: string;
    type: AccountType;
    net_debit: string;
    before_year: string;
  }>`
    SELECT a.code, a.name, a.type,
           coalesce(d.net_debit, 0)::text AS net_debit, coalesce(d.before_year, 0)::text AS before_year
      FROM finance_accounts a
      LEFT JOIN (
        SELECT account_code, sum(debit - credit) AS net_debit,
               sum(debit - credit) FILTER (WHERE day < ${yearStart}) AS before_year
          FROM (${totalsTo(businessId, currency, asOf)}) t
         GROUP BY account_code
      ) d ON d.account_code = a.code
     WHERE a.business_id = ${businessId}
     ORDER BY a.code`.execute(db);
  return rows;
}

/** The cash accounts' (1000, 1010, 1020, 1100-1199) net debit in `currency` up to and including `to`. */
export async function cashAsOf(
  db: Executor,
  businessId: string,
  currency: string | null,
  to: string,
): Promise<bigint> {
  const { rows } = await sql<{ cash: string | null }>`
    SELECT sum(debit - credit)::text AS cash
      FROM (${totalsTo(businessId, currency, to)}) t
     WHERE finance_is_cash(account_code)`.execute(db);
  return BigInt(rows[0]?.cash ?? 0);
}

/** Cash in (positive) or out against each counter account over the range, with the account's group. */
export async function cashMovements(
  db: Executor,
  businessId: string,
  currency: string | null,
  from: string,
  to: string,
) {
  const { rows } = await sql<{
    code: string;
    name: string;
    type: AccountType;
    cash_flow_group: 'operating' | 'investing' | 'financing';
    amount: string;
  }>`
    SELECT a.code, a.name, a.type, a.cash_flow_group, f.amount::text AS amount
      FROM (
        SELECT account_code, sum(${sql.ref(currency === null ? 'base_amount' : 'amount')}) AS amount
          FROM finance_cash_flow_days
         WHERE business_id = ${businessId} AND ${ofCurrency(currency)} AND date BETWEEN ${from} AND ${to}
         GROUP BY account_code
      ) f
      JOIN finance_accounts a ON a.business_id = ${businessId} AND a.code = f.account_code
     WHERE f.amount <> 0
     ORDER BY a.code`.execute(db);
  return rows;
}

/** One account of the chart, or undefined. */
export async function findAccount(db: Executor, businessId: string, code: string) {
  return db
    .selectFrom('finance_accounts')
    .select(['code', 'name', 'type'])
    .where('business_id', '=', businessId)
    .where('code', '=', code)
    .executeTakeFirst();
}

/** An account's debits and credits in `currency` before `from`, and from `from` to `to`, from the per-day totals. */
export async function accountTotals(
  db: Executor,
  businessId: string,
  code: string,
  currency: string,
  from: string,
  to: string,
) {
  const { rows } = await sql<{ before: string | null; debit: string | null; credit: string | null }>`
    SELECT sum(debit - credit) FILTER (WHERE date < ${from})::text AS before,
           sum(debit) FILTER (WHERE date >= ${from})::text AS debit,
           sum(credit) FILTER (WHERE date >= ${from})::text AS credit
      FROM finance_account_days
     WHERE business_id = ${businessId} AND currency = ${currency} AND account_code = ${code} AND date <= ${to}`.execute(
    db,
  );
  const row = rows[0];
  return {
    before: BigInt(row?.before ?? 0),
    debit: BigInt(row?.debit ?? 0),
    credit: BigInt(row?.credit ?? 0),
  };
}

/**
 * A page of an account's lines over the range in date order (then entry, then line), each with the
 * running sum of its debits less credits from the start of the range, and how many lines the range holds.
 */
export async function ledgerLines(
  db: Executor,
  businessId: string,
  code: string,
  currency: string,
  span: { from: string; to: string; limit: number; offset: number },
) {
  const { rows } = await sql<{
    entry_id: string;
    date: string;
    description: string;
    source_type: SourceType;
    source_id: string;
    debit: string;
    credit: string;
    running: string;
    total_count: string;
  }>`
    SELECT l.entry_id, l.date::text AS date, e.description, e.source_type, e.source_id,
           l.debit::text AS debit, l.credit::text AS credit, l.running::text AS running,
           l.total_count::text AS total_count
      FROM (
        SELECT entry_id, line_no, date, debit, credit,
               sum(debit - credit) OVER (ORDER BY date, entry_id, line_no) AS running,
               count(*) OVER () AS total_count
          FROM finance_journal_lines
         WHERE business_id = ${businessId} AND account_code = ${code} AND currency = ${currency}
           AND date BETWEEN ${span.from} AND ${span.to}
         ORDER BY date, entry_id, line_no
         LIMIT ${span.limit} OFFSET ${span.offset}
      ) l
      JOIN finance_journal_entries e ON e.business_id = ${businessId} AND e.id = l.entry_id
     ORDER BY l.date, l.entry_id, l.line_no`.execute(db);
  return rows;
}

/** How many of an account's lines fall in the range (for a page past the last line). */
export async function countLedgerLines(
  db: Executor,
  businessId: string,
  code: string,
  currency: string,
  from: string,
  to: string,
): Promise<number> {
  const row = await db
    .selectFrom('finance_journal_lines')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('business_id', '=', businessId)
    .where('account_code', '=', code)
    .where('currency', '=', currency)
    .where('date', '>=', from)
    .where('date', '<=', to)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * The entries of documents (invoices, credit notes, bills and their voids) posted over the range, each
 * with its output tax (2200, credit - debit), input tax (2210, debit - credit), sales (revenue accounts,
 * credit - debit) and purchases (expense accounts, debit - credit); entries moving none of them are left out.
 */
export async function taxEntries(
  db: Executor,
  businessId: string,
  currency: string,
  from: string,
  to: string,
) {
  const { rows } = await sql<{
    id: string;
    date: string;
    description: string;
    source_type: SourceType;
    source_id: string;
    output_tax: string;
    input_tax: string;
    sales: string;
    purchases: string;
  }>`
    SELECT e.id, e.date::text AS date, e.description, e.source_type, e.source_id,
           coalesce(sum(l.credit - l.debit) FILTER (WHERE l.account_code = '2200'), 0)::text AS output_tax,
           coalesce(sum(l.debit - l.credit) FILTER (WHERE l.account_code = '2210'), 0)::text AS input_tax,
           coalesce(sum(l.credit - l.debit) FILTER (WHERE a.type = 'revenue'), 0)::text AS sales,
           coalesce(sum(l.debit - l.credit) FILTER (WHERE a.type = 'expense'), 0)::text AS purchases
      FROM finance_journal_entries e
      JOIN finance_journal_lines l ON l.business_id = e.business_id AND l.entry_id = e.id
      JOIN finance_accounts a ON a.business_id = l.business_id AND a.code = l.account_code
     WHERE e.business_id = ${businessId} AND e.currency = ${currency} AND e.date BETWEEN ${from} AND ${to}
       AND e.source_type IN ('invoice', 'credit_note', 'bill', 'void')
     GROUP BY e.id, e.date, e.description, e.source_type, e.source_id
    HAVING bool_or(l.account_code IN ('2200', '2210') OR a.type IN ('revenue', 'expense'))
     ORDER BY e.date, e.id`.execute(db);
  return rows;
}

/** Vendors' payables on a day, in buckets of days past due (minor units, as text). */
export interface PayablesRow {
  vendor_id: string;
  vendor_name: string;
  bills: number;
  current: string;
  days_1_30: string;
  days_31_60: string;
  days_61_90: string;
  days_over_90: string;
  total: string;
}

/**
 * What the business owed each vendor at the end of `asOf` in `currency`, by days past due
 * (docs/decisions.md D277): bills posted by then (pending or later, by issue date) and not voided by
 * then. What a bill owed then is what it owes now plus its payments dated later, found by their date,
 * so as of today nothing is added; the sums go by vendor before the names are joined.
 */
export async function payablesAsOf(
  db: Executor,
  businessId: string,
  currency: string,
  asOf: string,
  timeZone: string,
): Promise<PayablesRow[]> {
  const { rows } = await sql<PayablesRow>`
    WITH adjust AS (
      SELECT bill_id AS id, sum(amount)::bigint AS amount
        FROM finance_bill_payments WHERE business_id = ${businessId} AND payment_date > ${asOf}
       GROUP BY bill_id
    ),
    open_bills AS (
      SELECT b.vendor_id, b.due_date, b.amount - b.amount_paid + coalesce(a.amount, 0) AS open
        FROM finance_bills b LEFT JOIN adjust a ON a.id = b.id
       WHERE b.business_id = ${businessId} AND b.status = 'pending' AND b.deleted_at IS NULL
         AND b.currency = ${currency} AND b.issue_date <= ${asOf}
      UNION ALL
      SELECT b.vendor_id, b.due_date, b.amount - b.amount_paid + a.amount
        FROM adjust a JOIN finance_bills b ON b.business_id = ${businessId} AND b.id = a.id
       WHERE b.status = 'paid' AND b.deleted_at IS NULL AND b.currency = ${currency} AND b.issue_date <= ${asOf}
      UNION ALL
      SELECT b.vendor_id, b.due_date, b.amount - b.amount_paid + coalesce(a.amount, 0)
        FROM finance_bills b LEFT JOIN adjust a ON a.id = b.id
       WHERE b.business_id = ${businessId} AND b.status = 'void' AND b.voided_at IS NOT NULL
         AND (b.voided_at AT TIME ZONE ${timeZone})::date > ${asOf}
         AND b.deleted_at IS NULL AND b.currency = ${currency} AND b.issue_date <= ${asOf}
    ),
    by_vendor AS (
      SELECT vendor_id, count(*)::int AS bills, ${ageingSums}
        FROM (SELECT vendor_id, open, ${asOf}::date - due_date AS late FROM open_bills WHERE open > 0) aged
       GROUP BY vendor_id
    )
    SELECT b.vendor_id, v.name AS vendor_name, b.bills,
           ${ageingColumns}
      FROM by_vendor b
      JOIN finance_vendors v ON v.business_id = ${businessId} AND v.id = b.vendor_id
     ORDER BY b.total DESC, v.name, b.vendor_id`.execute(db);
  return rows;
}

/** The business's lock date, or undefined when none is set. */
export async function findLockDate(db: Executor, businessId: string) {
  return db
    .selectFrom('finance_lock_dates')
    .select(['lock_date', 'updated_at'])
    .where('business_id', '=', businessId)
    .executeTakeFirst();
}

/** The business's lock date row, locked for a change. */
export async function lockLockDate(db: Executor, businessId: string) {
  return db
    .selectFrom('finance_lock_dates')
    .select(['lock_date'])
    .where('business_id', '=', businessId)
    .forUpdate()
    .executeTakeFirst();
}

export async function saveLockDate(
  db: Executor,
  businessId: string,
  lockDate: string,
  now: Date,
): Promise<void> {
  await db
    .insertInto('finance_lock_dates')
    .values({ business_id: businessId, lock_date: lockDate, updated_at: now })
    .onConflict((oc) => oc.column('business_id').doUpdateSet({ lock_date: lockDate, updated_at: now }))
    .execute();
}

export async function clearLockDate(db: Executor, businessId: string): Promise<void> {
  await db.deleteFrom('finance_lock_dates').where('business_id', '=', businessId).execute();
}
