import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import type { FinanceVatThresholdsTable } from '../../platform/db/types.js';

/** The first days of the windows a configuration may use, all ending `on`; `rolling` is the earliest. */
export interface WindowStarts {
  rolling: string;
  year: string;
  quarter: string;
  /** The 90 days the projection averages. */
  recent: string;
  on: string;
}

/** Net revenue (exact decimal text) over each window, in the currency `findThreshold` was asked for. */
export interface WindowSales {
  sales_annual: string;
  sales_quarterly: string;
  sales_rolling: string;
  sales_recent: string;
}

export type ThresholdRow = Selectable<FinanceVatThresholdsTable> & WindowSales;

/**
 * The business's configuration with its revenue over every window ending `on`, in one statement
 * (one pass over the rolling year of daily totals): `base`, every currency's sales in the base
 * currency (docs/decisions.md D278); `own`, the sales in the configuration's currency alone, in
 * their own amounts. `forUpdate` locks the configuration row.
 */
export async function findThreshold(
  db: Executor,
  businessId: string,
  starts: WindowStarts,
  sales: 'base' | 'own',
  forUpdate = false,
): Promise<ThresholdRow | undefined> {
  const amount = sales === 'base' ? sql`d.base_revenue` : sql`d.revenue`;
  const since = (from: string) => sql`coalesce(sum(${amount}) FILTER (WHERE d.date >= ${from}), 0)::text`;
  const { rows } = await sql<ThresholdRow>`
    SELECT t.*, s.*
    FROM finance_vat_thresholds t
    CROSS JOIN LATERAL (
      SELECT ${since(starts.year)} AS sales_annual, ${since(starts.quarter)} AS sales_quarterly,
             ${since(starts.rolling)} AS sales_rolling, ${since(starts.recent)} AS sales_recent
      FROM finance_sales_days d
      WHERE d.business_id = t.business_id ${sales === 'own' ? sql`AND d.currency = t.currency` : sql``}
        AND d.date BETWEEN ${starts.rolling} AND ${starts.on}
    ) s
    WHERE t.business_id = ${businessId}
    ${forUpdate ? sql`FOR UPDATE OF t` : sql``}
  `.execute(db);
  return rows[0];
}

export async function insertThreshold(db: Executor, values: Insertable<FinanceVatThresholdsTable>) {
  await db.insertInto('finance_vat_thresholds').values(values).execute();
}

export async function updateThreshold(
  db: Executor,
  businessId: string,
  changes: Updateable<FinanceVatThresholdsTable>,
) {
  return db
    .updateTable('finance_vat_thresholds')
    .set(changes)
    .where('business_id', '=', businessId)
    .execute();
}

/** Businesses with a configuration not yet registered, after `after`, in id order. */
/** Whether the business has a configuration not registered (its alerts may still come due). */
export async function hasUnregistered(db: Executor, businessId: string): Promise<boolean> {
  const row = await db
    .selectFrom('finance_vat_thresholds')
    .select('business_id')
    .where('business_id', '=', businessId)
    .where('registered', '=', false)
    .executeTakeFirst();
  return row !== undefined;
}

export async function unregisteredBusinesses(db: Executor, limit: number, after?: string): Promise<string[]> {
  let q = db
    .selectFrom('finance_vat_thresholds')
    .select('business_id')
    .where('registered', '=', false)
    .orderBy('business_id')
    .limit(limit);
  if (after !== undefined) q = q.where('business_id', '>', after);
  return (await q.execute()).map((r) => r.business_id);
}
