/**
 * Table types: `server/platform/db/types.ts`, the Kysely `Database` interface, generated from the
 * schema the migrations make (docs/decisions.md D230). The migrations run on an in-memory PGlite
 * (as the tests' seed does), the catalog is read, and every table and view of the public schema is
 * written as an interface:
 *
 * - a column with a default (or an identity) is optional on insert; a nullable one reads `| null`;
 * - values are typed as the drivers read them (server/platform/db/database.ts): bigint as number
 *   (written as number or bigint), numeric as string (written as string or number), timestamptz as
 *   Date (written as Date or ISO string), date as its `YYYY-MM-DD` text, jsonb as the type of
 *   JSON_TYPES (written as its JSON text);
 * - a column of STATUS_TYPES takes the contract's union; another column with a `CHECK (column IN
 *   (...))` takes the union of its values, and a STATUS_TYPES column's contract union is checked
 *   against those values, so the contract and the schema cannot drift apart unseen;
 * - a view's columns are read-only, and as nullable as the same-named column of a table it reads;
 * - a table's or column's DOCS (or else the column's `COMMENT ON COLUMN`) is its doc comment.
 *
 *   npx tsx scripts/table-types.ts           write the file (npm run table-types)
 *   npx tsx scripts/table-types.ts --check   exit 1 when the committed file differs (CI)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'kysely';
import { format, resolveConfig } from 'prettier';
import { openDatabase } from '../server/platform/db/database.js';
import { migrateToLatest } from '../server/platform/db/migrate.js';

const root = resolve(import.meta.dirname, '..');
const target = join(root, 'server/platform/db/types.ts');

/**
 * Columns typed by the contract: `table.column` to the contract module (from the repository's root),
 * the exported constant listing the values (or a type, for `type`), and the values the contract
 * lists but the column never stores (a state computed when read, such as an invoice's `overdue`).
 */
