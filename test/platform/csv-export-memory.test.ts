import v8 from 'node:v8';
import vm from 'node:vm';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { contract, exportCsv } from '../../client/index.js';
import { registerBusiness, type TestBusiness } from '../support/business.js';
import { onPostgres } from '../support/database.js';
import { createEntry } from '../support/finance.js';
import { useTestServer } from '../support/setup.js';

/**
 * A CSV export streams (docs/decisions.md D155, D156): a journal of 100,000 lines leaves the server a batch
 * at a time and waits for the reader, so what the process (server and test share it) holds stays flat and far
 * below the file's size.
 */

const server = useTestServer({ worker: false });

const ENTRIES = 50_000;
const LINES = ENTRIES * 2;
/** Peak growth of the process's resident set while the file is read. */
const BUDGET_BYTES = 50 * 1024 * 1024;
/** Peak growth of what the process holds after a collection (heap and buffers) while it is read. */
const HELD_BUDGET_BYTES = 25 * 1024 * 1024;
const HEADER =
  'id,date,description,currency,exchange_rate,source.type,source.id,created_at,account,debit,credit,base_debit,base_credit';

let big: TestBusiness;
let small: TestBusiness;
let expectedTotal: number;

const MB = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The collector, exposed at run time (vitest starts its workers without --expose-gc). */
function collector(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}
const gc = collector();

/**
 * What V8 has reserved for its young generation. Node 24's V8 sizes it from the heap limit (here up to
 * 128 MB, two semi-spaces of 64 MB) and grows it while short-lived objects stream through: resident
 * memory of garbage on its way out, not of anything the export keeps.
 */
const youngGeneration = () =>
  v8
    .getHeapSpaceStatistics()
    .filter((space) => space.space_name === 'new_space')
    .reduce((total, space) => total + space.space_size, 0);

/** What the process holds of JavaScript objects and buffers, after a full collection. */
const held = () => {
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

/**
 * The journal of `biz` as CSV read through the body's stream, nothing of it kept but counts: the rows,
 * the entries (an entry's rows are together), and the debits and credits summed.
 */
async function readJournal(biz: TestBusiness) {
  const response = await exportCsv(
    { baseUrl: server().baseUrl, accessToken: biz.accessToken },
    contract.finance.journal.listJournal,
  ).catch((error: Error & { cause?: unknown }) => {
    // fetch names only "fetch failed": say what the connection met.
    throw new Error(`export of ${biz.businessId}: ${error.message} (${String(error.cause)})`, {
      cause: error,
    });
  });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let carry = '';
  let header: string | undefined;
  let rows = 0;
  let entries = 0;
  let lastId = '';
  let firstRow = '';
  let debit = 0;
  let credit = 0;
  let bytes = 0;
  let chunks = 0;
  const take = (line: string) => {
    if (header === undefined) {
      header = line;
      return;
    }
    // Descriptions of these entries hold no comma or quote: a plain split reads the row.
    const cells = line.split(',');
    if (rows === 0) firstRow = line;
    rows++;
    if (cells[0] !== lastId) {
      entries++;
      lastId = cells[0]!;
    }
    debit += Number(cells[9] || 0);
    credit += Number(cells[10] || 0);
  };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    chunks++;
    const lines = (carry + decoder.decode(value, { stream: true })).split('\r\n');
    carry = lines.pop()!;
    for (const line of lines) take(line);
  }
  carry += decoder.decode();
  expect(carry, 'the file ends with CRLF').toBe('');
  return { header, rows, entries, firstRow, debit, credit, bytes, chunks };
}

/**
 * Reads the journal of `biz` sampling the resident set every 25 ms from a baseline taken after a full
 * collection. With `collectEveryMs`, the collector also runs that often and what stays held after it
 * (heap and buffers) is sampled too: the export's own memory, not the garbage V8 leaves for later.
 */
async function measured(biz: TestBusiness, collectEveryMs?: number) {
  held();
  await delay(100);
  const baseline = { rss: process.memoryUsage().rss, held: held(), young: youngGeneration() };
  const peak = { ...baseline };
  const sample = () => {
    peak.rss = Math.max(peak.rss, process.memoryUsage().rss);
    peak.young = Math.max(peak.young, youngGeneration());
  };
  const sampler = setInterval(sample, 25);
  const collecting =
    collectEveryMs === undefined
      ? undefined
      : setInterval(() => {
          peak.held = Math.max(peak.held, held());
        }, collectEveryMs);
  const started = Date.now();
  try {
    const read = await readJournal(biz);
    sample();
    return {
      read,
      ms: Date.now() - started,
      baseline,
      rssGrowth: peak.rss - baseline.rss,
      youngGrowth: peak.young - baseline.young,
      heldGrowth: peak.held - baseline.held,
    };
  } finally {
    clearInterval(sampler);
    clearInterval(collecting);
  }
}

