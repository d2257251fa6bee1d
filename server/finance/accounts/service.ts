import type {
  Account,
  CreateAccountBody,
  TrialBalance,
  TrialBalanceQuery,
} from '../../../contract/finance/index.js';
import { today } from '../../platform/calendar.js';
import type { Ctx, TxCtx } from '../../platform/context.js';
import { refuseDuplicates } from '../../platform/db/errors.js';
import { conflict, invalid } from '../../platform/errors.js';
import { exactSum } from '../../platform/money.js';
import { baseCurrency } from '../../platform/settings.js';
import * as queries from './queries.js';
import { trialBalance } from '../ledger/queries.js';
import { toAccount } from './mappers.js';

/** The account types whose balance is on the debit side (a debit raises it); the others' on the credit side. */
export const DEBIT_NORMAL: ReadonlySet<string> = new Set(['asset', 'expense']);

export async function listAccounts(ctx: Ctx): Promise<Account[]> {
  return (await queries.listAccounts(ctx.db, ctx.businessId)).map(toAccount);
}

export async function createAccount(ctx: Ctx, input: CreateAccountBody): Promise<Account> {
  return refuseDuplicates(
    async () =>
      toAccount(
        await queries.insertAccount(ctx.db, {
          business_id: ctx.businessId,
          code: input.code,
          name: input.name,
          type: input.type,
          cash_flow_group: input.cash_flow_group,
          system: false,
        }),
      ),
    {
      finance_accounts_pkey: () => conflict(`The business already has an account ${input.code}`),
      finance_accounts_cash_by_code: () =>
        invalid(
          'cash_flow_group',
          `${input.code} is a cash account (1000, 1010, 1020, 1100-1199): its group is cash; leave cash_flow_group out`,
        ),
    },
  );
}

/** Every account's debits and credits in one currency up to a day; the totals always agree. */
export async function getTrialBalance(ctx: Ctx, query: TrialBalanceQuery): Promise<TrialBalance> {
  const currency = query.currency ?? (await baseCurrency(ctx));
  const asOf = query.as_of ?? (await today(ctx));
  // No currency asked: every currency, in the base (docs/decisions.md D278).
  const rows = await trialBalance(ctx.db, ctx.businessId, query.currency ?? null, asOf);
  let totalDebit = 0n;
  let totalCredit = 0n;
  const accounts = rows.map((row) => {
    const debit = BigInt(row.debit);
    const credit = BigInt(row.credit);
    totalDebit += debit;
    totalCredit += credit;
    const balance = DEBIT_NORMAL.has(row.type) ? debit - credit : credit - debit;
    return {
      code: row.code,
      name: row.name,
      type: row.type,
      debit: exactSum(debit, 'as_of'),
      credit: exactSum(credit, 'as_of'),
      balance: exactSum(balance, 'as_of'),
    };
  });
  return {
    as_of: asOf,
    currency,
    accounts,
    total_debit: exactSum(totalDebit, 'as_of'),
    total_credit: exactSum(totalCredit, 'as_of'),
  };
}

/** The default chart again, after a sandbox reset emptied the business's accounts. */
export const restoreDefaultAccounts = (ctx: TxCtx): Promise<void> =>
  queries.addDefaultAccounts(ctx.db, ctx.businessId);
