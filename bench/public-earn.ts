/**
 * POST /v1/public/loyalty/earn under load, side by side with bench/baseline-earn.mjs (raw
 * node:http + pg doing the least work a correct earn needs) on the same PostgreSQL, in alternating
 * runs. Prints both servers' req/s, p50 and p99, the ratios service / baseline of req/s (target at
 * least 0.9) and of p99 (target at most 1.5), per round, and the service's memory under load.
 *
 *   npx tsx bench/public-earn.ts     (BENCH_PG_URL defaults to postgres://postgres@127.0.0.1:5432/postgres)
 *
 * BENCH_ROUNDS (default 3), BENCH_SECONDS (default 10) and BENCH_CONNECTIONS (default 50) change the
 * load. Each request earns for a random one of 2,000 members with a unique `reference`, as a till
 * does. The service runs as one process without the job worker (the API tier of a deployment;
 * `--worker-only` processes dispatch the events), with rate limits raised through RATE_LIMITS.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import pg from 'pg';
import { createClient, unwrap } from '../client/index.js';
import { itemAt, median, report, scratchDatabase, spawnService, stop, waitHealthy } from './support.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const MEMBERS = 2000;
const SERVICE_PORT = 3841;
const BASELINE_PORT = 4100;
const BASELINE_KEY = 'bench-key';
const BENCH = 'public-earn';
const TARGET_RPS_RATIO = 0.9;
const TARGET_P99_RATIO = 1.5;

interface Result {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

let sequence = 0;
const runId = Date.now().toString(36);

/** autocannon against one server: random member, unique reference per request. */
async function load(url: string, headers: Record<string, string>, seconds: number): Promise<Result> {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        setupRequest: (request) => ({
          ...request,
          body: JSON.stringify({
            email: `m${Math.floor(Math.random() * MEMBERS)}@bench.test`,
            amount: 12.5,
            reference: `r-${runId}-${++sequence}`,
          }),
        }),
      },
    ],
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** CPU time a process has used so far (user + system, ms), from /proc. */
function cpuMsOf(pid: number): number {
  const fields = itemAt(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') '), 1).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in 1/100 s ticks
}

/** CPU time the whole machine has been busy so far (ms, all cores): server, database and load. */
function machineBusyMs(): number {
  const [, ...ticks] = itemAt(readFileSync('/proc/stat', 'utf8').split('\n'), 0)
    .trim()
    .split(/\s+/)
    .map(Number);
  const idle = itemAt(ticks, 3) + itemAt(ticks, 4); // idle, iowait
  return ((ticks.slice(0, 8).reduce((a, b) => a + b, 0) - idle) * 1000) / 100;
}