interface ContractType {
  module: string;
  /** An `as const` array of the values, typed as `(typeof NAME)[number]`. */
  values?: string;
  /** An exported union type whose values come from `schema` (a Zod enum) in the same module. */
  type?: string;
  schema?: string;
  computed?: string[];
}
const STATUS_TYPES: Record<string, ContractType> = {
  'businesses.environment': {
    module: 'contract/auth/sessions.ts',
    type: 'Environment',
    schema: 'EnvironmentSchema',
  },
  'sign_in_challenges.environment': {
    module: 'contract/auth/sessions.ts',
    type: 'Environment',
    schema: 'EnvironmentSchema',
  },
  'memberships.role': { module: 'contract/permissions.ts', values: 'ROLES' },
  'invitations.role': { module: 'contract/permissions.ts', values: 'ROLES' },
  'api_keys.scope': { module: 'contract/auth/api-keys.ts', type: 'ApiKeyScope', schema: 'ApiKeyScopeSchema' },
  'audit_log.outcome': {
    module: 'contract/audit/index.ts',
    type: 'AuditOutcome',
    schema: 'AuditOutcomeSchema',
  },
  'invoices.status': {
    module: 'contract/general/invoices.ts',
    values: 'INVOICE_STATUSES',
    computed: ['overdue'],
  },
  'quotes.status': { module: 'contract/general/quotes.ts', values: 'QUOTE_STATUSES', computed: ['expired'] },
  'credit_notes.status': { module: 'contract/general/credit-notes.ts', values: 'CREDIT_NOTE_STATUSES' },
  'credit_notes.refund_method': { module: 'contract/general/invoices.ts', values: 'PAYMENT_METHODS' },
  'recurring_invoices.status': {
    module: 'contract/general/recurring-invoices.ts',
    values: 'RECURRING_STATUSES',
  },
  'recurring_invoices.interval': { module: 'contract/common/schedule.ts', values: 'SCHEDULE_INTERVALS' },
  'finance_recurring_bills.status': {
    module: 'contract/general/recurring-invoices.ts',
    values: 'RECURRING_STATUSES',
  },
  'finance_recurring_bills.interval': { module: 'contract/common/schedule.ts', values: 'SCHEDULE_INTERVALS' },
  'webhook_deliveries.status': { module: 'contract/webhooks/deliveries.ts', values: 'DELIVERY_STATUSES' },
  'loyalty_programs.enrollment_type': { module: 'contract/loyalty/program.ts', values: 'ENROLLMENT_TYPES' },
  'loyalty_members.status': { module: 'contract/loyalty/members.ts', values: 'MEMBER_STATUSES' },
  'loyalty_transactions.type': { module: 'contract/loyalty/transactions.ts', values: 'TRANSACTION_TYPES' },
  'loyalty_rewards.reward_type': { module: 'contract/loyalty/rewards.ts', values: 'REWARD_TYPES' },
  'loyalty_redemptions.status': { module: 'contract/loyalty/redemptions.ts', values: 'REDEMPTION_STATUSES' },
  'hr_employees.status': { module: 'contract/hr/employees.ts', values: 'EMPLOYEE_STATUSES' },
  'hr_employee_counts.status': { module: 'contract/hr/employees.ts', values: 'EMPLOYEE_STATUSES' },
  'hr_leave_types.accrual': { module: 'contract/hr/leave-days.ts', values: 'ACCRUALS' },
  'hr_leaves.status': { module: 'contract/hr/leaves.ts', values: 'LEAVE_STATUSES' },
  'finance_accounts.type': { module: 'contract/finance/accounts.ts', values: 'ACCOUNT_TYPES' },
  'finance_journal_entries.source_type': { module: 'contract/finance/journal.ts', values: 'SOURCE_TYPES' },
  'finance_bills.status': { module: 'contract/finance/bills.ts', values: 'BILL_STATES' },
  'finance_bill_payments.payment_method': {
    module: 'contract/finance/bills.ts',
    values: 'BILL_PAYMENT_METHODS',
  },
  'finance_vat_thresholds.period_type': { module: 'contract/finance/vat.ts', values: 'PERIOD_TYPES' },
  'marketing_templates.status': { module: 'contract/marketing/templates.ts', values: 'TEMPLATE_STATUSES' },
  'marketing_campaigns.status': { module: 'contract/marketing/campaigns.ts', values: 'CAMPAIGN_STATUSES' },
  'marketing_recipients.status': { module: 'contract/marketing/campaigns.ts', values: 'RECIPIENT_STATUSES' },
};

/** What a jsonb column holds, by `table.column`; `unknown` for one not listed. */
const JSON_TYPES: Record<string, string> = {
  'businesses.address': 'Record<string, string>',
  'customers.address': 'Record<string, string>',
  'customers.attributes': 'Record<string, string>',
  'customer_directory.attributes': 'Record<string, string>',
  'finance_vendors.address': 'Record<string, string>',
  'mail_messages.headers': 'Record<string, string>',
  'webhooks.events': 'string[]',
  'audit_log.summary': 'AuditSummaryJson',
};

