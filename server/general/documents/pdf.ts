import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Font, Glyph, GlyphRun } from 'fontkit';
import type { z } from 'zod';
import type { AddressSchema } from '../../../contract/general/customers.js';
import type { CreditNote } from '../../../contract/general/credit-notes.js';
import type { Invoice } from '../../../contract/general/invoices.js';
import type { Quote } from '../../../contract/general/quotes.js';
import type { Statement } from '../../../contract/general/statements.js';
import { formatMoney } from './format.js';

/**
 * Invoices, quotes, credit notes, customer statements and the business's own reports (balance sheet,
 * profit and loss) as A4 PDFs. Every page carries a running header (issuer, kind and number) and
 * the table's column header, so a page read on its own still says what it belongs to; rows are
 * never split across pages, and page numbers ("Page N of M") are written once the page count is
 * known. Text is set in DejaVu Sans, embedded, so any Latin, Greek or Cyrillic name prints as
 * written whatever fonts the host has.
 */

type Address = z.infer<typeof AddressSchema>;

export interface DocumentIssuer {
  name: string;
  address: Address | null;
  tax_number: string | null;
  payment_instructions: string | null;
}

export interface DocumentRecipient {
  name: string;
  company: string | null;
  email: string | null;
  address: Address | null;
}

/** A document the customer is sent (mailed with its PDF). */
export type DocumentSource =
  | { kind: 'invoice'; document: Invoice }
  | { kind: 'quote'; document: Quote }
  | { kind: 'credit_note'; document: CreditNote };

/**
 * A report of the business's own books as printed: sections of accounts under their headings, each
 * closed by its total, then the report's totals. Amounts are in major units of `currency`.
 */
export interface ReportView {
  /** "Balance sheet", "Profit and loss". */
  title: string;
  /** What the report covers, printed under the title and on every page: "As of 2026-09-30". */
  period: string;
  /** The dates beside the title, e.g. [['From', '2026-01-01'], ['To', '2026-09-30']]. */
  dates: Array<[label: string, value: string]>;
  currency: string;
  /** The last day the report covers: the PDF is dated from it, so the same report renders the same bytes. */
  date: string;
  rows: ReportRow[];
  totals: Array<{ label: string; amount: number; strong: boolean }>;
  /** The file name without `.pdf`, e.g. `balance-sheet-2026-09-30`. */
  file: string;
}

export type ReportRow =
  | { type: 'heading'; label: string }
  | { type: 'account'; code: string | null; name: string; amount: number }
  | { type: 'total'; label: string; amount: number };

/** What is printed for a customer: a document or their statement. */
export type CustomerPdfSource = DocumentSource | { kind: 'statement'; document: Statement };

export type PdfSource = CustomerPdfSource | { kind: 'report'; document: ReportView };

/** The document as a PDF (A4); a report has no recipient. */
export async function renderPdf(
  source: PdfSource,
  issuer: DocumentIssuer,
  recipient: DocumentRecipient | null,
): Promise<Buffer> {
  const view = viewOf(source);
  const { doc, pen } = openDocument(await loadPdfKit(), view, issuer);
  const bytes = collect(doc);
  drawFirstPageHeader(pen, issuer, recipient);
  view.table.rows.forEach((row, index) => drawRow(pen, row, view.table.rows[index + 1]));
  drawTotals(pen);
  if (view.notes) drawNote(pen, view.kind === 'credit_note' ? 'Reason' : 'Notes', view.notes);
  if (view.kind === 'invoice' && issuer.payment_instructions) {
    drawNote(pen, 'Payment instructions', issuer.payment_instructions);
  }
  drawFooters(pen);
  doc.end();
  return bytes;
}

/** The file name a PDF is served and attached under, e.g. `INV-000001.pdf`. */
export function pdfFileName(source: PdfSource): string {
  if (source.kind === 'statement') {
    return `statement-${source.document.start_date}-${source.document.end_date}.pdf`;
  }
  const name = source.kind === 'report' ? source.document.file : source.document.number;
  // The name goes into Content-Disposition headers and mail attachments: keep it to safe characters.
  return `${name.replace(/[^A-Za-z0-9._-]/g, '-')}.pdf`;
}

// ---------------------------------------------------------------------------------------------
// What is printed, the same shape for every kind

interface TotalLine {
  label: string;
  amount: number;
  strong: boolean;
}

type Item = Invoice['items'][number];

