/**
 * Online payments on PostgreSQL (docs/decisions.md D270): Stripe's `checkout.session.completed`
 * webhooks for BENCH_INVOICES (default 1,000) invoices of one business, each delivered twice in the
 * same run, as Stripe does when an acknowledgement is lost or late. Target: the 1,000 webhooks and
 * their duplicates answered within 10 s, the median of BENCH_ROUNDS rounds (default 3), each a
 * business of its own; every duplicate records nothing.
 *
 * Setup, not timed: a business connected to Stripe, here a local stand-in of Stripe's API
 * (test/support/stripe-stand-in.ts) that the service calls through STRIPE_API_BASE; one customer;
 * the invoices issued through the API; Pay on each one's hosted page, which opens a Checkout Session
 * per invoice; VACUUM ANALYZE; a warm-up of 20 more invoices paid by webhook the same way. Then each
 * event is signed as Stripe signs it and delivered with 16 requests in flight (Stripe delivers in
 * parallel): the originals in order, each duplicate either right behind its original (every tenth
 * invoice, so that the two are in flight together and race for the checkout's lock) or 50
 * deliveries later (the others, arriving once the payment is recorded). Measured: the wall time of
 * all the deliveries, deliveries per second, and each delivery's latency (p50/p95).
 *
 * After each round the database is read directly: one `stripe` payment per invoice and none twice,
 * every invoice paid, every checkout succeeded with nothing credited, account 1030 (provider
 * clearing) holding what was paid, and every delivery answered 200, one of each pair `recorded`.
 * A check that fails ends the benchmark with a non-zero exit: a wrong figure is no figure.
 *
 *   npm run build && npx tsx bench/online-payments.ts   (BENCH_PG_URL defaults to postgres://postgres@127.0.0.1:5432/postgres)
 *
 * BENCH_ROUNDS (default 3), BENCH_INVOICES (default 1000), BENCH_IN_FLIGHT (default 16);
 * BENCH_KEEP_DB=1 keeps the scratch database. The API runs without a worker: the outbox events a
 * payment writes are not what is measured, and delivering them would take the same two cores.
 */
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { unwrap, type Client } from '../client/index.js';
import {
  checkoutCompleted,
  signedBody,
  startStripeStandIn,
  type StandInSession,
  type StripeStandIn,
} from '../test/support/stripe-stand-in.js';
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
const INVOICES = Number(process.env.BENCH_INVOICES ?? 1000);
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 16);
const WARM_UP = 20;
/** Setup requests in flight: invoices made and issued, checkouts opened. */
const SETUP_WIDTH = 8;
/** Deliveries between an original and its later duplicate. */
const LATER_BY = 50;
/** Every this many invoices, the duplicate is sent right behind its original. */
const TOGETHER_EVERY = 10;
const PORT = 3861;
const BENCH = 'online-payments';
const TARGET_SECONDS = 10;

const SECRET_KEY = 'sk_test_51BenchOnlinePayments4242';

/** One invoice to be paid: its checkout's session at the stand-in and what it charges. */
interface Payable {
  invoiceId: string;
  session: StandInSession;
}

/** One webhook delivery: the invoice it pays (an index), whether it repeats an earlier one, its signed body. */
interface Delivery {
  index: number;
  duplicate: boolean;
  signed: { body: string; header: string };
}

interface Answer {
  status: number;
  outcome: string | undefined;
  /** Its latency. */
  ms: number;
  /** When it was answered, in ms since the first delivery was sent. */
  at: number;
}

const ms = (n: number) => n.toFixed(1);
const spread = (values: number[], digits: number) =>
  `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}-${Math.max(...values).toFixed(digits)})`;

/** CPU time a process has used so far (user + system, ms), from /proc. */
function cpuMsOf(pid: number): number {
  const fields = itemAt(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') '), 1).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in 1/100 s ticks
}

/** CPU time the whole machine has been busy so far (ms, all cores). */
function machineBusyMs(): number {
  const [, ...ticks] = itemAt(readFileSync('/proc/stat', 'utf8').split('\n'), 0)
    .trim()
    .split(/\s+/)
    .map(Number);
  const idle = itemAt(ticks, 3) + itemAt(ticks, 4); // idle, iowait
  return ((ticks.slice(0, 8).reduce((a, b) => a + b, 0) - idle) * 1000) / 100;
}

