import type { Pagination } from '../../../contract/common/pagination.js';
import type {
  CreateInvoiceBody,
  CreatePaymentBody,
  Invoice,
  ListInvoicesQuery,
  Payment,
  UpdateInvoiceBody,
} from '../../../contract/general/invoices.js';
import { today } from '../../platform/calendar.js';
import { newId } from '../../platform/ids.js';
import { toMajor, toMinor } from '../../platform/money.js';
import { paginationOf } from '../../platform/pagination.js';
import { type Ctx, type TxCtx, inTransaction } from '../../platform/context.js';
import { type Executor } from '../../platform/db/database.js';
import type { Updateable } from 'kysely';
import type { InvoiceRow, InvoicesTable, PaymentRow } from '../../platform/db/types.js';
import type { InvoiceFacts } from '../../platform/hooks.js';
import { ApiError, invalid, invalidState, notFound } from '../../platform/errors.js';
import { emit, emitEach } from '../../platform/outbox.js';
import { baseCurrency } from '../../platform/settings.js';
import {
  checkDates,
  priceLines,
  requireCustomer,
  storedLines,
  totalsOf,
  updateLines,
  writeLines,
  type StoredLine,
  type Totals,
} from '../documents/lines.js';
import { itemsOf, nextSequenceValue } from '../documents/queries.js';
import { addCustomerCredit, lockCustomerCredit, takeCustomerCredit } from '../customers/queries.js';
import type { SendDocumentBody } from '../../../contract/general/documents.js';
import {
  customerOf,
  documentPdf,
  mailDocument,
  noRecipient,
  recipientAddress,
} from '../documents/delivery.js';
import { hostedUrl } from '../documents/hosted.js';
import { amountDueOf, factsOf, toInvoice, toPayment } from './mappers.js';
import * as queries from './queries.js';

const formatNumber = (n: number) => `INV-${String(n).padStart(6, '0')}`;

/** The invoice as its detail endpoint serialises it. */
async function loadInvoice(ctx: Ctx, id: string): Promise<Invoice> {
  const row = await queries.findInvoice(ctx.db, ctx.businessId, id);
  if (!row) throw notFound('Invoice');
  return invoiceOf(ctx, row);
}

/** `loadInvoice` of a row already read. */
async function invoiceOf(ctx: Ctx, row: queries.InvoiceWithCustomer): Promise<Invoice> {
  const id = row.id;
  const [items, payments, day] = await Promise.all([
    itemsOf(ctx.db, ctx.businessId, 'invoice_items', [id]),
    paymentsOf(ctx.db, ctx, [row]),
    today(ctx),
  ]);
  return toInvoice(row, items, payments, day, hostedUrl(ctx, 'invoice', row));
}

/**
 * The payments of the invoices; those with nothing paid have none (payments are positive and only
 * ever add to amount_paid), so they cost no query.
 */
async function paymentsOf(
  db: Executor,
  ctx: Ctx,
  rows: readonly { id: string; amount_paid_minor: number }[],
) {
  const paid = rows.filter((r) => Number(r.amount_paid_minor) > 0).map((r) => r.id);
  return paid.length === 0 ? [] : queries.paymentsOf(db, ctx.businessId, paid);
}

async function lockOrFail(ctx: TxCtx, id: string) {
  const row = await queries.lockInvoice(ctx.db, ctx.businessId, id);
  if (!row) throw notFound('Invoice');
  return row;
}

const setInvoice = (ctx: TxCtx, id: string, patch: Updateable<InvoicesTable>) =>
  queries.updateInvoice(ctx.db, ctx.businessId, id, patch);

/**
 * Locks the invoice, lets `change` check its state and write, then emits `invoice.updated` with the
 * result, all in one transaction. A `change` that holds the row as it left it returns it, and the
 * invoice is not read again.
 */
async function transition(
  ctx: Ctx,
  id: string,
  change: (ctx: TxCtx, current: Locked) => Promise<queries.InvoiceWithCustomer | void>,
): Promise<Invoice> {
  return inTransaction(ctx, async (ctx) => {
    const changed = await change(ctx, await lockOrFail(ctx, id));
    const invoice = changed ? await invoiceOf(ctx, changed) : await loadInvoice(ctx, id);
    await emit(ctx, 'invoice.updated', invoice);
    return invoice;
  });
}