interface DocumentView {
  kind: PdfSource['kind'];
  /** A report's title is its own ("Balance sheet"). */
  title: 'INVOICE' | 'QUOTE' | 'CREDIT NOTE' | 'STATEMENT' | (string & {});
  number: string;
  currency: string;
  /** Printed under the dates; a statement has none. */
  status: string | null;
  /** The word across every page (and beside the number) of a document that is not a live one. */
  mark: 'DRAFT' | 'VOID' | 'PAID' | null;
  dates: Array<[label: string, value: string]>;
  table: Table;
  totals: TotalLine[];
  notes: string | null;
  updatedAt: string;
}

const INVOICE_MARKS: Partial<Record<Invoice['status'], DocumentView['mark']>> = {
  draft: 'DRAFT',
  void: 'VOID',
  paid: 'PAID',
};

function viewOf(source: PdfSource): DocumentView {
  switch (source.kind) {
    case 'invoice':
      return invoiceView(source.document);
    case 'quote':
      return quoteView(source.document);
    case 'credit_note':
      return creditNoteView(source.document);
    case 'statement':
      return statementView(source.document);
    case 'report':
      return reportView(source.document);
  }
}

const TITLE_WORDS: Partial<Record<DocumentView['title'], string>> = {
  INVOICE: 'Invoice',
  QUOTE: 'Quote',
  'CREDIT NOTE': 'Credit note',
  STATEMENT: 'Statement',
};

/**
 * A report: one row per heading, account and section total, headings and totals in bold; the
 * report's own totals under the table.
 */
function reportView(report: ReportView): DocumentView {
  const money = (amount: number) => formatMoney(amount, report.currency);
  const rows = report.rows.map((row): Row => {
    switch (row.type) {
      case 'heading':
        return { cells: [row.label, ''], bold: true, keepWithNext: true };
      case 'account':
        return plain([row.code ? `${row.code} ${row.name}` : row.name, money(row.amount)]);
      case 'total':
        return { cells: [row.label, money(row.amount)], bold: true, keepWithNext: false };
    }
  });
  return {
    kind: 'report',
    title: report.title,
    number: report.period,
    currency: report.currency,
    status: null,
    mark: null,
    dates: [...report.dates, ['Currency', report.currency]],
    table: tableOf(REPORT_COLUMNS, rows),
    totals: report.totals,
    notes: null,
    updatedAt: `${report.date}T00:00:00.000Z`,
  };
}

/**
 * A statement: the opening balance as its first row, then each line with its change and the running
 * balance; customer credit applied names its amount in words, since it changes nothing.
 */
function statementView(statement: Statement): DocumentView {
  const money = (amount: number) => formatMoney(amount, statement.currency);
  const rows = [
    [statement.start_date, 'Opening balance', '', money(statement.opening_balance)],
    ...statement.lines.map((line) =>
      line.type === 'credit_applied'
        ? [line.date, `${line.description}: ${money(line.amount)} of credit`, '', money(line.balance)]
        : [line.date, line.description, money(line.change), money(line.balance)],
    ),
  ].map(plain);
  return {
    kind: 'statement',
    title: 'STATEMENT',
    number: `${statement.start_date} to ${statement.end_date}`,
    currency: statement.currency,
    status: null,
    mark: null,
    dates: [
      ['From', statement.start_date],
      ['To', statement.end_date],
      ['Currency', statement.currency],
    ],
    table: tableOf(STATEMENT_COLUMNS, rows),
    totals: [
      { label: 'Opening balance', amount: statement.opening_balance, strong: false },
      { label: 'Closing balance', amount: statement.closing_balance, strong: true },
    ],
    notes: null,
    // Dated from its range, so the same statement renders the same bytes.
    updatedAt: `${statement.end_date}T00:00:00.000Z`,
  };
}

/** A credit note: the invoice it credits among its dates, and where its money goes under its total. */
function creditNoteView(note: CreditNote): DocumentView {
  const parts: TotalLine[] = [
    { label: 'Credited to invoice', amount: note.credit_amount, strong: false },
    { label: 'Refunded', amount: note.refund_amount, strong: false },
    { label: 'Customer credit', amount: note.customer_credit_amount, strong: false },
  ];
  return {
    kind: 'credit_note',
    title: 'CREDIT NOTE',
    number: note.number,
    currency: note.currency,
    status: note.status,
    mark: note.status === 'void' ? 'VOID' : null,
    dates: [
      ['Issue date', note.issue_date],
      ['Invoice', note.invoice_number],
    ],
    table: itemTable(note.items, note.currency),
    totals: [
      { label: 'Subtotal', amount: note.subtotal, strong: false },
      { label: 'Tax', amount: note.tax, strong: false },
      { label: 'Total', amount: note.total, strong: true },
      ...parts.filter((p) => p.amount > 0),
    ],
    notes: note.reason,
    updatedAt: note.updated_at,
  };
}

