import type { JournalEntry } from '../../../contract/finance/index.js';
import { normaliseRate } from '../../../contract/common/exchange.js';
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
        exchange_rate: normaliseRate(String(row.exchange_rate)),
        source: { type: row.source_type, id: row.source_id },
        created_at: row.created_at.toISOString(),
      };
      byId.set(row.id, entry);
    }
    // A line is a debit when it debits either amount (an exchange difference has amount 0).
    if (Number(row.debit) > 0 || Number(row.base_debit) > 0) {
      entry.debits.push({
        account: row.account_code,
        amount: Number(row.debit),
        base_amount: Number(row.base_debit),
      });
    } else {
      entry.credits.push({
        account: row.account_code,
        amount: Number(row.credit),
        base_amount: Number(row.base_credit),
      });
    }
  }
  return ids.flatMap((id) => byId.get(id) ?? []);
}