/** CPU time so far of each server process of the scratch database's connections (ms, by pid). */
async function databaseCpuMs(service: BenchService): Promise<Map<number, number>> {
  const { rows } = await service.data.query<{ pid: number }>(
    'SELECT pid FROM pg_stat_activity WHERE datname = current_database()',
  );
  const used = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      used.set(pid, cpuMsOf(pid));
    } catch {
      // the connection closed in between
    }
  }
  return used;
}

/**
 * Where the CPU went while `work` ran (ms): the service, PostgreSQL's processes serving it, this
 * process, and the rest of the machine (PostgreSQL's own writers, and whatever else runs on it).
 */
async function cpuOf<T>(service: BenchService, work: () => Promise<T>) {
  const databaseBefore = await databaseCpuMs(service);
  const [serviceBefore, benchBefore, machineBefore] = [
    cpuMsOf(service.pid),
    process.cpuUsage(),
    machineBusyMs(),
  ];
  const result = await work();
  const used = process.cpuUsage(benchBefore);
  const serviceMs = cpuMsOf(service.pid) - serviceBefore;
  const benchMs = (used.user + used.system) / 1000;
  const machineMs = machineBusyMs() - machineBefore;
  let databaseMs = 0;
  // A connection opened during the run used all its CPU in it.
  for (const [pid, ms] of await databaseCpuMs(service)) databaseMs += ms - (databaseBefore.get(pid) ?? 0);
  return {
    result,
    service: serviceMs,
    database: databaseMs,
    bench: benchMs,
    rest: machineMs - serviceMs - databaseMs - benchMs,
  };
}

/** Runs `work` for 0..n-1 with `width` in flight. */
async function inParallel(n: number, width: number, work: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) await work(next++);
    }),
  );
}

/** A business connected to Stripe (the stand-in), with one customer. */
async function connectedBusiness(service: BenchService, webhookSecret: string) {
  const { businessId, client } = await service.register('Online Payments');
  await unwrap(
    client.auth.updatePaymentSettings({
      body: { provider: 'stripe', secret_key: SECRET_KEY, webhook_secret: webhookSecret },
    }),
  );
  const customer = (await unwrap(client.general.customers.createCustomer({ body: { name: 'Ada Lovelace' } })))
    .data;
  return { businessId, client, customerId: customer.id };
}

/**
 * `count` invoices issued, and Pay on each one's hosted page: the Checkout Session it opened at the
 * stand-in. Prices differ (10.50 to 106.50 USD), so that a payment recorded against the wrong
 * invoice, or twice, shows in the sums.
 */
async function payables(
  service: BenchService,
  stripe: StripeStandIn,
  client: Client,
  customerId: string,
  count: number,
): Promise<Payable[]> {
  const dueDate = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
  const hostedPaths: string[] = new Array<string>(count);
  const invoiceIds: string[] = new Array<string>(count);
  await inParallel(count, SETUP_WIDTH, async (i) => {
    const draft = await unwrap(
      client.general.invoices.createInvoice({
        body: {
          customer_id: customerId,
          currency: 'USD',
          due_date: dueDate,
          items: [{ description: 'Rope, 50 m', quantity: 1, unit_price: 10.5 + (i % 97) }],
        },
      }),
    );
    const issued = (await unwrap(client.general.invoices.issueInvoice({ params: { id: draft.data.id } })))
      .data;
    if (!issued.hosted_url) throw new Error(`Invoice ${issued.id} was issued without a hosted page`);
    invoiceIds[i] = issued.id;
    hostedPaths[i] = new URL(issued.hosted_url).pathname;
  });
  const result: Payable[] = new Array<Payable>(count);
  await inParallel(count, SETUP_WIDTH, async (i) => {
    const res = await fetch(`${service.baseUrl}${itemAt(hostedPaths, i)}/pay`, {
      method: 'POST',
      redirect: 'manual',
    });
    const location = res.headers.get('location') ?? '';
    await res.arrayBuffer();
    const id = /\/checkout\/(cs_test_\w+)$/.exec(location)?.[1];
    const session = id && stripe.sessions.get(id);
    if (res.status !== 303 || !session) {
      throw new Error(`Pay answered ${res.status} (to ${location || 'nowhere'}), not a Stripe checkout`);
    }
    result[i] = { invoiceId: itemAt(invoiceIds, i), session };
  });
  return result;
}