export async function createInvoice(ctx: Ctx, input: CreateInvoiceBody): Promise<Invoice> {
  const currency = input.currency ?? (await baseCurrency(ctx));
  checkDates(input.issue_date, input.due_date);
  return inTransaction(ctx, async (ctx) => {
    await requireCustomer(ctx.db, ctx.businessId, input.customer_id);
    const lines = await priceLines(ctx, input.items, currency);
    return createDraft(ctx, {
      customer_id: input.customer_id,
      currency,
      issue_date: input.issue_date ?? null,
      due_date: input.due_date,
      notes: input.notes ?? null,
      exchange_rate: input.exchange_rate ?? null,
      totals: totalsOf(lines, currency),
      lines: storedLines(lines),
    });
  });
}

/**
 * A draft invoice of lines already priced (a new invoice's, or an accepted quote's, carried over
 * exactly), numbered and announced (`invoice.created`) in the caller's transaction.
 */
export async function createDraft(
  ctx: TxCtx,
  draft: {
    customer_id: string;
    currency: string;
    issue_date: string | null;
    due_date: string;
    notes: string | null;
    /** Its own exchange rate (docs/decisions.md D278); null: the table's of its issue date. */
    exchange_rate?: string | null;
    totals: Totals;
    lines: StoredLine[];
    /** The recurring invoice and the date of the period it is made for (docs/decisions.md D252). */
    recurring?: { id: string; periodOn: string };
  },
): Promise<Invoice> {
  // Taken last, so the counter's row lock is held for as short a time as possible.
  const number = formatNumber(await nextSequenceValue(ctx.db, ctx.businessId, 'invoice'));
  const id = newId('inv');
  const now = ctx.clock.now();
  await queries.insertInvoice(ctx.db, {
    business_id: ctx.businessId,
    id,
    number,
    customer_id: draft.customer_id,
    status: 'draft',
    currency: draft.currency,
    exchange_rate: draft.exchange_rate ?? null,
    issue_date: draft.issue_date,
    due_date: draft.due_date,
    notes: draft.notes,
    ...draft.totals,
    amount_paid_minor: 0,
    created_at: now,
    updated_at: now,
    issued_at: null,
    paid_at: null,
    voided_at: null,
    deleted_at: null,
    recurring_invoice_id: draft.recurring?.id ?? null,
    recurring_period_on: draft.recurring?.periodOn ?? null,
  });
  await writeLines(ctx, 'invoice_items', id, draft.lines);
  const invoice = await loadInvoice(ctx, id);
  await emit(ctx, 'invoice.created', invoice);
  return invoice;
}

export async function listInvoices(
  ctx: Ctx,
  query: ListInvoicesQuery,
): Promise<{ data: Invoice[]; pagination: Pagination }> {
  const day = await today(ctx);
  const { rows, total } = await queries.listInvoices(ctx.db, ctx.businessId, query, day);
  const [items, payments] = await Promise.all([
    itemsOf(
      ctx.db,
      ctx.businessId,
      'invoice_items',
      rows.map((r) => r.id),
    ),
    paymentsOf(ctx.db, ctx, rows),
  ]);
  const data = rows.map((row) =>
    toInvoice(
      row,
      items.filter((i) => i.document_id === row.id),
      payments.filter((p) => p.invoice_id === row.id),
      day,
      hostedUrl(ctx, 'invoice', row),
    ),
  );
  return { data, pagination: paginationOf(query, total) };
}

export const getInvoice = (ctx: Ctx, id: string): Promise<Invoice> => loadInvoice(ctx, id);

const notUpdatable = (status: string) =>
  invalidState(`Only draft invoices can be updated; this one is ${status}`);

