import { isUtf8 } from 'node:buffer';
import busboy from 'busboy';
import { CsvError, parse, type Options as ParseOptions } from 'csv-parse/sync';
import type { NextFunction, Request, Response } from 'express';
import { ControlledTransaction } from 'kysely';
import { z } from 'zod';
import { columnsOf, unescapeCsvText, unwrap } from '../../contract/common/exports.js';
import {
  IMPORT_MAX_BYTES,
  IMPORT_MAX_ROWS,
  type ImportKind,
  type ImportQuery,
  type ImportReport,
  type ImportRow,
} from '../../contract/imports/index.js';
import type { Ctx, TxCtx } from './context.js';
import { recordChanges, summaryOf, type AuditActor, type AuditRecord } from './audit.js';
import { withTransaction, type Db, type Executor, type Trx } from './db/database.js';
import type { Database } from './db/types.js';
import { ApiError, type ErrorDetail } from './errors.js';

/**
 * CSV import (docs/decisions.md D160): a file of customers, products, vendors or employees, read with
 * csv-parse, its columns mapped to the create operation's fields by header name, each row checked by
 * that operation's own schema and matched to an existing record by its key (email or SKU), then
 * written through the domain's own services in one transaction, or not at all.
 */

/** What a domain imports, through its own services so that the usual rules and events apply. */
export interface ImportTarget {
  kind: ImportKind;
  /** The create and update bodies' schemas: a row's fields and checks. */
  create: z.ZodObject<z.ZodRawShape>;
  update: z.ZodObject<z.ZodRawShape>;
  /** The field a row is matched to an existing record by. */
  key: 'email' | 'sku';
  /** The ids of the existing records with these keys (lower-cased), by lower-cased key. */
  existing(ctx: Ctx, keys: readonly string[]): Promise<Map<string, string>>;
  createOne(ctx: TxCtx, body: Record<string, unknown>): Promise<{ id: string }>;
  updateOne(ctx: TxCtx, id: string, body: Record<string, unknown>): Promise<{ id: string }>;
  /** Many creations at once, each as `createOne` would make it, ids in order (the large-file path). */
  createMany?(ctx: TxCtx, bodies: readonly Record<string, unknown>[]): Promise<string[]>;
  /**
   * Many updates at once, each as `updateOne` would make it (its rules, events and webhooks), ids in
   * order. A target with both `createMany` and `updateMany` has no rule beyond its schemas and its
   * unique key, so its dry run checks and matches the rows without writing them.
   */
  updateMany?(
    ctx: TxCtx,
    updates: readonly { id: string; body: Record<string, unknown> }[],
  ): Promise<string[]>;
}

/** How many rows one bulk statement writes. */
const CHUNK = 1000;

/** The largest cell csv-parse reads: a longer one is a broken file, not data. */
const MAX_FIELD_BYTES = 64 * 1024;

const refuseFile = (message: string) =>
  new ApiError('VALIDATION_ERROR', message, [{ field: 'file', message }]);

// ---------------------------------------------------------------------------------------------------
// The request body: text/csv or multipart/form-data, into `req.body.file` as bytes.

/**
 * Reads the import's file before the JSON rule: `text/csv` as is, or the `file` part of a form. Only
 * for a request with a valid credential (authentication answers the others, before any byte is
 * read); a body of another type is left for the operation to refuse once its permission is checked.
 */
export function importBody(req: Request, _res: Response, next: NextFunction): void {
  if (req.method !== 'POST') return next();
  const done = (file?: Buffer) => {
    req.rawBody = file ?? Buffer.alloc(0);
    req.body = file ? { file } : {};
    next();
  };
  const { bearer, apiKey } = req.credentials;
  if (!bearer && !apiKey) return done();
  const tooLarge = () =>
    new ApiError('PAYLOAD_TOO_LARGE', `The file is larger than ${IMPORT_MAX_BYTES / 1024 / 1024} MiB`);
  if (req.is(['text/csv', 'application/csv', 'text/plain'])) {
    readAll(req, tooLarge).then(done, next);
    return;
  }
  if (req.is('multipart/form-data')) {
    readForm(req, tooLarge).then(done, next);
    return;
  }
  done();
}

