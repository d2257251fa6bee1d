import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { ListBankAccountsQuery } from '../../../contract/finance/index.js';
import type { Executor, Trx } from '../../platform/db/database.js';
import { pageWithTotal } from '../../platform/db/paged.js';
import type {
  FinanceBankAccountsTable,
  FinanceBankImportsTable,
  FinanceBankTransactionsTable,
} from '../../platform/db/types.js';

export type BankAccountRow = Selectable<FinanceBankAccountsTable>;

const bankAccounts = (db: Executor, businessId: string) =>
  db.selectFrom('finance_bank_accounts').selectAll().where('business_id', '=', businessId);

export const listBankAccounts = (db: Executor, businessId: string, query: ListBankAccountsQuery) =>
  pageWithTotal(bankAccounts(db, businessId), (q) => q.orderBy('account_code'), query);

export const findBankAccount = (db: Executor, businessId: string, id: string) =>
  bankAccounts(db, businessId).where('id', '=', id).executeTakeFirst();

export async function insertBankAccount(trx: Trx, values: Insertable<FinanceBankAccountsTable>) {
  return trx.insertInto('finance_bank_accounts').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateBankAccount(
  trx: Trx,
  businessId: string,
  id: string,
  changes: Updateable<FinanceBankAccountsTable>,
) {
  return trx
    .updateTable('finance_bank_accounts')
    .set(changes)
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** The chart codes from 1100 to 1199 the business uses (the caller holds the business's lock). */
export async function bankCodesInUse(trx: Trx, businessId: string): Promise<string[]> {
  const rows = await trx
    .selectFrom('finance_accounts')
    .select('code')
    .where('business_id', '=', businessId)
    .where('code', '>=', '1100')
    .where('code', '<=', '1199')
    .execute();
  return rows.map((r) => r.code);
}

export async function renameChartAccount(trx: Trx, businessId: string, code: string, name: string) {
  await trx
    .updateTable('finance_accounts')
    .set({ name })
    .where('business_id', '=', businessId)
    .where('code', '=', code)
    .execute();
}

/* Statement import (docs/decisions.md D273). */

/** The bank account locked: one import into it at a time, each seeing the lines of the one before. */
export async function lockBankAccount(trx: Trx, businessId: string, id: string): Promise<void> {
  await trx
    .selectFrom('finance_bank_accounts')
    .select('id')
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .forUpdate()
    .execute();
}

/** The keys (date, amount, reference, occurrence) of the account's lines between two dates. */
export async function lineKeys(
  db: Executor,
  businessId: string,
  bankAccountId: string,
  from: string,
  to: string,
) {
  const rows = await db
    .selectFrom('finance_bank_transactions')
    .select(['date', 'amount_minor', 'reference', 'occurrence'])
    .where('business_id', '=', businessId)
    .where('bank_account_id', '=', bankAccountId)
    .where('date', '>=', from)
    .where('date', '<=', to)
    .execute();
  return rows.map((r) => `${r.date}|${Number(r.amount_minor)}|${r.reference ?? ''}|${r.occurrence}`);
}

export async function insertImport(trx: Trx, values: Insertable<FinanceBankImportsTable>): Promise<void> {
  await trx.insertInto('finance_bank_imports').values(values).execute();
}

export async function insertLines(
  trx: Trx,
  values: Insertable<FinanceBankTransactionsTable>[],
): Promise<void> {
  await trx.insertInto('finance_bank_transactions').values(values).execute();
}

/** The sum of the account's statement lines to `asOf`, whatever their status. */
export async function linesTotal(db: Executor, businessId: string, bankAccountId: string, asOf: string) {
  const row = await db
    .selectFrom('finance_bank_transactions')
    .select(sql<string>`coalesce(sum(amount_minor), 0)`.as('total'))
    .where('business_id', '=', businessId)
    .where('bank_account_id', '=', bankAccountId)
    .where('date', '<=', asOf)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/* The reconciliation report. */

/** The balance of a chart account to `asOf`: debits less credits. */
export async function ledgerBalance(db: Executor, businessId: string, code: string, asOf: string) {
  const row = await db
    .selectFrom('finance_journal_lines')
    .select(sql<string>`coalesce(sum(debit - credit), 0)`.as('total'))
    .where('business_id', '=', businessId)
    .where('account_code', '=', code)
    .where('date', '<=', asOf)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/**
 * The statement lines to `asOf` that the ledger does not hold by then: unmatched and excluded ones,
 * and matched ones whose ledger line is dated later (one row per such match).
 */
export async function statementItems(db: Executor, businessId: string, bankAccountId: string, asOf: string) {
  return db
    .selectFrom('finance_bank_transactions as t')
    .leftJoin('finance_bank_matches as m', (j) =>
      j.onRef('m.business_id', '=', 't.business_id').onRef('m.bank_transaction_id', '=', 't.id'),
    )
    .leftJoin('finance_journal_lines as l', (j) =>
      j
        .onRef('l.business_id', '=', 'm.business_id')
        .onRef('l.entry_id', '=', 'm.entry_id')
        .onRef('l.line_no', '=', 'm.line_no'),
    )
    .select([
      't.id',
      't.date',
      't.description',
      't.amount_minor',
      't.status',
      'm.amount_minor as matched_minor',
    ])
    .select(['m.entry_id', 'm.line_no'])
    .where('t.business_id', '=', businessId)
    .where('t.bank_account_id', '=', bankAccountId)
    .where('t.date', '<=', asOf)
    .where((eb) => eb.or([eb('t.status', '!=', 'matched'), eb('l.date', '>', asOf)]))
    .orderBy('t.date')
    .orderBy('t.line_no')
    .orderBy('t.id')
    .execute();
}

/**
 * The ledger lines of the account to `asOf` that no statement line to `asOf` stands for: the opening
 * balance aside (the statement balance starts from it), and an entry and its reversal aside once both
 * are posted.
 */
export async function ledgerItems(db: Executor, businessId: string, code: string, asOf: string) {
  return (
    db
      .selectFrom('finance_journal_lines as l')
      .innerJoin('finance_journal_entries as e', (j) =>
        j.onRef('e.business_id', '=', 'l.business_id').onRef('e.id', '=', 'l.entry_id'),
      )
      .leftJoin('finance_bank_matches as m', (j) =>
        j
          .onRef('m.business_id', '=', 'l.business_id')
          .onRef('m.entry_id', '=', 'l.entry_id')
          .onRef('m.line_no', '=', 'l.line_no'),
      )
      .leftJoin('finance_bank_transactions as t', (j) =>
        j.onRef('t.business_id', '=', 'm.business_id').onRef('t.id', '=', 'm.bank_transaction_id'),
      )
      .select(['l.entry_id', 'l.line_no', 'l.date', 'e.description', 'l.debit', 'l.credit'])
      .select('t.id as bank_transaction_id')
      .where('l.business_id', '=', businessId)
      .where('l.account_code', '=', code)
      .where('l.date', '<=', asOf)
      .where('e.source_type', '!=', 'bank_opening')
      .where((eb) => eb.or([eb('m.id', 'is', null), eb('t.date', '>', asOf)]))
      // An entry reversed by then, and its reversal, cancel out.
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('finance_journal_entries as v')
              .select('v.id')
              .whereRef('v.business_id', '=', 'e.business_id')
              .whereRef('v.source_id', '=', 'e.source_id')
              .whereRef('v.id', '!=', 'e.id')
              .where((eb) => eb.or([eb('v.source_type', '=', 'void'), eb('e.source_type', '=', 'void')]))
              .where('v.date', '<=', asOf)
              .where('e.date', '<=', asOf),
          ),
        ),
      )
      .orderBy('l.date')
      .orderBy('l.entry_id')
      .orderBy('l.line_no')
      .execute()
  );
}

export async function transactionCounts(
  db: Executor,
  businessId: string,
  bankAccountId: string,
  asOf: string,
) {
  const rows = await db
    .selectFrom('finance_bank_transactions')
    .select(['status', (eb) => eb.fn.countAll<string>().as('n')])
    .where('business_id', '=', businessId)
    .where('bank_account_id', '=', bankAccountId)
    .where('date', '<=', asOf)
    .groupBy('status')
    .execute();
  const count = (status: string) => Number(rows.find((r) => r.status === status)?.n ?? 0);
  return { unmatched: count('unmatched'), matched: count('matched'), excluded: count('excluded') };
}
