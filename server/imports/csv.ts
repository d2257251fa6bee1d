import { isUtf8 } from 'node:buffer';
import { CsvError, parse, type Options as ParseOptions } from 'csv-parse/sync';
import { z } from 'zod';
import { columnsOf, unescapeCsvText, unwrap } from '../../contract/common/exports.js';
import { IMPORT_MAX_ROWS } from '../../contract/imports/index.js';
import { ApiError, type ErrorDetail } from '../platform/errors.js';
import type { ImportTarget } from '../platform/import-target.js';

/* The file of a CSV import: bytes to records, header to fields. */

/** The largest cell csv-parse reads: a longer one is a broken file, not data. */
const MAX_FIELD_BYTES = 64 * 1024;

export const refuseFile = (message: string) =>
  new ApiError('VALIDATION_ERROR', message, [{ field: 'file', message }]);

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

export interface ColumnMap {
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
export function bodyOf(
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

export const zodErrors = (error: z.ZodError): ErrorDetail[] =>
  error.issues.map((issue) => ({ field: issue.path.join('.') || 'row', message: issue.message }));

export function apiErrors(err: ApiError, target: ImportTarget): ErrorDetail[] {
  if (err.details?.length) return err.details;
  return [{ field: err.code === 'CONFLICT' ? target.key : 'row', message: err.message }];
}
