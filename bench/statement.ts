/**
 * A customer's statement over a long history: p95 at most 100 ms.
 *
 * The service runs built (`npm run build`) on a scratch PostgreSQL database. One customer gets 5,000
 * documents through the API: 2,500 issued invoices spread over nearly three years, 1,750 payments
 * and 750 credit notes (one in ten of those with a refund); 50 other customers get 10 invoices each,
 * so the statement reads its customer's rows among others. Then VACUUM ANALYZE, a warm-up, and
 * rounds of sequential `GET /v1/customers/:id/statement` over the whole range (every line, the
 * opening balance at 0); the p95 of each round, their median against the budget.
 *
 * Part of `npm run bench -- recurring` (bench/recurring.ts runs it after its own figure); alone, it
 * exits non-zero when the budget is not met.
 *
 *   npm run build && npx tsx bench/statement.ts   (BENCH_PG_URL defaults to postgres://postgres@127.0.0.1:5432/postgres)
 *
 * BENCH_INVOICES (of the customer, default 2500), BENCH_ROUNDS (default 5), BENCH_REQUESTS (per
 * round, default 100).
 */
import { pathToFileURL } from 'node:url';
import { unwrap } from '../client/index.js';
import { addDays } from '../server/platform/calendar.js';
import { benchService, budgetMissed, median, percentile, report } from './support.js';

const INVOICES = Number(process.env.BENCH_INVOICES ?? 2500);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 100);
const BUDGET_MS = 100;
const CLIENTS = 10;
const PORT = 3839;
const BENCH = 'statement';
const FIRST_DAY = '2024-01-01';

const ms = (n: number) => n.toFixed(1);

/** Runs `task` for each of `count` indexes from `clients` concurrent callers. */
async function concurrently(count: number, clients: number, task: (i: number) => Promise<unknown>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

/** Loads the customer's history and measures the statement; false when the budget is not met. */
export async function statementBench(): Promise<boolean> {
  const service = await benchService(PORT);
  try {
    const { client } = await service.register('Bench statements');
    const customers = client.general.customers;
    const invoices = client.general.invoices;
    const customer = (await unwrap(customers.createCustomer({ body: { name: 'Ada Lovelace' } }))).data;
    const others: string[] = [];
    for (let i = 0; i < 50; i++) {
      others.push((await unwrap(customers.createCustomer({ body: { name: `Customer ${i}` } }))).data.id);
    }

    const issue = async (customer_id: string, issue_date: string) => {
      const { data } = await unwrap(
        invoices.createInvoice({
          body: {
            customer_id,
            issue_date,
            due_date: addDays(issue_date, 30),
            items: [{ description: 'Consulting (hours)', quantity: 1, unit_price: 100, tax_rate: 20 }],
          },
        }),
      );
      await unwrap(invoices.issueInvoice({ params: { id: data.id } }));
      return data.id;
    };

    const started = performance.now();
    let documents = 0;
    await concurrently(INVOICES, CLIENTS, async (i) => {
      const day = addDays(FIRST_DAY, Math.floor((i * 1000) / INVOICES));
      const id = await issue(customer.id, day);
      documents++;
      if (i % 10 < 7) {
        await unwrap(
          invoices.createPayment({
            params: { id },
            body: { amount: 60, payment_method: 'bank_transfer', payment_date: addDays(day, 3) },
          }),
        );
      } else {
        const refund = i % 10 === 9 && i % 20 === 9;
        await unwrap(
          client.general.creditNotes.createCreditNote({
            body: {
              invoice_id: id,
              amount: 30,
              reason: 'Goodwill',
              issue_date: addDays(day, 5),
              credit_amount: refund ? 0 : 30,
              refund_amount: refund ? 30 : 0,
              ...(refund ? { refund_method: 'cash' as const } : {}),
              customer_credit_amount: 0,
            },
          }),
        );
      }
      documents++;
    });
    await concurrently(others.length * 10, CLIENTS, (i) =>
      issue(others[i % others.length]!, addDays(FIRST_DAY, i)),
    );
    console.log(
      `${documents.toLocaleString('en')} documents of one customer and ${(others.length * 10).toLocaleString('en')} ` +
        `invoices of others loaded in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    await service.data.query('VACUUM ANALYZE');

    const query = { start_date: FIRST_DAY, end_date: '2026-12-31' };
    const statement = () =>
      unwrap(client.general.statements.getCustomerStatement({ params: { id: customer.id }, query }));
    const { data } = await statement();
    console.log(
      `statement: ${data.lines.length.toLocaleString('en')} lines, closing balance ${data.closing_balance}`,
    );
    for (let i = 0; i < 20; i++) await statement();

    const p95s: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const times: number[] = [];
      for (let i = 0; i < REQUESTS; i++) {
        const t = performance.now();
        await statement();
        times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      p95s.push(percentile(times, 95));
      console.log(
        `  round ${round}: p50 ${ms(percentile(times, 50))} ms  p95 ${ms(percentile(times, 95))} ms`,
      );
    }
    const p95 = median(p95s);
    const met = p95 <= BUDGET_MS;
    console.log(
      `statement of ${documents.toLocaleString('en')} documents, p95 ${ms(p95)} ms median over ${ROUNDS} rounds ` +
        `(spread ${ms(Math.min(...p95s))}-${ms(Math.max(...p95s))}), budget ${BUDGET_MS} ms: ${met ? 'met' : 'NOT met'}`,
    );
    report({
      bench: BENCH,
      measure: `statement of ${documents.toLocaleString('en')} documents, whole range, p95`,
      unit: 'ms',
      rounds: p95s,
      target: { op: '<=', value: BUDGET_MS },
    });
    return met;
  } finally {
    await service.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href && !(await statementBench()))
  budgetMissed();
