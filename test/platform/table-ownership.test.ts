import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { domains } from '../../server/domains.js';
import { PLATFORM_TABLES, PLATFORM_VIEWS } from '../../server/platform/tables.js';

/**
 * Each table belongs to one domain (or to the platform), and only its owner's queries files name it;
 * other domains call the owner's services or read a view the owner publishes (docs/decisions.md D70,
 * D71). Static: reads the migrations and the queries files, starts nothing.
 */

const ROOT = join(import.meta.dirname, '..', '..');

/**
 * The source without its comments: JavaScript's (`//`, `/* *\/`) everywhere, SQL's (`--`, `/* *\/`)
 * inside template literals, where the raw SQL is. String literals are kept as they are.
 */
function stripComments(source: string): string {
  let out = '';
  let i = 0;
  /** For each open `${`, the depth of braces inside it; the last one is the innermost. */
  const substitutions: number[] = [];
  let inTemplate = false;
  /** The last character of code that was not blank, to tell a regular expression from a division. */
  let last = '';
  const n = source.length;
  while (i < n) {
    const ch = source[i]!;
    const next = source[i + 1];
    if (inTemplate) {
      if (ch === '\\') {
        out += source.slice(i, i + 2);
        i += 2;
      } else if (ch === '`') {
        out += ch;
        i++;
        inTemplate = false;
        last = '`';
      } else if (ch === '$' && next === '{') {
        out += '${';
        i += 2;
        substitutions.push(0);
        inTemplate = false;
        last = '{';
      } else if (ch === '-' && next === '-') {
        while (i < n && source[i] !== '\n' && source[i] !== '`') i++;
      } else if (ch === '/' && next === '*') {
        const end = source.indexOf('*/', i + 2);
        i = end < 0 ? n : end + 2;
        out += ' ';
      } else {
        out += ch;
        i++;
      }
      continue;
    }
    if (ch === '/' && next === '/') {
      while (i < n && source[i] !== '\n') i++;
    } else if (ch === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
      out += ' ';
    } else if (ch === "'" || ch === '"') {
      let j = i + 1;
      while (j < n && source[j] !== ch && source[j] !== '\n') j += source[j] === '\\' ? 2 : 1;
      out += source.slice(i, j + 1);
      i = j + 1;
      last = ch;
    } else if (ch === '`') {
      out += ch;
      i++;
      inTemplate = true;
    } else if (ch === '/' && (last === '' || '(,=:[!&|?{};+-*%<>~^'.includes(last))) {
      // A regular expression literal: copied whole, so quotes in it start no string.
      let j = i + 1;
      let inClass = false;
      while (j < n && source[j] !== '\n') {
        const c = source[j];
        if (c === '\\') j++;
        else if (c === '[') inClass = true;
        else if (c === ']') inClass = false;
        else if (c === '/' && !inClass) break;
        j++;
      }
      out += source.slice(i, j + 1);
      i = j + 1;
      last = '/';
    } else {
      if (substitutions.length > 0) {
        if (ch === '{') substitutions[substitutions.length - 1]!++;
        else if (ch === '}') {
          if (substitutions[substitutions.length - 1] === 0) {
            substitutions.pop();
            out += ch;
            i++;
            inTemplate = true;
            continue;
          }
          substitutions[substitutions.length - 1]!--;
        }
      }
      out += ch;
      i++;
      if (!/\s/.test(ch)) last = ch;
    }
  }
  return out;
}