function invoiceView(invoice: Invoice): DocumentView {
  const dates: DocumentView['dates'] = [];
  if (invoice.issue_date) dates.push(['Issue date', invoice.issue_date]);
  dates.push(['Due date', invoice.due_date]);
  return {
    kind: 'invoice',
    title: 'INVOICE',
    number: invoice.number,
    currency: invoice.currency,
    status: invoice.status,
    mark: INVOICE_MARKS[invoice.status] ?? null,
    dates,
    table: itemTable(invoice.items, invoice.currency),
    totals: [
      { label: 'Subtotal', amount: invoice.subtotal, strong: false },
      { label: 'Tax', amount: invoice.tax, strong: false },
      { label: 'Total', amount: invoice.total, strong: true },
      { label: 'Amount paid', amount: invoice.amount_paid, strong: false },
      // Only on an invoice credit notes took something off, so others print as they did.
      ...(invoice.amount_credited > 0
        ? [{ label: 'Amount credited', amount: invoice.amount_credited, strong: false }]
        : []),
      { label: 'Amount due', amount: invoice.amount_due, strong: true },
    ],
    notes: invoice.notes,
    updatedAt: invoice.updated_at,
  };
}

function quoteView(quote: Quote): DocumentView {
  return {
    kind: 'quote',
    title: 'QUOTE',
    number: quote.number,
    currency: quote.currency,
    status: quote.status,
    mark: quote.status === 'draft' ? 'DRAFT' : null,
    dates: [
      ['Date', quote.created_at.slice(0, 10)],
      ['Valid until', quote.valid_until],
    ],
    table: itemTable(quote.items, quote.currency),
    totals: [
      { label: 'Subtotal', amount: quote.subtotal, strong: false },
      { label: 'Tax', amount: quote.tax, strong: false },
      { label: 'Total', amount: quote.total, strong: true },
    ],
    notes: quote.notes,
    updatedAt: quote.updated_at,
  };
}

// ---------------------------------------------------------------------------------------------
// Numbers and addresses as printed

// Quantities have at most 4 decimals, tax rates at most 3 and discounts 2 (the contract refuses more), so these
// print them exactly, without trailing zeros.
const quantityFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 4 });
const rateFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 3 });
const discountFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
const countryNames = new Intl.DisplayNames('en', { type: 'region' });

function addressLines(address: Address | null): string[] {
  if (!address) return [];
  const region = [address.state, address.postal_code].filter(Boolean).join(' ');
  const locality = [address.city, region].filter(Boolean).join(', ');
  const country = address.country ? (countryNames.of(address.country) ?? address.country) : '';
  return [address.line1, address.line2, locality, country].filter((line): line is string => !!line);
}

// ---------------------------------------------------------------------------------------------
// Fonts

interface Face {
  font: Font;
  /** Read once: fontkit looks it up in the name table on every access. */
  name: string;
}

interface Faces {
  regular: Face;
  bold: Face;
}

let faces: Faces | undefined;

/**
 * DejaVu Sans, parsed once per process: parsing a TrueType file costs more than laying out a whole
 * invoice, and pdfkit would otherwise parse it again for every document.
 */
function loadFaces(): Faces {
  faces ??= { regular: loadFace('DejaVuSans.ttf'), bold: loadFace('DejaVuSans-Bold.ttf') };
  return faces;
}

function loadFace(file: string): Face {
  const require = createRequire(import.meta.url);
  const path = require.resolve(`dejavu-fonts-ttf/ttf/${file}`);
  // fontkit is loaded with the first document, as pdfkit is.
  const { create: parseFont } = require('fontkit') as typeof import('fontkit');
  const font = rememberRuns(parseFont(readFileSync(path)));
  return { font, name: font.postscriptName };
}

const RUN_CACHE_LIMIT = 10_000;

/**
 * Shaping (OpenType substitutions and positioning) is the largest cost of a render, and pdfkit
 * shapes every word again in every document although the same words ("$150.00", "Consulting")
 * recur from one document to the next. The font remembers its runs for the process, forgetting
 * them all past a bound so that free text cannot grow the cache without limit. pdfkit scales a
 * run's positions in place, so every caller gets positions of its own.
 */