function readAll(req: Request, tooLarge: () => ApiError): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > IMPORT_MAX_BYTES) {
        req.removeAllListeners('data');
        req.resume();
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function readForm(req: Request, tooLarge: () => ApiError): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let form: busboy.Busboy;
    try {
      form = busboy({
        headers: req.headers,
        limits: { fileSize: IMPORT_MAX_BYTES, fieldSize: IMPORT_MAX_BYTES, files: 2, fields: 20 },
      });
    } catch {
      reject(new ApiError('BAD_REQUEST', 'Malformed multipart/form-data (no boundary)'));
      return;
    }
    let file: Buffer | undefined;
    let failure: ApiError | undefined;
    let parts = 0;
    // Two `file` parts: which one is the import is anyone's guess, so neither is.
    const another = (name: string) => {
      if (name === 'file' && ++parts > 1) {
        failure ??= refuseFile('The form has more than one `file` part: send one file per import');
      }
    };
    form.on('filesLimit', () => {
      failure ??= refuseFile('The form has more than one `file` part: send one file per import');
    });
    form.on('file', (name, stream) => {
      another(name);
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => {
        failure = tooLarge();
      });
      stream.on('end', () => {
        if (name === 'file') file = Buffer.concat(chunks);
      });
    });
    // A form whose `file` is plain text rather than a file part (FormData given a string).
    form.on('field', (name, value, info) => {
      if (name !== 'file') return;
      another(name);
      if (info.valueTruncated) failure = tooLarge();
      else file = Buffer.from(value, 'utf8');
    });
    form.on('error', () => reject(new ApiError('BAD_REQUEST', 'Malformed multipart/form-data')));
    form.on('close', () => {
      if (failure) reject(failure);
      else if (!file) reject(refuseFile('Expected the CSV file in the `file` field of the form'));
      else resolve(file);
    });
    req.pipe(form);
  });
}

// ---------------------------------------------------------------------------------------------------
// The file: bytes to records, header to fields.

/** The 1-based line of byte `offset` in `bytes`. */
const lineAt = (bytes: Buffer, offset: number): number => {
  let line = 1;
  for (let i = bytes.indexOf(10); i !== -1 && i < offset; i = bytes.indexOf(10, i + 1)) line++;
  return line;
};

/** The first line that is not UTF-8. */
function firstBadLine(bytes: Buffer): number {
  let start = 0;
  for (let line = 1; ; line++) {
    const end = bytes.indexOf(10, start);
    if (!isUtf8(bytes.subarray(start, end === -1 ? bytes.length : end))) return line;
    if (end === -1) return line;
    start = end + 1;
  }
}

const CSV_PROBLEMS: Record<string, string> = {
  CSV_QUOTE_NOT_CLOSED: 'a quoted field is never closed',
  CSV_INVALID_CLOSING_QUOTE: 'a quote inside a field that is not quoted as a whole',
  CSV_RECORD_INCONSISTENT_FIELDS_LENGTH: 'the row has a different number of columns from the header',
  CSV_MAX_RECORD_SIZE: `a field is longer than ${MAX_FIELD_BYTES / 1024} KiB`,
  CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE: 'text after a closing quote',
};

/** The file's records with the line each starts on; a broken file is 422 naming its line. */
export function readCsv(bytes: Buffer): { header: string[]; rows: { line: number; cells: string[] }[] } {
  if (bytes.length === 0) throw refuseFile('The file is empty: expected a header row and rows');
  const nul = bytes.indexOf(0);
  if (nul !== -1) throw refuseFile(`Line ${lineAt(bytes, nul)}: the file holds a NUL byte (is it binary?)`);
  if (!isUtf8(bytes)) {
    throw refuseFile(
      `Line ${firstBadLine(bytes)}: the file is not UTF-8 (save it as "CSV UTF-8"; Latin-1 and Windows-1252 ` +
        'are not read)',
    );
  }
  let records: { record: string[]; info: { lines: number } }[];
  // The line the last good record ended on: a broken record starts on the next one.
  let lastEnd = 0;
  try {
    records = parse(bytes, {
      bom: true,
      info: true,
      skip_empty_lines: true,
      max_record_size: MAX_FIELD_BYTES,
      to: IMPORT_MAX_ROWS + 2,
      on_record: (record, context) => {
        lastEnd = context.lines;
        return record;
      },
    } satisfies ParseOptions) as unknown as { record: string[]; info: { lines: number } }[];
  } catch (err) {
    if (!(err instanceof CsvError)) throw err;
    const problem = CSV_PROBLEMS[err.code] ?? err.message.replace(/^Invalid [^:]*: /, '');
    throw refuseFile(`Line ${lastEnd + 1}: ${problem}`);
  }
  const [first, ...rest] = records;
  if (!first) throw refuseFile('The file is empty: expected a header row and rows');
  if (rest.length > IMPORT_MAX_ROWS) {
    throw new ApiError(
      'LIMIT_EXCEEDED',
      `The file has more than ${IMPORT_MAX_ROWS.toLocaleString('en')} rows: split it into several imports`,
      [{ field: 'file', message: `At most ${IMPORT_MAX_ROWS} rows` }],
    );
  }
  // info.lines is the line a record ends on; a record starts after the previous one ended.
  let previousEnd = first.info.lines;
  const rows = rest.map(({ record, info }) => {
    const row = { line: previousEnd + 1, cells: record };
    previousEnd = info.lines;
    return row;
  });
  return { header: first.record, rows };
}

