import type { SourceType } from '../../../contract/finance/index.js';
import { type TxCtx } from '../../platform/context.js';
import { toBase } from '../../../contract/common/exchange.js';
import { newId } from '../../platform/ids.js';
import { baseCurrency } from '../../platform/settings.js';
import { rateForPosting } from '../exchange-rates/service.js';
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
  exchangeGain: '4900',
  unrealisedGain: '4910',
  expenses: '5000',
  exchangeLoss: '5900',
  unrealisedLoss: '5910',
} as const;

/** The exchange accounts, each added to a business's chart the first time a posting needs it. */
const EXCHANGE_ACCOUNTS: Readonly<Record<string, { name: string; type: 'revenue' | 'expense' }>> = {
  [ACCOUNTS.exchangeGain]: { name: 'Exchange gains', type: 'revenue' },
  [ACCOUNTS.unrealisedGain]: { name: 'Unrealised exchange gains', type: 'revenue' },
  [ACCOUNTS.exchangeLoss]: { name: 'Exchange losses', type: 'expense' },
  [ACCOUNTS.unrealisedLoss]: { name: 'Unrealised exchange losses', type: 'expense' },
};

/** The exchange account `code` in the chart (a business that made its own of that code keeps it). */
async function exchangeAccount(ctx: TxCtx, code: string): Promise<string> {
  const account = EXCHANGE_ACCOUNTS[code];
  if (account) {
    await queries.addAccountIfMissing(ctx.db, {
      business_id: ctx.businessId,
      code,
      name: account.name,
      type: account.type,
      cash_flow_group: 'operating',
      system: true,
      created_at: ctx.clock.now(),
    });
  }
  return code;
}

/** Where money paid or received by this method sits: cash, bank or mobile money. */
export function cashAccountOf(method: string): string {
  if (method === 'cash') return ACCOUNTS.cash;
  if (method === 'mobile_money') return ACCOUNTS.mobileMoney;
  return ACCOUNTS.bank; // bank_transfer, check, card
}

export interface Line {
  account: string;
  amount: number;
  /**
   * The line's amount in the base currency when it is not the amount at the entry's rate: a
   * settlement of a document at the document's rate. An entry with such lines posts its
   * difference as a realised exchange gain or loss (docs/decisions.md D278).
   */
  base?: number;
}

export interface Posting {
  date: string;
  description: string;
  currency: string;
  /** The document posted; a manual entry names itself (no id). */
  source: { type: SourceType; id?: string };
  debits: Line[];
  credits: Line[];
  /**
   * The entry's rate to the base currency (units of base per unit of `currency`). Default: the
   * latest rate on or before `date`; none is 422 on `rateField`.
   */
  rate?: string | null;
  /** The request field a missing rate is refused on. */
  rateField?: string;
  /** Where an exchange difference goes: realised (4900 / 5900) unless told. */
  differences?: { gain: string; loss: string };
}

interface BasedLine {
  account: string;
  amount: number;
  base: number;
}

const sum = (lines: { amount: number }[]) => lines.reduce((total, l) => total + BigInt(l.amount), 0n);
const baseSum = (lines: { base: number }[]) => lines.reduce((total, l) => total + BigInt(l.base), 0n);

/**
 * The rounding of converting each line on its own, taken up by one line so that the entry balances
 * in the base currency: the largest line of the side with more lines (credits when even), so the
 * single line of a document (its receivable or payable) keeps its exact conversion.
 */
function absorbRounding(debits: BasedLine[], credits: BasedLine[]): void {
  const gap = baseSum(debits) - baseSum(credits);
  if (gap === 0n) return;
  const side = debits.length > credits.length ? debits : credits;
  const largest = side.reduce((a, b) => (b.amount > a.amount ? b : a));
  // Debits short (gap < 0) grow a debit; credits short grow a credit.
  largest.base += Number(side === debits ? -gap : gap);
  if (largest.base < 0) throw new Error('A rounding difference larger than its line');
}

/**
 * Writes one balanced journal entry in the caller's transaction; lines of amount 0 (and no base
 * amount) are left out and nothing is written when no line remains. Every line carries its amount
 * in the base currency too, at the entry's rate (docs/decisions.md D278), and the entry balances in
 * both. The database refuses an unbalanced entry at commit; this check fails first, with the entry
 * named, since an unbalanced posting is a bug of the caller.
 */
