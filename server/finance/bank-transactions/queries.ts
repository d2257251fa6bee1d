import type { Insertable, Selectable } from 'kysely';
import type { ListBankTransactionsQuery, SourceType } from '../../../contract/finance/index.js';
import type { Executor, Trx } from '../../platform/db/database.js';
import { pageWithTotal } from '../../platform/db/paged.js';
import type { FinanceBankMatchesTable, FinanceBankTransactionsTable } from '../../platform/db/types.js';

export type BankTransactionRow = Selectable<FinanceBankTransactionsTable>;
export type BankMatchRow = Selectable<FinanceBankMatchesTable>;

const transactions = (db: Executor, businessId: string) =>
  db.selectFrom('finance_bank_transactions').selectAll().where('business_id', '=', businessId);

export async function listTransactions(db: Executor, businessId: string, query: ListBankTransactionsQuery) {
  let base = transactions(db, businessId);
  if (query.bank_account_id !== undefined) base = base.where('bank_account_id', '=', query.bank_account_id);
  if (query.status !== undefined) base = base.where('status', '=', query.status);
  return pageWithTotal(
    base,
    (q) => q.orderBy('date').orderBy('import_id').orderBy('line_no').orderBy('id'),
    query,
  );
}

export const findTransaction = (db: Executor, businessId: string, id: string) =>
  transactions(db, businessId).where('id', '=', id).executeTakeFirst();

/** The line with its bank account's chart code and currency, in one read (a line's suggestions). */
export const transactionWithAccount = (db: Executor, businessId: string, id: string) =>
  db
    .selectFrom('finance_bank_transactions as t')
    .innerJoin('finance_bank_accounts as a', (j) =>
      j.onRef('a.business_id', '=', 't.business_id').onRef('a.id', '=', 't.bank_account_id'),
    )
    .select(['t.id', 't.status', 't.date', 't.description', 't.reference', 't.amount_minor', 't.rule_id'])
    .select(['a.account_code', 'a.currency'])
    .where('t.business_id', '=', businessId)
    .where('t.id', '=', id)
    .executeTakeFirst();

/** The line, locked for its match: of concurrent matches of one line, one finds it unmatched. */
export const lockTransaction = (trx: Trx, businessId: string, id: string) =>
  transactions(trx, businessId).where('id', '=', id).forUpdate().executeTakeFirst();