/**
 * The deliveries of one run, each event signed twice as Stripe signs each attempt: every original
 * in order; the duplicate of every TOGETHER_EVERY-th invoice right behind it, the others LATER_BY
 * deliveries later (or at the end).
 */
function schedule(paid: Payable[], webhookSecret: string, firstIntent: number): Delivery[] {
  const events = paid.map((p, i) =>
    JSON.stringify(checkoutCompleted(p.session, `pi_bench_${String(firstIntent + i).padStart(8, '0')}`)),
  );
  const sign = (index: number, duplicate: boolean): Delivery => ({
    index,
    duplicate,
    signed: signedBody(webhookSecret, itemAt(events, index)),
  });
  const together = (i: number) => i % TOGETHER_EVERY === 0;
  const deliveries: Delivery[] = [];
  for (let i = 0; i < paid.length; i++) {
    deliveries.push(sign(i, false));
    if (together(i)) deliveries.push(sign(i, true));
    const earlier = i - LATER_BY;
    if (earlier >= 0 && !together(earlier)) deliveries.push(sign(earlier, true));
  }
  for (let i = Math.max(0, paid.length - LATER_BY); i < paid.length; i++) {
    if (!together(i)) deliveries.push(sign(i, true));
  }
  return deliveries;
}

/** One POST over `agent`: its status and its body as text. */
function post(
  agent: Agent,
  url: URL,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Delivers the webhooks as Stripe does, IN_FLIGHT at a time over kept-alive connections; each
 * answer with its latency. node:http rather than fetch: the sender shares the machine's two cores
 * with the service and PostgreSQL, and fetch costs it about twice the CPU per request.
 */
async function deliver(service: BenchService, businessId: string, deliveries: Delivery[]): Promise<Answer[]> {
  const url = new URL(`${service.baseUrl}/v1/payments/webhooks/stripe/${businessId}`);
  const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
  const answers: Answer[] = new Array<Answer>(deliveries.length);
  const start = performance.now();
  try {
    await inParallel(deliveries.length, IN_FLIGHT, async (i) => {
      const { signed } = itemAt(deliveries, i);
      const headers = {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(signed.body)),
        'stripe-signature': signed.header,
      };
      const began = performance.now();
      const res = await post(agent, url, headers, signed.body);
      const answered = performance.now();
      let outcome: string | undefined;
      try {
        outcome = (JSON.parse(res.text) as { data?: { outcome?: string } }).data?.outcome;
      } catch {
        // not JSON: counted as no outcome
      }
      answers[i] = { status: res.status, outcome, ms: answered - began, at: answered - start };
    });
  } finally {
    agent.destroy();
  }
  return answers;
}

/**
 * What the deliveries must have left behind, read from the database: every problem found, none
 * when the run recorded each payment once. `paidBefore` is what the business was paid before the
 * run (the warm-up), which account 1030 holds as well.
 */