export async function post(ctx: TxCtx, posting: Posting): Promise<string | null> {
  const kept = (l: Line) => l.amount !== 0 || (l.base ?? 0) !== 0;
  const debitsIn = posting.debits.filter(kept);
  const creditsIn = posting.credits.filter(kept);
  if (debitsIn.length === 0 && creditsIn.length === 0) return null;
  if (sum(debitsIn) !== sum(creditsIn)) {
    throw new Error(`Unbalanced posting for ${posting.source.type} ${posting.source.id ?? ''}`);
  }
  const base = await baseCurrency(ctx);
  const rate =
    posting.currency === base
      ? '1'
      : await rateForPosting(ctx, posting.currency, posting.date, posting.rate ?? null, posting.rateField);
  const atRate = (l: Line): BasedLine => ({
    account: l.account,
    amount: l.amount,
    base: posting.currency === base ? l.amount : toBase(l.amount, posting.currency, base, rate),
  });
  const debits = debitsIn.map(atRate);
  const credits = creditsIn.map(atRate);
  if ([...debitsIn, ...creditsIn].some((l) => l.base !== undefined) && posting.currency !== base) {
    // A settlement at its document's rate: the lines converted at the entry's rate take up their
    // own rounding first, as any entry's do; then the lines with a base of their own have it, and
    // what that leaves is an exchange difference, a line of amount 0 on the gain or loss account.
    absorbRounding(debits, credits);
    debitsIn.forEach((l, i) => l.base !== undefined && (debits[i]!.base = l.base));
    creditsIn.forEach((l, i) => l.base !== undefined && (credits[i]!.base = l.base));
    const gap = baseSum(debits) - baseSum(credits);
    const accounts = posting.differences ?? { gain: ACCOUNTS.exchangeGain, loss: ACCOUNTS.exchangeLoss };
    if (gap > 0n)
      credits.push({ account: await exchangeAccount(ctx, accounts.gain), amount: 0, base: Number(gap) });
    if (gap < 0n)
      debits.push({ account: await exchangeAccount(ctx, accounts.loss), amount: 0, base: Number(-gap) });
  } else {
    absorbRounding(debits, credits);
  }
  if (baseSum(debits) !== baseSum(credits)) {
    throw new Error(`Unbalanced base amounts for ${posting.source.type} ${posting.source.id ?? ''}`);
  }
  const id = newId('je');
  const line = (l: BasedLine, side: 'debit' | 'credit', i: number) => ({
    business_id: ctx.businessId,
    entry_id: id,
    line_no: i + 1,
    account_code: l.account,
    date: posting.date,
    currency: posting.currency,
    debit: side === 'debit' ? l.amount : 0,
    credit: side === 'credit' ? l.amount : 0,
    base_debit: side === 'debit' ? l.base : 0,
    base_credit: side === 'credit' ? l.base : 0,
  });
  await queries.insertEntry(
    ctx.db,
    {
      business_id: ctx.businessId,
      id,
      date: posting.date,
      description: posting.description,
      currency: posting.currency,
      exchange_rate: rate,
      source_type: posting.source.type,
      source_id: posting.source.id ?? id,
      line_count: debits.length + credits.length,
      created_at: ctx.clock.now(),
    },
    // Numbered debits first, written in account-code order: the per-day totals the database keeps
    // are then locked in one order by every posting, so concurrent postings never deadlock.
    [
      ...debits.map((l, i) => line(l, 'debit', i)),
      ...credits.map((l, i) => line(l, 'credit', debits.length + i)),
    ].sort((a, b) => (a.account_code < b.account_code ? -1 : a.account_code > b.account_code ? 1 : 0)),
  );
  return id;
}

/**
 * What settling `amount` of a document in another currency takes off its receivable or payable in
 * the base currency, at the rate the document posted at. Counted on what was settled before and
 * after, so the parts of a document settled in several payments add up to exactly what it posted.
 * The base currency's documents settle at 1.
 */
export async function settlementBase(
  ctx: TxCtx,
  settling: {
    document: { type: 'invoice' | 'bill'; id: string };
    currency: string;
    /** What payments and credit notes had settled of the document before this one. */
    before: number;
    amount: number;
  },
): Promise<{ base: number; rate: string } | null> {
  const base = await baseCurrency(ctx);
  if (settling.currency === base) return { base: settling.amount, rate: '1' };
  const posted = await queries.postedRate(
    ctx.db,
    ctx.businessId,
    settling.document.type,
    settling.document.id,
  );
  // A document that posted nothing settles at the payment's own rate, with no difference.
  if (posted === undefined) return null;
  const at = (amount: number) => toBase(amount, settling.currency, base, posted);
  return { base: at(settling.before + settling.amount) - at(settling.before), rate: posted };
}

/** What `reverse` takes back: a document's posting, a payment's, or what a bank match posted. */
export type ReversibleSource =
  | 'bill'
  | 'invoice'
  | 'credit_note'
  | 'invoice_payment'
  | 'bill_payment'
  | 'bank_transaction'
  | 'revaluation';

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
  const first = lines[0];
  if (first === undefined) return;
  const back = (amount: number | string | bigint, base: number | string | bigint) => ({
    amount: Number(amount),
    base: Number(base),
  });
  // The exact mirror, base amounts included: at the rate it was posted at, never today's.
  await post(ctx, {
    date,
    description,
    currency: first.currency,
    rate: String(first.exchange_rate),
    source: { type: 'void', id: document.id },
    debits: lines
      .filter((l) => Number(l.credit) > 0 || Number(l.base_credit) > 0)
      .map((l) => ({ account: l.account_code, ...back(l.credit, l.base_credit) })),
    credits: lines
      .filter((l) => Number(l.debit) > 0 || Number(l.base_debit) > 0)
      .map((l) => ({ account: l.account_code, ...back(l.debit, l.base_debit) })),
  });
}
