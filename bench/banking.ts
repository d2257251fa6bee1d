/**
 * Banking on PostgreSQL (docs/decisions.md D272, D273): importing a bank statement and the
 * suggestions for one of its lines, in a business with many open invoices. Targets: a 10,000-line
 * CSV statement imported within 5 s; a line's suggestions answered with p95 <= 30 ms while the
 * business has 100,000 open invoices. The median of BENCH_ROUNDS rounds (default 3).
 *
 * Setup, not timed: one business (USD), bulk-loaded with SQL: 2,000 customers, 100,000 issued and
 * unpaid invoices (amounts from a fixed seed: 40% priced in 0.50 steps from 10 to 5,000 USD plus 20%
 * tax, so that many invoices owe the same amount, the rest any cents from 5 to 25,000 USD), 200
 * vendors with 5,000 pending bills, 10,000 entries of money in and out of 1010 Bank not reconciled;
 * three bank rules through the API; then VACUUM ANALYZE and a warm-up (a 1,000-line statement into a
 * bank account of its own, imported twice, and 100 lines' suggestions).
 *
 * Each round, a new bank account (POST /v1/finance/bank-accounts, USD) and a statement of its own
 * (seeded by the round) of BENCH_LINES lines (default 10,000) over 92 days (Date, Details, Amount,
 * Reference): 20% pay an open invoice's amount and name its number (written INV-012345, INV012345 or
 * INV 12345), 20% pay an invoice's amount without naming it, 5% name an invoice and pay part of it, 10%
 * other money in (payouts, some of which a rule books), 5% money the ledger already holds on 1010,
 * 10% pay a bill's amount and name its vendor, 30% other money out (card spending, fees). Timed:
 *
 *   dry run      the file read and checked against the account, nothing written (the reading's share)
 *   import       POST .../statements: every line new (counts.imported = lines)
 *   re-import    the same file again: every line a duplicate (imported 0, duplicates = lines)
 *   suggestions  GET /v1/finance/bank-transactions/{id}/suggestions for BENCH_SUGGESTIONS (default
 *                500) different lines of the import, one at a time (keep-alive), p50/p95/p99
 *
 * Checked (a failed check ends the benchmark with exit code 1: a wrong figure is no figure): the
 * counts of each import; every sampled line that pays an invoice's or a bill's exact amount gets a
 * suggestion of that document kind for that amount. Reported, not held: how often the invoice a line
 * names and pays in full is the first suggestion (score 95).
 *
 *   npm run build && npm run bench -- banking   (or npx tsx bench/banking.ts; BENCH_PG_URL defaults to
 *                                                postgres://postgres@127.0.0.1:5432/postgres)
 *
 * BENCH_ROUNDS (default 3), BENCH_INVOICES (default 100000), BENCH_LINES (default 10000),
 * BENCH_SUGGESTIONS (default 500); BENCH_KEEP_DB=1 keeps the scratch database.
 */
import { Agent, request } from 'node:http';
import { unwrap, type Client } from '../client/index.js';
import {
  benchService,
  budgetMissed,
  itemAt,
  median,
  percentile,
  report,
  type BenchService,
} from './support.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const INVOICES = Number(process.env.BENCH_INVOICES ?? 100_000);
const LINES = Number(process.env.BENCH_LINES ?? 10_000);
const SUGGESTIONS = Number(process.env.BENCH_SUGGESTIONS ?? 500);
const CUSTOMERS = 2_000;
const VENDORS = 200;
const BILLS = 5_000;
const LEDGER_ENTRIES = 10_000;
const WARM_UP_LINES = 1_000;
const WARM_UP_SUGGESTIONS = 100;
const DAYS = 92;
const SEED = 20261129;
const PORT = 3871;
const BENCH = 'banking';
const TARGET_IMPORT_SECONDS = 5;
const TARGET_SUGGESTIONS_P95_MS = 30;
const MAPPING = JSON.stringify({
  date: 'Date',
  description: 'Details',
  amount: 'Amount',
  reference: 'Reference',
});

const spread = (values: number[], digits: number) =>
  `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}-${Math.max(...values).toFixed(digits)})`;

/** A seeded pseudo-random source in [0, 1) (mulberry32): the same data on every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A value between `low` and `high` spread evenly on a log scale (amounts: many small, few large). */
const logUniform = (rand: () => number, low: number, high: number) => low * (high / low) ** rand();

