/**
 * Recurring invoices on PostgreSQL: one sandbox business with BENCH_SCHEDULES (default 1,000) monthly
 * recurring invoices, and one test-clock advance that makes and issues every period's invoice on the
 * way (10 periods each: 10,000 invoices, numbered, posted to the ledger). Target: the advance within
 * 60 s, the median of BENCH_ROUNDS rounds (default 3), each a business of its own. Then the
 * statement over 5,000 documents of bench/statement.ts, with its own target (p95 <= 100 ms).
 *
 *   npm run build && npx tsx bench/recurring.ts   (BENCH_PG_URL defaults to postgres://postgres@127.0.0.1:5432/postgres)
 *
 * The setup helpers are exported so that another benchmark can reuse the business.
 */
import { pathToFileURL } from 'node:url';
import { createClient, unwrap, type Client } from '../client/index.js';
import { statementBench } from './statement.js';
import { benchService, budgetMissed, report, type BenchService } from './support.js';

const SCHEDULES = Number(process.env.BENCH_SCHEDULES ?? 1000);
const PERIODS = 10;
const PORT = 3851;
const BENCH = 'recurring';
const TARGET_SECONDS = 60;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

/** A sandbox business of a new account, signed in (its test clock can be advanced). */
export async function sandboxBusiness(service: BenchService): Promise<{ client: Client; start: Date }> {
  const anonymous = createClient({ baseUrl: service.baseUrl });
  const email = `bench-recurring-${Date.now()}@example.test`;
  const password = 'bench password 123';
  await unwrap(anonymous.auth.register({ body: { businessName: 'Recurring', email, password } }));
  const session = (await unwrap(anonymous.auth.signIn({ body: { email, password, environment: 'sandbox' } })))
    .data as { accessToken: string };
  const client = createClient({ baseUrl: service.baseUrl, accessToken: session.accessToken });
  const clock = (await unwrap(client.sandbox.clock.getClock())).data;
  return { client, start: new Date(clock.now) };
}

/** `count` monthly recurring invoices of one customer each, starting tomorrow on the sandbox's clock. */
export async function monthlySchedules(client: Client, start: Date, count: number): Promise<void> {
  const tomorrow = new Date(start.getTime() + 86_400_000).toISOString().slice(0, 10);
  for (let i = 0; i < count; i += 1) {
    const customer = (
      await unwrap(client.general.customers.createCustomer({ body: { name: `Customer ${i}` } }))
    ).data;
    await unwrap(
      client.general.recurringInvoices.createRecurringInvoice({
        body: {
          customer_id: customer.id,
          items: [{ description: 'Monthly support', quantity: 1, unit_price: 100, tax_rate: 20 }],
          interval: 'month',
          start_date: tomorrow,
        },
      }),
    );
  }
}

/** One round: a new sandbox business, its schedules, and the advance that makes their invoices. */
async function round(service: BenchService, n: number): Promise<number> {
  const { client, start } = await sandboxBusiness(service);
  await monthlySchedules(client, start, SCHEDULES);
  await service.data.query('VACUUM ANALYZE');
  // Ten periods: tomorrow and the nine months after it, and a day more.
  const to = new Date(start);
  to.setUTCMonth(to.getUTCMonth() + PERIODS - 1);
  to.setUTCDate(to.getUTCDate() + 2);
  const began = performance.now();
  const moved = await unwrap(client.sandbox.clock.advanceClock({ body: { advance_to: to.toISOString() } }));
  const seconds = (performance.now() - began) / 1000;
  const made = moved.data.ran.invoices_recurred;
  console.log(
    `  round ${n}: ${made} recurring invoices in one advance, ${seconds.toFixed(1)} s (${(made / seconds).toFixed(0)}/s)`,
  );
  return made >= SCHEDULES * PERIODS ? seconds : NaN;
}

async function main(): Promise<void> {
  const service = await benchService(PORT);
  let met: boolean;
  try {
    // The first round warms the service up; each round is a business of its own.
    const rounds: number[] = [];
    for (let n = 1; n <= ROUNDS; n++) rounds.push(await round(service, n));
    const reported = report({
      bench: BENCH,
      measure: `advance making ${SCHEDULES * PERIODS} invoices of ${SCHEDULES} schedules`,
      unit: 's',
      rounds,
      target: { op: '<=', value: TARGET_SECONDS },
    });
    met = reported.met === true;
    console.log(
      `advance making ${(SCHEDULES * PERIODS).toLocaleString('en')} invoices, ${reported.median.toFixed(1)} s median over ` +
        `${ROUNDS} rounds (spread ${reported.min.toFixed(1)}-${reported.max.toFixed(1)}), budget ${TARGET_SECONDS} s: ` +
        `${met ? 'met' : 'NOT met'}`,
    );
  } finally {
    await service.close();
  }
  // The other figure of receivables: a statement over 5,000 documents (bench/statement.ts).
  await statementBench();
  if (!met) budgetMissed();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
