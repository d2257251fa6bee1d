import type {
  Bill,
  BillPayment,
  BillStatus,
  BillSummary,
  CreateBillBody,
  ListBillsQuery,
  PayBillBody,
  UpdateBillBody,
} from '../../../contract/finance/index.js';
import { today } from '../../platform/calendar.js';
import { type Ctx, type TxCtx, inTransaction } from '../../platform/context.js';
import { isOverdue } from '../../platform/due.js';
import { invalid, invalidState, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { priceBillWithTax, TAX_RATE_PLACES } from '../../../contract/common/pricing.js';
import { lineAmounts, MAX_MINOR, QUANTITY_PLACES, toScaledInteger } from '../../platform/money.js';
import { emit } from '../../platform/outbox.js';
import { baseCurrency } from '../../platform/settings.js';
import { rateOrNull } from '../../../contract/common/exchange.js';
import * as queries from './queries.js';
import { ACCOUNTS, cashAccountOf, post, reverse, settlementBase } from '../ledger/service.js';
import { bankAccountCode } from '../bank-accounts/service.js';

type Items = CreateBillBody['items'];

/**
 * Each item's amount and tax (each rounded half up on its own) and the bill's subtotal, tax and amount
 * (their exact sums, each rounded once; the amount is subtotal + tax).
 */
export function amountsOf(items: Items, currency: string) {
  const rows = items.map((item, i) => {
    const { totalMinor } = lineAmounts(item.quantity, item.unit_price, 0, `items.${i}`, currency);
    return { ...item, amount: totalMinor };
  });
  const priced = priceBillWithTax(
    items.map((item) => ({
      quantityScaled: toScaledInteger(item.quantity, QUANTITY_PLACES)!,
      unitPriceMinor: BigInt(item.unit_price),
      rateScaled: toScaledInteger(item.tax_rate, TAX_RATE_PLACES)!,
    })),
  );
  if (priced.subtotalMinor === 0n) throw invalid('items', 'The bill total must be more than 0');
  if (priced.totalMinor > BigInt(MAX_MINOR))
    throw invalid('items', 'The bill total exceeds the largest amount the service holds');
  return {
    rows: rows.map((row, i) => ({ ...row, tax: Number(priced.itemTaxes[i]) })),
    subtotal: Number(priced.subtotalMinor),
    tax: Number(priced.taxMinor),
    amount: Number(priced.totalMinor),
  };
}

const itemRows = (ctx: Ctx, billId: string, rows: ReturnType<typeof amountsOf>['rows']) =>
  rows.map((item, i) => ({
    business_id: ctx.businessId,
    bill_id: billId,
    position: i + 1,
    description: item.description,
    quantity: String(item.quantity),
    unit_price: item.unit_price,
    amount: item.amount,
    tax_rate: String(item.tax_rate),
    tax: item.tax,
  }));

/** The status a reader sees: a pending bill past its due date is overdue. */
const statusOf = (row: queries.BillRow, on: string): BillStatus =>
  isOverdue(row.status, row.due_date, on, 'pending') ? 'overdue' : row.status;

function toSummary(row: queries.BillRow, on: string): BillSummary {
  return {
    id: row.id,
    vendor_id: row.vendor_id,
    vendor_name: row.vendor_name,
    subtotal: row.subtotal,
    tax: row.tax,
    amount: row.amount,
    amount_paid: row.amount_paid,
    amount_due: row.status === 'void' ? 0 : row.amount - row.amount_paid,
    currency: row.currency,
    exchange_rate: rateOrNull(row.exchange_rate),
    status: statusOf(row, on),
    issue_date: row.issue_date,
    due_date: row.due_date,
    notes: row.notes,
    recurring_bill_id: row.recurring_bill_id,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

type PaymentRow = Awaited<ReturnType<typeof queries.billPayments>>[number];

const toPayment = (row: PaymentRow): BillPayment => ({
  id: row.id,
  bill_id: row.bill_id,
  amount: row.amount,
  currency: row.currency,
  payment_method: row.payment_method,
  payment_date: row.payment_date,
  bank_account_id: row.bank_account_id,
  exchange_rate: rateOrNull(row.exchange_rate),
  created_at: row.created_at.toISOString(),
});

async function detail(ctx: Ctx, id: string): Promise<Bill> {
  const row = await queries.findBill(ctx.db, ctx.businessId, id);
  if (!row) throw notFound('Bill');
  const [items, payments, on] = await Promise.all([
    queries.billItems(ctx.db, ctx.businessId, id),
    queries.billPayments(ctx.db, ctx.businessId, id),
    today(ctx),
  ]);
  return {
    ...toSummary(row, on),
    items: items.map((item) => ({
      description: item.description,
      quantity: Number(item.quantity),
      unit_price: item.unit_price,
      amount: item.amount,
      tax_rate: Number(item.tax_rate),
      tax: item.tax,
    })),
    payments: payments.map(toPayment),
  };
}

/** Dr 5000 Expenses its subtotal and 2210 VAT receivable its tax / Cr 2000 Accounts payable, on its issue date. */
async function postBill(
  ctx: TxCtx,
  bill: {
    id: string;
    subtotal: number;
    tax: number;
    amount: number;
    currency: string;
    exchange_rate: string | number | null;
    issue_date: string;
    vendor_name: string;
  },
) {
  await post(ctx, {
    date: bill.issue_date,
    description: `Bill from ${bill.vendor_name}`,
    currency: bill.currency,
    rate: bill.exchange_rate === null ? null : String(bill.exchange_rate),
    source: { type: 'bill', id: bill.id },
    debits: [
      { account: ACCOUNTS.expenses, amount: bill.subtotal },
      { account: ACCOUNTS.vatReceivable, amount: bill.tax },
    ],
    credits: [{ account: ACCOUNTS.payable, amount: bill.amount }],
  });
}

function requireDueAfterIssue(issueDate: string, dueDate: string): void {
  if (dueDate < issueDate) throw invalid('due_date', 'Must be on or after issue_date');
}

async function billOrFail(ctx: TxCtx, id: string) {
  const row = await queries.findBill(ctx.db, ctx.businessId, id, true);
  if (!row) throw notFound('Bill');
  return row;
}

export async function listBills(
  ctx: Ctx,
  query: ListBillsQuery,
): Promise<{ bills: BillSummary[]; total_count: number }> {
  const on = await today(ctx);
  const { rows, total } = await queries.listBills(ctx.db, ctx.businessId, query, on);
  return { bills: rows.map((row) => toSummary(row, on)), total_count: total };
}

export const getBill = (ctx: Ctx, id: string): Promise<Bill> => detail(ctx, id);

/**
 * Records a bill, pending and posted on its issue date unless it is a draft. `recurring` names the
 * recurring bill and the date of the period it is recorded for (docs/decisions.md D252).
 */
export async function createBill(
  ctx: Ctx,
  input: CreateBillBody,
  recurring?: { id: string; periodOn: string },
): Promise<Bill> {
  const issueDate = input.issue_date ?? (await today(ctx));
  requireDueAfterIssue(issueDate, input.due_date);
  const currency = input.currency ?? (await baseCurrency(ctx));
  const { rows, subtotal, tax, amount } = amountsOf(input.items, currency);
  return inTransaction(ctx, async (ctx) => {
    if (!(await queries.vendorExists(ctx.db, ctx.businessId, input.vendor_id))) {
      throw invalid('vendor_id', 'No vendor with this id');
    }
    const now = ctx.clock.now();
    const id = newId('bill');
    const status = input.status ?? 'pending';
    await queries.insertBill(
      ctx.db,
      {
        business_id: ctx.businessId,
        id,
        vendor_id: input.vendor_id,
        status,
        currency,
        exchange_rate: input.exchange_rate ?? null,
        subtotal,
        tax,
        amount,
        issue_date: issueDate,
        due_date: input.due_date,
        notes: input.notes ?? null,
        created_at: now,
        updated_at: now,
        approved_at: status === 'pending' ? now : null,
        recurring_bill_id: recurring?.id ?? null,
        recurring_period_on: recurring?.periodOn ?? null,
      },
      itemRows(ctx, id, rows),
    );
    const bill = await detail(ctx, id);
    if (status === 'pending') await postBill(ctx, bill);
    return bill;
  });
}

/** Partial update of a draft; items replace the old ones. */
export async function updateBill(ctx: Ctx, id: string, input: UpdateBillBody): Promise<Bill> {
  return inTransaction(ctx, async (ctx) => {
    const current = await billOrFail(ctx, id);
    if (current.status !== 'draft')
      throw invalidState(`A ${statusOf(current, await today(ctx))} bill cannot be changed`);
    if (
      input.vendor_id !== undefined &&
      !(await queries.vendorExists(ctx.db, ctx.businessId, input.vendor_id))
    ) {
      throw invalid('vendor_id', 'No vendor with this id');
    }
    const currency = input.currency ?? current.currency;
    requireDueAfterIssue(input.issue_date ?? current.issue_date, input.due_date ?? current.due_date);
    const { items, ...fields } = input;
    let totals: { subtotal: number; tax: number; amount: number } | undefined;
    if (items !== undefined) {
      const { rows, ...computed } = amountsOf(items, currency);
      totals = computed;
      await queries.replaceItems(ctx.db, ctx.businessId, id, itemRows(ctx, id, rows));
    } else if (input.currency !== undefined) {
      // Items are in minor units of the currency: a new currency re-checks them.
      const old = await queries.billItems(ctx.db, ctx.businessId, id);
      const { subtotal, tax, amount } = amountsOf(
        old.map((i) => ({
          description: i.description,
          quantity: Number(i.quantity),
          unit_price: i.unit_price,
          tax_rate: Number(i.tax_rate),
        })),
        currency,
      );
      totals = { subtotal, tax, amount };
    }
    const changes = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
    await queries.updateBill(ctx.db, ctx.businessId, id, {
      ...changes,
      ...totals,
      updated_at: ctx.clock.now(),
    });
    return detail(ctx, id);
  });
}

export async function deleteBill(ctx: Ctx, id: string): Promise<void> {
  await inTransaction(ctx, async (ctx) => {
    const current = await billOrFail(ctx, id);
    if (current.status !== 'draft') {
      throw invalidState(
        `Only drafts can be deleted; void a ${statusOf(current, await today(ctx))} bill instead`,
      );
    }
    const now = ctx.clock.now();
    await queries.updateBill(ctx.db, ctx.businessId, id, { deleted_at: now, updated_at: now });
  });
}

/** draft -> pending, posted on its issue date. */
export async function approveBill(ctx: Ctx, id: string): Promise<Bill> {
  return inTransaction(ctx, async (ctx) => {
    const current = await billOrFail(ctx, id);
    if (current.status !== 'draft')
      throw invalidState(`A ${statusOf(current, await today(ctx))} bill cannot be approved`);
    const now = ctx.clock.now();
    await queries.updateBill(ctx.db, ctx.businessId, id, {
      status: 'pending',
      approved_at: now,
      updated_at: now,
    });
    await postBill(ctx, current);
    return detail(ctx, id);
  });
}

/** A pending bill without payments becomes void; its posting is reversed, dated today. */
export async function voidBill(ctx: Ctx, id: string): Promise<Bill> {
  return inTransaction(ctx, async (ctx) => {
    const current = await billOrFail(ctx, id);
    const on = await today(ctx);
    if (current.status !== 'pending') throw invalidState(`A ${statusOf(current, on)} bill cannot be voided`);
    if (current.amount_paid > 0) throw invalidState('A bill with payments cannot be voided');
    const now = ctx.clock.now();
    await queries.updateBill(ctx.db, ctx.businessId, id, { status: 'void', voided_at: now, updated_at: now });
    await reverse(ctx, { type: 'bill', id }, on, `Void of bill from ${current.vendor_name}`);
    return detail(ctx, id);
  });
}

/**
 * Records a payment of a pending bill: Dr 2000 / Cr the bank account's chart account when one is
 * named, otherwise the method's (the bill's amount_paid <= amount check stands behind this).
 */
export async function payBill(
  ctx: Ctx,
  id: string,
  input: PayBillBody,
): Promise<{ bill_status: BillStatus; payment_id: string; amount_due: number }> {
  return inTransaction(ctx, (ctx) => addBillPayment(ctx, id, input, { amount: 'amount', bill: null }));
}

/**
 * A payment of the bill in the caller's transaction, by `payBill` or a bank line's match
 * (docs/decisions.md D273). `fields` names where refusals point: a match refuses on its own field
 * with 422, where `payBill` answers a bill in the wrong state with 409.
 */
export async function addBillPayment(
  ctx: TxCtx,
  id: string,
  input: PayBillBody,
  fields: { amount: string; bill: string | null },
): Promise<{ bill_status: BillStatus; payment_id: string; amount_due: number }> {
  const current = await queries.findBill(ctx.db, ctx.businessId, id, true);
  if (!current) {
    if (fields.bill) throw invalid(fields.bill, 'No such bill');
    throw notFound('Bill');
  }
  const on = await today(ctx);
  if (current.status !== 'pending') {
    const refusal = `A ${statusOf(current, on)} bill cannot be paid`;
    throw fields.bill ? invalid(fields.bill, refusal) : invalidState(refusal);
  }
  const due = current.amount - current.amount_paid;
  if (input.amount > due) {
    throw invalid(
      fields.amount,
      `The payment exceeds the amount due (${due} in minor units of ${current.currency})`,
    );
  }
  const credited =
    input.bank_account_id === undefined
      ? cashAccountOf(input.payment_method)
      : await bankAccountCode(ctx, input.bank_account_id, current.currency, fields.bill ?? 'bank_account_id');
  const now = ctx.clock.now();
  const payment = await queries.insertPayment(ctx.db, {
    business_id: ctx.businessId,
    id: newId('bpay'),
    bill_id: id,
    amount: input.amount,
    currency: current.currency,
    payment_method: input.payment_method,
    payment_date: input.payment_date,
    bank_account_id: input.bank_account_id ?? null,
    exchange_rate: input.exchange_rate ?? null,
    created_at: now,
  });
  const paid = input.amount === due;
  await queries.updateBill(ctx.db, ctx.businessId, id, {
    amount_paid: current.amount_paid + input.amount,
    ...(paid && { status: 'paid' as const, paid_at: now }),
    updated_at: now,
  });
  // The payable settles at the bill's rate, the money at the payment's: the difference is a
  // realised gain or loss (docs/decisions.md D278).
  const settled = await settlementBase(ctx, {
    document: { type: 'bill', id },
    currency: current.currency,
    before: current.amount_paid,
    amount: input.amount,
  });
  await post(ctx, {
    date: input.payment_date,
    description: `Payment to ${current.vendor_name}`,
    currency: current.currency,
    rate: input.exchange_rate ?? null,
    source: { type: 'bill_payment', id: payment.id },
    debits: [{ account: ACCOUNTS.payable, amount: input.amount, ...(settled && { base: settled.base }) }],
    credits: [{ account: credited, amount: input.amount }],
  });
  await emit(ctx, 'payment.created', toPayment(payment));
  const left = due - input.amount;
  return {
    bill_status: paid
      ? 'paid'
      : statusOf({ ...current, amount_paid: current.amount_paid + input.amount }, on),
    payment_id: payment.id,
    amount_due: left,
  };
}

/**
 * Takes back a payment a bank match recorded, as the match is undone (docs/decisions.md D273): the
 * payment goes, the bill owes it again (pending once more if it was paid) and its entry is reversed
 * on `date`.
 */
export async function reverseBillPayment(ctx: TxCtx, paymentId: string, date: string): Promise<void> {
  const payment = await queries.findPayment(ctx.db, ctx.businessId, paymentId);
  if (!payment) return;
  const current = await queries.findBill(ctx.db, ctx.businessId, payment.bill_id, true);
  if (!current) return;
  await queries.deletePayment(ctx.db, ctx.businessId, paymentId);
  await queries.updateBill(ctx.db, ctx.businessId, current.id, {
    amount_paid: current.amount_paid - payment.amount,
    ...(current.status === 'paid' && { status: 'pending' as const, paid_at: null }),
    updated_at: ctx.clock.now(),
  });
  await reverse(
    ctx,
    { type: 'bill_payment', id: paymentId },
    date,
    `Reversal of a payment to ${current.vendor_name}`,
  );
}
