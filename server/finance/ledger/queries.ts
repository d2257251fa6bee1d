import { sql, type Insertable } from 'kysely';
import type { ListJournalQuery, SourceType } from '../../../contract/finance/index.js';
import type { Executor, Trx } from '../../platform/db/database.js';
import type {
  FinanceAccountsTable,
  FinanceJournalEntriesTable,
  FinanceJournalLinesTable,
} from '../../platform/db/types.js';

export async function insertEntry(
  db: Executor,
  entry: Insertable<FinanceJournalEntriesTable>,
  lines: Insertable<FinanceJournalLinesTable>[],
): Promise<void> {
  // One statement: the entry in a data-modifying WITH, its lines in the outer insert.
  await db
    .with('entry', (w) => w.insertInto('finance_journal_entries').values(entry))
    .insertInto('finance_journal_lines')
    .values(lines)
    .execute();
}

/** The business's journal entries joined with their lines: one row per line. */
const entryLines = (db: Executor, businessId: string) =>
  db
    .selectFrom('finance_journal_entries as e')
    .innerJoin('finance_journal_lines as l', (join) =>
      join.onRef('l.business_id', '=', 'e.business_id').onRef('l.entry_id', '=', 'e.id'),
    )
    .where('e.business_id', '=', businessId);

/** What an entry shows of itself and of each of its lines. */
const ENTRY_LINE_COLUMNS = [
  'e.id',
  'e.date',
  'e.description',
  'e.currency',
  'e.source_type',
  'e.source_id',
  'e.created_at',
  'l.line_no',
  'l.account_code',
  'l.debit',
  'l.credit',
  'l.base_debit',
  'l.base_credit',
  'e.exchange_rate',
] as const;

/** The lines of the entries a document posted (its own kind of source, not voids). */
export async function postedLines(
  db: Executor,
  businessId: string,
  sourceType: SourceType,
  sourceId: string,
) {
  return entryLines(db, businessId)
    .where('e.source_type', '=', sourceType)
    .where('e.source_id', '=', sourceId)
    .select([
      'e.id',
      'e.currency',
      'e.exchange_rate',
      'l.account_code',
      'l.debit',
      'l.credit',
      'l.base_debit',
      'l.base_credit',
    ])
    .orderBy('l.line_no')
    .execute();
}

/** The rate a document's own posting (not its voids) converted at; undefined when it posted nothing. */
export async function postedRate(db: Executor, businessId: string, sourceType: SourceType, sourceId: string) {
  const row = await db
    .selectFrom('finance_journal_entries')
    .select('exchange_rate')
    .where('business_id', '=', businessId)
    .where('source_type', '=', sourceType)
    .where('source_id', '=', sourceId)
    .executeTakeFirst();
  return row === undefined ? undefined : String(row.exchange_rate);
}

/** The codes among `codes` that are accounts of the business. */
export async function knownAccounts(db: Executor, businessId: string, codes: string[]): Promise<Set<string>> {
  if (codes.length === 0) return new Set();
  const rows = await db
    .selectFrom('finance_accounts')
    .select('code')
    .where('business_id', '=', businessId)
    .where('code', 'in', codes)
    .execute();
  return new Set(rows.map((r) => r.code));
}

type JournalFilter = Pick<ListJournalQuery, 'start_date' | 'end_date' | 'account'>;

/**
 * The ids of a span of the journal in its order (newest date first, then newest entry): `limit` of
 * them after `offset`, or after the entry `after` (read by key). With an account, they are read from
 * the lines' (account, date, entry) index, one id per entry however many lines it has there.
 */