/** Kysely methods whose first argument names a table or view (`'name'`, `'name as alias'` or an array). */
const KYSELY_CALL =
  /\.(selectFrom|insertInto|replaceInto|updateTable|deleteFrom|mergeInto|using|from|innerJoin|leftJoin|rightJoin|fullJoin|crossJoin|innerJoinLateral|leftJoinLateral|crossJoinLateral|with|withRecursive|withMaterialized|table)\(\s*/g;
/** Raw SQL: the relation after these keywords (and those listed after it with commas, after FROM). */
const RAW_KEYWORD = /\b(FROM|JOIN|INTO|UPDATE|TABLE|USING)\s+(?:ONLY\s+)?/gi;
const IDENTIFIER = /^(?:"?public"?\.)?"?([A-Za-z_][A-Za-z0-9_]*)"?/;
/** Where a FROM list ends. */
const FROM_LIST_END =
  /\b(?:WHERE|JOIN|INNER|LEFT|RIGHT|FULL|CROSS|ON|GROUP|ORDER|LIMIT|UNION|RETURNING|SET|WINDOW|HAVING)\b|[;)`]|\$\{/i;

/** The string literals at the start of a call's first argument: one, or each of an array's. */
function argumentNames(rest: string): string[] {
  const literal = /^(['"`])((?:(?!\1)[^\\\n]|\\.)*)\1/;
  if (rest.startsWith('[')) {
    const close = rest.indexOf(']');
    const inside = rest.slice(1, close < 0 ? undefined : close);
    return [...inside.matchAll(/(['"`])((?:(?!\1)[^\\\n]|\\.)*)\1/g)].map((m) => m[2]!);
  }
  const m = literal.exec(rest);
  return m ? [m[2]!] : [];
}

/** The relation a Kysely name string names: `'loyalty_members as m'` -> `loyalty_members`. */
const relationOf = (name: string): string | undefined => IDENTIFIER.exec(name.trim())?.[1];

/** Every table or view name a queries file's source names, in Kysely calls or in raw SQL. */
function referencedRelations(source: string): Set<string> {
  const code = stripComments(source);
  const names = new Set<string>();
  for (const m of code.matchAll(KYSELY_CALL)) {
    for (const arg of argumentNames(code.slice(m.index + m[0].length))) {
      const name = relationOf(arg);
      if (name) names.add(name);
    }
  }
  for (const m of code.matchAll(RAW_KEYWORD)) {
    const rest = code.slice(m.index + m[0].length);
    const first = IDENTIFIER.exec(rest);
    if (!first) continue;
    names.add(first[1]!);
    if (m[1]!.toUpperCase() !== 'FROM') continue;
    // FROM a x, b y: the relations listed after the first.
    const end = rest.search(FROM_LIST_END);
    const list = end < 0 ? rest : rest.slice(0, end);
    for (const part of list.split(',').slice(1)) {
      const name = IDENTIFIER.exec(part.trim())?.[1];
      if (name) names.add(name);
    }
  }
  return names;
}

/** Every table and view the migrations create, with the migration that creates it. */
function createdRelations(source: string): { name: string; kind: 'table' | 'view' }[] {
  const code = stripComments(source);
  const found: { name: string; kind: 'table' | 'view' }[] = [];
  const raw =
    /\bCREATE\s+(?:OR\s+REPLACE\s+)?(?:(?:GLOBAL|LOCAL)\s+)?(?:TEMP(?:ORARY)?\s+|UNLOGGED\s+)?(TABLE|(?:MATERIALIZED\s+)?VIEW)\s+(?:IF\s+NOT\s+EXISTS\s+)?(?:"?public"?\.)?"?([A-Za-z_][A-Za-z0-9_]*)"?/gi;
  for (const m of code.matchAll(raw)) {
    found.push({ name: m[2]!, kind: /VIEW/i.test(m[1]!) ? 'view' : 'table' });
  }
  for (const m of code.matchAll(/\.(createTable|createView)\(\s*(['"`])([A-Za-z_][A-Za-z0-9_]*)\2/g)) {
    found.push({ name: m[3]!, kind: m[1] === 'createView' ? 'view' : 'table' });
  }
  return found;
}

interface Owned {
  owner: string;
  kind: 'table' | 'view';
}

/** Every declared table and view with its owner, and the names declared more than once. */
function ownership(
  owners: readonly { name: string; tables?: readonly string[]; views?: readonly string[] }[],
): { owned: Map<string, Owned>; duplicates: string[] } {
  const owned = new Map<string, Owned>();
  const duplicates: string[] = [];
  for (const { name: owner, tables = [], views = [] } of owners) {
    for (const [kind, names] of [
      ['table', tables],
      ['view', views],
    ] as const) {
      for (const name of names) {
        const before = owned.get(name);
        if (before) duplicates.push(`${name}: declared by ${before.owner} and by ${owner}`);
        else owned.set(name, { owner, kind });
      }
    }
  }
  return { owned, duplicates };
}

/**
 * The references of a queries file of `domain` to another owner's table (another owner's published
 * view is allowed), as `file: table (owner)` lines.
 */
function violations(file: string, domain: string, source: string, owned: Map<string, Owned>): string[] {
  return [...referencedRelations(source)]
    .filter((name) => {
      const o = owned.get(name);
      return o !== undefined && o.owner !== domain && o.kind === 'table';
    })
    .sort()
    .map((name) => `${file}: ${name} (owned by ${owned.get(name)!.owner})`);
}

function filesUnder(dir: string, keep: (name: string) => boolean): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && keep(e.name))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

const OWNERS = [
  { name: 'platform', tables: PLATFORM_TABLES, views: PLATFORM_VIEWS },
  ...domains.map((d) => ({ name: d.name, tables: d.tables, views: d.views })),
];

describe('table ownership', () => {
  it('finds the relations a queries file names, and a violation in a sample', () => {
    const sample = [
      "import { sql } from 'kysely';",
      "// selectFrom('hidden_in_comment') is not a reference",
      "export const a = (db) => db.selectFrom('marketing_segments as s').innerJoin('customers as c', 'c.id', 's.id');",
      "export const b = (db) => db.updateTable('marketing_segments as s').from(['other_table as o', 'events as e']);",
      'export const c = (db) => sql`',
      '  -- FROM commented_out',
      '  SELECT 1 FROM marketing_campaigns m, businesses b',
      '  JOIN customer_directory d ON d.id = m.id',
      "  WHERE m.note = ${'x'.replace(/'/g, '')} AND NOT EXISTS (SELECT 1 FROM loyalty_members l)",
      '`.execute(db);',
      "export const d = (db) => db.with('recent', (q) => q.selectFrom('marketing_recipients')).deleteFrom('marketing_suppressions');",
    ].join('\n');
    expect([...referencedRelations(sample)].sort()).toEqual([
      'businesses',
      'customer_directory',
      'customers',
      'events',
      'loyalty_members',
      'marketing_campaigns',
      'marketing_recipients',
      'marketing_segments',
      'marketing_suppressions',
      'other_table',
      'recent',
    ]);
    const { owned } = ownership([
      { name: 'platform', tables: ['businesses', 'events'] },
      { name: 'general', tables: ['customers'], views: ['customer_directory'] },
      { name: 'loyalty', tables: ['loyalty_members'] },
      { name: 'marketing', tables: ['marketing_segments', 'marketing_campaigns'] },
    ]);
    expect(violations('sample.queries.ts', 'marketing', sample, owned)).toEqual([
      'sample.queries.ts: businesses (owned by platform)',
      'sample.queries.ts: customers (owned by general)',
      'sample.queries.ts: events (owned by platform)',
      'sample.queries.ts: loyalty_members (owned by loyalty)',
    ]);
  });

  it('finds the tables and views migrations create', () => {
    const sample = [
      '// CREATE TABLE commented_out (id text)',
      "const S = [`CREATE TABLE a (id text)`, `CREATE UNLOGGED TABLE IF NOT EXISTS b (id text)`, 'CREATE OR REPLACE VIEW c AS SELECT 1'];",
      "await db.schema.createTable('d').execute(); await db.schema.createView('e').execute();",
    ].join('\n');
    expect(createdRelations(sample)).toEqual([
      { name: 'a', kind: 'table' },
      { name: 'b', kind: 'table' },
      { name: 'c', kind: 'view' },
      { name: 'd', kind: 'table' },
      { name: 'e', kind: 'view' },
    ]);
  });

  it('gives every table and view the migrations create exactly one owner', () => {
    const { owned, duplicates } = ownership(OWNERS);
    expect(duplicates).toEqual([]);
    const created = new Map<string, 'table' | 'view'>();
    for (const file of filesUnder(join(ROOT, 'migrations'), (n) => n.endsWith('.ts') && n !== 'index.ts')) {
      for (const { name, kind } of createdRelations(readFileSync(file, 'utf8'))) created.set(name, kind);
    }
    const problems: string[] = [];
    for (const [name, kind] of created) {
      const o = owned.get(name);
      if (!o) problems.push(`${kind} ${name} has no owner`);
      else if (o.kind !== kind) problems.push(`${name} is a ${kind}, declared by ${o.owner} as a ${o.kind}`);
    }
    for (const [name, o] of owned) {
      if (!created.has(name))
        problems.push(`${o.owner} declares ${o.kind} ${name}, which no migration creates`);
    }
    expect(problems).toEqual([]);
  });

  it("names no other owner's table in a domain's queries files", () => {
    const { owned } = ownership(OWNERS);
    const server = join(ROOT, 'server');
    const found = filesUnder(server, (n) => n.endsWith('queries.ts')).flatMap((file) => {
      const path = relative(ROOT, file).split(sep).join('/');
      const domain = relative(server, file).split(sep)[0]!;
      return violations(path, domain, readFileSync(file, 'utf8'), owned);
    });
    expect(found).toEqual([]);
  });
});