const pad = (n: number, width: number) => String(n).padStart(width, '0');
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/* The business's data, known to the bench so that statement lines can pay it. */

const COMPANY = [
  'Acme',
  'Globex',
  'Initech',
  'Umbrella',
  'Hooli',
  'Vandelay',
  'Wayne',
  'Stark',
  'Wonka',
  'Soylent',
];
const TRADE = ['Trading', 'Holdings', 'Foods', 'Studio', 'Logistics', 'Partners', 'Retail', 'Works'];
const customerName = (c: number) => `${COMPANY[c % 10]} ${TRADE[Math.floor(c / 10) % 8]} ${c}`;
const vendorName = (v: number) =>
  `${['Northwind', 'Contoso', 'Fabrikam', 'Tailspin', 'Litware'][v % 5]} Supplies ${v}`;
/** Invoice k (0-based): its number, id and customer. */
const invoiceNumber = (k: number) => `INV-${pad(k + 1, 6)}`;
const invoiceId = (k: number) => `inv_BANK${pad(k + 1, 22)}`;
const invoiceCustomer = (k: number) => (k + 1) % CUSTOMERS;

interface Books {
  /** Each open invoice's subtotal and tax (minor units). */
  subtotals: number[];
  taxes: number[];
  /** Each pending bill's amount (minor units). */
  bills: number[];
  /** Each 1010 Bank ledger entry's signed amount on 1010 (money in positive) and description. */
  ledger: { amount: number; description: string }[];
}

function books(): Books {
  const rand = seeded(SEED);
  const subtotals: number[] = [];
  const taxes: number[] = [];
  for (let k = 0; k < INVOICES; k++) {
    if (rand() < 0.4) {
      // Priced: 10.00 to 5,000.00 USD in steps of 0.50, 20% tax (whole cents).
      const subtotal = 50 * Math.round(logUniform(rand, 1_000, 500_000) / 50);
      subtotals.push(subtotal);
      taxes.push(subtotal / 5);
    } else {
      const total = Math.round(logUniform(rand, 500, 2_500_000));
      const subtotal = Math.round(total / 1.2);
      subtotals.push(subtotal);
      taxes.push(total - subtotal);
    }
  }
  const bills = Array.from({ length: BILLS }, () => Math.round(logUniform(rand, 1_000, 1_000_000)));
  const ledger = Array.from({ length: LEDGER_ENTRIES }, (_, j) => {
    const amount = Math.round(logUniform(rand, 500, 500_000));
    return j % 2 === 0
      ? { amount, description: `Cash sales banked ${j}` }
      : { amount: -amount, description: `Supplier paid by transfer ${j}` };
  });
  return { subtotals, taxes, bills, ledger };
}