/** Partial update of a draft; an empty one changes nothing and returns the draft as it is. */
export async function updateInvoice(ctx: Ctx, id: string, input: UpdateInvoiceBody): Promise<Invoice> {
  if (Object.values(input).every((value) => value === undefined)) {
    const invoice = await loadInvoice(ctx, id);
    if (invoice.status !== 'draft') throw notUpdatable(invoice.status);
    return invoice;
  }
  return transition(ctx, id, async (ctx, current) => {
    if (current.status !== 'draft') throw notUpdatable(current.status);
    if (input.customer_id !== undefined) await requireCustomer(ctx.db, ctx.businessId, input.customer_id);
    const issueDate = input.issue_date !== undefined ? input.issue_date : current.issue_date;
    checkDates(issueDate, input.due_date ?? current.due_date);
    const currency = input.currency ?? current.currency;
    const totals = await updateLines(ctx, 'invoice_items', current, input.items, currency);
    await setInvoice(ctx, id, {
      ...(input.customer_id !== undefined && { customer_id: input.customer_id }),
      ...(input.due_date !== undefined && { due_date: input.due_date }),
      ...(input.issue_date !== undefined && { issue_date: input.issue_date }),
      ...(input.notes !== undefined && { notes: input.notes }),
      ...(input.exchange_rate !== undefined && { exchange_rate: input.exchange_rate }),
      ...totals,
      currency,
      updated_at: ctx.clock.now(),
    });
  });
}

/** Drafts only. The row is kept, marked deleted, so every number ever given stays accounted for. */
export async function deleteInvoice(ctx: Ctx, id: string): Promise<Invoice> {
  return inTransaction(ctx, async (ctx) => {
    const current = await lockOrFail(ctx, id);
    if (current.status !== 'draft') {
      throw invalidState(`Only draft invoices can be deleted; this one is ${current.status}`);
    }
    const invoice = await loadInvoice(ctx, id);
    await setInvoice(ctx, id, { deleted_at: ctx.clock.now(), updated_at: ctx.clock.now() });
    await emit(ctx, 'invoice.deleted', invoice);
    return invoice;
  });
}

type Locked = Awaited<ReturnType<typeof lockOrFail>>;

/**
 * draft -> unpaid, announced to the domains that follow issued invoices (the ledger), then the
 * customer's credit in its currency applied to it. Answers whether that credit paid it in full, and
 * the invoice's row as issued when no credit changed it.
 */
async function markIssued(
  ctx: TxCtx,
  current: Locked,
): Promise<{ paid: boolean; row?: queries.InvoiceWithCustomer }> {
  const now = ctx.clock.now();
  const { credit_balance_minor: credit, ...issued } = await queries.issueDraft(
    ctx.db,
    ctx.businessId,
    current.id,
    {
      issue_date: current.issue_date ?? (await today(ctx)),
      issued_at: now,
      updated_at: now,
    },
  );
  await ctx.hooks.announce(ctx, 'invoiceIssued', { invoice: factsOf(issued) });
  // Credit that arrives after the balance was read is applied to the customer's next invoice.
  if (Number(credit ?? 0) > 0) return { paid: await applyCustomerCredit(ctx, issued) };
  return { paid: false, row: { ...issued, customer_name: current.customer_name } };
}

/**
 * The customer's credit in the invoice's currency, applied as it is issued: as much as the invoice
 * owes or the balance holds, whichever is less, as a payment with method `credit` (which finance posts
 * Dr 2300 / Cr 1200). The balance row is locked before it is read, so concurrent issues take from it
 * one after another; the relative update and the table's CHECK keep it from ever going below zero.
 * True when the credit paid the invoice in full.
 */
async function applyCustomerCredit(ctx: TxCtx, invoice: InvoiceRow): Promise<boolean> {
  const balance = await lockCustomerCredit(ctx.db, ctx.businessId, invoice.customer_id, invoice.currency);
  const amount = Math.min(balance, amountDueOf(invoice));
  if (amount <= 0) return false;
  if (!(await takeCustomerCredit(ctx.db, ctx.businessId, invoice.customer_id, invoice.currency, amount))) {
    throw new Error(`The credit balance of customer ${invoice.customer_id} changed under its lock`);
  }
  const { payment, fullyPaid, facts } = await addPayment(ctx, invoice, {
    amountMinor: amount,
    method: 'credit',
    date: invoice.issue_date!,
    reference: null,
  });
  await emit(ctx, 'payment.created', toPayment(payment));
  await announcePayment(ctx, facts, payment);
  if (fullyPaid) await ctx.hooks.announce(ctx, 'invoicePaid', { invoice: facts });
  return fullyPaid;
}

/** `invoice.paid` after the `invoice.updated` of an issue, when customer credit paid the invoice. */
async function announcePaidByCredit(ctx: TxCtx, id: string): Promise<void> {
  await emit(ctx, 'invoice.paid', await loadInvoice(ctx, id));
}

