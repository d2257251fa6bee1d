import { ConfigError, loadConfig } from './config.js';
import { DataDirLockedError } from './platform/db/data-dir-lock.js';
import { databaseOptions, openDatabase } from './platform/db/database.js';
import { migrateToLatest } from './platform/db/migrate.js';

/** `npm run migrate`: applies pending migrations and exits. */
async function main(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase(databaseOptions(config, 1));
  try {
    const applied = await migrateToLatest(database.db);
    console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date');
  } finally {
    await database.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError || err instanceof DataDirLockedError ? err.message : err);
  process.exit(1);
});
