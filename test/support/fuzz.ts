import { readFileSync } from 'node:fs';
import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { pino } from 'pino';
import { ERROR_STATUS, envelopeForPath } from '../../contract/common/errors.js';
import type { TestServer } from './server.js';
import { onPostgres } from './database.js';
import { itemAt } from './expect.js';

/**
 * A fuzzer driven by openapi.json: every operation of the document gets valid-ish requests built
 * from its schemas (to reach the database) and hostile variants of each part of the request (path
 * ids, query, headers, credentials, body values, body bytes, content type and encoding). A route
 * added to the contract is fuzzed as soon as the document is regenerated.
 */

// ---------------------------------------------------------------------------------------------
// The operations of the document

/** The subset of OpenAPI 3.0 schema keywords the generator understands. */
export interface JsonSchema {
  type?: 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array';
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  minItems?: number;
  maxItems?: number;
  nullable?: boolean;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

/** How an operation authenticates, read from its `security` (see contract/openapi.ts). */
export type OperationAuth = 'none' | 'user' | 'token' | 'apiKey';

export interface Parameter {
  name: string;
  required: boolean;
  schema: JsonSchema;
}

export interface Operation {
  id: string;
  method: string;
  /** The document's path, e.g. `/v1/customers/{id}`. */
  template: string;
  auth: OperationAuth;
  path: Parameter[];
  query: Parameter[];
  headers: Parameter[];
  body?: JsonSchema;
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

/** The document with every internal `$ref` replaced by its target (a cycle resolves to `{}`). */
function resolveRefs(doc: any): any {
  const lookup = (ref: string) =>
    ref
      .slice(2)
      .split('/')
      .map((key) => key.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce((node: any, key) => node?.[key], doc);
  const walk = (node: unknown, seen: readonly string[]): unknown => {
    if (Array.isArray(node)) return node.map((item) => walk(item, seen));
    if (!node || typeof node !== 'object') return node;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === 'string') {
      if (!ref.startsWith('#/')) throw new Error(`Only internal $refs are supported: ${ref}`);
      if (seen.includes(ref)) return {};
      const target = lookup(ref);
      if (target === undefined) throw new Error(`Unresolved $ref ${ref}`);
      return walk(target, [...seen, ref]);
    }
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v, seen)]));
  };
  return walk(doc, []);
}

function authOf(
  security: Record<string, unknown>[] | undefined,
  schemes: Record<string, any>,
): OperationAuth {
  const names = (security ?? []).flatMap((requirement) => Object.keys(requirement));
  if (names.length === 0) return 'none';
  if (names.some((name) => schemes[name]?.type === 'apiKey')) return 'apiKey';
  // Access tokens are `bearerAuth`; a route that also takes a full API key lists `apiKeyBearer`.
  return names.includes('apiKeyBearer') ? 'token' : 'user';
}

/** Every operation of an OpenAPI 3.0 document. */
export function loadOperations(file: URL): Operation[] {
  const doc = resolveRefs(JSON.parse(readFileSync(file, 'utf8')));
  const schemes = doc.components?.securitySchemes ?? {};
  const operations: Operation[] = [];
  for (const [template, item] of Object.entries<any>(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const params: any[] = [...(item.parameters ?? []), ...(op.parameters ?? [])];
      const pick = (where: string): Parameter[] =>
        params
          .filter((p) => p.in === where)
          .map((p) => ({ name: p.name, required: Boolean(p.required), schema: p.schema ?? {} }));
      const content = op.requestBody?.content ?? {};
      const body = (content['application/json'] ?? Object.values<any>(content)[0])?.schema;
      operations.push({
        id: op.operationId ?? `${method} ${template}`,
        method: method.toUpperCase(),
        template,
        auth: authOf(op.security ?? doc.security, schemes),
        path: pick('path'),
        query: pick('query'),
        headers: pick('header'),
        body,
      });
    }
  }
  return operations;
}

/** The collection a path parameter names: the segment before it (`customers` in `/v1/customers/{id}`). */
export function collectionOf(template: string, param: string): string {
  const segments = template.split('/');
  const at = segments.indexOf(`{${param}}`);
  const before = at > 0 ? segments[at - 1] : undefined;
  // A parameter right after another (`/webhooks/{provider}/{business_id}`) names its own collection.
  return before && !before.startsWith('{') ? before : param;
}

// ---------------------------------------------------------------------------------------------
// What the generator knows about the business under test

/**
 * The collections whose real ids the fuzz test seeds (`collectionOf` names them): a path parameter
 * of any other collection only ever gets generated values, which reach no row.
 */
export const SEEDED_COLLECTIONS = [
  'api-keys',
  'sessions',
  'customers',
  'products',
  'invoices',
  'quotes',
  'credit-notes',
  'recurring-invoices',
  'recurring-bills',
  'bank-accounts',
  'bank-transactions',
  'bank-rules',
  'webhooks',
  'deliveries',
  'tiers',
  'rewards',
  'members',
  'redemptions',
  'reminders',
  'vouchers',
  'departments',
  'employees',
  'leaves',
  'leave-types',
  'leave-entitlements',
  'holidays',
  'vendors',
  'bills',
  'vatThreshold',
  'domains',
  'segments',
  'templates',
  'campaigns',
  'team',
  'invitations',
  'business_id',
] as const;
export type SeededCollection = (typeof SEEDED_COLLECTIONS)[number];

export interface Credentials {
  /** An access token from sign-in. */
  accessToken: string;
  /** A `full` API key. */
  fullKey: string;
  /** A `public_loyalty` API key. */
  publicKey: string;
}

export interface FuzzContext {
  own: Credentials;
  /** Another business: its credentials are valid, but none of `ids` is its. */
  other: Credentials;
  /** Real ids of the business by collection (see `collectionOf`), tried as path parameters. */
  ids: Record<string, string[]>;
  /** Real ids of the other business: through the business's credentials they must answer 404. */
  foreignIds: string[];
  /** Values worth trying for a body field or query parameter of this name (real ids, known emails). */
  hints: Record<string, unknown[]>;
}

// ---------------------------------------------------------------------------------------------
// Raw JSON: texts JSON.stringify cannot produce (1e400, invalid UTF-8, own `__proto__` keys)

/** A piece of JSON text (or bytes) written as is. */
export class RawJson {
  constructor(readonly bytes: string | Buffer) {}
}

/** Sets `key` as an own enumerable property, also `__proto__` (which assignment would not). */
function put(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** JSON.stringify that keeps own `__proto__` keys and writes RawJson pieces verbatim. */
export function toJsonBytes(value: unknown): Buffer {
  const parts: (string | Buffer)[] = [];
  const write = (v: unknown): void => {
    if (v instanceof RawJson) parts.push(v.bytes);
    else if (Array.isArray(v)) {
      parts.push('[');
      v.forEach((item, i) => {
        if (i) parts.push(',');
        write(item === undefined ? null : item);
      });
      parts.push(']');
    } else if (v && typeof v === 'object') {
      parts.push('{');
      let first = true;
      for (const key of Object.keys(v)) {
        const item = (v as Record<string, unknown>)[key];
        if (item === undefined) continue;
        if (!first) parts.push(',');
        first = false;
        parts.push(JSON.stringify(key), ':');
        write(item);
      }
      parts.push('}');
    } else parts.push(JSON.stringify(v) ?? 'null');
  };
  write(value);
  return Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : p)));
}

const clone = (value: unknown): unknown => (value === undefined ? undefined : structuredClone(value));

type Path = (string | number)[];