export async function issueInvoice(ctx: Ctx, id: string): Promise<Invoice> {
  return inTransaction(ctx, async (ctx) => {
    let paid = false;
    const invoice = await transition(ctx, id, async (ctx, current) => {
      if (current.status !== 'draft') {
        throw invalidState(`Only draft invoices can be issued; this one is ${current.status}`);
      }
      const issued = await markIssued(ctx, current);
      paid = issued.paid;
      return issued.row;
    });
    if (paid) await announcePaidByCredit(ctx, id);
    return invoice;
  });
}

/**
 * Mails the invoice with its PDF and hosted page link (docs/decisions.md D148, D150). A draft is issued
 * first, in the same transaction; a void invoice is refused; a sent one may be sent again.
 */
export async function sendInvoice(ctx: Ctx, id: string, input: SendDocumentBody): Promise<Invoice> {
  return inTransaction(ctx, async (ctx) => {
    const current = await lockOrFail(ctx, id);
    if (current.status === 'void') throw invalidState('A void invoice cannot be sent');
    const customer = await customerOf(ctx, current.customer_id);
    const to = recipientAddress(customer, input);
    if (!to) throw noRecipient();
    const paid = current.status === 'draft' && (await markIssued(ctx, current));
    const now = ctx.clock.now();
    await setInvoice(ctx, id, { sent_at: now, updated_at: now });
    const invoice = await loadInvoice(ctx, id);
    await mailDocument(ctx, { kind: 'invoice', document: invoice }, customer, { ...input, to });
    await emit(ctx, 'invoice.updated', invoice);
    if (paid) await announcePaidByCredit(ctx, id);
    return invoice;
  });
}

/** The invoice as a PDF file. */
export async function invoicePdf(ctx: Ctx, id: string) {
  return documentPdf(ctx, { kind: 'invoice', document: await loadInvoice(ctx, id) });
}

/**
 * A payment of the locked invoice: its row, and the invoice's amount paid raised by one relative
 * update (paid when it covers what is due).
 */
async function addPayment(
  ctx: TxCtx,
  current: InvoiceRow,
  input: {
    amountMinor: number;
    method: Payment['payment_method'];
    date: string;
    reference: string | null;
    /** A payment a provider confirmed: the provider and its own id of the payment. */
    provider?: { name: string; paymentId: string };
    /** The bank account the money reached (docs/decisions.md D273). */
    bankAccountId?: string | null;
    /** The rate the money came in at, when given (docs/decisions.md D278). */
    exchangeRate?: string | null;
  },
) {
  const now = ctx.clock.now();
  const payment = await queries.insertPayment(ctx.db, {
    business_id: ctx.businessId,
    id: newId('pay'),
    invoice_id: current.id,
    amount_minor: input.amountMinor,
    currency: current.currency,
    payment_method: input.method,
    payment_date: input.date,
    reference: input.reference,
    provider: input.provider?.name ?? null,
    provider_payment_id: input.provider?.paymentId ?? null,
    bank_account_id: input.bankAccountId ?? null,
    exchange_rate: input.exchangeRate ?? null,
    created_at: now,
  });
  const fullyPaid = input.amountMinor === amountDueOf(current);
  const updated = await queries.addPayment(ctx.db, ctx.businessId, current.id, {
    amountMinor: input.amountMinor,
    fullyPaid,
    fromCredit: input.method === 'credit',
    now,
  });
  return { payment, fullyPaid, facts: factsOf(updated) };
}

/** A payment announced to the domains that follow payments (the ledger). */
async function announcePayment(ctx: TxCtx, facts: InvoiceFacts, payment: PaymentRow): Promise<void> {
  await ctx.hooks.announce(ctx, 'invoicePaymentRecorded', {
    invoice: facts,
    payment: {
      id: payment.id,
      amountMinor: Number(payment.amount_minor),
      method: payment.payment_method,
      paymentDate: payment.payment_date,
      provider: payment.provider,
      bankAccountId: payment.bank_account_id,
      exchangeRate: payment.exchange_rate === null ? null : String(payment.exchange_rate),
    },
  });
}

/**
 * What follows a payment added to an invoice, whoever recorded it: `payment.created` and
 * `invoice.updated`, the payment announced to the ledger, and `invoice.paid` when it completed the
 * invoice. Returns the invoice as it is now.
 */
