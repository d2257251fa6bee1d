/** Plumbing the benchmarks share: the service as a child process and a scratch PostgreSQL database. */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { createClient, unwrap, type Client } from '../client/index.js';

export const PG_SERVER = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * The service as `npm start` runs it (`node dist/server/main.js`, built by `npm install` or
 * `npm run build`) with the given environment (warnings and errors shown).
 */
/**
 * How `npm start` runs the built service: WebAssembly compiled by V8's baseline compiler only (the
 * embedded database's; docs/decisions.md D237).
 */
export const START_ARGS = ['--liftoff-only', 'dist/server/main.js'] as const;

export function spawnService(env: Record<string, string>, args: string[] = []): ChildProcess {
  // BENCH_CPU_PROF=<dir> writes a V8 CPU profile of the service there when it exits.
  const profile = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
    : [];
  // BENCH_NODE_FLAGS="--flag ..." starts the service with more of Node's flags, to compare them.
  const flags = process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? [];
  return spawn(process.execPath, [...profile, ...flags, ...START_ARGS, ...args], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** Waits for /healthz on the port; fails early if the child exits. */
export async function waitHealthy(port: number, child?: ChildProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child && child.exitCode !== null) throw new Error(`the service exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return;
    } catch {
      // still starting
    }
    if (Date.now() > deadline) throw new Error('the service did not become healthy in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/** The p-th percentile of sorted values; NaN when there are none. */
export const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/** The item at `index` of `list` (negative counts from the end); a missing one is an error. */
export function itemAt<T>(list: readonly T[], index: number): T {
  const item = list.at(index);
  if (item === undefined) throw new Error(`No item at ${index} in a list of ${list.length}`);
  return item;
}

/** A fresh database on the PostgreSQL server; `drop()` removes it (unless `keep`). */
export async function scratchDatabase(): Promise<{
  name: string;
  url: string;
  drop(keep?: boolean): Promise<void>;
}> {
  const name = `bms_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_SERVER });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(PG_SERVER);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop(keep = false) {
      if (!keep) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

/**
 * The service as a child process on a scratch database, with a SQL connection for bulk loads and a
 * way to register businesses; `close()` stops it and drops the database (unless BENCH_KEEP_DB).
 */
export async function benchService(port: number, env: Record<string, string> = {}) {
  const baseUrl = `http://127.0.0.1:${port}`;
  // Another process on the port would answer in place of the service (and its database).
  const portTaken = await fetch(`${baseUrl}/healthz`).then(
    () => true,
    () => false,
  );
  if (portTaken) throw new Error(`port ${port} is already in use`);
  const database = await scratchDatabase();
  const api = spawnService({
    DATABASE_URL: database.url,
    PORT: String(port),
    RATE_LIMITS: 'free:100,standard:100000000,enterprise:100000000',
    ANONYMOUS_RATE_LIMIT: '1000000',
    WORKER_ENABLED: 'false',
    ...env,
  });
  const data = new pg.Client({ connectionString: database.url });
  const close = async () => {
    await data.end().catch(() => undefined);
    await stop(api);
    if (process.env.BENCH_KEEP_DB) console.log(`\nkept database ${database.url} (BENCH_KEEP_DB is set)`);
    await database.drop(Boolean(process.env.BENCH_KEEP_DB));
  };
  try {
    await waitHealthy(port, api);
    await data.connect();
  } catch (err) {
    await close();
    throw err;
  }
  const anonymous = createClient({ baseUrl });
  let registered = 0;
  return {
    baseUrl,
    data,
    close,
    /** The service's process id. */
    pid: api.pid!,
    /** The service's peak resident set size so far, in MiB (Linux: VmHWM). */
    peakRssMiB(): number {
      const status = readFileSync(`/proc/${api.pid}/status`, 'utf8');
      const kib = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? NaN);
      return kib / 1024;
    },
    /** A new business through the API, and a client signed in as it. */
    async register(name = 'Bench') {
      const { businessId, accessToken } = (
        await unwrap(
          anonymous.auth.register({
            body: {
              businessName: name,
              email: `bench-${++registered}-${database.name}@example.test`,
              password: 'bench password 123',
            },
          }),
        )
      ).data;
      return { businessId, accessToken, client: createClient({ baseUrl, accessToken }) };
    },
  };
}

export type BenchService = Awaited<ReturnType<typeof benchService>>;

/** A request measured against its p95 target (ms). */
export type Query = { label: string; target: number; send: () => Promise<unknown> };

export const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

/** What a figure is held to: at least (`>=`) or at most (`<=`) `value`, in the figure's unit. */
export interface Target {
  op: '>=' | '<=';
  value: number;
}

/** One headline figure of a benchmark: its value in each round, in `unit`. */
export interface Measure {
  bench: string;
  measure: string;
  unit: string;
  rounds: number[];
  target?: Target;
}

/** A figure as reported: the median of its rounds, their spread, and whether the target is met. */
export interface Reported extends Measure {
  median: number;
  min: number;
  max: number;
  /** null when there is no target. */
  met: boolean | null;
}

/** Whether `value` meets `target` (a value that is not a number meets none). */
export const meets = (value: number, target: Target): boolean =>
  Number.isFinite(value) && (target.op === '>=' ? value >= target.value : value <= target.value);

/**
 * Reports one headline figure: the median and spread (min-max) of its rounds, and whether the
 * median meets the target (never when a round is not a number: NaN marks a failed round). Appends
 * it as one JSON line to the file BENCH_REPORT names (bench/run.ts sets it and prints the table);
 * writes nothing when BENCH_REPORT is unset, so a benchmark run alone prints only its own output.
 */
export function report(measure: Measure): Reported {
  const values = measure.rounds.filter((v) => Number.isFinite(v));
  const reported: Reported = {
    ...measure,
    median: values.length ? median(values) : NaN,
    min: values.length ? Math.min(...values) : NaN,
    max: values.length ? Math.max(...values) : NaN,
    met: null,
  };
  if (measure.target) {
    reported.met = values.length === measure.rounds.length && meets(reported.median, measure.target);
  }
  if (process.env.BENCH_REPORT) appendFileSync(process.env.BENCH_REPORT, `${JSON.stringify(reported)}\n`);
  return reported;
}

/**
 * A budget was not met: the exit code is 1 when the benchmark runs alone; under bench/run.ts
 * (BENCH_REPORT set) the report says it, and a non-zero exit means the benchmark crashed.
 */
export function budgetMissed(): void {
  if (!process.env.BENCH_REPORT) process.exitCode = 1;
}

const ms = (n: number) => n.toFixed(2);

/**
 * Each query `requests` times per round, one at a time, after a warm-up of 5 each; prints p50 and
 * p95 per query (median over `rounds`, with the spread of p95 over rounds) against its target. With
 * `bench`, each query's p95 is reported (`<label> p95`, ms) against its target.
 */
export async function measureQueries(
  what: string,
  queries: Query[],
  rounds: number,
  requests: number,
  bench?: string,
): Promise<void> {
  for (let i = 0; i < 5; i++) for (const q of queries) await q.send();
  const perQuery = new Map<string, number[][]>(queries.map((q) => [q.label, []]));
  for (let round = 0; round < rounds; round++) {
    for (const q of queries) {
      const times: number[] = [];
      for (let i = 0; i < requests; i++) {
        const t = performance.now();
        await q.send();
        times.push(performance.now() - t);
      }
      perQuery.get(q.label)?.push(times.sort((a, b) => a - b));
    }
  }
  console.log(
    `\n${what}, ${rounds} rounds of ${requests} sequential requests per query (median over rounds, spread min-max):`,
  );
  for (const q of queries) {
    const perRound = perQuery.get(q.label) ?? [];
    const p95s = perRound.map((r) => percentile(r, 95));
    const p95 = median(p95s);
    console.log(
      `  ${q.label.padEnd(44)} p50 ${ms(median(perRound.map((r) => percentile(r, 50))))} ms  p95 ${ms(p95)} ms ` +
        `(${ms(Math.min(...p95s))}-${ms(Math.max(...p95s))})  target ${q.target} ms: ${p95 <= q.target ? 'met' : 'NOT met'}`,
    );
    if (bench) {
      report({
        bench,
        measure: `${q.label} p95`,
        unit: 'ms',
        rounds: p95s,
        target: { op: '<=', value: q.target },
      });
    }
  }
}

/** An SMTP server that accepts everything and counts messages (bodies read and dropped). */
export async function startSink() {
  let received = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        received++;
        callback();
      });
    },
  });
  server.on('error', (err: Error) => console.error(`sink: ${err.message}`));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received: () => received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A VAT threshold the benchmark's revenue never reaches: issuing checks it, as it does for a
 * business that set one, and no alert is mailed.
 */
export async function vatThresholdFarAway(client: Client): Promise<void> {
  await unwrap(
    client.finance.vat.createVatThreshold({
      body: {
        country: 'GB',
        thresholdAmount: 900_000_000_000,
        currency: 'USD',
        periodType: 'rolling_12_months',
        alertAtPercentage: 80,
        alertEmail: 'accounts@example.com',
      },
    }),
  );
}
