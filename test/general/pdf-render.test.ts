import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Invoice } from '../../contract/general/invoices.js';
import type { Quote } from '../../contract/general/quotes.js';
import {
  pdfFileName,
  renderPdf,
  type DocumentIssuer,
  type DocumentRecipient,
  type PdfSource,
} from '../../server/general/documents/pdf.js';

/** The PDFs are read back with poppler's command-line tools, as a reader's viewer would see them. */

let dir: string;
let written = 0;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'bms-pdf-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Item = Invoice['items'][number];

function item(description: string, fields: Partial<Item> = {}): Item {
  return {
    id: `item_${description.length}`,
    product_id: null,
    description,
    quantity: 1,
    unit_price: 100,
    tax_rate: 0,
    discount_percent: 0,
    total: 100,
    tax: 0,
    ...fields,
  };
}

// Only the fields the renderer reads are set, so fields added to invoices and quotes later need no
// change here; the casts say so.
function invoice(fields: Partial<Invoice> = {}): Invoice {
  const base: Partial<Invoice> = {
    id: 'inv_TEST',
    number: 'INV-000001',
    customer_id: 'cus_TEST',
    customer: { id: 'cus_TEST', name: 'Ada Lovelace' },
    status: 'unpaid',
    currency: 'USD',
    issue_date: '2026-11-21',
    due_date: '2026-12-21',
    notes: null,
    items: [item('Consulting (hours)', { quantity: 3, unit_price: 150, tax_rate: 20, total: 450, tax: 90 })],
    subtotal: 450,
    tax: 90,
    total: 540,
    amount_paid: 0,
    amount_due: 540,
    payments: [],
    created_at: '2026-11-21T09:30:00.000Z',
    updated_at: '2026-11-21T09:31:00.000Z',
    issued_at: '2026-11-21T09:31:00.000Z',
    paid_at: null,
    voided_at: null,
  };
  return { ...base, ...fields } as Invoice;
}

function quote(fields: Partial<Quote> = {}): Quote {
  const base: Partial<Quote> = {
    id: 'quo_TEST',
    number: 'QUO-000007',
    customer_id: 'cus_TEST',
    customer: { id: 'cus_TEST', name: 'Ada Lovelace' },
    status: 'sent',
    currency: 'USD',
    valid_until: '2026-12-31',
    notes: null,
    items: [item('Website redesign', { unit_price: 4800, tax_rate: 20, total: 4800, tax: 960 })],
    subtotal: 4800,
    tax: 960,
    total: 5760,
    invoice_id: null,
    created_at: '2026-11-20T15:00:00.000Z',
    updated_at: '2026-11-20T15:00:00.000Z',
    sent_at: '2026-11-20T15:05:00.000Z',
    accepted_at: null,
    declined_at: null,
    converted_at: null,
  };
  return { ...base, ...fields } as Quote;
}

const issuer: DocumentIssuer = {
  name: 'Northwind Trading Ltd',
  address: { line1: '221B Baker Street', city: 'London', postal_code: 'NW1 6XE', country: 'GB' },
  tax_number: 'GB123456789',
  payment_instructions: 'Bank transfer to IBAN GB33 BUKB 2020 1555 5555 55',
};

const recipient: DocumentRecipient = {
  name: 'Ada Lovelace',
  company: 'Analytical Engines plc',
  email: 'ada@example.test',
  address: { line1: '12 St James Square', city: 'London', postal_code: 'SW1Y 4JH', country: 'GB' },
};

async function write(source: PdfSource, to = recipient, from = issuer): Promise<string> {
  const file = join(dir, `${++written}.pdf`);
  writeFileSync(file, await renderPdf(source, from, to));
  return file;
}

/** The text of the PDF (or of one page) as `pdftotext -layout` lays it out. */
function textOf(file: string, page?: number): string {
  const pages = page === undefined ? [] : ['-f', String(page), '-l', String(page)];
  return execFileSync('pdftotext', ['-layout', ...pages, file, '-'], { encoding: 'utf8' });
}

