/**
 * The dashboard's two budgets.
 *
 * Bundle: the JavaScript and CSS the first page (sign-in) loads, read from the build's metafile
 * (dist/web/meta.json, written by `npm run build`): at most 250 KB of JavaScript minified; gzip
 * reported beside it.
 *
 * Overview: its data ready (the five requests the overview sends at once: the sales schedule of 12
 * months by month with the VAT block, the latest invoices, the latest bills, loyalty stats and the
 * campaigns) under 500 ms with 100,000 invoices on PostgreSQL. The invoices are bulk-loaded with SQL
 * in the API's shapes over the last two years with the per-day sales totals the triggers keep, then
 * VACUUM ANALYZE; a warm-up, then rounds of sequential overview loads: median and p95 per round,
 * the median over rounds and the spread.
 *
 *   npm run build && npx tsx bench/dashboard.ts   (BENCH_PG_URL defaults to postgres://postgres@127.0.0.1:5432/postgres)
 *
 * BENCH_INVOICES (default 100000), BENCH_ROUNDS (default 5), BENCH_REQUESTS (overview loads per round, default 30).
 */
import { readFileSync } from 'node:fs';
import { unwrap, type Client } from '../client/index.js';
import { firstLoad } from '../scripts/build-web.js';
import { benchService, median, percentile, report } from './support.js';

const INVOICES = Number(process.env.BENCH_INVOICES ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 30);
const PORT = 3836;
const BUNDLE_BUDGET = 250 * 1024;
const OVERVIEW_BUDGET_MS = 500;
const BENCH = 'dashboard';

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

function bundle(): void {
  const meta = JSON.parse(readFileSync(new URL('../dist/web/meta.json', import.meta.url), 'utf8'));
  const first = firstLoad(meta);
  const scripts = first.files.filter((f) => f.endsWith('.js'));
  const jsBytes = scripts.reduce(
    (sum, file) =>
      sum +
      Object.entries(meta.outputs as Record<string, { bytes: number }>).find(([path]) =>
        path.endsWith(`/${file}`),
      )![1].bytes,
    0,
  );
  const chunks = Object.keys(meta.outputs).filter((f) => f.includes('/chunks/') && f.endsWith('.js')).length;
  console.log(`first load (sign-in page): ${first.files.join(', ')}`);
  console.log(
    `  JavaScript ${kb(jsBytes)} minified (budget ${kb(BUNDLE_BUDGET)}: ${jsBytes <= BUNDLE_BUDGET ? 'met' : 'NOT met'}); ` +
      `with CSS ${kb(first.bytes)}, ${kb(first.gzip)} gzip; ${chunks} chunks loaded later`,
  );
  report({
    bench: BENCH,
    measure: 'first load JavaScript, minified',
    unit: 'KB',
    rounds: [jsBytes / 1024],
    target: { op: '<=', value: BUNDLE_BUDGET / 1024 },
  });
  report({ bench: BENCH, measure: 'first load with CSS, gzip', unit: 'KB', rounds: [first.gzip / 1024] });
}

/** The overview's requests, sent together as the screen does. */
const overview = (client: Client, start: string, end: string) =>
  Promise.all([
    unwrap(
      client.finance.reports.getSalesSchedule({
        query: { startDate: start, endDate: end, groupBy: 'month', limit: 1 },
      }),
    ),
    unwrap(client.general.invoices.listInvoices({ query: { limit: 5 } })),
    unwrap(client.finance.bills.listBills({ query: { limit: 5 } })),
    unwrap(client.loyalty.stats.getStats()),
    unwrap(client.marketing.campaigns.listCampaigns({ query: { limit: 10 } })),
  ]);