/** Customers, open invoices, vendors and pending bills, and 1010 Bank entries, straight into the tables. */
async function load(service: BenchService, businessId: string, b: Books): Promise<void> {
  const { data } = service;
  await data.query('BEGIN');
  // The per-row triggers (and foreign keys) off, as the other benches load; the per-day totals are
  // rebuilt from the lines below.
  await data.query('SET LOCAL session_replication_role = replica');
  await data.query(
    `INSERT INTO customers (business_id, id, name, email, company, created_at, updated_at)
     SELECT $1, 'cus_BANK' || lpad(i::text, 22, '0'), n.name, 'customer' || i || '@example.test', n.name, now(), now()
     FROM unnest($2::text[]) WITH ORDINALITY AS n (name, i)`,
    [businessId, Array.from({ length: CUSTOMERS }, (_, c) => customerName(c))],
  );
  // Issued over the last 180 days, due 30 days later, nothing paid or credited.
  await data.query(
    `INSERT INTO invoices (business_id, id, number, customer_id, status, currency, issue_date, due_date,
                           subtotal_minor, tax_minor, total_minor, amount_paid_minor, amount_credited_minor,
                           created_at, updated_at, issued_at, deleted_at)
     SELECT $1, 'inv_BANK' || lpad(i::text, 22, '0'), 'INV-' || lpad(i::text, 6, '0'),
            'cus_BANK' || lpad((1 + i % $2::int)::text, 22, '0'), 'unpaid', 'USD', d.issued, d.issued + 30,
            a.s, a.t, a.s + a.t, 0, 0, d.issued::timestamptz, d.issued::timestamptz, d.issued::timestamptz, NULL
     FROM unnest($3::bigint[], $4::bigint[]) WITH ORDINALITY AS a (s, t, i)
     CROSS JOIN LATERAL (SELECT current_date - (i % 180)::int AS issued) AS d`,
    [businessId, CUSTOMERS, b.subtotals, b.taxes],
  );
  await data.query(
    `INSERT INTO finance_vendors (business_id, id, name, currency, created_at, updated_at)
     SELECT $1, 'ven_BANK' || lpad(i::text, 22, '0'), n.name, 'USD', now(), now()
     FROM unnest($2::text[]) WITH ORDINALITY AS n (name, i)`,
    [businessId, Array.from({ length: VENDORS }, (_, v) => vendorName(v))],
  );
  await data.query(
    `INSERT INTO finance_bills (business_id, id, vendor_id, status, currency, subtotal, amount, amount_paid,
                                issue_date, due_date, created_at, updated_at)
     SELECT $1, 'bill_BANK' || lpad(i::text, 21, '0'), 'ven_BANK' || lpad((1 + (i - 1) % $2::int)::text, 22, '0'),
            'pending', 'USD', a.amount, a.amount, 0, current_date - (i % 90)::int, current_date - (i % 90)::int + 30, now(), now()
     FROM unnest($3::bigint[]) WITH ORDINALITY AS a (amount, i)`,
    [businessId, VENDORS, b.bills],
  );
  // Money in (Dr 1010 / Cr 4000) and out (Dr 5000 / Cr 1010) over the statement's days.
  await data.query(
    `INSERT INTO finance_journal_entries (business_id, id, date, description, currency, source_type, source_id,
                                         line_count, created_at)
     SELECT $1, 'je_BANK' || lpad(i::text, 23, '0'), current_date - (i % $3::int)::int, a.description, 'USD', 'manual',
            'bank_bench_' || i, 2, now()
     FROM unnest($2::text[]) WITH ORDINALITY AS a (description, i)`,
    [businessId, b.ledger.map((l) => l.description), DAYS],
  );
  await data.query(
    `INSERT INTO finance_journal_lines (business_id, entry_id, line_no, account_code, date, currency, debit, credit,
                                   base_debit, base_credit)
     SELECT b, e, n, a, d, c, dr, cr, dr, cr FROM (
     SELECT $1, 'je_BANK' || lpad(a.i::text, 23, '0'), l.line_no, l.account, current_date - (a.i % $3::int)::int, 'USD',
            l.debit, l.credit
     FROM unnest($2::bigint[]) WITH ORDINALITY AS a (amount, i)
     CROSS JOIN LATERAL (
       SELECT * FROM (VALUES
         (true, 1, '1010', a.amount, 0::bigint), (true, 2, '4000', 0::bigint, a.amount),
         (false, 1, '5000', -a.amount, 0::bigint), (false, 2, '1010', 0::bigint, -a.amount)
       ) AS v (money_in, line_no, account, debit, credit)
       WHERE v.money_in = (a.amount > 0)
     ) AS l
     ) AS base_currency_lines (b, e, n, a, d, c, dr, cr)`,
    [businessId, b.ledger.map((l) => l.amount), DAYS],
  );
  await data.query('DELETE FROM finance_account_days WHERE business_id = $1', [businessId]);
  await data.query('DELETE FROM finance_entry_days WHERE business_id = $1', [businessId]);
  await data.query(
    `INSERT INTO finance_account_days (business_id, account_code, currency, date, debit, credit, entries,
                                       base_debit, base_credit)
     SELECT business_id, account_code, currency, date, sum(debit), sum(credit), count(DISTINCT entry_id),
            sum(base_debit), sum(base_credit)
     FROM finance_journal_lines WHERE business_id = $1
     GROUP BY business_id, account_code, currency, date`,
    [businessId],
  );
  await data.query(
    `INSERT INTO finance_entry_days (business_id, date, entries)
     SELECT business_id, date, count(*) FROM finance_journal_entries WHERE business_id = $1
     GROUP BY business_id, date`,
    [businessId],
  );
  await data.query('COMMIT');
  const { rows } = await data.query<{ open: number }>(
    `SELECT count(*)::int AS open FROM invoices WHERE business_id = $1 AND status = 'unpaid' AND deleted_at IS NULL`,
    [businessId],
  );
  if (rows[0]?.open !== INVOICES) throw new Error(`${rows[0]?.open} open invoices loaded, not ${INVOICES}`);
}

