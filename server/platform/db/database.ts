import { copyFileSync, cpSync, existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { ControlledTransaction, Kysely, PGliteDialect, PostgresDialect, sql, type Transaction } from 'kysely';
import pg from 'pg';
import { lockDataDir } from './data-dir-lock.js';
import { isConcurrencyFailure, isLockTimeout } from './errors.js';
import { registerPool } from './prepared.js';
import type { Database } from './types.js';

export type Db = Kysely<Database>;
export type Trx = Transaction<Database>;
/** Either the database handle or a transaction on it. */
export type Executor = Db | Trx;

export interface DatabaseHandle {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The embedded instance, when running on PGlite (pg-boss shares it). */
  pglite?: PGlite;
  connectionString?: string;
  /** The connection pool, when running on PostgreSQL. */
  pool?: pg.Pool;
  /**
   * The rate-limit counters' own few connections, when running on PostgreSQL: a request holding a
   * pool connection in its transaction counts an attempt without waiting for another one from the
   * pool, which a burst of such requests would exhaust for ever (docs/decisions.md D211, "Rate-limit
   * counters have connections of their own").
   */
  counterPool?: pg.Pool;
  /**
   * Calls `onNotify` at each notification on `channel` until the handle closes: PostgreSQL's LISTEN
   * on a connection of its own, PGlite's listener. A lost listening connection is not renewed; what
   * listens must have another way to learn of the work (the relay's timer).
   */
  listen(channel: string, onNotify: () => void): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL connection string; without it the embedded PGlite is used. */
  databaseUrl?: string;
  /** PGlite data directory; `memory://` for an in-memory database. */
  dataDir: string;
  poolSize: number;
  statementTimeoutMs: number;
  /** PGlite's buffer pool (PostgreSQL's `shared_buffers`, e.g. `16MB`); PGlite's own default when absent. */
  pgliteSharedBuffers?: string;
  /**
   * An in-memory PGlite starts from this copy of a data directory (a `dumpDataDir()` tarball)
   * instead of an empty one: a database migrated once, started many times (the tests do).
   */
  pgliteSeed?: Blob;
  /**
   * A PGlite data directory already migrated: a new data directory (one without `PG_VERSION`) is
   * copied from it before PGlite opens it (docs/decisions.md D267).
   */
  pgliteTemplate?: string;
}

/** Connections of the rate-limit counters: one upsert each, a few milliseconds. */
const COUNTER_POOL_SIZE = 3;

const INT8 = 20;
const DATE = 1082;

/** bigint as number (money stays far below 2^53), date as its `YYYY-MM-DD` text. */
const parseInt8 = (v: string) => Number(v);
const parseDate = (v: string) => v;

/** The database settings of the service's configuration. */
export function databaseOptions(
  config: {
    DATABASE_URL?: string;
    DATA_DIR: string;
    DB_POOL_SIZE: number;
    STATEMENT_TIMEOUT_MS: number;
    PGLITE_SHARED_BUFFERS?: string;
  },
  poolSize = config.DB_POOL_SIZE,
): DatabaseOptions {
  return {
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    poolSize,
    statementTimeoutMs: config.STATEMENT_TIMEOUT_MS,
    pgliteSharedBuffers: config.PGLITE_SHARED_BUFFERS,
  };
}

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options);
  return openPglite(options);
}

/**
 * Copies a migrated data directory into a new one, `PG_VERSION` last: PGlite takes a directory
 * with that file for a database, so a copy cut short is made again at the next start.
 */
function copyTemplate(template: string, dataDir: string): void {
  const version = join(template, 'PG_VERSION');
  cpSync(template, dataDir, { recursive: true, filter: (path) => path !== version });
  copyFileSync(version, join(dataDir, 'PG_VERSION'));
}

