import type { Express, Request, Response } from 'express';
import type { CreditNote } from '../../../contract/general/credit-notes.js';
import type { Invoice } from '../../../contract/general/invoices.js';
import type { Quote } from '../../../contract/general/quotes.js';
import { offsetClock } from '../../platform/clock.js';
import { jobCtx, type Ctx } from '../../platform/context.js';
import type { Deps } from '../../platform/deps.js';
import { ApiError } from '../../platform/errors.js';
import { escapeHtml, handle } from '../../platform/pages.js';
import { isCrossSitePost } from '../../platform/same-origin.js';
import { publicBaseUrl } from '../../config.js';
import { businessAccess, findBusiness } from '../../platform/settings.js';
import * as creditNotes from '../credit-notes/service.js';
import * as invoices from '../invoices/service.js';
import * as quotes from '../quotes/service.js';
import { formatMoney } from './format.js';
import { hostedPrefix, readHostedToken, type DocumentKind } from './hosted.js';
import { markInvoiceViewed } from '../invoices/queries.js';
import { markQuoteViewed } from '../quotes/queries.js';
import { checkoutOrigins, openCheckout, payableOnline } from '../online-payments/service.js';

/**
 * The hosted pages of documents (docs/decisions.md D152, D262): `/i/<token>` shows an invoice, `/q/<token>` a
 * quote with Accept and Decline, `/c/<token>` a credit note, each with its PDF at `<page>/pdf`. No sign-in:
 * the signed token is the capability, and anything forged, altered, deleted or still a draft answers 404.
 * Rate limited per IP like every anonymous call; no script at all, the stylesheet served from this origin
 * (CSP `default-src 'self'`). The first view of an invoice's or a quote's page is recorded (`viewed_at`).
 */

const STYLESHEET_PATH = '/documents/page.css';

const STYLESHEET = `
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;color:#1d2433;background:#f4f5f7;margin:0;padding:2rem 1rem}
main{max-width:52rem;margin:0 auto;background:#fff;border:1px solid #d8dce3;border-radius:8px;padding:2rem}
header{display:flex;justify-content:space-between;gap:2rem;flex-wrap:wrap;border-bottom:1px solid #e4e7ec;padding-bottom:1rem}
h1{font-size:1.5rem;margin:0 0 .25rem}h2{font-size:1.1rem;margin:1.5rem 0 .5rem}
.muted{color:#5b6475}.right{text-align:right}
.badge{display:inline-block;padding:.15rem .6rem;border-radius:999px;font-size:.85rem;font-weight:600;background:#e8ecf3}
.badge.paid,.badge.accepted,.badge.converted{background:#d9f2e3;color:#14532d}
.badge.overdue,.badge.void,.badge.declined,.badge.expired{background:#fde2e1;color:#7f1d1d}
.notice{border-left:4px solid #b42318;background:#fef3f2;padding:.75rem 1rem;margin:1rem 0}
.notice.ok{border-color:#1a7f37;background:#ecfdf3}
.notice.info{border-color:#1d4ed8;background:#eff6ff}
table{width:100%;border-collapse:collapse;margin-top:1rem}th,td{padding:.5rem;border-bottom:1px solid #e4e7ec;vertical-align:top}
th{text-align:left;font-size:.85rem;color:#5b6475}td.num,th.num{text-align:right;white-space:nowrap}
.totals{margin-left:auto;width:auto;min-width:18rem}.totals td{border:0;padding:.25rem .5rem}.totals tr.strong td{font-weight:700;font-size:1.1rem}
.actions{display:flex;gap:1rem;flex-wrap:wrap;margin-top:1.5rem;align-items:center}
.actions form{margin:0}
button,.button{font:inherit;padding:.55rem 1.2rem;border-radius:6px;border:1px solid #1d4ed8;background:#1d4ed8;color:#fff;cursor:pointer;text-decoration:none;display:inline-block}
button.secondary,.button.secondary{background:#fff;color:#1d4ed8}
button:focus-visible,.button:focus-visible{outline:3px solid #93c5fd;outline-offset:2px}
pre{white-space:pre-wrap;font:inherit;margin:0}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
@media (max-width:36rem){
body{padding:.5rem}main{padding:1rem}header{gap:.5rem}header .right{text-align:left}h2{margin-top:1rem}
table.items thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
table.items,table.items tbody,table.items tr,table.items td{display:block}
table.items tr{padding:.5rem 0;border-bottom:1px solid #e4e7ec}
table.items td{border:0;padding:.1rem 0;overflow-wrap:anywhere}table.items td:first-child{font-weight:600}
table.items td.num{display:flex;justify-content:space-between;gap:1rem}
table.items td.num::before{content:attr(data-label) / "";color:#5b6475}
.totals{min-width:0;width:100%}.totals td:first-child{padding-left:0}.totals td:last-child{padding-right:0}
}
`;

