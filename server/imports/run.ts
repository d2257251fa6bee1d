import { ControlledTransaction } from 'kysely';
import { columnsOf } from '../../contract/common/exports.js';
import type { ImportKind, ImportQuery, ImportReport, ImportRow } from '../../contract/imports/index.js';
import type { Ctx, TxCtx } from '../platform/context.js';
import { recordChanges, summaryOf, type AuditActor, type AuditRecord } from '../platform/audit.js';
import { withTransaction, type Db, type Executor, type Trx } from '../platform/db/database.js';
import type { Database } from '../platform/db/types.js';
import { ApiError, type ErrorDetail } from '../platform/errors.js';
import type { ImportTarget } from '../platform/import-target.js';
import { apiErrors, bodyOf, mapColumns, readCsv, refuseFile, zodErrors, type ColumnMap } from './csv.js';

/**
 * CSV import (docs/decisions.md D160): a file of customers, products, vendors, employees or exchange
 * rates, read with csv-parse, its columns mapped to the create operation's fields by header name, each
 * row checked by that operation's own schema and matched to an existing record by its key (email, SKU,
 * or a rate's currency and date), then written through the domain's own services in one transaction,
 * or not at all.
 */

/** How many rows one bulk statement writes. */
const CHUNK = 1000;

interface Planned extends ImportRow {
  body: Record<string, unknown>;
}

/** Thrown out of the import's savepoint to undo it (a dry run, or all or nothing with a refusal). */
class Undo extends Error {}

/** Who runs the import, for its audit rows. */
export interface ImportAudit {
  actor: AuditActor;
  /** The contract's operation (`importCustomers`): the import's own row, and the prefix of its records' rows. */
  operation: string;
}

/** The targets whose every rule is in their schemas and unique key (see `ImportTarget.updateMany`). */
const setBased = (target: ImportTarget) => target.createMany !== undefined && target.updateMany !== undefined;

/**
 * Reads, checks and (unless a dry run, or all or nothing with a refused row) writes the file's rows in
 * the request's transaction, with their audit rows. All or nothing with a refused row is 422 naming
 * every refused row.
 */
export async function runImport(
  ctx: Ctx,
  target: ImportTarget,
  file: unknown,
  query: ImportQuery,
  audit: ImportAudit,
): Promise<ImportReport> {
  if (!Buffer.isBuffer(file)) {
    throw new ApiError(
      'BAD_REQUEST',
      'Send the CSV file as the body with Content-Type: text/csv, or as the `file` field of multipart/form-data',
    );
  }
  const dryRun = query.dry_run ?? false;
  const allOrNothing = query.all_or_nothing ?? true;
  const { header, rows } = readCsv(file);
  const columns = mapColumns(header, target.create);
  if (columns.mapped.length === 0) {
    throw refuseFile(
      `No column of the header names a field; expected some of: ${columnsOf(target.create).join(', ')}`,
    );
  }
  const planned = await plan(ctx, target, rows, columns);
  // Checking and matching is all a dry run of such a target needs: it writes nothing at all.
  if (dryRun && setBased(target)) return reportOf(target.kind, dryRun, false, columns, planned);
  const outer =
    ctx.db instanceof ControlledTransaction ? null : await (ctx.db as Db).startTransaction().execute();
  const db = (outer ?? ctx.db) as ControlledTransaction<Database>;
  let applied = false;
  try {
    await withTransaction(db, async (trx) => {
      await write({ ...ctx, db: trx }, target, planned);
      const refused = planned.some((row) => row.action === 'refused');
      if (dryRun || (allOrNothing && refused)) throw new Undo();
      await auditImport(trx, ctx, audit, planned);
      applied = true;
    });
  } catch (err) {
    if (!(err instanceof Undo)) {
      await outer?.rollback().execute();
      throw err;
    }
  }
  await outer?.commit().execute();
  const report = reportOf(target.kind, dryRun, applied, columns, planned);
  if (!dryRun && allOrNothing && report.counts.refused > 0) {
    const refused = planned.filter((row) => row.action === 'refused');
    throw new ApiError(
      'VALIDATION_ERROR',
      `${refused.length} of ${planned.length} rows refused, so nothing was imported: correct them, or send ` +
        'all_or_nothing=false to import the valid rows (dry_run=true reports every row)',
      refused
        .slice(0, 100)
        .flatMap((row) =>
          row.errors.map((e) => ({ field: `line.${row.line}.${e.field}`, message: e.message })),
        ),
    );
  }
  return report;
}

/**
 * The import's audit rows (docs/decisions.md D162, "What an import writes to the audit log"): its own,
 * naming no resource, and one per record it created or updated (`importCustomers.create`,
 * `importCustomers.update`), a thousand to a statement.
 */
