/**
 * Cold start: time from process spawn to the first 200 from /healthz, on PGlite with a new data
 * directory, PGlite with an existing one, PostgreSQL with a fresh database and with a migrated one;
 * then the peak resident memory (VmHWM) of the idle server after a few seconds, after the first
 * start of each. The starts with existing data (target: PGlite 1.0 s, PostgreSQL 0.5 s) are repeated
 * BENCH_ROUNDS times (default 5): the median and the spread (min-max), each round beside one start
 * with Node's module compile cache turned off (NODE_DISABLE_COMPILE_CACHE=1).
 *
 *   npx tsx bench/cold-start.ts            (PostgreSQL at postgres://postgres@127.0.0.1:5432/postgres)
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { report, scratchDatabase, spawnService, stop, waitHealthy } from './support.js';

const PORT = 3811;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const BENCH = 'cold-start';

function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

/** One start: seconds to /healthz, and the peak RSS (MB) after `idleMs` idle when asked. */
async function run(
  label: string,
  env: Record<string, string>,
  idleMs = 0,
): Promise<{ seconds: number; peakMb?: number }> {
  const started = performance.now();
  const child = spawnService({ PORT: String(PORT), ...env });
  try {
    await waitHealthy(PORT, child);
    const ms = Math.round(performance.now() - started);
    let memory = '';
    let peakMb: number | undefined;
    if (idleMs) {
      await new Promise((r) => setTimeout(r, idleMs));
      peakMb = peakRssMb(child.pid!);
      memory = `, peak RSS after ${idleMs / 1000} s idle: ${peakMb} MB`;
    }
    console.log(`${label.padEnd(34)} ${ms} ms to /healthz${memory}`);
    return { seconds: ms / 1000, peakMb };
  } finally {
    await stop(child);
  }
}

/**
 * A first start (new data, with the idle memory after it), then ROUNDS starts on the data it left,
 * the first of them with its idle memory too; reports the start-up times and the memory.
 */
async function database(
  name: string,
  labels: { first: string; again: string },
  env: Record<string, string>,
  target: number,
): Promise<void> {
  const first = await run(labels.first, env, 5000);
  const again: number[] = [];
  const uncached: number[] = [];
  let againMb: number | undefined;
  // Side by side, alternating: with the module compile cache (as `npm start` runs) and without.
  for (let round = 0; round < ROUNDS; round++) {
    const start = await run(labels.again, env, round === 0 ? 5000 : 0);
    again.push(start.seconds);
    againMb ??= start.peakMb;
    const cold = await run(`${labels.again}, no compile cache`, { ...env, NODE_DISABLE_COMPILE_CACHE: '1' });
    uncached.push(cold.seconds);
  }
  report({
    bench: BENCH,
    measure: `${name}, existing data, to /healthz`,
    unit: 's',
    rounds: again,
    target: { op: '<=', value: target },
  });
  report({
    bench: BENCH,
    measure: `${name}, existing data, to /healthz, compile cache off`,
    unit: 's',
    rounds: uncached,
  });
  report({ bench: BENCH, measure: `${name}, new data, to /healthz`, unit: 's', rounds: [first.seconds] });
  report({
    bench: BENCH,
    measure: `${name}, peak RSS 5 s idle after a first start`,
    unit: 'MB',
    rounds: [first.peakMb ?? NaN],
  });
  report({
    bench: BENCH,
    measure: `${name}, peak RSS 5 s idle, existing data`,
    unit: 'MB',
    rounds: [againMb ?? NaN],
  });
}

const dataDir = mkdtempSync(join(tmpdir(), 'bms-bench-'));
try {
  await database(
    'PGlite',
    { first: 'PGlite, new data directory', again: 'PGlite, existing data directory' },
    { DATA_DIR: dataDir },
    1.0,
  );
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}

const scratch = await scratchDatabase();
try {
  await database(
    'PostgreSQL',
    { first: 'PostgreSQL, fresh database', again: 'PostgreSQL, migrated database' },
    { DATABASE_URL: scratch.url },
    0.5,
  );
} finally {
  await scratch.drop();
}