/** Rules as a business sets them up: fees and payouts booked to an account on import. */
async function rules(client: Client): Promise<void> {
  for (const body of [
    { description_contains: 'monthly fee', direction: 'out' as const, account_code: '5000' },
    { description_contains: 'card fee', direction: 'out' as const, max_amount: 5_000, account_code: '5000' },
    { description_contains: 'stripe payout', direction: 'in' as const, account_code: '1030' },
  ]) {
    await unwrap(client.finance.bankRules.createBankRule({ body }));
  }
}

/* The statement. */

type Kind = 'invoice named' | 'invoice' | 'part payment' | 'other in' | 'ledger' | 'bill' | 'other out';

/** A statement line as written to the file, with what it was made to pay. */
interface Planned {
  date: string;
  details: string;
  amount: number;
  reference: string;
  kind: Kind;
  /** The invoice (index) it names and pays in full. */
  invoice?: number;
}

const KINDS: [Kind, number][] = [
  ['invoice named', 0.2],
  ['invoice', 0.2],
  ['part payment', 0.05],
  ['other in', 0.1],
  ['ledger', 0.05],
  ['bill', 0.1],
  ['other out', 0.3],
];

const MERCHANTS = [
  'TESCO STORES',
  'AMAZON MKTPLACE',
  'SHELL 4471',
  'OFFICE DEPOT',
  'UBER TRIP',
  'AWS EMEA',
  'ZOOM.US',
];

/** The lines of a statement of `count` lines over the DAYS days to yesterday, seeded: by date. */
function statement(b: Books, count: number, seed: number): Planned[] {
  const rand = seeded(seed);
  const pick = (n: number) => Math.floor(rand() * n);
  const lines: Planned[] = [];
  for (let i = 0; i < count; i++) {
    let r = rand();
    let kind: Kind = 'other out';
    for (const [k, share] of KINDS) {
      if (r < share) {
        kind = k;
        break;
      }
      r -= share;
    }
    const date = day(-DAYS + pick(DAYS));
    // Seven lines in ten carry the bank's reference; the rest are told apart by date and amount.
    const reference = rand() < 0.7 ? `FP${date.replaceAll('-', '')}${pad(i, 6)}` : '';
    const k = pick(INVOICES);
    const total = itemAt(b.subtotals, k) + itemAt(b.taxes, k);
    const customer = customerName(invoiceCustomer(k)).toUpperCase();
    const written = [invoiceNumber(k), invoiceNumber(k).replace('-', ''), `INV ${k + 1}`][pick(3)]!;
    let line: Omit<Planned, 'date' | 'reference' | 'kind'>;
    switch (kind) {
      case 'invoice named':
        line = { details: `BGC ${customer} ${written}`, amount: total, invoice: k };
        break;
      case 'invoice':
        line = { details: `FASTER PAYMENT FROM ${customer}`, amount: total };
        break;
      case 'part payment':
        line = { details: `${customer} PART PAYMENT ${written}`, amount: Math.max(1, Math.round(total / 2)) };
        break;
      case 'other in':
        line =
          rand() < 0.5
            ? {
                details: `STRIPE PAYOUT ${pad(pick(1e6), 6)}`,
                amount: Math.round(logUniform(rand, 1_000, 2_000_000)),
              }
            : {
                details: `CASH DEPOSIT BRANCH ${pick(400)}`,
                amount: Math.round(logUniform(rand, 500, 300_000)),
              };
        break;
      case 'ledger': {
        const entry = itemAt(b.ledger, pick(LEDGER_ENTRIES));
        line = { details: `TRANSFER ${entry.description.toUpperCase()}`, amount: entry.amount };
        break;
      }
      case 'bill': {
        const j = pick(BILLS);
        line = {
          details: `DIRECT DEBIT ${vendorName(j % VENDORS).toUpperCase()}`,
          amount: -itemAt(b.bills, j),
        };
        break;
      }
      default: {
        const fee = rand();
        line =
          fee < 0.05
            ? { details: 'MONTHLY FEE', amount: -1_500 }
            : fee < 0.15
              ? { details: 'CARD FEE', amount: -Math.round(logUniform(rand, 10, 3_000)) }
              : {
                  details: `CARD PAYMENT TO ${MERCHANTS[pick(MERCHANTS.length)]} ${pick(10_000)}`,
                  amount: -Math.round(logUniform(rand, 200, 200_000)),
                };
      }
    }
    lines.push({ date, reference, kind, ...line });
  }
  return lines.sort((a, b2) => a.date.localeCompare(b2.date));
}

