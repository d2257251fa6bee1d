import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';
import { domains } from '../../server/domains.js';
import { openDatabase } from '../../server/platform/db/database.js';
import { migrateToLatest } from '../../server/platform/db/migrate.js';
import { LOCK_FILE } from '../../server/platform/db/data-dir-lock.js';
import { listedMigrations, manifestOf, migratedTemplate } from '../../server/platform/db/template.js';
import { createLogger } from '../../server/platform/logger.js';
import { startRuntime } from '../../server/platform/runtime.js';

/** A first start on a new PGlite directory copies a migrated one (docs/decisions.md D267). */
let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'bms-template-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A directory that looks like a template to `migratedTemplate`, its manifest naming `names`. */
function fakeTemplate(name: string, names: unknown): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'PG_VERSION'), '17\n');
  writeFileSync(manifestOf(dir), JSON.stringify({ migrations: names }));
  return dir;
}

const tableNames = async (db: Awaited<ReturnType<typeof openDatabase>>['db']) =>
  (
    await sql<{ name: string }>`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'`.execute(
      db,
    )
  ).rows.map((r) => r.name);

describe('which template a start may use', () => {
  it('one that ran exactly the migrations of this build', () => {
    const dir = fakeTemplate('same', listedMigrations());
    expect(migratedTemplate(dir)).toBe(dir);
  });

  it('never one of another build: a migration fewer, more, or in another order', () => {
    const listed = listedMigrations();
    expect(migratedTemplate(fakeTemplate('fewer', listed.slice(0, -1)))).toBeUndefined();
    expect(migratedTemplate(fakeTemplate('more', [...listed, '2099_01_01_0001_later']))).toBeUndefined();
    expect(
      migratedTemplate(fakeTemplate('order', [listed[1], listed[0], ...listed.slice(2)])),
    ).toBeUndefined();
  });

  it('none when the manifest is missing or unreadable, or the directory holds no database', () => {
    const noManifest = fakeTemplate('no-manifest', listedMigrations());
    rmSync(manifestOf(noManifest));
    expect(migratedTemplate(noManifest)).toBeUndefined();

    const broken = fakeTemplate('broken', listedMigrations());
    writeFileSync(manifestOf(broken), '{"migrations": [');
    expect(migratedTemplate(broken)).toBeUndefined();
    expect(migratedTemplate(fakeTemplate('not-a-list', 'all of them'))).toBeUndefined();

    const empty = fakeTemplate('empty', listedMigrations());
    rmSync(join(empty, 'PG_VERSION'));
    expect(migratedTemplate(empty)).toBeUndefined();
  });
});

describe('a new data directory made from a template', () => {
  let template: string;
  beforeAll(async () => {
    // Made the way scripts/pglite-template.ts makes dist/pglite-template.
    template = join(root, 'template');
    const runtime = await startRuntime(
      loadConfig({ DATA_DIR: template, ENCRYPTION_KEY: randomBytes(32).toString('hex') }),
      domains,
      { log: createLogger('silent') },
    );
    await runtime.close();
    rmSync(join(template, LOCK_FILE), { force: true });
  }, 120_000);

  /** `dataDir` opened as a start that migrates opens it, with the template. */
  const openFromTemplate = (dataDir: string) =>
    openDatabase({ dataDir, poolSize: 1, statementTimeoutMs: 10_000, pgliteTemplate: template });

  it('opens migrated: no migration is left to run, and the template is left as it was', async () => {
    const before = readdirSync(template).sort();
    const dataDir = join(root, 'new');
    const database = await openFromTemplate(dataDir);
    try {
      expect(await migrateToLatest(database.db)).toEqual([]);
      expect(await tableNames(database.db)).toEqual(expect.arrayContaining(['businesses', 'invoices']));
      await sql`CREATE TABLE only_here (x int)`.execute(database.db);
    } finally {
      await database.close();
    }
    expect(readdirSync(template).sort()).toEqual(before);
    expect(existsSync(join(template, 'base'))).toBe(true);
  });

  it('is never copied over a directory that holds a database', async () => {
    const dataDir = join(root, 'new');
    const database = await openFromTemplate(dataDir);
    try {
      // The table made at the first open is still there: the second open did not copy.
      expect(await tableNames(database.db)).toContain('only_here');
    } finally {
      await database.close();
    }
  });

  it('is made again when a copy was cut short before its PG_VERSION', async () => {
    const dataDir = join(root, 'cut-short');
    mkdirSync(join(dataDir, 'base'), { recursive: true });
    writeFileSync(join(dataDir, 'base', 'half-written'), 'x');
    const database = await openFromTemplate(dataDir);
    try {
      expect(await migrateToLatest(database.db)).toEqual([]);
    } finally {
      await database.close();
    }
  });
});

describe('the template the build makes', () => {
  const built = join(import.meta.dirname, '..', '..', 'dist', 'pglite-template');

  it('names the migrations of this build and holds no key and no lock of the process that made it', () => {
    expect(migratedTemplate(built), 'run `npm run build`: it makes dist/pglite-template').toBe(built);
    expect(existsSync(join(built, 'encryption.key'))).toBe(false);
    expect(existsSync(join(built, LOCK_FILE))).toBe(false);
  });
});