async function problems(
  service: BenchService,
  businessId: string,
  paid: Payable[],
  deliveries: Delivery[],
  answers: Answer[],
  paidBefore: number,
): Promise<string[]> {
  const found: string[] = [];
  const n = paid.length;
  const ids = paid.map((p) => p.invoiceId);
  const expected = paid.reduce((sum, p) => sum + p.session.amount_total, 0);

  const refused = answers.filter((a) => a.status !== 200);
  if (refused.length) {
    found.push(`${refused.length} deliveries answered other than 200 (first: ${itemAt(refused, 0).status})`);
  }
  const outcomes = new Map<number, string[]>();
  deliveries.forEach((d, i) => {
    outcomes.set(d.index, [...(outcomes.get(d.index) ?? []), answers[i]?.outcome ?? 'no answer']);
  });
  const unlike = [...outcomes.values()].filter(
    (pair) => pair.sort().join(',') !== 'already recorded,recorded',
  ).length;
  if (unlike) found.push(`${unlike} invoices' two deliveries did not answer recorded and already recorded`);

  const { rows: payments } = await service.data.query<{
    payments: number;
    invoices: number;
    provider_payments: number;
    stripe: number;
    paid: string;
  }>(
    `SELECT count(*)::int AS payments, count(DISTINCT invoice_id)::int AS invoices,
            count(DISTINCT provider_payment_id)::int AS provider_payments,
            count(*) FILTER (WHERE provider = 'stripe')::int AS stripe,
            coalesce(sum(amount_minor), 0)::text AS paid
     FROM payments WHERE business_id = $1 AND invoice_id = ANY($2::text[])`,
    [businessId, ids],
  );
  const p = payments[0]!;
  if (p.payments !== n || p.invoices !== n || p.provider_payments !== n || p.stripe !== n) {
    found.push(
      `payments: ${p.payments} for ${p.invoices} invoices, ${p.provider_payments} Stripe payment ids, ` +
        `${p.stripe} by stripe (expected ${n} of each)`,
    );
  }
  if (Number(p.paid) !== expected)
    found.push(`payments sum to ${p.paid} cents, the checkouts to ${expected}`);

  const { rows: invoices } = await service.data.query<{ paid: number }>(
    `SELECT count(*)::int AS paid FROM invoices
     WHERE business_id = $1 AND id = ANY($2::text[]) AND status = 'paid' AND amount_paid_minor = total_minor`,
    [businessId, ids],
  );
  if (invoices[0]!.paid !== n) found.push(`${invoices[0]!.paid} of ${n} invoices are paid in full`);

  const { rows: checkouts } = await service.data.query<{ succeeded: number; credited: string }>(
    `SELECT count(*) FILTER (WHERE status = 'succeeded')::int AS succeeded,
            coalesce(sum(credited_minor), 0)::text AS credited
     FROM payment_checkouts WHERE business_id = $1 AND invoice_id = ANY($2::text[])`,
    [businessId, ids],
  );
  const c = checkouts[0]!;
  if (c.succeeded !== n || Number(c.credited) !== 0) {
    found.push(`${c.succeeded} of ${n} checkouts succeeded, ${c.credited} cents credited to the customer`);
  }

  // Across the whole business (the warm-up too): no Stripe payment id recorded twice.
  const { rows: twice } = await service.data.query<{ twice: number }>(
    `SELECT (count(*) - count(DISTINCT provider_payment_id))::int AS twice
     FROM payments WHERE business_id = $1 AND provider = 'stripe'`,
    [businessId],
  );
  if (twice[0]!.twice !== 0) found.push(`${twice[0]!.twice} Stripe payments recorded more than once`);

  // 1030 Provider clearing holds a card payment until Stripe's payout (docs/decisions.md D270): in
  // the journal's lines and in the per-day totals that balances are read from.
  const { rows: clearing } = await service.data.query<{ lines: string; days: string }>(
    `SELECT (SELECT coalesce(sum(debit - credit), 0) FROM finance_journal_lines
             WHERE business_id = $1 AND account_code = '1030')::text AS lines,
            (SELECT coalesce(sum(debit - credit), 0) FROM finance_account_days
             WHERE business_id = $1 AND account_code = '1030')::text AS days`,
    [businessId],
  );
  const balance = clearing[0]!;
  if (Number(balance.lines) !== paidBefore + expected || Number(balance.days) !== paidBefore + expected) {
    found.push(
      `account 1030 holds ${balance.lines} cents in its journal lines and ${balance.days} in its day ` +
        `totals, ${paidBefore + expected} were paid`,
    );
  }
  return found;
}

interface RoundResult {
  seconds: number;
  perSecond: number;
  p50: number;
  p95: number;
}

