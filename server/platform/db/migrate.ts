import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import { migrations } from '../../../migrations/index.js';
import type { Db } from './database.js';

/** Migrations are listed in code so they ship in the bundle and run the same everywhere. */
class ListedMigrations implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations;
  }
}

export function migratorFor(db: Db): Migrator {
  return new Migrator({ db, provider: new ListedMigrations() });
}

export async function migrateToLatest(db: Db): Promise<string[]> {
  const { error, results } = await migratorFor(db).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error('Migration failed', { cause: error });
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** True when every known migration has run. */
export async function migrationsCurrent(db: Db): Promise<boolean> {
  const all = await migratorFor(db).getMigrations();
  return all.every((m) => m.executedAt !== undefined);
}
