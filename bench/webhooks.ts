/**
 * Webhook delivery on PostgreSQL: deliveries per second of one worker process to a local receiver,
 * and commit-to-delivery latency (p50/p99) with a worker running.
 *
 *   npx tsx bench/webhooks.ts        (BENCH_PG_URL defaults to postgres://postgres@127.0.0.1:5432/postgres)
 *
 * The API runs in one process without a worker; events are created through it; then one worker
 * process (`npm run worker`) drains them. Latency is measured from the event's `occurredAt` (taken
 * inside the committing transaction) to its arrival at the receiver. BENCH_ROUNDS (default 3) rounds
 * of both, each with a worker of its own; the median over rounds with the spread (min-max).
 */
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient, unwrap } from '../client/index.js';
import { median, percentile, report, scratchDatabase, spawnService, stop, waitHealthy } from './support.js';

const THROUGHPUT_EVENTS = Number(process.env.BENCH_EVENTS ?? 3000);
const LATENCY_EVENTS = Number(process.env.BENCH_LATENCY_EVENTS ?? 400);
const LATENCY_RATE = Number(process.env.BENCH_LATENCY_RATE ?? 40); // events per second
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const API_PORT = 3821;
const BENCH = 'webhooks';

const arrivals = new Map<string, number>();
let expected = 0;
let onAll: (() => void) | undefined;
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const now = Date.now();
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
      deliveryId: string;
      occurredAt: string;
    };
    if (!arrivals.has(body.deliveryId)) arrivals.set(body.deliveryId, now - Date.parse(body.occurredAt));
    res.writeHead(204).end();
    if (arrivals.size >= expected) onAll?.();
  });
});

async function inBatches(
  n: number,
  concurrency: number,
  task: (i: number) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) await task(next++);
    }),
  );
}

const database = await scratchDatabase();
const name = database.name;
const env = {
  DATABASE_URL: database.url,
  PORT: String(API_PORT),
  WEBHOOK_ALLOW_PRIVATE: 'true',
  RATE_LIMITS: 'free:100,standard:1000000,enterprise:1000000',
  ANONYMOUS_RATE_LIMIT: '1000000',
};
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

const api = spawnService({ ...env, WORKER_ENABLED: 'false' });
let worker: ChildProcess | undefined;
try {
  await waitHealthy(API_PORT, api);
  const anonymous = createClient({ baseUrl: `http://127.0.0.1:${API_PORT}` });
  const { data } = await unwrap(
    anonymous.auth.register({
      body: { businessName: 'Bench', email: `bench-${name}@example.test`, password: 'bench password 123' },
    }),
  );
  const client = createClient({ baseUrl: `http://127.0.0.1:${API_PORT}`, accessToken: data.accessToken });
  await unwrap(client.webhooks.createWebhook({ body: { url: receiverUrl, events: ['customer.created'] } }));

  const perSecond: number[] = [];
  const p50s: number[] = [];
  const p99s: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    if (ROUNDS > 1) console.log(`round ${round}:`);
    // 1. Throughput: a backlog of events, then one worker drains it.
    arrivals.clear();
    await inBatches(THROUGHPUT_EVENTS, 16, (i) =>
      unwrap(client.general.customers.createCustomer({ body: { name: `Customer ${round}-${i}` } })),
    );
    expected = THROUGHPUT_EVENTS;
    const drained = new Promise<void>((r) => (onAll = r));
    const started = performance.now();
    worker = spawnService({ ...env, PORT: '0', DB_POOL_SIZE: process.env.BENCH_WORKER_POOL ?? '10' }, [
      '--worker-only',
    ]);
    let firstAt = 0;
    const firstSeen = setInterval(() => {
      if (!firstAt && arrivals.size > 0) firstAt = performance.now();
    }, 5);
    await drained;
    clearInterval(firstSeen);
    const ended = performance.now();
    perSecond.push(THROUGHPUT_EVENTS / ((ended - firstAt) / 1000));
    console.log(
      `throughput: ${THROUGHPUT_EVENTS} deliveries by one worker in ${((ended - firstAt) / 1000).toFixed(2)} s ` +
        `= ${perSecond.at(-1)!.toFixed(0)} deliveries/s (worker start-up to first delivery ${((firstAt - started) / 1000).toFixed(2)} s)`,
    );

    // 2. Latency: events at a steady rate while the worker runs.
    arrivals.clear();
    expected = LATENCY_EVENTS;
    const allArrived = new Promise<void>((r) => (onAll = r));
    for (let i = 0; i < LATENCY_EVENTS; i++) {
      void unwrap(client.general.customers.createCustomer({ body: { name: `Latency ${round}-${i}` } }));
      await new Promise((r) => setTimeout(r, 1000 / LATENCY_RATE));
    }
    await allArrived;
    const latencies = [...arrivals.values()].sort((a, b) => a - b);
    p50s.push(percentile(latencies, 50));
    p99s.push(percentile(latencies, 99));
    console.log(
      `latency (commit to delivery, ${LATENCY_EVENTS} events at ${LATENCY_RATE}/s): ` +
        `p50 ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms, max ${latencies.at(-1)} ms`,
    );
    await stop(worker);
    worker = undefined;
  }
  const summary = (values: number[]) =>
    `${median(values).toFixed(0)} (${Math.min(...values).toFixed(0)}-${Math.max(...values).toFixed(0)})`;
  console.log(
    `\n${ROUNDS} rounds (median, spread min-max): ${summary(perSecond)} deliveries/s; ` +
      `latency p50 ${summary(p50s)} ms, p99 ${summary(p99s)} ms`,
  );
  report({ bench: BENCH, measure: 'deliveries by one worker', unit: '/s', rounds: perSecond });
  report({ bench: BENCH, measure: 'commit to delivery, p50', unit: 'ms', rounds: p50s });
  report({ bench: BENCH, measure: 'commit to delivery, p99', unit: 'ms', rounds: p99s });
} finally {
  if (worker) await stop(worker);
  await stop(api);
  receiver.close();
  await database.drop();
}
