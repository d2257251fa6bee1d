import { describe, expect, it } from 'vitest';
import { unwrap, type imports } from '../../client/index.js';
import { raw, registerBusiness, type TestBusiness } from '../support/business.js';
import { expectError } from '../support/expect.js';
import { setRate } from '../support/finance.js';
import { useTestServer } from '../support/setup.js';

/**
 * Exchange rates from CSV (`POST /v1/imports/exchange-rates`, docs/decisions.md D278): columns
 * date, currency and rate, each row checked as a rate set by hand is (a calendar date, an ISO 4217
 * currency other than the base, a rate of at most 10 significant digits), matched by its currency
 * and date so that a day imported again is replaced, written with source `import`. The businesses
 * here keep the base currency they start with, USD.
 */

const server = useTestServer({ worker: false });

type Answer = { status: number; body: any };

const importRates = (biz: TestBusiness, file: string, query = '') =>
  raw(server(), 'POST', `/v1/imports/exchange-rates${query}`, {
    token: biz.accessToken,
    headers: { 'content-type': 'text/csv' },
    body: file,
  }) as Promise<Answer>;

const report = (answer: Answer): imports.ImportReport => {
  expect(answer.status, JSON.stringify(answer.body).slice(0, 500)).toBe(200);
  return answer.body.data as imports.ImportReport;
};

const csv = (...rows: string[]) => ['date,currency,rate', ...rows].join('\n');

/** The business's own rates as the list answers them, oldest day first, each as `currency date rate source`. */
async function ratesOf(biz: TestBusiness): Promise<string[]> {
  const { exchange_rates } = await unwrap(
    biz.client.finance.exchangeRates.listExchangeRates({ query: { limit: 200 } }),
  );
  return exchange_rates
    .sort((a, b) => a.date.localeCompare(b.date) || a.currency.localeCompare(b.currency))
    .map((r) => `${r.currency} ${r.date} ${r.rate} ${r.source}`);
}

