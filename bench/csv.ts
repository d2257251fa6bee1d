/**
 * Data in and out (docs/decisions.md D155, D160), two budgets, on PostgreSQL with the service built and run
 * as its own process:
 *
 * Export: the journal of 1,000,000 lines (500,000 entries of two lines) as CSV
 * (`GET /v1/finance/journal?format=csv`) streams at >= 50,000 rows/s, and the service's resident
 * set grows by less than 50 MB while it does. The lines are loaded with SQL (two INSERT ... SELECT
 * over generate_series), then VACUUM ANALYZE, a warm-up export of 100,000 lines (a date range),
 * then rounds of the whole journal read as it arrives (nothing kept) while the service's VmRSS is
 * sampled every 20 ms: rows/s and RSS growth over the idle resident set before the round.
 *
 * Import (`POST /v1/imports/customers`), each round into a new business: 50,000 customers created from
 * one CSV file (all or nothing) and, after VACUUM ANALYZE, the same 50,000 updated (matched by email),
 * each in at most 20 s; dry runs of 5,000 and 50,000 updates (the latter at most half the real run);
 * 5,000 creations with all_or_nothing=false. A warm-up round first.
 *
 * Reports the median of the rounds with the spread; exits non-zero when a budget is not met (run
 * alone; under bench/run.ts the report says it).
 *
 *   npm run build && npx tsx bench/csv.ts   (BENCH_PG_URL defaults to postgres://postgres@127.0.0.1:5432/postgres)
 *
 * BENCH_ENTRIES (default 500000), BENCH_ROUNDS (default 3), BENCH_CUSTOMERS (default 50000); BENCH_ENTRIES=0 skips the export.
 */
import { readFileSync } from 'node:fs';
import { benchService, budgetMissed, median, report, type BenchService } from './support.js';

const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 500_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 50_000);
const RATE_BUDGET = 50_000;
const RSS_BUDGET_MB = 50;
const IMPORT_BUDGET_S = 20;
const PORT = 3839;
const BENCH = 'csv';

const MB = (bytes: number) => bytes / 1024 / 1024;
const spread = (values: number[], digits = 0) =>
  `median ${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}-${Math.max(...values).toFixed(digits)})`;

/** The service's current resident set in bytes (Linux: VmRSS). */
function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) * 1024;
}

async function loadJournal(service: BenchService, businessId: string): Promise<void> {
  const id = `'je_01KB' || upper(lpad(to_hex(g), 22, '0'))`;
  const date = `date '2025-01-01' + (g % 600)`;
  const amount = `(g % 997 + 1) * 100`;
  // In transactions of 20,000 entries (the per-day totals the triggers keep are updated in place, and
  // one transaction updating a row thousands of times walks an ever longer version chain), with
  // ANALYZE after the first small one: the triggers' queries are planned for the table's real size,
  // not for the empty table (a sequential scan per line).
  for (let from = 1, chunk = 1000; from <= ENTRIES; from += chunk, chunk = 20_000) {
    const range = [businessId, from, Math.min(from + chunk - 1, ENTRIES)];
    await service.data.query('BEGIN');
    await service.data.query(
      `INSERT INTO finance_journal_entries
         (business_id, id, date, description, currency, source_type, source_id, line_count, created_at)
       SELECT $1, ${id}, ${date}, 'Bulk entry ' || g, 'USD', 'manual', ${id}, 2, now()
         FROM generate_series($2::int, $3::int) AS g`,
      range,
    );
    await service.data.query(
      `INSERT INTO finance_journal_lines (business_id, entry_id, line_no, account_code, date, currency, debit, credit,
                                   base_debit, base_credit)
     SELECT b, e, n, a, d, c, dr, cr, dr, cr FROM (
       SELECT $1, ${id}, 1, '1010', ${date}, 'USD', ${amount}, 0 FROM generate_series($2::int, $3::int) AS g
       UNION ALL
       SELECT $1, ${id}, 2, '1000', ${date}, 'USD', 0, ${amount} FROM generate_series($2::int, $3::int) AS g
     ) AS base_currency_lines (b, e, n, a, d, c, dr, cr)`,
      range,
    );
    await service.data.query('COMMIT');
    await service.data.query('ANALYZE finance_journal_entries, finance_journal_lines');
  }
  await service.data.query('VACUUM ANALYZE');
}

