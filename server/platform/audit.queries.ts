import { sql, type Insertable, type Selectable } from 'kysely';
import type { ListAuditLogQuery } from '../../contract/audit/index.js';
import type { Executor } from './db/database.js';
import { pageWithTotal } from './db/paged.js';
import type { AuditLogTable } from './db/types.js';

export async function insertAuditEntry(db: Executor, row: Insertable<AuditLogTable>): Promise<void> {
  await db.insertInto('audit_log').values(row).execute();
}

/** Many audit rows in one statement. */
export async function insertAuditEntries(
  db: Executor,
  rows: readonly Insertable<AuditLogTable>[],
): Promise<void> {
  if (rows.length === 0) return;
  await db.insertInto('audit_log').values(rows).execute();
}

/**
 * A refused attempt's row, unless the actor already has one for the operation in the same minute:
 * the partial unique key on (business, actor, operation, minute) makes concurrent refusals write one.
 */
export async function insertDeniedEntry(db: Executor, row: Insertable<AuditLogTable>): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({ ...row, outcome: 'denied' })
    .onConflict((oc) =>
      oc
        .columns(['business_id', 'actor_id', 'operation', 'denied_minute'])
        // A literal, so the planner matches the partial index's predicate.
        .where('outcome', '=', sql.lit('denied'))
        .doNothing(),
    )
    .execute();
}

/**
 * The business's audit entries, newest first, filtered, with their total: `audit_entries` is
 * `audit_log` and the public earns, whose ledger rows are their own record (docs/decisions.md D233).
 */
export async function listAuditEntries(
  db: Executor,
  businessId: string,
  query: Omit<ListAuditLogQuery, 'from' | 'to'> & { from?: Date; to?: Date },
) {
  let base = db
    .selectFrom('audit_entries')
    .select([
      'id',
      'occurred_at',
      'actor_kind',
      'actor_id',
      'operation',
      'outcome',
      'resource_id',
      'request_id',
      'summary',
    ])
    .where('business_id', '=', businessId);
  if (query.actor_id !== undefined) base = base.where('actor_id', '=', query.actor_id);
  if (query.resource_id !== undefined) base = base.where('resource_id', '=', query.resource_id);
  if (query.operation !== undefined) base = base.where('operation', '=', query.operation);
  if (query.outcome !== undefined) base = base.where('outcome', '=', query.outcome);
  if (query.from !== undefined) base = base.where('occurred_at', '>=', query.from);
  if (query.to !== undefined) base = base.where('occurred_at', '<', query.to);
  const { rows, total } = await pageWithTotal(
    base,
    (q) => q.orderBy('occurred_at', 'desc').orderBy('id', 'desc'),
    query,
  );
  // The view's columns are those of audit_log (its CHECKs bind the earns' columns to the same values).
  return { rows: rows as AuditEntryRow[], total };
}

type AuditEntryRow = Pick<
  Selectable<AuditLogTable>,
  | 'id'
  | 'occurred_at'
  | 'actor_kind'
  | 'actor_id'
  | 'operation'
  | 'outcome'
  | 'resource_id'
  | 'request_id'
  | 'summary'
>;