describe('POST /v1/imports/exchange-rates', () => {
  it('sets the rates of the file, listed and looked up as imported rates', async () => {
    const biz = await registerBusiness(server());
    const file = csv('2026-11-02,EUR,1.0500', '2026-11-02,GBP,1.2634', '2026-11-03,JPY,0.006712');
    const done = report(await importRates(biz, file));
    expect(done).toEqual({
      kind: 'exchange_rates',
      dry_run: false,
      applied: true,
      columns: { mapped: ['date', 'currency', 'rate'], unknown: [] },
      counts: { rows: 3, create: 3, update: 0, refused: 0 },
      rows: [
        { line: 2, action: 'create', id: 'EUR:2026-11-02', errors: [] },
        { line: 3, action: 'create', id: 'GBP:2026-11-02', errors: [] },
        { line: 4, action: 'create', id: 'JPY:2026-11-03', errors: [] },
      ],
    });
    expect(await ratesOf(biz)).toEqual([
      'EUR 2026-11-02 1.05 import',
      'GBP 2026-11-02 1.2634 import',
      'JPY 2026-11-03 0.006712 import',
    ]);
    const { exchange_rate } = await unwrap(
      biz.client.finance.exchangeRates.lookupExchangeRate({ query: { currency: 'JPY', date: '2026-11-20' } }),
    );
    expect(exchange_rate).toMatchObject({ rate: '0.006712', rate_date: '2026-11-03', source: 'import' });
  });

  it('writes nothing on a dry run, and reports what each row would do', async () => {
    const biz = await registerBusiness(server());
    await setRate(biz, 'EUR', '2026-11-02', '1.04');
    const done = report(
      await importRates(
        biz,
        csv('2026-11-02,EUR,1.05', '2026-11-03,EUR,1.06', '2026-11-03,USD,1'),
        '?dry_run=true',
      ),
    );
    expect(done).toMatchObject({
      dry_run: true,
      applied: false,
      counts: { rows: 3, create: 1, update: 1, refused: 1 },
    });
    expect(done.rows).toEqual([
      { line: 2, action: 'update', id: 'EUR:2026-11-02', errors: [] },
      { line: 3, action: 'create', id: null, errors: [] },
      {
        line: 4,
        action: 'refused',
        id: null,
        errors: [{ field: 'currency', message: expect.stringMatching(/base currency/) }],
      },
    ]);
    expect(await ratesOf(biz)).toEqual(['EUR 2026-11-02 1.04 manual']);
  });

  it('refuses bad rows naming their line, and imports nothing unless all_or_nothing=false', async () => {
    const biz = await registerBusiness(server());
    const file = csv(
      '2026-11-02,EUR,1.05', // 2: good
      '2026-02-30,EUR,1.05', // 3: no such day
      '2026-11-02,XYZ,1.05', // 4: no such currency
      '2026-11-02,GBP,0', // 5: not positive
      '2026-11-02,JPY,-0.0067', // 6: not a decimal
      '2026-11-02,CHF,1.23456789012', // 7: 12 significant digits
      '2026-11-02,EUR,1.06', // 8: the day of line 2 again
      '2026-11-03,CAD,', // 9: no rate
      '2026-11-03,GBP,1.26', // 10: good
    );
    const refusal = expectError(await importRates(biz, file), 422, 'VALIDATION_ERROR');
    expect(refusal.message).toMatch(/^7 of 9 rows refused, so nothing was imported/);
    expect(refusal.details!.map((d) => d.field)).toEqual([
      'line.3.date',
      'line.4.currency',
      'line.5.rate',
      'line.6.rate',
      'line.7.rate',
      'line.8.date',
      'line.9.rate',
    ]);
    expect(refusal.details!.find((d) => d.field === 'line.8.date')!.message).toBe(
      'The same currency and date as line 2',
    );
    expect(refusal.details!.find((d) => d.field === 'line.7.rate')!.message).toMatch(/10 significant digits/);
    expect(await ratesOf(biz)).toEqual([]);

    const done = report(await importRates(biz, file, '?all_or_nothing=false'));
    expect(done).toMatchObject({ applied: true, counts: { rows: 9, create: 2, update: 0, refused: 7 } });
    expect(done.rows.filter((r) => r.action === 'refused').map((r) => r.line)).toEqual([3, 4, 5, 6, 7, 8, 9]);
    expect(await ratesOf(biz)).toEqual(['EUR 2026-11-02 1.05 import', 'GBP 2026-11-03 1.26 import']);
  });

  it('refuses a rate of the base currency on its line, and writes the other rows beside it', async () => {
    const biz = await registerBusiness(server());
    const file = csv('2026-11-02,EUR,1.05', '2026-11-02,USD,1', '2026-11-02,GBP,1.26');
    const refusal = expectError(await importRates(biz, file), 422, 'VALIDATION_ERROR', 'line.3.currency');
    expect(refusal.details).toEqual([
      { field: 'line.3.currency', message: expect.stringMatching(/^USD is the base currency/) },
    ]);
    expect(await ratesOf(biz)).toEqual([]);

    const done = report(await importRates(biz, file, '?all_or_nothing=false'));
    expect(done.rows.map((r) => [r.line, r.action])).toEqual([
      [2, 'create'],
      [3, 'refused'],
      [4, 'create'],
    ]);
    expect(await ratesOf(biz)).toEqual(['EUR 2026-11-02 1.05 import', 'GBP 2026-11-02 1.26 import']);
  });

  it('replaces the rate of a day imported again, and a rate set by hand on it', async () => {
    const biz = await registerBusiness(server());
    await setRate(biz, 'GBP', '2026-11-02', '1.2');
    report(await importRates(biz, csv('2026-11-02,EUR,1.05', '2026-11-03,EUR,1.06')));
    const again = report(await importRates(biz, csv('2026-11-02,EUR,1.0512', '2026-11-02,GBP,1.2634')));
    expect(again.rows).toEqual([
      { line: 2, action: 'update', id: 'EUR:2026-11-02', errors: [] },
      { line: 3, action: 'update', id: 'GBP:2026-11-02', errors: [] },
    ]);
    expect(await ratesOf(biz)).toEqual([
      'EUR 2026-11-02 1.0512 import',
      'GBP 2026-11-02 1.2634 import',
      'EUR 2026-11-03 1.06 import',
    ]);
  });

  it("records the import in the audit log, one row per rate, and leaves another business's rates alone", async () => {
    const biz = await registerBusiness(server());
    const other = await registerBusiness(server());
    await setRate(other, 'EUR', '2026-11-02', '1.01');
    report(await importRates(biz, csv('2026-11-02,EUR,1.05', '2026-11-03,EUR,1.06')));
    const rows = await server()
      .deps.db.selectFrom('audit_log')
      .select(['operation', 'resource_id'])
      .where('business_id', '=', biz.businessId)
      .where('operation', 'like', 'importExchangeRates%')
      .orderBy('operation')
      .orderBy('resource_id')
      .execute();
    expect(rows).toEqual([
      { operation: 'importExchangeRates', resource_id: null },
      { operation: 'importExchangeRates.create', resource_id: 'EUR:2026-11-02' },
      { operation: 'importExchangeRates.create', resource_id: 'EUR:2026-11-03' },
    ]);
    expect(await ratesOf(other)).toEqual(['EUR 2026-11-02 1.01 manual']);
  });
});
