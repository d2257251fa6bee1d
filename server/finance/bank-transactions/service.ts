import type { Insertable } from 'kysely';
import type {
  AcceptSuggestionsBody,
  BankMatch,
  BankTransaction,
  CategoriseBankTransactionBody,
  ListBankTransactionsQuery,
  MatchBankTransactionBody,
} from '../../../contract/finance/index.js';
import { inTransaction, type Ctx, type TxCtx } from '../../platform/context.js';
import { isUniqueViolation } from '../../platform/db/errors.js';
import type { FinanceBankMatchesTable } from '../../platform/db/types.js';
import { ApiError, invalid, invalidState, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { recordBankPayment, reverseBankPayment } from '../../general/index.js';
import { findBankAccount, type BankAccountRow } from '../bank-accounts/queries.js';
import { addBillPayment, reverseBillPayment } from '../bills/service.js';
import { ACCOUNTS, post, reverse } from '../ledger/service.js';
import * as queries from './queries.js';

/*
 * Reconciling statement lines (docs/decisions.md D273). A line is matched to what it paid (invoices,
 * bills, or money the ledger holds already), categorised to an account, or excluded; unmatching
 * takes back what the match wrote. Each match names the ledger line on the bank account's chart
 * account that it stands for, and the database keeps a ledger line to one statement line.
 */

export const journalLineId = (entryId: string, lineNo: number) => `${entryId}:${lineNo}`;

const toMatch = (row: queries.BankMatchRow): BankMatch => ({
  kind: row.kind,
  amount: Number(row.amount_minor),
  invoice_id: row.invoice_id,
  bill_id: row.bill_id,
  payment_id: row.payment_id,
  account_code: row.account_code,
  journal_line_id: journalLineId(row.entry_id, row.line_no),
  recorded: row.recorded,
});

export const toBankTransaction = (
  row: queries.BankTransactionRow,
  matches: readonly queries.BankMatchRow[],
): BankTransaction => ({
  id: row.id,
  bank_account_id: row.bank_account_id,
  import_id: row.import_id,
  line: row.line_no,
  date: row.date,
  description: row.description,
  amount: Number(row.amount_minor),
  reference: row.reference,
  status: row.status,
  rule_id: row.status === 'unmatched' ? row.rule_id : null,
  matches: matches.filter((m) => m.bank_transaction_id === row.id).map(toMatch),
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

export async function listBankTransactions(
  ctx: Ctx,
  query: ListBankTransactionsQuery,
): Promise<{ bank_transactions: BankTransaction[]; total_count: number }> {
  const { rows, total } = await queries.listTransactions(ctx.db, ctx.businessId, query);
  const matched = rows.filter((r) => r.status === 'matched').map((r) => r.id);
  const matches = await queries.matchesOf(ctx.db, ctx.businessId, matched);
  return { bank_transactions: rows.map((r) => toBankTransaction(r, matches)), total_count: total };
}

async function detail(ctx: Ctx, row: queries.BankTransactionRow): Promise<BankTransaction> {
  const matches = row.status === 'matched' ? await queries.matchesOf(ctx.db, ctx.businessId, [row.id]) : [];
  return toBankTransaction(row, matches);
}

export async function getBankTransaction(ctx: Ctx, id: string): Promise<BankTransaction> {
  const row = await queries.findTransaction(ctx.db, ctx.businessId, id);
  if (!row) throw notFound('Bank transaction');
  return detail(ctx, row);
}

/** The line locked, and its bank account; 409 unless it is unmatched. */
async function lockUnmatched(ctx: TxCtx, id: string) {
  const line = await queries.lockTransaction(ctx.db, ctx.businessId, id);
  if (!line) throw notFound('Bank transaction');
  if (line.status === 'matched') {
    throw invalidState('The line is matched already: unmatch it first (POST .../unmatch)');
  }
  if (line.status === 'excluded') {
    throw invalidState('The line is excluded: bring it back with POST .../unmatch first');
  }
  const account = await findBankAccount(ctx.db, ctx.businessId, line.bank_account_id);
  if (!account) throw new Error(`Bank account ${line.bank_account_id} of line ${id} is missing`);
  return { line, account };
}

type Line = queries.BankTransactionRow;
type MatchRow = Insertable<FinanceBankMatchesTable>;
/** What each kind of match decides; the line, position and amount are the caller's. */
type Made = Omit<
  MatchRow,
  'business_id' | 'id' | 'bank_transaction_id' | 'position' | 'amount_minor' | 'created_at'
>;

/**
 * The entry a match posts itself: `counter` against the bank account, the way the money went. Its
 * source is the match, so that unmatching reverses exactly it.
 */
async function postAgainstBank(
  ctx: TxCtx,
  line: Line,
  account: BankAccountRow,
  matchId: string,
  counter: string,
  amount: number,
  description: string,
) {
  const bankSide = { account: account.account_code, amount };
  const otherSide = { account: counter, amount };
  const moneyIn = Number(line.amount_minor) > 0;
  await post(ctx, {
    date: line.date,
    description,
    currency: account.currency,
    source: { type: 'bank_transaction', id: matchId },
    debits: [moneyIn ? bankSide : otherSide],
    credits: [moneyIn ? otherSide : bankSide],
  });
  return bankLine(ctx, { type: 'bank_transaction', id: matchId }, account);
}

async function bankLine(
  ctx: TxCtx,
  source: { type: 'invoice_payment' | 'bill_payment' | 'bank_transaction'; id: string },
  account: BankAccountRow,
) {
  const found = await queries.lineOnAccount(ctx.db, ctx.businessId, source, account.account_code);
  if (!found) throw new Error(`No line on ${account.account_code} for ${source.type} ${source.id}`);
  return found;
}

/** Writes the matches and marks the line matched; a ledger line another line took meanwhile is 409. */
async function reconcile(ctx: TxCtx, line: Line, rows: MatchRow[]): Promise<BankTransaction> {
  try {
    await queries.insertMatches(ctx.db, rows);
  } catch (err) {
    if (isUniqueViolation(err)) {
      throw new ApiError(
        'CONFLICT',
        'A ledger line of this match was reconciled with another statement line meanwhile',
      );
    }
    throw err;
  }
  const updated = await queries.setStatus(ctx.db, ctx.businessId, line.id, 'matched', ctx.clock.now());
  return detail(ctx, updated);
}

const parseLineId = (id: string) => {
  const [entryId, lineNo] = id.split(':');
  return { entryId: entryId!, lineNo: Number(lineNo) };
};

/** One match of a money-in line to an invoice: its payment recorded to the bank account. */
async function matchInvoice(
  ctx: TxCtx,
  line: Line,
  account: BankAccountRow,
  item: { invoice_id: string; amount: number },
  field: string,
): Promise<Made> {
  if (Number(line.amount_minor) < 0)
    throw invalid(field, 'Money out pays bills, not invoices: name a bill_id');
  const paymentId = await recordBankPayment(
    ctx,
    item.invoice_id,
    {
      amountMinor: item.amount,
      date: line.date,
      reference: line.reference ?? line.description.slice(0, 100),
      bankAccountId: account.id,
      currency: account.currency,
    },
    field,
  );
  const bank = await bankLine(ctx, { type: 'invoice_payment', id: paymentId }, account);
  return {
    kind: 'invoice',
    invoice_id: item.invoice_id,
    payment_id: paymentId,
    recorded: 'payment',
    entry_id: bank.entry_id,
    line_no: bank.line_no,
  };
}

async function matchBill(
  ctx: TxCtx,
  line: Line,
  account: BankAccountRow,
  item: { bill_id: string; amount: number },
  field: string,
): Promise<Made> {
  if (Number(line.amount_minor) > 0)
    throw invalid(field, 'Money in pays invoices, not bills: name an invoice_id');
  const paid = await addBillPayment(
    ctx,
    item.bill_id,
    {
      amount: item.amount,
      payment_method: 'bank_transfer',
      payment_date: line.date,
      bank_account_id: account.id,
    },
    { amount: field, bill: field },
  );
  const bank = await bankLine(ctx, { type: 'bill_payment', id: paid.payment_id }, account);
  return {
    kind: 'bill',
    bill_id: item.bill_id,
    payment_id: paid.payment_id,
    recorded: 'payment',
    entry_id: bank.entry_id,
    line_no: bank.line_no,
  };
}

/**
 * One match to money the ledger holds already: a line of this bank account's chart account, or of
 * 1010 Bank (a payment recorded by method, a provider's payout), which an entry moves into it.
 */
async function matchJournalLine(
  ctx: TxCtx,
  line: Line,
  account: BankAccountRow,
  matchId: string,
  item: { journal_line_id: string; amount: number },
  field: string,
): Promise<Made> {
  const { entryId, lineNo } = parseLineId(item.journal_line_id);
  const held = await queries.journalLine(ctx.db, ctx.businessId, entryId, lineNo);
  if (!held) throw invalid(field, 'No such journal line');
  if (held.account_code !== account.account_code && held.account_code !== ACCOUNTS.bank) {
    throw invalid(
      field,
      `The line is on account ${held.account_code}: only lines of ${account.account_code} (this bank account) ` +
        `or ${ACCOUNTS.bank} Bank can be matched`,
    );
  }
  if (queries.NOT_BANK_MONEY.includes(held.source_type)) {
    throw invalid(field, `A ${held.source_type.replace('_', ' ')} entry is not money a statement line shows`);
  }
  if (await queries.entryReversed(ctx.db, ctx.businessId, held.source_id)) {
    throw invalid(field, 'The entry of that line was reversed: it is no money the bank holds');
  }
  if (held.currency !== account.currency) {
    throw invalid(field, `The line is in ${held.currency}; the bank account keeps ${account.currency}`);
  }
  const signed = Number(held.debit) - Number(held.credit);
  if (Math.sign(signed) !== Math.sign(Number(line.amount_minor))) {
    throw invalid(
      field,
      signed > 0
        ? 'The ledger line is money in; the statement line is money out'
        : 'The ledger line is money out; the statement line is money in',
    );
  }
  if (Math.abs(signed) !== item.amount) {
    throw invalid(field, `The ledger line holds ${Math.abs(signed)}: a ledger line is matched whole`);
  }
  if ((await queries.lineReconciled(ctx.db, ctx.businessId, entryId, lineNo)) !== null) {
    throw invalidState(
      `Journal line ${item.journal_line_id} is reconciled with another statement line already`,
    );
  }
  if (held.account_code === account.account_code) {
    return {
      kind: 'journal_line',
      recorded: null,
      entry_id: entryId,
      line_no: lineNo,
      matched_entry_id: entryId,
      matched_line_no: lineNo,
    };
  }
  const moved = await postAgainstBank(
    ctx,
    line,
    account,
    matchId,
    ACCOUNTS.bank,
    item.amount,
    `${held.description}: into ${account.name}`,
  );
  return {
    kind: 'journal_line',
    recorded: 'entry',
    entry_id: moved.entry_id,
    line_no: moved.line_no,
    matched_entry_id: entryId,
    matched_line_no: lineNo,
  };
}

export async function matchBankTransaction(
  ctx: Ctx,
  id: string,
  input: MatchBankTransactionBody,
): Promise<BankTransaction> {
  return inTransaction(ctx, async (ctx) => {
    const { line, account } = await lockUnmatched(ctx, id);
    const total = input.matches.reduce((sum, m) => sum + m.amount, 0);
    const wanted = Math.abs(Number(line.amount_minor));
    if (total !== wanted) {
      throw invalid(
        'matches',
        `The amounts add up to ${total}; the line is ${wanted} (minor units): they must be equal`,
      );
    }
    const now = ctx.clock.now();
    const rows: MatchRow[] = [];
    for (const [i, item] of input.matches.entries()) {
      const matchId = newId('bmatch');
      const field = `matches.${i}`;
      const made = item.invoice_id
        ? await matchInvoice(ctx, line, account, { invoice_id: item.invoice_id, amount: item.amount }, field)
        : item.bill_id
          ? await matchBill(ctx, line, account, { bill_id: item.bill_id, amount: item.amount }, field)
          : await matchJournalLine(
              ctx,
              line,
              account,
              matchId,
              { journal_line_id: item.journal_line_id!, amount: item.amount },
              field,
            );
      rows.push({
        ...made,
        business_id: ctx.businessId,
        id: matchId,
        bank_transaction_id: id,
        position: i + 1,
        amount_minor: item.amount,
        created_at: now,
      });
    }
    return reconcile(ctx, line, rows);
  });
}

/** Control accounts that only documents move: a line paying one is matched to the document instead. */
export const DOCUMENT_ACCOUNTS: Readonly<Record<string, string>> = {
  [ACCOUNTS.receivable]: 'match the invoices it paid instead',
  [ACCOUNTS.payable]: 'match the bills it paid instead',
};

/** Books the line against an account, in the caller's transaction, the line locked and unmatched. */
async function categorise(
  ctx: TxCtx,
  line: Line,
  account: BankAccountRow,
  code: string,
  description: string | undefined,
): Promise<BankTransaction> {
  const chart = await queries.chartAccount(ctx.db, ctx.businessId, code);
  if (!chart)
    throw invalid('account_code', `No account ${code} in the chart: list them with GET /v1/finance/accounts`);
  if (code === account.account_code)
    throw invalid('account_code', 'The line cannot be booked to its own bank account');
  const refusal = DOCUMENT_ACCOUNTS[code];
  if (refusal) throw invalid('account_code', `${code} ${chart.name} is moved by documents: ${refusal}`);
  const matchId = newId('bmatch');
  const amount = Math.abs(Number(line.amount_minor));
  const bank = await postAgainstBank(
    ctx,
    line,
    account,
    matchId,
    code,
    amount,
    description ?? line.description,
  );
  return reconcile(ctx, line, [
    {
      business_id: ctx.businessId,
      id: matchId,
      bank_transaction_id: line.id,
      position: 1,
      kind: 'account',
      account_code: code,
      amount_minor: amount,
      recorded: 'entry',
      entry_id: bank.entry_id,
      line_no: bank.line_no,
      created_at: ctx.clock.now(),
    },
  ]);
}

export async function categoriseBankTransaction(
  ctx: Ctx,
  id: string,
  input: CategoriseBankTransactionBody,
): Promise<BankTransaction> {
  return inTransaction(ctx, async (ctx) => {
    const { line, account } = await lockUnmatched(ctx, id);
    return categorise(ctx, line, account, input.account_code, input.description);
  });
}

export async function excludeBankTransaction(ctx: Ctx, id: string): Promise<BankTransaction> {
  return inTransaction(ctx, async (ctx) => {
    const { line } = await lockUnmatched(ctx, id);
    return detail(ctx, await queries.setStatus(ctx.db, ctx.businessId, line.id, 'excluded', ctx.clock.now()));
  });
}

/** Back to unmatched; what the match wrote is reversed on the line's date, what it found stays. */
export async function unmatchBankTransaction(ctx: Ctx, id: string): Promise<BankTransaction> {
  return inTransaction(ctx, async (ctx) => {
    const line = await queries.lockTransaction(ctx.db, ctx.businessId, id);
    if (!line) throw notFound('Bank transaction');
    if (line.status === 'unmatched') throw invalidState('The line is unmatched: there is nothing to undo');
    const matches = await queries.matchesOf(ctx.db, ctx.businessId, [id]);
    await queries.deleteMatches(ctx.db, ctx.businessId, id);
    for (const match of matches) {
      if (match.recorded === 'payment' && match.kind === 'invoice') {
        await reverseBankPayment(ctx, match.payment_id!, line.date);
      } else if (match.recorded === 'payment' && match.kind === 'bill') {
        await reverseBillPayment(ctx, match.payment_id!, line.date);
      } else if (match.recorded === 'entry') {
        await reverse(
          ctx,
          { type: 'bank_transaction', id: match.id },
          line.date,
          `Unmatched: ${line.description}`,
        );
      }
    }
    return detail(ctx, await queries.setStatus(ctx.db, ctx.businessId, id, 'unmatched', ctx.clock.now()));
  });
}

/** Categorises every unmatched line of the account a rule suggests an account for. */
export async function acceptBankSuggestions(ctx: Ctx, input: AcceptSuggestionsBody): Promise<number> {
  return inTransaction(ctx, async (ctx) => {
    const account = await findBankAccount(ctx.db, ctx.businessId, input.bank_account_id);
    if (!account) throw notFound('Bank account');
    const suggested = await queries.ruleSuggested(ctx.db, ctx.businessId, account.id);
    let accepted = 0;
    for (const { id, account_code } of suggested) {
      // A rule booking to this very account suggests nothing for its lines.
      if (account_code === account.account_code) continue;
      const line = await queries.lockTransaction(ctx.db, ctx.businessId, id);
      if (line?.status !== 'unmatched') continue;
      await categorise(ctx, line, account, account_code, undefined);
      accepted++;
    }
    return accepted;
  });
}