async function openPglite(options: DatabaseOptions): Promise<DatabaseHandle> {
  let dataDir: string | undefined;
  let unlock = () => {};
  if (options.dataDir !== 'memory://') {
    dataDir = resolve(options.dataDir);
    mkdirSync(dataDir, { recursive: true });
    // Before PGlite reads a byte: a second process would work on a copy and lose its writes.
    unlock = lockDataDir(dataDir);
  }
  let pglite: PGlite;
  try {
    // Loaded here, not with this module: a service on PostgreSQL never holds PGlite's code
    // (docs/decisions.md D274).
    const [{ PGlite }, { btree_gist }, { pg_trgm }] = await Promise.all([
      import('@electric-sql/pglite'),
      import('@electric-sql/pglite/contrib/btree_gist'),
      import('@electric-sql/pglite/contrib/pg_trgm'),
    ]);
    if (dataDir && options.pgliteTemplate && !existsSync(join(dataDir, 'PG_VERSION'))) {
      copyTemplate(options.pgliteTemplate, dataDir);
    }
    pglite = await PGlite.create(dataDir, {
      ...(options.pgliteSeed && !dataDir ? { loadDataDir: options.pgliteSeed } : {}),
      parsers: { [INT8]: parseInt8, [DATE]: parseDate },
      extensions: { btree_gist, pg_trgm },
      // PostgreSQL writes its whole buffer pool at start: PGlite's 128MB default is resident memory
      // (and start-up time) whatever the data's size.
      ...(options.pgliteSharedBuffers
        ? {
            startParams: [
              ...PGlite.defaultStartParams,
              '-c',
              `shared_buffers=${options.pgliteSharedBuffers}`,
            ],
          }
        : {}),
    });
  } catch (err) {
    unlock();
    throw err;
  }
  await pglite.exec(
    `SET statement_timeout = ${Math.trunc(options.statementTimeoutMs)}; SET TIME ZONE 'UTC';`,
  );
  const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) });
  return {
    db,
    kind: 'pglite',
    pglite,
    async listen(channel, onNotify) {
      await pglite.listen(channel, () => onNotify());
    },
    async close() {
      try {
        await db.destroy();
        if (!pglite.closed) await pglite.close();
      } finally {
        unlock();
      }
    },
  };
}

