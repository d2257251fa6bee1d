import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../server/config.js';
import { domains } from '../server/domains.js';
import { LOCK_FILE } from '../server/platform/db/data-dir-lock.js';
import { listedMigrations, manifestOf, type TemplateManifest } from '../server/platform/db/template.js';
import { createLogger } from '../server/platform/logger.js';
import { startRuntime } from '../server/platform/runtime.js';

/*
 * Makes dist/pglite-template: a PGlite data directory on which the service has started once (every
 * migration, the job engine's schema and queues), and dist/pglite-template.json naming the
 * migrations it holds. A first start on a new data directory copies it (docs/decisions.md D267).
 * The template is made by the same code a first start runs, so it holds nothing a first start
 * would not.
 */
const started = performance.now();
/** Where the compiled service looks for it (TEMPLATE_DIR of dist/server/platform/db/template.js). */
const TEMPLATE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'pglite-template');
const TEMPLATE_MANIFEST = manifestOf(TEMPLATE_DIR);
rmSync(TEMPLATE_MANIFEST, { force: true });
rmSync(TEMPLATE_DIR, { recursive: true, force: true });
mkdirSync(dirname(TEMPLATE_DIR), { recursive: true });
const scratch = mkdtempSync(join(dirname(TEMPLATE_DIR), 'pglite-template-'));
try {
  const runtime = await startRuntime(
    // A key of its own, never kept: every directory made from the template generates its own.
    loadConfig({
      DATA_DIR: scratch,
      LOG_LEVEL: 'silent',
      MIGRATE_ON_START: 'true',
      ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    }),
    domains,
    { log: createLogger('silent') },
  );
  await runtime.close();
  rmSync(join(scratch, LOCK_FILE), { force: true });
  if (!existsSync(join(scratch, 'PG_VERSION'))) throw new Error('the template has no database');
  if (existsSync(join(scratch, 'encryption.key'))) throw new Error('the template holds a key');
  renameSync(scratch, TEMPLATE_DIR);
  const manifest: TemplateManifest = { migrations: listedMigrations() };
  writeFileSync(TEMPLATE_MANIFEST, JSON.stringify(manifest, null, 2) + '\n');
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
console.log(`PGlite template migrated into ${TEMPLATE_DIR} in ${Math.round(performance.now() - started)} ms`);
