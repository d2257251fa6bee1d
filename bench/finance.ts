/**
 * Finance at scale on PostgreSQL, in two parts (BENCH_PART=ledger|reports|all, default all).
 *
 * Ledger: 1,000,000 journal entries of one business over three years. Latency of a journal page
 * (unfiltered, by date range, by account) and of the trial balance (targets p95: 20 ms for a page,
 * 50 ms filtered by account, 100 ms for the trial balance), then bill payment throughput with its
 * ledger posting under 50 connections, as a ratio against invoice payment (also posted) on the same run.
 * A few thousand entries are made through the API (bills, bill payments, invoices, invoice payments);
 * the rest are bulk-loaded with SQL in the same shapes, as an import would, with the per-row triggers
 * off and the per-day totals rebuilt from the lines afterwards; then VACUUM ANALYZE.
 *
 * Reports: 1,000,000 issued invoices of another business over three years with their ledger entries,
 * bulk-loaded the same way. p95 of the sales schedule for 12 months by month with its first page of
 * items and for three years by quarter (50 ms each), the revenue calculator (30 ms), the P&L for a year
 * (50 ms), and of issuing an invoice (posting, daily totals and VAT check) under 10 concurrent clients
 * (15 ms).
 *
 *   npm run build && npx tsx bench/finance.ts   (BENCH_PG_URL defaults to postgres://postgres@127.0.0.1:5432/postgres)
 *
 * BENCH_ENTRIES and BENCH_INVOICES (default 1000000 each), BENCH_ISSUES (default 2000), BENCH_ROUNDS
 * (default 3), BENCH_REQUESTS (per round and query, default 60), BENCH_SECONDS (per throughput round,
 * default 10), BENCH_CONNECTIONS (default 50); BENCH_KEEP_DB=1 keeps the scratch database.
 */
import autocannon from 'autocannon';
import pg from 'pg';
import { unwrap, type Client } from '../client/index.js';
import {
  benchService,
  itemAt,
  measureQueries,
  median,
  percentile,
  report,
  type BenchService,
  type Query,
  vatThresholdFarAway,
} from './support.js';

const PART = process.env.BENCH_PART ?? 'all';
const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 1_000_000);
const INVOICES = Number(process.env.BENCH_INVOICES ?? 1_000_000);
const ISSUES = Number(process.env.BENCH_ISSUES ?? 2_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 60);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const API_DOCUMENTS = 500;
const PAYABLE_DOCUMENTS = 5_000;
const API_PORT = 3834;
const BENCH = 'finance';

const ms = (n: number) => n.toFixed(2);

/** Runs `work` over `items` with `width` in flight. */
async function inParallel<T>(items: T[], width: number, work: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await work(itemAt(items, next++));
    }),
  );
}

/** Entries through the API: every document kind, dated over the three years. */
async function throughApi(client: Client, customerId: string): Promise<void> {
  const vendor = (await unwrap(client.finance.vendors.createVendor({ body: { name: 'Acme Supplies' } })))
    .vendor;
  const day = (i: number) =>
    new Date(Date.UTC(2024, 0, 1) + (i % 1096) * 86_400_000).toISOString().slice(0, 10);
  const indexes = Array.from({ length: API_DOCUMENTS }, (_, i) => i);
  await inParallel(indexes, 8, async (i) => {
    const bill = await unwrap(
      client.finance.bills.createBill({
        body: {
          vendor_id: vendor.id,
          items: [{ description: 'Supplies', quantity: 1 + (i % 5), unit_price: 1_999 }],
          currency: 'USD',
          issue_date: day(i),
          due_date: day(i + 30),
        },
      }),
    );
    await unwrap(
      client.finance.bills.payBill({
        params: { id: bill.bill_id },
        body: { amount: bill.bill.amount, payment_method: 'bank_transfer', payment_date: day(i + 20) },
      }),
    );
    const invoice = await unwrap(
      client.general.invoices.createInvoice({
        body: {
          customer_id: customerId,
          items: [{ description: 'Consulting', quantity: 1 + (i % 3), unit_price: 150, tax_rate: 20 }],
          issue_date: day(i),
          due_date: '2030-01-31',
        },
      }),
    );
    const issued = await unwrap(client.general.invoices.issueInvoice({ params: { id: invoice.data.id } }));
    await unwrap(
      client.general.invoices.createPayment({
        params: { id: invoice.data.id },
        body: { amount: issued.data.total, payment_method: 'card', payment_date: day(i + 10) },
      }),
    );
  });
}