/** A page of this origin only: no script, no inline style, forms posting to the page itself. */
export function documentPage(
  res: Response,
  status: number,
  title: string,
  body: string,
  /** Origins a form of the page may lead to besides this one: a payment provider's checkout. */
  formTargets: readonly string[] = [],
): void {
  res
    .status(status)
    .set('Cache-Control', 'no-store')
    .set('Referrer-Policy', 'no-referrer')
    .set('X-Robots-Tag', 'noindex')
    .set(
      'Content-Security-Policy',
      `default-src 'self'; form-action ${["'self'", ...formTargets].join(' ')}; frame-ancestors 'none'; base-uri 'none'`,
    )
    .type('html')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex">` +
        `<meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title>` +
        // The service's icon, from this origin: without it a browser asks for /favicon.ico, a 404.
        `<link rel="icon" href="/app/favicon.svg" type="image/svg+xml">` +
        `<link rel="stylesheet" href="${STYLESHEET_PATH}"></head><body><main>${body}</main></body></html>`,
    );
}

export const notFoundPage = (res: Response) =>
  documentPage(
    res,
    404,
    'Document not found',
    '<h1>Document not found</h1><p>This link is not valid, or the document is no longer available.</p>',
  );

/**
 * A form post from another website (`Sec-Fetch-Site` or `Origin` say so) answered 403 with
 * `explanation`, and true; false for the page's own form.
 */
export function refusedFromAnotherSite(
  deps: Deps,
  req: Request,
  res: Response,
  explanation: string,
): boolean {
  if (!isCrossSitePost(req, publicBaseUrl(deps.config))) return false;
  documentPage(
    res,
    403,
    'Not sent from this page',
    `<h1>Not sent from this page</h1><p>${escapeHtml(explanation)}</p>`,
  );
  return true;
}

/** The business's context as its own requests have it (a sandbox's test clock included). */
export async function contextOf(deps: Deps, businessId: string): Promise<Ctx | null> {
  const access = await businessAccess({ db: deps.db, businessId });
  if (!access) return null;
  const ctx = jobCtx(deps, businessId, 'hosted document page');
  return { ...ctx, clock: offsetClock(deps.clock, access.clockOffsetMs) };
}

interface Opened<D> {
  ctx: Ctx;
  document: D;
  token: string;
}

/**
 * The document the request's token names, loaded in its business's context; null (after answering
 * 404) for a bad token, a document that is gone, or a draft.
 */
async function open<D extends { status: string }>(
  deps: Deps,
  kind: DocumentKind,
  req: Request,
  res: Response,
  load: (ctx: Ctx, id: string) => Promise<D>,
): Promise<Opened<D> | null> {
  const token = String(req.params.token ?? '');
  const named = readHostedToken(deps.secrets, kind, token);
  const ctx = named && (await contextOf(deps, named.businessId));
  if (!named || !ctx) {
    notFoundPage(res);
    return null;
  }
  try {
    const document = await load(ctx, named.id);
    if (document.status === 'draft') {
      notFoundPage(res);
      return null;
    }
    return { ctx, document, token };
  } catch (err) {
    if (err instanceof ApiError && err.code === 'NOT_FOUND') {
      notFoundPage(res);
      return null;
    }
    throw err;
  }
}