function rememberRuns(font: Font): Font {
  const layout = font.layout.bind(font);
  const runs = new Map<string, GlyphRun>();
  font.layout = (text, features) => {
    if (features) return layout(text, features);
    let run = runs.get(text);
    if (!run) {
      if (runs.size >= RUN_CACHE_LIMIT) runs.clear();
      run = layout(text);
      for (const glyph of run.glyphs) {
        keepDecoded(glyph);
        knowCharacters(font, glyph);
      }
      runs.set(text, run);
    }
    return copyOf(run);
  };
  return font;
}

/**
 * A document's subset reads each glyph's outline (only to see whether the glyph is composite), and
 * fontkit decodes it again every time; glyphs live as long as their font, so the first decoding is
 * kept on the glyph. `_decode` is fontkit's own: without it nothing is kept and nothing breaks.
 */
function keepDecoded(glyph: Glyph): void {
  const decode = (glyph as Glyph & { _decode?: () => unknown })._decode;
  if (typeof decode !== 'function' || Object.hasOwn(glyph, '_decode')) return;
  let decoded: { value: unknown } | undefined;
  Object.defineProperty(glyph, '_decode', {
    value: () => (decoded ??= { value: decode.call(glyph) }).value,
  });
}

/**
 * fontkit keeps one object per glyph for as long as the font lives, with the characters it was
 * first reached from, and pdfkit maps the glyph to those characters in each document's text layer.
 * A glyph first reached as a part of another (the и of й, the ï of ї, read for a subset's outlines)
 * has none, and every later document would draw the letter without its text: copied or searched,
 * "Київ" after "naïve" lost its ï. Such a glyph is given the characters the font maps to it.
 */
function knowCharacters(font: Font, glyph: Glyph): void {
  const kept = glyph as unknown as { codePoints: number[] };
  if (kept.codePoints.length > 0) return;
  const cmap = (font as Font & { _cmapProcessor?: { codePointsForGlyph(id: number): number[] } })
    ._cmapProcessor;
  const characters = cmap?.codePointsForGlyph(glyph.id) ?? [];
  if (characters.length > 0) kept.codePoints = characters;
}

function copyOf(run: GlyphRun): GlyphRun {
  const positions = run.positions.map((position) => ({ ...position }));
  return {
    glyphs: run.glyphs,
    positions,
    get advanceWidth() {
      return positions.reduce((sum, position) => sum + position.xAdvance, 0);
    },
  };
}

/** pdfkit accepts a parsed fontkit font wherever it accepts a font file, though its types list only files. */
const asFontSource = (face: Face) => face.font as unknown as string;

// ---------------------------------------------------------------------------------------------
// Page geometry (points; A4 is 595.28 x 841.89)

const PAGE_WIDTH = 595.28;
const PAGE_HEIGHT = 841.89;
const MARGIN = 50;
const RIGHT = PAGE_WIDTH - MARGIN;
const CONTENT_WIDTH = RIGHT - MARGIN;
const RUNNING_HEADER_RULE = MARGIN + 16;
const CONTINUED_TABLE_TOP = MARGIN + 24;
const COLUMN_HEADER_HEIGHT = 18;
/** Where the body starts on every page after the first, below the running and column headers. */
const BODY_TOP = CONTINUED_TABLE_TOP + COLUMN_HEADER_HEIGHT + 4;
/** Nothing but the footer goes below this. */
const BODY_BOTTOM = PAGE_HEIGHT - 60;
const FOOTER_Y = PAGE_HEIGHT - 38;
const CELL_PADDING = 4;
/** DejaVu Sans's ascent, in ems. */
const DEJAVU_ASCENT = 0.928;
const ROW_PADDING = 5;
const HEADER_LEFT_WIDTH = 300;
const TOTALS_LABEL_X = RIGHT - 230;
const TOTALS_VALUE_WIDTH = 140;

interface Column {
  label: string;
  x: number;
  width: number;
  align: 'left' | 'right';
  /** The one column whose text wraps (the others shrink to fit). */
  wraps: boolean;
}

/** A table as printed: its placed columns and its rows. */
interface Table {
  columns: Column[];
  rows: Row[];
}

/** A row's cells in the columns' order; a bold row is a heading or a total. */
interface Row {
  cells: string[];
  bold: boolean;
  /** A heading: never the last row of a page, away from the rows it heads. */
  keepWithNext: boolean;
}

