import type { SendDocumentBody } from '../../../contract/general/documents.js';
import type { Ctx, TxCtx } from '../../platform/context.js';
import type { CustomerRow } from '../../platform/db/types.js';
import { invalid, notFound } from '../../platform/errors.js';
import { queueMail, senderNamed } from '../../platform/mail.js';
import { escapeHtml } from '../../platform/pages.js';
import { findBusiness } from '../../platform/settings.js';
import { today } from '../../platform/calendar.js';
import * as customers from '../customers/queries.js';
import { formatMoney } from './format.js';
import { renderOffThread } from './render.js';
import {
  pdfFileName,
  type CustomerPdfSource,
  type DocumentIssuer,
  type DocumentRecipient,
  type DocumentSource,
  type PdfSource,
  type ReportView,
} from './pdf.js';

/**
 * What customers receive (docs/decisions.md D146, D150): the document as a PDF, and the mail that carries it
 * with the link to its hosted page, queued in the mail outbox in the caller's transaction.
 */

type Business = NonNullable<Awaited<ReturnType<typeof findBusiness>>>;

const issuerOf = (business: Business): DocumentIssuer => ({
  name: business.name,
  address: business.address,
  tax_number: business.tax_number,
  payment_instructions: business.payment_instructions,
});

const recipientOf = (customer: CustomerRow): DocumentRecipient => ({
  name: customer.name,
  company: customer.company,
  email: customer.email,
  address: customer.address,
});

async function partiesOf(ctx: Ctx, customerId: string) {
  const [business, customer] = await Promise.all([
    findBusiness(ctx),
    customers.findCustomer(ctx.db, ctx.businessId, customerId),
  ]);
  if (!business || !customer) throw notFound(business ? 'Customer' : 'Business');
  return { business, customer };
}

/** The document as a PDF file. */
export async function documentPdf(
  ctx: Ctx,
  source: CustomerPdfSource,
): Promise<{ filename: string; content: Buffer }> {
  const { business, customer } = await partiesOf(ctx, source.document.customer_id);
  const content = await renderOffThread(ctx.state, source, issuerOf(business), recipientOf(customer));
  return { filename: pdfFileName(source), content };
}

/** One of the business's own reports as a PDF file, under the business's name. */
export async function reportPdf(
  ctx: Ctx,
  report: ReportView,
): Promise<{ filename: string; content: Buffer }> {
  const business = await findBusiness(ctx);
  if (!business) throw notFound('Business');
  const source: PdfSource = { kind: 'report', document: report };
  const content = await renderOffThread(ctx.state, source, issuerOf(business), null);
  return { filename: pdfFileName(source), content };
}

/**
 * Where a document's mail goes: `to`, else the customer's email; null when there is neither.
 * Read before anything changes, so a refusal leaves the document as it was.
 */
export function recipientAddress(customer: CustomerRow, input: SendDocumentBody): string | null {
  return input.to ?? customer.email ?? null;
}

/** The document's customer (every document has one: a customer with documents is never deleted). */
export async function customerOf(ctx: Ctx, customerId: string): Promise<CustomerRow> {
  const customer = await customers.findCustomer(ctx.db, ctx.businessId, customerId);
  if (!customer) throw notFound('Customer');
  return customer;
}

/** 422 on `to` when a document has nowhere to go. */
export const noRecipient = () =>
  invalid('to', 'The customer has no email address: send `to`, or add an email to the customer');

const KIND_NAMES: Record<DocumentSource['kind'], string> = {
  invoice: 'Invoice',
  quote: 'Quote',
  credit_note: 'Credit note',
};
const kindName = (source: DocumentSource) => KIND_NAMES[source.kind];

