/**
 * Resident memory of the service as `npm start` runs it, idle and under load, on PGlite and on
 * PostgreSQL, side by side for the two ways of running it: the compiled service as one process
 * (`node dist/server/main.js`, what `npm start` runs) and the TypeScript through the tsx CLI
 * (`tsx server/main.ts`, what `npm start` ran before: a tsx process and the node process it starts).
 * PostgreSQL has a scratch database per runner. RSS is summed over the process tree; under load, the
 * peak over 10 s of autocannon (20 connections) listing customers with a token. Several rounds; the
 * median and the spread are printed. Then, for the compiled service, a start on existing data (the
 * same data directory or database, already migrated): RSS 5 s after it is healthy, and, for PGlite,
 * the peak (VmHWM) of the first start on a new directory, which migrates. Targets: on existing data
 * PGlite at most 200 MB and PostgreSQL at most 100 MB; a new PGlite directory's peak at most 400 MB.
 *
 *   npm run build && npx tsx bench/memory.ts      (PostgreSQL at postgres://postgres@127.0.0.1:5432/postgres)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { createClient, unwrap } from '../client/index.js';
import { itemAt, report, scratchDatabase, START_ARGS, stop, waitHealthy } from './support.js';

const PORT = 3812;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const BENCH = 'memory';
/** RSS targets (MB) of the compiled service, the way `npm start` runs it, 5 s after start on existing data. */
const EXISTING_TARGET_MB = { PGlite: 200, PostgreSQL: 100 } as const;
/** Peak RSS target (MB) of a first start on a new PGlite data directory (it migrates). */
const NEW_DIRECTORY_PEAK_MB = 400;

const RUNNERS = {
  'node dist/server/main.js': [process.execPath, ...START_ARGS],
  'tsx server/main.ts': ['node_modules/.bin/tsx', 'server/main.ts'],
} as const;
type Runner = keyof typeof RUNNERS;

function rssKb(pid: number): number {
  try {
    const own = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean);
    return own + children.reduce((sum, child) => sum + rssKb(Number(child)), 0);
  } catch {
    return 0;
  }
}

const mb = (kb: number) => Math.round(kb / 1024);

/** Peak resident memory (VmHWM, kB) of one process. */
function hwmKb(pid: number): number {
  return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
}