const amountText = (minor: number) =>
  `${minor < 0 ? '-' : ''}${Math.floor(Math.abs(minor) / 100)}.${pad(Math.abs(minor) % 100, 2)}`;

/** The statement as the bank's CSV: a header row, then a row per line (line i of the array is line i + 2). */
const csvOf = (lines: Planned[]) =>
  [
    'Date,Details,Amount,Reference',
    ...lines.map((l) => `${l.date},${l.details},${amountText(l.amount)},${l.reference}`),
  ]
    .join('\r\n')
    .concat('\r\n');

/* The requests. */

interface ImportReport {
  counts: { lines: number; imported: number; duplicates: number; refused: number; suggested: number };
}

/** POST the statement as the body; its report and the time it took (s). */
async function importStatement(
  service: BenchService,
  token: string,
  accountId: string,
  csv: string,
  dryRun = false,
): Promise<{ report: ImportReport; seconds: number }> {
  const query = new URLSearchParams({ mapping: MAPPING, ...(dryRun ? { dry_run: 'true' } : {}) });
  const began = performance.now();
  const res = await fetch(
    `${service.baseUrl}/v1/finance/bank-accounts/${accountId}/statements?${query.toString()}`,
    {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
      body: csv,
    },
  );
  const text = await res.text();
  const seconds = (performance.now() - began) / 1000;
  if (res.status !== 200)
    throw new Error(`the statement import answered ${res.status}: ${text.slice(0, 500)}`);
  return { report: (JSON.parse(text) as { report: ImportReport }).report, seconds };
}

function expectCounts(what: string, got: ImportReport, imported: number, duplicates: number): void {
  const c = got.counts;
  if (
    c.imported !== imported ||
    c.duplicates !== duplicates ||
    c.refused !== 0 ||
    c.lines !== imported + duplicates
  ) {
    throw new Error(
      `${what}: counts ${JSON.stringify(c)}, expected ${imported} imported, ${duplicates} duplicates, none refused`,
    );
  }
}

interface Suggestion {
  kind: string;
  score: number;
  amount: number;
  invoice_id: string | null;
  bill_id: string | null;
}

/** One GET over a kept-alive connection: its status and JSON body. */
function getJson(agent: Agent, url: URL, token: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'GET', agent, headers: { authorization: `Bearer ${token}` } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          try {
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) });
          } catch {
            resolve({ status: res.statusCode ?? 0, body: text });
          }
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** The imported lines of the account with what each was made to pay, shuffled (seeded), `count` of them. */
async function sampleLines(
  service: BenchService,
  businessId: string,
  accountId: string,
  planned: Planned[],
  count: number,
  seed: number,
): Promise<{ id: string; line: Planned }[]> {
  const { rows } = await service.data.query<{ id: string; line_no: number }>(
    'SELECT id, line_no FROM finance_bank_transactions WHERE business_id = $1 AND bank_account_id = $2 ORDER BY line_no',
    [businessId, accountId],
  );
  if (rows.length !== planned.length)
    throw new Error(`${rows.length} lines in the account, ${planned.length} imported`);
  const all = rows.map((r) => ({ id: r.id, line: itemAt(planned, r.line_no - 2) }));
  const rand = seeded(seed);
  for (let i = all.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [all[i], all[j]] = [all[j]!, all[i]!];
  }
  return all.slice(0, count);
}

interface SuggestionRun {
  latencies: number[];
  /** Lines paying an invoice's or bill's exact amount without such a suggestion. */
  missed: string[];
  /** Lines naming an invoice and paying it in full: how many, and how many had it first at 95. */
  named: number;
  namedFirst: number;
  /** Answers with no suggestion at all, and suggestions per answer. */
  empty: number;
  suggestions: number;
}