async function paymentAdded(
  ctx: TxCtx,
  id: string,
  { payment, fullyPaid, facts }: Awaited<ReturnType<typeof addPayment>>,
): Promise<Invoice> {
  const invoice = await loadInvoice(ctx, id);
  await emitEach(ctx, [
    ['payment.created', toPayment(payment)],
    ['invoice.updated', invoice],
    ...(fullyPaid ? [['invoice.paid', invoice] as const] : []),
  ]);
  await announcePayment(ctx, facts, payment);
  if (fullyPaid) await ctx.hooks.announce(ctx, 'invoicePaid', { invoice: facts });
  return invoice;
}

export async function recordPayment(ctx: Ctx, id: string, input: CreatePaymentBody): Promise<Invoice> {
  return inTransaction(ctx, async (ctx) => {
    const current = await lockOrFail(ctx, id);
    if (current.status === 'draft') throw invalidState('Issue the invoice before recording payments');
    if (current.status !== 'unpaid')
      throw invalidState(`Cannot record a payment on a ${current.status} invoice`);
    const amount = toMinor(input.amount, current.currency, 'amount');
    const due = amountDueOf(current);
    if (amount > due) {
      throw new ApiError('VALIDATION_ERROR', 'Payment exceeds the amount due', [
        { field: 'amount', message: `At most ${toMajor(due, current.currency)} ${current.currency} is due` },
      ]);
    }
    const added = await addPayment(ctx, current, {
      amountMinor: amount,
      method: input.payment_method,
      date: input.payment_date ?? (await today(ctx)),
      reference: input.reference ?? null,
      bankAccountId: input.bank_account_id ?? null,
      exchangeRate: input.exchange_rate ?? null,
    });
    return paymentAdded(ctx, id, added);
  });
}

/**
 * A payment a bank statement line shows (docs/decisions.md D273), recorded in the caller's
 * transaction by the line's match: to the bank account, dated the line's date. Refusals are 422 on
 * `field` (the match's), saying what the invoice allows. Returns the payment's id.
 */
export async function recordBankPayment(
  ctx: TxCtx,
  id: string,
  paid: {
    amountMinor: number;
    date: string;
    reference: string | null;
    bankAccountId: string;
    currency: string;
  },
  field: string,
): Promise<string> {
  const current = await queries.lockInvoice(ctx.db, ctx.businessId, id);
  if (!current) throw invalid(field, 'No such invoice');
  const name = `Invoice ${current.number}`;
  if (current.status !== 'unpaid')
    throw invalid(field, `${name} is ${current.status}: only unpaid invoices take payments`);
  if (current.currency !== paid.currency) {
    throw invalid(field, `${name} is in ${current.currency}; the bank account is in ${paid.currency}`);
  }
  const due = amountDueOf(current);
  if (paid.amountMinor > due) {
    throw invalid(field, `${name} owes ${due} (minor units of ${current.currency}); match at most that`);
  }
  const added = await addPayment(ctx, current, {
    amountMinor: paid.amountMinor,
    method: 'bank_transfer',
    date: paid.date,
    reference: paid.reference,
    bankAccountId: paid.bankAccountId,
  });
  await paymentAdded(ctx, id, added);
  return added.payment.id;
}

/**
 * Takes back a payment a bank match recorded, as its match is undone (docs/decisions.md D273): the
 * payment goes, the invoice owes its amount again (unpaid once more if it was paid), and the ledger
 * reverses the payment's entry on `date`. Points a paid invoice earned stay earned.
 */
export async function reverseBankPayment(ctx: TxCtx, paymentId: string, date: string): Promise<void> {
  const payment = await queries.findPayment(ctx.db, ctx.businessId, paymentId);
  if (!payment) return;
  const current = await lockOrFail(ctx, payment.invoice_id);
  await queries.deletePayment(ctx.db, ctx.businessId, paymentId);
  const amount = Number(payment.amount_minor);
  const updated = await setInvoice(ctx, current.id, {
    amount_paid_minor: Number(current.amount_paid_minor) - amount,
    ...(current.status === 'paid' && { status: 'unpaid' as const, paid_at: null }),
    updated_at: ctx.clock.now(),
  });
  await ctx.hooks.announce(ctx, 'invoicePaymentReversed', {
    invoice: factsOf(updated),
    paymentId,
    date,
  });
  await emit(ctx, 'invoice.updated', await loadInvoice(ctx, current.id));
}

