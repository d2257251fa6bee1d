import { readFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import type { TestProject } from 'vitest/node';
import { loadConfig } from '../../server/config.js';
import { domains } from '../../server/domains.js';
import { createLogger } from '../../server/platform/logger.js';
import { startRuntime, type Runtime } from '../../server/platform/runtime.js';
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

/**
 * The seed holds what the daily rates feed (docs/decisions.md D278) would have stored on
 * 2026-01-02, per euro, so documents in these currencies post in any business from that day on, as
 * they do where the feed runs. Tests of a missing rate use a currency left out here (CHF, SEK, ...).
 */
export const SEEDED_REFERENCE_RATES: Readonly<Record<string, string>> = {
  USD: '1.1',
  GBP: '0.85',
  JPY: '160',
  KWD: '0.34',
  CLF: '0.03',
  AUD: '1.65',
  NZD: '1.8',
};

async function seedReferenceRates(runtime: Runtime): Promise<void> {
  const rows = Object.entries(SEEDED_REFERENCE_RATES).map(([currency, per_euro]) => ({
    currency,
    date: '2026-01-02',
    per_euro,
    fetched_at: new Date('2026-01-02T16:00:00Z'),
  }));
  await runtime.deps.db.insertInto('finance_reference_rates').values(rows).execute();
}

/** vitest's global set-up: makes the seed, and removes it after the run. */
export default async function makeSeed(project: TestProject): Promise<() => Promise<void>> {
  const log = createLogger('silent');
  if (onPostgres) {
    const scratch = await createScratchDatabase();
    const runtime = await startRuntime(loadConfig({ ...TEST_ENV, DATABASE_URL: scratch.url }), domains, {
      log,
    });
    await seedReferenceRates(runtime);
    await runtime.close();
    const drop = await markTemplate(scratch.name);
    project.provide('databaseSeed', scratch.name);
    return drop;
  }
  const runtime = await startRuntime(loadConfig(TEST_ENV), domains, { log });
  let dump: Blob;
  try {
    await seedReferenceRates(runtime);
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
