import { readFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import type { TestProject } from 'vitest/node';
import { loadConfig } from '../../server/config.js';
import { domains } from '../../server/domains.js';
import { createLogger } from '../../server/platform/logger.js';
import { startRuntime } from '../../server/platform/runtime.js';
import { createScratchDatabase, markTemplate, onPostgres } from './database.js';
import { TEST_ENV } from './test-env.js';

/**
 * Every test server starts from one database migrated once per run (migrations, the job engine's
 * schema and its queues), rather than migrating its own: on PGlite a dump of the data directory, on
 * PostgreSQL a template database. The migrations still run from empty at every run: the seed is
 * made that way, and test/platform/process.test.ts and multi-process.test.ts start the service's own
 * processes on empty databases.
 */
declare module 'vitest' {
  export interface ProvidedContext {
    /** The PGlite dump's path, or the PostgreSQL template's name; '' when none was made. */
    databaseSeed: string;
  }
}

/** vitest's global set-up: makes the seed, and removes it after the run. */
export default async function makeSeed(project: TestProject): Promise<() => Promise<void>> {
  const log = createLogger('silent');
  if (onPostgres) {
    const scratch = await createScratchDatabase();
    const runtime = await startRuntime(loadConfig({ ...TEST_ENV, DATABASE_URL: scratch.url }), domains, {
      log,
    });
    await runtime.close();
    const drop = await markTemplate(scratch.name);
    project.provide('databaseSeed', scratch.name);
    return drop;
  }
  const runtime = await startRuntime(loadConfig(TEST_ENV), domains, { log });
  let dump: Blob;
  try {
    dump = await runtime.deps.database.pglite!.dumpDataDir('none');
  } finally {
    await runtime.close();
  }
  const dir = await mkdtemp(join(tmpdir(), 'bms-seed-'));
  const path = join(dir, 'pgdata.tar');
  await writeFile(path, Buffer.from(await dump.arrayBuffer()));
  project.provide('databaseSeed', path);
  return () => rm(dir, { recursive: true, force: true });
}

/** The PostgreSQL template test databases are copied from, if the run made one. */
export function seedDatabase(): string | undefined {
  return (onPostgres && inject('databaseSeed')) || undefined;
}

let seed: Promise<Blob | undefined> | undefined;

/** The PGlite dump in-memory test databases start from (read once per test process), if the run made one. */
export function pgliteSeed(): Promise<Blob | undefined> {
  const path = onPostgres ? '' : inject('databaseSeed');
  seed ??= path ? readFile(path).then((bytes) => new Blob([bytes])) : Promise.resolve(undefined);
  return seed;
}
