import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Executor } from '../../server/platform/db/database.js';
import { useTestServer } from '../support/setup.js';

/**
 * The schema can be distributed by business_id with Citus (docs/decisions.md D226,
 * docs/scaling.md): read from the catalogue of a migrated database, every tenant table (one with a
 * business_id column) has business_id in its primary key, in every unique constraint and unique
 * index, and on both sides of every foreign key to another tenant table; a shard can only enforce
 * what lies on it. The tables that are not distributed are listed below with the reason, so a new
 * table without business_id fails here until someone decides where it lives.
 */

/**
 * Where a global table goes on a Citus cluster: `reference` is copied to every node (read anywhere,
 * joined with any shard, written on all nodes at once); `coordinator` stays a plain table on the
 * coordinator (written often, never joined with tenant rows).
 */
type Placement = 'reference' | 'coordinator';

/** Tables of the public schema that are not distributed by business_id, and why. */
const GLOBAL_TABLES: Record<string, { placement: Placement; reason: string }> = {
  businesses: {
    placement: 'reference',
    reason: 'the tenant registry: its id is the business_id every tenant table references',
  },
  users: {
    placement: 'reference',
    reason: 'a person signs in by email before a business is chosen, and may belong to several',
  },
  access_tokens: {
    placement: 'reference',
    reason: 'a bearer token is found by its hash before its business is known',
  },
  user_recovery_codes: {
    placement: 'reference',
    reason: "a person's own, across every business they belong to, read at sign-in",
  },
  sign_in_challenges: {
    placement: 'reference',
    reason:
      'the second sign-in step finds its challenge by the hash of its token, before its business is known',
  },
  password_resets: {
    placement: 'reference',
    reason: "a reset link is a person's, across every business, and is found by the hash of its token",
  },
  api_keys: {
    placement: 'reference',
    reason: 'an X-Api-Key is found by its hash before its business is known',
  },
  invitations: {
    placement: 'reference',
    reason: 'an invitation is accepted by the hash of its token, before its business is known',
  },
  finance_reference_rates: {
    placement: 'reference',
    reason: "the daily feed's exchange rates, the same for every business and read by each one's postings",
  },
  rate_limits: {
    placement: 'coordinator',
    reason: 'counters keyed by credential or client address, written on every request',
  },
  kysely_migration: { placement: 'coordinator', reason: 'the migrations that have run' },
  kysely_migration_lock: { placement: 'coordinator', reason: 'the lock that lets one process migrate' },
};

/** Schemas whose every table stays on the coordinator, and why. */
const GLOBAL_SCHEMAS: Record<string, string> = {
  pgboss: "pg-boss's queues: the jobs of every business, claimed by any worker with SKIP LOCKED",
};

const BUSINESS_ID = 'business_id';

interface Table {
  name: string;
  hasBusinessId: boolean;
}

/** Every table of every schema but PostgreSQL's own, public ones by their bare name. */
async function tables(db: Executor): Promise<Table[]> {
  const { rows } = await sql<{ schema: string; name: string; has_business_id: boolean }>`
    SELECT n.nspname AS schema, c.relname AS name,
           EXISTS (SELECT 1 FROM pg_attribute a
                   WHERE a.attrelid = c.oid AND a.attname = ${BUSINESS_ID} AND NOT a.attisdropped)
             AS has_business_id
    FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE c.relkind IN ('r', 'p')
      AND n.nspname NOT IN ('pg_catalog', 'information_schema')
      AND n.nspname NOT LIKE 'pg\\_toast%' AND n.nspname NOT LIKE 'pg\\_temp%'
    ORDER BY 1, 2`.execute(db);
  return rows
    .filter((r) => !(r.schema in GLOBAL_SCHEMAS))
    .map((r) => ({
      name: r.schema === 'public' ? r.name : `${r.schema}.${r.name}`,
      hasBusinessId: r.has_business_id,
    }));
}

/** The tables distributed by business_id: those with the column that are not global. */
const tenantTables = (all: readonly Table[]): Set<string> =>
  new Set(all.filter((t) => t.hasBusinessId && !(t.name in GLOBAL_TABLES)).map((t) => t.name));