const plain = (cells: string[]): Row => ({ cells, bold: false, keepWithNext: false });

type ColumnSpec = Omit<Column, 'x' | 'width' | 'wraps'> & {
  /** Absent on the wrapping column, which takes the width the others leave. */
  width?: number;
};

/** Columns placed left to right, the one without a width taking what the others leave. */
function tableOf(specs: ColumnSpec[], rows: Row[]): Table {
  const fixed = specs.reduce((sum, c) => sum + (c.width ?? 0), 0);
  let x = MARGIN;
  const columns = specs.map((spec) => {
    const width = spec.width ?? CONTENT_WIDTH - fixed;
    const column = { label: spec.label, align: spec.align, x, width, wraps: spec.width === undefined };
    x += width;
    return column;
  });
  return { columns, rows };
}

const REPORT_COLUMNS: ColumnSpec[] = [
  { label: 'Account', align: 'left' },
  { label: 'Amount', width: 140, align: 'right' },
];

const STATEMENT_COLUMNS: ColumnSpec[] = [
  { label: 'Date', width: 70, align: 'left' },
  { label: 'Description', align: 'left' },
  { label: 'Amount', width: 100, align: 'right' },
  { label: 'Balance', width: 100, align: 'right' },
];

type ItemColumn = ColumnSpec & { cell: (item: Item, currency: string) => string };

const DISCOUNT_COLUMN: ItemColumn = {
  label: 'Discount',
  width: 56,
  align: 'right',
  cell: (i) => (i.discount_percent > 0 ? `${discountFormat.format(i.discount_percent)}%` : ''),
};

/**
 * A document's lines: description takes what the numeric columns leave; a discount column only when
 * some line has a discount, so a document without any reads as it always did.
 */
function itemTable(items: readonly Item[], currency: string): Table {
  const specs: ItemColumn[] = [
    { label: 'Description', align: 'left', cell: (i) => i.description },
    { label: 'Qty', width: 50, align: 'right', cell: (i) => quantityFormat.format(i.quantity) },
    { label: 'Unit price', width: 92, align: 'right', cell: (i, c) => formatMoney(i.unit_price, c) },
    ...(items.some((i) => i.discount_percent > 0) ? [DISCOUNT_COLUMN] : []),
    { label: 'Tax', width: 50, align: 'right', cell: (i) => `${rateFormat.format(i.tax_rate)}%` },
    { label: 'Amount', width: 100, align: 'right', cell: (i, c) => formatMoney(i.total, c) },
  ];
  return tableOf(
    specs,
    items.map((item) => plain(specs.map((spec) => spec.cell(item, currency)))),
  );
}

// ---------------------------------------------------------------------------------------------
// Drawing

const INK = '#1a1a1a';
const MUTED = '#666666';
const RULE = '#cccccc';
const HEADER_FILL = '#f0f0f0';
const ALERT = '#b3261e';
const WATERMARK = '#ececec';

interface Style {
  face: keyof Faces;
  size: number;
  color: string;
}

const BODY: Style = { face: 'regular', size: 9, color: INK };
const BODY_BOLD: Style = { face: 'bold', size: 9, color: INK };
const SMALL_MUTED: Style = { face: 'regular', size: 8, color: MUTED };
const LABEL: Style = { face: 'bold', size: 8, color: MUTED };

/** The document, what it prints, the style in use and the cursor (the top of the next block). */
interface Pen {
  doc: PDFKit.PDFDocument;
  view: DocumentView;
  issuerName: string;
  style: Style;
  y: number;
}

/** pdfkit, loaded with the first document: most processes never render one, and it is heavy to load. */
let pdfKit: Promise<typeof import('pdfkit')> | undefined;
const loadPdfKit = () => (pdfKit ??= import('pdfkit').then((m) => m.default));

function openDocument(
  PDFDocument: typeof import('pdfkit'),
  view: DocumentView,
  issuer: DocumentIssuer,
): { doc: PDFKit.PDFDocument; pen: Pen } {
  const { regular } = loadFaces();
  const updatedAt = new Date(view.updatedAt);
  const doc = new PDFDocument({
    size: 'A4',
    autoFirstPage: false,
    bufferPages: true,
    // Given here, pdfkit never loads its default Helvetica (which could not print Greek or Cyrillic).
    font: asFontSource(regular),
    margins: { top: BODY_TOP, bottom: PAGE_HEIGHT - BODY_BOTTOM, left: MARGIN, right: MARGIN },
    displayTitle: true,
    // Dated from the document rather than the clock, so an unchanged document renders the same bytes.
    info: {
      Title: `${TITLE_WORDS[view.title] ?? view.title} ${view.number}`,
      Author: issuer.name,
      CreationDate: updatedAt,
      ModDate: updatedAt,
    },
  });
  const pen: Pen = {
    doc,
    view,
    issuerName: issuer.name,
    style: BODY,
    y: BODY_TOP,
  };
  // Pages are added both here and by pdfkit when a long note flows on: either way they get the same
  // furniture.
  doc.on('pageAdded', () => startPage(pen));
  doc.addPage();
  return { doc, pen };
}

