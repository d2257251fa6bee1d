import type { CtxSource } from '../../platform/context.js';
import { withTransaction } from '../../platform/db/database.js';
import { fetchEcbRates } from './feed.js';
import { upsertReferenceRates } from './queries.js';

/*
 * The daily feed of reference rates (docs/decisions.md D278): with `FX_RATES_URL` set, a worker
 * fetches the European Central Bank's file as it starts and once a day, and keeps every day the file
 * holds, shared by every business. A file is stored whole or not at all: one that cannot be fetched
 * or read changes nothing, and the rates already kept serve until the next run brings a good one.
 */

/** How often the feed is fetched: the ECB publishes once each working day. */
export const FEED_INTERVAL_MS = 24 * 60 * 60 * 1000;

/** Rates to a statement: four parameters each, well within PostgreSQL's 65,535. */
const CHUNK = 5000;

/**
 * Fetches the reference rates at `url` (by default `FX_RATES_URL`; none: nothing to do) and stores
 * every day of the file in one transaction, a day already kept replaced by the file's. A refused file
 * (HTTP error, timeout, malformed XML) is logged as a warning with its problem and line, and changes
 * nothing. Returns how many rates were stored.
 */
export async function refreshReferenceRates(
  deps: Pick<CtxSource, 'db' | 'clock' | 'log' | 'config'>,
  url: string | undefined = deps.config.FX_RATES_URL,
): Promise<number> {
  if (url === undefined) return 0;
  const feed = await fetchEcbRates(url);
  if (!feed.ok) {
    deps.log.warn(
      { url, problem: feed.problem, line: feed.line },
      'exchange rate feed refused: the reference rates are unchanged',
    );
    return 0;
  }
  const fetchedAt = deps.clock.now();
  const rows = feed.days.flatMap((day) =>
    day.rates.map((rate) => ({
      currency: rate.currency,
      date: day.date,
      per_euro: rate.perEuro,
      fetched_at: fetchedAt,
    })),
  );
  await withTransaction(deps.db, async (trx) => {
    for (let at = 0; at < rows.length; at += CHUNK)
      await upsertReferenceRates(trx, rows.slice(at, at + CHUNK));
  });
  const days = feed.days.map((day) => day.date);
  deps.log.info(
    { url, days: days.length, first: days[0], last: days.at(-1), rates: rows.length },
    'reference exchange rates stored',
  );
  return rows.length;
}
