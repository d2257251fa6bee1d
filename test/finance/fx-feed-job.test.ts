import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import { refreshReferenceRates } from '../../server/finance/exchange-rates/feed-job.js';
import { registerBusiness, type TestBusiness } from '../support/business.js';
import { captureLog } from '../support/log.js';
import { useTestServer } from '../support/setup.js';
import { waitFor } from '../support/wait.js';

/**
 * The daily feed of the European Central Bank's reference rates (docs/decisions.md D278), fetched
 * by the worker from FX_RATES_URL as it starts and once a day: every day of the file stored, a day
 * fetched again replaced, and a file that cannot be fetched or read changing nothing but a warning
 * in the log. The feed is a local server answering the fixtures; a later run is the job called as
 * the worker calls it.
 */

const fixture = (name: string) => readFileSync(new URL(`../fixtures/fx/${name}`, import.meta.url), 'utf8');

/** The first day of ecb-hist.xml, whose last is 2026-11-27. */
const FIRST_DAY = '2026-11-25';

/** What the local feed answers, changed by the tests between runs. */
const feed = { status: 200, body: fixture('ecb-hist.xml') };
const http = createServer((_req, res) => {
  res.writeHead(feed.status, { 'content-type': 'application/xml' });
  res.end(feed.body);
});
await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
afterAll(() => new Promise<void>((resolve) => http.close(() => resolve())));
const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/eurofxref-hist-90d.xml`;

const captured = captureLog();
const server = useTestServer({ worker: true, env: { FX_RATES_URL: url }, log: captured.log });

/** A business whose base currency is `base`, set before it posts anything. */
async function businessIn(base: string): Promise<TestBusiness> {
  const biz = await registerBusiness(server());
  await unwrap(biz.client.auth.updateBusiness({ body: { base_currency: base } }));
  return biz;
}

/** The rate of `currency` a posting of `biz` dated `date` would use, or null while there is none. */
async function lookup(biz: TestBusiness, currency: string, date: string) {
  const answer = await biz.client.finance.exchangeRates.lookupExchangeRate({ query: { currency, date } });
  if (answer.status === 404) return null;
  if (answer.status !== 200) throw new Error(`lookup answered ${answer.status}`);
  return answer.body.exchange_rate;
}

/**
 * The reference rates kept from `from` on (by default every one, the test seed's included), as
 * `date currency per_euro`, in order.
 */
async function referenceRates(from = '0001-01-01'): Promise<string[]> {
  const rows = await server()
    .deps.db.selectFrom('finance_reference_rates')
    .select(['date', 'currency', 'per_euro'])
    .where('date', '>=', from)
    .orderBy('date')
    .orderBy('currency')
    .execute();
  return rows.map((r) => `${r.date} ${r.currency} ${String(r.per_euro)}`);
}

/** The rate of `currency` on the file's last day once the feed has stored it, else null. */
async function fetchedRate(biz: TestBusiness, currency: string) {
  const found = await lookup(biz, currency, '2026-11-27');
  return found?.rate_date === '2026-11-27' ? found : null;
}

/** The warnings the service logged about the feed since `from` lines were written. */
const feedWarnings = (from: number) =>
  captured.lines
    .slice(from)
    .map((line) => JSON.parse(line) as { level: number; msg: string; problem?: string; line?: number | null })
    .filter((entry) => entry.level === 40 && entry.msg.startsWith('exchange rate feed refused'));

describe('the exchange rate feed (FX_RATES_URL)', () => {
  it('is stored as the worker starts: every day of the file, read per euro', async () => {
    const biz = await businessIn('EUR');
    const found = await waitFor('the feed stored by the worker', () => fetchedRate(biz, 'USD'), 30_000);
    expect(found).toEqual({
      currency: 'USD',
      base_currency: 'EUR',
      date: '2026-11-27',
      rate: '0.9478672986',
      rate_date: '2026-11-27',
      source: 'feed',
    });
    expect(await lookup(biz, 'USD', '2026-11-26')).toMatchObject({ rate: '0.9525623928', source: 'feed' });
    // A day without rates (a Saturday) takes the last published.
    expect(await lookup(biz, 'GBP', '2026-11-28')).toMatchObject({
      rate: '1.198825151',
      rate_date: '2026-11-27',
      source: 'feed',
    });
    // The file's first day, and nothing before it (the test seed holds no CHF rate).
    expect(await lookup(biz, 'CHF', '2026-11-25')).toMatchObject({ rate: '1.07538445', source: 'feed' });
    expect(await lookup(biz, 'CHF', '2026-11-24')).toBeNull();
    expect(await referenceRates(FIRST_DAY)).toHaveLength(12);
  });

  it('gives a business of another base currency the cross rate through the euro', async () => {
    const biz = await businessIn('GBP');
    await waitFor('the feed stored by the worker', () => fetchedRate(biz, 'USD'), 30_000);
    expect(await lookup(biz, 'USD', '2026-11-27')).toMatchObject({ rate: '0.7906635071', source: 'feed' });
    expect(await lookup(biz, 'USD', '2026-11-26')).toMatchObject({ rate: '0.793389217', source: 'feed' });
    expect(await lookup(biz, 'EUR', '2026-11-25')).toMatchObject({ rate: '0.8336', source: 'feed' });
  });

  it('replaces a day fetched again with what the new file says', async () => {
    const biz = await businessIn('EUR');
    feed.body = fixture('ecb-hist.xml').replace('rate="1.0550"', 'rate="1.0600"');
    expect(await refreshReferenceRates(server().deps)).toBe(12);
    expect(await lookup(biz, 'USD', '2026-11-27')).toMatchObject({ rate: '0.9433962264', source: 'feed' });
    expect(await lookup(biz, 'USD', '2026-11-26')).toMatchObject({ rate: '0.9525623928' });
    expect(await referenceRates(FIRST_DAY)).toHaveLength(12);
  });

  it('changes nothing for a malformed file, a bad rate or an HTTP error, and logs why', async () => {
    const before = await referenceRates();
    const from = captured.lines.length;
    feed.body = fixture('ecb-malformed.xml');
    expect(await refreshReferenceRates(server().deps)).toBe(0);
    feed.body = fixture('ecb-bad-rate.xml');
    expect(await refreshReferenceRates(server().deps)).toBe(0);
    feed.status = 503;
    feed.body = 'Service Unavailable';
    expect(await refreshReferenceRates(server().deps)).toBe(0);
    expect(await referenceRates()).toEqual(before);
    expect(feedWarnings(from)).toEqual([
      expect.objectContaining({
        problem: 'Line 15: the file is not well-formed XML: unclosed tag: Cube',
        line: 15,
      }),
      expect.objectContaining({
        problem: expect.stringMatching(/^Line 9: 2026-11-27: the USD rate "1,0550"/),
        line: 9,
      }),
      expect.objectContaining({ problem: `${url} answered HTTP 503 Service Unavailable`, line: null }),
    ]);
  });

  it('does nothing without FX_RATES_URL', async () => {
    const config = { ...server().deps.config };
    delete config.FX_RATES_URL;
    const before = await referenceRates();
    expect(await refreshReferenceRates({ ...server().deps, config })).toBe(0);
    expect(await referenceRates()).toEqual(before);
  });
});
