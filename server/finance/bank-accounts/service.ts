import type {
  BankAccount,
  CreateBankAccountBody,
  ListBankAccountsQuery,
  UpdateBankAccountBody,
} from '../../../contract/finance/index.js';
import { today } from '../../platform/calendar.js';
import { inTransaction, type Ctx, type TxCtx } from '../../platform/context.js';
import { ApiError, invalid, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { lockBusiness } from '../../platform/settings.js';
import { insertAccount } from '../accounts/queries.js';
import { addAccountIfMissing } from '../ledger/queries.js';
import { ACCOUNTS, post } from '../ledger/service.js';
import * as queries from './queries.js';

/**
 * Bank accounts (docs/decisions.md D272): each has an asset account of its own in the chart, the
 * next free code from 1100, and its opening balance posted against 3000 Opening balance equity on
 * its opening date. Its currency and opening balance are fixed once posted.
 */

const toBankAccount = (row: queries.BankAccountRow): BankAccount => ({
  id: row.id,
  name: row.name,
  currency: row.currency,
  account_number_last4: row.account_number_last4,
  account_code: row.account_code,
  opening_balance: Number(row.opening_balance_minor),
  opening_date: row.opening_date,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

export async function listBankAccounts(
  ctx: Ctx,
  query: ListBankAccountsQuery,
): Promise<{ bank_accounts: BankAccount[]; total_count: number }> {
  const { rows, total } = await queries.listBankAccounts(ctx.db, ctx.businessId, query);
  return { bank_accounts: rows.map(toBankAccount), total_count: total };
}

export async function getBankAccount(ctx: Ctx, id: string): Promise<BankAccount> {
  const row = await queries.findBankAccount(ctx.db, ctx.businessId, id);
  if (!row) throw notFound('Bank account');
  return toBankAccount(row);
}

/**
 * The chart account of the bank account a payment names (docs/decisions.md D273): 422 on `field`
 * when there is no such bank account or it keeps another currency than the payment's.
 */
export async function bankAccountCode(
  ctx: Ctx,
  id: string,
  currency: string,
  field: string,
): Promise<string> {
  const row = await queries.findBankAccount(ctx.db, ctx.businessId, id);
  if (!row) throw invalid(field, 'No such bank account: list them with GET /v1/finance/bank-accounts');
  if (row.currency !== currency) {
    throw invalid(field, `${row.name} keeps ${row.currency}; the payment is in ${currency}`);
  }
  return row.account_code;
}

/** The next chart code of a bank account: 1100, then 1101, ... up to 1199. */
async function nextBankCode(ctx: TxCtx): Promise<string> {
  const used = new Set(await queries.bankCodesInUse(ctx.db, ctx.businessId));
  for (let code = 1100; code <= 1199; code += 1) {
    if (!used.has(String(code))) return String(code);
  }
  throw new ApiError(
    'LIMIT_EXCEEDED',
    'Every chart code from 1100 to 1199 is taken: a business has at most 100 bank accounts',
  );
}

/** 3000 Opening balance equity, added to the chart the first time an opening balance needs it. */
async function openingEquity(ctx: TxCtx): Promise<string> {
  await addAccountIfMissing(ctx.db, {
    business_id: ctx.businessId,
    code: ACCOUNTS.openingEquity,
    name: 'Opening balance equity',
    type: 'equity',
    cash_flow_group: 'financing',
    system: true,
    created_at: ctx.clock.now(),
  });
  return ACCOUNTS.openingEquity;
}

export async function createBankAccount(ctx: Ctx, input: CreateBankAccountBody): Promise<BankAccount> {
  const openingDate = input.opening_date ?? (await today(ctx));
  return inTransaction(ctx, async (ctx) => {
    // One bank account made at a time per business, so two never take the same chart code.
    await lockBusiness(ctx);
    const code = await nextBankCode(ctx);
    const now = ctx.clock.now();
    await insertAccount(ctx.db, {
      business_id: ctx.businessId,
      code,
      name: input.name,
      type: 'asset',
      cash_flow_group: 'cash',
      system: false,
      created_at: now,
    });
    const id = newId('bank');
    const row = await queries.insertBankAccount(ctx.db, {
      business_id: ctx.businessId,
      id,
      name: input.name,
      currency: input.currency,
      account_number_last4: input.account_number_last4 ?? null,
      account_code: code,
      opening_balance_minor: input.opening_balance,
      opening_date: openingDate,
      created_at: now,
      updated_at: now,
    });
    if (input.opening_balance !== 0) {
      const equity = await openingEquity(ctx);
      const amount = Math.abs(input.opening_balance);
      const [debit, credit] = input.opening_balance > 0 ? [code, equity] : [equity, code];
      await post(ctx, {
        date: openingDate,
        description: `Opening balance of ${input.name}`,
        currency: input.currency,
        source: { type: 'bank_opening', id },
        debits: [{ account: debit, amount }],
        credits: [{ account: credit, amount }],
      });
    }
    return toBankAccount(row);
  });
}

/** The name (its chart account renamed with it) or the account number hint; an empty body changes nothing. */
export async function updateBankAccount(
  ctx: Ctx,
  id: string,
  input: UpdateBankAccountBody,
): Promise<BankAccount> {
  const changes = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
  if (Object.keys(changes).length === 0) return getBankAccount(ctx, id);
  if (changes.name === '') throw invalid('name', 'Must not be empty');
  return inTransaction(ctx, async (ctx) => {
    const row = await queries.updateBankAccount(ctx.db, ctx.businessId, id, {
      ...changes,
      updated_at: ctx.clock.now(),
    });
    if (!row) throw notFound('Bank account');
    if (input.name !== undefined) {
      await queries.renameChartAccount(ctx.db, ctx.businessId, row.account_code, input.name);
    }
    return toBankAccount(row);
  });
}