const lines = (...parts: (string | null | undefined)[]) =>
  parts
    .filter((p): p is string => !!p)
    .map(escapeHtml)
    .join('<br>');

type Address = Record<string, string | undefined> | null;

const addressLines = (address: Address) =>
  address
    ? [
        address.line1,
        address.line2,
        [address.postal_code, address.city].filter(Boolean).join(' '),
        address.state,
        address.country,
      ]
    : [];

async function issuerBlock(ctx: Ctx): Promise<{ name: string; html: string; instructions: string | null }> {
  const business = await findBusiness(ctx);
  const name = business?.name ?? '';
  const details = lines(
    ...addressLines(business?.address ?? null),
    business?.tax_number ? `Tax number: ${business.tax_number}` : null,
  );
  const html = `<div><h1>${escapeHtml(name)}</h1>${details ? `<p class="muted">${details}</p>` : ''}</div>`;
  return { name, html, instructions: business?.payment_instructions ?? null };
}

function itemsTable(doc: Invoice | Quote | CreditNote): string {
  // A discount column only when some line has one, as on the PDF.
  const discounted = doc.items.some((item) => item.discount_percent > 0);
  const discount = (item: Invoice['items'][number]) =>
    discounted
      ? `<td class="num" data-label="Discount">${item.discount_percent > 0 ? `${item.discount_percent}%` : ''}</td>`
      : '';
  const rows = doc.items
    .map(
      (item) =>
        `<tr><td>${escapeHtml(item.description)}</td><td class="num" data-label="Qty">${item.quantity}</td>` +
        `<td class="num" data-label="Unit price">${escapeHtml(formatMoney(item.unit_price, doc.currency))}</td>` +
        discount(item) +
        `<td class="num" data-label="Tax rate">${item.tax_rate}%</td>` +
        `<td class="num" data-label="Amount">${escapeHtml(formatMoney(item.total, doc.currency))}</td></tr>`,
    )
    .join('');
  return (
    `<table class="items"><caption class="visually-hidden">Lines</caption><thead><tr><th scope="col">Description</th>` +
    `<th scope="col" class="num">Qty</th><th scope="col" class="num">Unit price</th>` +
    (discounted ? `<th scope="col" class="num">Discount</th>` : '') +
    `<th scope="col" class="num">Tax rate</th><th scope="col" class="num">Amount</th></tr></thead>` +
    `<tbody>${rows}</tbody></table>`
  );
}

function totalsTable(rows: [string, number, boolean?][], currency: string): string {
  return (
    `<table class="totals"><tbody>` +
    rows
      .map(
        ([label, amount, strong]) =>
          `<tr${strong ? ' class="strong"' : ''}><td>${escapeHtml(label)}</td>` +
          `<td class="num">${escapeHtml(formatMoney(amount, currency))}</td></tr>`,
      )
      .join('') +
    `</tbody></table>`
  );
}

const STATUS_TEXT: Record<string, string> = {
  unpaid: 'Due',
  overdue: 'Overdue',
  paid: 'Paid',
  void: 'Void',
  sent: 'Awaiting your answer',
  accepted: 'Accepted',
  declined: 'Declined',
  converted: 'Accepted',
  expired: 'Expired',
  issued: 'Issued',
};

const badge = (status: string) =>
  `<span class="badge ${escapeHtml(status)}">${escapeHtml(STATUS_TEXT[status] ?? status)}</span>`;

/** The page's head: the issuer, then the document's title, status and dates. */
const documentHeader = (issuer: string, title: string, status: string, ...details: (string | null)[]) =>
  `<header>${issuer}<div class="right"><h2>${escapeHtml(title)}</h2>` +
  `<p>${badge(status)}</p><p class="muted">${lines(...details)}</p></div></header>`;