async function auditImport(db: Executor, ctx: Ctx, audit: ImportAudit, planned: Planned[]): Promise<void> {
  const at = ctx.clock.now();
  const entry = (operation: string, resourceId: string | null, body: unknown): AuditRecord => ({
    businessId: ctx.businessId,
    actor: audit.actor,
    operation,
    resourceId,
    requestId: ctx.requestId,
    at,
    summary: body === null ? null : summaryOf(operation, null, body),
  });
  const records = [
    entry(audit.operation, null, null),
    ...planned
      .filter((row) => row.action !== 'refused')
      .map((row) => entry(`${audit.operation}.${row.action}`, row.id, row.body)),
  ];
  for (let i = 0; i < records.length; i += CHUNK) await recordChanges(db, records.slice(i, i + CHUNK));
}

/** Each row's body, action and the record it updates, checked by the operation's schema. */
async function plan(
  ctx: Ctx,
  target: ImportTarget,
  rows: { line: number; cells: string[] }[],
  columns: ColumnMap,
): Promise<Planned[]> {
  const bodies = rows.map((row) => bodyOf(row.cells, columns, target.create));
  const keyOf = (body: Record<string, unknown>) => {
    if (target.compositeKey) return target.compositeKey.of(body);
    const key = body[target.key];
    return typeof key === 'string' && key.trim() !== '' ? key.trim().toLowerCase() : null;
  };
  const keys = [...new Set(bodies.map(keyOf).filter((k): k is string => k !== null))];
  const existing = keys.length > 0 ? await target.existing(ctx, keys) : new Map<string, string>();
  const firstLine = new Map<string, number>();
  return rows.map((row, i) => {
    const body = bodies[i]!;
    const key = keyOf(body);
    const refuse = (errors: ErrorDetail[]): Planned => ({
      line: row.line,
      action: 'refused',
      id: null,
      errors,
      body,
    });
    if (key !== null) {
      const earlier = firstLine.get(key);
      if (earlier !== undefined) {
        const name = target.compositeKey?.name ?? target.key;
        return refuse([{ field: target.key, message: `The same ${name} as line ${earlier}` }]);
      }
      firstLine.set(key, row.line);
    }
    const id = key !== null ? (existing.get(key) ?? null) : null;
    const parsed = (id ? target.update : target.create).safeParse(body);
    if (!parsed.success) return refuse(zodErrors(parsed.error));
    return { line: row.line, action: id ? 'update' : 'create', id, errors: [], body: parsed.data };
  });
}

/**
 * Writes the planned rows: creations, then updates, a thousand to a statement where the target can;
 * a chunk the database refuses (a unique key taken meanwhile) is written again row by row, so that
 * exactly the rows it refuses are marked refused.
 */
async function write(ctx: TxCtx, target: ImportTarget, planned: Planned[]): Promise<void> {
  const valid = planned.filter((row) => row.action !== 'refused');
  const creates = valid.filter((row) => row.action === 'create');
  const updates = valid.filter((row) => row.action === 'update');
  await writeAll(
    ctx,
    target,
    creates,
    target.createMany
      ? (trx, rows) =>
          target.createMany!(
            trx,
            rows.map((r) => r.body),
          )
      : undefined,
  );
  await writeAll(
    ctx,
    target,
    updates,
    target.updateMany
      ? (trx, rows) =>
          target.updateMany!(
            trx,
            rows.map((r) => ({ id: r.id!, body: r.body })),
          )
      : undefined,
  );
}

async function writeAll(
  ctx: TxCtx,
  target: ImportTarget,
  rows: Planned[],
  many: ((ctx: TxCtx, rows: Planned[]) => Promise<string[]>) | undefined,
): Promise<void> {
  if (!many) {
    for (const row of rows) await writeRow(ctx, target, row);
    return;
  }
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    const ids = await withTransaction(ctx.db, (trx) => many({ ...ctx, db: trx }, chunk)).catch(
      (err: unknown) => {
        if (err instanceof ApiError) return null; // Found row by row below.
        throw err;
      },
    );
    if (ids) chunk.forEach((row, j) => (row.id = ids[j]!));
    else for (const row of chunk) await writeRow(ctx, target, row);
  }
}

async function writeRow(ctx: TxCtx, target: ImportTarget, row: Planned): Promise<void> {
  try {
    const { id } = await withTransaction(ctx.db, (trx: Trx) =>
      row.action === 'update'
        ? target.updateOne({ ...ctx, db: trx }, row.id!, row.body)
        : target.createOne({ ...ctx, db: trx }, row.body),
    );
    row.id = id;
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    Object.assign(row, { action: 'refused', id: null, errors: apiErrors(err, target) });
  }
}

function reportOf(
  kind: ImportKind,
  dryRun: boolean,
  applied: boolean,
  columns: ColumnMap,
  planned: Planned[],
): ImportReport {
  const count = (action: ImportRow['action']) => planned.filter((row) => row.action === action).length;
  return {
    kind,
    dry_run: dryRun,
    applied,
    columns: { mapped: columns.mapped, unknown: columns.unknown },
    counts: {
      rows: planned.length,
      create: count('create'),
      update: count('update'),
      refused: count('refused'),
    },
    rows: planned.map(({ line, action, id, errors }) => ({
      line,
      // A dry run's creations were undone: their ids name nothing.
      id: action === 'create' && !applied ? null : id,
      action,
      errors,
    })),
  };
}
