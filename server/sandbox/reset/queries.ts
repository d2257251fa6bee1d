import { sql } from 'kysely';
import type { Executor } from '../../platform/db/database.js';

/**
 * The tables a reset keeps the sandbox's rows in: the business itself and the people and
 * credentials that reach it, its webhook endpoints, the payment provider it connected, and the
 * idempotency keys (the reset's own request is stored there as it runs).
 */
const KEPT = new Set([
  'businesses',
  'users',
  'access_tokens',
  'api_keys',
  'webhooks',
  'payment_connections',
  'idempotency_keys',
]);

interface Reference {
  child: string;
  parent: string;
}

/**
 * Every table with a `business_id` but the kept ones, in groups to empty one after the other:
 * children before the parents they reference, read from the catalogue so that a table a migration
 * adds is reset with the rest. Only references that would refuse the delete order it (NO ACTION /
 * RESTRICT; a cascade or set-null does not, and a table's references to itself go in the one
 * statement). Tables that reference each other (a department's head is one of its employees) form
 * one group, emptied in one statement, where the references are checked at its end.
 */
export async function resetTables(db: Executor): Promise<string[][]> {
  const tables = (
    await sql<{ table_name: string }>`
      SELECT c.table_name FROM information_schema.columns c
      JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.column_name = 'business_id' AND c.table_schema = current_schema()
        AND t.table_type = 'BASE TABLE'`.execute(db)
  ).rows
    .map((r) => r.table_name)
    .filter((t) => !KEPT.has(t))
    .sort();
  const references = (
    await sql<Reference>`
      SELECT c.relname AS child, p.relname AS parent
      FROM pg_constraint k
      JOIN pg_class c ON c.oid = k.conrelid
      JOIN pg_class p ON p.oid = k.confrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE k.contype = 'f' AND k.confdeltype IN ('a', 'r') AND n.nspname = current_schema()
        AND k.conrelid <> k.confrelid`.execute(db)
  ).rows;
  const groups: string[][] = [];
  const left = new Set(tables);
  /** The tables still to be emptied that reference `table`, directly or through others. */
  const referrers = (table: string): Set<string> => {
    const seen = new Set<string>();
    const visit = (t: string) => {
      for (const r of references) {
        if (r.parent === t && left.has(r.child) && !seen.has(r.child)) {
          seen.add(r.child);
          visit(r.child);
        }
      }
    };
    visit(table);
    return seen;
  };
  while (left.size > 0) {
    // The first table whose referrers all reference one another through it: alone when it has none.
    const table = [...left].find((t) => [...referrers(t)].every((r) => referrers(r).has(t)))!;
    const group = [...new Set([table, ...referrers(table)])].sort();
    groups.push(group);
    for (const t of group) left.delete(t);
  }
  return groups;
}

/** Deletes the business's rows of the tables of `group` in one statement; how many went. */
export async function deleteRows(
  db: Executor,
  group: readonly string[],
  businessId: string,
): Promise<number> {
  const [last, ...others] = [...group].reverse() as [string, ...string[]];
  const deletes = others.map(
    (table, i) =>
      sql`${sql.raw(`d${i}`)} AS (DELETE FROM ${sql.table(table)} WHERE business_id = ${businessId} RETURNING 1)`,
  );
  const counts = others.map((_, i) => sql`(SELECT count(*) FROM ${sql.raw(`d${i}`)})`);
  const statement = others.length
    ? sql<{ n: string }>`WITH ${sql.join(deletes)},
        dl AS (DELETE FROM ${sql.table(last)} WHERE business_id = ${businessId} RETURNING 1)
        SELECT (SELECT count(*) FROM dl) + ${sql.join(counts, sql` + `)} AS n`
    : sql<{
        n: string;
      }>`WITH dl AS (DELETE FROM ${sql.table(last)} WHERE business_id = ${businessId} RETURNING 1)
        SELECT count(*) AS n FROM dl`;
  const { rows } = await statement.execute(db);
  return Number(rows[0]?.n ?? 0);
}