/** The sentence that says what the document asks of the customer. */
function summaryOf(source: DocumentSource): string {
  const doc = source.document;
  if (source.kind === 'quote') {
    return (
      `Quote ${doc.number} for ${formatMoney(doc.total, doc.currency)} is valid until ` +
      `${source.document.valid_until}.`
    );
  }
  if (source.kind === 'credit_note') {
    const note = source.document;
    return `Credit note ${note.number} for ${formatMoney(note.total, note.currency)} credits invoice ${note.invoice_number}.`;
  }
  const invoice = source.document;
  if (invoice.status === 'paid') {
    return `Invoice ${invoice.number} for ${formatMoney(invoice.total, invoice.currency)} is paid. Thank you.`;
  }
  return (
    `Invoice ${invoice.number} for ${formatMoney(invoice.total, invoice.currency)}: ` +
    `${formatMoney(invoice.amount_due, invoice.currency)} is due on ${invoice.due_date}.`
  );
}

/**
 * Mails the document to `to` (and `cc`) with its PDF attached and the link to its hosted page,
 * from the business's name with replies going to the business, in the caller's transaction.
 */
export async function mailDocument(
  ctx: TxCtx,
  source: DocumentSource,
  customer: CustomerRow,
  input: SendDocumentBody & { to: string },
): Promise<void> {
  const business = await findBusiness(ctx);
  if (!business) throw notFound('Business');
  const pdf = await renderOffThread(ctx.state, source, issuerOf(business), recipientOf(customer));
  const link = source.document.hosted_url;
  const action = source.kind === 'quote' ? 'View, accept or decline it online' : 'View it online';
  const paragraphs = [
    `Hello ${customer.name},`,
    ...(input.message ? [input.message] : []),
    summaryOf(source),
    ...(link ? [`${action}: ${link}`] : []),
    `The ${kindName(source).toLowerCase()} is attached as a PDF.`,
    business.name,
  ];
  await queueMail(ctx, {
    to: input.to,
    cc: input.cc ?? [],
    from: senderNamed(ctx.config, business.name),
    replyTo: business.email,
    subject: `${kindName(source)} ${source.document.number} from ${business.name}`,
    text: `${paragraphs.join('\n\n')}\n`,
    html: paragraphs
      .map((p) =>
        p === link || (link && p.endsWith(link))
          ? `<p>${escapeHtml(action)}: <a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`
          : `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`,
      )
      .join(''),
    attachments: [{ filename: pdfFileName(source), contentType: 'application/pdf', content: pdf }],
  });
}

/** Whole days from one ISO date to a later one. */
const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);

/** A reminder of an overdue invoice: the amount due and the link, no attachment. */
export async function mailReminder(
  ctx: TxCtx,
  source: PdfSource & { kind: 'invoice' },
  to: string,
): Promise<void> {
  const daysAfterDue = daysBetween(source.document.due_date, await today(ctx));
  const [business, customer] = await Promise.all([
    findBusiness(ctx),
    customers.findCustomer(ctx.db, ctx.businessId, source.document.customer_id),
  ]);
  if (!business || !customer) return;
  const invoice = source.document;
  const due = formatMoney(invoice.amount_due, invoice.currency);
  const when =
    daysAfterDue <= 0
      ? `is due today (${invoice.due_date})`
      : `was due on ${invoice.due_date}, ${daysAfterDue} day${daysAfterDue === 1 ? '' : 's'} ago`;
  const paragraphs = [
    `Hello ${customer.name},`,
    `a friendly reminder: invoice ${invoice.number} ${when}. ${due} is still to pay.`,
    ...(invoice.hosted_url ? [`View and download it: ${invoice.hosted_url}`] : []),
    ...(business.payment_instructions ? [`How to pay: ${business.payment_instructions}`] : []),
    'If you have already paid, thank you, and please ignore this message.',
    business.name,
  ];
  await queueMail(ctx, {
    to,
    from: senderNamed(ctx.config, business.name),
    replyTo: business.email,
    subject:
      daysAfterDue <= 0
        ? `Invoice ${invoice.number} from ${business.name} is due today`
        : `Reminder: invoice ${invoice.number} from ${business.name} is overdue`,
    text: `${paragraphs.join('\n\n')}\n`,
  });
}