function entryIdsInOrder(
  db: Executor,
  businessId: string,
  filter: JournalFilter,
  span: { limit: number; offset?: number; after?: { date: string; id: string } | null },
) {
  const { after, limit, offset = 0 } = span;
  return filter.account !== undefined
    ? db
        .selectFrom('finance_journal_lines')
        .where('business_id', '=', businessId)
        .where('account_code', '=', filter.account)
        .$if(filter.start_date !== undefined, (q) => q.where('date', '>=', filter.start_date!))
        .$if(filter.end_date !== undefined, (q) => q.where('date', '<=', filter.end_date!))
        .$if(Boolean(after), (q) =>
          q.where((eb) => eb(eb.refTuple('date', 'entry_id'), '<', eb.tuple(after!.date, after!.id))),
        )
        .select('entry_id as id')
        .groupBy(['date', 'entry_id'])
        .orderBy('date', 'desc')
        .orderBy('entry_id', 'desc')
        .limit(limit)
        .offset(offset)
    : db
        .selectFrom('finance_journal_entries')
        .where('business_id', '=', businessId)
        .$if(filter.start_date !== undefined, (q) => q.where('date', '>=', filter.start_date!))
        .$if(filter.end_date !== undefined, (q) => q.where('date', '<=', filter.end_date!))
        .$if(Boolean(after), (q) =>
          q.where((eb) => eb(eb.refTuple('date', 'id'), '<', eb.tuple(after!.date, after!.id))),
        )
        .select('id')
        .orderBy('date', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .offset(offset);
}

/** The entries with these ids (a subquery) and all their lines, in the journal's order. */
const entriesInOrder = (db: Executor, businessId: string, ids: ReturnType<typeof entryIdsInOrder>) =>
  entryLines(db, businessId)
    .where('e.id', 'in', ids)
    .select(ENTRY_LINE_COLUMNS)
    .orderBy('e.date', 'desc')
    .orderBy('e.id', 'desc')
    .orderBy('l.line_no')
    .execute();

/**
 * The entries after `after` in the journal's order, `limit` of them with all their lines: the journal
 * read from start to end by its key instead of by offset, as an export reads it.
 */
export async function journalAfter(
  db: Executor,
  businessId: string,
  filter: JournalFilter,
  after: { date: string; id: string } | null,
  limit: number,
) {
  return entriesInOrder(db, businessId, entryIdsInOrder(db, businessId, filter, { after, limit }));
}

/** One page of entries, newest date first then newest entry, with all their lines, in one statement. */
export async function journalPage(db: Executor, businessId: string, query: ListJournalQuery) {
  return entriesInOrder(
    db,
    businessId,
    entryIdsInOrder(db, businessId, query, { limit: query.limit, offset: query.offset }),
  );
}

/** How many entries match, from the per-day counts the database keeps. */
export async function countJournal(db: Executor, businessId: string, filter: JournalFilter): Promise<number> {
  const inRange = sql.join(
    [
      sql`business_id = ${businessId}`,
      ...(filter.account !== undefined ? [sql`account_code = ${filter.account}`] : []),
      ...(filter.start_date !== undefined ? [sql`date >= ${filter.start_date}`] : []),
      ...(filter.end_date !== undefined ? [sql`date <= ${filter.end_date}`] : []),
    ],
    sql` AND `,
  );
  const table =
    filter.account !== undefined ? sql.table('finance_account_days') : sql.table('finance_entry_days');
  const { rows } = await sql<{
    n: string | number | null;
  }>`SELECT sum(entries) AS n FROM ${table} WHERE ${inRange}`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/** The entries with these ids and all their lines, lines in order. */
export async function entriesWithLines(db: Executor, businessId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return entryLines(db, businessId)
    .where('e.id', 'in', ids)
    .select(ENTRY_LINE_COLUMNS)
    .orderBy('e.id')
    .orderBy('l.line_no')
    .execute();
}

export type EntryLineRow = Awaited<ReturnType<typeof entriesWithLines>>[number];

/**
 * Debit and credit totals of every account of the business in `currency` up to `asOf` (for null,
 * every currency's in the base currency: docs/decisions.md D278), from the per-day totals the
 * database keeps; accounts without entries have zeros.
 */
export async function trialBalance(db: Executor, businessId: string, currency: string | null, asOf: string) {
  const [debit, credit] = currency === null ? ['d.base_debit', 'd.base_credit'] : ['d.debit', 'd.credit'];
  return db
    .selectFrom('finance_accounts as a')
    .leftJoin('finance_account_days as d', (join) => {
      const on = join
        .onRef('d.business_id', '=', 'a.business_id')
        .onRef('d.account_code', '=', 'a.code')
        .on('d.date', '<=', asOf);
      return currency === null ? on : on.on('d.currency', '=', currency);
    })
    .where('a.business_id', '=', businessId)
    .groupBy(['a.code', 'a.name', 'a.type'])
    .select([
      'a.code',
      'a.name',
      'a.type',
      sql<string>`coalesce(sum(${sql.ref(debit)}), 0)::text`.as('debit'),
      sql<string>`coalesce(sum(${sql.ref(credit)}), 0)::text`.as('credit'),
    ])
    .orderBy('a.code')
    .execute();
}

/**
 * Debit and credit totals of the accounts of these types in `currency` (null: every currency's in the
 * base) over a range, from the per-day totals.
 */
export async function accountTotalsBetween(
  db: Executor,
  businessId: string,
  currency: string | null,
  from: string,
  to: string,
  types: ('revenue' | 'expense')[],
) {
  const [debit, credit] = currency === null ? ['d.base_debit', 'd.base_credit'] : ['d.debit', 'd.credit'];
  return db
    .selectFrom('finance_accounts as a')
    .innerJoin('finance_account_days as d', (join) =>
      join.onRef('d.business_id', '=', 'a.business_id').onRef('d.account_code', '=', 'a.code'),
    )
    .where('a.business_id', '=', businessId)
    .where('a.type', 'in', types)
    .$if(currency !== null, (q) => q.where('d.currency', '=', currency!))
    .where('d.date', '>=', from)
    .where('d.date', '<=', to)
    .groupBy(['a.code', 'a.name', 'a.type'])
    .select([
      'a.code',
      'a.name',
      'a.type',
      sql<string>`sum(${sql.ref(debit)})::text`.as('debit'),
      sql<string>`sum(${sql.ref(credit)})::text`.as('credit'),
    ])
    .orderBy('a.code')
    .execute();
}

/** A chart account, unless the business has one of that code already (which it keeps as it is). */
export async function addAccountIfMissing(trx: Trx, values: Insertable<FinanceAccountsTable>) {
  await trx
    .insertInto('finance_accounts')
    .values(values)
    .onConflict((oc) => oc.columns(['business_id', 'code']).doNothing())
    .execute();
}
