import { CompiledQuery } from 'kysely';
import type pg from 'pg';
import type { Db, Executor } from './database.js';

const pools = new WeakMap<Db, pg.Pool>();

/** Called when a PostgreSQL database is opened: its pool can run named prepared statements. */
export function registerPool(db: Db, pool: pg.Pool): void {
  pools.set(db, pool);
}

/**
 * Runs a fixed SQL text as a named prepared statement, so PostgreSQL parses and plans it once per
 * connection instead of on every call (for the hot paths, such as the public earn, whose planning
 * costs more than their execution). Inside a transaction, and on PGlite, it runs as a plain query.
 * `name` must always go with the same `text`.
 */
export async function runPrepared<R>(
  db: Executor,
  name: string,
  text: string,
  values: readonly unknown[],
): Promise<R[]> {
  const pool = db.isTransaction ? undefined : pools.get(db);
  if (!pool) return (await db.executeQuery(CompiledQuery.raw(text, [...values]))).rows as R[];
  return (await pool.query<R & pg.QueryResultRow>({ name, text, values: [...values] })).rows;
}
