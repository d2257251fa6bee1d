/**
 * Cold start: time from process spawn to the first 200 from /healthz, on PGlite with a new data
 * directory, PGlite with an existing one, and PostgreSQL (a fresh database); then the peak resident
 * memory (VmHWM) of the idle server after a few seconds.
 *
 *   npx tsx bench/cold-start.ts            (PostgreSQL at postgres://postgres@127.0.0.1:5432/postgres)
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scratchDatabase, spawnService, stop, waitHealthy } from './support.js';

const PORT = 3811;

function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

async function run(label: string, env: Record<string, string>, idleMs = 0): Promise<void> {
  const started = performance.now();
  const child = spawnService({ PORT: String(PORT), ...env });
  try {
    await waitHealthy(PORT, child);
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

const database = await scratchDatabase();
try {
  await run('PostgreSQL, fresh database', { DATABASE_URL: database.url }, 5000);
  await run('PostgreSQL, migrated database', { DATABASE_URL: database.url });
} finally {
  await database.drop();
}