function setAt(root: unknown, path: Path, value: unknown): unknown {
  const [key, ...rest] = path;
  if (key === undefined) return value;
  const container: any =
    root && typeof root === 'object' ? root : typeof key === 'number' ? [] : ({} as Record<string, unknown>);
  const child = setAt(container[key], rest, value);
  if (Array.isArray(container) && typeof key === 'number') container[key] = child;
  else put(container, String(key), child);
  return container;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  Boolean(value) && typeof value === 'object' && !Array.isArray(value);

function getAt(root: unknown, path: Path): unknown {
  return path.reduce<any>((node, key) => (node && typeof node === 'object' ? node[key] : undefined), root);
}

function removeAt(root: unknown, path: Path): unknown {
  const last = path.at(-1);
  if (last === undefined) return undefined;
  let node: any = root;
  for (const key of path.slice(0, -1)) {
    if (!node || typeof node !== 'object') return root;
    node = node[key];
  }
  if (node && typeof node === 'object') delete node[last];
  return root;
}

// ---------------------------------------------------------------------------------------------
// Valid-ish values from a schema

const INT32 = 2 ** 31 - 1;

const typeOf = (schema: JsonSchema) =>
  schema.type ??
  (schema.properties || schema.additionalProperties ? 'object' : schema.items ? 'array' : undefined);

function mergeAll(schemas: JsonSchema[]): JsonSchema {
  return schemas.reduce<JsonSchema>(
    (merged, s) => ({
      ...merged,
      ...s,
      properties: { ...merged.properties, ...s.properties },
      required: [...(merged.required ?? []), ...(s.required ?? [])],
    }),
    {},
  );
}

const emailArb = fc
  .tuple(
    fc.stringMatching(/^[a-z0-9]{1,12}$/),
    fc.constantFrom('example.test', 'example.com', 'mail.example.org'),
  )
  .map(([local, domain]) => `${local}@${domain}`);

function stringArb(schema: JsonSchema, ctx: FuzzContext): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = Math.max(min, Math.min(schema.maxLength ?? 40, 40));
  const fits = (s: string) => s.length >= min && s.length <= (schema.maxLength ?? Infinity);
  switch (schema.format) {
    case 'date':
      return fc
        .date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10));
    case 'date-time':
      return fc
        .date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true })
        .map((d) => d.toISOString());
    case 'email':
      return emailArb.filter(fits);
    case 'uuid':
      return fc.uuid();
    case 'uri': {
      const known = (ctx.hints.url ?? []).filter((u): u is string => typeof u === 'string');
      return fc.constantFrom(...known, 'https://example.invalid/hook', 'http://127.0.0.1:1/closed');
    }
  }
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern)).filter(fits);
  return fc.oneof(
    { weight: 4, arbitrary: fc.string({ minLength: min, maxLength: max }) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: min, maxLength: max }) },
  );
}

function bounds(schema: JsonSchema, fallback: number): [number, number] {
  const lo = schema.minimum ?? -fallback;
  const hi = schema.maximum ?? fallback;
  return [lo, hi];
}

function integerArb(schema: JsonSchema): fc.Arbitrary<number> {
  let [lo, hi] = bounds(schema, 1_000_000);
  if (schema.exclusiveMinimum) lo += 1;
  if (schema.exclusiveMaximum) hi -= 1;
  const small = [Math.max(lo, -INT32), Math.min(hi, INT32)] as const;
  const edges = fc.constantFrom(lo, hi);
  if (small[0] > small[1]) return edges;
  return fc.oneof(
    { weight: 6, arbitrary: fc.integer({ min: small[0], max: small[1] }) },
    { weight: 1, arbitrary: edges },
  );
}

/** Mostly amounts with at most two decimals (money); doubles and the bounds now and then. */
function numberArb(schema: JsonSchema): fc.Arbitrary<number> {
  const [lo, hi] = bounds(schema, 1_000_000);
  const small = [Math.ceil(Math.max(lo, -INT32)), Math.floor(Math.min(hi, INT32))] as const;
  const inRange = (x: number) =>
    (schema.exclusiveMinimum ? x > lo : x >= lo) && (schema.exclusiveMaximum ? x < hi : x <= hi);
  const arbitraries: fc.WeightedArbitrary<number>[] = [
    {
      weight: 3,
      arbitrary: fc
        .double({ min: lo, max: hi, noNaN: true, noDefaultInfinity: true })
        .map((x) => Math.round(x * 100) / 100)
        .filter(inRange),
    },
    { weight: 1, arbitrary: fc.constantFrom(hi, schema.exclusiveMinimum ? lo + 0.01 : lo) },
  ];
  if (small[0] <= small[1]) {
    arbitraries.push({ weight: 3, arbitrary: fc.integer({ min: small[0], max: small[1] }).filter(inRange) });
  }
  return fc.oneof(...arbitraries);
}

interface ValueOptions {
  /** Every optional property present and every array non-empty, so that mutations find their path. */
  full: boolean;
}

/** A value the schema accepts (mostly): real ids and known values where the field name has hints. */
export function valueArb(
  schema: JsonSchema,
  ctx: FuzzContext,
  name: string | undefined,
  options: ValueOptions,
  depth = 0,
): fc.Arbitrary<unknown> {
  const own = ownValueArb(schema, ctx, name, options, depth);
  const hints = name && typeOf(schema) !== 'array' ? (ctx.hints[name] ?? []) : [];
  const hinted = hints.length
    ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...hints) }, { weight: 1, arbitrary: own })
    : own;
  return schema.nullable && !options.full
    ? fc.oneof({ weight: 6, arbitrary: hinted }, { weight: 1, arbitrary: fc.constant(null) })
    : hinted;
}

function ownValueArb(
  schema: JsonSchema,
  ctx: FuzzContext,
  name: string | undefined,
  options: ValueOptions,
  depth: number,
): fc.Arbitrary<unknown> {
  if (schema.enum?.length) return fc.constantFrom(...schema.enum);
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (alternatives?.length) {
    return fc.oneof(...alternatives.map((s) => valueArb(s, ctx, name, options, depth + 1)));
  }
  if (schema.allOf?.length) return valueArb(mergeAll(schema.allOf), ctx, name, options, depth + 1);
  switch (typeOf(schema)) {
    case 'string':
      return stringArb(schema, ctx);
    case 'integer':
      return integerArb(schema);
    case 'number':
      return numberArb(schema);
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const minLength = Math.max(schema.minItems ?? 0, options.full ? 1 : 0);
      const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? 3, 3));
      if (depth > 6) return fc.constant([]);
      return fc.array(valueArb(schema.items ?? {}, ctx, name, options, depth + 1), { minLength, maxLength });
    }
    case 'object':
      return depth > 6 ? fc.constant({}) : objectArb(schema, ctx, options, depth);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function objectArb(
  schema: JsonSchema,
  ctx: FuzzContext,
  options: ValueOptions,
  depth: number,
): fc.Arbitrary<unknown> {
  const properties = schema.properties ?? {};
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, s] of Object.entries(properties)) model[key] = valueArb(s, ctx, key, options, depth + 1);
  const requiredKeys = (schema.required ?? []).filter((key) => key in properties);
  const record = options.full ? fc.record(model) : fc.record(model, { requiredKeys });
  const extra = schema.additionalProperties;
  if (!extra || typeof extra !== 'object') return record;
  const dictionary = fc.dictionary(
    fc.string({ minLength: 1, maxLength: 12 }),
    valueArb(extra, ctx, undefined, options, depth + 1),
    { maxKeys: 3 },
  );
  return fc.tuple(record, dictionary).map(([r, d]) => ({ ...d, ...r }));
}

// ---------------------------------------------------------------------------------------------
// Hostile values

/** A field of a body schema, with the path that reaches it (array items at index 0). */
interface Field {
  path: Path;
  schema: JsonSchema;
  required: boolean;
}

function fieldsOf(schema: JsonSchema, path: Path = [], depth = 0): Field[] {
  if (depth > 5) return [];
  const fields: Field[] = [];
  const type = typeOf(schema);
  if (type === 'object') {
    const required = new Set(schema.required ?? []);
    for (const [key, s] of Object.entries(schema.properties ?? {})) {
      fields.push({ path: [...path, key], schema: s, required: required.has(key) });
      fields.push(...fieldsOf(s, [...path, key], depth + 1));
    }
    const extra = schema.additionalProperties;
    if (extra && typeof extra === 'object') {
      // A free-form map (custom attributes): its values under an arbitrary key.
      fields.push({ path: [...path, 'fuzz'], schema: extra, required: false });
      fields.push(...fieldsOf(extra, [...path, 'fuzz'], depth + 1));
    }
  } else if (type === 'array' && schema.items) {
    fields.push({ path: [...path, 0], schema: schema.items, required: (schema.minItems ?? 0) > 0 });
    fields.push(...fieldsOf(schema.items, [...path, 0], depth + 1));
  }
  return fields;
}

const label = (path: Path) => (path.length ? path.join('.') : '(root)');

const WRONG_TYPES: [string, unknown][] = [
  ['string', '1'],
  ['empty-string', ''],
  ['integer', 1],
  ['float', 1.5],
  ['boolean', true],
  ['null', null],
  ['object', {}],
  ['object-with-key', { a: { b: 1 } }],
  ['array', []],
  ['array-of-strings', ['x', 'y']],
];

function wrongTypesFor(schema: JsonSchema): [string, unknown][] {
  const type = typeOf(schema);
  const same: Record<string, string[]> = {
    string: ['string', 'empty-string'],
    integer: ['integer'],
    number: ['integer', 'float'],
    boolean: ['boolean'],
    object: ['object'],
    array: ['array'],
  };
  const skip = new Set([...(same[type ?? ''] ?? []), ...(schema.nullable ? ['null'] : [])]);
  return WRONG_TYPES.filter(([name]) => !skip.has(name));
}

const SPECIAL_NUMBERS: number[] = [
  0,
  -1,
  2 ** 31,
  2 ** 31 - 1,
  -(2 ** 31),
  2 ** 32,
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 53),
  2 ** 63,
  1e21,
  1e308,
  -1e308,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
  1.0000000000000002,
  0.1 + 0.2,
  1e-7,
  0.005,
  1.005,
  9.995,
  123.456789,
  1e15 + 0.3,
];