/** The page's buttons, its PDF last. */
const actions = (base: string, before = '') =>
  `<div class="actions">${before}<a class="button secondary" href="${base}/pdf">Download PDF</a></div>`;

async function invoicePage(ctx: Ctx, invoice: Invoice, base: string, notice = ''): Promise<string> {
  const issuer = await issuerBlock(ctx);
  // Pay opens the connected provider's checkout for what the invoice owes (docs/decisions.md D270).
  const pay = (await payableOnline(ctx, invoice))
    ? `<form method="post" action="${base}/pay"><button type="submit">Pay ${escapeHtml(
        formatMoney(invoice.amount_due, invoice.currency),
      )}</button></form>`
    : '';
  const voided =
    invoice.status === 'void'
      ? `<p class="notice" role="status"><strong>This invoice has been voided.</strong> Nothing is due on it.</p>`
      : '';
  const paid =
    invoice.status === 'paid'
      ? `<p class="notice ok" role="status"><strong>This invoice is paid.</strong> Thank you.</p>`
      : '';
  const instructions =
    issuer.instructions && invoice.status !== 'void' && invoice.status !== 'paid'
      ? `<h2>How to pay</h2><pre>${escapeHtml(issuer.instructions)}</pre>`
      : '';
  return (
    documentHeader(
      issuer.html,
      `Invoice ${invoice.number}`,
      invoice.status,
      invoice.issue_date ? `Issued ${invoice.issue_date}` : null,
      `Due ${invoice.due_date}`,
    ) +
    notice +
    voided +
    paid +
    `<h2>Bill to</h2><p>${escapeHtml(invoice.customer.name)}</p>` +
    itemsTable(invoice) +
    totalsTable(
      [
        ['Subtotal', invoice.subtotal],
        ['Tax', invoice.tax],
        ['Total', invoice.total, true],
        ['Amount paid', invoice.amount_paid],
        ['Amount due', invoice.status === 'void' ? 0 : invoice.amount_due, true],
      ],
      invoice.currency,
    ) +
    (invoice.notes ? `<h2>Notes</h2><pre>${escapeHtml(invoice.notes)}</pre>` : '') +
    instructions +
    actions(base, pay)
  );
}

async function quotePage(ctx: Ctx, quote: Quote, base: string, notice = ''): Promise<string> {
  const issuer = await issuerBlock(ctx);
  const decided: Record<string, string> = {
    accepted: `<p class="notice ok" role="status"><strong>You accepted this quote.</strong> ${escapeHtml(issuer.name)} has been told.</p>`,
    converted: `<p class="notice ok" role="status"><strong>This quote was accepted.</strong></p>`,
    declined: `<p class="notice" role="status"><strong>This quote was declined.</strong></p>`,
    expired: `<p class="notice" role="status"><strong>This quote has expired</strong> (it was valid until ${escapeHtml(quote.valid_until)}). Ask ${escapeHtml(issuer.name)} for a new one.</p>`,
  };
  const answers =
    quote.status === 'sent'
      ? `<form method="post" action="${base}/accept"><button type="submit">Accept quote</button></form>` +
        `<form method="post" action="${base}/decline"><button type="submit" class="secondary">Decline</button></form>`
      : '';
  return (
    documentHeader(
      issuer.html,
      `Quote ${quote.number}`,
      quote.status,
      `Date ${quote.created_at.slice(0, 10)}`,
      `Valid until ${quote.valid_until}`,
    ) +
    notice +
    (decided[quote.status] ?? '') +
    `<h2>Prepared for</h2><p>${escapeHtml(quote.customer.name)}</p>` +
    itemsTable(quote) +
    totalsTable(
      [
        ['Subtotal', quote.subtotal],
        ['Tax', quote.tax],
        ['Total', quote.total, true],
      ],
      quote.currency,
    ) +
    (quote.notes ? `<h2>Notes</h2><pre>${escapeHtml(quote.notes)}</pre>` : '') +
    actions(base, answers)
  );
}