/**
 * The rest of the entries straight into the tables, four shapes in turn (a bill, its payment, an
 * invoice with tax, its payment), with the per-row triggers off (`session_replication_role`), then
 * the per-day totals rebuilt from every line.
 */
async function bulkLoad(db: pg.Client, businessId: string, count: number): Promise<void> {
  await db.query('BEGIN');
  await db.query('SET LOCAL session_replication_role = replica');
  await db.query(
    `INSERT INTO finance_journal_entries (business_id, id, date, description, currency, source_type, source_id,
                                         line_count, created_at)
     SELECT $1, 'je_BENCH' || lpad(i::text, 22, '0'), date '2024-01-01' + (i % 1096), 'Bulk ' || i, 'USD',
            (ARRAY['bill', 'bill_payment', 'invoice', 'invoice_payment'])[1 + i % 4], 'bulk_' || i,
            CASE WHEN i % 4 = 2 THEN 3 ELSE 2 END,
            timestamptz '2024-01-01' + i * interval '1 minute'
     FROM generate_series(1, $2::int) AS i`,
    [businessId, count],
  );
  await db.query(
    `INSERT INTO finance_journal_lines (business_id, entry_id, line_no, account_code, date, currency, debit, credit,
                                   base_debit, base_credit)
     SELECT b, e, n, a, d, c, dr, cr, dr, cr FROM (
     SELECT $1, 'je_BENCH' || lpad(i::text, 22, '0'), l.line_no, l.account, date '2024-01-01' + (i % 1096), 'USD',
            l.debit, l.credit
     FROM generate_series(1, $2::int) AS i
     CROSS JOIN LATERAL (SELECT 1000 + (i % 997) * 10 AS amount) AS a
     CROSS JOIN LATERAL (
       SELECT * FROM (VALUES
         (0, 1, '5000', a.amount, 0), (0, 2, '2000', 0, a.amount),
         (1, 1, '2000', a.amount, 0), (1, 2, '1010', 0, a.amount),
         (2, 1, '1200', a.amount * 12 / 10, 0), (2, 2, '4000', 0, a.amount), (2, 3, '2200', 0, a.amount * 2 / 10),
         (3, 1, '1010', a.amount * 12 / 10, 0), (3, 2, '1200', 0, a.amount * 12 / 10)
       ) AS v (kind, line_no, account, debit, credit)
       WHERE v.kind = i % 4
     ) AS l
     ) AS base_currency_lines (b, e, n, a, d, c, dr, cr)`,
    [businessId, count],
  );
  await db.query('DELETE FROM finance_account_days WHERE business_id = $1', [businessId]);
  await db.query('DELETE FROM finance_entry_days WHERE business_id = $1', [businessId]);
  await db.query(
    `INSERT INTO finance_account_days (business_id, account_code, currency, date, debit, credit, entries,
                                       base_debit, base_credit)
     SELECT business_id, account_code, currency, date, sum(debit), sum(credit), count(DISTINCT entry_id),
            sum(base_debit), sum(base_credit)
     FROM finance_journal_lines WHERE business_id = $1
     GROUP BY business_id, account_code, currency, date`,
    [businessId],
  );
  await db.query(
    `INSERT INTO finance_entry_days (business_id, date, entries)
     SELECT business_id, date, count(*) FROM finance_journal_entries WHERE business_id = $1
     GROUP BY business_id, date`,
    [businessId],
  );
  await db.query('COMMIT');
  for (const table of [
    'finance_journal_entries',
    'finance_journal_lines',
    'finance_account_days',
    'finance_entry_days',
  ]) {
    await db.query(`VACUUM ANALYZE ${table}`);
  }
}