/** Number texts JSON.stringify cannot write (overflow to Infinity, 400 digits, exponent forms). */
const RAW_NUMBERS = [
  '1e400',
  '-1e400',
  `1${'0'.repeat(400)}`,
  '-0.0',
  '1E2',
  '0.1e1',
  '123456789012345678901234567890',
  '1.00000000000000000000001',
  '4.9e-325',
];

function numberEdges(schema: JsonSchema): [string, unknown][] {
  const relative: number[] = [];
  if (schema.minimum !== undefined) relative.push(schema.minimum, schema.minimum - 1, schema.minimum - 0.01);
  if (schema.maximum !== undefined) {
    relative.push(schema.maximum, schema.maximum + 1, schema.maximum + 0.01, schema.maximum - 0.001);
  }
  return [
    ...[...SPECIAL_NUMBERS, ...relative].map((n): [string, unknown] => [String(n), n]),
    ...RAW_NUMBERS.map((text): [string, unknown] => [text.slice(0, 12), new RawJson(text)]),
  ];
}

const byte = (...bytes: number[]) => Buffer.from(bytes);

const HOSTILE_STRINGS: [string, unknown][] = [
  ['NUL', 'a\u0000b'],
  ['NUL-only', '\u0000'],
  ['lone-high-surrogate', '\ud800'],
  ['lone-low-surrogate', '\udfff'],
  ['lone-surrogate-inside', 'x\ud800y'],
  ['reversed-surrogates', '\udfff\ud800'],
  ['escaped-NUL', new RawJson('"a\\u0000b"')],
  ['escaped-lone-surrogate', new RawJson('"\\udc00x"')],
  ['raw-NUL-byte', new RawJson(byte(0x22, 0x61, 0x00, 0x22))],
  ['invalid-utf8', new RawJson(byte(0x22, 0xff, 0xfe, 0x22))],
  ['overlong-NUL-utf8', new RawJson(byte(0x22, 0xc0, 0x80, 0x22))],
  ['cesu-surrogate-utf8', new RawJson(byte(0x22, 0xed, 0xa0, 0x80, 0x22))],
  ['RTL-override', '\u202eevil\u202c'],
  ['hebrew', 'שלום עולם'],
  ['arabic', 'مرحبا بالعالم'],
  ['emoji', '😀👨‍👩‍👧‍👦🏳️‍🌈'],
  ['combining', 'e\u0301\u0301\u0301'],
  ['BOM', '\ufeffx'],
  ['zero-width', '\u200b'],
  ['noncharacters', '\uffff\ufffe'],
  ['max-code-point', '\u{10ffff}'],
  ['C1-controls', '\u0085\u009f'],
  ['controls', '\u0001\u0007\u001b[31m'],
  ['crlf', 'a\r\nX-Injected: 1'],
  ['sql', "'; DROP TABLE customers; --"],
  ['sql-or', "' OR '1'='1"],
  ['percent', '%00%ff'],
  ['format', '%s%n%x'],
  ['template', '${7*7}{{7*7}}'],
  ['html', '<script>alert(1)</script>'],
  ['traversal', '../../etc/passwd'],
  ['backslash', '\\'],
  ['whitespace', ' \t\n '],
  ['empty', ''],
  ['null-word', 'null'],
  ['json-text', '{"a":1}'],
];

/**
 * Date-times that look like ISO 8601 but name no instant: offsets of 24 hours or more, minutes past
 * 59, impossible days and years outside 0001-9999 (in UTC too). `new Date` turns several into NaN.
 */
export const BAD_DATE_TIMES: readonly [string, string][] = [
  ['offset+24:00', '2027-01-01T00:00:00+24:00'],
  ['offset+99:00', '2026-11-29T05:02:02.866+99:00'],
  ['offset-99:59', '2027-01-01T00:00:00-99:59'],
  ['offset+00:60', '2027-01-01T00:00:00+00:60'],
  ['offset+9900', '2027-01-01T00:00:00+9900'],
  ['february-30', '2027-02-30T00:00:00Z'],
  ['hour-24', '2027-01-01T24:00:00Z'],
  ['year-0000', '0000-01-01T00:00:00Z'],
  ['utc-year-0', '0001-01-01T00:00:00+01:00'],
  ['utc-year-10000', '9999-12-31T23:00:00-05:00'],
];

function stringEdges(schema: JsonSchema): [string, unknown][] {
  const edges: [string, unknown][] = [...HOSTILE_STRINGS];
  if (schema.format === 'date-time') edges.push(...BAD_DATE_TIMES);
  const max = schema.maxLength;
  if (max !== undefined) {
    edges.push(
      ['maxLength', 'x'.repeat(max)],
      ['maxLength+1', 'x'.repeat(max + 1)],
      ['maxLength-accented', 'é'.repeat(max)],
      ['maxLength-emoji', '😀'.repeat(Math.ceil(max / 2))],
      ['maxLength-emoji+1', '😀'.repeat(Math.floor(max / 2) + 1)],
    );
  }
  if (schema.minLength) edges.push(['minLength-1', 'x'.repeat(schema.minLength - 1)]);
  edges.push(['100k', 'x'.repeat(100_000)], ['100k-emoji', '😀'.repeat(50_000)]);
  return edges;
}

const ODD_KEYS: [string, string, unknown][] = [
  ['unknown', 'unknownField', 1],
  ['__proto__', '__proto__', { polluted: true, isAdmin: true }],
  ['__proto__-null', '__proto__', null],
  ['__proto__-string', '__proto__', 'x'],
  ['constructor', 'constructor', { prototype: { polluted: true } }],
  ['prototype', 'prototype', { polluted: true }],
  ['toString', 'toString', 'x'],
  ['hasOwnProperty', 'hasOwnProperty', 1],
  ['empty-key', '', 1],
  ['NUL-key', 'a\u0000b', 1],
  ['lone-surrogate-key', '\ud800', 1],
  ['long-key', 'k'.repeat(10_000), 1],
];

const ROOTS: [string, unknown][] = [
  ['array', []],
  ['string', 'x'],
  ['number', 1],
  ['null', null],
  ['true', true],
  ['empty-object', {}],
];

interface BodyDraft {
  /** A value, serialised by toJsonBytes; or the exact bytes in `raw`. */
  json?: unknown;
  raw?: string | Buffer;
  /** Content-Type; `null` sends none. Default application/json. */
  contentType?: string | null;
  /** Content-Encoding header (the body stays as it is unless `compress` says otherwise). */
  encoding?: string;
  compress?: 'gzip' | 'deflate' | 'br';
  chunked?: boolean;
}

function bodyMutationArb(schema: JsonSchema, ctx: FuzzContext): fc.Arbitrary<[string, BodyDraft]> {
  const full = valueArb(schema, ctx, undefined, { full: true });
  const fields = fieldsOf(schema);
  const required = fields.filter((f) => f.required);
  const numbers = fields.filter((f) => ['number', 'integer'].includes(typeOf(f.schema) ?? ''));
  const strings = fields.filter((f) => typeOf(f.schema) === 'string');
  const arrays = fields.filter((f) => typeOf(f.schema) === 'array');
  const objects: Field[] = [
    { path: [], schema, required: true },
    ...fields.filter((f) => typeOf(f.schema) === 'object'),
  ];
  const at = (fieldList: Field[], edges: (f: Field) => [string, unknown][], family: string) =>
    fc
      .constantFrom(...fieldList)
      .chain((field) => fc.tuple(fc.constant(field), full, fc.constantFrom(...edges(field))))
      .map(([field, value, [name, edge]]): [string, BodyDraft] => [
        `body:${family} ${label(field.path)}=${name}`,
        { json: setAt(clone(value), field.path, edge) },
      ]);
  const families: fc.WeightedArbitrary<[string, BodyDraft]>[] = [
    {
      // Only the required top-level fields: `{}` for most updates.
      weight: 1,
      arbitrary: full.map((value): [string, BodyDraft] => {
        const required = new Set(schema.required ?? []);
        const minimal = isObject(value)
          ? Object.fromEntries(Object.entries(value).filter(([key]) => required.has(key)))
          : value;
        return ['body:required-fields-only', { json: minimal }];
      }),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(full, fc.constantFrom(...ROOTS))
        .map(([value, [name, root]]): [string, BodyDraft] => [
          `body:root=${name}`,
          { json: name === 'array' ? [value] : root },
        ]),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(full, fc.constantFrom(...objects), fc.constantFrom(...ODD_KEYS))
        .map(([value, field, [name, key, extra]]): [string, BodyDraft] => {
          let root: unknown = clone(value) ?? {};
          if (!isObject(getAt(root, field.path))) root = setAt(root, field.path, {});
          put(getAt(root, field.path) as Record<string, unknown>, key, extra);
          return [`body:key ${label(field.path)}.${name}`, { json: root }];
        }),
    },
  ];
  if (fields.length) {
    families.push({ weight: 3, arbitrary: at(fields, (f) => wrongTypesFor(f.schema), 'type') });
  }
  if (required.length) {
    families.push({
      weight: 2,
      arbitrary: fc
        .tuple(full, fc.constantFrom(...required))
        .map(([value, field]): [string, BodyDraft] => [
          `body:missing ${label(field.path)}`,
          { json: removeAt(clone(value), field.path) },
        ]),
    });
  }
  if (numbers.length)
    families.push({ weight: 4, arbitrary: at(numbers, (f) => numberEdges(f.schema), 'number') });
  if (strings.length)
    families.push({ weight: 4, arbitrary: at(strings, (f) => stringEdges(f.schema), 'string') });
  if (arrays.length) {
    families.push({
      weight: 1,
      arbitrary: at(
        arrays,
        (f) => [
          ['empty', []],
          ['nested', [[]]],
          ['maxItems+1', Array.from({ length: (f.schema.maxItems ?? 1000) + 1 }, (_, i) => `x${i}`)],
        ],
        'array',
      ),
    });
  }
  return fc.oneof(...families);
}