/** The suggestions of each line, one request at a time, timed and checked. */
async function suggestions(
  service: BenchService,
  token: string,
  sample: { id: string; line: Planned }[],
): Promise<SuggestionRun> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const run: SuggestionRun = { latencies: [], missed: [], named: 0, namedFirst: 0, empty: 0, suggestions: 0 };
  try {
    for (const { id, line } of sample) {
      const url = new URL(`${service.baseUrl}/v1/finance/bank-transactions/${id}/suggestions`);
      const began = performance.now();
      const res = await getJson(agent, url, token);
      run.latencies.push(performance.now() - began);
      if (res.status !== 200)
        throw new Error(`suggestions of ${id} answered ${res.status}: ${JSON.stringify(res.body)}`);
      const list = (res.body as { suggestions?: Suggestion[] }).suggestions;
      if (!Array.isArray(list))
        throw new Error(`suggestions of ${id}: no list in ${JSON.stringify(res.body)}`);
      run.suggestions += list.length;
      if (list.length === 0) run.empty++;
      const exact = (kind: string) => list.some((s) => s.kind === kind && s.amount === Math.abs(line.amount));
      if ((line.kind === 'invoice' || line.kind === 'invoice named') && !exact('invoice')) {
        run.missed.push(`${id} (${line.kind}, ${line.amount})`);
      }
      if (line.kind === 'bill' && !exact('bill')) run.missed.push(`${id} (bill, ${line.amount})`);
      if (line.kind === 'invoice named' && line.invoice !== undefined) {
        run.named++;
        if (list[0]?.invoice_id === invoiceId(line.invoice) && list[0].score === 95) run.namedFirst++;
      }
    }
  } finally {
    agent.destroy();
  }
  run.latencies.sort((a, b) => a - b);
  return run;
}

/* The rounds. */

async function bankAccount(client: Client, name: string) {
  return (
    await unwrap(
      client.finance.bankAccounts.createBankAccount({
        body: { name, currency: 'USD', opening_balance: 1_000_000, opening_date: day(-DAYS - 1) },
      }),
    )
  ).bank_account;
}

interface RoundResult {
  dryRun: number;
  import: number;
  reimport: number;
  p50: number;
  p95: number;
  p99: number;
  namedFirst: number;
}

async function round(
  service: BenchService,
  ctx: { businessId: string; token: string; client: Client; books: Books },
  n: number,
): Promise<RoundResult> {
  const account = await bankAccount(ctx.client, `Round ${n}`);
  const planned = statement(ctx.books, LINES, SEED + n);
  const csv = csvOf(planned);

  const dry = await importStatement(service, ctx.token, account.id, csv, true);
  expectCounts(`round ${n}, dry run`, dry.report, LINES, 0);
  const first = await importStatement(service, ctx.token, account.id, csv);
  expectCounts(`round ${n}, import`, first.report, LINES, 0);
  const again = await importStatement(service, ctx.token, account.id, csv);
  expectCounts(`round ${n}, re-import`, again.report, 0, LINES);

  const sample = await sampleLines(service, ctx.businessId, account.id, planned, SUGGESTIONS, SEED * 7 + n);
  const run = await suggestions(service, ctx.token, sample);
  if (run.missed.length) {
    throw new Error(
      `round ${n}: ${run.missed.length} lines paying a document's exact amount had no such suggestion ` +
        `(first: ${run.missed.slice(0, 5).join(', ')})`,
    );
  }
  const result: RoundResult = {
    dryRun: dry.seconds,
    import: first.seconds,
    reimport: again.seconds,
    p50: percentile(run.latencies, 50),
    p95: percentile(run.latencies, 95),
    p99: percentile(run.latencies, 99),
    namedFirst: run.named ? (100 * run.namedFirst) / run.named : NaN,
  };
  console.log(
    `  round ${n}: ${LINES.toLocaleString('en')} lines (${(csv.length / 1024).toFixed(0)} KiB) imported in ` +
      `${first.seconds.toFixed(2)} s (dry run ${dry.seconds.toFixed(2)} s, re-import of duplicates ` +
      `${again.seconds.toFixed(2)} s; ${first.report.counts.suggested} booked by a rule); ` +
      `suggestions of ${sample.length} lines p50 ${result.p50.toFixed(1)} ms, p95 ${result.p95.toFixed(1)} ms, ` +
      `p99 ${result.p99.toFixed(1)} ms, max ${itemAt(run.latencies, -1).toFixed(1)} ms ` +
      `(${(run.suggestions / sample.length).toFixed(1)} per line, ${run.empty} lines none); ` +
      `named invoice first at 95 for ${run.namedFirst} of ${run.named}; checked`,
  );
  return result;
}

