import { sql } from 'kysely';
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

/**
 * True when the database has run exactly the listed migrations: one read, where the migrator takes
 * its lock and checks its tables first (a third of a second on PGlite, at every start).
 */
async function alreadyLatest(db: Db): Promise<boolean> {
  let executed: string[];
  try {
    executed = (await sql<{ name: string }>`SELECT name FROM kysely_migration`.execute(db)).rows.map(
      (r) => r.name,
    );
  } catch {
    return false; // a new database: no migration table yet
  }
  const listed = Object.keys(migrations);
  return executed.length === listed.length && executed.every((name) => name in migrations);
}

export async function migrateToLatest(db: Db): Promise<string[]> {
  if (await alreadyLatest(db)) return [];
  const { error, results } = await migratorFor(db).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error('Migration failed', { cause: error });
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** True when every known migration has run. */
export async function migrationsCurrent(db: Db): Promise<boolean> {
  const all = await migratorFor(db).getMigrations();
  return all.every((m) => m.executedAt !== undefined);
}