/** Byte sequences that are not UTF-8 (docs/decisions.md D27: such a body is 400, never stored altered). */
const NOT_UTF8: [string, number[]][] = [
  ['FF', [0xff]],
  ['continuation-alone', [0x80]],
  ['cesu-surrogate', [0xed, 0xa0, 0x80]],
  ['cesu-pair', [0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80]],
  ['overlong-nul', [0xc0, 0x80]],
  ['overlong-slash', [0xe0, 0x80, 0xaf]],
  ['cut-short', [0xe2, 0x82]],
  ['above-U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
  ['latin1-e-acute', [0xe9]],
];

/** `text` (an object's JSON) with a string member whose value holds `bytes` as they are. */
function withRawString(text: string, bytes: Buffer): Buffer {
  const rest = text.startsWith('{') && text !== '{}' ? `,${text.slice(1)}` : '}';
  return Buffer.concat([Buffer.from('{"note":"a'), bytes, Buffer.from(`b"${rest}`)]);
}

/** Bodies that are not the JSON the schema asks for; `text` is a valid body of the operation. */
const RAW_BODIES: [string, (text: string) => string | Buffer][] = [
  ['truncated', (t) => t.slice(0, Math.max(1, Math.floor(t.length / 2)))],
  ['open-brace', () => '{'],
  ['trailing-comma', () => '{"a":1,}'],
  ['single-quotes', () => "{'a':1}"],
  ['garbage-after', (t) => `${t}x`],
  ['two-documents', (t) => `${t}${t}`],
  ['NaN', () => '{"a":NaN}'],
  ['Infinity', () => '{"a":Infinity}'],
  ['leading-zero', () => '{"a":01}'],
  ['raw-NUL-before', (t) => `\u0000${t}`],
  ['raw-controls-in-string', () => '{"a":"\u0001\u0000"}'],
  ['bad-escape', () => '{"a":"\\x41"}'],
  ['short-unicode-escape', () => '{"a":"\\u00"}'],
  ['BOM', (t) => `\ufeff${t}`],
  ['comment', () => '{"a":1/*c*/}'],
  ['duplicate-keys', (t) => injectKey(t, Object.keys(safeParse(t) ?? {})[0] ?? 'a', '{"x":1}')],
  ['proto-key', (t) => injectKey(t, '__proto__', '{"polluted":true,"isAdmin":true}')],
  ['constructor-key', (t) => injectKey(t, 'constructor', '{"prototype":{"polluted":true}}')],
  ['proto-only', () => '{"__proto__":{"polluted":true}}'],
  ['escaped-lone-surrogate-key', (t) => injectKey(t, '\\ud800', '1')],
  ['deep-unbalanced', () => '['.repeat(100_000)],
  ['deep-array', () => `${'['.repeat(5000)}${']'.repeat(5000)}`],
  ['deep-object', (t) => injectKey(t, 'deep', `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`)],
  ['empty', () => ''],
  ['whitespace', () => ' \n\t '],
  ['array', () => '[]'],
  ['array-of-body', (t) => `[${t}]`],
  ['number', () => '1'],
  ['string', () => '"x"'],
  ['null', () => 'null'],
  ['true', () => 'true'],
  ['utf16le-bytes', (t) => Buffer.from(t, 'utf16le')],
  ...NOT_UTF8.map(([name, bytes]): [string, (t: string) => Buffer] => [
    `not-utf8:${name}`,
    (t) => withRawString(t, Buffer.from(bytes)),
  ]),
  ['latin1-bytes', () => Buffer.from('{"name":"caf\u00e9"}', 'latin1')],
  ['over-1MiB', () => `{"a":"${'x'.repeat(1_100_000)}"}`],
];

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** `text` (an object's JSON) with `"key": rawValue` written first; otherwise that key alone. */
function injectKey(text: string, key: string, rawValue: string): string {
  const member = `"${key}":${rawValue}`;
  if (!text.startsWith('{')) return `{${member}}`;
  return text === '{}' ? `{${member}}` : `{${member},${text.slice(1)}`;
}

const CONTENT_VARIANTS: [string, Omit<BodyDraft, 'json' | 'raw'>, ((t: string) => string)?][] = [
  ['content-type:none', { contentType: null }],
  ['content-type:text/plain', { contentType: 'text/plain' }],
  ['content-type:form', { contentType: 'application/x-www-form-urlencoded' }],
  [
    'content-type:form-body',
    { contentType: 'application/x-www-form-urlencoded' },
    () => 'name=x&__proto__[polluted]=1&a[b][c]=d',
  ],
  ['content-type:multipart', { contentType: 'multipart/form-data; boundary=x' }],
  ['content-type:xml', { contentType: 'application/xml' }],
  ['content-type:merge-patch+json', { contentType: 'application/merge-patch+json' }],
  ['content-type:upper-case', { contentType: 'APPLICATION/JSON' }],
  ['content-type:charset-utf-16', { contentType: 'application/json; charset=utf-16' }],
  ['content-type:charset-latin1', { contentType: 'application/json; charset=latin1' }],
  ['content-type:charset-bogus', { contentType: 'application/json; charset=x-bogus' }],
  ['content-type:junk-parameters', { contentType: 'application/json;;; x' }],
  ['content-type:empty', { contentType: '' }],
  ['content-type:any', { contentType: '*/*' }],
  ['content-type:jsonx', { contentType: 'application/jsonx' }],
  ['content-encoding:gzip-plain', { encoding: 'gzip' }],
  ['content-encoding:deflate-plain', { encoding: 'deflate' }],
  ['content-encoding:br-plain', { encoding: 'br' }],
  ['content-encoding:identity', { encoding: 'identity' }],
  ['content-encoding:unknown', { encoding: 'x-unknown' }],
  ['content-encoding:compress', { encoding: 'compress' }],
  ['content-encoding:gzip-twice', { encoding: 'gzip, gzip' }],
  ['content-encoding:GZIP', { encoding: 'GZIP' }],
  ['content-encoding:gzip-valid', { encoding: 'gzip', compress: 'gzip' }],
  ['content-encoding:deflate-valid', { encoding: 'deflate', compress: 'deflate' }],
  ['content-encoding:br-valid', { encoding: 'br', compress: 'br' }],
  [
    'content-encoding:gzip-bomb',
    { encoding: 'gzip', compress: 'gzip' },
    () => `{"a":"${'x'.repeat(5_000_000)}"}`,
  ],
  ['transfer-encoding:chunked', { chunked: true }],
];

const UNEXPECTED_BODIES: [string, BodyDraft][] = [
  ['unexpected-body:json', { raw: '{"unexpected":true}' }],
  ['unexpected-body:array', { raw: '[]' }],
  ['unexpected-body:malformed', { raw: '{' }],
  ['unexpected-body:text', { raw: 'hello', contentType: 'text/plain' }],
  ['unexpected-body:no-content-type', { raw: 'hello', contentType: null }],
  ['unexpected-body:gzip-plain', { raw: '{}', encoding: 'gzip' }],
  ['unexpected-body:empty-json', { raw: '' }],
  ['unexpected-body:proto', { raw: '{"__proto__":{"polluted":true}}' }],
];

// ---------------------------------------------------------------------------------------------
// Path, query, header and credential variants

const BAD_PATH_VALUES: string[] = [
  '%00',
  'a%00b',
  '%FF',
  '%ED%A0%80',
  '%ED%BF%BF',
  '%C0%80',
  '%',
  '%zz',
  '%E0%A4',
  '..%2F..%2F',
  '..',
  '%2e%2e',
  '%2F',
  '%5C',
  'x'.repeat(5000),
  '0',
  '-1',
  '1.5',
  '1e308',
  '9007199254740992',
  '99999999999999999999999',
  '0x1A',
  'null',
  'undefined',
  '__proto__',
  'constructor',
  'prototype',
  '%27%20OR%20%271%27%3D%271',
  '%F0%9F%98%80',
  '%E2%80%AE',
  '%20',
  '+',
  '%C3%A9',
  ';',
  '*',
  'p'.repeat(20_000),
];

/** Values that make the request line longer than the server takes: 414 URI_TOO_LONG, enveloped. */
const LONG_URL = 16 * 1024;

const BAD_QUERY_VALUES: string[] = [
  '%00',
  'a%00b',
  '%FF',
  '%ED%A0%80',
  '%',
  '%zz',
  '%E0%A4',
  '%F0%9F%98%80',
  'x'.repeat(8000),
  'x'.repeat(20_000),
  'x'.repeat(100_000),
  '1e308',
  '-1e308',
  '99999999999999999999999',
  '-1',
  '0',
  '1.5',
  'NaN',
  'Infinity',
  '0x10',
  '',
  '%20',
  '+',
  'true',
  'null',
  '%27%20OR%20%271%27%3D%271',
  '%E2%80%AE',
];

const QUERY_SHAPES: [string, (name: string, value: string) => string][] = [
  ['value', (n, v) => `${n}=${v}`],
  ['repeated', (n, v) => `${n}=${v}&${n}=1`],
  ['brackets', (n, v) => `${n}[]=${v}`],
  ['object', (n, v) => `${n}[a]=${v}`],
  ['proto', (n) => `${n}[__proto__][polluted]=1`],
  ['bare', (n) => n],
];

const JUNK_QUERIES = [
  '__proto__[polluted]=1',
  'constructor[prototype][polluted]=1',
  '%00=%00',
  '&&&',
  '=x',
  'a[b][c][d][e][f][g][h]=1',
  `${'k'.repeat(4000)}=1`,
  'unknown=1',
];

const BAD_HEADER_VALUES: [string, string][] = [
  ['empty', ''],
  ['too-long', 'x'.repeat(256)],
  ['very-long', 'x'.repeat(8000)],
  ['padded', ' padded '],
  ['latin1', '\u00e9\u00ff'],
  ['percent', '%00'],
];

const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });

function rightCredentialsArb(auth: OperationAuth, c: Credentials): fc.Arbitrary<Record<string, string>> {
  switch (auth) {
    case 'none':
      return fc.constant({});
    case 'user':
      return fc.constant(bearer(c.accessToken));
    case 'token':
      return fc.oneof(
        { weight: 4, arbitrary: fc.constant(bearer(c.accessToken)) },
        { weight: 1, arbitrary: fc.constant(bearer(c.fullKey)) },
      );
    case 'apiKey':
      return fc.oneof(
        { weight: 4, arbitrary: fc.constant({ 'x-api-key': c.publicKey }) },
        { weight: 1, arbitrary: fc.constant({ 'x-api-key': c.fullKey }) },
      );
  }
}

function credentialVariants(auth: OperationAuth, ctx: FuzzContext): [string, Record<string, string>][] {
  const { own, other } = ctx;
  const otherRight: Record<string, string> =
    auth === 'apiKey' ? { 'x-api-key': other.publicKey } : bearer(other.accessToken);
  return [
    ['none', {}],
    ['unknown-bearer', bearer(`bms_at_${'x'.repeat(40)}`)],
    ['unknown-api-key', { 'x-api-key': `bms_pk_${'x'.repeat(40)}` }],
    ['basic', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['bearer-without-token', { authorization: 'Bearer' }],
    ['bearer-long', bearer('x'.repeat(8000))],
    ['bearer-latin1', { authorization: 'Bearer \u00e9\u00ff' }],
    ['bearer-lower-case', { authorization: `bearer ${own.accessToken}` }],
    ['public-key-as-bearer', bearer(own.publicKey)],
    ['full-key-as-bearer', bearer(own.fullKey)],
    ['access-token', bearer(own.accessToken)],
    ['access-token-in-x-api-key', { 'x-api-key': own.accessToken }],
    ['public-key-in-x-api-key', { 'x-api-key': own.publicKey }],
    ['empty-x-api-key', { 'x-api-key': '' }],
    ['both-headers', { ...bearer(own.accessToken), 'x-api-key': own.publicKey }],
    ['another-business', otherRight],
  ];
}

// ---------------------------------------------------------------------------------------------
// Requests

interface Draft {
  kind: string;
  /** The one status this input must get, where the input decides it (non-UTF-8 body, long URL). */
  expectStatus?: number;
  /** Raw (already percent-encoded) path parameter values. */
  path: Record<string, string>;
  /** Raw `name=value` pieces. */
  query: string[];
  headers: Record<string, string>;
  body?: BodyDraft;
}

export interface FuzzRequest {
  op: Operation;
  /** What was done to the request, e.g. `body:string items.0.description=NUL`; groups the report. */
  kind: string;
  /** The one status this input must get, when the input alone decides it. */
  expectStatus?: number;
  method: string;
  /** The request target exactly as it goes on the wire. */
  target: string;
  headers: Record<string, string>;
  body?: Buffer;
  chunked: boolean;
}

const enc = (value: unknown) => encodeURIComponent(String(value));

function validPathArb(op: Operation, ctx: FuzzContext): fc.Arbitrary<Record<string, string>> {
  const model: Record<string, fc.Arbitrary<string>> = {};
  for (const param of op.path) {
    const real = ctx.ids[collectionOf(op.template, param.name)] ?? [];
    const generated = valueArb(param.schema, ctx, undefined, { full: false }).map(enc);
    model[param.name] = real.length
      ? fc.oneof(
          { weight: 5, arbitrary: fc.constantFrom(...real.map(enc)) },
          { weight: 1, arbitrary: generated },
        )
      : generated;
  }
  return fc.record(model);
}

function validQueryArb(op: Operation, ctx: FuzzContext): fc.Arbitrary<string[]> {
  return fc
    .tuple(
      ...op.query.map((param) =>
        fc
          // A query string has no null: `nullable` there only means the parameter may be left out.
          .tuple(
            fc.boolean(),
            valueArb({ ...param.schema, nullable: false }, ctx, param.name, { full: false }),
          )
          .map(([include, value]) => {
            if (!param.required && !include) return [];
            const values = Array.isArray(value) ? value : [value];
            return values.map((v) => `${enc(param.name)}=${enc(v)}`);
          }),
      ),
    )
    .map((pieces) => pieces.flat());
}

function validHeadersArb(op: Operation, ctx: FuzzContext): fc.Arbitrary<Record<string, string>> {
  const params = op.headers.map((param) => {
    const value = fc.oneof(
      valueArb(param.schema, ctx, param.name, { full: false }).map(String),
      // A few shared keys, so that replays and reuse with another body happen too.
      fc.constantFrom('fuzz-key-1', 'fuzz-key-2'),
    );
    return param.required
      ? value
      : fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: value });
  });
  return fc.tuple(rightCredentialsArb(op.auth, ctx.own), fc.tuple(...params)).map(([credentials, values]) => {
    const headers: Record<string, string> = { ...credentials };
    op.headers.forEach((param, i) => {
      const value = values[i];
      if (value !== undefined && /^[\t\x20-\x7e\x80-\xff]*$/.test(value)) headers[param.name] = value;
    });
    return headers;
  });
}

function validDraftArb(op: Operation, ctx: FuzzContext): fc.Arbitrary<Draft> {
  return fc
    .record({
      path: validPathArb(op, ctx),
      query: validQueryArb(op, ctx),
      headers: validHeadersArb(op, ctx),
      json: op.body ? valueArb(op.body, ctx, undefined, { full: false }) : fc.constant(undefined),
    })
    .map(({ json, ...rest }) => ({ kind: 'valid', ...rest, ...(op.body ? { body: { json } } : {}) }));
}

/** A value of the body that serialises to a valid JSON text (the base that raw variants corrupt). */
const textOf = (draft: Draft) =>
  draft.body?.json === undefined ? '{}' : toJsonBytes(draft.body.json).toString();