/** Tables without business_id that the list does not place, and listed tables that are gone. */
function unplacedTables(all: readonly Table[]): string[] {
  const names = new Set(all.map((t) => t.name));
  return [
    ...all
      .filter((t) => !t.hasBusinessId && !(t.name in GLOBAL_TABLES))
      .map(
        (t) =>
          `${t.name} has no business_id and is not in GLOBAL_TABLES: add business_id, or list it with the reason`,
      ),
    ...Object.keys(GLOBAL_TABLES)
      .filter((name) => !names.has(name))
      .map((name) => `${name} is in GLOBAL_TABLES but no longer exists`),
  ];
}

/** Primary keys, unique and exclusion constraints and unique indexes of tenant tables without business_id. */
async function keysWithoutBusinessId(db: Executor, tenants: ReadonlySet<string>): Promise<string[]> {
  const { rows } = await sql<{
    table: string;
    index: string;
    contype: string | null;
    definition: string;
    columns: string[];
  }>`
    SELECT CASE WHEN n.nspname = 'public' THEN c.relname ELSE n.nspname || '.' || c.relname END AS table,
           i.relname AS index, con.contype,
           coalesce(pg_get_constraintdef(con.oid), pg_get_indexdef(x.indexrelid)) AS definition,
           ARRAY(SELECT a.attname::text
                 FROM unnest(x.indkey) WITH ORDINALITY AS k(attnum, ord)
                 JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.attnum
                 WHERE k.ord <= x.indnkeyatts
                 ORDER BY k.ord) AS columns
    FROM pg_index x
    JOIN pg_class c ON c.oid = x.indrelid
    JOIN pg_class i ON i.oid = x.indexrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    LEFT JOIN pg_constraint con
      ON con.conindid = x.indexrelid AND con.conrelid = x.indrelid AND con.contype IN ('p', 'u', 'x')
    WHERE (x.indisunique OR x.indisexclusion)
    ORDER BY 1, 2`.execute(db);
  const kinds: Record<string, string> = {
    p: 'primary key',
    u: 'unique constraint',
    x: 'exclusion constraint',
  };
  return rows
    .filter((r) => tenants.has(r.table) && !r.columns.includes(BUSINESS_ID))
    .map(
      (r) =>
        `${r.table}: ${kinds[r.contype ?? ''] ?? 'unique index'} ${r.index} ${r.definition} does not include business_id`,
    );
}

/**
 * Foreign keys Citus would refuse: between tenant tables without business_id paired with
 * business_id, from a global table to a tenant table, and from a tenant table to a table that stays
 * on the coordinator.
 */
async function foreignKeyProblems(db: Executor, tenants: ReadonlySet<string>): Promise<string[]> {
  const { rows } = await sql<{
    name: string;
    from_table: string;
    to_table: string;
    definition: string;
    from_columns: string[];
    to_columns: string[];
  }>`
    SELECT con.conname AS name,
           CASE WHEN sn.nspname = 'public' THEN src.relname ELSE sn.nspname || '.' || src.relname END
             AS from_table,
           CASE WHEN dn.nspname = 'public' THEN dst.relname ELSE dn.nspname || '.' || dst.relname END
             AS to_table,
           pg_get_constraintdef(con.oid) AS definition,
           ARRAY(SELECT a.attname::text
                 FROM unnest(con.conkey) WITH ORDINALITY AS k(attnum, ord)
                 JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum
                 ORDER BY k.ord) AS from_columns,
           ARRAY(SELECT a.attname::text
                 FROM unnest(con.confkey) WITH ORDINALITY AS k(attnum, ord)
                 JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.attnum
                 ORDER BY k.ord) AS to_columns
    FROM pg_constraint con
    JOIN pg_class src ON src.oid = con.conrelid
    JOIN pg_namespace sn ON sn.oid = src.relnamespace
    JOIN pg_class dst ON dst.oid = con.confrelid
    JOIN pg_namespace dn ON dn.oid = dst.relnamespace
    WHERE con.contype = 'f'
    ORDER BY 2, 1`.execute(db);
  /** undefined for a table not placed yet (reported on its own). */
  const placement = (table: string): Placement | 'distributed' | undefined =>
    tenants.has(table)
      ? 'distributed'
      : table.includes('.') && table.split('.')[0]! in GLOBAL_SCHEMAS
        ? 'coordinator'
        : GLOBAL_TABLES[table]?.placement;
  const problems: string[] = [];
  for (const fk of rows) {
    const from = placement(fk.from_table);
    const to = placement(fk.to_table);
    const where = `${fk.from_table}: foreign key ${fk.name} ${fk.definition}`;
    if (from === 'distributed' && to === 'distributed') {
      const paired = fk.from_columns.some((c, i) => c === BUSINESS_ID && fk.to_columns[i] === BUSINESS_ID);
      if (!paired) problems.push(`${where} does not join business_id to business_id`);
    } else if (to === 'distributed' && from !== undefined) {
      problems.push(`${where} goes from a ${from} table to a distributed one`);
    } else if (from === 'distributed' && to === 'coordinator') {
      problems.push(`${where} goes from a distributed table to one that stays on the coordinator`);
    }
  }
  return problems;
}

