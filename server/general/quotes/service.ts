import type { Pagination } from '../../../contract/common/pagination.js';
import type { Invoice } from '../../../contract/general/invoices.js';
import type {
  CreateQuoteBody,
  ListQuotesQuery,
  Quote,
  UpdateQuoteBody,
} from '../../../contract/general/quotes.js';
import { addDays, today } from '../../platform/calendar.js';
import { type Ctx, type TxCtx, inTransaction } from '../../platform/context.js';
import type { QuotesTable } from '../../platform/db/types.js';
import { invalidState, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { emit } from '../../platform/outbox.js';
import { paginationOf } from '../../platform/pagination.js';
import { baseCurrency } from '../../platform/settings.js';
import type { Updateable } from 'kysely';
import {
  priceLines,
  requireCustomer,
  storedLineOf,
  storedLines,
  totalsOf,
  updateLines,
  writeLines,
} from '../documents/lines.js';
import { itemsOf, nextSequenceValue } from '../documents/queries.js';
import { createDraft } from '../invoices/service.js';
import type { SendDocumentBody } from '../../../contract/general/documents.js';
import {
  customerOf,
  documentPdf,
  mailDocument,
  noRecipient,
  recipientAddress,
} from '../documents/delivery.js';
import { hostedUrl } from '../documents/hosted.js';
import { reportedStatus, toQuote } from './mappers.js';
import * as queries from './queries.js';

/** Days a converted quote's invoice is due after the conversion. */
const INVOICE_TERM_DAYS = 30;
const formatNumber = (n: number) => `QUO-${String(n).padStart(6, '0')}`;

/** The quote as its detail endpoint serialises it. */
async function loadQuote(ctx: Ctx, id: string): Promise<Quote> {
  const row = await queries.findQuote(ctx.db, ctx.businessId, id);
  if (!row) throw notFound('Quote');
  const [items, day] = await Promise.all([itemsOf(ctx.db, ctx.businessId, 'quote_items', [id]), today(ctx)]);
  return toQuote(row, items, day, hostedUrl(ctx, 'quote', row));
}

async function lockOrFail(ctx: TxCtx, id: string) {
  const row = await queries.lockQuote(ctx.db, ctx.businessId, id);
  if (!row) throw notFound('Quote');
  return row;
}

type Locked = NonNullable<Awaited<ReturnType<typeof queries.lockQuote>>>;

/**
 * Locks the quote, lets `change` check its state (as reported: `expired` included) and write, then
 * emits `quote.updated` with the result, all in one transaction.
 */
async function transition(
  ctx: Ctx,
  id: string,
  change: (ctx: TxCtx, current: Locked, status: Quote['status']) => Promise<Updateable<QuotesTable>>,
): Promise<Quote> {
  return inTransaction(ctx, async (ctx) => {
    const current = await lockOrFail(ctx, id);
    const patch = await change(ctx, current, reportedStatus(current, await today(ctx)));
    await queries.updateQuote(ctx.db, ctx.businessId, id, { ...patch, updated_at: ctx.clock.now() });
    const quote = await loadQuote(ctx, id);
    await emit(ctx, 'quote.updated', quote);
    return quote;
  });
}

export async function createQuote(ctx: Ctx, input: CreateQuoteBody): Promise<Quote> {
  const currency = input.currency ?? (await baseCurrency(ctx));
  return inTransaction(ctx, async (ctx) => {
    await requireCustomer(ctx.db, ctx.businessId, input.customer_id);
    const lines = await priceLines(ctx, input.items, currency);
    // Taken last, so the counter's row lock is held for as short a time as possible.
    const number = formatNumber(await nextSequenceValue(ctx.db, ctx.businessId, 'quote'));
    const id = newId('quo');
    const now = ctx.clock.now();
    await queries.insertQuote(ctx.db, {
      business_id: ctx.businessId,
      id,
      number,
      customer_id: input.customer_id,
      status: 'draft',
      currency,
      valid_until: input.valid_until,
      notes: input.notes ?? null,
      ...totalsOf(lines, currency),
      invoice_id: null,
      created_at: now,
      updated_at: now,
    });
    await writeLines(ctx, 'quote_items', id, storedLines(lines));
    const quote = await loadQuote(ctx, id);
    await emit(ctx, 'quote.created', quote);
    return quote;
  });
}

export async function listQuotes(
  ctx: Ctx,
  query: ListQuotesQuery,
): Promise<{ data: Quote[]; pagination: Pagination }> {
  const day = await today(ctx);
  const { rows, total } = await queries.listQuotes(ctx.db, ctx.businessId, query, day);
  const items = await itemsOf(
    ctx.db,
    ctx.businessId,
    'quote_items',
    rows.map((r) => r.id),
  );
  const data = rows.map((row) =>
    toQuote(
      row,
      items.filter((i) => i.document_id === row.id),
      day,
      hostedUrl(ctx, 'quote', row),
    ),
  );
  return { data, pagination: paginationOf(query, total) };
}

export const getQuote = (ctx: Ctx, id: string): Promise<Quote> => loadQuote(ctx, id);

const onlyDrafts = (status: string, what: string) =>
  invalidState(`Only draft quotes can be ${what}; this one is ${status}`);

/** Partial update of a draft; an empty one changes nothing and returns the draft as it is. */
export async function updateQuote(ctx: Ctx, id: string, input: UpdateQuoteBody): Promise<Quote> {
  if (Object.values(input).every((value) => value === undefined)) {
    const quote = await loadQuote(ctx, id);
    if (quote.status !== 'draft') throw onlyDrafts(quote.status, 'updated');
    return quote;
  }
  return transition(ctx, id, async (ctx, current, status) => {
    if (current.status !== 'draft') throw onlyDrafts(status, 'updated');
    if (input.customer_id !== undefined) await requireCustomer(ctx.db, ctx.businessId, input.customer_id);
    const currency = input.currency ?? current.currency;
    const totals = await updateLines(ctx, 'quote_items', current, input.items, currency);
    return {
      ...(input.customer_id !== undefined && { customer_id: input.customer_id }),
      ...(input.valid_until !== undefined && { valid_until: input.valid_until }),
      ...(input.notes !== undefined && { notes: input.notes }),
      ...totals,
      currency,
    };
  });
}

/** Drafts only; the row is kept, marked deleted, so every number ever given stays accounted for. */
export async function deleteQuote(ctx: Ctx, id: string): Promise<Quote> {
  return inTransaction(ctx, async (ctx) => {
    const current = await lockOrFail(ctx, id);
    if (current.status !== 'draft') throw onlyDrafts(reportedStatus(current, await today(ctx)), 'deleted');
    const quote = await loadQuote(ctx, id);
    const now = ctx.clock.now();
    await queries.updateQuote(ctx.db, ctx.businessId, id, { deleted_at: now, updated_at: now });
    await emit(ctx, 'quote.deleted', quote);
    return quote;
  });
}

/**
 * draft -> sent, mailed with its PDF and hosted page link to `to` or the customer's email; without
 * either it is only marked sent, to be handed over another way (docs/decisions.md D149). The demo data
 * marks its quotes sent without mail (`mail: false`).
 */
export async function sendQuote(
  ctx: Ctx,
  id: string,
  input: SendDocumentBody,
  options: { mail: boolean } = { mail: true },
): Promise<Quote> {
  return inTransaction(ctx, async (ctx) => {
    const quote = await transition(ctx, id, async (_ctx, current, status) => {
      if (current.status !== 'draft')
        throw invalidState(`Only draft quotes can be sent; this one is ${status}`);
      return { status: 'sent', sent_at: ctx.clock.now() };
    });
    if (!options.mail) return quote;
    const customer = await customerOf(ctx, quote.customer_id);
    const to = recipientAddress(customer, input);
    if (to) await mailDocument(ctx, { kind: 'quote', document: quote }, customer, { ...input, to });
    else if (input.cc?.length) throw noRecipient();
    return quote;
  });
}

/** The quote as a PDF file. */
export async function quotePdf(ctx: Ctx, id: string) {
  return documentPdf(ctx, { kind: 'quote', document: await loadQuote(ctx, id) });
}

export const acceptQuote = (ctx: Ctx, id: string) =>
  transition(ctx, id, async (_ctx, _current, status) => {
    if (status !== 'sent')
      throw invalidState(`Only sent quotes within valid_until can be accepted; this one is ${status}`);
    return { status: 'accepted', accepted_at: ctx.clock.now() };
  });

export const declineQuote = (ctx: Ctx, id: string) =>
  transition(ctx, id, async (_ctx, current, status) => {
    if (current.status !== 'sent')
      throw invalidState(`Only sent quotes can be declined; this one is ${status}`);
    return { status: 'declined', declined_at: ctx.clock.now() };
  });

/**
 * An accepted quote becomes a draft invoice with the same customer, lines (exactly as stored), totals,
 * currency and notes; the quote is `converted` and names it. Both events in the same transaction.
 */
export async function convertQuote(ctx: Ctx, id: string): Promise<Invoice> {
  return inTransaction(ctx, async (ctx) => {
    const current = await lockOrFail(ctx, id);
    const day = await today(ctx);
    const status = reportedStatus(current, day);
    if (current.status !== 'accepted') {
      throw invalidState(`Only accepted quotes can be converted; this one is ${status}`);
    }
    const items = await itemsOf(ctx.db, ctx.businessId, 'quote_items', [id]);
    const due = addDays(day, INVOICE_TERM_DAYS);
    const invoice = await createDraft(ctx, {
      customer_id: current.customer_id,
      currency: current.currency,
      issue_date: null,
      due_date: due,
      notes: current.notes,
      totals: {
        subtotal_minor: current.subtotal_minor,
        tax_minor: current.tax_minor,
        total_minor: current.total_minor,
      },
      lines: items.map(storedLineOf),
    });
    const now = ctx.clock.now();
    await queries.updateQuote(ctx.db, ctx.businessId, id, {
      status: 'converted',
      invoice_id: invoice.id,
      converted_at: now,
      updated_at: now,
    });
    await emit(ctx, 'quote.updated', await loadQuote(ctx, id));
    return invoice;
  });
}