/** All request variants of one operation, weighted so that most reach past authentication. */
export function requestArb(op: Operation, ctx: FuzzContext): fc.Arbitrary<FuzzRequest> {
  const valid = validDraftArb(op, ctx);
  const families: fc.WeightedArbitrary<Draft>[] = [{ weight: 5, arbitrary: valid }];

  if (op.path.length) {
    const others = Object.entries(ctx.ids).flatMap(([collection, ids]) =>
      op.path.some((p) => collectionOf(op.template, p.name) === collection) ? [] : ids,
    );
    const own = op.path.flatMap((p) => ctx.ids[collectionOf(op.template, p.name)] ?? []);
    const values: [string, string][] = [
      ...BAD_PATH_VALUES.map((v): [string, string] => [
        v.length > 20 ? `${v.slice(0, 8)}…(${v.length})` : v,
        v,
      ]),
      ...ctx.foreignIds.map((id): [string, string] => ['another-business-id', enc(id)]),
      ...others.map((id): [string, string] => ['id-of-another-collection', enc(id)]),
      ...own.flatMap((id): [string, string][] => [
        ['real-id+%00', `${enc(id)}%00`],
        ['real-id+%FF', `${enc(id)}%FF`],
        ['real-id-lower-case', enc(id.toLowerCase())],
        ['real-id+%2F..', `${enc(id)}%2F..`],
      ]),
    ];
    families.push({
      weight: 3,
      arbitrary: fc
        .tuple(valid, fc.constantFrom(...op.path), fc.constantFrom(...values))
        .map(([draft, param, [name, value]]) => ({
          ...draft,
          kind: `path:${param.name}=${name}`,
          path: { ...draft.path, [param.name]: value },
        })),
    });
  }

  const queryNames = [...op.query.map((p) => p.name)];
  families.push({
    weight: op.query.length ? 3 : 1,
    arbitrary: fc
      .tuple(
        valid,
        queryNames.length ? fc.constantFrom(...queryNames) : fc.constant('unknown'),
        fc.constantFrom(...QUERY_SHAPES),
        fc.constantFrom(...BAD_QUERY_VALUES),
        fc.constantFrom(...JUNK_QUERIES),
        fc.boolean(),
      )
      .map(([draft, name, [shape, build], value, junk, useJunk]) =>
        useJunk
          ? { ...draft, kind: `query:${junk.slice(0, 40)}`, query: [...draft.query, junk] }
          : {
              ...draft,
              kind: `query:${name} ${shape}=${value.length > 20 ? `${value.slice(0, 8)}…(${value.length})` : value}`,
              query: [...draft.query.filter((q) => !q.startsWith(`${enc(name)}=`)), build(enc(name), value)],
            },
      ),
  });

  const dateTimeQuery = op.query.filter((p) => p.schema.format === 'date-time');
  if (dateTimeQuery.length) {
    families.push({
      weight: 1,
      arbitrary: fc
        .tuple(valid, fc.constantFrom(...dateTimeQuery), fc.constantFrom(...BAD_DATE_TIMES))
        .map(([draft, param, [name, value]]) => ({
          ...draft,
          kind: `query:${param.name} date-time=${name}`,
          query: [
            ...draft.query.filter((q) => !q.startsWith(`${enc(param.name)}=`)),
            `${enc(param.name)}=${enc(value)}`,
          ],
        })),
    });
  }

  if (op.headers.length) {
    families.push({
      weight: 1,
      arbitrary: fc
        .tuple(valid, fc.constantFrom(...op.headers), fc.constantFrom(...BAD_HEADER_VALUES))
        .map(([draft, param, [name, value]]) => ({
          ...draft,
          kind: `header:${param.name}=${name}`,
          headers: { ...draft.headers, [param.name]: value },
        })),
    });
  }

  families.push({
    weight: 1,
    arbitrary: fc
      .tuple(valid, fc.constantFrom(...credentialVariants(op.auth, ctx)))
      .map(([draft, [name, creds]]) => {
        const headers = { ...draft.headers };
        delete headers.authorization;
        delete headers['x-api-key'];
        return { ...draft, kind: `auth:${name}`, headers: { ...headers, ...creds } };
      }),
  });

  if (op.body) {
    families.push({
      weight: 7,
      arbitrary: fc
        .tuple(valid, bodyMutationArb(op.body, ctx))
        .map(([draft, [kind, body]]) => ({ ...draft, kind, body })),
    });
    families.push({
      weight: 2,
      arbitrary: fc.tuple(valid, fc.constantFrom(...RAW_BODIES)).map(([draft, [name, make]]) => ({
        ...draft,
        kind: `raw-body:${name}`,
        ...(name.startsWith('not-utf8:') && { expectStatus: 400 }),
        body: { raw: make(textOf(draft)) },
      })),
    });
    families.push({
      weight: 2,
      arbitrary: fc
        .tuple(valid, fc.constantFrom(...CONTENT_VARIANTS))
        .map(([draft, [name, options, make]]) => ({
          ...draft,
          kind: name,
          body: { raw: make ? make(textOf(draft)) : textOf(draft), ...options },
        })),
    });
  } else {
    families.push({
      weight: 1,
      arbitrary: fc
        .tuple(valid, fc.constantFrom(...UNEXPECTED_BODIES))
        .map(([draft, [kind, body]]) => ({ ...draft, kind, body })),
    });
  }

  return fc.oneof(...families).map((draft) => toRequest(op, draft));
}

/** The date-time fields of an operation: body fields (by path) and query parameters whose format is date-time. */
export function dateTimeFieldsOf(op: Operation): { body: Path[]; query: string[] } {
  return {
    body: op.body
      ? fieldsOf(op.body)
          .filter((f) => f.schema.format === 'date-time')
          .map((f) => f.path)
      : [],
    query: op.query.filter((p) => p.schema.format === 'date-time').map((p) => p.name),
  };
}

/**
 * Every impossible date-time (`BAD_DATE_TIMES`) in every date-time field of the operation, each in an
 * otherwise valid request (its full body, no Idempotency-Key): 422 VALIDATION_ERROR each, never 5xx.
 */
export function dateTimeRequests(op: Operation, ctx: FuzzContext, seed: number): FuzzRequest[] {
  const fields = dateTimeFieldsOf(op);
  if (!fields.body.length && !fields.query.length) return [];
  const [draft] = fc.sample(
    fc.record({
      path: validPathArb(op, ctx),
      query: validQueryArb(op, ctx),
      headers: validHeadersArb(op, ctx),
      json: op.body ? valueArb(op.body, ctx, undefined, { full: true }) : fc.constant(undefined),
    }),
    { seed, numRuns: 1 },
  );
  if (!draft) return [];
  const headers = Object.fromEntries(
    Object.entries(draft.headers).filter(([name]) => name !== 'idempotency-key'),
  );
  const requests: FuzzRequest[] = [];
  for (const [name, value] of BAD_DATE_TIMES) {
    for (const path of fields.body) {
      const draftOf: Draft = {
        kind: `date-time body ${label(path)}=${name}`,
        expectStatus: 422,
        path: draft.path,
        query: draft.query,
        headers,
        body: { json: setAt(clone(draft.json), path, value) },
      };
      requests.push(toRequest(op, draftOf));
    }
    for (const param of fields.query) {
      requests.push(
        toRequest(op, {
          kind: `date-time query ${param}=${name}`,
          expectStatus: 422,
          path: draft.path,
          query: [
            ...draft.query.filter((q) => !q.startsWith(`${enc(param)}=`)),
            `${enc(param)}=${enc(value)}`,
          ],
          headers,
          ...(op.body ? { body: { json: draft.json } } : {}),
        }),
      );
    }
  }
  return requests;
}

function compress(bytes: Buffer, how: BodyDraft['compress']): Buffer {
  if (how === 'gzip') return gzipSync(bytes);
  if (how === 'deflate') return deflateSync(bytes);
  if (how === 'br') return brotliCompressSync(bytes);
  return bytes;
}

function toRequest(op: Operation, draft: Draft): FuzzRequest {
  const path = op.template.replace(/\{([^}]+)\}/g, (_, name: string) => draft.path[name] ?? 'x');
  const target = draft.query.length ? `${path}?${draft.query.join('&')}` : path;
  const headers = { ...draft.headers };
  let body: Buffer | undefined;
  if (draft.body) {
    const { raw, json, contentType, encoding } = draft.body;
    body = compress(raw !== undefined ? Buffer.from(raw) : toJsonBytes(json), draft.body.compress);
    if (contentType !== null) headers['content-type'] = contentType ?? 'application/json';
    if (encoding !== undefined) headers['content-encoding'] = encoding;
  }
  // Whatever else was drawn, a request line over the limit is refused before anything reads it.
  const expectStatus = target.length > LONG_URL ? 414 : draft.expectStatus;
  return {
    op,
    kind: draft.kind,
    ...(expectStatus !== undefined && { expectStatus }),
    method: op.method,
    target,
    headers,
    body,
    chunked: Boolean(draft.body?.chunked),
  };
}

function setting(name: string, fallback: number): number {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new Error(`${name} must be an integer, got ${value}`);
  return n;
}

/**
 * How much the fuzz test sends. FUZZ_SEED fixes what is generated; the order in which concurrent
 * requests reach the database does not repeat exactly, so FUZZ_CONCURRENCY=1 replays a failure in a
 * fixed order. PostgreSQL (CI) gets the full run; the embedded database serialises everything, so
 * fewer.
 */