/** One round: a new business and its invoices, the warm-up, then the timed deliveries, checked. */
async function round(
  service: BenchService,
  stripe: StripeStandIn,
  n: number,
  firstIntent: number,
): Promise<RoundResult> {
  const webhookSecret = `whsec_bench${n}OnlinePayments`;
  const { businessId, client, customerId } = await connectedBusiness(service, webhookSecret);
  const setupBegan = performance.now();
  const all = await payables(service, stripe, client, customerId, WARM_UP + INVOICES);
  const warmUp = all.slice(0, WARM_UP);
  const timed = all.slice(WARM_UP);
  await service.data.query('VACUUM ANALYZE');
  const warmUpAnswers = await deliver(
    service,
    businessId,
    schedule(warmUp, webhookSecret, firstIntent + INVOICES),
  );
  if (warmUpAnswers.some((a) => a.status !== 200)) throw new Error('the warm-up deliveries were refused');
  const setupSeconds = (performance.now() - setupBegan) / 1000;

  // Signed just before they are sent: Stripe's signatures are refused 5 minutes after they were made.
  const deliveries = schedule(timed, webhookSecret, firstIntent);
  const began = performance.now();
  const cpu = await cpuOf(service, () => deliver(service, businessId, deliveries));
  const seconds = (performance.now() - began) / 1000;
  const answers = cpu.result;

  const paidBefore = warmUp.reduce((sum, p) => sum + p.session.amount_total, 0);
  const found = await problems(service, businessId, timed, deliveries, answers, paidBefore);
  if (found.length) {
    throw new Error(`round ${n}: the webhooks were not recorded once each:\n  ${found.join('\n  ')}`);
  }

  const latencies = answers.map((a) => a.ms).sort((a, b) => a - b);
  const of = (duplicate: boolean) =>
    answers
      .filter((_, i) => deliveries[i]?.duplicate === duplicate)
      .map((a) => a.ms)
      .sort((a, b) => a - b);
  const [originals, duplicates] = [of(false), of(true)];
  // Were the 10 s held to the originals alone: the schedule leaves few duplicates after the last.
  const lastOriginal = Math.max(...answers.filter((_, i) => !deliveries[i]?.duplicate).map((a) => a.at));
  const result = {
    seconds,
    perSecond: deliveries.length / seconds,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
  };
  console.log(
    `  round ${n}: ${INVOICES} webhooks and their duplicates (${deliveries.length} deliveries, ${IN_FLIGHT} in flight) ` +
      `in ${seconds.toFixed(2)} s = ${result.perSecond.toFixed(0)}/s; latency p50 ${ms(result.p50)} ms, ` +
      `p95 ${ms(result.p95)} ms (originals ${ms(percentile(originals, 50))}/${ms(percentile(originals, 95))}, ` +
      `duplicates ${ms(percentile(duplicates, 50))}/${ms(percentile(duplicates, 95))}); ` +
      `the last original answered after ${(lastOriginal / 1000).toFixed(2)} s; checked; setup ${setupSeconds.toFixed(1)} s`,
  );
  // The service, PostgreSQL and the sender share the machine's cores: what each spends per delivery
  // says which of them bounds the throughput.
  const perDelivery = (cpuMs: number) => `${(cpuMs / deliveries.length).toFixed(2)} ms`;
  console.log(
    `    CPU per delivery: service ${perDelivery(cpu.service)}, PostgreSQL ${perDelivery(cpu.database)}, ` +
      `this process (sending) ${perDelivery(cpu.bench)}, the rest of the machine ${perDelivery(cpu.rest)}`,
  );
  return result;
}

async function main(): Promise<void> {
  const stripe = await startStripeStandIn();
  let met = false;
  try {
    const service = await benchService(PORT, {
      STRIPE_API_BASE: stripe.url,
      // A business per round, each registered from this address.
      REGISTER_RATE_LIMIT: '1000000',
    });
    try {
      const results: RoundResult[] = [];
      for (let n = 1; n <= ROUNDS; n++) {
        results.push(await round(service, stripe, n, n * (INVOICES + WARM_UP)));
      }
      const of = (figure: keyof RoundResult) => results.map((r) => r[figure]);
      const reported = report({
        bench: BENCH,
        measure: `${INVOICES} Stripe webhooks and their duplicates, ${IN_FLIGHT} in flight`,
        unit: 's',
        rounds: of('seconds'),
        target: { op: '<=', value: TARGET_SECONDS },
      });
      report({ bench: BENCH, measure: 'webhook deliveries', unit: '/s', rounds: of('perSecond') });
      report({ bench: BENCH, measure: 'webhook delivery p95', unit: 'ms', rounds: of('p95') });
      met = reported.met === true;
      console.log(
        `\n${ROUNDS} rounds (median, spread min-max): ${INVOICES.toLocaleString('en')} webhooks and their ` +
          `duplicates in ${spread(of('seconds'), 2)} s, budget ${TARGET_SECONDS} s: ${met ? 'met' : 'NOT met'}; ` +
          `${spread(of('perSecond'), 0)} deliveries/s; latency p50 ${spread(of('p50'), 1)} ms, ` +
          `p95 ${spread(of('p95'), 1)} ms`,
      );
    } finally {
      await service.close();
    }
  } finally {
    await stripe.close();
  }
  if (!met) budgetMissed();
}

await main();