/** Doc comments of tables and columns, by `table` or `table.column`. */
const DOCS: Record<string, string> = {
  password_resets: "A mailed link that sets a new password: a person's, single use, short-lived.",
  invoice_reminders: 'One reminder step mailed for an invoice: the key allows it once.',
  hr_employee_counts: 'Employees not deleted per department and status; written only by a database trigger.',
  finance_account_days:
    'Debits and credits per account, currency and day; written only by a database trigger.',
  finance_entry_days: 'Journal entries per day; written only by a database trigger.',
  customer_directory:
    '`customer_directory`, published by general: the customer columns other domains read (docs/decisions.md D71, "Published views").',
  business_time_zones: "`business_time_zones`, published by the platform: each business's IANA time zone.",
  business_invoice_reminder_steps:
    '`business_invoice_reminder_steps`, published by the platform: one row per reminder step while on.',
  'businesses.timezone': 'IANA time zone deciding the business\'s "today" (UTC until set).',
  'businesses.country': 'ISO 3166-1 alpha-2.',
  'businesses.environment':
    "`live`, or `sandbox` for a live business's staging twin (docs/decisions.md D73).",
  'businesses.live_business_id': "The sandbox's live business; null for a live business.",
  'businesses.clock_offset_ms':
    "How far the sandbox's test clock is ahead of real time; 0 for a live business.",
  'businesses.payment_instructions': 'Printed on invoices (bank details, how to pay); null until set.',
  'businesses.invoice_reminders_enabled':
    'Whether overdue invoices that were mailed are reminded, on the days of `invoice_reminder_days`.',
  'businesses.invoice_reminder_days': 'Days after the due date each reminder goes out (0: on the due date).',
  'businesses.require_two_factor':
    "Whether every member must sign in with a second factor (a sandbox carries its live business's).",
  'businesses.access_generation':
    "Raised with every change that restricts access to the business, so every process's credential cache notices it at once.",
  'invitations.token_sealed':
    'The token sealed with the SecretBox, to copy the link again; null on rows made before.',
  'invitations.invited_by': 'The user who invited; null when an API key did.',
  'invitations.sent_at': 'When the mail last went out.',
  'users.totp_secret': 'The TOTP secret (sealed with the SecretBox) once two-factor sign-in is confirmed.',
  'users.totp_pending_secret': 'The sealed secret of an enrolment awaiting its first code.',
  'users.totp_last_step': 'The last TOTP time step accepted: codes of that step or earlier are refused.',
  'sign_in_challenges.invitation_id':
    'The invitation the second step accepts, when the sign-in is accepting one.',
  'access_tokens.user_agent': "The sign-in's `User-Agent` (first 256 characters).",
  'api_keys.created_by':
    'The person who made the key; null for keys made from the command line or before it was kept.',
  'invoices.sent_at': 'When it was last mailed to the customer (`POST /v1/invoices/:id/send`).',
  'invoices.viewed_at': 'When its hosted page was first opened.',
  'audit_log.outcome': "A change that succeeded, or an attempt refused for the credential's role or scope.",
  'audit_log.denied_minute':
    'The minute a refusal fell in (one refused row per actor and operation a minute); null on a success.',
  'webhook_deliveries.requeued_at':
    'When the sweep last queued a job for it; null while its only job is the one from creation.',
  'loyalty_members.search_text': "Set by a database trigger from the customer's name and email.",
  'idempotency_keys.fingerprint':
    'SHA-256 of method, path and body: the same key with another request is refused.',
  'idempotency_keys.response_body': 'The response as sent, sealed (server/platform/secret-box.ts).',
  'hr_employees.salary': 'Monthly, in minor units of `currency`.',
  'quotes.viewed_at': 'When its hosted page was first opened.',
  'marketing_domains.dkim_private_key': "Sealed with the service's SecretBox.",
  'marketing_segments.filters':
    "The contract's SegmentFilters, or null when the segment is only its listed contacts.",
  'marketing_recipients.fields': "The contact's merge fields when sending started.",
  'access_tokens.ip': "The sign-in's address.",
};

/** Declarations the file carries besides the tables: the types JSON_TYPES names, and row shorthands. */
const PREAMBLE = `/** What an audit entry's change was about (\`audit_log.summary\`). */
export interface AuditSummaryJson {
  label: string | null;
  amount: number | null;
  currency: string | null;
}`;
const ROWS: Record<string, string> = {
  CustomerRow: 'Selectable<CustomersTable>',
  ProductRow: 'Selectable<ProductsTable>',
  InvoiceRow: 'Selectable<InvoicesTable>',
  InvoiceItemRow: 'Selectable<InvoiceItemsTable>',
  PaymentRow: 'Selectable<PaymentsTable>',
  ApiKeyRow: 'Selectable<ApiKeysTable>',
  InvitationRow: 'Selectable<InvitationsTable>',
  NewCustomer: 'Insertable<CustomersTable>',
  CustomerUpdate: 'Updateable<CustomersTable>',
  WebhookRow: 'Selectable<WebhooksTable>',
  DeliveryRow: 'Selectable<WebhookDeliveriesTable>',
  AttemptRow: 'Selectable<WebhookAttemptsTable>',
  ProgramRow: 'Selectable<LoyaltyProgramsTable>',
  TierRow: 'Selectable<LoyaltyTiersTable>',
  MemberRow: 'Selectable<LoyaltyMembersTable>',
  LoyaltyTransactionRow: 'Selectable<LoyaltyTransactionsTable>',
  RewardRow: 'Selectable<LoyaltyRewardsTable>',
  RedemptionRow: 'Selectable<LoyaltyRedemptionsTable>',
  ReminderRow: 'Selectable<LoyaltyRemindersTable>',
};