export function fuzzSettings(): { requests: number; seed: number; concurrency: number } {
  return {
    requests: setting('FUZZ_REQUESTS', onPostgres ? 10_000 : 2_500),
    seed: setting('FUZZ_SEED', 20_261_123),
    concurrency: Math.max(1, setting('FUZZ_CONCURRENCY', 8)),
  };
}

/** How many of `total` requests each operation gets: the same share each, the remainder to the first ones. */
export function sharesOf(operations: readonly Operation[], total: number): Map<Operation, number> {
  const perOperation = Math.floor(total / operations.length);
  const remainder = total % operations.length;
  return new Map(operations.map((op, i) => [op, perOperation + (i < remainder ? 1 : 0)]));
}

/** The seed of an operation's requests: the run's seed mixed with the operation's id. */
export const seedOf = (op: Operation, seed: number): number => seed ^ hashOf(op.id);

/** `count` requests for the operation, the same for the same seed. */
export function generateRequests(
  op: Operation,
  ctx: FuzzContext,
  count: number,
  seed: number,
): FuzzRequest[] {
  if (count <= 0) return [];
  return fc.sample(requestArb(op, ctx), { seed, numRuns: count });
}

/** A 32-bit hash of a string (FNV-1a), to give every operation its own seed. */
export function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash | 0;
}

/** A deterministic shuffle (mulberry32). */
export function shuffle<T>(items: T[], seed: number): T[] {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [itemAt(out, j), itemAt(out, i)];
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Sending

export interface FuzzResponse {
  /** 0 when no response came back. */
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  error?: string;
}

/** Sends the request byte for byte with node:http (no URL normalisation, no header rewriting). */
export function send(
  baseUrl: string,
  req: FuzzRequest,
  agent: Agent,
  extraHeaders: Record<string, string> = {},
  timeoutMs = 30_000,
): Promise<FuzzResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    let settled = false;
    const done = (res: FuzzResponse) => {
      if (!settled) {
        settled = true;
        resolve(res);
      }
    };
    const headers: Record<string, string> = { ...req.headers, ...extraHeaders };
    if (req.body && !req.chunked) headers['content-length'] = String(req.body.length);
    let outgoing: ReturnType<typeof request>;
    try {
      outgoing = request(
        { host: hostname, port, method: req.method, path: req.target, headers, agent, timeout: timeoutMs },
        (res) => {
          const chunks: Buffer[] = [];
          const finish = (error?: string) =>
            done({
              status: res.statusCode ?? 0,
              headers: res.headers,
              text: Buffer.concat(chunks).toString('utf8'),
              ...(error ? { error } : {}),
            });
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => finish());
          res.on('error', (err) => finish(err.message));
        },
      );
    } catch (err) {
      done({ status: 0, headers: {}, text: '', error: `not sent: ${(err as Error).message}` });
      return;
    }
    outgoing.on('timeout', () => outgoing.destroy(new Error(`no response within ${timeoutMs} ms`)));
    outgoing.on('error', (err) => {
      // The server may answer (413, 401) and close before the whole body was written.
      setTimeout(() => done({ status: 0, headers: {}, text: '', error: err.message }), 200);
    });
    if (req.chunked && req.body) {
      outgoing.write(req.body);
      outgoing.end();
    } else outgoing.end(req.body);
  });
}

// ---------------------------------------------------------------------------------------------
// Checking

export type Verdict =
  | { kind: 'ok' }
  | { kind: 'server-error' }
  | { kind: 'status'; problem: string }
  | { kind: 'envelope'; problem: string }
  | { kind: 'transport'; problem: string };

/** Texts that only internals would put in an error message. */
const INTERNALS =
  /violates .* constraint|duplicate key value|relation "|column "|syntax error at or near|invalid input syntax for|node_modules|\.[cm]?[jt]s:\d+:\d+|\bat (async )?[\w.<>]+ \(/i;

const pathnameOf = (target: string) => target.split('?')[0] ?? target;

/** Why a 4xx answer is not in the documented error envelope of its path, or undefined. */
export function envelopeProblem(target: string, res: FuzzResponse): string | undefined {
  const type = String(res.headers['content-type'] ?? '');
  if (!/^application\/json\b/i.test(type)) return `content-type ${type || '(none)'}, not JSON`;
  const body = safeParse(res.text) as any;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return 'body is not a JSON object';
  const general = envelopeForPath(pathnameOf(target)) === 'general';
  const keys = Object.keys(body).sort().join(',');
  if (general ? keys !== 'error' : keys !== 'error,result' || body.result !== 'error') {
    return `envelope {${keys}} instead of ${general ? '{error}' : "{result: 'error', error}"}`;
  }
  const error = body.error;
  if (!error || typeof error !== 'object') return 'error is not an object';
  const extra = Object.keys(error).filter((k) => !['code', 'message', 'status', 'details'].includes(k));
  if (extra.length) return `error has unexpected keys ${extra.join(',')}`;
  if (typeof error.code !== 'string' || !Object.hasOwn(ERROR_STATUS, error.code)) {
    return `error.code ${JSON.stringify(error.code)} is not an ErrorCode`;
  }
  if (error.status !== res.status) return `error.status ${error.status} differs from HTTP ${res.status}`;
  const expected = ERROR_STATUS[error.code as keyof typeof ERROR_STATUS];
  if (expected !== res.status) return `${error.code} travels with ${expected}, answered ${res.status}`;
  if (typeof error.message !== 'string' || !error.message) return 'error.message missing';
  if (INTERNALS.test(error.message)) return `error.message shows internals: ${error.message.slice(0, 120)}`;
  if (
    error.details !== undefined &&
    !(
      Array.isArray(error.details) &&
      error.details.every(
        (d: any) =>
          d &&
          typeof d.field === 'string' &&
          typeof d.message === 'string' &&
          Object.keys(d).sort().join(',') === 'field,message',
      )
    )
  ) {
    return 'error.details is not [{field, message}]';
  }
  return undefined;
}

export function verdictOf(req: FuzzRequest, res: FuzzResponse): Verdict {
  if (res.status === 0) return { kind: 'transport', problem: res.error ?? 'no response' };
  if (res.status >= 500) return { kind: 'server-error' };
  if (req.expectStatus !== undefined && res.status !== req.expectStatus) {
    return { kind: 'status', problem: `must answer ${req.expectStatus}, answered ${res.status}` };
  }
  if (res.status >= 400) {
    const problem = envelopeProblem(req.target, res);
    if (problem) return { kind: 'envelope', problem };
  }
  return { kind: 'ok' };
}

// ---------------------------------------------------------------------------------------------
// Running

export interface Outcome {
  req: FuzzRequest;
  res: FuzzResponse;
  verdict: Verdict;
  /** Milliseconds from sending the request to its whole answer. */
  ms: number;
  /** For a 5xx: the error the server logged (type, code, message) ... */
  cause?: string;
  /** ... and the first frame of its stack in server or contract code. */
  where?: string;
}

export interface ServerErrorLog {
  /** The logged error of each request that failed, by request id. */
  byRequestId: Map<string, { cause: string; where?: string }>;
  restore(): void;
}

function describeError(err: any): { cause: string; where?: string } {
  const frame = String(err?.stack ?? '')
    .split('\n')
    .map((line) => line.trim())
    .find((line) => /\/(server|contract)\//.test(line) && !line.includes('node_modules'));
  const where = frame?.match(/\/((?:server|contract)\/[^):]+:\d+)/)?.[1];
  const code = err?.code ? ` [${err.code}]` : '';
  return { cause: `${err?.type ?? 'Error'}${code}: ${String(err?.message ?? err).slice(0, 300)}`, where };
}

/**
 * Records what the server logs for each failed request (it logs every 500 with the error and the
 * request id). The test server logs nothing by default; this swaps its logger for one at `error`
 * that writes here, and `restore()` puts the original back.
 */
export function captureServerErrors(server: TestServer): ServerErrorLog {
  const byRequestId = new Map<string, { cause: string; where?: string }>();
  const original = server.deps.log;
  const stream = {
    write(line: string) {
      const entry = safeParse(line) as { requestId?: string; err?: unknown; msg?: string } | undefined;
      if (entry?.requestId) {
        byRequestId.set(entry.requestId, entry.err ? describeError(entry.err) : { cause: String(entry.msg) });
      }
    },
  };
  server.deps.log = pino({ level: 'error' }, stream);
  return {
    byRequestId,
    restore() {
      server.deps.log = original;
    },
  };
}

/** Sends the requests with `concurrency` in flight and checks every answer. */
export async function runRequests(
  baseUrl: string,
  requests: FuzzRequest[],
  options: { concurrency: number; errors?: ServerErrorLog; firstId?: number },
): Promise<Outcome[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
  const outcomes: Outcome[] = new Array(requests.length);
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const index = next++;
      const req = itemAt(requests, index);
      const requestId = `fuzz-${(options.firstId ?? 0) + index}`;
      const sent = performance.now();
      const res = await send(baseUrl, req, agent, { 'x-request-id': requestId });
      const ms = performance.now() - sent;
      const verdict = verdictOf(req, res);
      const logged = options.errors?.byRequestId.get(String(res.headers['x-request-id'] ?? requestId));
      outcomes[index] = {
        req,
        res,
        ms,
        verdict,
        ...(verdict.kind === 'server-error' ? logged : {}),
      };
    }
  };
  try {
    await Promise.all(Array.from({ length: options.concurrency }, worker));
  } finally {
    agent.destroy();
  }
  return outcomes;
}

