import type { BankRule, CreateBankRuleBody, UpdateBankRuleBody } from '../../../contract/finance/index.js';
import { inTransaction, type Ctx, type TxCtx } from '../../platform/context.js';
import { invalid, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { chartAccount } from '../bank-transactions/queries.js';
import { DOCUMENT_ACCOUNTS } from '../bank-transactions/service.js';
import * as queries from './queries.js';

/*
 * Bank rules (docs/decisions.md D273): words of a statement line's description (and optionally its
 * direction and amounts) that suggest an account to categorise it to. Applied as lines are imported
 * and, for lines waiting without a suggestion, as a rule is made; one call accepts them all.
 */

const amountOrNull = (v: number | string | bigint | null) => (v === null ? null : Number(v));

const toRule = (row: queries.BankRuleRow): BankRule => ({
  id: row.id,
  description_contains: row.description_contains,
  direction: row.direction,
  min_amount: amountOrNull(row.min_amount_minor),
  max_amount: amountOrNull(row.max_amount_minor),
  account_code: row.account_code,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

async function checkAccount(ctx: TxCtx, code: string): Promise<void> {
  const chart = await chartAccount(ctx.db, ctx.businessId, code);
  if (!chart) {
    throw invalid('account_code', `No account ${code} in the chart: list them with GET /v1/finance/accounts`);
  }
  const refusal = DOCUMENT_ACCOUNTS[code];
  if (refusal) throw invalid('account_code', `${code} ${chart.name} is moved by documents: ${refusal}`);
}

export async function listBankRules(ctx: Ctx, page: { limit: number; offset: number }) {
  const { rows, total } = await queries.listRules(ctx.db, ctx.businessId, page);
  return { bank_rules: rows.map(toRule), total_count: total };
}

export async function getBankRule(ctx: Ctx, id: string): Promise<BankRule> {
  const row = await queries.findRule(ctx.db, ctx.businessId, id);
  if (!row) throw notFound('Bank rule');
  return toRule(row);
}

/** The rule, and how many waiting lines it now suggests an account for. */
export async function createBankRule(
  ctx: Ctx,
  input: CreateBankRuleBody,
): Promise<{ rule: BankRule; suggested: number }> {
  return inTransaction(ctx, async (ctx) => {
    await checkAccount(ctx, input.account_code);
    const now = ctx.clock.now();
    const row = await queries.insertRule(ctx.db, {
      business_id: ctx.businessId,
      id: newId('brule'),
      description_contains: input.description_contains,
      direction: input.direction ?? null,
      min_amount_minor: input.min_amount ?? null,
      max_amount_minor: input.max_amount ?? null,
      account_code: input.account_code,
      created_at: now,
      updated_at: now,
    });
    const suggested = await queries.applyRules(ctx.db, ctx.businessId, { counting: row.id });
    return { rule: toRule(row), suggested };
  });
}

export async function updateBankRule(ctx: Ctx, id: string, input: UpdateBankRuleBody): Promise<BankRule> {
  return inTransaction(ctx, async (ctx) => {
    const current = await queries.findRule(ctx.db, ctx.businessId, id);
    if (!current) throw notFound('Bank rule');
    if (input.account_code !== undefined) await checkAccount(ctx, input.account_code);
    const min = input.min_amount === undefined ? amountOrNull(current.min_amount_minor) : input.min_amount;
    const max = input.max_amount === undefined ? amountOrNull(current.max_amount_minor) : input.max_amount;
    if (min !== null && max !== null && min > max)
      throw invalid('max_amount', 'Must not be below min_amount');
    const row = await queries.updateRule(ctx.db, ctx.businessId, id, {
      ...(input.description_contains !== undefined && { description_contains: input.description_contains }),
      ...(input.direction !== undefined && { direction: input.direction }),
      min_amount_minor: min,
      max_amount_minor: max,
      ...(input.account_code !== undefined && { account_code: input.account_code }),
      updated_at: ctx.clock.now(),
    });
    return toRule(row!);
  });
}

export async function deleteBankRule(ctx: Ctx, id: string): Promise<void> {
  await inTransaction(ctx, async (ctx) => {
    if (!(await queries.deleteRule(ctx.db, ctx.businessId, id))) throw notFound('Bank rule');
  });
}
