import type { JournalEntry } from '../../../contract/finance/index.js';
import type { EntryLineRow } from '../ledger/queries.js';

/** Entries from their lines (rows of one entry together, lines in order), in the order of `ids`. */
export function toEntries(rows: EntryLineRow[], ids: string[]): JournalEntry[] {
  const byId = new Map<string, JournalEntry>();
  for (const row of rows) {
    let entry = byId.get(row.id);
    if (!entry) {
      entry = {
        id: row.id,
        date: row.date,
        description: row.description,
        debits: [],
        credits: [],
        currency: row.currency,
        source: { type: row.source_type, id: row.source_id },
        created_at: row.created_at.toISOString(),
      };
      byId.set(row.id, entry);
    }
    if (row.debit > 0) entry.debits.push({ account: row.account_code, amount: row.debit });
    else entry.credits.push({ account: row.account_code, amount: row.credit });
  }
  return ids.flatMap((id) => byId.get(id) ?? []);
}
