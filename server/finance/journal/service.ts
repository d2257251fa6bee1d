import type {
  CreateJournalEntryBody,
  JournalEntry,
  ListJournalQuery,
} from '../../../contract/finance/index.js';
import { type Ctx, inTransaction } from '../../platform/context.js';

import { invalid } from '../../platform/errors.js';
import { MAX_MINOR, toMajor } from '../../platform/money.js';
import { baseCurrency } from '../../platform/settings.js';
import { post } from '../ledger/service.js';
import * as queries from '../ledger/queries.js';
import { toEntries } from './mappers.js';

export async function listJournal(
  ctx: Ctx,
  query: ListJournalQuery,
): Promise<{ entries: JournalEntry[]; total_count: number }> {
  if (query.start_date !== undefined && query.end_date !== undefined && query.end_date < query.start_date) {
    throw invalid('end_date', 'Must be on or after start_date');
  }
  const [rows, total] = await Promise.all([
    queries.journalPage(ctx.db, ctx.businessId, query),
    queries.countJournal(ctx.db, ctx.businessId, query),
  ]);
  return { entries: toEntries(rows, [...new Set(rows.map((r) => r.id))]), total_count: total };
}

/**
 * Every entry of the journal matching the list's filters, in its order, a batch at a time: read by
 * key, so the millionth entry costs what the first does (the CSV export's source); the next batch is
 * read while the caller writes this one.
 */
export async function* journalBatches(
  ctx: Ctx,
  query: Record<string, unknown>,
): AsyncGenerator<JournalEntry[]> {
  const filter = query as ListJournalQuery;
  if (
    filter.start_date !== undefined &&
    filter.end_date !== undefined &&
    filter.end_date < filter.start_date
  ) {
    throw invalid('end_date', 'Must be on or after start_date');
  }
  const batch = (after: { date: string; id: string } | null) => {
    const read = queries.journalAfter(ctx.db, ctx.businessId, filter, after, JOURNAL_BATCH);
    // Read ahead while the caller writes the previous batch; a caller that stops early drops it.
    read.catch(() => undefined);
    return read;
  };
  for (let next: ReturnType<typeof batch> | null = batch(null); next;) {
    const rows: queries.EntryLineRow[] = await next;
    const last = rows.at(-1);
    const ids = [...new Set(rows.map((r) => r.id))];
    next = ids.length === JOURNAL_BATCH && last ? batch({ date: last.date, id: last.id }) : null;
    yield toEntries(rows, ids);
  }
}

/** Entries per batch of `journalBatches`. */
const JOURNAL_BATCH = 1000;

async function entryOf(ctx: Ctx, id: string): Promise<JournalEntry> {
  const rows = await queries.entriesWithLines(ctx.db, ctx.businessId, [id]);
  const [entry] = toEntries(rows, [id]);
  if (!entry) throw new Error(`Journal entry ${id} vanished after posting`);
  return entry;
}

/** A manual entry: balanced, on accounts of the chart. */
export async function createManualEntry(ctx: Ctx, input: CreateJournalEntryBody): Promise<JournalEntry> {
  const sum = (lines: { amount: number }[]) => lines.reduce((total, l) => total + BigInt(l.amount), 0n);
  if (sum(input.debits) > BigInt(MAX_MINOR) || sum(input.credits) > BigInt(MAX_MINOR)) {
    throw invalid('debits', `An entry moves at most ${MAX_MINOR} minor units per side`);
  }
  const difference = sum(input.debits) - sum(input.credits);
  const currency = input.currency ?? (await baseCurrency(ctx));
  if (difference !== 0n) {
    const side = difference > 0n ? 'debits exceed credits' : 'credits exceed debits';
    const by = difference > 0n ? difference : -difference;
    throw invalid(
      'credits',
      `Debits and credits must balance: ${side} by ${by} (${toMajor(Number(by), currency)} ${currency})`,
    );
  }
  const id = await inTransaction(ctx, async (ctx) => {
    const codes = [...new Set([...input.debits, ...input.credits].map((l) => l.account))];
    const known = await queries.knownAccounts(ctx.db, ctx.businessId, codes);
    for (const side of ['debits', 'credits'] as const) {
      const unknown = [...new Set(input[side].map((l) => l.account).filter((code) => !known.has(code)))];
      if (unknown.length > 0) {
        throw invalid(side, `Not an account of the chart: ${unknown.join(', ')}`);
      }
    }
    const entryId = await post(ctx, {
      date: input.date,
      description: input.description,
      currency,
      rate: input.exchange_rate ?? null,
      source: { type: 'manual' },
      debits: input.debits,
      credits: input.credits,
    });
    if (!entryId) throw new Error('A manual entry with lines posted nothing');
    return entryId;
  });
  return entryOf(ctx, id);
}