/** A credit note: its lines (none when made for an amount), its totals and where its money went. */
async function creditNotePage(ctx: Ctx, note: CreditNote, base: string): Promise<string> {
  const issuer = await issuerBlock(ctx);
  const voided =
    note.status === 'void'
      ? `<p class="notice" role="status"><strong>This credit note has been voided.</strong> ` +
        `It no longer credits invoice ${escapeHtml(note.invoice_number)}.</p>`
      : '';
  const refunded = `Refunded${note.refund_method ? ` (${note.refund_method.replace(/_/g, ' ')})` : ''}`;
  const parts: [string, number][] = [
    [`Credited to invoice ${note.invoice_number}`, note.credit_amount],
    [refunded, note.refund_amount],
    ['Kept as customer credit', note.customer_credit_amount],
  ];
  return (
    documentHeader(
      issuer.html,
      `Credit note ${note.number}`,
      note.status,
      `Issued ${note.issue_date}`,
      `Credits invoice ${note.invoice_number}`,
    ) +
    voided +
    `<h2>Issued to</h2><p>${escapeHtml(note.customer.name)}</p>` +
    (note.items.length > 0 ? itemsTable(note) : '') +
    totalsTable(
      [
        ['Subtotal', note.subtotal],
        ['Tax', note.tax],
        ['Total', note.total, true],
      ],
      note.currency,
    ) +
    `<h2>Where the money went</h2>` +
    totalsTable(
      parts.filter(([, amount]) => amount > 0),
      note.currency,
    ) +
    `<h2>Reason</h2><pre>${escapeHtml(note.reason)}</pre>` +
    actions(base)
  );
}

/** Answers the document's PDF. */
function sendPdf(res: Response, file: { filename: string; content: Buffer }): void {
  res
    .status(200)
    .set('Cache-Control', 'no-store')
    .set('Content-Disposition', `inline; filename="${file.filename}"`)
    .type('application/pdf')
    .send(file.content);
}

/** The page's own path, as its links and forms name it. */
const pageOf = (kind: DocumentKind, token: string) => `/${hostedPrefix(kind)}/${escapeHtml(token)}`;

interface HostedDocumentPage<D> {
  kind: DocumentKind;
  title: string;
  load: (ctx: Ctx, id: string) => Promise<D>;
  pdf: (ctx: Ctx, id: string) => Promise<{ filename: string; content: Buffer }>;
  render: (ctx: Ctx, document: D, base: string) => Promise<string>;
  /** Origins the page's forms may lead to besides this one (Pay, to the provider's checkout). */
  formTargets?: (ctx: Ctx) => Promise<string[]>;
  /** Records the first view, for a document that keeps it. */
  viewed?: (ctx: Ctx, id: string) => Promise<unknown>;
}

/** A document's page at `/<prefix>/:token` (`/i/:token`, `/q/:token`, `/c/:token`) and its PDF at `<page>/pdf`. */
function mountDocument<D extends { id: string; number: string; status: string }>(
  app: Express,
  deps: Deps,
  page: HostedDocumentPage<D>,
): void {
  const path = `/${hostedPrefix(page.kind)}/:token`;
  app.get(
    path,
    handle(async (req, res) => {
      const opened = await open(deps, page.kind, req, res, page.load);
      if (!opened) return;
      const { ctx, document, token } = opened;
      await page.viewed?.(ctx, document.id);
      const html = await page.render(ctx, document, pageOf(page.kind, token));
      documentPage(res, 200, `${page.title} ${document.number}`, html, (await page.formTargets?.(ctx)) ?? []);
    }),
  );
  app.get(
    `${path}/pdf`,
    handle(async (req, res) => {
      const opened = await open(deps, page.kind, req, res, page.load);
      if (opened) sendPdf(res, await page.pdf(opened.ctx, opened.document.id));
    }),
  );
}

