import {
  CreateExchangeRateBodySchema,
  type AppliedRate,
  type CreateExchangeRateBody,
  type ExchangeRate,
} from '../../../contract/finance/index.js';
import { crossRate, normaliseRate } from '../../../contract/common/exchange.js';
import { CurrencySchema, DateSchema } from '../../../contract/common/schemas.js';
import { inTransaction, type Ctx, type TxCtx } from '../../platform/context.js';
import { invalid, notFound } from '../../platform/errors.js';
import { today } from '../../platform/calendar.js';
import type { ImportTarget } from '../../platform/import-target.js';
import { baseCurrency } from '../../platform/settings.js';
import * as queries from './queries.js';

/*
 * Exchange rates (docs/decisions.md D278): how many units of the base currency one unit of another
 * buys on a day. A posting converts at the latest rate on or before its date: the business's own
 * (created, imported or the sandbox's demo rates), else the daily feed's reference rates (quoted per
 * euro, turned into a rate to the base here); on the same day the business's own wins.
 */

type RateCtx = Pick<Ctx, 'db' | 'businessId' | 'state'>;

const toRate = (row: queries.ExchangeRateRow): ExchangeRate => ({
  currency: row.currency,
  date: row.date,
  rate: normaliseRate(String(row.rate)),
  source: row.source,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

/** The feed's rate of `currency` to `base` on or before `date`, with the day it is of. */
async function referenceRate(
  ctx: RateCtx,
  currency: string,
  base: string,
  date: string,
): Promise<{ rate: string; date: string } | null> {
  if (currency === 'EUR') {
    const row = await queries.latestReferenceRate(ctx.db, base, date);
    return row ? { rate: normaliseRate(String(row.per_euro)), date: row.date } : null;
  }
  if (base === 'EUR') {
    const row = await queries.latestReferenceRate(ctx.db, currency, date);
    return row ? { rate: crossRate('1', String(row.per_euro)), date: row.date } : null;
  }
  const row = await queries.latestReferencePair(ctx.db, currency, base, date);
  return row
    ? { rate: crossRate(String(row.base_per_euro), String(row.currency_per_euro)), date: row.date }
    : null;
}

/** The rate a posting of `currency` dated `date` converts at, or null when there is none. */
export async function rateOn(ctx: RateCtx, currency: string, date: string): Promise<AppliedRate | null> {
  const base = await baseCurrency(ctx);
  const found = { currency, base_currency: base, date };
  if (currency === base) return { ...found, rate: '1', rate_date: date, source: 'base' };
  const [own, feed] = await Promise.all([
    queries.latestOwnRate(ctx.db, ctx.businessId, currency, date),
    referenceRate(ctx, currency, base, date),
  ]);
  if (own && (!feed || own.date >= feed.date)) {
    return { ...found, rate: normaliseRate(String(own.rate)), rate_date: own.date, source: own.source };
  }
  return feed ? { ...found, rate: feed.rate, rate_date: feed.date, source: 'feed' } : null;
}

/**
 * The rate to post at: `own` (the document's `exchange_rate`) when given, else the latest on or
 * before `date`; none is 422 on `field`, saying both ways out.
 */
export async function rateForPosting(
  ctx: RateCtx,
  currency: string,
  date: string,
  own: string | null = null,
  field = 'exchange_rate',
): Promise<string> {
  if (own !== null) return normaliseRate(own);
  const found = await rateOn(ctx, currency, date);
  if (found) return found.rate;
  const base = await baseCurrency(ctx);
  throw invalid(
    field,
    `No exchange rate from ${currency} to ${base} on or before ${date}: set one with POST /v1/finance/exchange-rates ` +
      `(or import them), or send exchange_rate with the document`,
  );
}

export async function listExchangeRates(
  ctx: Ctx,
  query: queries.RateFilter & { limit: number; offset: number },
) {
  const { rows, total } = await queries.listRates(ctx.db, ctx.businessId, query, query);
  return { exchange_rates: rows.map(toRate), total_count: total };
}

/** Refuses a rate of the base currency itself, naming `field`. */
async function refuseBase(ctx: RateCtx, currency: string, field: string): Promise<void> {
  const base = await baseCurrency(ctx);
  if (currency === base) {
    throw invalid(
      field,
      `${currency} is the base currency: its rate is always 1; set rates of other currencies`,
    );
  }
}

/** Sets rates (one per currency and day, replacing what the day had), in the caller's transaction. */
export async function setRates(
  ctx: TxCtx,
  rates: { date: string; currency: string; rate: string }[],
  source: ExchangeRate['source'],
): Promise<ExchangeRate[]> {
  const now = ctx.clock.now();
  const rows = await queries.upsertRates(
    ctx.db,
    rates.map((r) => ({
      business_id: ctx.businessId,
      currency: r.currency,
      date: r.date,
      rate: r.rate,
      source,
      created_at: now,
      updated_at: now,
    })),
  );
  return rows.map(toRate);
}

export async function createExchangeRate(ctx: Ctx, input: CreateExchangeRateBody): Promise<ExchangeRate> {
  await refuseBase(ctx, input.currency, 'currency');
  return inTransaction(ctx, async (ctx) => {
    const [rate] = await setRates(ctx, [input], 'manual');
    return rate!;
  });
}

export async function lookupExchangeRate(
  ctx: Ctx,
  query: { currency: string; date?: string | undefined },
): Promise<AppliedRate> {
  const date = query.date ?? (await today(ctx));
  const found = await rateOn(ctx, query.currency, date);
  if (!found) throw notFound(`An exchange rate of ${query.currency} on or before ${date}`);
  return found;
}

/** A rate's key in an import, and its id in the import's report: `USD:2026-11-27`. */
const rateKey = (currency: string, date: string) => `${currency}:${date}`;

/**
 * Rows of a CSV file set as rates with source `import`, in the import's transaction; a row of the
 * base currency is refused on its `currency` (docs/decisions.md D278), which the import answers row by
 * row. Returns each row's key.
 */
async function importRates(ctx: TxCtx, bodies: readonly Record<string, unknown>[]): Promise<string[]> {
  const rates = bodies as CreateExchangeRateBody[];
  for (const currency of new Set(rates.map((r) => r.currency))) await refuseBase(ctx, currency, 'currency');
  await setRates(ctx, rates, 'import');
  return rates.map((r) => rateKey(r.currency, r.date));
}

/**
 * Exchange rates from CSV (`date,currency,rate`), each row checked as `POST /v1/finance/exchange-rates`
 * checks its body and matched by its currency and date: a rate already set that day is replaced.
 */
export const exchangeRateImport: ImportTarget = {
  kind: 'exchange_rates',
  create: CreateExchangeRateBodySchema,
  update: CreateExchangeRateBodySchema,
  key: 'date',
  compositeKey: {
    name: 'currency and date',
    of: (body) => {
      const currency = CurrencySchema.safeParse(body.currency);
      const date = DateSchema.safeParse(body.date);
      return currency.success && date.success ? rateKey(currency.data, date.data) : null;
    },
  },
  existing: async (ctx, keys) => {
    const pairs = keys.map((key) => key.split(':') as [string, string]);
    const dates = pairs.map(([, date]) => date).sort();
    const currencies = [...new Set(pairs.map(([currency]) => currency))];
    const rows = await queries.rateDays(ctx.db, ctx.businessId, currencies, dates[0]!, dates.at(-1)!);
    const wanted = new Set(keys);
    const found = rows.map((row) => rateKey(row.currency, row.date)).filter((key) => wanted.has(key));
    return new Map(found.map((key) => [key, key]));
  },
  createOne: async (ctx, body) => ({ id: (await importRates(ctx, [body]))[0]! }),
  updateOne: async (ctx, _id, body) => ({ id: (await importRates(ctx, [body]))[0]! }),
  // No `updateMany`: the base currency is a rule beyond the schema, so a dry run writes and undoes.
  createMany: (ctx, bodies) => importRates(ctx, bodies),
};