/** Pending bills and unpaid invoices, many, so that concurrent payments rarely meet on one row. */
async function payables(
  db: pg.Client,
  businessId: string,
  customerId: string,
  vendorId: string,
): Promise<void> {
  await db.query(
    `INSERT INTO finance_bills (business_id, id, vendor_id, status, currency, subtotal, amount, issue_date, due_date, created_at, updated_at)
     SELECT $1, 'bill_BENCH' || lpad(i::text, 21, '0'), $3, 'pending', 'USD', 100000000, 100000000, date '2026-01-01', date '2030-01-01', now(), now()
     FROM generate_series(1, $2::int) AS i`,
    [businessId, PAYABLE_DOCUMENTS, vendorId],
  );
  await db.query(
    `INSERT INTO invoices (business_id, id, number, customer_id, status, currency, issue_date, due_date,
                           subtotal_minor, tax_minor, total_minor, created_at, updated_at, issued_at)
     SELECT $1, 'inv_BENCH' || lpad(i::text, 22, '0'), 'BENCH-' || i, $3, 'unpaid', 'USD', date '2026-01-01',
            date '2030-01-01', 100000000, 0, 100000000, now(), now(), now()
     FROM generate_series(1, $2::int) AS i`,
    [businessId, PAYABLE_DOCUMENTS, customerId],
  );
  await db.query('VACUUM ANALYZE finance_bills');
  await db.query('VACUUM ANALYZE invoices');
}

interface Throughput {
  rps: number;
  p50: number;
  p99: number;
  failed: number;
}

async function payments(kind: 'bill' | 'invoice', token: string): Promise<Throughput> {
  const pick = () => String(1 + Math.floor(Math.random() * PAYABLE_DOCUMENTS));
  const result = await autocannon({
    url: `http://127.0.0.1:${API_PORT}`,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        setupRequest: (request) =>
          kind === 'bill'
            ? {
                ...request,
                path: `/v1/finance/bills/bill_BENCH${pick().padStart(21, '0')}/pay`,
                body: JSON.stringify({
                  amount: 1,
                  payment_method: 'bank_transfer',
                  payment_date: '2026-06-01',
                }),
              }
            : {
                ...request,
                path: `/v1/invoices/inv_BENCH${pick().padStart(22, '0')}/payments`,
                body: JSON.stringify({
                  amount: 0.01,
                  payment_method: 'bank_transfer',
                  payment_date: '2026-06-01',
                }),
              },
      },
    ],
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failed: result.non2xx + result.errors + result.timeouts,
  };
}

const measure = (what: string, queries: Query[]) => measureQueries(what, queries, ROUNDS, REQUESTS, BENCH);