/** The compiled service started on data it has already migrated: RSS 5 s after it is healthy. */
async function measureExisting(env: Record<string, string>): Promise<number> {
  const [command, ...args] = RUNNERS['node dist/server/main.js'];
  const child = spawn(command, args, {
    env: { ...process.env, LOG_LEVEL: 'warn', PORT: String(PORT), ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitHealthy(PORT, child, 120_000);
    await new Promise((r) => setTimeout(r, 5000));
    return rssKb(child.pid!);
  } finally {
    await stop(child);
  }
}

async function measure(
  runner: Runner,
  env: Record<string, string>,
): Promise<{ idle: number; load: number; hwm: number }> {
  const [command, ...args] = RUNNERS[runner];
  const child: ChildProcess = spawn(command, args, {
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      PORT: String(PORT),
      RATE_LIMITS: 'free:100,standard:10000000,enterprise:10000000',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitHealthy(PORT, child, 120_000);
    const base = `http://127.0.0.1:${PORT}`;
    const { data } = await unwrap(
      createClient({ baseUrl: base }).auth.register({
        body: {
          businessName: 'Memory',
          email: `memory-${Date.now()}@example.test`,
          password: 'bench password 123',
        },
      }),
    );
    const client = createClient({ baseUrl: base, accessToken: data.accessToken });
    for (let i = 0; i < 50; i++)
      await unwrap(client.general.customers.createCustomer({ body: { name: `Customer ${i}` } }));
    await new Promise((r) => setTimeout(r, 5000));
    const idle = rssKb(child.pid!);
    // The peak of starting (a new directory migrates) and of the writes above, before the load.
    const hwm = hwmKb(child.pid!);
    let peak = idle;
    const sampler = setInterval(() => (peak = Math.max(peak, rssKb(child.pid!))), 200);
    await autocannon({
      url: `${base}/v1/customers?limit=20`,
      connections: 20,
      duration: 10,
      headers: { authorization: `Bearer ${data.accessToken}` },
    });
    clearInterval(sampler);
    return { idle, load: peak, hwm };
  } finally {
    await stop(child);
  }
}

const median = (xs: number[]) =>
  itemAt(
    [...xs].sort((a, b) => a - b),
    Math.floor(xs.length / 2),
  );
const summary = (label: string, xs: number[]) =>
  `${label} ${mb(median(xs))} MB (${mb(Math.min(...xs))}-${mb(Math.max(...xs))})`;

// A database per runner: the build and the sources each migrate their own, so that a migration the
// sources have and the build has not yet (or the other way round) does not stop the other's start.
const databases: Record<Runner, Awaited<ReturnType<typeof scratchDatabase>>> = {
  'node dist/server/main.js': await scratchDatabase(),
  'tsx server/main.ts': await scratchDatabase(),
};
try {
  for (const [name, envOf] of [
    ['PGlite', () => ({ DATA_DIR: mkdtempSync(join(tmpdir(), 'bms-memory-')) })],
    ['PostgreSQL', (runner: Runner) => ({ DATABASE_URL: databases[runner].url })],
  ] as const) {
    const results: Record<Runner, { idle: number[]; load: number[] }> = {
      'node dist/server/main.js': { idle: [], load: [] },
      'tsx server/main.ts': { idle: [], load: [] },
    };
    const existing: number[] = [];
    const firstPeak: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      for (const runner of Object.keys(RUNNERS) as Runner[]) {
        const env: Record<string, string> = envOf(runner);
        try {
          const { idle, load, hwm } = await measure(runner, env);
          results[runner].idle.push(idle);
          results[runner].load.push(load);
          if (runner === 'node dist/server/main.js') {
            firstPeak.push(hwm);
            existing.push(await measureExisting(env));
          }
        } finally {
          if (env.DATA_DIR) rmSync(env.DATA_DIR, { recursive: true, force: true });
        }
      }
    }
    console.log(
      `${name.padEnd(11)} node dist/server/main.js  ${summary('on existing data, RSS 5 s after start', existing)}` +
        (name === 'PGlite' ? `, ${summary('first start on a new directory, peak', firstPeak)}` : ''),
    );
    report({
      bench: BENCH,
      measure: `${name}, npm start on existing data, RSS 5 s after start`,
      unit: 'MB',
      rounds: existing.map((kb) => kb / 1024),
      target: { op: '<=', value: EXISTING_TARGET_MB[name] },
    });
    if (name === 'PGlite') {
      report({
        bench: BENCH,
        measure: 'PGlite, npm start on a new directory, peak RSS',
        unit: 'MB',
        rounds: firstPeak.map((kb) => kb / 1024),
        target: { op: '<=', value: NEW_DIRECTORY_PEAK_MB },
      });
    }
    for (const runner of Object.keys(RUNNERS) as Runner[]) {
      console.log(
        `${name.padEnd(11)} ${runner.padEnd(25)} ${summary('idle RSS', results[runner].idle)}, ${summary('peak under load', results[runner].load)}`,
      );
    }
    for (const runner of Object.keys(RUNNERS) as Runner[]) {
      report({
        bench: BENCH,
        measure: `${name}, ${runner}, idle RSS`,
        unit: 'MB',
        rounds: results[runner].idle.map((kb) => kb / 1024),
      });
      report({
        bench: BENCH,
        measure: `${name}, ${runner}, peak RSS under load`,
        unit: 'MB',
        rounds: results[runner].load.map((kb) => kb / 1024),
      });
    }
  }
} finally {
  for (const database of Object.values(databases)) await database.drop();
}