async function main(): Promise<void> {
  const service = await benchService(PORT);
  let met = false;
  try {
    const { businessId, accessToken: token, client } = await service.register('Banking');
    const setupBegan = performance.now();
    const b = books();
    await load(service, businessId, b);
    await rules(client);
    await service.data.query('VACUUM ANALYZE');
    console.log(
      `loaded ${INVOICES.toLocaleString('en')} open invoices, ${BILLS.toLocaleString('en')} pending bills, ` +
        `${LEDGER_ENTRIES.toLocaleString('en')} 1010 Bank entries in ${((performance.now() - setupBegan) / 1000).toFixed(1)} s`,
    );

    // Warm-up, not timed: a smaller statement into an account of its own, twice, and its suggestions.
    const warmAccount = await bankAccount(client, 'Warm-up');
    const warmLines = statement(b, WARM_UP_LINES, SEED);
    const warmCsv = csvOf(warmLines);
    expectCounts(
      'warm-up import',
      (await importStatement(service, token, warmAccount.id, warmCsv)).report,
      WARM_UP_LINES,
      0,
    );
    expectCounts(
      'warm-up re-import',
      (await importStatement(service, token, warmAccount.id, warmCsv)).report,
      0,
      WARM_UP_LINES,
    );
    const warmSample = await sampleLines(
      service,
      businessId,
      warmAccount.id,
      warmLines,
      WARM_UP_SUGGESTIONS,
      SEED,
    );
    const warm = await suggestions(service, token, warmSample);
    if (warm.missed.length)
      throw new Error(`warm-up: no exact-amount suggestion for ${warm.missed.slice(0, 5).join(', ')}`);

    const results: RoundResult[] = [];
    for (let n = 1; n <= ROUNDS; n++)
      results.push(await round(service, { businessId, token, client, books: b }, n));
    const of = (figure: keyof RoundResult) => results.map((r) => r[figure]);

    const imported = report({
      bench: BENCH,
      measure: `import of a ${LINES.toLocaleString('en')}-line CSV statement`,
      unit: 's',
      rounds: of('import'),
      target: { op: '<=', value: TARGET_IMPORT_SECONDS },
    });
    report({
      bench: BENCH,
      measure: 're-import of the same statement (all duplicates)',
      unit: 's',
      rounds: of('reimport'),
    });
    report({ bench: BENCH, measure: 'dry run of the statement', unit: 's', rounds: of('dryRun') });
    const suggested = report({
      bench: BENCH,
      measure: `suggestions for one line p95, ${INVOICES.toLocaleString('en')} open invoices`,
      unit: 'ms',
      rounds: of('p95'),
      target: { op: '<=', value: TARGET_SUGGESTIONS_P95_MS },
    });
    report({ bench: BENCH, measure: 'suggestions for one line p50', unit: 'ms', rounds: of('p50') });
    report({ bench: BENCH, measure: 'suggestions for one line p99', unit: 'ms', rounds: of('p99') });
    report({
      bench: BENCH,
      measure: 'lines naming an invoice they pay in full: that invoice first (95)',
      unit: '%',
      rounds: of('namedFirst'),
    });
    met = imported.met === true && suggested.met === true;
    console.log(
      `\n${ROUNDS} rounds (median, spread min-max), ${INVOICES.toLocaleString('en')} open invoices:\n` +
        `  import of ${LINES.toLocaleString('en')} lines ${spread(of('import'), 2)} s, target ${TARGET_IMPORT_SECONDS} s: ` +
        `${imported.met ? 'met' : 'NOT met'}\n` +
        `  re-import (all duplicates) ${spread(of('reimport'), 2)} s; dry run ${spread(of('dryRun'), 2)} s\n` +
        `  suggestions of ${SUGGESTIONS} lines: p50 ${spread(of('p50'), 1)} ms, p95 ${spread(of('p95'), 1)} ms ` +
        `(target ${TARGET_SUGGESTIONS_P95_MS} ms: ${suggested.met ? 'met' : 'NOT met'}), p99 ${spread(of('p99'), 1)} ms\n` +
        `  lines naming an invoice and paying it in full with that invoice first at 95: ${spread(of('namedFirst'), 1)}%`,
    );
  } finally {
    await service.close();
  }
  if (!met) budgetMissed();
}

await main();