/** `First Name`, `first_name` and `first-name` name the same field. */
const spelling = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The schema of a dotted field of an object schema. */
function fieldSchema(schema: z.ZodObject<z.ZodRawShape>, field: string): z.ZodTypeAny | undefined {
  let current: z.ZodTypeAny = schema;
  for (const part of field.split('.')) {
    const inner = unwrap(current);
    if (inner instanceof z.ZodRecord) return (inner as z.ZodRecord).valueSchema;
    if (!(inner instanceof z.ZodObject)) return undefined;
    const next = (inner as z.ZodObject<z.ZodRawShape>).shape[part];
    if (!next) return undefined;
    current = next;
  }
  return current;
}

interface ColumnMap {
  /** Per header column, the field it fills, or null. */
  fields: (string | null)[];
  mapped: string[];
  unknown: string[];
}

/** Header names to the create schema's (flattened) fields; `attributes.<name>` for a map field. */
export function mapColumns(header: readonly string[], schema: z.ZodObject<z.ZodRawShape>): ColumnMap {
  const known = new Map(columnsOf(schema).map((field) => [spelling(field), field]));
  const maps = Object.entries(schema.shape)
    .filter(([, field]) => unwrap(field) instanceof z.ZodRecord)
    .map(([name]) => name);
  const taken = new Map<string, string>();
  const fields = header.map((column) => {
    const trimmed = column.trim();
    let field = known.get(spelling(trimmed)) ?? null;
    const dot = trimmed.indexOf('.');
    if (!field && dot > 0 && maps.includes(trimmed.slice(0, dot).toLowerCase())) {
      field = `${trimmed.slice(0, dot).toLowerCase()}.${trimmed.slice(dot + 1)}`;
    }
    if (!field) return null;
    const earlier = taken.get(field);
    if (earlier !== undefined) {
      // Two columns of one field: which cell is meant cannot be told, so the file is refused.
      throw new ApiError(
        'VALIDATION_ERROR',
        `The columns "${earlier}" and "${column}" both name the field ${field}: keep one`,
        [{ field: `column.${column}`, message: `The same field (${field}) as the column "${earlier}"` }],
      );
    }
    taken.set(field, column);
    return field;
  });
  return {
    fields,
    mapped: fields.filter((f): f is string => f !== null),
    unknown: header.filter((_, i) => fields[i] === null),
  };
}

/** A cell as the field's type reads it; what cannot be read stays text, for the schema to refuse. */
function cellValue(cell: string, schema: z.ZodTypeAny | undefined): unknown {
  // The export's guard against formulas, taken off again (exactly where the export adds one).
  const text = unescapeCsvText(cell);
  const type = schema ? unwrap(schema) : undefined;
  if (type instanceof z.ZodNumber && /^\s*-?\d+(\.\d+)?\s*$/.test(text)) return Number(text);
  if (type instanceof z.ZodBoolean) {
    const flag = text.trim().toLowerCase();
    if (['true', 'yes', '1'].includes(flag)) return true;
    if (['false', 'no', '0'].includes(flag)) return false;
  }
  if ((type instanceof z.ZodRecord || type instanceof z.ZodObject) && text.trim().startsWith('{')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/** A row's body: each non-empty cell at its field's (dotted) place. */
function bodyOf(
  cells: readonly string[],
  columns: ColumnMap,
  schema: z.ZodObject<z.ZodRawShape>,
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  columns.fields.forEach((field, i) => {
    const cell = cells[i];
    if (!field || cell === undefined || cell.trim() === '') return;
    const parts = field.split('.');
    let target = body;
    for (const part of parts.slice(0, -1)) {
      const next = target[part];
      if (next === null || typeof next !== 'object') target[part] = {};
      target = target[part] as Record<string, unknown>;
    }
    target[parts.at(-1)!] = cellValue(cell, fieldSchema(schema, field));
  });
  return body;
}

const zodErrors = (error: z.ZodError): ErrorDetail[] =>
  error.issues.map((issue) => ({ field: issue.path.join('.') || 'row', message: issue.message }));

function apiErrors(err: ApiError, target: ImportTarget): ErrorDetail[] {
  if (err.details?.length) return err.details;
  return [{ field: err.code === 'CONFLICT' ? target.key : 'row', message: err.message }];
}

// ---------------------------------------------------------------------------------------------------
// The run.

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
        return refuse([{ field: target.key, message: `The same ${target.key} as line ${earlier}` }]);
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