/** Reads an export as it arrives, counting lines; samples the service's RSS meanwhile. */
async function exportRound(service: BenchService, pid: number, token: string, query: string) {
  const idle = rssOf(pid);
  let peak = idle;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssOf(pid));
  }, 20);
  const started = performance.now();
  const res = await fetch(`${service.baseUrl}/v1/finance/journal?format=csv${query}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (res.status !== 200 || !res.body) throw new Error(`export answered ${res.status}`);
  let lines = 0;
  let bytes = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, rssOf(pid));
  return { rows: lines - 1, bytes, seconds, rate: (lines - 1) / seconds, growth: MB(peak - idle) };
}

/** `count` customers `c<i>-<tag>@example.test`; `name` names them (an update renames them). */
function customersFile(tag: string, count = CUSTOMERS, name = 'Customer'): string {
  const rows = ['name,email,phone,company,address city,address country,attributes.tier'];
  for (let i = 0; i < count; i++) {
    rows.push(
      `${name} ${i},c${i}-${tag}@example.test,+44 20 7946 ${String(i % 10_000).padStart(4, '0')},` +
        `"Company ${i % 500}, Ltd",London,GB,${['gold', 'silver', 'bronze'][i % 3]}`,
    );
  }
  return `${rows.join('\r\n')}\r\n`;
}

/** One import of `file`, timed; the answer must count `expect` rows of their action. */
async function importFile(
  service: BenchService,
  token: string,
  file: string,
  query: string,
  expect: { create?: number; update?: number },
): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${service.baseUrl}/v1/imports/customers${query}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
    body: file,
  });
  const body = (await res.json()) as { data?: { counts: { create: number; update: number } } };
  const seconds = (performance.now() - started) / 1000;
  const counts = body.data?.counts;
  if (
    res.status !== 200 ||
    !counts ||
    Object.entries(expect).some(([action, n]) => counts[action as 'create' | 'update'] !== n)
  ) {
    throw new Error(`import answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
  }
  return seconds;
}

const SMALL = 5_000;

/**
 * One round of imports into a new business: CUSTOMERS creations (all or nothing), then VACUUM
 * ANALYZE, then the same file renaming every customer (CUSTOMERS updates matched by email), dry runs
 * of SMALL and CUSTOMERS updates, and SMALL creations with all_or_nothing=false.
 */
async function importRound(service: BenchService) {
  const { accessToken } = await service.register('Import bench');
  const tag = Math.random().toString(36).slice(2, 8);
  const create = await importFile(service, accessToken, customersFile(tag), '', { create: CUSTOMERS });
  await service.data.query('VACUUM ANALYZE customers, events, audit_log');
  const renamed = customersFile(tag, CUSTOMERS, 'Renamed');
  const update = await importFile(service, accessToken, renamed, '', { update: CUSTOMERS });
  const small = customersFile(tag, SMALL, 'Again');
  const drySmall = await importFile(service, accessToken, small, '?dry_run=true', { update: SMALL });
  const dryAll = await importFile(
    service,
    accessToken,
    customersFile(tag, CUSTOMERS, 'Again'),
    '?dry_run=true',
    {
      update: CUSTOMERS,
    },
  );
  const partial = await importFile(
    service,
    accessToken,
    customersFile(`${tag}p`, SMALL),
    '?all_or_nothing=false',
    { create: SMALL },
  );
  return { create, update, drySmall, dryAll, partial };
}

