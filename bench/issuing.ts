/**
 * Issuing invoices on PostgreSQL (POST /v1/invoices/{id}/issue: the draft becomes unpaid, its ledger
 * entry is posted with the per-day totals, the sales days are updated and the VAT threshold checked),
 * side by side with the cheapest authenticated read of the same business as its floor.
 *
 * One business with 3,000 customers, 3,000 products and 3,000 issued invoices of 3 lines each with
 * their ledger entries, bulk-loaded with SQL, a VAT threshold made through the API, then VACUUM
 * ANALYZE. The drafts to issue (3 lines each, from the products) are made through the API beforehand
 * and not timed. Then a warm-up round and BENCH_ROUNDS rounds of, in turn:
 *
 *   issuing, 10 concurrent clients     throughput (target >= 582/s) and p95
 *   the floor, 10 concurrent clients   GET /v1/invoices/{id} of issued invoices, p95; issuing's p95 is
 *                                      held to at most 2 x the floor's (the ratio per round)
 *   issuing, one client                p50 (target <= 4 ms)
 *
 * Each client sends its next request as soon as its last is answered (fetch, keep-alive). Figures:
 * the median over rounds, with the spread (min-max).
 *
 *   npm run build && npx tsx bench/issuing.ts   (BENCH_PG_URL defaults to postgres://postgres@127.0.0.1:5432/postgres)
 *
 * BENCH_ROUNDS (default 3), BENCH_ISSUES (issued by 10 clients per round, and reads of the floor,
 * default 1000), BENCH_ISSUES_ONE (issued by one client per round, default 300), BENCH_CUSTOMERS,
 * BENCH_PRODUCTS, BENCH_INVOICES (default 3000 each); BENCH_KEEP_DB=1 keeps the scratch database.
 */
import { unwrap } from '../client/index.js';
import {
  benchService,
  itemAt,
  median,
  percentile,
  report,
  vatThresholdFarAway,
  type BenchService,
} from './support.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ISSUES = Number(process.env.BENCH_ISSUES ?? 1000);
const ISSUES_ONE = Number(process.env.BENCH_ISSUES_ONE ?? 300);
const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 3000);
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 3000);
const INVOICES = Number(process.env.BENCH_INVOICES ?? 3000);
const CLIENTS = 10;
const PORT = 3843;
const BENCH = 'issuing';
const TARGET_PER_SECOND = 582; // 3 x the 194/s measured before
const TARGET_RATIO = 2;
const TARGET_ONE_P50_MS = 4;

const ms = (n: number) => n.toFixed(2);
const spread = (values: number[], digits = 2) =>
  `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}-${Math.max(...values).toFixed(digits)})`;

/** Runs `work` over `items` with `width` in flight (not timed). */
async function inParallel<T>(items: T[], width: number, work: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await work(itemAt(items, next++));
    }),
  );
}