/** Tables of the migrator itself. */
const SKIPPED = new Set(['kysely_migration', 'kysely_migration_lock']);

interface Column {
  table: string;
  kind: 'r' | 'p' | 'v';
  column: string;
  type: string;
  element: string | null;
  notNull: boolean;
  hasDefault: boolean;
  identity: string;
  generated: string;
  /** The column's `COMMENT ON COLUMN`, written as its doc comment. */
  comment: string | null;
}

async function readSchema(): Promise<{
  columns: Column[];
  checks: Map<string, string[]>;
  reads: Map<string, string[]>;
}> {
  const handle = await openDatabase({ dataDir: 'memory://', poolSize: 1, statementTimeoutMs: 60_000 });
  try {
    await migrateToLatest(handle.db);
    const columns = (
      await sql<Column>`
        SELECT c.relname AS "table", c.relkind AS kind, a.attname AS "column", t.typname AS type,
               e.typname AS element, a.attnotnull AS "notNull", a.atthasdef AS "hasDefault",
               a.attidentity AS identity, a.attgenerated AS generated,
               col_description(c.oid, a.attnum) AS comment
        FROM pg_class c
        JOIN pg_namespace n ON n.oid = c.relnamespace
        JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
        JOIN pg_type t ON t.oid = a.atttypid
        LEFT JOIN pg_type e ON e.oid = t.typelem AND t.typcategory = 'A'
        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v') AND NOT c.relispartition
        ORDER BY c.relname, a.attnum`.execute(handle.db)
    ).rows;
    // Single-column CHECK constraints listing the column's values.
    const constraints = (
      await sql<{ table: string; column: string; def: string }>`
        SELECT c.relname AS "table", a.attname AS "column", pg_get_constraintdef(k.oid) AS def
        FROM pg_constraint k
        JOIN pg_class c ON c.oid = k.conrelid
        JOIN pg_namespace n ON n.oid = c.relnamespace
        JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.conkey[1]
        WHERE n.nspname = 'public' AND k.contype = 'c' AND cardinality(k.conkey) = 1
        ORDER BY 1, 2, 3`.execute(handle.db)
    ).rows;
    const checks = new Map<string, string[]>();
    for (const { table, column, def } of constraints) {
      const values = checkValues(column, def);
      if (values) checks.set(`${table}.${column}`, values);
    }
    const usage = (
      await sql<{ view: string; table: string }>`
        SELECT view_name AS view, table_name AS "table" FROM information_schema.view_table_usage
        WHERE view_schema = 'public' ORDER BY 1, 2`.execute(handle.db)
    ).rows;
    const reads = new Map<string, string[]>();
    for (const { view, table } of usage) reads.set(view, [...(reads.get(view) ?? []), table]);
    return { columns, checks, reads };
  } finally {
    await handle.close();
  }
}

/** The values of `CHECK ((column = ANY (ARRAY['a'::text, ...])))` or `CHECK ((column = 'a'))`. */
function checkValues(column: string, def: string): string[] | undefined {
  const any = new RegExp(
    `^CHECK \\(\\(\\(?${column}\\)?(?:::text)? = ANY \\(\\(?ARRAY\\[(.*)\\]\\)?(?:::text\\[\\])?\\)\\)\\)$`,
  ).exec(def);
  const list = any?.[1];
  if (list === undefined) return undefined;
  const values = list
    .split(', ')
    .map((item) => /^'([^']*)'(?:::(?:text|character varying))?$/.exec(item)?.[1]);
  return values.every((v): v is string => v !== undefined) ? values : undefined;
}