export function mountDocumentPages(app: Express, deps: Deps): void {
  app.get(STYLESHEET_PATH, (_req, res) => {
    res.set('Cache-Control', 'public, max-age=3600').type('text/css').send(STYLESHEET);
  });

  mountDocument(app, deps, {
    kind: 'invoice',
    title: 'Invoice',
    load: invoices.getInvoice,
    pdf: invoices.invoicePdf,
    render: invoicePage,
    formTargets: checkoutOrigins,
    viewed: (ctx, id) => markInvoiceViewed(ctx.db, ctx.businessId, id, ctx.clock.now()),
  });
  mountDocument(app, deps, {
    kind: 'quote',
    title: 'Quote',
    load: quotes.getQuote,
    pdf: quotes.quotePdf,
    render: quotePage,
    viewed: (ctx, id) => markQuoteViewed(ctx.db, ctx.businessId, id, ctx.clock.now()),
  });
  mountDocument(app, deps, {
    kind: 'credit_note',
    title: 'Credit note',
    load: creditNotes.getCreditNote,
    pdf: creditNotes.creditNotePdf,
    render: creditNotePage,
  });

  // Accept and Decline follow the API's rules (a sent quote within valid_until; 409 otherwise),
  // fire quote.updated, and come back to the page (303) so a reload does not post again.
  for (const [action, run] of [
    ['accept', quotes.acceptQuote],
    ['decline', quotes.declineQuote],
  ] as const) {
    app.post(
      `/q/:token/${action}`,
      handle(async (req, res) => {
        // Only the page's own form: another site cannot answer a quote for the customer who opened it.
        if (
          refusedFromAnotherSite(
            deps,
            req,
            res,
            'This answer came from another website, so it was not taken. To accept or decline the quote, ' +
              'open the link from your email and use the buttons on its page.',
          )
        ) {
          return;
        }
        const opened = await open(deps, 'quote', req, res, quotes.getQuote);
        if (!opened) return;
        const { ctx, document, token } = opened;
        try {
          await run(ctx, document.id);
        } catch (err) {
          if (!(err instanceof ApiError) || err.code !== 'INVALID_STATE') throw err;
          const now = await quotes.getQuote(ctx, document.id);
          const notice = `<p class="notice" role="alert">This quote can no longer be ${action === 'accept' ? 'accepted' : 'declined'}.</p>`;
          documentPage(
            res,
            409,
            `Quote ${now.number}`,
            await quotePage(ctx, now, pageOf('quote', token), notice),
          );
          return;
        }
        res.redirect(303, `/q/${encodeURIComponent(token)}`);
      }),
    );
  }

  // Pay: a checkout of the connected provider for what the invoice owes now, then off to its page.
  // An invoice with nothing to pay (paid meanwhile, in another tab) comes back with a notice.
  app.post(
    '/i/:token/pay',
    handle(async (req, res) => {
      const explained =
        "This payment was not started from the invoice's page, so it was not taken. To pay, open the link " +
        'from your email and use Pay on its page.';
      if (refusedFromAnotherSite(deps, req, res, explained)) return;
      const opened = await open(deps, 'invoice', req, res, invoices.getInvoice);
      if (!opened) return;
      const { ctx, document, token } = opened;
      try {
        const issuer = await findBusiness(ctx);
        res.redirect(303, await openCheckout(ctx, document.id, issuer?.name ?? ''));
      } catch (err) {
        if (!(err instanceof ApiError) || err.code !== 'INVALID_STATE') throw err;
        const now = await invoices.getInvoice(ctx, document.id);
        const notice = `<p class="notice" role="alert">${escapeHtml(err.message)}.</p>`;
        documentPage(
          res,
          409,
          `Invoice ${now.number}`,
          await invoicePage(ctx, now, pageOf('invoice', token), notice),
        );
      }
    }),
  );
}