export async function setStatus(
  trx: Trx,
  businessId: string,
  id: string,
  status: BankTransactionRow['status'],
  now: Date,
): Promise<BankTransactionRow> {
  return trx
    .updateTable('finance_bank_transactions')
    .set({ status, updated_at: now })
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function matchesOf(
  db: Executor,
  businessId: string,
  transactionIds: string[],
): Promise<BankMatchRow[]> {
  if (transactionIds.length === 0) return [];
  return db
    .selectFrom('finance_bank_matches')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('bank_transaction_id', 'in', transactionIds)
    .orderBy('bank_transaction_id')
    .orderBy('position')
    .execute();
}

export async function insertMatches(trx: Trx, rows: Insertable<FinanceBankMatchesTable>[]): Promise<void> {
  if (rows.length > 0) await trx.insertInto('finance_bank_matches').values(rows).execute();
}

export async function deleteMatches(trx: Trx, businessId: string, transactionId: string): Promise<void> {
  await trx
    .deleteFrom('finance_bank_matches')
    .where('business_id', '=', businessId)
    .where('bank_transaction_id', '=', transactionId)
    .execute();
}

/** The line of an entry with its entry's source: what a match names by `journal_line_id`. */
export async function journalLine(db: Executor, businessId: string, entryId: string, lineNo: number) {
  return db
    .selectFrom('finance_journal_lines as l')
    .innerJoin('finance_journal_entries as e', (j) =>
      j.onRef('e.business_id', '=', 'l.business_id').onRef('e.id', '=', 'l.entry_id'),
    )
    .select(['l.entry_id', 'l.line_no', 'l.account_code', 'l.currency', 'l.debit', 'l.credit', 'l.date'])
    .select(['e.source_type', 'e.source_id', 'e.description'])
    .where('l.business_id', '=', businessId)
    .where('l.entry_id', '=', entryId)
    .where('l.line_no', '=', lineNo)
    .executeTakeFirst();
}

/** The line an entry posted to `account` (the bank side of a payment or of what a match posted). */
export async function lineOnAccount(
  db: Executor,
  businessId: string,
  source: { type: 'invoice_payment' | 'bill_payment' | 'bank_transaction'; id: string },
  account: string,
) {
  return db
    .selectFrom('finance_journal_lines as l')
    .innerJoin('finance_journal_entries as e', (j) =>
      j.onRef('e.business_id', '=', 'l.business_id').onRef('e.id', '=', 'l.entry_id'),
    )
    .select(['l.entry_id', 'l.line_no'])
    .where('e.business_id', '=', businessId)
    .where('e.source_type', '=', source.type)
    .where('e.source_id', '=', source.id)
    .where('l.account_code', '=', account)
    .executeTakeFirst();
}

/** Whether the entries of a source were reversed (an entry of source `void` names the same source). */
export async function entryReversed(db: Executor, businessId: string, sourceId: string): Promise<boolean> {
  const row = await db
    .selectFrom('finance_journal_entries')
    .select('id')
    .where('business_id', '=', businessId)
    .where('source_type', '=', 'void')
    .where('source_id', '=', sourceId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Whether a ledger line stands for a statement line already, as its own line or as the one moved. */
export async function lineReconciled(db: Executor, businessId: string, entryId: string, lineNo: number) {
  const row = await db
    .selectFrom('finance_bank_matches')
    .select('bank_transaction_id')
    .where('business_id', '=', businessId)
    .where((eb) =>
      eb.or([
        eb.and([eb('entry_id', '=', entryId), eb('line_no', '=', lineNo)]),
        eb.and([eb('matched_entry_id', '=', entryId), eb('matched_line_no', '=', lineNo)]),
      ]),
    )
    .executeTakeFirst();
  return row?.bank_transaction_id ?? null;
}

/** Unmatched lines of the account that a rule suggests an account for, with the rule's account. */
export async function ruleSuggested(trx: Trx, businessId: string, bankAccountId: string) {
  return trx
    .selectFrom('finance_bank_transactions as t')
    .innerJoin('finance_bank_rules as r', (j) =>
      j.onRef('r.business_id', '=', 't.business_id').onRef('r.id', '=', 't.rule_id'),
    )
    .select(['t.id', 'r.account_code'])
    .where('t.business_id', '=', businessId)
    .where('t.bank_account_id', '=', bankAccountId)
    .where('t.status', '=', 'unmatched')
    .orderBy('t.date')
    .orderBy('t.id')
    .execute();
}

/** Whether the business's chart has the account. */
export async function chartAccount(db: Executor, businessId: string, code: string) {
  return db
    .selectFrom('finance_accounts')
    .select(['code', 'name'])
    .where('business_id', '=', businessId)
    .where('code', '=', code)
    .executeTakeFirst();
}

/**
 * Sources whose entries are not money a statement line could show: reversals, opening balances, and
 * what matches posted themselves (each stands for its own statement line already).
 */
export const NOT_BANK_MONEY: readonly SourceType[] = ['void', 'bank_opening', 'bank_transaction'];

/**
 * The business's ledger lines (`l`) with their entries (`e`) that a statement could show: none of
 * `NOT_BANK_MONEY`, and none of an entry reversed since.
 */
export const bankMoneyLines = (db: Executor, businessId: string) =>
  db
    .selectFrom('finance_journal_lines as l')
    .innerJoin('finance_journal_entries as e', (j) =>
      j.onRef('e.business_id', '=', 'l.business_id').onRef('e.id', '=', 'l.entry_id'),
    )
    .where('l.business_id', '=', businessId)
    .where('e.source_type', 'not in', NOT_BANK_MONEY)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('finance_journal_entries as v')
            .select('v.id')
            .whereRef('v.business_id', '=', 'e.business_id')
            .where('v.source_type', '=', 'void')
            .whereRef('v.source_id', '=', 'e.source_id'),
        ),
      ),
    );

/** The lines of `account` from `from` to `to` that a statement would show (the sandbox's demo statement). */
export async function moneyLines(
  db: Executor,
  businessId: string,
  account: string,
  from: string,
  to: string,
) {
  return bankMoneyLines(db, businessId)
    .select(['l.entry_id', 'l.line_no', 'l.date', 'l.debit', 'l.credit', 'e.description'])
    .where('l.account_code', '=', account)
    .where('l.date', '>=', from)
    .where('l.date', '<=', to)
    .orderBy('l.date')
    .orderBy('l.entry_id')
    .execute();
}
