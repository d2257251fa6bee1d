/**
 * Query snapshots: the SQL of every exported function of every `server/**\/*queries.ts` file, written
 * beside it as `*queries.sql` and committed, so that a review sees the SQL change next to the code.
 *
 * Each function is called with a recording executor (Kysely on its `DummyDriver`: statements are
 * compiled for PostgreSQL and return no rows), so no database is needed. Arguments come from the
 * function's parameter list: an executor for `db`/`trx`, a value by name and type for plain ones
 * (`businessId`, ids, dates, numbers), a row for `Insertable<...Table>` from `server/platform/db/types.ts`,
 * an object for an interface or an inline type, and for a contract type (`z.infer<typeof Schema>`) an
 * input built from its Zod schema. EXAMPLES below overrides arguments by `file:function` where the
 * generated ones would show too little. Each other value of a boolean or union parameter (or field
 * of an object parameter) and the absence of an optional one is tried too, and shown when its SQL
 * differs. All values are fixed, so the output is stable.
 *
 *   npx tsx scripts/query-snapshots.ts           write the .sql files (npm run queries)
 *   npx tsx scripts/query-snapshots.ts --check   exit 1 when a committed .sql file differs (CI)
 */
import { existsSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  isExpression,
  sql,
  type Expression,
} from 'kysely';
import ts from 'typescript';
import type { Database } from '../server/platform/db/types.js';

const root = resolve(import.meta.dirname, '..');
const serverDir = join(root, 'server');

// ---------------------------------------------------------------------------------------------
// Fixed example values.

const AT = new Date('2025-01-31T12:00:00.000Z');
const DAY = '2025-01-31';

const FILTERS = {
  match: 'all',
  conditions: [
    { field: 'attributes.plan', operator: 'eq', value: 'pro' },
    { field: 'created_at', operator: 'gte', value: '2026-01-01' },
    { field: 'email', operator: 'contains', value: 'example' },
  ],
};
/** A segment listing contacts by id and filtering: both sides of its condition. */
const SEGMENT = { businessId: 'business-1', id: 'segment-1', filters: FILTERS, listed: 1 };

/**
 * Example arguments by `file:function` (file relative to server/), by parameter name, like Immich's
 * `@GenerateSql({ params })`; the parameters not named are generated. An array gives several calls,
 * each shown under the function's name with what it changes against the first.
 */
type Example = Record<string, unknown>;
const EXAMPLES: Record<string, Example | Example[]> = {
  'marketing/campaigns/queries.ts:resolveRecipients': { segment: SEGMENT },
  'marketing/segments/contacts.queries.ts:countContacts': { segment: SEGMENT },
  'marketing/segments/contacts.queries.ts:contactsPage': { segment: SEGMENT },
  // One condition of each kind of field and operator.
  'marketing/segments/filters.queries.ts:conditionSql': [
    { condition: { field: 'email', operator: 'eq', value: 'someone@example.com' } },
    { condition: { field: 'name', operator: 'contains', value: 'ann' } },
    { condition: { field: 'company', operator: 'starts_with', value: 'Acme' } },
    { condition: { field: 'first_name', operator: 'exists', value: true } },
    { condition: { field: 'last_name', operator: 'in', value: ['Smith', 'Jones'] } },
    { condition: { field: 'attributes.plan', operator: 'eq', value: 'pro' } },
    { condition: { field: 'attributes.plan', operator: 'neq', value: 'pro' } },
    { condition: { field: 'attributes.plan', operator: 'in', value: ['pro', 'team'] } },
    { condition: { field: 'attributes.seats', operator: 'gt', value: 10 } },
    { condition: { field: 'created_at', operator: 'eq', value: '2026-01-01' } },
    { condition: { field: 'created_at', operator: 'lt', value: '2026-01-01T12:00:00Z' } },
    { condition: { field: 'unsubscribed', operator: 'eq', value: false } },
  ],
  'marketing/segments/filters.queries.ts:filtersSql': [
    { filters: FILTERS },
    { filters: { ...FILTERS, match: 'any' } },
  ],
  // A period's document made: the shared columns and the table's own counter.
  'platform/recurring.queries.ts:updateSchedule': {
    changes: { next_period: 4, invoices_created: 4, last_run_on: DAY, status: 'active', next_run_on: DAY },
  },
  'marketing/segments/filters.queries.ts:inSegment': [
    { segment: SEGMENT },
    { segment: { ...SEGMENT, listed: 0 } },
    { segment: { ...SEGMENT, filters: null } },
  ],
  // A currency's sales, and every currency's in the base currency (null).
  'finance/sales/queries.ts:salesBetween': [{}, { currency: null }],
  'finance/sales/queries.ts:salesByPeriod': [{}, { currency: null }],
  'general/invoices/sales.queries.ts:salesItems': [
    {},
    { query: { currency: null, from: DAY, to: DAY, limit: 50, offset: 0 } },
  ],
};

// ---------------------------------------------------------------------------------------------
// The recording executor.

let recorded: string[] = [];

const db = new Kysely<Database>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
  log: (event) => {
    recorded.push(event.query.sql);
  },
});