/** A doc comment, wrapped to the file's width. */
function comment(text: string, indent: string): string {
  const safe = text.replace(/\*\//g, '*\\/');
  if (indent.length + safe.length + 7 <= 110) return `${indent}/** ${safe} */`;
  const lines: string[] = [];
  let line = '';
  for (const word of safe.split(' ')) {
    if (line && indent.length + 3 + line.length + 1 + word.length > 110) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  lines.push(line);
  return [`${indent}/**`, ...lines.map((l) => `${indent} * ${l}`), `${indent} */`].join('\n');
}

const pascal = (name: string) =>
  name
    .split('_')
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');

/** How a column of the type reads, and what a write takes when it differs. */
function valueType(key: string, type: string, element: string | null): { read: string; write?: string } {
  if (element) {
    const inner = valueType(key, element, null);
    return { read: `${inner.read}[]` };
  }
  switch (type) {
    case 'text':
    case 'varchar':
    case 'bpchar':
    case 'uuid':
    case 'inet':
    case 'citext':
    case 'date':
      return { read: 'string' };
    case 'int2':
    case 'int4':
    case 'float4':
    case 'float8':
      return { read: 'number' };
    case 'int8':
      return { read: 'number', write: 'number | bigint' };
    case 'numeric':
      return { read: 'string', write: 'string | number' };
    case 'bool':
      return { read: 'boolean' };
    case 'timestamptz':
    case 'timestamp':
      return { read: 'Date', write: 'Date | string' };
    case 'jsonb':
    case 'json':
      return { read: JSON_TYPES[key] ?? 'unknown', write: 'string' };
    case 'bytea':
      return { read: 'Buffer' };
    default:
      throw new Error(`${key}: no TypeScript type for the column type ${type}`);
  }
}

interface Rendered {
  text: string;
  problems: string[];
  imports: Map<string, Set<string>>;
}

async function contractValues(entry: ContractType): Promise<string[]> {
  const mod = (await import(pathToFileURL(join(root, entry.module)).href)) as Record<string, unknown>;
  if (entry.values) return [...(mod[entry.values] as readonly string[])];
  const schema = mod[entry.schema!] as { options?: string[]; _def?: { values?: string[] } };
  return [...(schema.options ?? schema._def?.values ?? [])];
}

async function render(): Promise<Rendered> {
  const { columns, checks, reads } = await readSchema();
  const problems: string[] = [];
  const imports = new Map<string, Set<string>>();
  const tables = new Map<string, Column[]>();
  for (const column of columns) {
    if (SKIPPED.has(column.table)) continue;
    tables.set(column.table, [...(tables.get(column.table) ?? []), column]);
  }
  const byKey = new Map(columns.map((c) => [`${c.table}.${c.column}`, c]));
  for (const key of [...Object.keys(STATUS_TYPES), ...Object.keys(JSON_TYPES), ...Object.keys(DOCS)]) {
    if (!byKey.has(key) && !tables.has(key))
      problems.push(`${key}: listed in scripts/table-types.ts but not in the schema`);
  }

  const out: string[] = [];
  const names: [string, string][] = [];
  for (const [table, cols] of tables) {
    const view = cols[0]!.kind === 'v';
    const name = pascal(table) + (view ? 'View' : 'Table');
    names.push([table, name]);
    const lines: string[] = [];
    for (const col of cols) {
      const key = `${table}.${col.column}`;
      const doc = DOCS[key] ?? col.comment;
      if (doc) lines.push(comment(doc, '  '));
      const value = valueType(key, col.type, col.element);
      const write = value.write;
      let read = value.read;
      const contract = STATUS_TYPES[key];
      const checked = checks.get(key);
      if (contract) {
        const from = '../../../' + contract.module.replace(/\.ts$/, '.js');
        const names = imports.get(from) ?? new Set<string>();
        imports.set(from, names);
        const listed = await contractValues(contract);
        const stored = listed.filter((v) => !contract.computed?.includes(v));
        if (contract.values) {
          names.add(contract.values);
          read = `(typeof ${contract.values})[number]`;
          if (contract.computed?.length)
            read = `Exclude<${read}, ${contract.computed.map((v) => `'${v}'`).join(' | ')}>`;
        } else {
          names.add(contract.type!);
          read = contract.type!;
        }
        if (checked && [...stored].sort().join() !== [...checked].sort().join()) {
          problems.push(
            `${key}: the contract's ${contract.values ?? contract.type} (${stored.join(', ')}) differs from the column's CHECK (${checked.join(', ')})`,
          );
        }
      } else if (checked) {
        read = checked.map((v) => `'${v}'`).join(' | ');
      }
      let nullable = !col.notNull;
      if (view) {
        const source = (reads.get(table) ?? []).map((t) => byKey.get(`${t}.${col.column}`)).find(Boolean);
        nullable = source ? !source.notNull : false;
        lines.push(`  ${col.column}: ViewColumn<${read}${nullable && read !== 'unknown' ? ' | null' : ''}>;`);
        continue;
      }
      // `unknown` already takes null.
      const orNull = nullable && read !== 'unknown' ? ' | null' : '';
      const alwaysGenerated = col.identity === 'a' || col.generated === 's';
      const optional = col.hasDefault || col.identity === 'd';
      let type: string;
      if (alwaysGenerated) type = `GeneratedAlways<${read}${orNull}>`;
      else if (write === undefined && optional) type = `Generated<${read}${orNull}>`;
      else if (write === undefined) type = `${read}${orNull}`;
      else {
        const w = `${write}${nullable ? ' | null' : ''}`;
        type = `ColumnType<${read}${orNull}, ${w}${optional ? ' | undefined' : ''}, ${w}>`;
      }
      lines.push(`  ${col.column}: ${type};`);
    }
    const doc = DOCS[table];
    out.push(`${doc ? comment(doc, '') + '\n' : ''}export interface ${name} {\n${lines.join('\n')}\n}`);
  }

  const header = [
    '// Generated by scripts/table-types.ts from the migrated schema (docs/decisions.md D230): do not',
    '// edit; run `npm run table-types` after a migration.',
    `import type { ColumnType, Generated, GeneratedAlways, Insertable, Selectable, Updateable } from 'kysely';`,
    ...[...imports]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([from, names]) => `import type { ${[...names].sort().join(', ')} } from '${from}';`),
  ];
  const environment = imports.has('../../../contract/auth/sessions.js')
    ? ['export type { Environment };']
    : [];
  const body = [
    header.join('\n'),
    ...environment,
    PREAMBLE,
    '/** A column of a view: read, never written. */\ntype ViewColumn<T> = ColumnType<T, never, never>;',
    ...out,
    `export interface Database {\n${names.map(([t, n]) => `  ${t}: ${n};`).join('\n')}\n}`,
    Object.entries(ROWS)
      .map(([n, t]) => `export type ${n} = ${t};`)
      .join('\n'),
  ].join('\n\n');
  const options = await resolveConfig(target);
  return { text: await format(body, { ...options, filepath: target }), problems, imports };
}

const check = process.argv.includes('--check');
const started = Date.now();
const { text, problems } = await render();
if (check) {
  const committed = readFileSync(target, 'utf8');
  if (committed !== text) {
    const a = committed.split('\n');
    const b = text.split('\n');
    let i = 0;
    while (i < a.length && a[i] === b[i]) i++;
    problems.push(
      `server/platform/db/types.ts differs from the schema's from line ${i + 1}:\n  committed: ${a[i] ?? '(end of file)'}\n  generated: ${b[i] ?? '(end of file)'}\n  run: npm run table-types`,
    );
  }
} else {
  writeFileSync(target, text);
}
if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log(`table types ${check ? 'up to date' : 'written'} (${Date.now() - started} ms)`);
