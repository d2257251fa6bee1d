/**
 * The benchmark report: runs the benchmarks of bench/ one after another (never two at once), each
 * as its own process (`npx tsx bench/<name>.ts`), collects the figures each reports through the file
 * BENCH_REPORT names (one JSON line per figure, see `report` in bench/support.ts), writes them to
 * bench/report.json and prints a table: benchmark, measure, median, spread over rounds (min-max),
 * unit, target and whether it is met.
 *
 *   npm run build && npm run bench                  every benchmark, in alphabetical order
 *   npm run bench -- public-earn issuing            the named ones, in that order
 *
 * The benchmarks' own variables (BENCH_ROUNDS, BENCH_PG_URL, ...) pass through to each of them.
 * Exits 0 when every benchmark ran, whether or not its targets are met (it is a report); 1 when a
 * benchmark crashed (exited non-zero or was killed: the table says which); 2 on a name that is not
 * a benchmark.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Reported } from './support.js';

const BENCH_DIR = 'bench';
const REPORT_FILE = join(BENCH_DIR, 'report.json');
/** Helpers, and parts another benchmark runs (statement: under recurring). */
const NOT_BENCHMARKS = new Set(['run', 'support', 'statement']);

interface Outcome {
  name: string;
  status: 'ok' | 'crashed' | 'interrupted' | 'not run';
  exitCode: number | null;
  signal: string | null;
  seconds: number;
  measures: Reported[];
}

const available = readdirSync(BENCH_DIR)
  .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
  .map((file) => basename(file, '.ts'))
  .filter((name) => !NOT_BENCHMARKS.has(name))
  .sort();

const asked = process.argv.slice(2).map((arg) => basename(arg).replace(/\.ts$/, ''));
const unknown = asked.filter((name) => !available.includes(name));
if (unknown.length) {
  console.error(`not a benchmark: ${unknown.join(', ')}; the benchmarks are: ${available.join(', ')}`);
  process.exit(2);
}
const names = asked.length ? asked : available;

/** The newest modification time under `dir` (ms), for the staleness check of dist/. */
function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

const service = 'dist/server/main.js';
if (!existsSync(service)) {
  console.error(`${service} is missing: build the service first (npm run build)`);
  process.exit(2);
}
if (['server', 'contract', 'migrations'].some((dir) => newest(dir) > statSync(service).mtimeMs)) {
  console.warn(
    `warning: ${service} is older than the sources; the figures are of the last build (npm run build)`,
  );
}

let interrupted = false;
process.on('SIGINT', () => {
  // The benchmark running (same process group) gets the signal too; the table is still written.
  interrupted = true;
});

/** One benchmark as a child process; its reported figures read back from its JSON-lines file. */
async function runOne(name: string): Promise<Outcome> {
  const file = join(tmpdir(), `bms-bench-${process.pid}-${name}.jsonl`);
  rmSync(file, { force: true });
  console.log(`\n=== ${name} (npx tsx bench/${name}.ts) ===\n`);
  const started = performance.now();
  const { exitCode, signal } = await new Promise<{ exitCode: number | null; signal: string | null }>(
    (resolve) => {
      const child = spawn('npx', ['tsx', join(BENCH_DIR, `${name}.ts`)], {
        env: { ...process.env, BENCH_REPORT: file },
        stdio: 'inherit',
      });
      child.once('error', (err) => {
        console.error(`could not start ${name}: ${err.message}`);
        resolve({ exitCode: null, signal: null });
      });
      child.once('close', (code, sig) => resolve({ exitCode: code, signal: sig }));
    },
  );
  const seconds = (performance.now() - started) / 1000;
  const measures = existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Reported)
    : [];
  rmSync(file, { force: true });
  const status = exitCode === 0 ? 'ok' : interrupted ? 'interrupted' : 'crashed';
  return { name, status, exitCode, signal, seconds, measures };
}

const startedAt = new Date();
const outcomes: Outcome[] = [];
for (const name of names) {
  if (interrupted) {
    outcomes.push({ name, status: 'not run', exitCode: null, signal: null, seconds: 0, measures: [] });
    continue;
  }
  outcomes.push(await runOne(name));
}

let commit: string | null = null;
try {
  commit = execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
} catch {
  // not a git checkout
}
writeFileSync(
  REPORT_FILE,
  `${JSON.stringify(
    {
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      commit,
      node: process.version,
      benchmarks: outcomes,
    },
    // NaN (a figure with no finite round) is written as null.
    null,
    2,
  )}\n`,
);

/** 3 significant figures or so: 582, 12.3, 0.93, 0.452. */
function figure(n: number | null): string {
  if (n === null || !Number.isFinite(n)) return '-';
  const size = Math.abs(n);
  const digits = size >= 100 ? 0 : size >= 10 ? 1 : size >= 1 ? 2 : 3;
  return n.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

const header = ['benchmark', 'measure', 'median', 'spread (min-max)', 'unit', 'target', 'result'];
const rows: string[][] = [];
for (const outcome of outcomes) {
  for (const m of outcome.measures) {
    rows.push([
      outcome.name,
      m.measure,
      figure(m.median),
      m.rounds.length > 1 ? `${figure(m.min)}-${figure(m.max)}` : `(1 round)`,
      m.unit,
      m.target ? `${m.target.op} ${m.target.value.toLocaleString('en', { maximumFractionDigits: 3 })}` : '',
      m.met === null ? '' : m.met ? 'met' : 'NOT met',
    ]);
  }
  if (outcome.status !== 'ok') {
    const how =
      outcome.status === 'not run'
        ? 'not run (interrupted)'
        : outcome.signal
          ? `killed by ${outcome.signal}`
          : outcome.exitCode === null
            ? 'did not start'
            : `exit code ${outcome.exitCode}`;
    rows.push([outcome.name, `(${how})`, '', '', '', '', outcome.status.toUpperCase()]);
  } else if (outcome.measures.length === 0) {
    rows.push([outcome.name, '(no figures reported)', '', '', '', '', '']);
  }
}
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]?.length ?? 0)));
const numeric = new Set([2, 3]);
const line = (cells: string[]) =>
  cells
    .map((cell, i) => (numeric.has(i) ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)))
    .join('  ')
    .trimEnd();
const minutes = (outcomes.reduce((sum, o) => sum + o.seconds, 0) / 60).toFixed(1);
console.log(
  `\n=== report: ${outcomes.length} benchmark(s) in ${minutes} min, written to ${REPORT_FILE} ===\n`,
);
console.log(line(header));
console.log(line(widths.map((w) => '-'.repeat(w))));
for (const row of rows) console.log(line(row));

const targets = outcomes.flatMap((o) => o.measures).filter((m) => m.met !== null);
const failed = outcomes.filter((o) => o.status !== 'ok');
console.log(
  `\n${targets.filter((m) => m.met).length} of ${targets.length} targets met` +
    (failed.length ? `; did not finish: ${failed.map((o) => `${o.name} (${o.status})`).join(', ')}` : ''),
);
process.exitCode = interrupted ? 130 : failed.length ? 1 : 0;
