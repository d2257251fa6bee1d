import { sql, type SqlBool } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import { bankMoneyLines } from './queries.js';
import { amountCompared, amountOrder, type Candidate, type Closeness } from '../../platform/db/closeness.js';

/*
 * What a statement line may have paid, found by amount through the partial indexes of open
 * documents and of bank ledger lines (migration 2026_11_29_0042): each lookup reads a handful of
 * index entries, however many documents are open.
 */

/** What a pending bill still owes, as `finance_bills_open_due_idx` has it. */
const billDue = sql<number>`(b.amount - b.amount_paid)`;

/** Pending bills of the currency by what they owe against `amount`, at most `limit`. */
export async function billsByAmount(
  db: Executor,
  businessId: string,
  currency: string,
  amount: number,
  closeness: Closeness,
  limit: number,
): Promise<Candidate[]> {
  const rows = await db
    .selectFrom('finance_bills as b')
    .innerJoin('finance_vendors as v', (j) =>
      j.onRef('v.business_id', '=', 'b.business_id').onRef('v.id', '=', 'b.vendor_id'),
    )
    .select(['b.id', 'b.due_date as date', 'v.name as label'])
    .select(billDue.as('due'))
    .where('b.business_id', '=', businessId)
    .where('b.currency', '=', currency)
    .where('b.status', '=', 'pending')
    .where(amountCompared(billDue, closeness, amount))
    .orderBy(sql`${billDue} ${amountOrder(closeness)}`)
    .orderBy('b.due_date')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...r, due: Number(r.due) }));
}

/**
 * Ledger lines of `accounts` (the bank account's own and 1010 Bank) of the signed amount that no
 * statement line reconciles: money recorded by hand, a provider's payout. Lines of reversed entries,
 * reversals and opening balances are not money a statement shows.
 */
export async function unreconciledLines(
  db: Executor,
  businessId: string,
  accounts: string[],
  currency: string,
  signedAmount: number,
  limit: number,
) {
  return bankMoneyLines(db, businessId)
    .select(['l.entry_id', 'l.line_no', 'l.date', 'l.account_code', 'e.description'])
    .where('l.account_code', 'in', accounts)
    .where('l.currency', '=', currency)
    .where(sql<SqlBool>`(l.debit - l.credit) = ${signedAmount}`)
    .where(sql<SqlBool>`(l.account_code = '1010' OR l.account_code BETWEEN '1100' AND '1199')`)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('finance_bank_matches as m')
            .select('m.id')
            .whereRef('m.business_id', '=', 'l.business_id')
            .where((eb) =>
              eb.or([
                eb.and([
                  eb('m.entry_id', '=', eb.ref('l.entry_id')),
                  eb('m.line_no', '=', eb.ref('l.line_no')),
                ]),
                eb.and([
                  eb('m.matched_entry_id', '=', eb.ref('l.entry_id')),
                  eb('m.matched_line_no', '=', eb.ref('l.line_no')),
                ]),
              ]),
            ),
        ),
      ),
    )
    .orderBy('l.date', 'desc')
    .limit(limit)
    .execute();
}

/** The rule a line's suggestion came from, with its account. */
export async function ruleOf(db: Executor, businessId: string, ruleId: string) {
  return db
    .selectFrom('finance_bank_rules as r')
    .innerJoin('finance_accounts as a', (j) =>
      j.onRef('a.business_id', '=', 'r.business_id').onRef('a.code', '=', 'r.account_code'),
    )
    .select(['r.id', 'r.description_contains', 'r.account_code', 'a.name as account_name'])
    .where('r.business_id', '=', businessId)
    .where('r.id', '=', ruleId)
    .executeTakeFirst();
}