/** The journal export's rounds; true when a budget is missed. */
async function exportBench(service: BenchService): Promise<boolean> {
  const pid = service.pid;
  const { businessId, accessToken } = await service.register('Export bench');
  const loading = performance.now();
  await loadJournal(service, businessId);
  console.log(
    `loaded ${ENTRIES.toLocaleString('en')} entries / ${(2 * ENTRIES).toLocaleString('en')} lines in ` +
      `${((performance.now() - loading) / 1000).toFixed(1)} s, then VACUUM ANALYZE`,
  );
  const warm = await exportRound(service, pid, accessToken, '&start_date=2025-01-01&end_date=2025-05-01');
  console.log(`warm-up: ${warm.rows.toLocaleString('en')} rows in ${warm.seconds.toFixed(1)} s`);
  const rounds = [];
  for (let round = 0; round < ROUNDS; round++) {
    const r = await exportRound(service, pid, accessToken, '');
    if (r.rows !== 2 * ENTRIES) throw new Error(`export gave ${r.rows} rows, expected ${2 * ENTRIES}`);
    console.log(
      `  round ${round + 1}: ${r.rows.toLocaleString('en')} rows, ${MB(r.bytes).toFixed(0)} MiB in ` +
        `${r.seconds.toFixed(2)} s: ${Math.round(r.rate).toLocaleString('en')} rows/s, RSS growth ${r.growth.toFixed(1)} MiB`,
    );
    rounds.push(r);
  }
  const rate = median(rounds.map((r) => r.rate));
  const growth = median(rounds.map((r) => r.growth));
  const rateOk = rate >= RATE_BUDGET;
  const rssOk = growth < RSS_BUDGET_MB;
  console.log(
    `\njournal export, ${ROUNDS} rounds of ${(2 * ENTRIES).toLocaleString('en')} lines: rows/s ` +
      `${spread(rounds.map((r) => r.rate))} (budget >= ${RATE_BUDGET}: ${rateOk ? 'met' : 'NOT met'}); ` +
      `RSS growth MiB ${spread(
        rounds.map((r) => r.growth),
        1,
      )} (budget < ${RSS_BUDGET_MB}: ${rssOk ? 'met' : 'NOT met'})`,
  );
  report({
    bench: BENCH,
    measure: `journal export, ${(2 * ENTRIES).toLocaleString('en')} lines`,
    unit: 'rows/s',
    rounds: rounds.map((r) => r.rate),
    target: { op: '>=', value: RATE_BUDGET },
  });
  report({
    bench: BENCH,
    measure: 'journal export, RSS growth',
    unit: 'MiB',
    rounds: rounds.map((r) => r.growth),
    target: { op: '<=', value: RSS_BUDGET_MB },
  });

  return !rateOk || !rssOk;
}

async function main(): Promise<void> {
  const service = await benchService(PORT);
  let failed = false;
  try {
    if (ENTRIES > 0) failed = await exportBench(service);
    if (CUSTOMERS > 0) {
      await importRound(service); // warm-up: the import's code paths and the first business
      const rounds: Awaited<ReturnType<typeof importRound>>[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const r = await importRound(service);
        rounds.push(r);
        console.log(
          `  round ${round + 1}: ${CUSTOMERS} creations ${r.create.toFixed(2)} s, ${CUSTOMERS} updates ` +
            `${r.update.toFixed(2)} s, dry run of ${SMALL} updates ${r.drySmall.toFixed(2)} s, of ${CUSTOMERS} ` +
            `${r.dryAll.toFixed(2)} s, ${SMALL} creations with all_or_nothing=false ${r.partial.toFixed(2)} s`,
        );
      }
      const of = (key: keyof (typeof rounds)[number]) => rounds.map((r) => r[key]);
      const n = CUSTOMERS.toLocaleString('en');
      const k = SMALL.toLocaleString('en');
      const createOk = median(of('create')) <= IMPORT_BUDGET_S;
      const updateOk = median(of('update')) <= IMPORT_BUDGET_S;
      // A dry run only checks and matches: at most half of applying the same rows.
      const dryOk = median(of('dryAll')) <= median(of('update')) / 2;
      console.log(
        `\nimport of ${n} customers: creations ${spread(of('create'), 2)} s, updates ${spread(of('update'), 2)} s ` +
          `(budget <= ${IMPORT_BUDGET_S} s: ${createOk && updateOk ? 'met' : 'NOT met'}); dry run of ${k} updates ` +
          `${spread(of('drySmall'), 2)} s, of ${n} ${spread(of('dryAll'), 2)} s (budget <= half the updates: ` +
          `${dryOk ? 'met' : 'NOT met'}); ${k} creations with all_or_nothing=false ${spread(of('partial'), 2)} s`,
      );
      const target = { op: '<=', value: IMPORT_BUDGET_S } as const;
      report({ bench: BENCH, measure: `import of ${n} customers`, unit: 's', rounds: of('create'), target });
      report({
        bench: BENCH,
        measure: `import of ${n} customer updates`,
        unit: 's',
        rounds: of('update'),
        target,
      });
      report({
        bench: BENCH,
        measure: `import of ${n} customer updates, dry run`,
        unit: 's',
        rounds: of('dryAll'),
        target: { op: '<=', value: median(of('update')) / 2 },
      });
      report({
        bench: BENCH,
        measure: `import of ${k} customer updates, dry run`,
        unit: 's',
        rounds: of('drySmall'),
      });
      report({
        bench: BENCH,
        measure: `import of ${k} customers, all_or_nothing=false`,
        unit: 's',
        rounds: of('partial'),
      });
      failed ||= !createOk || !updateOk || !dryOk;
    }
  } finally {
    await service.close();
  }
  if (failed) budgetMissed();
}

await main();