/** Resident and peak memory of a process (kB), from /proc. */
function memoryOf(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

async function waitPort(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`process on ${port} exited with ${child.exitCode}`);
    const up = await fetch(`http://127.0.0.1:${port}/`).then(
      () => true,
      () => false,
    );
    if (up) return;
    if (Date.now() > deadline) throw new Error(`nothing answered on ${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Customers and members m0..m1999@bench.test of the business, straight into the tables. */
async function loadMembers(url: string, businessId: string): Promise<void> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    await db.query(
      `INSERT INTO customers (business_id, id, name, email, first_name, created_at, updated_at)
       SELECT $1, 'cus_BENCH' || lpad(i::text, 22, '0'), 'Member ' || i, 'm' || i || '@bench.test', 'Member',
              now(), now()
       FROM generate_series(0, $2::int - 1) AS i`,
      [businessId, MEMBERS],
    );
    await db.query(
      `INSERT INTO loyalty_members (business_id, id, customer_id, tier_id, status, points_balance, lifetime_points,
                                    enrolled_at, updated_at)
       SELECT $1, 'mem_BENCH' || lpad(i::text, 22, '0'), 'cus_BENCH' || lpad(i::text, 22, '0'), NULL, 'active', 0, 0,
              now(), now()
       FROM generate_series(0, $2::int - 1) AS i`,
      [businessId, MEMBERS],
    );
    await db.query('VACUUM ANALYZE customers');
    await db.query('VACUUM ANALYZE loyalty_members');
  } finally {
    await db.end();
  }
}

const fmt = (r: Result) =>
  `${r.rps.toFixed(0).padStart(6)} req/s  p50 ${String(r.p50).padStart(3)} ms  p99 ${String(r.p99).padStart(3)} ms` +
  (r.non2xx || r.errors ? `  (non-2xx ${r.non2xx}, errors ${r.errors})` : '');

const database = await scratchDatabase();
const env = {
  DATABASE_URL: database.url,
  PORT: String(SERVICE_PORT),
  RATE_LIMITS: 'free:100,standard:100000000,enterprise:100000000',
  ANONYMOUS_RATE_LIMIT: '100000000',
  WORKER_ENABLED: 'false',
};
const service = spawnService(env);
const baseline = spawn(process.execPath, ['bench/baseline-earn.mjs'], {
  env: { ...process.env, DATABASE_URL: database.url, PORT: String(BASELINE_PORT) },
  stdio: ['ignore', 'ignore', 'inherit'],
});
try {
  await waitHealthy(SERVICE_PORT, service);
  await waitPort(BASELINE_PORT, baseline);

  const anonymous = createClient({ baseUrl: `http://127.0.0.1:${SERVICE_PORT}` });
  const { data: session } = await unwrap(
    anonymous.auth.register({
      body: {
        businessName: 'Bench',
        email: `bench-${database.name}@example.test`,
        password: 'bench password 123',
      },
    }),
  );
  const client = createClient({
    baseUrl: `http://127.0.0.1:${SERVICE_PORT}`,
    accessToken: session.accessToken,
  });
  await unwrap(
    client.loyalty.program.createProgram({
      body: { name: 'Bench Club', pointsName: 'Points', pointsPerCurrency: 10, currency: 'USD' },
    }),
  );
  const { data: key } = await unwrap(client.auth.createApiKey({ body: { name: 'Bench till' } }));
  await loadMembers(database.url, session.businessId);

  const targets = {
    baseline: { url: `http://127.0.0.1:${BASELINE_PORT}/earn`, headers: { 'x-api-key': BASELINE_KEY } },
    service: {
      url: `http://127.0.0.1:${SERVICE_PORT}/v1/public/loyalty/earn`,
      headers: { 'x-api-key': key.key },
    },
  };
  // Both warmed up (JIT, pools, caches) before anything counts.
  for (const target of Object.values(targets)) await load(target.url, target.headers, 3);

  const results: Record<keyof typeof targets, Result[]> = { baseline: [], service: [] };
  let peakRss = 0;
  for (let round = 1; round <= ROUNDS; round++) {
    for (const name of round % 2 ? (['baseline', 'service'] as const) : (['service', 'baseline'] as const)) {
      const sampler =
        name === 'service'
          ? setInterval(() => {
              peakRss = Math.max(peakRss, memoryOf(service.pid!).rss);
            }, 250)
          : undefined;
      const pid = name === 'service' ? service.pid! : baseline.pid!;
      const cpuBefore = cpuMsOf(pid);
      const machineBefore = machineBusyMs();
      const result = await load(targets[name].url, targets[name].headers, SECONDS);
      clearInterval(sampler);
      const requests = result.rps * SECONDS;
      const cpuPerRequest = (cpuMsOf(pid) - cpuBefore) / requests;
      const machinePerRequest = (machineBusyMs() - machineBefore) / requests;
      results[name].push(result);
      console.log(
        `round ${round} ${name.padEnd(8)} ${fmt(result)}  CPU per request: server ${cpuPerRequest.toFixed(2)} ms, ` +
          `whole machine ${machinePerRequest.toFixed(2)} ms`,
      );
    }
  }

  const mean = (rs: Result[], k: 'rps' | 'p50' | 'p99') => rs.reduce((sum, r) => sum + r[k], 0) / rs.length;
  const summary = (rs: Result[]): Result => ({
    rps: mean(rs, 'rps'),
    p50: Math.round(mean(rs, 'p50')),
    p99: Math.round(mean(rs, 'p99')),
    non2xx: rs.reduce((s, r) => s + r.non2xx, 0),
    errors: rs.reduce((s, r) => s + r.errors, 0),
  });
  const base = summary(results.baseline);
  const svc = summary(results.service);
  const memory = memoryOf(service.pid!);
  console.log(`\nPOST earn, ${CONNECTIONS} connections, ${ROUNDS} x ${SECONDS} s each, ${MEMBERS} members:`);
  console.log(`baseline (node:http + pg)  ${fmt(base)}`);
  console.log(`service                    ${fmt(svc)}`);
  // Per round, the two servers measured one after the other on the same machine.
  const rpsRatios = results.service.map((r, i) => r.rps / itemAt(results.baseline, i).rps);
  const p99Ratios = results.service.map((r, i) => r.p99 / itemAt(results.baseline, i).p99);
  const perRound = (xs: number[]) =>
    `median of rounds ${median(xs).toFixed(2)} (${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)})`;
  console.log(
    `ratio service / baseline   ${(svc.rps / base.rps).toFixed(2)}, ${perRound(rpsRatios)} (target >= ${TARGET_RPS_RATIO})`,
  );
  console.log(`p99 service / baseline     ${perRound(p99Ratios)} (target <= ${TARGET_P99_RATIO})`);
  console.log(
    `service memory: peak RSS under load ${(peakRss / 1024).toFixed(0)} MB, ` +
      `process peak (VmHWM) ${(memory.hwm / 1024).toFixed(0)} MB`,
  );

  report({
    bench: BENCH,
    measure: 'req/s service / baseline',
    unit: 'x',
    rounds: rpsRatios,
    target: { op: '>=', value: TARGET_RPS_RATIO },
  });
  report({
    bench: BENCH,
    measure: 'p99 service / baseline',
    unit: 'x',
    rounds: p99Ratios,
    target: { op: '<=', value: TARGET_P99_RATIO },
  });
  report({
    bench: BENCH,
    measure: 'service req/s',
    unit: 'req/s',
    rounds: results.service.map((r) => r.rps),
  });
  report({
    bench: BENCH,
    measure: 'baseline req/s',
    unit: 'req/s',
    rounds: results.baseline.map((r) => r.rps),
  });
  report({ bench: BENCH, measure: 'service p99', unit: 'ms', rounds: results.service.map((r) => r.p99) });
  report({ bench: BENCH, measure: 'baseline p99', unit: 'ms', rounds: results.baseline.map((r) => r.p99) });

  // Every earn landed exactly once: the ledger holds one row per 2xx answer of the service.
  const check = new pg.Client({ connectionString: database.url });
  await check.connect();
  const { rows } = await check.query<{ n: string; sum: string; balances: string }>(
    `SELECT (SELECT count(*) FROM loyalty_transactions WHERE reference_type = 'public') AS n,
            (SELECT coalesce(sum(points), 0) FROM loyalty_transactions) AS sum,
            (SELECT coalesce(sum(points_balance), 0) FROM loyalty_members) AS balances`,
  );
  await check.end();
  const ledger = itemAt(rows, 0);
  console.log(
    `ledger: ${Number(ledger.n).toLocaleString('en')} public earns; sum of points ${ledger.sum} ` +
      `${ledger.sum === ledger.balances ? '=' : '!='} sum of balances ${ledger.balances}`,
  );
} finally {
  await stop(service);
  await stop(baseline);
  await database.drop(Boolean(process.env.BENCH_KEEP_DB));
}