/** Statements of a returned builder, fragment or object of builders (a function may build without running). */
function compiledOf(value: unknown, seen = new Set<unknown>()): string[] {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return [];
  if (seen.has(value) || value instanceof Date || value instanceof Promise) return [];
  seen.add(value);
  const v = value as Record<string, unknown>;
  if (typeof v.compile === 'function') {
    return [(v.compile as (executor: unknown) => { sql: string }).call(v, db).sql];
  }
  if (isExpression(value)) return [sql`${value as Expression<unknown>}`.compile(db).sql];
  if (typeof value === 'function') return [];
  return Object.values(v).flatMap((item) => compiledOf(item, seen));
}

// ---------------------------------------------------------------------------------------------
// Source files: exported functions, their parameters, and type declarations.

interface SourceInfo {
  path: string;
  sf: ts.SourceFile;
  decls: Map<string, ts.InterfaceDeclaration | ts.TypeAliasDeclaration>;
  /** local name -> the module file and the name exported there */
  imports: Map<string, { file: string; name: string }>;
  /** files of `export * from` */
  starExports: string[];
}

const sources = new Map<string, SourceInfo | undefined>();

function moduleFile(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier);
  const candidates = [base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')];
  return candidates.find((c) => c.endsWith('.ts') && existsSync(c));
}

function source(path: string): SourceInfo | undefined {
  if (sources.has(path)) return sources.get(path);
  if (!existsSync(path)) {
    sources.set(path, undefined);
    return undefined;
  }
  const sf = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.ES2022, true);
  const info: SourceInfo = { path, sf, decls: new Map(), imports: new Map(), starExports: [] };
  for (const st of sf.statements) {
    if (ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st)) info.decls.set(st.name.text, st);
    if (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier)) {
      const file = moduleFile(path, st.moduleSpecifier.text);
      const bindings = st.importClause?.namedBindings;
      if (file && bindings && ts.isNamedImports(bindings)) {
        for (const el of bindings.elements) {
          info.imports.set(el.name.text, { file, name: (el.propertyName ?? el.name).text });
        }
      }
    }
    if (ts.isExportDeclaration(st) && st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier)) {
      const file = moduleFile(path, st.moduleSpecifier.text);
      if (!file) continue;
      if (!st.exportClause) info.starExports.push(file);
      else if (ts.isNamedExports(st.exportClause)) {
        for (const el of st.exportClause.elements) {
          info.imports.set(el.name.text, { file, name: (el.propertyName ?? el.name).text });
        }
      }
    }
  }
  sources.set(path, info);
  return info;
}

type Decl = { decl: ts.InterfaceDeclaration | ts.TypeAliasDeclaration; src: SourceInfo };