function pageCountOf(file: string): number {
  const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
  return Number(/^Pages:\s+(\d+)$/m.exec(info)?.[1]);
}

const invoiceText = async (fields: Partial<Invoice> = {}) =>
  textOf(await write({ kind: 'invoice', document: invoice(fields) }));

describe('an invoice PDF', () => {
  it('carries the issuer, the customer, every line, the totals to the cent, the dates and the notes', async () => {
    const text = await invoiceText({
      items: [
        item('Consulting (hours)', { quantity: 3, unit_price: 150, tax_rate: 20, total: 450, tax: 90 }),
        item('Travel expenses', { quantity: 2.5, unit_price: 1234.56, total: 3086.4 }),
        item('Licence seats', { quantity: 1.2345, unit_price: 10, tax_rate: 7.125, total: 12.35, tax: 0.88 }),
      ],
      subtotal: 3548.75,
      tax: 90.88,
      total: 3639.63,
      amount_paid: 1000,
      amount_due: 2639.63,
      notes: 'Thank you for your business',
    });

    for (const expected of [
      'INVOICE',
      'INV-000001',
      'Northwind Trading Ltd',
      '221B Baker Street',
      'London, NW1 6XE',
      'United Kingdom',
      'Tax number: GB123456789',
      'Ada Lovelace',
      'Analytical Engines plc',
      'ada@example.test',
      '12 St James Square',
      'Consulting (hours)',
      'Travel expenses',
      'Licence seats',
      'Thank you for your business',
      'Payment instructions',
      'Bank transfer to IBAN GB33 BUKB 2020 1555 5555 55',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).toMatch(/Issue date\s+2026-11-21/);
    expect(text).toMatch(/Due date\s+2026-12-21/);
    expect(text).toMatch(/Consulting \(hours\)\s+3\s+\$150\.00\s+20%\s+\$450\.00/);
    // Quantities print as written, without trailing zeros.
    expect(text).toMatch(/Travel expenses\s+2\.5\s+\$1,234\.56\s+0%\s+\$3,086\.40/);
    expect(text).toMatch(/Licence seats\s+1\.2345\s+\$10\.00\s+7\.125%\s+\$12\.35/);
    expect(text).toMatch(/Subtotal\s+\$3,548\.75/);
    expect(text).toMatch(/Tax\s+\$90\.88/);
    expect(text).toMatch(/Total\s+\$3,639\.63/);
    expect(text).toMatch(/Amount paid\s+\$1,000\.00/);
    expect(text).toMatch(/Amount due\s+\$2,639\.63/);
  });

  it('shows a Discount column only when some line has a discount', async () => {
    const discounted = await invoiceText({
      items: [
        item('Consulting (hours)', {
          quantity: 3,
          unit_price: 150,
          tax_rate: 20,
          discount_percent: 12.5,
          total: 393.75,
          tax: 78.75,
        }),
        item('Travel expenses', { quantity: 1, unit_price: 100, total: 100 }),
      ],
    });
    expect(discounted).toMatch(/Unit price\s+Discount\s+Tax\s+Amount/);
    expect(discounted).toMatch(/Consulting \(hours\)\s+3\s+\$150\.00\s+12\.5%\s+20%\s+\$393\.75/);
    expect(discounted).toMatch(/Travel expenses\s+1\s+\$100\.00\s+0%\s+\$100\.00/);
    expect(await invoiceText()).not.toContain('Discount');
  });

  it('prints yen without decimals and dinars with three, to the minor unit', async () => {
    const yen = await invoiceText({
      currency: 'JPY',
      items: [
        item('Tea ceremony set', { quantity: 2, unit_price: 1235, total: 2470, tax_rate: 10, tax: 247 }),
      ],
      subtotal: 2470,
      tax: 247,
      total: 2717,
      amount_paid: 1235,
      amount_due: 1482,
    });
    expect(yen).toMatch(/Tea ceremony set\s+2\s+¥1,235\s+10%\s+¥2,470/);
    expect(yen).toMatch(/Total\s+¥2,717/);
    expect(yen).toMatch(/Amount due\s+¥1,482/);
    expect(yen).not.toMatch(/¥[\d,]+\.\d/);

    const dinars = await invoiceText({
      currency: 'KWD',
      items: [item('Date palms', { quantity: 1000, unit_price: 1.235, total: 1235 })],
      subtotal: 1235,
      tax: 0,
      total: 1235,
      amount_paid: 0.005,
      amount_due: 1234.995,
    });
    expect(dinars).toMatch(/Date palms\s+1,000\s+KWD\s1\.235\s+0%\s+KWD\s1,235\.000/);
    expect(dinars).toMatch(/Amount paid\s+KWD\s0\.005/);
    expect(dinars).toMatch(/Amount due\s+KWD\s1,234\.995/);
  });

  it('marks a draft DRAFT, an issued invoice not at all, a void one VOID', async () => {
    const draft = await invoiceText({ status: 'draft', issue_date: null, issued_at: null });
    expect(draft).toContain('DRAFT');
    expect(draft).not.toContain('Issue date');

    const issued = await invoiceText({ status: 'unpaid' });
    expect(issued).not.toContain('DRAFT');
    expect(issued).not.toContain('VOID');

    const voided = await invoiceText({ status: 'void', voided_at: '2026-11-22T10:00:00.000Z' });
    expect(voided).toContain('VOID');
    expect(voided).not.toContain('DRAFT');
  });

  it('repeats its headers on every page of a 1,000-line invoice, keeps rows whole and ends with the totals', async () => {
    const lines = Array.from({ length: 1000 }, (_, i) => {
      const n = String(i + 1).padStart(4, '0');
      // One line in three wraps over several lines, and ends with a token of its own.
      const description =
        i % 3 === 0
          ? `Item ${n} bespoke fittings, measured on site, delivered and installed by the team (end-${n})`
          : `Item ${n} standard fitting`;
      return item(description, { quantity: 2, unit_price: 12.5, total: 25 });
    });
    const file = await write({
      kind: 'invoice',
      document: invoice({ items: lines, subtotal: 25_000, tax: 0, total: 25_000, amount_due: 25_000 }),
    });

    const pages = pageCountOf(file);
    expect(pages).toBeGreaterThan(10);
    const seen: string[] = [];
    for (let page = 1; page <= pages; page++) {
      const text = textOf(file, page);
      expect(text, `page ${page}`).toContain('Northwind Trading Ltd');
      expect(text, `page ${page}`).toContain('INV-000001');
      expect(text, `page ${page}`).toMatch(/Description\s+Qty\s+Unit price\s+Tax\s+Amount/);
      expect(text, `page ${page}`).toContain(`INV-000001 · Page ${page} of ${pages}`);
      const onPage = [...text.matchAll(/Item (\d{4}) /g)].map((m) => m[1]!);
      for (const n of onPage.filter((n) => Number(n) % 3 === 1)) {
        expect(text, `item ${n} is split across pages`).toContain(`(end-${n})`);
      }
      seen.push(...onPage);
      if (page < pages) expect(text, `page ${page}`).not.toContain('Amount due');
      else expect(text).toMatch(/Amount due\s+\$25,000\.00/);
    }
    expect(seen).toEqual(Array.from({ length: 1000 }, (_, i) => String(i + 1).padStart(4, '0')));
  });

  it('gives every letter its text, whatever the documents before drew: ï after the ї that contains it', async () => {
    // DejaVu draws ї with the glyph of ï: drawn first, that glyph was once kept with no text.
    textOf(await write({ kind: 'invoice', document: invoice({ items: [item('Київ')] }) }));
    const text = textOf(await write({ kind: 'invoice', document: invoice({ items: [item('Naïve art')] }) }));
    expect(text).toContain('Naïve art');
  });

  it('prints Greek, Cyrillic and accented names as written', async () => {
    const file = await write(
      {
        kind: 'invoice',
        document: invoice({ items: [item('Ελληνικά μαθήματα — Кириллица')] }),
      },
      {
        name: 'Zoë Brontë-Ångström',
        company: 'Ελληνικά Εργαλεία ΑΕ',
        email: 'zoe@example.test',
        address: { line1: 'ул. Тверская, 7', city: 'Москва', country: 'RU' },
      },
      { ...issuer, name: 'Café Crème Œuvre ŁÓDŹ' },
    );
    const text = textOf(file);
    for (const expected of [
      'Zoë Brontë-Ångström',
      'Ελληνικά Εργαλεία ΑΕ',
      'ул. Тверская, 7',
      'Москва',
      'Ελληνικά μαθήματα — Кириллица',
      'Café Crème Œuvre ŁÓDŹ',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('embeds DejaVu Sans only, never Helvetica', async () => {
    const file = await write({ kind: 'invoice', document: invoice({ status: 'draft' }) });
    const fonts = execFileSync('pdffonts', [file], { encoding: 'utf8' }).trim().split('\n').slice(2);
    expect(fonts.length).toBeGreaterThan(0);
    for (const font of fonts) {
      expect(font).toMatch(/^[A-Z]{6}\+DejaVuSans(-Bold)?\s.*\byes\s+yes\s+yes\b/);
    }
    expect(fonts.join('\n')).not.toMatch(/Helvetica/i);
    // Not even loaded: pdfkit reads a standard font's metrics from a module of its own on first use.
    const loaded = Object.keys(createRequire(import.meta.url).cache);
    expect(loaded.filter((path) => path.includes('standard-fonts'))).toEqual([]);
  });

  it('is titled after the document and authored by the issuer, and renders the same bytes twice', async () => {
    const source: PdfSource = { kind: 'invoice', document: invoice() };
    const file = await write(source);
    const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
    expect(info).toMatch(/^Title:\s+Invoice INV-000001$/m);
    expect(info).toMatch(/^Author:\s+Northwind Trading Ltd$/m);
    expect(info).toMatch(/^Page size:\s+595\.28 x 841\.89 pts \(A4\)$/m);
    const [first, second] = await Promise.all([
      renderPdf(source, issuer, recipient),
      renderPdf(source, issuer, recipient),
    ]);
    expect(first.equals(second)).toBe(true);
  });

  it('is served as the number with .pdf', () => {
    expect(pdfFileName({ kind: 'invoice', document: invoice() })).toBe('INV-000001.pdf');
    expect(pdfFileName({ kind: 'quote', document: quote() })).toBe('QUO-000007.pdf');
  });
});

describe('a quote PDF', () => {
  it('says QUOTE with its number, date and validity, and no amount due', async () => {
    const text = textOf(
      await write({ kind: 'quote', document: quote({ notes: 'Prices hold for 30 days' }) }),
    );
    expect(text).toContain('QUOTE');
    expect(text).toContain('QUO-000007');
    expect(text).toMatch(/Date\s+2026-11-20/);
    expect(text).toMatch(/Valid until\s+2026-12-31/);
    expect(text).toMatch(/Website redesign\s+1\s+\$4,800\.00\s+20%\s+\$4,800\.00/);
    expect(text).toMatch(/Total\s+\$5,760\.00/);
    expect(text).toContain('Prices hold for 30 days');
    expect(text).not.toContain('INVOICE');
    expect(text).not.toContain('Amount due');
    expect(text).not.toContain('Amount paid');
    expect(text).not.toContain('Payment instructions');
    expect(text).not.toContain('DRAFT');
  });

  it('marks a draft quote DRAFT', async () => {
    const text = textOf(await write({ kind: 'quote', document: quote({ status: 'draft', sent_at: null }) }));
    expect(text).toContain('DRAFT');
  });
});
