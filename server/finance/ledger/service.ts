import type { SourceType } from '../../../contract/finance/index.js';
import { type TxCtx } from '../../platform/context.js';
import { newId } from '../../platform/ids.js';
import * as queries from './queries.js';

/** The default chart's accounts the postings use (docs/decisions.md D129). */
export const ACCOUNTS = {
  cash: '1000',
  bank: '1010',
  mobileMoney: '1020',
  providerClearing: '1030',
  receivable: '1200',
  payable: '2000',
  vatPayable: '2200',
  vatReceivable: '2210',
  customerCredit: '2300',
  openingEquity: '3000',
  sales: '4000',
  expenses: '5000',
} as const;

/** Where money paid or received by this method sits: cash, bank or mobile money. */
export function cashAccountOf(method: string): string {
  if (method === 'cash') return ACCOUNTS.cash;
  if (method === 'mobile_money') return ACCOUNTS.mobileMoney;
  return ACCOUNTS.bank; // bank_transfer, check, card
}

export interface Line {
  account: string;
  amount: number;
}

export interface Posting {
  date: string;
  description: string;
  currency: string;
  /** The document posted; a manual entry names itself (no id). */
  source: { type: SourceType; id?: string };
  debits: Line[];
  credits: Line[];
}

/**
 * Writes one balanced journal entry in the caller's transaction; lines of amount 0 are left out and
 * nothing is written when no line remains. The database refuses an unbalanced entry at commit; this
 * check fails first, with the entry named, since an unbalanced posting is a bug of the caller.
 */
export async function post(ctx: TxCtx, posting: Posting): Promise<string | null> {
  const debits = posting.debits.filter((l) => l.amount !== 0);
  const credits = posting.credits.filter((l) => l.amount !== 0);
  if (debits.length === 0 && credits.length === 0) return null;
  const sum = (lines: Line[]) => lines.reduce((total, l) => total + BigInt(l.amount), 0n);
  if (sum(debits) !== sum(credits)) {
    throw new Error(`Unbalanced posting for ${posting.source.type} ${posting.source.id ?? ''}`);
  }
  const id = newId('je');
  const line = (account: string, debit: number, credit: number, i: number) => ({
    business_id: ctx.businessId,
    entry_id: id,
    line_no: i + 1,
    account_code: account,
    date: posting.date,
    currency: posting.currency,
    debit,
    credit,
  });
  await queries.insertEntry(
    ctx.db,
    {
      business_id: ctx.businessId,
      id,
      date: posting.date,
      description: posting.description,
      currency: posting.currency,
      source_type: posting.source.type,
      source_id: posting.source.id ?? id,
      line_count: debits.length + credits.length,
      created_at: ctx.clock.now(),
    },
    // Numbered debits first, written in account-code order: the per-day totals the database keeps
    // are then locked in one order by every posting, so concurrent postings never deadlock.
    [
      ...debits.map((l, i) => line(l.account, l.amount, 0, i)),
      ...credits.map((l, i) => line(l.account, 0, l.amount, debits.length + i)),
    ].sort((a, b) => (a.account_code < b.account_code ? -1 : a.account_code > b.account_code ? 1 : 0)),
  );
  return id;
}

/** What `reverse` takes back: a document's posting, a payment's, or what a bank match posted. */
export type ReversibleSource =
  'bill' | 'invoice' | 'credit_note' | 'invoice_payment' | 'bill_payment' | 'bank_transaction';

/**
 * Posts the exact reverse of what a document posted (every debit a credit and back), dated `date`,
 * with the document as its source; nothing when the document posted nothing.
 */
export async function reverse(
  ctx: TxCtx,
  document: { type: ReversibleSource; id: string },
  date: string,
  description: string,
): Promise<void> {
  const lines = await queries.postedLines(ctx.db, ctx.businessId, document.type, document.id);
  const currency = lines[0]?.currency;
  if (currency === undefined) return;
  await post(ctx, {
    date,
    description,
    currency,
    source: { type: 'void', id: document.id },
    debits: lines.filter((l) => l.credit > 0).map((l) => ({ account: l.account_code, amount: l.credit })),
    credits: lines.filter((l) => l.debit > 0).map((l) => ({ account: l.account_code, amount: l.debit })),
  });
}