function findDecl(name: string, src: SourceInfo, depth = 0): Decl | undefined {
  if (depth > 8) return undefined;
  const local = src.decls.get(name);
  if (local) return { decl: local, src };
  const imported = src.imports.get(name);
  if (imported) {
    const target = source(imported.file);
    return target && findDecl(imported.name, target, depth + 1);
  }
  for (const file of src.starExports) {
    const target = source(file);
    const found = target && findDecl(name, target, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** The module file that declares (or re-exports) the value `name` seen from `src`. */
function valueModule(name: string, src: SourceInfo): string {
  const imported = src.imports.get(name);
  return imported ? valueModule(imported.name, source(imported.file) ?? src) : src.path;
}

interface Param {
  name: string;
  type?: ts.TypeNode;
  optional: boolean;
  hasDefault: boolean;
  defaultText?: string;
}

interface FunctionInfo {
  name: string;
  params: Param[];
}

/** A destructured parameter is named after its type (`{ a, ...b }: DeliveryChange` is `deliveryChange`). */
function destructuredName(p: ts.ParameterDeclaration, index: number): string {
  const type = p.type && ts.isTypeReferenceNode(p.type) ? typeName(p.type) : undefined;
  return type ? type.charAt(0).toLowerCase() + type.slice(1) : `arg${index}`;
}

function exportedFunctions(src: SourceInfo): FunctionInfo[] {
  const out: FunctionInfo[] = [];
  const isExported = (node: ts.Node) =>
    ts.canHaveModifiers(node) && ts.getModifiers(node)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  const add = (name: string, fn: ts.SignatureDeclarationBase) => {
    if (out.some((f) => f.name === name)) return;
    out.push({
      name,
      params: fn.parameters.map((p, i) => ({
        name: ts.isIdentifier(p.name) ? p.name.text : destructuredName(p, i),
        type: p.type,
        optional: p.questionToken !== undefined,
        hasDefault: p.initializer !== undefined,
        defaultText: p.initializer?.getText(),
      })),
    });
  };
  for (const st of src.sf.statements) {
    if (!isExported(st)) continue;
    if (ts.isFunctionDeclaration(st) && st.name) add(st.name.text, st);
    if (ts.isVariableStatement(st)) {
      for (const d of st.declarationList.declarations) {
        const init = d.initializer;
        if (ts.isIdentifier(d.name) && init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init))) {
          add(d.name.text, init);
        }
      }
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Example values from types.

function stringFor(name: string): string {
  const n = name.toLowerCase();
  if (n.includes('email')) return 'someone@example.com';
  if (n.includes('currency')) return 'EUR';
  if (n.includes('zone')) return 'UTC';
  if (n.includes('url')) return 'https://example.com/';
  if (/(^|_)(date|day|today|from|to|asof|start|end|since|until)$|date$|day$|^(start|end)_/.test(n))
    return DAY;
  if (/(^id|Id|_id)s?$/.test(name)) return `${name.replace(/s$/, '')}-1`;
  return name;
}

function numberFor(name: string): number {
  const n = name.toLowerCase();
  if (n === 'offset' || n === 'slot') return 0;
  if (n === 'limit' || n === 'batch' || n === 'n') return 10;
  return 1;
}

type Mode = 'insert' | 'update' | 'select';
interface Scope {
  src: SourceInfo;
  env: Map<string, { node: ts.TypeNode; scope: Scope }>;
  mode: Mode;
  depth: number;
}

const isNullish = (t: ts.TypeNode) =>
  t.kind === ts.SyntaxKind.UndefinedKeyword ||
  (ts.isLiteralTypeNode(t) && t.literal.kind === ts.SyntaxKind.NullKeyword);

function typeName(t: ts.TypeReferenceNode): string {
  return ts.isIdentifier(t.typeName) ? t.typeName.text : t.typeName.getText(t.getSourceFile());
}

/** The column types of a table interface of types.ts (or any interface or inline object type). */
function members(
  t: ts.TypeNode,
  scope: Scope,
): { name: string; type?: ts.TypeNode; scope: Scope }[] | undefined {
  if (ts.isParenthesizedTypeNode(t)) return members(t.type, scope);
  if (ts.isTypeLiteralNode(t)) return propertiesOf(t.members, scope);
  if (ts.isTypeReferenceNode(t)) {
    const found = findDecl(typeName(t), scope.src);
    if (!found) return undefined;
    const inner = withArgs(found, t, scope);
    if (ts.isTypeAliasDeclaration(found.decl)) return members(found.decl.type, inner);
    // An interface's own fields and those of the interfaces it extends.
    const inherited = (found.decl.heritageClauses ?? []).flatMap((h) =>
      h.types.flatMap((base) => {
        const parent = findDecl(base.expression.getText(), found.src);
        return parent && ts.isInterfaceDeclaration(parent.decl)
          ? propertiesOf(parent.decl.members, { ...inner, src: parent.src })
          : [];
      }),
    );
    return [...inherited, ...propertiesOf(found.decl.members, inner)];
  }
  return undefined;
}

async function objectOf(fields: { name: string; type?: ts.TypeNode; scope: Scope }[], scope: Scope) {
  const obj: Record<string, unknown> = {};
  for (const f of fields)
    if (f.type) obj[f.name] = await valueFor(f.type, f.name, { ...f.scope, mode: scope.mode });
  return obj;
}

function propertiesOf(list: ts.NodeArray<ts.TypeElement>, scope: Scope) {
  return list.filter(ts.isPropertySignature).map((m) => ({ name: m.name.getText(), type: m.type, scope }));
}

function withArgs(found: Decl, ref: ts.TypeReferenceNode, scope: Scope): Scope {
  const env = new Map<string, { node: ts.TypeNode; scope: Scope }>();
  found.decl.typeParameters?.forEach((p, i) => {
    const arg = ref.typeArguments?.[i] ?? p.default;
    if (arg)
      env.set(p.name.text, {
        node: arg,
        scope: ref.typeArguments?.[i] ? scope : { ...scope, src: found.src },
      });
  });
  return { ...scope, src: found.src, env, depth: scope.depth + 1 };
}

function literalKeys(t: ts.TypeNode | undefined): string[] {
  if (!t) return [];
  if (ts.isUnionTypeNode(t)) return t.types.flatMap(literalKeys);
  if (ts.isLiteralTypeNode(t) && ts.isStringLiteral(t.literal)) return [t.literal.text];
  return [];
}

async function rowFor(t: ts.TypeNode, scope: Scope, mode: Mode): Promise<Record<string, unknown>> {
  const cols = members(t, scope) ?? [];
  const row: Record<string, unknown> = {};
  const generated = (c: { type?: ts.TypeNode }) =>
    c.type !== undefined &&
    ts.isTypeReferenceNode(c.type) &&
    ['Generated', 'GeneratedAlways'].includes(typeName(c.type));
  if (mode === 'update') {
    // One column shows the statement's shape; the caller decides which columns change.
    const col =
      cols.find((c) => c.name === 'updated_at') ??
      cols.find((c) => !['id', 'business_id'].includes(c.name) && !generated(c));
    if (col?.type) row[col.name] = await valueFor(col.type, col.name, { ...col.scope, mode });
    return row;
  }
  for (const c of cols) {
    if (mode === 'insert' && generated(c)) continue;
    if (c.type) row[c.name] = await valueFor(c.type, c.name, { ...c.scope, mode });
  }
  return row;
}

async function valueFor(t: ts.TypeNode, name: string, scope: Scope): Promise<unknown> {
  if (scope.depth > 12) return undefined;
  const next: Scope = { ...scope, depth: scope.depth + 1 };
  switch (t.kind) {
    case ts.SyntaxKind.StringKeyword:
      return stringFor(name);
    case ts.SyntaxKind.NumberKeyword:
      return numberFor(name);
    case ts.SyntaxKind.BigIntKeyword:
      return 1n;
    case ts.SyntaxKind.BooleanKeyword:
      return false;
    case ts.SyntaxKind.NullKeyword:
      return null;
    case ts.SyntaxKind.UndefinedKeyword:
      return undefined;
  }
  if (ts.isParenthesizedTypeNode(t)) return valueFor(t.type, name, next);
  if (ts.isLiteralTypeNode(t)) {
    const lit = t.literal;
    if (ts.isStringLiteral(lit)) return lit.text;
    if (ts.isNumericLiteral(lit)) return Number(lit.text);
    if (lit.kind === ts.SyntaxKind.TrueKeyword) return true;
    if (lit.kind === ts.SyntaxKind.FalseKeyword) return false;
    return null;
  }
  if (ts.isUnionTypeNode(t)) {
    const first = t.types.find((m) => !isNullish(m)) ?? t.types[0]!;
    return valueFor(first, name, next);
  }
  if (ts.isIntersectionTypeNode(t)) {
    const parts = await Promise.all(t.types.map((m) => valueFor(m, name, next)));
    return Object.assign({}, ...parts.filter((p) => typeof p === 'object'));
  }
  if (ts.isArrayTypeNode(t)) return [await valueFor(t.elementType, name.replace(/s$/, ''), next)];
  if (ts.isTypeOperatorNode(t)) return valueFor(t.type, name, next);
  if (ts.isTypeLiteralNode(t)) return objectOf(propertiesOf(t.members, next), next);
  if (ts.isIndexedAccessTypeNode(t)) {
    const key = literalKeys(t.indexType)[0];
    const member = key !== undefined ? members(t.objectType, next)?.find((m) => m.name === key) : undefined;
    return member?.type
      ? valueFor(member.type, key!, { ...member.scope, mode: scope.mode })
      : stringFor(name);
  }
  if (ts.isTypeReferenceNode(t)) return referenceValue(t, name, next);
  return stringFor(name);
}

async function referenceValue(t: ts.TypeReferenceNode, name: string, scope: Scope): Promise<unknown> {
  const ref = typeName(t);
  const args = t.typeArguments ?? [];
  const bound = scope.env.get(ref);
  if (bound) return valueFor(bound.node, name, { ...bound.scope, mode: scope.mode, depth: scope.depth });
  switch (ref) {
    case 'Date':
      return AT;
    case 'Insertable':
      return rowFor(args[0]!, scope, 'insert');
    case 'Updateable':
      return rowFor(args[0]!, scope, 'update');
    case 'Selectable':
      return rowFor(args[0]!, scope, 'select');
    case 'Generated':
    case 'GeneratedAlways':
    case 'Partial':
    case 'Required':
    case 'Readonly':
    case 'NonNullable':
      return valueFor(args[0]!, name, scope);
    case 'ColumnType': {
      const index = { select: 0, insert: 1, update: 2 }[scope.mode];
      return valueFor(args[index] ?? args[1] ?? args[0]!, name, scope);
    }
    case 'Array':
    case 'ReadonlyArray':
      return [await valueFor(args[0]!, name.replace(/s$/, ''), scope)];
    case 'Record':
      return {};
    case 'Omit':
    case 'Pick': {
      const obj = (await valueFor(args[0]!, name, scope)) as Record<string, unknown>;
      const keys = literalKeys(args[1]);
      return Object.fromEntries(
        Object.entries(obj ?? {}).filter(([k]) => keys.includes(k) === (ref === 'Pick')),
      );
    }
    case 'z.infer':
    case 'z.output':
    case 'z.input': {
      const query = args[0];
      if (!query || !ts.isTypeQueryNode(query)) return {};
      const schemaName = query.exprName.getText(query.getSourceFile());
      const file = valueModule(schemaName, scope.src);
      const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
      return zodExample(mod[schemaName]);
    }
  }
  const found = findDecl(ref, scope.src);
  if (!found) return stringFor(name);
  if (ts.isInterfaceDeclaration(found.decl)) return objectOf(members(t, scope) ?? [], scope);
  return valueFor(found.decl.type, name, withArgs(found, t, scope));
}

interface ZodLike {
  _def: Record<string, any>;
  safeParse(input: unknown): { success: boolean; data?: unknown };
}

/** An input for a Zod schema (every optional field set, defaults taken), parsed by it when it accepts it. */
function zodExample(schema: unknown): unknown {
  if (!schema || typeof schema !== 'object' || !('_def' in schema)) return {};
  const z = schema as ZodLike;
  const input = zodValue(z, '');
  // A field the schema refuses (a pattern, a refinement) is left out when it may be.
  for (let attempt = 0; attempt < 5; attempt++) {
    const parsed = z.safeParse(input) as {
      success: boolean;
      data?: unknown;
      error?: { issues: { path: unknown[] }[] };
    };
    if (parsed.success) return parsed.data;
    if (!input || typeof input !== 'object') break;
    for (const issue of parsed.error?.issues ?? [])
      delete (input as Record<string, unknown>)[String(issue.path[0])];
  }
  return input;
}

function zodValue(schema: ZodLike, name: string, depth = 0): unknown {
  if (depth > 12) return undefined;
  const def = schema._def;
  const inner = (s: unknown, n = name) => zodValue(s as ZodLike, n, depth + 1);
  switch (def.typeName as string) {
    case 'ZodObject': {
      const shape = (typeof def.shape === 'function' ? def.shape() : def.shape) as Record<string, unknown>;
      return Object.fromEntries(Object.entries(shape).map(([k, s]) => [k, inner(s, k)]));
    }
    case 'ZodOptional':
    case 'ZodNullable':
    case 'ZodReadonly':
    case 'ZodCatch':
      return inner(def.innerType);
    case 'ZodDefault':
      return def.defaultValue();
    case 'ZodEffects':
      return inner(def.schema);
    case 'ZodPipeline':
      return inner(def.in);
    case 'ZodBranded':
      return inner(def.type);
    case 'ZodLazy':
      return inner(def.getter());
    case 'ZodString': {
      const checks = (def.checks ?? []) as { kind: string }[];
      if (checks.some((c) => c.kind === 'email')) return 'someone@example.com';
      if (checks.some((c) => c.kind === 'datetime')) return AT.toISOString();
      if (checks.some((c) => c.kind === 'date')) return DAY;
      return stringFor(name);
    }
    case 'ZodNumber':
      return numberFor(name);
    case 'ZodBigInt':
      return 1n;
    case 'ZodBoolean':
      return false;
    case 'ZodDate':
      return AT;
    case 'ZodEnum':
      return (def.values as unknown[])[0];
    case 'ZodNativeEnum':
      return Object.values(def.values as object)[0];
    case 'ZodLiteral':
      return def.value;
    case 'ZodUnion':
    case 'ZodDiscriminatedUnion':
      return inner((def.options as unknown[])[0]);
    case 'ZodArray':
      return [inner(def.type, name.replace(/s$/, ''))];
    case 'ZodTuple':
      return (def.items as unknown[]).map((s) => inner(s));
    case 'ZodRecord':
      return {};
    case 'ZodIntersection':
      return Object.assign({}, inner(def.left), inner(def.right));
    default:
      return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Running one function.

type ExecutorKind = 'db' | 'trx' | undefined;

function executorKind(p: Param): ExecutorKind {
  const text = p.type?.getText().replace(/\s+/g, '');
  if (!text) return undefined;
  if (text === 'Trx' || text === 'Transaction<Database>') return 'trx';
  if (['Executor', 'Db', 'Kysely<Database>', 'Db|Trx', 'Trx|Db'].includes(text)) return 'db';
  return undefined;
}

const rootScope = (src: SourceInfo): Scope => ({ src, env: new Map(), mode: 'insert', depth: 0 });

/** Arguments by parameter name: the example's, else generated (a parameter with a default keeps it). */
async function argumentsFor(fn: FunctionInfo, src: SourceInfo, example: Example): Promise<Example> {
  const args: Example = {};
  for (const p of fn.params) {
    if (executorKind(p)) continue;
    if (p.name in example) args[p.name] = example[p.name];
    else if (p.hasDefault || !p.type) args[p.name] = undefined;
    else args[p.name] = await valueFor(p.type, p.name, rootScope(src));
  }
  return args;
}

/**
 * The other values a parameter's type names, each tried once so that every branch it picks shows:
 * a boolean's other value, the other members of a union of literals or object types, and no value
 * for an optional parameter. A variant whose SQL is the same as an earlier one's is left out.
 */
async function alternatives(p: Param, src: SourceInfo, value: unknown): Promise<unknown[]> {
  const out: unknown[] = [];
  const type = p.type;
  if (type?.kind === ts.SyntaxKind.BooleanKeyword || isBooleanDefault(p)) {
    out.push(true, false);
  } else if (type) {
    out.push(...(await unionMembers(type, p.name, rootScope(src))).slice(1));
    // The same for the fields of an object parameter (a flag or a kind inside an options object).
    const fields = value && typeof value === 'object' ? members(type, rootScope(src)) : undefined;
    for (const field of fields ?? []) {
      if (!field.type) continue;
      const values =
        field.type.kind === ts.SyntaxKind.BooleanKeyword
          ? [true, false]
          : (await unionMembers(field.type, field.name, field.scope)).slice(1);
      for (const v of values) out.push({ ...(value as object), [field.name]: v });
    }
  }
  if (p.optional) out.push(undefined);
  return out;
}

function isBooleanDefault(p: Param): boolean {
  return p.defaultText === 'true' || p.defaultText === 'false';
}

async function unionMembers(t: ts.TypeNode, name: string, scope: Scope): Promise<unknown[]> {
  if (scope.depth > 4) return [];
  if (ts.isParenthesizedTypeNode(t)) return unionMembers(t.type, name, scope);
  if (ts.isTypeReferenceNode(t)) {
    const found = findDecl(typeName(t), scope.src);
    if (!found || !ts.isTypeAliasDeclaration(found.decl)) return [];
    return unionMembers(found.decl.type, name, { ...scope, src: found.src, depth: scope.depth + 1 });
  }
  if (ts.isIndexedAccessTypeNode(t)) {
    const key = literalKeys(t.indexType)[0];
    const member = key !== undefined ? members(t.objectType, scope)?.find((m) => m.name === key) : undefined;
    return member?.type ? unionMembers(member.type, name, { ...member.scope, depth: scope.depth + 1 }) : [];
  }
  if (!ts.isUnionTypeNode(t)) return [];
  const kinds = t.types.filter((m) => !isNullish(m));
  if (!kinds.every((m) => ts.isLiteralTypeNode(m) || ts.isTypeLiteralNode(m))) return [];
  const values: unknown[] = [];
  for (const m of t.types) values.push(await valueFor(m, name, scope));
  return values;
}

function describe(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (value === undefined) return 'undefined';
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}

/** What a variant changes against the first call, as `path = value` (shortened). */
function difference(base: unknown, variant: unknown, path: string): string[] {
  const plain = (v: unknown): v is Record<string, unknown> =>
    v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date);
  const flat = (v: Record<string, unknown>) =>
    Object.values(v).every((x) => x === null || typeof x !== 'object');
  // A small object of plain values (a condition, a key) reads best whole.
  if (plain(base) && plain(variant) && !(path && flat(base) && flat(variant))) {
    const keys = [...new Set([...Object.keys(base), ...Object.keys(variant)])];
    return keys.flatMap((k) => difference(base[k], variant[k], path ? `${path}.${k}` : k));
  }
  return describe(base) === describe(variant) ? [] : [`${path} = ${describe(variant)}`];
}

interface Outcome {
  statements: string[];
  failure?: string;
}

async function run(fn: FunctionInfo, impl: (...args: unknown[]) => unknown, args: Example): Promise<Outcome> {
  recorded = [];
  const kinds = fn.params.map(executorKind);
  const values = structuredClone(args);
  const call = (executor: unknown) =>
    impl(...fn.params.map((p, i) => (kinds[i] ? executor : values[p.name])));
  let failure: string | undefined;
  let result: unknown;
  try {
    if (kinds.includes('trx')) {
      await db.transaction().execute(async (trx) => {
        result = await call(trx);
      });
    } else {
      result = await call(db);
    }
  } catch (err) {
    failure = err instanceof Error ? `${err.constructor.name}: ${err.message}` : String(err);
  }
  // Statements started but not awaited by the function.
  await new Promise((r) => setImmediate(r));
  const statements = [...recorded];
  try {
    statements.push(...compiledOf(result));
  } catch (err) {
    failure ??= err instanceof Error ? err.message : String(err);
  }
  return { statements, failure };
}

// ---------------------------------------------------------------------------------------------
// A small SQL formatter: a clause keyword on its own line with its content indented below it,
// one select item, assignment, condition (and/or) or join per line, subqueries indented, long
// parenthesised lists one item per line. Parameters stay `$1`, `$2`.

interface Token {
  text: string;
  word: string;
  space: boolean;
}

const TOKEN =
  /\s+|--[^\n]*|\/\*[\s\S]*?\*\/|'(?:[^']|'')*'|"(?:[^"]|"")*"|\$\d+|\d+(?:\.\d+)?|[A-Za-z_][A-Za-z0-9_$]*|::|<=|>=|<>|!=|\|\||->>|->|#>>|#>|@>|<@|&&|[\s\S]/gy;

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let space = false;
  for (const m of text.matchAll(TOKEN)) {
    const t = m[0];
    if (/^\s+$/.test(t)) {
      space = true;
      continue;
    }
    tokens.push({ text: t, word: /^[A-Za-z_]/.test(t) ? t.toLowerCase() : '', space });
    space = false;
  }
  return tokens;
}

/** Clause keywords, longest first: `own` puts the content on the following lines, `same` keeps it on the keyword's line. */
const CLAUSES: { words: string[]; layout: 'own' | 'same' | 'join' | 'alone' }[] = [
  ['for no key update', 'same'],
  ['for key share', 'same'],
  ['for update', 'same'],
  ['for share', 'same'],
  ['do update set', 'own'],
  ['do nothing', 'same'],
  ['on conflict', 'same'],
  ['insert into', 'same'],
  ['delete from', 'same'],
  ['with recursive', 'own'],
  ['group by', 'own'],
  ['order by', 'own'],
  ['union all', 'alone'],
  ['left outer join lateral', 'join'],
  ['left outer join', 'join'],
  ['left join lateral', 'join'],
  ['inner join lateral', 'join'],
  ['cross join lateral', 'join'],
  ['left join', 'join'],
  ['right join', 'join'],
  ['full join', 'join'],
  ['inner join', 'join'],
  ['cross join', 'join'],
  ['join', 'join'],
  ['union', 'alone'],
  ['intersect', 'alone'],
  ['except', 'alone'],
  ['select', 'own'],
  ['from', 'own'],
  ['where', 'own'],
  ['having', 'own'],
  ['window', 'own'],
  ['returning', 'own'],
  ['values', 'own'],
  ['set', 'own'],
  ['with', 'own'],
  ['using', 'own'],
  ['update', 'same'],
  ['limit', 'same'],
  ['offset', 'same'],
].map(([words, layout]) => ({ words: words!.split(' '), layout: layout as 'own' }));

const LIST_WIDTH = 80;

function formatSql(text: string): string {
  const tokens = tokenize(text.trim().replace(/;\s*$/, ''));
  // Matching parentheses.
  const match = new Map<number, number>();
  const open: number[] = [];
  tokens.forEach((t, i) => {
    if (t.text === '(') open.push(i);
    else if (t.text === ')' && open.length) match.set(open.pop()!, i);
  });

  interface Frame {
    kind: 'statement' | 'inline' | 'list';
    /** indentation of the clause keywords (statement) or of the items (list) */
    level: number;
    caseDepth: number;
    between: boolean;
    /** in a join's `on` condition */
    join: boolean;
    start: number;
  }
  const frames: Frame[] = [
    { kind: 'statement', level: 0, caseDepth: 0, between: false, join: false, start: 0 },
  ];
  const lines: string[] = [];
  let line = '';
  let lineLevel = 0;
  let fresh = true;
  const top = () => frames[frames.length - 1]!;
  /** The level of a statement's clause content, seen from inside its inline groups. */
  const contentLevel = () => {
    for (let f = frames.length - 1; f >= 0; f--) {
      const frame = frames[f]!;
      if (frame.kind === 'statement') return frame.level + 1;
      if (frame.kind === 'list') return frame.level;
    }
    return 1;
  };
  const newline = (level: number) => {
    if (!fresh) lines.push(line.trimEnd());
    line = '  '.repeat(level);
    lineLevel = level;
    fresh = true;
  };
  const emit = (t: Token, prev: Token | undefined) => {
    const tight = fresh || !t.space || prev?.text === '(' || t.text === ')' || t.text === ',';
    line += (tight ? '' : ' ') + t.text;
    fresh = false;
  };

  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const prev = tokens[i - 1];
    const frame = top();
    if (t.text.startsWith('--')) {
      emit(t, prev);
      newline(contentLevel());
      continue;
    }
    if (t.text === '(') {
      emit(t, prev);
      const next = tokens[i + 1];
      const close = match.get(i);
      if (next && ['select', 'with', 'values', 'insert', 'update', 'delete'].includes(next.word)) {
        frames.push({
          kind: 'statement',
          level: lineLevel + 1,
          caseDepth: 0,
          between: false,
          join: false,
          start: i + 1,
        });
      } else if (close !== undefined && isLongList(tokens, i, close)) {
        frames.push({
          kind: 'list',
          level: lineLevel + 1,
          caseDepth: 0,
          between: false,
          join: false,
          start: i + 1,
        });
        newline(top().level);
      } else {
        frames.push({ kind: 'inline', level: 0, caseDepth: 0, between: false, join: false, start: i + 1 });
      }
      continue;
    }
    if (t.text === ')' && frames.length > 1) {
      const closing = frames.pop()!;
      if (closing.kind !== 'inline') newline(closing.level - 1);
      emit(t, prev);
      continue;
    }
    if (frame.kind === 'inline') {
      emit(t, prev);
      continue;
    }
    if (frame.kind === 'list') {
      if (t.word === 'case') frame.caseDepth++;
      if (t.word === 'end' && frame.caseDepth > 0) frame.caseDepth--;
      if (t.word === 'between') frame.between = true;
      if ((t.word === 'and' || t.word === 'or') && frame.caseDepth === 0) {
        if (t.word === 'and' && frame.between) frame.between = false;
        else newline(frame.level);
      }
      emit(t, prev);
      if (t.text === ',' && frame.caseDepth === 0) newline(frame.level);
      continue;
    }
    // A statement's own tokens.
    if (t.word === 'case') frame.caseDepth++;
    if (t.word === 'end' && frame.caseDepth > 0) frame.caseDepth--;
    if (t.word === 'between') frame.between = true;
    const clause = frame.caseDepth === 0 ? clauseAt(tokens, i, frame.start) : undefined;
    if (clause) {
      const words = tokens.slice(i, i + clause.words.length);
      i += clause.words.length - 1;
      frame.join = clause.layout === 'join';
      newline(frame.level + (frame.join ? 1 : 0));
      words.forEach((w, k) => emit(w, k === 0 ? prev : words[k - 1]));
      if (clause.layout === 'own' || clause.layout === 'alone')
        newline(frame.level + (clause.layout === 'own' ? 1 : 0));
      continue;
    }
    if ((t.word === 'and' || t.word === 'or') && frame.caseDepth === 0) {
      if (t.word === 'and' && frame.between) frame.between = false;
      else newline(frame.level + (frame.join ? 2 : 1));
      emit(t, prev);
      continue;
    }
    emit(t, prev);
    if (t.text === ',' && frame.caseDepth === 0) newline(frame.level + 1);
  }
  if (!fresh) lines.push(line.trimEnd());
  return `${lines.join('\n')};`;
}

function clauseAt(tokens: Token[], i: number, start: number) {
  const prev = tokens[i - 1]?.word;
  for (const c of CLAUSES) {
    if (!c.words.every((w, k) => tokens[i + k]?.word === w)) continue;
    if (c.words[0] === 'with' && i !== start) continue; // `with time zone`, `with ordinality`
    if (c.words[0] === 'from' && prev === 'distinct') continue; // `is distinct from`
    if (c.words[0] === 'values' && prev === 'default') continue;
    if (c.words[0] === 'set' && prev !== undefined && i !== start && !isAfterUpdate(tokens, i)) continue;
    return c;
  }
  return undefined;
}

/** `set` is a clause after `update "table" [as "t"]` only, not in `do update set` (matched whole) or elsewhere. */
function isAfterUpdate(tokens: Token[], i: number): boolean {
  for (let k = i - 1; k >= Math.max(0, i - 4); k--) if (tokens[k]!.word === 'update') return true;
  return false;
}

function isLongList(tokens: Token[], open: number, close: number): boolean {
  let depth = 0;
  let comma = false;
  let width = 0;
  for (let k = open + 1; k < close; k++) {
    const t = tokens[k]!;
    if (t.text === '(') depth++;
    if (t.text === ')') depth--;
    if (depth === 0 && (t.text === ',' || t.word === 'and' || t.word === 'or')) comma = true;
    width += t.text.length + (t.space ? 1 : 0);
  }
  // Parameters only (a row of values): one line reads better than one per line.
  const params = tokens.slice(open + 1, close).every((t) => t.text === ',' || /^\$\d+$/.test(t.text));
  return comma && !params && width > LIST_WIDTH;
}

// ---------------------------------------------------------------------------------------------
// Files.

function queriesFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...queriesFiles(path));
    else if (entry.name.endsWith('queries.ts')) out.push(path);
  }
  return out.sort();
}

function snapshotFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...snapshotFiles(path));
    else if (entry.name.endsWith('queries.sql')) out.push(path);
  }
  return out.sort();
}

const shorten = (text: string) => (text.length > 100 ? `${text.slice(0, 99)}…` : text);
const posix = (path: string) => relative(root, path).split(sep).join('/');

interface Summary {
  functions: number;
  empty: string[];
}

async function snapshot(file: string, summary: Summary): Promise<string> {
  const src = source(file)!;
  const key = relative(serverDir, file).split(sep).join('/');
  let mod: Record<string, unknown>;
  try {
    mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (err) {
    throw new Error(`${posix(file)} does not load: ${err instanceof Error ? err.message : String(err)}`);
  }
  const parts = [
    `-- ${posix(file)}: the SQL of each exported function, called with example arguments.`,
    '-- Generated by `npm run queries` (scripts/query-snapshots.ts); CI fails when it is stale.',
  ];
  for (const fn of exportedFunctions(src)) {
    const impl = mod[fn.name];
    if (typeof impl !== 'function') continue;
    summary.functions++;
    const given = EXAMPLES[`${key}:${fn.name}`] ?? {};
    const examples = Array.isArray(given) ? given : [given];
    const calls: Example[] = [];
    for (const example of examples) calls.push(await argumentsFor(fn, src, example));
    const base = calls[0]!;
    for (const p of fn.params) {
      if (executorKind(p) || p.name in examples[0]!) continue;
      for (const alt of await alternatives(p, src, base[p.name])) calls.push({ ...base, [p.name]: alt });
    }
    const seen = new Set<string>();
    const failures: string[] = [];
    const sections: string[] = [];
    for (const [index, args] of calls.entries()) {
      const outcome = await run(fn, impl as (...args: unknown[]) => unknown, args);
      if (outcome.failure && outcome.statements.length === 0) failures.push(outcome.failure);
      const text = outcome.statements.map(formatSql).join('\n\n');
      if (!text || seen.has(text)) continue;
      seen.add(text);
      const label = index === 0 ? '' : ` (${shorten(difference(base, args, '').join(', '))})`;
      sections.push(`-- ${fn.name}${label}\n${text}`);
    }
    if (sections.length === 0) {
      summary.empty.push(`${key}:${fn.name}`);
      const reason = failures[0]?.split('\n')[0] ?? 'ran no statement';
      sections.push(
        `-- ${fn.name}\n-- (no SQL recorded: ${reason}; add an example in scripts/query-snapshots.ts)`,
      );
    }
    parts.push(...sections.map((section) => `\n${section}`));
  }
  return `${parts.join('\n')}\n`;
}

const check = process.argv.includes('--check');
const started = performance.now();
const summary: Summary = { functions: 0, empty: [] };
const expected = new Map<string, string>();
for (const file of queriesFiles(serverDir)) {
  expected.set(file.replace(/\.ts$/, '.sql'), await snapshot(file, summary));
}
await db.destroy();

const problems: string[] = [];
for (const [path, text] of expected) {
  const current = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
  if (current === text) continue;
  if (check)
    problems.push(`${posix(path)}: ${current === undefined ? 'missing' : 'differs from the queries file'}`);
  else writeFileSync(path, text);
}
for (const path of snapshotFiles(serverDir)) {
  if (expected.has(path)) continue;
  if (check) problems.push(`${posix(path)}: has no queries file`);
  else unlinkSync(path);
}

const took = `${Math.round(performance.now() - started)} ms`;
const counts = `${expected.size} files, ${summary.functions} functions, ${summary.empty.length} without SQL`;
if (check && problems.length > 0) {
  console.error(`Query snapshots are stale:\n  ${problems.join('\n  ')}`);
  console.error('Run `npm run queries` and commit the .sql files.');
  process.exit(1);
}
console.log(`query snapshots ${check ? 'up to date' : 'written'}: ${counts} (${took})`);
if (summary.empty.length > 0) console.log(`without SQL: ${summary.empty.join(', ')}`);
