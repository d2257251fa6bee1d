import type { Pagination } from '../../../contract/common/pagination.js';
import type {
  CreateCreditNoteBody,
  CreditNote,
  ListCreditNotesQuery,
} from '../../../contract/general/credit-notes.js';
import type { SendDocumentBody } from '../../../contract/general/documents.js';
import { today } from '../../platform/calendar.js';
import { type Ctx, type TxCtx, inTransaction } from '../../platform/context.js';
import { invalid, invalidState, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { divideHalfUp, toMajor, toMinor } from '../../platform/money.js';
import { emit } from '../../platform/outbox.js';
import { paginationOf } from '../../platform/pagination.js';
import { addCustomerCredit, takeCustomerCredit } from '../customers/queries.js';
import {
  customerOf,
  documentPdf,
  mailDocument,
  noRecipient,
  recipientAddress,
} from '../documents/delivery.js';
import { documentUrl } from '../documents/hosted.js';
import { priceLines, storedLines, totalsOf, writeLines, type StoredLine } from '../documents/lines.js';
import { itemsOf, nextSequenceValue } from '../documents/queries.js';
import { applyCreditNote, lockInvoiceForCredit, type CreditableInvoice } from '../invoices/service.js';
import { factsOf, toCreditNote } from './mappers.js';
import { cardRefundTarget, requestCardRefund } from '../online-payments/refunds.js';
import * as queries from './queries.js';

/**
 * Credit notes (docs/decisions.md D241): each against one issued or paid invoice, its total split
 * between what the invoice still owes, a refund and the customer's credit balance; posted to the
 * ledger by finance (the `creditNoteIssued` hook) in the same transaction.
 */

const formatNumber = (n: number) => `CN-${String(n).padStart(6, '0')}`;

async function loadCreditNote(ctx: Ctx, id: string): Promise<CreditNote> {
  const row = await queries.findCreditNote(ctx.db, ctx.businessId, id);
  if (!row) throw notFound('Credit note');
  return toCreditNote(
    row,
    await itemsOf(ctx.db, ctx.businessId, 'credit_note_items', [id]),
    documentUrl(ctx, 'credit_note', id),
  );
}

export const getCreditNote = (ctx: Ctx, id: string): Promise<CreditNote> => loadCreditNote(ctx, id);

export async function listCreditNotes(
  ctx: Ctx,
  query: ListCreditNotesQuery,
): Promise<{ data: CreditNote[]; pagination: Pagination }> {
  const { rows, total } = await queries.listCreditNotes(ctx.db, ctx.businessId, query);
  const items = await itemsOf(
    ctx.db,
    ctx.businessId,
    'credit_note_items',
    rows.map((r) => r.id),
  );
  const data = rows.map((row) =>
    toCreditNote(
      row,
      items.filter((i) => i.document_id === row.id),
      documentUrl(ctx, 'credit_note', row.id),
    ),
  );
  return { data, pagination: paginationOf(query, total) };
}

const money = (minor: number, currency: string) => `${toMajor(minor, currency)} ${currency}`;

/** The credit note's lines and totals: its items priced as invoice lines, or an amount split as the invoice is. */
async function priceCreditNote(ctx: TxCtx, input: CreateCreditNoteBody, invoice: CreditableInvoice) {
  const currency = invoice.currency;
  if (input.items) {
    const lines = await priceLines(ctx, input.items, currency);
    return { field: 'items', lines: storedLines(lines), totals: totalsOf(lines, currency) };
  }
  const amount = toMinor(input.amount!, currency, 'amount');
  const invoiceTotal = Number(invoice.total_minor);
  // Net and tax in the invoice's proportion; an invoice of total 0 has nothing left to credit anyway.
  const tax =
    invoiceTotal === 0
      ? 0
      : Number(divideHalfUp(BigInt(amount) * BigInt(invoice.tax_minor), BigInt(invoiceTotal)));
  const lines: StoredLine[] = [];
  return {
    field: 'amount',
    lines,
    totals: { subtotal_minor: amount - tax, tax_minor: tax, total_minor: amount },
  };
}

export async function createCreditNote(ctx: Ctx, input: CreateCreditNoteBody): Promise<CreditNote> {
  if (input.items === undefined && input.amount === undefined)
    throw invalid('amount', 'Required: give `items` or `amount`');
  if (input.items !== undefined && input.amount !== undefined)
    throw invalid('amount', 'Give `items` or `amount`, not both');
  if (input.refund_amount > 0 && input.refund_method === undefined)
    throw invalid('refund_method', 'Required when refund_amount is above 0');
  return inTransaction(ctx, async (ctx) => {
    const invoice = await lockInvoiceForCredit(ctx, input.invoice_id);
    if (!invoice) throw invalid('invoice_id', 'Unknown invoice');
    if (invoice.status === 'draft' || invoice.status === 'void') {
      throw invalidState(`Only issued or paid invoices can be credited; this one is ${invoice.status}`);
    }
    const currency = invoice.currency;
    const { field, lines, totals } = await priceCreditNote(ctx, input, invoice);
    const total = totals.total_minor;
    const left = Number(invoice.total_minor) - Number(invoice.credit_notes_minor);
    if (total > left) {
      throw invalid(field, `At most ${money(left, currency)} is left to credit on ${invoice.number}`);
    }
    if (total <= 0) throw invalid(field, 'The credit note total must be above 0');
    const credit = toMinor(input.credit_amount, currency, 'credit_amount');
    const refund = toMinor(input.refund_amount, currency, 'refund_amount');
    const customerCredit = toMinor(input.customer_credit_amount, currency, 'customer_credit_amount');
    if (credit + refund + customerCredit !== total) {
      throw invalid(
        'credit_amount',
        `credit_amount + refund_amount + customer_credit_amount must add up to the total, ${money(total, currency)}`,
      );
    }
    const due =
      Number(invoice.total_minor) - Number(invoice.amount_paid_minor) - Number(invoice.amount_credited_minor);
    if (credit > due) {
      throw invalid('credit_amount', `At most ${money(due, currency)} is due on ${invoice.number}`);
    }
    const issueDate = input.issue_date ?? (await today(ctx));
    if (invoice.issue_date && issueDate < invoice.issue_date) {
      throw invalid('issue_date', `Must not be before the invoice's issue date, ${invoice.issue_date}`);
    }
    const refundMethod = refund > 0 ? (input.refund_method ?? null) : null;
    // A card refund of an invoice paid online goes back through the provider (docs/decisions.md D271).
    const toCard = refundMethod === 'card' ? await cardRefundTarget(ctx, invoice, refund) : null;

    // Taken late, so the counter's row lock is held for as short a time as possible.
    const number = formatNumber(await nextSequenceValue(ctx.db, ctx.businessId, 'credit_note'));
    const id = newId('cn');
    const now = ctx.clock.now();
    const row = {
      business_id: ctx.businessId,
      id,
      number,
      invoice_id: invoice.id,
      customer_id: invoice.customer_id,
      status: 'issued' as const,
      currency,
      issue_date: issueDate,
      reason: input.reason,
      ...totals,
      credit_minor: credit,
      refund_minor: refund,
      refund_method: refundMethod,
      refund_status: refund === 0 ? null : toCard ? ('pending' as const) : ('succeeded' as const),
      refund_provider: toCard?.provider ?? null,
      refund_payment_id: toCard?.paymentId ?? null,
      refund_provider_id: null,
      refund_settled_at: refund > 0 && !toCard ? now : null,
      customer_credit_minor: customerCredit,
      created_at: now,
      updated_at: now,
      voided_at: null,
      sent_at: null,
    };
    await queries.insertCreditNote(ctx.db, row);
    await writeLines(ctx, 'credit_note_items', id, lines);
    await applyCreditNote(ctx, invoice, { creditMinor: credit, totalMinor: total });
    await ctx.hooks.announce(ctx, 'creditNoteIssued', { creditNote: factsOf(row, invoice.number) });
    // The balance row after the sales day the hook wrote, in the order an issue takes them.
    if (customerCredit > 0) {
      await addCustomerCredit(ctx.db, ctx.businessId, invoice.customer_id, currency, customerCredit);
    }
    if (toCard) await requestCardRefund(ctx, id);
    const creditNote = await loadCreditNote(ctx, id);
    await emit(ctx, 'credit_note.created', creditNote);
    return creditNote;
  });
}

/**
 * Voids a credit note nothing of which was refunded or used: its customer credit must all still be in
 * the customer's balance, and is taken back out. The invoice is locked first, as a new credit note
 * and an issue lock it, so the two never wait on each other in opposite orders.
 */
export async function voidCreditNote(ctx: Ctx, id: string): Promise<CreditNote> {
  return inTransaction(ctx, async (ctx) => {
    const found = await queries.findCreditNote(ctx.db, ctx.businessId, id);
    if (!found) throw notFound('Credit note');
    const invoice = await lockInvoiceForCredit(ctx, found.invoice_id);
    const current = await queries.lockCreditNote(ctx.db, ctx.businessId, id);
    if (!invoice || !current) throw notFound('Credit note');
    if (current.status === 'void') throw invalidState('The credit note is already void');
    if (Number(current.refund_minor) > 0) {
      throw invalidState('A credit note with a refund cannot be voided: the money was paid back');
    }
    await applyCreditNote(ctx, invoice, {
      creditMinor: -Number(current.credit_minor),
      totalMinor: -Number(current.total_minor),
    });
    const now = ctx.clock.now();
    await queries.updateCreditNote(ctx.db, ctx.businessId, id, {
      status: 'void',
      voided_at: now,
      updated_at: now,
    });
    await ctx.hooks.announce(ctx, 'creditNoteVoided', {
      creditNote: factsOf(current, found.invoice_number),
      voidedOn: await today(ctx),
    });
    // Taken after the sales day the hook wrote, in the order an issue takes them (docs/decisions.md
    // D248); a refusal here rolls the whole void back.
    const customerCredit = Number(current.customer_credit_minor);
    if (
      customerCredit > 0 &&
      !(await takeCustomerCredit(
        ctx.db,
        ctx.businessId,
        current.customer_id,
        current.currency,
        customerCredit,
      ))
    ) {
      throw invalidState("Part of the credit note's customer credit was already used on an invoice");
    }
    return loadCreditNote(ctx, id);
  });
}

/** Mails the credit note with its PDF and hosted page link; a void one is refused. */
export async function sendCreditNote(ctx: Ctx, id: string, input: SendDocumentBody): Promise<CreditNote> {
  return inTransaction(ctx, async (ctx) => {
    const current = await queries.lockCreditNote(ctx.db, ctx.businessId, id);
    if (!current) throw notFound('Credit note');
    if (current.status === 'void') throw invalidState('A void credit note cannot be sent');
    const customer = await customerOf(ctx, current.customer_id);
    const to = recipientAddress(customer, input);
    if (!to) throw noRecipient();
    const now = ctx.clock.now();
    await queries.updateCreditNote(ctx.db, ctx.businessId, id, { sent_at: now, updated_at: now });
    const creditNote = await loadCreditNote(ctx, id);
    await mailDocument(ctx, { kind: 'credit_note', document: creditNote }, customer, { ...input, to });
    return creditNote;
  });
}

/** The credit note as a PDF file. */
export async function creditNotePdf(ctx: Ctx, id: string) {
  return documentPdf(ctx, { kind: 'credit_note', document: await loadCreditNote(ctx, id) });
}