function collect(doc: PDFKit.PDFDocument): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
}

function use(pen: Pen, style: Style): void {
  const face = loadFaces()[style.face];
  // Naming the font by its PostScript name lets pdfkit find the one it already embedded in this
  // document instead of comparing the whole font again on every switch.
  pen.doc.font(asFontSource(face), face.name, style.size).fillColor(style.color);
  pen.style = style;
}

/** One line of text at (x, y); never wraps and never adds a page. */
function textAt(pen: Pen, text: string, x: number, y: number, style: Style): void {
  use(pen, style);
  pen.doc.text(text, x, y, { lineBreak: false });
}

/** One line ending at `right`; shrunk to fit `width` rather than cut, so an amount is never truncated. */
function textRight(pen: Pen, text: string, right: number, y: number, style: Style, width = Infinity): void {
  use(pen, style);
  let measured = pen.doc.widthOfString(text);
  let top = y;
  if (measured > width) {
    const size = (style.size * width) / measured;
    use(pen, { ...style, size });
    measured = width;
    // pdfkit places text by its top: moved down by the ascent it lost, it keeps the row's baseline.
    top += (style.size - size) * DEJAVU_ASCENT;
  }
  pen.doc.text(text, right - measured, top, { lineBreak: false });
}

/** Text wrapped to `width` from (x, y); returns where it ended. */
function paragraph(pen: Pen, text: string, x: number, y: number, width: number, style: Style): number {
  use(pen, style);
  const { doc } = pen;
  // Most texts fit on one line, and pdfkit's line wrapper costs several times a measure.
  if (fitsOneLine(pen, text, width)) {
    doc.text(text, x, y, { lineBreak: false });
    return y + doc.currentLineHeight(true);
  }
  doc.text(text, x, y, { width });
  return doc.y;
}

/** The height `paragraph` will take in the current style. */
function heightOf(pen: Pen, text: string, width: number): number {
  return fitsOneLine(pen, text, width)
    ? pen.doc.currentLineHeight(true)
    : pen.doc.heightOfString(text, { width });
}

function fitsOneLine(pen: Pen, text: string, width: number): boolean {
  return !text.includes('\n') && pen.doc.widthOfString(text) <= width;
}

function rule(pen: Pen, y: number, from = MARGIN, to = RIGHT, color = RULE): void {
  pen.doc.moveTo(from, y).lineTo(to, y).lineWidth(0.5).strokeColor(color).stroke();
}

/** Makes room for a block of `height`, on a new page when this one cannot hold it. */
function reserve(pen: Pen, height: number): void {
  if (pen.y + height > BODY_BOTTOM) pen.doc.addPage();
}

function pageCount(pen: Pen): number {
  return pen.doc.bufferedPageRange().count;
}

/** Runs on every new page: the mark under everything, then the headers of pages after the first. */
function startPage(pen: Pen): void {
  const style = pen.style;
  if (pen.view.mark) drawWatermark(pen, pen.view.mark);
  if (pageCount(pen) > 1) {
    drawRunningHeader(pen);
    drawColumnHeader(pen, CONTINUED_TABLE_TOP);
  }
  // pdfkit may be in the middle of flowing a paragraph onto this page: give it back its style.
  use(pen, style);
  pen.y = BODY_TOP;
  pen.doc.x = MARGIN;
  pen.doc.y = BODY_TOP;
}

const WATERMARK_SIZE = 120;

/**
 * Drawn as outlines rather than text, so that the mark stays out of the text a reader copies,
 * searches or hears read aloud (the header says DRAFT or VOID in words).
 */
