import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerBusiness, raw, type TestBusiness } from '../support/business.js';
import { createAccount, createEntry } from '../support/finance.js';
import { createCustomer, invoiceLine, issuedInvoice } from '../support/general.js';
import { pdfText } from '../support/pdf.js';
import { useTestServer } from '../support/setup.js';

/**
 * The balance sheet and the profit and loss report as PDFs: the figures of one small business,
 * worked out by hand, read back from the PDF's text.
 */

// Tokens outlive the clock moves below.
const server = useTestServer({ env: { ACCESS_TOKEN_TTL: '3650d' }, worker: false });

beforeEach(() => server().clock.set('2026-11-23T09:00:00.000Z'));
afterEach(() => server().clock.reset());

const BUSINESS = 'Ōkami Trading Ltd';

/**
 * The books, in USD minor units:
 *  02-10 manual     Dr 1010 1,000,000 / Cr 3100 1,000,000   (owner's capital)
 *  03-10 invoice    Dr 1200 60,000 / Cr 4000 50,000, 2200 10,000   (500.00 at 20 %)
 *  04-01 manual     Dr 6100 30,000 / Cr 1010 30,000   (rent)
 */
async function seeded(): Promise<TestBusiness> {
  const t = await registerBusiness(server(), BUSINESS);
  const c = t.client;
  await createAccount(c, { code: '3100', name: 'Owner capital', type: 'equity' });
  await createAccount(c, { code: '6100', name: 'Rent', type: 'expense' });
  await createEntry(c, {
    date: '2026-02-10',
    description: 'Owner capital',
    debits: [{ account: '1010', amount: 1_000_000 }],
    credits: [{ account: '3100', amount: 1_000_000 }],
  });
  const customer = await createCustomer(c);
  await issuedInvoice(c, {
    customer_id: customer.id,
    issue_date: '2026-03-10',
    due_date: '2026-03-31',
    currency: 'USD',
    items: [invoiceLine({ unit_price: 500, tax_rate: 20 })],
  });
  await createEntry(c, {
    date: '2026-04-01',
    description: 'Rent',
    debits: [{ account: '6100', amount: 30_000 }],
    credits: [{ account: '1010', amount: 30_000 }],
  });
  return t;
}

async function fetchPdf(t: TestBusiness, path: string) {
  const res = await fetch(`${server().baseUrl}${path}`, {
    headers: { authorization: `Bearer ${t.accessToken}` },
  });
  expect(res.status, res.status === 200 ? '' : await res.clone().text()).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/pdf');
  return {
    disposition: res.headers.get('content-disposition'),
    text: pdfText(Buffer.from(await res.arrayBuffer())),
  };
}

/** The page texts of `pdftotext` output (pages end with a form feed). */
const pagesOf = (text: string) => text.split('\f').filter((page) => page.trim() !== '');

describe('GET /v1/finance/reports/balance-sheet/pdf', () => {
  it('prints each section with its accounts and total, and the two sides equal', async () => {
    const t = await seeded();
    const { disposition, text } = await fetchPdf(
      t,
      '/v1/finance/reports/balance-sheet/pdf?as_of=2026-06-30&currency=USD',
    );
    expect(disposition).toBe('inline; filename="balance-sheet-2026-06-30.pdf"');
    for (const expected of ['Balance sheet', BUSINESS, 'As of 2026-06-30', 'USD', 'Account', 'Amount']) {
      expect(text).toContain(expected);
    }
    const lines = [
      /Assets\n/,
      /1010 Bank\s+\$9,700\.00/,
      /1200 Accounts receivable\s+\$600\.00/,
      /Total assets\s+\$10,300\.00/,
      /Liabilities\n/,
      /2200 VAT payable\s+\$100\.00/,
      /Total liabilities\s+\$100\.00/,
      /Equity\n/,
      /3100 Owner capital\s+\$10,000\.00/,
      /Current year earnings\s+\$200\.00/,
      /Retained earnings\s+\$0\.00/,
      /Total equity\s+\$10,200\.00/,
      /Total liabilities and equity\s+\$10,300\.00/,
    ];
    // In that order, each on a line of its own.
    let from = 0;
    for (const line of lines) {
      const at = text.slice(from).search(line);
      expect(at, `${line} after ${text.slice(0, from)}`).toBeGreaterThanOrEqual(0);
      from += at + 1;
    }
    expect(text).toMatch(/As of 2026-06-30 · Page 1 of 1/);
    expect(pagesOf(text)).toHaveLength(1);
  });

  it('answers as the JSON route for a bad query', async () => {
    const t = await seeded();
    const res = await raw(server(), 'GET', '/v1/finance/reports/balance-sheet/pdf?as_of=2026-02-31', {
      token: t.accessToken,
    });
    expect(res.status).toBe(
      (
        await raw(server(), 'GET', '/v1/finance/reports/balance-sheet?as_of=2026-02-31', {
          token: t.accessToken,
        })
      ).status,
    );
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.headers.get('content-type')).toMatch(/json/);
  });
});