// ---------------------------------------------------------------------------------------------
// Reporting

const MAX_SHOWN = 240;

const show = (text: string, max = MAX_SHOWN) => {
  const escaped = JSON.stringify(text);
  return escaped.length > max ? `${escaped.slice(0, max)}…(${text.length} chars)` : escaped;
};

export function describeRequest(req: FuzzRequest): string {
  const headers = Object.entries(req.headers)
    .map(([k, v]) => {
      if (k === 'authorization' || k === 'x-api-key')
        return `${k}: ${v.length > 30 ? `${v.slice(0, 14)}…` : v}`;
      return `${k}: ${v.length > 40 ? `${v.slice(0, 20)}…(${v.length})` : v}`;
    })
    .join('; ');
  const body = req.body ? ` body=${show(req.body.toString('utf8'), 400)}` : '';
  const target = req.target.length > 160 ? `${req.target.slice(0, 160)}…(${req.target.length})` : req.target;
  return `${req.method} ${target} [${req.kind}] {${headers}}${body}`;
}

export const histogramOf = (outcomes: Outcome[]): Record<string, number> => {
  const histogram: Record<string, number> = {};
  for (const { res } of outcomes)
    histogram[res.status || 'no-response'] = (histogram[res.status || 'no-response'] ?? 0) + 1;
  return histogram;
};

/** Numbers, hex and quoted values stripped, so the same cause with other values groups together. */
const normalise = (text: string) => text.replace(/(?<![:\w[.])-?\d+(\.\d+)?(e[+-]?\d+)?(?![\w\]])/gi, 'N');

interface Group {
  key: string;
  outcomes: Outcome[];
}

function groupBy(outcomes: Outcome[], keyOf: (o: Outcome) => string): Group[] {
  const groups = new Map<string, Outcome[]>();
  for (const outcome of outcomes) {
    const key = keyOf(outcome);
    groups.set(key, [...(groups.get(key) ?? []), outcome]);
  }
  return [...groups.entries()]
    .map(([key, list]) => ({ key, outcomes: list }))
    .sort((a, b) => b.outcomes.length - a.outcomes.length);
}

const operationOf = (o: Outcome) => `${o.req.method} ${o.req.op.template}`;

function describeGroup(group: Group, examples = 3): string[] {
  const operations = [...new Set(group.outcomes.map(operationOf))];
  const kinds = [...new Set(group.outcomes.map((o) => o.req.kind))];
  const places = groupBy(
    group.outcomes.filter((o) => o.where),
    (o) => o.where!,
  ).map((g) => `${g.key} (${g.outcomes.length})`);
  const lines = [
    `  ${group.outcomes.length} × ${group.key}`,
    ...(places.length ? [`    thrown at: ${places.join(', ')}`] : []),
    `    operations (${operations.length}): ${operations.slice(0, 12).join(', ')}${operations.length > 12 ? ', …' : ''}`,
    `    inputs (${kinds.length}): ${kinds.slice(0, 12).join(' | ')}${kinds.length > 12 ? ' | …' : ''}`,
  ];
  const seen = new Set<string>();
  for (const o of group.outcomes) {
    if (seen.size >= examples) break;
    const key = `${operationOf(o)} ${o.req.kind}`;
    if (seen.has(key)) continue;
    seen.add(key);
    lines.push(`    - ${describeRequest(o.req)}`);
    lines.push(`      -> ${o.res.status} ${show(o.res.text, 200)}`);
  }
  return lines;
}

export interface FuzzReport {
  histogram: Record<string, number>;
  /** One line per distinct failure (5xx cause, envelope problem, transport error). */
  failures: string[];
  text: string;
}

/**
 * The operations that took the run's time: the `count` with the most milliseconds over all their
 * requests, as `time total (requests, slowest one)`; what to look at when the run grows slow.
 */
export function slowestOperations(outcomes: Outcome[], count = 8): string[] {
  const byOperation = new Map<string, { total: number; requests: number; slowest: number }>();
  for (const outcome of outcomes) {
    const name = operationOf(outcome);
    const entry = byOperation.get(name) ?? { total: 0, requests: 0, slowest: 0 };
    entry.total += outcome.ms;
    entry.requests += 1;
    entry.slowest = Math.max(entry.slowest, outcome.ms);
    byOperation.set(name, entry);
  }
  return [...byOperation]
    .sort(([, a], [, b]) => b.total - a.total)
    .slice(0, count)
    .map(
      ([name, e]) =>
        `${name} ${(e.total / 1000).toFixed(1)} s (${e.requests} requests, slowest ${Math.round(e.slowest)} ms)`,
    );
}

export function reportOf(outcomes: Outcome[]): FuzzReport {
  const serverErrors = groupBy(
    outcomes.filter((o) => o.verdict.kind === 'server-error'),
    (o) =>
      o.cause
        ? normalise(o.cause)
        : `HTTP ${o.res.status}, nothing logged: ${normalise(o.res.text.slice(0, 120))}`,
  );
  const envelopes = groupBy(
    outcomes.filter((o) => o.verdict.kind === 'envelope'),
    (o) => `${o.res.status} ${normalise((o.verdict as { problem: string }).problem)} (${operationOf(o)})`,
  );
  const statuses = groupBy(
    outcomes.filter((o) => o.verdict.kind === 'status'),
    (o) => `${normalise((o.verdict as { problem: string }).problem)} (${operationOf(o)})`,
  );
  const transport = groupBy(
    outcomes.filter((o) => o.verdict.kind === 'transport'),
    (o) => `${normalise((o.verdict as { problem: string }).problem)}`,
  );
  const histogram = histogramOf(outcomes);
  const lines = [`${outcomes.length} requests; statuses ${JSON.stringify(histogram)}`];
  if (serverErrors.length) {
    lines.push(`5xx answers by cause (${serverErrors.length} causes):`);
    for (const group of serverErrors) lines.push(...describeGroup(group));
  }
  if (envelopes.length) {
    lines.push(`4xx answers outside the error envelope (${envelopes.length} kinds):`);
    for (const group of envelopes) lines.push(...describeGroup(group, 2));
  }
  if (statuses.length) {
    lines.push(`answers other than the one the input must get (${statuses.length} kinds):`);
    for (const group of statuses) lines.push(...describeGroup(group, 2));
  }
  if (transport.length) {
    lines.push(`requests without an answer (${transport.length} kinds):`);
    for (const group of transport) lines.push(...describeGroup(group, 2));
  }
  const failures = [
    ...serverErrors.map((g) => `5xx ×${g.outcomes.length}: ${g.key}`),
    ...envelopes.map((g) => `envelope ×${g.outcomes.length}: ${g.key}`),
    ...statuses.map((g) => `status ×${g.outcomes.length}: ${g.key}`),
    ...transport.map((g) => `no answer ×${g.outcomes.length}: ${g.key}`),
  ];
  return { histogram, failures, text: lines.join('\n') };
}

/**
 * The response validator's findings (`METHOD url: message in body`) grouped by operation and
 * message, with one body each.
 */
export function groupViolations(violations: string[], operations: Operation[]): string[] {
  const matchers = operations.map((op) => ({
    op,
    pattern: new RegExp(`^${op.template.replace(/\{[^}]+\}/g, '[^/]+').replace(/\//g, '\\/')}$`),
  }));
  const groups = new Map<string, { count: number; example: string }>();
  for (const violation of violations) {
    const match = /^(\S+) (\S+): ([\s\S]*?) in ([\s\S]*)$/.exec(violation);
    if (!match) {
      groups.set(violation, { count: (groups.get(violation)?.count ?? 0) + 1, example: '' });
      continue;
    }
    const [, method = '', url = '', message = '', body = ''] = match;
    const template =
      matchers.find((m) => m.op.method === method && m.pattern.test(pathnameOf(url)))?.op.template ??
      pathnameOf(url);
    const key = `${method} ${template}: ${normalise(message)}`;
    const group = groups.get(key) ?? { count: 0, example: `${url.slice(0, 120)} -> ${body.slice(0, 200)}` };
    group.count += 1;
    groups.set(key, group);
  }
  return [...groups.entries()]
    .sort((a, b) => b[1].count - a[1].count)
    .map(([key, { count, example }]) => `  ${count} × ${key}${example ? `\n    e.g. ${example}` : ''}`);
}