/** Customers, products and issued invoices (3 lines each, with their ledger entries) of the business. */
async function load(service: BenchService, businessId: string): Promise<void> {
  const { data } = service;
  await data.query('BEGIN');
  await data.query(
    `INSERT INTO customers (business_id, id, name, email, first_name, last_name, created_at, updated_at)
     SELECT $1, 'cus_BENCH' || lpad(i::text, 22, '0'), 'First' || i || ' Last' || i, 'customer' || i || '@example.test',
            'First' || i, 'Last' || i, now() - i * interval '1 hour', now() - i * interval '1 hour'
     FROM generate_series(1, $2::int) AS i`,
    [businessId, CUSTOMERS],
  );
  // Prices 5.00-504.50 USD in steps of 0.50, so that 20% tax is a whole number of cents.
  await data.query(
    `INSERT INTO products (business_id, id, name, sku, price_minor, currency, stock, created_at, updated_at)
     SELECT $1, 'prod_BENCH' || lpad(i::text, 21, '0'), 'Product ' || i, 'SKU-' || lpad(i::text, 6, '0'),
            500 + ((i::bigint * 7919) % 1000) * 50, 'USD', 1000, now(), now()
     FROM generate_series(1, $2::int) AS i`,
    [businessId, PRODUCTS],
  );
  // The lines of the issued invoices: 3 each, a product each, quantity 1-3, 20% tax.
  await data.query(
    `CREATE TEMP TABLE bench_lines ON COMMIT DROP AS
     SELECT i, k, p.id AS product_id, p.name AS description, q.quantity, p.price_minor AS unit,
            q.quantity * p.price_minor AS total, q.quantity * p.price_minor / 5 AS tax
     FROM generate_series(1, $2::int) AS i
     CROSS JOIN generate_series(0, 2) AS k
     CROSS JOIN LATERAL (SELECT 1 + (i + k) % 3 AS quantity) AS q
     JOIN products p ON p.business_id = $1
                    AND p.id = 'prod_BENCH' || lpad((1 + (i * 3 + k) % $3::int)::text, 21, '0')`,
    [businessId, INVOICES, PRODUCTS],
  );
  // Issued over the last year, unpaid, due 30 days later.
  await data.query(
    `INSERT INTO invoices (business_id, id, number, customer_id, status, currency, issue_date, due_date, subtotal_minor,
                           tax_minor, total_minor, amount_paid_minor, created_at, updated_at, issued_at)
     SELECT $1, 'inv_BENCH' || lpad(i::text, 22, '0'), 'BENCH-' || lpad(i::text, 7, '0'),
            'cus_BENCH' || lpad((1 + i % $2::int)::text, 22, '0'), 'unpaid', 'USD', current_date - i % 365,
            current_date - i % 365 + 30, sum(total), sum(tax), sum(total) + sum(tax), 0,
            (current_date - i % 365)::timestamptz, (current_date - i % 365)::timestamptz,
            (current_date - i % 365)::timestamptz
     FROM bench_lines GROUP BY i`,
    [businessId, CUSTOMERS],
  );
  await data.query(
    `INSERT INTO invoice_items (business_id, id, invoice_id, position, product_id, description, quantity,
                                unit_price_minor, tax_rate, total_minor, tax_minor)
     SELECT $1, 'item_BENCH' || lpad((i * 3 + k)::text, 21, '0'), 'inv_BENCH' || lpad(i::text, 22, '0'), k,
            product_id, description, quantity, unit, 20, total, tax
     FROM bench_lines`,
    [businessId],
  );
  // Their ledger entries as issuing posts them (Dr 1200 receivables / Cr 4000 sales / Cr 2200 VAT);
  // the per-day account totals follow through their triggers.
  await data.query(
    `INSERT INTO finance_journal_entries (business_id, id, date, description, currency, source_type, source_id,
                                         line_count, created_at)
     SELECT business_id, 'je_BENCH' || substr(id, 10), issue_date, 'Invoice ' || number, 'USD', 'invoice', id, 3, now()
     FROM invoices WHERE business_id = $1`,
    [businessId],
  );
  await data.query(
    `INSERT INTO finance_journal_lines (business_id, entry_id, line_no, account_code, date, currency, debit, credit,
                                   base_debit, base_credit)
     SELECT b, e, n, a, d, c, dr, cr, dr, cr FROM (
     SELECT i.business_id, 'je_BENCH' || substr(i.id, 10), l.n, l.account, i.issue_date, 'USD', l.debit, l.credit
     FROM invoices i
     CROSS JOIN LATERAL (VALUES (1, '1200', i.total_minor, 0::bigint), (2, '2200', 0, i.tax_minor),
                                (3, '4000', 0, i.subtotal_minor)) AS l (n, account, debit, credit)
     WHERE i.business_id = $1
     ) AS base_currency_lines (b, e, n, a, d, c, dr, cr)`,
    [businessId],
  );
  await data.query(
    `INSERT INTO finance_sales_days (business_id, currency, date, slot, revenue, invoices)
     SELECT business_id, currency, issue_date, 0, sum(subtotal_minor), count(*) FROM invoices
     WHERE business_id = $1 GROUP BY business_id, currency, issue_date`,
    [businessId],
  );
  await data.query('COMMIT');
  await data.query('VACUUM ANALYZE');
}

interface Run {
  perSecond: number;
  p50: number;
  p95: number;
}