/** Everything Citus would refuse in the schema `db` sees, as one list of messages. */
async function citusProblems(db: Executor): Promise<string[]> {
  const all = await tables(db);
  const tenants = tenantTables(all);
  return [
    ...unplacedTables(all),
    ...(await keysWithoutBusinessId(db, tenants)),
    ...(await foreignKeyProblems(db, tenants)),
  ];
}

const server = useTestServer({ worker: false });

class RolledBack extends Error {}

describe('the schema, ready to be distributed by business_id (Citus)', () => {
  it('places every table without business_id in the list of global tables, with its reason', async () => {
    expect(unplacedTables(await tables(server().deps.db))).toEqual([]);
  });

  it('includes business_id in the primary key, every unique constraint and every unique index of a tenant table', async () => {
    const db = server().deps.db;
    expect(await keysWithoutBusinessId(db, tenantTables(await tables(db)))).toEqual([]);
  });

  it('joins business_id to business_id in every foreign key between tenant tables, and no global table references a tenant table', async () => {
    const db = server().deps.db;
    expect(await foreignKeyProblems(db, tenantTables(await tables(db)))).toEqual([]);
  });

  it('names the table and the constraint of each problem it finds', async () => {
    let found: string[] = [];
    // The probe tables live only inside this transaction, which is rolled back.
    await server()
      .deps.db.transaction()
      .execute(async (trx) => {
        await sql`CREATE TABLE citus_probe_global (id text PRIMARY KEY)`.execute(trx);
        await sql`CREATE TABLE citus_probe (
            business_id text NOT NULL REFERENCES businesses (id),
            id text NOT NULL,
            code text NOT NULL UNIQUE,
            email text NOT NULL,
            PRIMARY KEY (business_id, id)
          )`.execute(trx);
        await sql`CREATE UNIQUE INDEX citus_probe_email_key ON citus_probe (lower(email))`.execute(trx);
        await sql`CREATE TABLE citus_probe_child (
            business_id text NOT NULL,
            probe_id text NOT NULL,
            limit_key text REFERENCES rate_limits (key),
            FOREIGN KEY (probe_id, business_id) REFERENCES citus_probe (business_id, id)
          )`.execute(trx);
        await sql`ALTER TABLE invitations ADD CONSTRAINT invitations_probe_fkey
            FOREIGN KEY (business_id, id) REFERENCES citus_probe (business_id, id)`.execute(trx);
        // Only the probes' problems: the rest of the schema is the other tests' business.
        found = (await citusProblems(trx)).filter((problem) => problem.includes('probe'));
        throw new RolledBack();
      })
      .catch((err: unknown) => {
        if (!(err instanceof RolledBack)) throw err;
      });
    expect(found).toEqual([
      'citus_probe_global has no business_id and is not in GLOBAL_TABLES: add business_id, or list it with the reason',
      'citus_probe: unique constraint citus_probe_code_key UNIQUE (code) does not include business_id',
      'citus_probe: unique index citus_probe_email_key CREATE UNIQUE INDEX citus_probe_email_key ON public.citus_probe USING btree (lower(email)) does not include business_id',
      'citus_probe_child: foreign key citus_probe_child_limit_key_fkey FOREIGN KEY (limit_key) REFERENCES rate_limits(key) goes from a distributed table to one that stays on the coordinator',
      'citus_probe_child: foreign key citus_probe_child_probe_id_business_id_fkey FOREIGN KEY (probe_id, business_id) REFERENCES citus_probe(business_id, id) does not join business_id to business_id',
      'invitations: foreign key invitations_probe_fkey FOREIGN KEY (business_id, id) REFERENCES citus_probe(business_id, id) goes from a reference table to a distributed one',
    ]);
  });
});
