/**
 * Cold start: time from process spawn to the first 200 from /healthz, on PGlite with a new data
 * directory, PGlite with an existing one, and PostgreSQL (a fresh database); then the peak resident
 * memory (VmHWM) of the idle server after a few seconds.
 *
 *   npx tsx bench/cold-start.ts            (PostgreSQL at postgres://postgres@127.0.0.1:5432/postgres)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const PG_SERVER = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PORT = 3811;

async function waitHealthy(deadline: number): Promise<void> {
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${PORT}/healthz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('server did not become healthy in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

async function run(label: string, env: Record<string, string>, idleMs = 0): Promise<void> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: { ...process.env, PORT: String(PORT), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitHealthy(Date.now() + 60_000);
    const ms = Math.round(performance.now() - started);
    let memory = '';
    if (idleMs) {
      await new Promise((r) => setTimeout(r, idleMs));
      memory = `, peak RSS after ${idleMs / 1000} s idle: ${peakRssMb(child.pid!)} MB`;
    }
    console.log(`${label.padEnd(34)} ${ms} ms to /healthz${memory}`);
  } finally {
    await stop(child);
  }
}

const dataDir = mkdtempSync(join(tmpdir(), 'bms-bench-'));
try {
  await run('PGlite, new data directory', { DATA_DIR: dataDir }, 5000);
  await run('PGlite, existing data directory', { DATA_DIR: dataDir }, 5000);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}

const name = `bms_bench_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: PG_SERVER });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
try {
  const url = new URL(PG_SERVER);
  url.pathname = `/${name}`;
  await run('PostgreSQL, fresh database', { DATABASE_URL: url.toString() }, 5000);
  await run('PostgreSQL, migrated database', { DATABASE_URL: url.toString() });
} finally {
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}