function drawWatermark(pen: Pen, mark: string): void {
  const { doc } = pen;
  const outline = outlineOf(mark);
  const centre: [number, number] = [PAGE_WIDTH / 2, PAGE_HEIGHT / 2];
  doc.save();
  doc.rotate(-40, { origin: centre });
  // The baseline sits below the centre by half the height of a capital (about 0.73 em in DejaVu).
  doc.translate(centre[0] - outline.width / 2, centre[1] + 0.365 * WATERMARK_SIZE);
  doc.path(outline.svg).fill(WATERMARK);
  doc.restore();
}

const outlines = new Map<string, { svg: string; width: number }>();

/** The mark's outline in bold at the watermark's size, from the start of its baseline (y down). */
function outlineOf(mark: string): { svg: string; width: number } {
  let outline = outlines.get(mark);
  if (!outline) {
    const { font } = loadFaces().bold;
    const run = font.layout(mark);
    const scale = WATERMARK_SIZE / font.unitsPerEm;
    const parts: string[] = [];
    let x = 0;
    run.glyphs.forEach((glyph, index) => {
      parts.push(glyph.path.scale(scale, -scale).translate(x, 0).toSVG());
      x += (run.positions[index]?.xAdvance ?? 0) * scale;
    });
    outline = { svg: parts.join(' '), width: x };
    outlines.set(mark, outline);
  }
  return outline;
}

function titleLine(view: DocumentView): string {
  // A report's period is words ("As of 2026-09-30"), set apart from its title.
  const separator = view.kind === 'report' ? ' · ' : ' ';
  return `${view.title}${separator}${view.number}${view.mark ? ` · ${view.mark}` : ''}`;
}

function drawRunningHeader(pen: Pen): void {
  use(pen, BODY_BOLD);
  const titleWidth = pen.doc.widthOfString(titleLine(pen.view));
  pen.doc.text(pen.issuerName, MARGIN, MARGIN, {
    width: CONTENT_WIDTH - titleWidth - 20,
    height: pen.doc.currentLineHeight(true),
    ellipsis: true,
  });
  textRight(pen, titleLine(pen.view), RIGHT, MARGIN, BODY_BOLD);
  rule(pen, RUNNING_HEADER_RULE);
}

function drawColumnHeader(pen: Pen, y: number): void {
  pen.doc.rect(MARGIN, y, CONTENT_WIDTH, COLUMN_HEADER_HEIGHT).fill(HEADER_FILL);
  const textY = y + 5;
  for (const column of pen.view.table.columns) {
    if (column.align === 'left') textAt(pen, column.label, column.x + CELL_PADDING, textY, LABEL);
    else textRight(pen, column.label, column.x + column.width - CELL_PADDING, textY, LABEL);
  }
}

/**
 * Issuer on the left, the document's kind, number, dates and status on the right, then the customer
 * (a report has none).
 */
function drawFirstPageHeader(pen: Pen, issuer: DocumentIssuer, recipient: DocumentRecipient | null): void {
  const issuerBottom = drawIssuer(pen, issuer);
  const factsBottom = drawFacts(pen);
  const headerBottom = Math.max(issuerBottom, factsBottom);
  const tableTop = recipient ? drawRecipient(pen, recipient, headerBottom + 24) + 20 : headerBottom + 24;
  drawColumnHeader(pen, tableTop);
  pen.y = tableTop + COLUMN_HEADER_HEIGHT + 4;
}

function drawIssuer(pen: Pen, issuer: DocumentIssuer): number {
  let y = paragraph(pen, issuer.name, MARGIN, MARGIN, HEADER_LEFT_WIDTH, {
    face: 'bold',
    size: 16,
    color: INK,
  });
  y += 4;
  const lines = addressLines(issuer.address);
  if (issuer.tax_number) lines.push(`Tax number: ${issuer.tax_number}`);
  for (const line of lines) y = paragraph(pen, line, MARGIN, y, HEADER_LEFT_WIDTH, BODY);
  return y;
}

function drawFacts(pen: Pen): number {
  const { view } = pen;
  textRight(pen, view.title, RIGHT, MARGIN, { face: 'bold', size: 20, color: INK });
  let y = MARGIN + 26;
  textRight(pen, view.number, RIGHT, y, { face: 'bold', size: 11, color: INK });
  y += 20;
  const labelX = RIGHT - 170;
  for (const [label, value] of view.dates) {
    textAt(pen, label, labelX, y, SMALL_MUTED);
    textRight(pen, value, RIGHT, y, BODY);
    y += 13;
  }
  if (view.status !== null) textAt(pen, 'Status', labelX, y, SMALL_MUTED);
  if (view.status === null) return y;
  const alert = view.mark === 'DRAFT' || view.mark === 'VOID' || view.status === 'overdue';
  textRight(pen, view.status.toUpperCase(), RIGHT, y, { ...BODY_BOLD, color: alert ? ALERT : INK });
  return y + 13;
}