beforeAll(async () => {
  [big, small] = await Promise.all([
    registerBusiness(server(), 'Large Ledger Ltd'),
    registerBusiness(server(), 'Small Ledger Ltd'),
  ]);
  await createEntry(small.client);
  await createEntry(small.client, { description: 'Second' });

  // 50,000 balanced entries of two lines each over 300 days, in one transaction, as posting writes
  // them (the per-day totals and the balance checks are the database's own triggers).
  const started = Date.now();
  const id = sql`'je_01KB' || upper(lpad(to_hex(g), 22, '0'))`;
  const date = sql`date '2026-01-01' + (g % 300)`;
  const amount = sql`(g % 997 + 1) * 100`;
  await server()
    .deps.db.transaction()
    .execute(async (trx) => {
      // The load is the test's set-up, not a request: the service's statement timeout (15 s) is
      // for requests, and this load on a busy machine may take longer.
      await sql`SET LOCAL statement_timeout = '10min'`.execute(trx);
      await sql`
        INSERT INTO finance_journal_entries
          (business_id, id, date, description, currency, source_type, source_id, line_count, created_at)
        SELECT ${big.businessId}, ${id}, ${date}, 'Bulk entry ' || g, 'USD', 'manual', ${id}, 2, now()
          FROM generate_series(1, ${ENTRIES}::int) AS g`.execute(trx);
      await sql`
        INSERT INTO finance_journal_lines
          (business_id, entry_id, line_no, account_code, date, currency, debit, credit, base_debit, base_credit)
        SELECT ${big.businessId}, ${id}, 1, '1010', ${date}, 'USD', ${amount}, 0, ${amount}, 0
          FROM generate_series(1, ${ENTRIES}::int) AS g
        UNION ALL
        SELECT ${big.businessId}, ${id}, 2, '1000', ${date}, 'USD', 0, ${amount}, 0, ${amount}
          FROM generate_series(1, ${ENTRIES}::int) AS g`.execute(trx);
    });
  const total = await sql<{ total: string }>`
    SELECT sum(debit)::text AS total FROM finance_journal_lines WHERE business_id = ${big.businessId}`.execute(
    server().deps.db,
  );
  expectedTotal = Number(total.rows[0]!.total);
  console.log(
    `inserted ${ENTRIES} entries / ${LINES} lines on ${onPostgres ? 'PostgreSQL' : 'PGlite'} in ${Date.now() - started} ms`,
  );
}, 600_000);

describe('CSV export memory', () => {
  it(`streams a journal of ${LINES} lines: what the process holds stays far below the file`, async () => {
    const db = onPostgres ? 'PostgreSQL' : 'PGlite';
    // Warm-up: the export's code paths, compiled and allocated once.
    const warm = await readJournal(small);
    expect(warm.rows).toBe(4);

    // With the collector run every 250 ms: what the export holds.
    const collected = await measured(big, 250);
    // As V8 runs by itself: the resident set also holds garbage not yet collected (for the record).
    const natural = await measured(big);
    for (const [how, m] of [
      ['collector every 250 ms', collected],
      ['collector left alone', natural],
    ] as const) {
      console.log(
        `journal export on ${db} (${how}): ${m.read.rows} rows, ${MB(m.read.bytes)} in ${m.read.chunks} ` +
          `chunks, ${m.ms} ms; RSS baseline ${MB(m.baseline.rss)}, peak growth ${MB(m.rssGrowth)} ` +
          `(V8's young generation grew ${MB(m.youngGrowth)})` +
          (m === collected ? `; heap + buffers held after collection, peak growth ${MB(m.heldGrowth)}` : ''),
      );
    }

    for (const { read } of [collected, natural]) {
      expect(read.header).toBe(HEADER);
      expect(read.rows).toBe(LINES);
      expect(read.entries).toBe(ENTRIES);
      expect(read.debit).toBe(expectedTotal);
      expect(read.credit).toBe(expectedTotal);
      // Newest date first: day 299 of the series, its newest entry (the largest g with g % 300 = 299).
      expect(read.firstRow.split(',').slice(0, 3)).toEqual([
        `je_01KB${(49_799).toString(16).toUpperCase().padStart(22, '0')}`,
        '2026-10-27',
        'Bulk entry 49799',
      ]);
    }
    // A batch at a time: what stays held is a batch and the buffers on its way, never the file's
    // rows (an export gathering every row before writing holds several times the file).
    expect(collected.heldGrowth).toBeLessThan(HELD_BUDGET_BYTES);
    // The resident set: on PostgreSQL, the service's own, less what V8 reserved for its young
    // generation (garbage on its way out, sized by V8, not by the export). PGlite runs the database in
    // this process (its pages and query work count in the resident set, and its synchronous queries
    // keep the collector from running between batches): there the figure is reported, not budgeted.
    if (onPostgres) expect(collected.rssGrowth - collected.youngGrowth).toBeLessThan(BUDGET_BYTES);
  }, 300_000);
});
