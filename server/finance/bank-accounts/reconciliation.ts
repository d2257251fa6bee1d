import type { Reconciliation } from '../../../contract/finance/index.js';
import { today } from '../../platform/calendar.js';
import type { Ctx } from '../../platform/context.js';
import { notFound } from '../../platform/errors.js';
import * as queries from './queries.js';

/*
 * The reconciliation report (docs/decisions.md D273): the statement balance (the opening balance and
 * every imported line to `as_of`), the ledger balance of the bank account's chart account, and each
 * item between them, so that the items add up to the difference to the minor unit.
 */

type Item = Reconciliation['items'][number];

export async function reconciliation(ctx: Ctx, id: string, asOfSent?: string): Promise<Reconciliation> {
  const account = await queries.findBankAccount(ctx.db, ctx.businessId, id);
  if (!account) throw notFound('Bank account');
  const asOf = asOfSent ?? (await today(ctx));
  const { db, businessId } = ctx;
  const [lines, ledger, statementRows, ledgerRows, counts] = await Promise.all([
    queries.linesTotal(db, businessId, id, asOf),
    queries.ledgerBalance(db, businessId, account.account_code, asOf),
    queries.statementItems(db, businessId, id, asOf),
    queries.ledgerItems(db, businessId, account.account_code, asOf),
    queries.transactionCounts(db, businessId, id, asOf),
  ]);
  const opening = asOf >= account.opening_date ? Number(account.opening_balance_minor) : 0;
  const statement = opening + lines;
  const items: Item[] = [];
  for (const row of statementRows) {
    const amount = Number(row.amount_minor);
    const matched = row.status === 'matched';
    // A matched line whose ledger line is dated after as_of: only that match's part is missing.
    const part = matched ? Math.sign(amount) * Number(row.matched_minor) : amount;
    items.push({
      kind: matched ? 'timing' : row.status === 'excluded' ? 'excluded_line' : 'unmatched_line',
      date: row.date,
      description: row.description,
      amount: part,
      difference: part,
      bank_transaction_id: row.id,
      journal_line_id: matched ? `${row.entry_id}:${row.line_no}` : null,
    });
  }
  for (const row of ledgerRows) {
    const amount = Number(row.debit) - Number(row.credit);
    items.push({
      kind: row.bank_transaction_id === null ? 'unreconciled_ledger' : 'timing',
      date: row.date,
      description: row.description,
      amount,
      difference: -amount,
      bank_transaction_id: row.bank_transaction_id,
      journal_line_id: `${row.entry_id}:${row.line_no}`,
    });
  }
  items.sort((a, b) => a.date.localeCompare(b.date));
  return {
    bank_account_id: id,
    account_code: account.account_code,
    currency: account.currency,
    as_of: asOf,
    statement_balance: statement,
    ledger_balance: ledger,
    difference: statement - ledger,
    items,
    counts,
  };
}