async function openPostgres(connectionString: string, options: DatabaseOptions): Promise<DatabaseHandle> {
  const typeParsers = {
    getTypeParser: (oid: number, format?: 'text' | 'binary') => {
      if (oid === INT8) return parseInt8;
      if (oid === DATE) return parseDate;
      return pg.types.getTypeParser(oid, format) as (v: string) => unknown;
    },
  };
  const pool = new pg.Pool({
    connectionString,
    max: options.poolSize,
    statement_timeout: options.statementTimeoutMs,
    application_name: 'bms',
    types: typeParsers,
    options: '-c TimeZone=UTC',
  });
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it on next use.
  });
  // Connected on first use: only with RATE_LIMIT_STORE=postgres.
  const counterPool = new pg.Pool({
    connectionString,
    max: COUNTER_POOL_SIZE,
    statement_timeout: options.statementTimeoutMs,
    application_name: 'bms-rate-limits',
    types: typeParsers,
    options: '-c TimeZone=UTC',
  });
  counterPool.on('error', () => {
    // As the main pool's.
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  registerPool(db, pool);
  const listeners: pg.Client[] = [];
  return {
    db,
    kind: 'postgres',
    connectionString,
    pool,
    counterPool,
    async listen(channel, onNotify) {
      const client = new pg.Client({ connectionString, application_name: 'bms-listen' });
      client.on('notification', (message) => {
        if (message.channel === channel) onNotify();
      });
      client.on('error', () => {
        // The connection is lost; see `listen`.
      });
      listeners.push(client);
      await client.connect();
      await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    },
    async close() {
      await db.destroy();
      await counterPool.end();
      await Promise.all(listeners.map((client) => client.end().catch(() => undefined)));
    },
  };
}

let savepoints = 0;

/** Transactions whose work is all or nothing: see `allOrNothing`. */
const unisolated = new WeakSet<object>();

/**
 * `trx` for work that succeeds or fails as a whole (a sandbox's clock advance, docs/decisions.md
 * D264): the transactions nested in it run in it directly, without savepoints. Thousands of
 * savepoints in one transaction, each updating the same rows (a numbering row, a day's summary),
 * make every later update of those rows slower (PostgreSQL checks each version's subtransaction), so
 * a long run of them slows down quadratically; a failure undoes the whole anyway.
 */
export function allOrNothing(trx: Trx): Trx {
  unisolated.add(trx);
  return trx;
}

/**
 * Whether a failure of work in a transaction of `db`'s own leaves the rest undone and `db` usable:
 * on the database handle (a transaction of its own) and in a savepoint, but not inside a plain or
 * all-or-nothing transaction, where the failure belongs to the transaction's owner. A sweep that
 * logs one item's failure and goes on asks this first (`sweep` in server/platform/sweep.ts).
 */
export function isolatesFailures(db: Executor): boolean {
  if (!db.isTransaction) return true;
  return db instanceof ControlledTransaction && !unisolated.has(db);
}

/** Attempts of a transaction the database ended by a deadlock or a serialisation failure. */
const TRANSACTION_ATTEMPTS = 4;

/**
 * Runs `fn` in a transaction, or inside the one it is given, so services can call each other.
 * Inside a request-wide transaction (an idempotent request, server/platform/idempotency.ts) `fn` runs in a
 * savepoint: a failure undoes only `fn`'s work and leaves the outer transaction usable, exactly as
 * a transaction of its own would have.
 *
 * A transaction (or savepoint) of its own that PostgreSQL ends with a deadlock or a serialisation
 * failure is run again, a few times after a short random wait (docs/decisions.md D26): `fn` does only
 * database work, and the rollback undid all of it, so a new run starts from nothing. Inside a plain
 * transaction it was given, the failure goes to the owner of that transaction, which alone can
 * start it again.
 */
export async function withTransaction<T>(db: Executor, fn: (trx: Trx) => Promise<T>): Promise<T> {
  if (!isolatesFailures(db)) return fn(db as Trx);
  for (let attempt = 1; ; attempt++) {
    try {
      return await (db instanceof ControlledTransaction
        ? inSavepoint(db as ControlledTransaction<Database>, fn)
        : db.transaction().execute(fn));
    } catch (err) {
      if (attempt >= TRANSACTION_ATTEMPTS || !isConcurrencyFailure(err)) throw err;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
    }
  }
}

/**
 * Refreshes the planner's statistics of `tables` inside `trx`, the rows it has written counted: a
 * transaction that grows one business's tables by thousands of rows is otherwise planned on
 * statistics from before, where that business had next to none, and its lookups by id then walk all
 * of the business's rows through another index (docs/decisions.md D264). Skipped when another
 * transaction holds a table's statistics lock (a concurrent advance), as waiting would hold this one
 * until that one commits.
 */
export async function refreshStatistics(trx: Trx, tables: readonly (keyof Database)[]): Promise<void> {
  await sql`SAVEPOINT refresh_statistics`.execute(trx);
  try {
    const { rows } = await sql<{ before: string }>`
      SELECT current_setting('lock_timeout') AS before, set_config('lock_timeout', '100ms', true)`.execute(
      trx,
    );
    await sql`ANALYZE ${sql.join(tables.map((t) => sql.table(t)))}`.execute(trx);
    await sql`SELECT set_config('lock_timeout', ${rows[0]!.before}, true)`.execute(trx);
    await sql`RELEASE SAVEPOINT refresh_statistics`.execute(trx);
  } catch (err) {
    // The rollback also puts lock_timeout back.
    await sql`ROLLBACK TO SAVEPOINT refresh_statistics`.execute(trx);
    if (!isLockTimeout(err)) throw err;
  }
}

async function inSavepoint<T>(db: ControlledTransaction<Database>, fn: (trx: Trx) => Promise<T>): Promise<T> {
  const name = `sp_${++savepoints}`;
  const inner = await db.savepoint(name).execute();
  try {
    const result = await fn(inner);
    await inner.releaseSavepoint(name).execute();
    return result;
  } catch (err) {
    await inner.rollbackToSavepoint(name).execute();
    throw err;
  }
}