/** `total` requests from `width` clients, each sending its next as soon as its last is answered. */
async function clients(width: number, total: number, send: (i: number) => Promise<void>): Promise<Run> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < total) {
        const i = next++;
        const t = performance.now();
        await send(i);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { perSecond: total / seconds, p50: percentile(latencies, 50), p95: percentile(latencies, 95) };
}

async function main(): Promise<void> {
  const service = await benchService(PORT);
  try {
    const { businessId, accessToken, client } = await service.register('Bench issuing');
    // A threshold, so that issuing checks it as it does for a business that set one.
    await vatThresholdFarAway(client);
    let started = performance.now();
    await load(service, businessId);
    console.log(
      `loaded ${CUSTOMERS.toLocaleString('en')} customers, ${PRODUCTS.toLocaleString('en')} products and ` +
        `${INVOICES.toLocaleString('en')} issued invoices (3 lines each, with their ledger entries) in ` +
        `${((performance.now() - started) / 1000).toFixed(1)} s, then VACUUM ANALYZE`,
    );

    // Drafts for the warm-up round and every round, 3 product lines each, through the API.
    const perRound = ISSUES + ISSUES_ONE;
    const drafts: string[] = [];
    started = performance.now();
    await inParallel(
      Array.from({ length: perRound * (ROUNDS + 1) }, (_, i) => i),
      8,
      async (i) => {
        const product = (k: number) =>
          `prod_BENCH${String(1 + ((i * 7 + k * 13) % PRODUCTS)).padStart(21, '0')}`;
        const draft = await unwrap(
          client.general.invoices.createInvoice({
            body: {
              customer_id: `cus_BENCH${String(1 + (i % CUSTOMERS)).padStart(22, '0')}`,
              items: [0, 1, 2].map((k) => ({ product_id: product(k), quantity: 1 + k, tax_rate: 20 })),
              due_date: '2030-01-31',
            },
          }),
        );
        drafts.push(draft.data.id);
      },
    );
    await service.data.query('VACUUM ANALYZE invoices, invoice_items');
    console.log(
      `${drafts.length.toLocaleString('en')} drafts made through the API in ` +
        `${((performance.now() - started) / 1000).toFixed(1)} s, then VACUUM ANALYZE`,
    );

    const headers = { authorization: `Bearer ${accessToken}` };
    const failures: string[] = [];
    const issued: string[] = [];
    const issue = (batch: string[]) => async (i: number) => {
      const id = itemAt(batch, i);
      const res = await fetch(`${service.baseUrl}/v1/invoices/${id}/issue`, { method: 'POST', headers });
      const body = await res.text();
      if (res.status === 200) issued.push(id);
      else failures.push(`issue ${id}: ${res.status} ${body.slice(0, 200)}`);
    };
    // The floor reads invoices issued in the warm-up round (3 lines each, like the ones issued).
    let readable: string[] = [];
    const read = async (i: number) => {
      const id = itemAt(readable, (i * 7919) % readable.length);
      const res = await fetch(`${service.baseUrl}/v1/invoices/${id}`, { headers });
      const body = await res.text();
      if (res.status !== 200) failures.push(`read ${id}: ${res.status} ${body.slice(0, 200)}`);
    };

    const runs = { issue10: [] as Run[], floor10: [] as Run[], issue1: [] as Run[] };
    for (let round = 0; round <= ROUNDS; round++) {
      const batch = drafts.splice(0, perRound);
      const many = batch.slice(0, ISSUES);
      const one = batch.slice(ISSUES);
      const issue10 = await clients(CLIENTS, many.length, issue(many));
      if (round === 0) readable = [...issued];
      const floor10 = await clients(CLIENTS, ISSUES, read);
      const issue1 = await clients(1, one.length, issue(one));
      if (failures.length) throw new Error(`${failures.length} requests failed, first: ${failures[0]}`);
      console.log(
        `${round === 0 ? 'warm-up:' : `round ${round}:`} issue x${CLIENTS} ${issue10.perSecond.toFixed(0)}/s ` +
          `p95 ${ms(issue10.p95)} ms; read x${CLIENTS} ${floor10.perSecond.toFixed(0)}/s p95 ${ms(floor10.p95)} ms; ` +
          `issue x1 p50 ${ms(issue1.p50)} ms p95 ${ms(issue1.p95)} ms`,
      );
      if (round === 0) continue;
      runs.issue10.push(issue10);
      runs.floor10.push(floor10);
      runs.issue1.push(issue1);
    }

    // Every answer was a posting: one ledger entry per issued invoice.
    const { rows } = await service.data.query<{ unpaid: string; entries: string }>(
      `SELECT (SELECT count(*) FROM invoices WHERE business_id = $1 AND status = 'unpaid') AS unpaid,
              (SELECT count(*) FROM finance_journal_entries WHERE business_id = $1 AND source_type = 'invoice') AS entries`,
      [businessId],
    );
    const counts = itemAt(rows, 0);
    const expected = INVOICES + issued.length;
    if (Number(counts.unpaid) !== expected || Number(counts.entries) !== expected) {
      throw new Error(
        `${counts.unpaid} unpaid invoices and ${counts.entries} entries, expected ${expected} each`,
      );
    }

    const ratios = runs.issue10.map((r, i) => r.p95 / itemAt(runs.floor10, i).p95);
    const perSecond = median(runs.issue10.map((r) => r.perSecond));
    const ratio = median(ratios);
    const oneP50 = median(runs.issue1.map((r) => r.p50));
    const verdict = (met: boolean) => (met ? 'met' : 'NOT met');
    console.log(`\nissuing, ${ROUNDS} rounds after a warm-up (median over rounds, spread min-max):`);
    console.log(
      `  issue, ${CLIENTS} clients (${ISSUES}/round)          ${spread(
        runs.issue10.map((r) => r.perSecond),
        0,
      )} /s  target >= ${TARGET_PER_SECOND}/s: ${verdict(perSecond >= TARGET_PER_SECOND)}`,
    );
    console.log(
      `                                         p50 ${spread(runs.issue10.map((r) => r.p50))} ms  ` +
        `p95 ${spread(runs.issue10.map((r) => r.p95))} ms`,
    );
    console.log(
      `  floor: read one invoice, ${CLIENTS} clients     ${spread(
        runs.floor10.map((r) => r.perSecond),
        0,
      )} /s  p95 ${spread(runs.floor10.map((r) => r.p95))} ms`,
    );
    console.log(
      `  issue p95 / floor p95                  ${spread(ratios)}  target <= ${TARGET_RATIO}: ${verdict(ratio <= TARGET_RATIO)}`,
    );
    console.log(
      `  issue, one client (${ISSUES_ONE}/round)            p50 ${spread(runs.issue1.map((r) => r.p50))} ms  ` +
        `p95 ${spread(runs.issue1.map((r) => r.p95))} ms  target p50 <= ${TARGET_ONE_P50_MS} ms: ${verdict(oneP50 <= TARGET_ONE_P50_MS)}`,
    );

    report({
      bench: BENCH,
      measure: `issue, ${CLIENTS} clients, throughput`,
      unit: '/s',
      rounds: runs.issue10.map((r) => r.perSecond),
      target: { op: '>=', value: TARGET_PER_SECOND },
    });
    report({
      bench: BENCH,
      measure: `issue, ${CLIENTS} clients, p95`,
      unit: 'ms',
      rounds: runs.issue10.map((r) => r.p95),
    });
    report({
      bench: BENCH,
      measure: `floor: read an invoice, ${CLIENTS} clients, p95`,
      unit: 'ms',
      rounds: runs.floor10.map((r) => r.p95),
    });
    report({
      bench: BENCH,
      measure: `issue p95 / floor p95, ${CLIENTS} clients`,
      unit: 'x',
      rounds: ratios,
      target: { op: '<=', value: TARGET_RATIO },
    });
    report({
      bench: BENCH,
      measure: 'issue, one client, p50',
      unit: 'ms',
      rounds: runs.issue1.map((r) => r.p50),
      target: { op: '<=', value: TARGET_ONE_P50_MS },
    });
  } finally {
    await service.close();
  }
}

await main();