function drawRecipient(pen: Pen, recipient: DocumentRecipient, top: number): number {
  textAt(pen, 'BILL TO', MARGIN, top, LABEL);
  let y = paragraph(pen, recipient.name, MARGIN, top + 13, HEADER_LEFT_WIDTH, BODY_BOLD);
  const lines = [
    ...(recipient.company && recipient.company !== recipient.name ? [recipient.company] : []),
    ...addressLines(recipient.address),
    ...(recipient.email ? [recipient.email] : []),
  ];
  for (const line of lines) y = paragraph(pen, line, MARGIN, y, HEADER_LEFT_WIDTH, BODY);
  return y;
}

/** The row's height in the table (its wrapping cell's lines, padded). */
function rowHeight(pen: Pen, row: Row): number {
  const { columns } = pen.view.table;
  const wrapping = columns.findIndex((column) => column.wraps);
  const wrapped = columns[wrapping];
  use(pen, row.bold ? BODY_BOLD : BODY);
  const textWidth = (wrapped?.width ?? 0) - 2 * CELL_PADDING;
  return (
    Math.max(
      wrapped ? heightOf(pen, row.cells[wrapping] ?? '', textWidth) : 0,
      pen.doc.currentLineHeight(true),
    ) +
    2 * ROW_PADDING
  );
}

/** One row, on a new page when this one cannot hold it (with the next row too, for a heading). */
function drawRow(pen: Pen, row: Row, next: Row | undefined): void {
  const { columns } = pen.view.table;
  const style = row.bold ? BODY_BOLD : BODY;
  const height = rowHeight(pen, row);
  reserve(pen, height + (row.keepWithNext && next ? rowHeight(pen, next) : 0));
  const textY = pen.y + ROW_PADDING;
  columns.forEach((column, index) => {
    const text = row.cells[index] ?? '';
    const left = column.x + CELL_PADDING;
    const textWidth = column.width - 2 * CELL_PADDING;
    if (column.wraps) paragraph(pen, text, left, textY, textWidth, style);
    else if (column.align === 'left') textAt(pen, text, left, textY, style);
    else textRight(pen, text, column.x + column.width - CELL_PADDING, textY, style, textWidth);
  });
  pen.y += height;
  rule(pen, pen.y);
}

const TOTAL_LINE_HEIGHT = 16;

function drawTotals(pen: Pen): void {
  const { view } = pen;
  reserve(pen, 10 + view.totals.length * TOTAL_LINE_HEIGHT);
  let y = pen.y + 10;
  for (const line of view.totals) {
    const style = line.strong ? { ...BODY_BOLD, size: 10 } : BODY;
    if (line.strong) rule(pen, y - 4, TOTALS_LABEL_X, RIGHT, MUTED);
    textAt(pen, line.label, TOTALS_LABEL_X, y, style);
    textRight(
      pen,
      formatMoney(line.amount, view.currency),
      RIGHT - CELL_PADDING,
      y,
      style,
      TOTALS_VALUE_WIDTH,
    );
    y += TOTAL_LINE_HEIGHT;
  }
  pen.y = y;
}

/** A heading and its text; starts a page when the heading and first lines would not fit. */
function drawNote(pen: Pen, heading: string, text: string): void {
  use(pen, BODY);
  const height = 28 + heightOf(pen, text, CONTENT_WIDTH);
  // A note longer than a page flows on (pdfkit adds the pages); a shorter one is kept whole.
  reserve(pen, Math.min(height, BODY_BOTTOM - BODY_TOP));
  const top = pen.y + 14;
  textAt(pen, heading, MARGIN, top, BODY_BOLD);
  pen.y = paragraph(pen, text, MARGIN, top + 14, CONTENT_WIDTH, BODY);
}

/** "INV-000001 · Page N of M" on every page, once M is known. */
function drawFooters(pen: Pen): void {
  const { doc, view } = pen;
  const { start, count } = doc.bufferedPageRange();
  for (let index = 0; index < count; index++) {
    doc.switchToPage(start + index);
    const footer = `${view.number} · Page ${index + 1} of ${count}`;
    use(pen, SMALL_MUTED);
    textAt(pen, footer, (PAGE_WIDTH - doc.widthOfString(footer)) / 2, FOOTER_Y, SMALL_MUTED);
  }
}