describe('GET /v1/finance/reports/profit-loss/pdf', () => {
  it('prints revenue and expenses by account, their totals and the net profit', async () => {
    const t = await seeded();
    const { disposition, text } = await fetchPdf(
      t,
      '/v1/finance/reports/profit-loss/pdf?start_date=2026-01-01&end_date=2026-06-30',
    );
    expect(disposition).toBe('inline; filename="profit-loss-2026-01-01-2026-06-30.pdf"');
    for (const expected of ['Profit and loss', BUSINESS, '2026-01-01 to 2026-06-30', 'USD']) {
      expect(text).toContain(expected);
    }
    const lines = [
      /Revenue\n/,
      /4000 Sales\s+\$500\.00/,
      /Total revenue\s+\$500\.00/,
      /Expenses\n/,
      /6100 Rent\s+\$300\.00/,
      /Total expenses\s+\$300\.00/,
      /Net profit\s+\$200\.00/,
    ];
    let from = 0;
    for (const line of lines) {
      const at = text.slice(from).search(line);
      expect(at, `${line} after ${text.slice(0, from)}`).toBeGreaterThanOrEqual(0);
      from += at + 1;
    }
    // Outside the range, nothing.
    const before = await fetchPdf(
      t,
      '/v1/finance/reports/profit-loss/pdf?start_date=2025-01-01&end_date=2025-12-31',
    );
    expect(before.text).toMatch(/Total revenue\s+\$0\.00/);
    expect(before.text).toMatch(/Net profit\s+\$0\.00/);
    expect(before.text).not.toContain('4000 Sales');
  });

  it('answers 422 for a range that ends before it starts, as the JSON route does', async () => {
    const t = await seeded();
    const query = 'start_date=2026-06-30&end_date=2026-01-01';
    const pdf = await raw(server(), 'GET', `/v1/finance/reports/profit-loss/pdf?${query}`, {
      token: t.accessToken,
    });
    const json = await raw(server(), 'GET', `/v1/reports/profit-loss?${query}`, {
      token: t.accessToken,
    });
    expect(json.status).toBe(422);
    expect(pdf.status, JSON.stringify(pdf.body)).toBe(422);
    expect(JSON.stringify(pdf.body)).toContain('end_date');
  });

  it('answers 401 without a token', async () => {
    const res = await raw(
      server(),
      'GET',
      '/v1/finance/reports/profit-loss/pdf?start_date=2026-01-01&end_date=2026-06-30',
    );
    expect(res.status).toBe(401);
  });

  it('runs a long report onto further pages with their headers, whole rows and page numbers', async () => {
    const t = await seeded();
    const count = 80;
    const codes = Array.from({ length: count }, (_, i) => String(7000 + i));
    for (const code of codes) {
      await createAccount(t.client, { code, name: `Supplies line ${code}`, type: 'expense' });
    }
    await createEntry(t.client, {
      date: '2026-05-01',
      description: 'Supplies',
      debits: codes.map((code, i) => ({ account: code, amount: 100 * (i + 1) })),
      credits: [{ account: '1010', amount: (100 * count * (count + 1)) / 2 }],
    });
    const { text } = await fetchPdf(
      t,
      '/v1/finance/reports/profit-loss/pdf?start_date=2026-01-01&end_date=2026-06-30',
    );
    const pages = pagesOf(text);
    expect(pages.length).toBeGreaterThanOrEqual(2);
    pages.forEach((page, index) => {
      expect(page).toContain(`2026-01-01 to 2026-06-30 · Page ${index + 1} of ${pages.length}`);
      if (index > 0) {
        // The running header (business, report, period) and the table's column header.
        expect(page).toMatch(new RegExp(`${BUSINESS}\\s+Profit and loss · 2026-01-01 to 2026-06-30`));
        expect(page).toMatch(/Account\s+Amount/);
      }
    });
    // Every account on one line with its amount, on exactly one page.
    codes.forEach((code, i) => {
      const row = new RegExp(`${code} Supplies line ${code}\\s+\\$${i + 1}\\.00\\n`);
      expect(
        pages.filter((page) => row.test(page)),
        code,
      ).toHaveLength(1);
    });
    const total = 300 + (count * (count + 1)) / 2;
    expect(text).toMatch(new RegExp(`Total expenses\\s+\\$${total.toLocaleString('en-US')}\\.00`));
    expect(text).toMatch(new RegExp(`Net profit\\s+-\\$${(total - 500).toLocaleString('en-US')}\\.00`));
  });
});
