import type { Insertable, Selectable } from 'kysely';
import type { Executor, Trx } from '../../platform/db/database.js';
import { pageWithTotal } from '../../platform/db/paged.js';
import type { FinanceExchangeRatesTable } from '../../platform/db/types.js';

export type ExchangeRateRow = Selectable<FinanceExchangeRatesTable>;

/** The business's own rate of `currency` on `date` or the latest before it. */
export const latestOwnRate = (db: Executor, businessId: string, currency: string, date: string) =>
  db
    .selectFrom('finance_exchange_rates')
    .select(['date', 'rate', 'source'])
    .where('business_id', '=', businessId)
    .where('currency', '=', currency)
    .where('date', '<=', date)
    .orderBy('date', 'desc')
    .limit(1)
    .executeTakeFirst();

/** The latest reference rate (per euro) of `currency` on or before `date`. */
export const latestReferenceRate = (db: Executor, currency: string, date: string) =>
  db
    .selectFrom('finance_reference_rates')
    .select(['date', 'per_euro'])
    .where('currency', '=', currency)
    .where('date', '<=', date)
    .orderBy('date', 'desc')
    .limit(1)
    .executeTakeFirst();

/** The latest day on or before `date` quoting both currencies per euro, and both quotes. */
export const latestReferencePair = (db: Executor, currency: string, base: string, date: string) =>
  db
    .selectFrom('finance_reference_rates as c')
    .innerJoin('finance_reference_rates as b', (join) =>
      join.onRef('b.date', '=', 'c.date').on('b.currency', '=', base),
    )
    .select(['c.date', 'c.per_euro as currency_per_euro', 'b.per_euro as base_per_euro'])
    .where('c.currency', '=', currency)
    .where('c.date', '<=', date)
    .orderBy('c.date', 'desc')
    .limit(1)
    .executeTakeFirst();

/** The business's rates of `currencies` from `from` to `to` (both included): which days are set. */
export const rateDays = (
  db: Executor,
  businessId: string,
  currencies: readonly string[],
  from: string,
  to: string,
) =>
  db
    .selectFrom('finance_exchange_rates')
    .select(['currency', 'date'])
    .where('business_id', '=', businessId)
    .where('currency', 'in', currencies)
    .where('date', '>=', from)
    .where('date', '<=', to)
    .execute();

export interface RateFilter {
  currency?: string | undefined;
  start_date?: string | undefined;
  end_date?: string | undefined;
}

export function listRates(
  db: Executor,
  businessId: string,
  filter: RateFilter,
  page: { limit: number; offset: number },
) {
  let base = db.selectFrom('finance_exchange_rates').selectAll().where('business_id', '=', businessId);
  if (filter.currency) base = base.where('currency', '=', filter.currency);
  if (filter.start_date) base = base.where('date', '>=', filter.start_date);
  if (filter.end_date) base = base.where('date', '<=', filter.end_date);
  return pageWithTotal(base, (q) => q.orderBy('date', 'desc').orderBy('currency'), page);
}

/** Sets the rates given (one per currency and day), replacing a rate already set on the day. */
export async function upsertRates(trx: Trx, rows: Insertable<FinanceExchangeRatesTable>[]) {
  if (rows.length === 0) return [];
  return trx
    .insertInto('finance_exchange_rates')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['business_id', 'currency', 'date']).doUpdateSet((eb) => ({
        rate: eb.ref('excluded.rate'),
        source: eb.ref('excluded.source'),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .returningAll()
    .execute();
}

/** Keeps the reference rates of the feed; a day fetched again is replaced. */
export async function upsertReferenceRates(
  trx: Trx,
  rows: { currency: string; date: string; per_euro: string; fetched_at: Date }[],
): Promise<void> {
  if (rows.length === 0) return;
  await trx
    .insertInto('finance_reference_rates')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['currency', 'date']).doUpdateSet((eb) => ({
        per_euro: eb.ref('excluded.per_euro'),
        fetched_at: eb.ref('excluded.fetched_at'),
      })),
    )
    .execute();
}