async function main() {
  bundle();
  const service = await benchService(PORT);
  try {
    const { data } = service;
    const { businessId, client } = await service.register('Bench overview');
    const customers: string[] = [];
    for (let i = 0; i < 20; i++) {
      customers.push(
        (await unwrap(client.general.customers.createCustomer({ body: { name: `Client ${i}` } }))).data.id,
      );
    }
    const today = new Date();
    const end = today.toISOString().slice(0, 10);
    const first = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 11, 1))
      .toISOString()
      .slice(0, 10);

    const started = performance.now();
    await data.query('BEGIN');
    await data.query('SET LOCAL session_replication_role = replica');
    // Issued over the last 730 days: one in 50 void, one in 3 paid, the rest unpaid; net 10.00-99.99 USD, 20% tax.
    await data.query(
      `INSERT INTO invoices (business_id, id, number, customer_id, status, currency, issue_date, due_date, subtotal_minor,
                             tax_minor, total_minor, amount_paid_minor, created_at, updated_at, issued_at)
       SELECT $1, 'inv_OVW' || lpad(i::text, 23, '0'), 'INV-' || lpad(i::text, 7, '0'), ($3::text[])[1 + i % 20],
              CASE WHEN i % 50 = 0 THEN 'void' WHEN i % 3 = 0 THEN 'paid' ELSE 'unpaid' END, 'USD',
              current_date - (i % 730), current_date - (i % 730) + 30, s, s / 5, s + s / 5,
              CASE WHEN i % 50 <> 0 AND i % 3 = 0 THEN s + s / 5 ELSE 0 END, now(), now(), now()
       FROM generate_series(1, $2::int) AS i, LATERAL (SELECT 1000 + (i::bigint * 7919) % 9000 AS s) AS a`,
      [businessId, INVOICES, customers],
    );
    await data.query(
      `INSERT INTO finance_sales_days (business_id, currency, date, slot, revenue, invoices)
       SELECT business_id, currency, issue_date, 0, sum(subtotal_minor), count(*) FROM invoices
       WHERE business_id = $1 AND status IN ('unpaid', 'paid') GROUP BY business_id, currency, issue_date`,
      [businessId],
    );
    await data.query('COMMIT');
    for (const table of ['invoices', 'customers', 'finance_sales_days'])
      await data.query(`VACUUM ANALYZE ${table}`);
    console.log(
      `\nbulk-loaded ${INVOICES.toLocaleString('en')} invoices in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    const [schedule, invoices] = await overview(client, first, end);
    if (schedule.data.summary.totalInvoices === 0 || invoices.data.length !== 5) {
      throw new Error('the overview did not see the loaded invoices');
    }
    console.log(
      `the overview's 12 months: ${schedule.data.summary.totalInvoices.toLocaleString('en')} invoices, ` +
        `${schedule.data.periods.length} periods`,
    );

    for (let i = 0; i < 10; i++) await overview(client, first, end);
    const p50s: number[] = [];
    const p95s: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const times: number[] = [];
      for (let i = 0; i < REQUESTS; i++) {
        const t = performance.now();
        await overview(client, first, end);
        times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      p50s.push(percentile(times, 50));
      p95s.push(percentile(times, 95));
    }
    const p95 = median(p95s);
    console.log(
      `\noverview data ready, ${ROUNDS} rounds of ${REQUESTS} loads (median over rounds, spread min-max):\n` +
        `  p50 ${median(p50s).toFixed(1)} ms (${Math.min(...p50s).toFixed(1)}-${Math.max(...p50s).toFixed(1)})  ` +
        `p95 ${p95.toFixed(1)} ms (${Math.min(...p95s).toFixed(1)}-${Math.max(...p95s).toFixed(1)})  ` +
        `target ${OVERVIEW_BUDGET_MS} ms: ${p95 <= OVERVIEW_BUDGET_MS ? 'met' : 'NOT met'}`,
    );
    const over = `over ${INVOICES.toLocaleString('en')} invoices`;
    report({
      bench: BENCH,
      measure: `overview data ready ${over}, p95`,
      unit: 'ms',
      rounds: p95s,
      target: { op: '<=', value: OVERVIEW_BUDGET_MS },
    });
    report({ bench: BENCH, measure: `overview data ready ${over}, p50`, unit: 'ms', rounds: p50s });
  } finally {
    await service.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
