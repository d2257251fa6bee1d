import { loadConfig } from './config.js';
import { databaseOptions, openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';

const config = loadConfig();
const database = await openDatabase(databaseOptions(config, 1));
try {
  const applied = await migrateToLatest(database.db);
  console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date');
} finally {
  await database.close();
}
