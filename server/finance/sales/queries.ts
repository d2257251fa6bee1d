import { sql } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import type { GroupBy } from '../reports/periods.js';

/**
 * Adds to (or, with negative deltas, takes from) the net revenue of a day, in its currency and in the
 * base currency, and its invoice count.
 */
export async function addToSalesDay(
  db: Executor,
  day: { businessId: string; currency: string; date: string; slot: number },
  amounts: { revenue: number; baseRevenue: number; invoices: number },
): Promise<void> {
  await sql`
    INSERT INTO finance_sales_days AS d (business_id, currency, date, slot, revenue, base_revenue, invoices)
    VALUES (${day.businessId}, ${day.currency}, ${day.date}, ${day.slot}, ${amounts.revenue},
            ${amounts.baseRevenue}, ${amounts.invoices})
    ON CONFLICT (business_id, currency, date, slot)
    DO UPDATE SET revenue = d.revenue + EXCLUDED.revenue, base_revenue = d.base_revenue + EXCLUDED.base_revenue,
                  invoices = d.invoices + EXCLUDED.invoices
  `.execute(db);
}

/**
 * What the sums read: one currency's days in their own amounts, or (null) every currency's in the
 * base currency (docs/decisions.md D278).
 */
const revenueOf = (currency: string | null) => (currency === null ? sql`base_revenue` : sql`revenue`);
const currencyIs = (currency: string | null) => (currency === null ? sql`` : sql`AND currency = ${currency}`);

/**
 * Net revenue (as exact decimal text) and invoice count of the business over a range: in a currency,
 * or (null) every currency in the base currency.
 */
export async function salesBetween(
  db: Executor,
  businessId: string,
  currency: string | null,
  from: string,
  to: string,
): Promise<{ revenue: bigint; invoices: number }> {
  const { rows } = await sql<{ revenue: string; invoices: string | number }>`
    SELECT coalesce(sum(${revenueOf(currency)}), 0)::text AS revenue, coalesce(sum(invoices), 0) AS invoices
    FROM finance_sales_days
    WHERE business_id = ${businessId} ${currencyIs(currency)} AND date BETWEEN ${from} AND ${to}
  `.execute(db);
  const row = rows[0];
  return { revenue: BigInt(row?.revenue ?? '0'), invoices: Number(row?.invoices ?? 0) };
}

/**
 * Net revenue and invoice count per period (its first day) over a range: in a currency, or (null)
 * every currency in the base currency.
 */
export async function salesByPeriod(
  db: Executor,
  businessId: string,
  currency: string | null,
  from: string,
  to: string,
  groupBy: GroupBy,
) {
  const unit = sql.lit(groupBy);
  const { rows } = await sql<{ start: string; revenue: string; invoices: string | number }>`
    SELECT to_char(date_trunc(${unit}, date::timestamp), 'YYYY-MM-DD') AS start,
           sum(${revenueOf(currency)})::text AS revenue, sum(invoices) AS invoices
    FROM finance_sales_days
    WHERE business_id = ${businessId} ${currencyIs(currency)} AND date BETWEEN ${from} AND ${to}
    GROUP BY 1
  `.execute(db);
  return rows.map((r) => ({ start: r.start, revenue: BigInt(r.revenue), invoices: Number(r.invoices) }));
}