/**
 * A card payment a provider confirmed for the invoice (docs/decisions.md D270), in the caller's
 * transaction: what the invoice still owes is recorded as its payment (method `card`, the provider's
 * id of the payment as its reference), and whatever was paid beyond that (a second tab, an invoice
 * paid or credited meanwhile) goes to the customer's credit balance. Returns the payment (null when
 * the invoice owed nothing) and the amount credited.
 */
export async function recordProviderPayment(
  ctx: TxCtx,
  id: string,
  paid: { provider: string; paymentId: string; amountMinor: number; date: string },
): Promise<{ paymentId: string | null; creditedMinor: number }> {
  const current = await lockOrFail(ctx, id);
  const due = current.status === 'unpaid' ? amountDueOf(current) : 0;
  const toInvoice = Math.min(due, paid.amountMinor);
  const credited = paid.amountMinor - toInvoice;
  let paymentId: string | null = null;
  if (toInvoice > 0) {
    const added = await addPayment(ctx, current, {
      amountMinor: toInvoice,
      method: 'card',
      date: paid.date,
      reference: paid.paymentId,
      provider: { name: paid.provider, paymentId: paid.paymentId },
    });
    paymentId = added.payment.id;
    await paymentAdded(ctx, id, added);
  }
  if (credited > 0) {
    await addCustomerCredit(ctx.db, ctx.businessId, current.customer_id, current.currency, credited);
    await ctx.hooks.announce(ctx, 'customerCreditReceived', {
      customerId: current.customer_id,
      currency: current.currency,
      amountMinor: credited,
      date: paid.date,
      sourceId: paid.paymentId,
      description: `Paid online beyond what invoice ${current.number} owed`,
      provider: paid.provider,
    });
  }
  return { paymentId, creditedMinor: credited };
}

export async function voidInvoice(ctx: Ctx, id: string): Promise<Invoice> {
  return transition(ctx, id, async (ctx, current) => {
    if (current.status !== 'draft' && current.status !== 'unpaid') {
      throw invalidState(`Cannot void a ${current.status} invoice`);
    }
    if (Number(current.amount_paid_minor) > 0)
      throw invalidState('Cannot void an invoice with payments recorded');
    if (Number(current.credit_notes_minor) > 0)
      throw invalidState('Cannot void an invoice with credit notes; void them first');
    const now = ctx.clock.now();
    const voided = await setInvoice(ctx, id, { status: 'void', voided_at: now, updated_at: now });
    await ctx.hooks.announce(ctx, 'invoiceVoided', {
      invoice: factsOf(voided),
      wasIssued: current.status === 'unpaid',
      voidedOn: await today(ctx),
    });
  });
}

/** The invoice a credit note is made against, locked; null when the business has no such invoice. */
export const lockInvoiceForCredit = (ctx: TxCtx, id: string) =>
  queries.lockInvoice(ctx.db, ctx.businessId, id);

export type CreditableInvoice = NonNullable<Awaited<ReturnType<typeof lockInvoiceForCredit>>>;

/**
 * A credit note's effect on its invoice (locked by the caller): `creditMinor` off what it owes and
 * `totalMinor` onto its credit notes' totals, or back again (negative amounts, a void). An unpaid
 * invoice left owing nothing becomes `paid` (invoice.paid, and the hook loyalty follows); a paid one
 * that owes something again becomes `unpaid`. Announced as `invoice.updated`.
 */
export async function applyCreditNote(
  ctx: TxCtx,
  current: CreditableInvoice,
  change: { creditMinor: number; totalMinor: number },
): Promise<Invoice> {
  const dueAfter = amountDueOf(current) - change.creditMinor;
  const status =
    current.status === 'unpaid' && dueAfter === 0
      ? 'paid'
      : current.status === 'paid' && dueAfter > 0
        ? 'unpaid'
        : undefined;
  const updated = await queries.addCredit(
    ctx.db,
    ctx.businessId,
    current.id,
    { ...change, ...(status && { status }) },
    ctx.clock.now(),
  );
  const invoice = await loadInvoice(ctx, current.id);
  await emit(ctx, 'invoice.updated', invoice);
  if (status === 'paid') {
    await emit(ctx, 'invoice.paid', invoice);
    await ctx.hooks.announce(ctx, 'invoicePaid', { invoice: factsOf(updated) });
  }
  return invoice;
}