/** The ledger part: journal pages and the trial balance at ENTRIES entries, then payment throughput. */
async function ledgerPart(
  client: Client,
  data: pg.Client,
  businessId: string,
  customerId: string,
  accessToken: string,
) {
  let started = performance.now();
  await throughApi(client, customerId);
  const viaApi = (await unwrap(client.finance.journal.listJournal({ query: { limit: 1 } }))).total_count;
  console.log(
    `${viaApi.toLocaleString('en')} entries through the API in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  started = performance.now();
  await bulkLoad(data, businessId, ENTRIES - viaApi);
  console.log(
    `bulk-loaded to ${ENTRIES.toLocaleString('en')} entries in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  const check = await unwrap(client.finance.journal.listJournal({ query: { limit: 50 } }));
  const balance = await unwrap(client.finance.accounts.getTrialBalance({ query: { as_of: '2026-12-31' } }));
  if (check.total_count !== ENTRIES || balance.data.total_debit !== balance.data.total_credit) {
    throw new Error(`counted ${check.total_count} entries; trial balance ${JSON.stringify(balance.data)}`);
  }

  const journal = (
    label: string,
    target: number,
    query: NonNullable<Parameters<Client['finance']['journal']['listJournal']>[0]>['query'],
  ) => ({
    label,
    target,
    send: () => unwrap(client.finance.journal.listJournal({ query })),
  });
  const queries: Query[] = [
    journal('journal, first page', 20, { limit: 50 }),
    journal('journal, offset 5,000', 20, { limit: 50, offset: 5000 }),
    journal('journal, one month', 20, { limit: 50, start_date: '2025-03-01', end_date: '2025-03-31' }),
    journal('journal, account 5000', 50, { limit: 50, account: '5000' }),
    journal('journal, account 1010, one quarter', 50, {
      limit: 50,
      account: '1010',
      start_date: '2025-04-01',
      end_date: '2025-06-30',
    }),
    journal('journal, account 2200, offset 2,000', 50, { limit: 50, account: '2200', offset: 2000 }),
    {
      label: 'trial balance, end of range',
      target: 100,
      send: () => unwrap(client.finance.accounts.getTrialBalance({ query: { as_of: '2026-12-31' } })),
    },
    {
      label: 'trial balance, mid 2025',
      target: 100,
      send: () => unwrap(client.finance.accounts.getTrialBalance({ query: { as_of: '2025-06-30' } })),
    },
  ];
  await measure(`${ENTRIES.toLocaleString('en')} entries`, queries);

  const vendorId = (await unwrap(client.finance.vendors.listVendors({ query: { limit: 1 } }))).vendors[0]?.id;
  if (!vendorId) throw new Error('no vendor');
  await payables(data, businessId, customerId, vendorId);
  // Warm-up, then bill and invoice payments alternately, so that both see the same machine.
  await payments('bill', accessToken);
  await payments('invoice', accessToken);
  const bills: Throughput[] = [];
  const invoices: Throughput[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    bills.push(await payments('bill', accessToken));
    invoices.push(await payments('invoice', accessToken));
  }
  const show = (label: string, runs: Throughput[]) =>
    console.log(
      `  ${label.padEnd(20)} ${runs.map((r) => r.rps.toFixed(0)).join(' / ')} req/s (median ${median(runs.map((r) => r.rps)).toFixed(0)}); ` +
        `p50 ${median(runs.map((r) => r.p50))} ms, p99 ${median(runs.map((r) => r.p99))} ms; failed ${runs.reduce((n, r) => n + r.failed, 0)}`,
    );
  console.log(
    `\nPayments under ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s each, alternating:`,
  );
  show('bill payment', bills);
  show('invoice payment', invoices);
  const ratios = bills.map((b, i) => b.rps / itemAt(invoices, i).rps);
  console.log(
    `  ratio bill / invoice per round: ${ratios.map((r) => r.toFixed(2)).join(', ')} (median ${median(ratios).toFixed(2)})`,
  );
  report({ bench: BENCH, measure: 'bill payment', unit: 'req/s', rounds: bills.map((r) => r.rps) });
  report({ bench: BENCH, measure: 'invoice payment', unit: 'req/s', rounds: invoices.map((r) => r.rps) });
  report({ bench: BENCH, measure: 'bill / invoice payment req/s', unit: 'x', rounds: ratios });
}

/**
 * The reports part: INVOICES issued invoices of another business over 2024-2026 (with their ledger
 * entries and bills' expenses), bulk-loaded; the sales schedule, the revenue calculator and the P&L,
 * then issuing invoices (posting, daily totals and the VAT check included) under 10 concurrent clients.
 */
async function reportsPart(service: BenchService): Promise<void> {
  const { data } = service;
  const { businessId, client } = await service.register('Bench reports');
  const customers: string[] = [];
  for (let i = 0; i < 20; i++) {
    customers.push(
      (await unwrap(client.general.customers.createCustomer({ body: { name: `Client ${i}` } }))).data.id,
    );
  }
  await vatThresholdFarAway(client);

  let started = performance.now();
  await data.query('BEGIN');
  await data.query('SET LOCAL session_replication_role = replica');
  // Invoices: one in 50 void, one in 3 paid, the rest unpaid; net 10.00-99.99 USD, 20% tax.
  await data.query(
    `INSERT INTO invoices (business_id, id, number, customer_id, status, currency, issue_date, due_date, subtotal_minor,
                           tax_minor, total_minor, amount_paid_minor, created_at, updated_at, issued_at)
     SELECT $1, 'inv_RPT' || lpad(i::text, 23, '0'), 'INV-' || lpad(i::text, 7, '0'), ($3::text[])[1 + i % 20],
            CASE WHEN i % 50 = 0 THEN 'void' WHEN i % 3 = 0 THEN 'paid' ELSE 'unpaid' END, 'USD',
            date '2024-01-01' + (i % 1096), date '2024-01-31' + (i % 1096), s, s / 5, s + s / 5,
            CASE WHEN i % 50 <> 0 AND i % 3 = 0 THEN s + s / 5 ELSE 0 END, now(), now(), now()
     FROM generate_series(1, $2::int) AS i, LATERAL (SELECT 1000 + (i::bigint * 7919) % 9000 AS s) AS a`,
    [businessId, INVOICES, customers],
  );
  // Their ledger entries (issued: Dr 1200 / Cr 4000 / Cr 2200), and a bill's expense for every tenth.
  await data.query(
    `INSERT INTO finance_journal_entries (business_id, id, date, description, currency, source_type, source_id, line_count, created_at)
     SELECT business_id, 'je_RPT' || substr(id, 8), issue_date, 'Invoice ' || number, 'USD', 'invoice', id, 3, now()
     FROM invoices WHERE business_id = $1 AND status <> 'void'`,
    [businessId],
  );
  await data.query(
    `INSERT INTO finance_journal_lines (business_id, entry_id, line_no, account_code, date, currency, debit, credit,
                                   base_debit, base_credit)
     SELECT b, e, n, a, d, c, dr, cr, dr, cr FROM (
     SELECT i.business_id, 'je_RPT' || substr(i.id, 8), l.n, l.account, i.issue_date, 'USD', l.debit, l.credit
     FROM invoices i
     CROSS JOIN LATERAL (VALUES (1, '1200', i.total_minor, 0::bigint), (2, '4000', 0, i.subtotal_minor),
                                (3, '2200', 0, i.tax_minor)) AS l (n, account, debit, credit)
     WHERE i.business_id = $1 AND i.status <> 'void'
     ) AS base_currency_lines (b, e, n, a, d, c, dr, cr)`,
    [businessId],
  );
  await data.query(
    `INSERT INTO finance_journal_entries (business_id, id, date, description, currency, source_type, source_id, line_count, created_at)
     SELECT $1, 'je_RPTB' || lpad(i::text, 22, '0'), date '2024-01-01' + (i % 1096), 'Bill', 'USD', 'bill', 'bulk_' || i, 2, now()
     FROM generate_series(1, $2::int / 10) AS i`,
    [businessId, INVOICES],
  );
  await data.query(
    `INSERT INTO finance_journal_lines (business_id, entry_id, line_no, account_code, date, currency, debit, credit,
                                   base_debit, base_credit)
     SELECT b, e, n, a, d, c, dr, cr, dr, cr FROM (
     SELECT $1, 'je_RPTB' || lpad(i::text, 22, '0'), l.n, l.account, date '2024-01-01' + (i % 1096), 'USD', l.debit, l.credit
     FROM generate_series(1, $2::int / 10) AS i
     CROSS JOIN LATERAL (VALUES (1, '5000', 20000::bigint, 0::bigint), (2, '2000', 0, 20000)) AS l (n, account, debit, credit)
     ) AS base_currency_lines (b, e, n, a, d, c, dr, cr)`,
    [businessId, INVOICES],
  );
  // The per-day totals the triggers would have kept, rebuilt from the rows.
  await data.query(
    `INSERT INTO finance_sales_days (business_id, currency, date, slot, revenue, invoices)
     SELECT business_id, currency, issue_date, 0, sum(subtotal_minor), count(*) FROM invoices
     WHERE business_id = $1 AND status IN ('unpaid', 'paid') GROUP BY business_id, currency, issue_date`,
    [businessId],
  );
  await data.query(
    `INSERT INTO finance_account_days (business_id, account_code, currency, date, debit, credit, entries,
                                       base_debit, base_credit)
     SELECT business_id, account_code, currency, date, sum(debit), sum(credit), count(DISTINCT entry_id),
            sum(base_debit), sum(base_credit)
     FROM finance_journal_lines WHERE business_id = $1 GROUP BY business_id, account_code, currency, date`,
    [businessId],
  );
  await data.query(
    `INSERT INTO finance_entry_days (business_id, date, entries)
     SELECT business_id, date, count(*) FROM finance_journal_entries WHERE business_id = $1 GROUP BY business_id, date`,
    [businessId],
  );
  await data.query('COMMIT');
  for (const table of [
    'invoices',
    'customers',
    'finance_sales_days',
    'finance_journal_entries',
    'finance_journal_lines',
    'finance_account_days',
    'finance_entry_days',
  ]) {
    await data.query(`VACUUM ANALYZE ${table}`);
  }
  console.log(
    `\nbulk-loaded ${INVOICES.toLocaleString('en')} invoices with their ledger entries in ` +
      `${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  const year = await unwrap(
    client.finance.reports.getSalesSchedule({
      query: { startDate: '2024-01-01', endDate: '2026-12-31', groupBy: 'year' },
    }),
  );
  if (year.data.summary.totalInvoices !== INVOICES - Math.floor(INVOICES / 50)) {
    throw new Error(`the schedule counted ${year.data.summary.totalInvoices} invoices`);
  }

  const reports = client.finance.reports;
  const queries: Query[] = [
    {
      label: 'sales schedule, 2026 by month (+1,000 items)',
      target: 50,
      send: () =>
        unwrap(reports.getSalesSchedule({ query: { startDate: '2026-01-01', endDate: '2026-12-31' } })),
    },
    {
      label: 'sales schedule, 2024-2026 by quarter',
      target: 50,
      send: () =>
        unwrap(
          reports.getSalesSchedule({
            query: { startDate: '2024-01-01', endDate: '2026-12-31', groupBy: 'quarter' },
          }),
        ),
    },
    {
      label: 'revenue calculator',
      target: 30,
      send: () => unwrap(reports.getRevenueCalculator({ query: { asOfDate: '2026-11-23' } })),
    },
    {
      label: 'profit and loss, 2025',
      target: 50,
      send: () =>
        unwrap(reports.getProfitLoss({ query: { start_date: '2025-01-01', end_date: '2025-12-31' } })),
    },
  ];
  await measure(`${INVOICES.toLocaleString('en')} invoices`, queries);

  // Drafts to issue, then rounds of: 10 clients issuing them as fast as they are answered, one
  // client issuing alone, and the floor (10 clients reading one invoice, the cheapest authenticated
  // request) side by side.
  const drafts: string[] = [];
  const perRound = Math.floor(ISSUES / ROUNDS);
  started = performance.now();
  await inParallel(
    Array.from({ length: perRound * ROUNDS + ROUNDS * 50 }, (_, i) => i),
    8,
    async (i) => {
      const draft = await unwrap(
        client.general.invoices.createInvoice({
          body: {
            customer_id: itemAt(customers, i % customers.length),
            items: [{ description: 'Consulting', quantity: 2, unit_price: 150, tax_rate: 20 }],
            due_date: '2030-01-31',
          },
        }),
      );
      drafts.push(draft.data.id);
    },
  );
  await data.query('VACUUM ANALYZE invoices');
  let failed = 0;
  const issue = async () => {
    const id = drafts.pop();
    if (id === undefined) throw new Error('no draft left to issue');
    const res = await client.general.invoices.issueInvoice({ params: { id } });
    if (res.status !== 200) failed++;
  };
  const readOne = itemAt(drafts, 0);
  const read = async () => {
    const res = await client.general.invoices.getInvoice({ params: { id: readOne } });
    if (res.status !== 200) failed++;
  };
  const runs = { issue10: [] as Run[], issue1: [] as Run[], floor10: [] as Run[] };
  for (let round = 0; round < ROUNDS; round++) {
    runs.issue10.push(await clients(10, perRound, issue));
    runs.issue1.push(await clients(1, 50, issue));
    runs.floor10.push(await clients(10, perRound, read));
  }
  console.log(
    `\nissuing invoices (posting, daily totals and VAT check), ${ROUNDS} rounds (median, spread min-max):`,
  );
  const show = (label: string, list: Run[], target?: number) => {
    const p95 = median(list.map((r) => r.p95));
    console.log(
      `  ${label.padEnd(44)} ${median(list.map((r) => r.perSecond))
        .toFixed(0)
        .padStart(4)}/s  ` +
        `p50 ${ms(median(list.map((r) => r.p50)))} ms  p95 ${ms(p95)} ms ` +
        `(${ms(Math.min(...list.map((r) => r.p95)))}-${ms(Math.max(...list.map((r) => r.p95)))})` +
        (target === undefined ? '' : `  target ${target} ms: ${p95 <= target ? 'met' : 'NOT met'}`),
    );
  };
  show(`issue, 10 concurrent clients (${perRound}/round)`, runs.issue10, 15);
  show('issue, one client (50/round)', runs.issue1);
  show('floor: read one invoice, 10 concurrent clients', runs.floor10);
  if (failed > 0) throw new Error(`${failed} requests failed`);
  report({
    bench: BENCH,
    measure: 'issue, 10 concurrent clients, p95',
    unit: 'ms',
    rounds: runs.issue10.map((r) => r.p95),
    target: { op: '<=', value: 15 },
  });
  report({
    bench: BENCH,
    measure: 'issue, 10 concurrent clients, throughput',
    unit: '/s',
    rounds: runs.issue10.map((r) => r.perSecond),
  });
  report({
    bench: BENCH,
    measure: 'issue, one client, p50',
    unit: 'ms',
    rounds: runs.issue1.map((r) => r.p50),
  });
  report({
    bench: BENCH,
    measure: 'floor: read one invoice, 10 clients, p95',
    unit: 'ms',
    rounds: runs.floor10.map((r) => r.p95),
  });
}

interface Run {
  perSecond: number;
  p50: number;
  p95: number;
}

/** `total` calls of `send` by `width` clients, each sending its next as soon as one is answered. */
async function clients(width: number, total: number, send: () => Promise<void>): Promise<Run> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next++ < total) {
        const t = performance.now();
        await send();
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { perSecond: total / seconds, p50: percentile(latencies, 50), p95: percentile(latencies, 95) };
}

const service = await benchService(API_PORT);
try {
  const { businessId, accessToken, client } = await service.register();
  const customer = (await unwrap(client.general.customers.createCustomer({ body: { name: 'Ada Lovelace' } })))
    .data;
  if (PART !== 'reports') await ledgerPart(client, service.data, businessId, customer.id, accessToken);
  if (PART !== 'ledger') await reportsPart(service);
} finally {
  await service.close();
}
