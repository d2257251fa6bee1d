import { sql, type Insertable } from 'kysely';
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
 * The audit row of a statement that writes its change in one SQL statement (the public earn): an
 * INSERT for a CTE, written only with a row of `onlyWith`, its values as the statement's parameters.
 */
export const auditInsert = (p: {
  businessId: string;
  id: string;
  occurredAt: string;
  actorKind: string;
  actorId: string;
  operation: string;
  requestId: string;
  onlyWith: string;
}) => `
    INSERT INTO audit_log (business_id, id, occurred_at, actor_kind, actor_id, operation, resource_id, request_id)
    SELECT ${p.businessId}, ${p.id}, ${p.occurredAt}, ${p.actorKind}, ${p.actorId}, ${p.operation}, NULL, ${p.requestId}
      FROM ${p.onlyWith}`;

/** The business's audit rows, newest first, filtered, with their total. */
export function listAuditEntries(
  db: Executor,
  businessId: string,
  query: Omit<ListAuditLogQuery, 'from' | 'to'> & { from?: Date; to?: Date },
) {
  let base = db
    .selectFrom('audit_log')
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
  return pageWithTotal(base, (q) => q.orderBy('occurred_at', 'desc').orderBy('id', 'desc'), query);
}
