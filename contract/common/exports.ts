import { isAppRoute, type AppRoute, type AppRouter } from '@ts-rest/core';
import { z } from 'zod';

/**
 * CSV export of the lists (docs/decisions.md D155): every list operation (a GET whose 200 answer holds one
 * array of items) also answers `text/csv`, asked for with `Accept: text/csv` or `?format=csv`. The
 * columns are the item's JSON fields, nested objects flattened with dotted names (`address.city`);
 * arrays and free-form maps (`attributes`) are one cell of JSON. A list whose items are better read
 * as several rows (a journal entry's lines) names its own row shape on the route's metadata.
 */
export interface CsvRows<Item = never, Row extends Record<string, unknown> = Record<string, unknown>> {
  /** The shape of one CSV row: its fields, flattened, are the columns. */
  row: z.ZodObject<z.ZodRawShape>;
  /** The rows of one item of the JSON list. */
  rowsOf(item: Item): Row[];
}

/** The `csv` entry of a route's metadata, for a list whose rows are not its items. */
export interface CsvMetadata {
  csv?: CsvRows<never>;
}

/** The two formats of a list; `format` in the query overrides `Accept`. */
export const EXPORT_FORMATS = ['json', 'csv'] as const;

export const ExportFormatSchema = z
  .enum(EXPORT_FORMATS)
  .describe('`csv` answers every matching item as CSV (the same as `Accept: text/csv`).');

/** What a list operation answers in CSV: where its items are in the JSON answer, and its columns. */
export interface CsvListing {
  /** The field of the JSON answer holding the page's items (`data`, `entries`, `members`). */
  itemsField: string;
  columns: string[];
  /** One item's CSV rows (the item itself, unless the route's metadata says otherwise). */
  rowsOf(item: unknown): Record<string, unknown>[];
}

/** Strips optional, nullable, default and effect wrappers down to the type that holds values. */
export function unwrap(schema: z.ZodTypeAny): z.ZodTypeAny {
  let current: z.ZodTypeAny = schema;
  for (;;) {
    if (current instanceof z.ZodOptional || current instanceof z.ZodNullable) {
      current = (current as z.ZodOptional<z.ZodTypeAny>).unwrap();
    } else if (current instanceof z.ZodDefault) {
      current = (current as z.ZodDefault<z.ZodTypeAny>).removeDefault();
    } else if (current instanceof z.ZodEffects) {
      current = (current as z.ZodEffects<z.ZodTypeAny>).innerType();
    } else if (current instanceof z.ZodLazy) {
      current = (current as z.ZodLazy<z.ZodTypeAny>).schema;
    } else return current;
  }
}

/** The flattened column names of an object schema: `a`, `b.c`, in the schema's field order. */
export function columnsOf(schema: z.ZodObject<z.ZodRawShape>, prefix = ''): string[] {
  return Object.entries(schema.shape).flatMap(([name, field]) => {
    const inner = unwrap(field);
    return inner instanceof z.ZodObject
      ? columnsOf(inner as z.ZodObject<z.ZodRawShape>, `${prefix}${name}.`)
      : [`${prefix}${name}`];
  });
}

/**
 * The CSV listing of a route, or null when it is not a list: a GET whose 200 answer is an object with
 * exactly one array field.
 */
export function csvListingOf(route: AppRoute): CsvListing | null {
  if (route.method !== 'GET') return null;
  const ok: unknown = route.responses[200];
  if (!(ok instanceof z.ZodObject)) return null;
  const shape = (ok as z.ZodObject<z.ZodRawShape>).shape;
  const arrays = Object.entries(shape).filter(([, schema]) => unwrap(schema) instanceof z.ZodArray);
  if (arrays.length !== 1) return null;
  const [[itemsField, arraySchema]] = arrays as [[string, z.ZodTypeAny]];
  const custom = (route.metadata as CsvMetadata | undefined)?.csv;
  if (custom)
    return { itemsField, columns: columnsOf(custom.row), rowsOf: (item) => custom.rowsOf(item as never) };
  const item = unwrap((unwrap(arraySchema) as z.ZodArray<z.ZodTypeAny>).element);
  if (!(item instanceof z.ZodObject)) return null;
  return {
    itemsField,
    columns: columnsOf(item as z.ZodObject<z.ZodRawShape>),
    rowsOf: (value) => [value as Record<string, unknown>],
  };
}

/** Every list operation of a router, by operation name. */
export function listOperationsOf(router: AppRouter): Map<string, AppRoute> {
  const found = new Map<string, AppRoute>();
  const walk = (r: AppRouter) => {
    for (const [name, value] of Object.entries(r)) {
      if (isAppRoute(value)) {
        if (csvListingOf(value)) found.set(name, value);
      } else walk(value);
    }
  };
  walk(router);
  return found;
}

/** A row's value at a dotted column name (`address.city`, or its parts), or undefined. */
export function valueAt(row: Record<string, unknown>, column: string | readonly string[]): unknown {
  const parts = typeof column === 'string' ? column.split('.') : column;
  if (parts.length === 1) return row[parts[0]!];
  let value: unknown = row;
  for (const part of parts) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** `=`, `+`, `-`, `@`, tab and carriage return: how a spreadsheet formula may start. */
const FORMULA_STARTS = new Set([0x3d, 0x2b, 0x2d, 0x40, 0x09, 0x0d]);
const APOSTROPHE = 0x27;

/**
 * Whether a text cell is escaped by a leading `'`: one a spreadsheet would take for a formula, and
 * one that already starts with `'` (so that taking one `'` off again gives back exactly the text).
 */
const escaped = (text: string): boolean => {
  const first = text.charCodeAt(0);
  return first === APOSTROPHE || FORMULA_STARTS.has(first);
};

/**
 * A text cell as a spreadsheet should read it: text that a spreadsheet would take for a formula
 * (starting with `=`, `+`, `-`, `@`, tab or carriage return) gets a leading `'`, which spreadsheets
 * show as text (OWASP's CSV injection advice); so does text that already starts with `'`, so that
 * `unescapeCsvText` is its exact inverse.
 */
export const escapeCsvText = (text: string): string => (escaped(text) ? `'${text}` : text);

/** A cell of a file `escapeCsvText` wrote, back to its text: one leading `'` off where it added one. */
export function unescapeCsvText(cell: string): string {
  return cell.charCodeAt(0) === APOSTROPHE && escaped(cell.slice(1)) ? cell.slice(1) : cell;
}

/**
 * A cell as a spreadsheet should read it: text escaped by `escapeCsvText`; numbers stay numbers,
 * booleans are `true`/`false`, null and absent are empty, arrays and maps are JSON.
 */
export function csvCell(value: unknown): string | number {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return escapeCsvText(typeof value === 'string' ? value : JSON.stringify(value));
}
