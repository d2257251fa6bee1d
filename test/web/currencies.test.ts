import type { Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import {
  PHONE,
  errorBeside,
  expectAccessible,
  expectClean,
  inPage,
  openApp,
  screenshot,
  useBrowser,
  type AppPage,
} from '../support/browser.js';
import { registerBusiness, type TestBusiness } from '../support/business.js';
import { billOf, createVendor, entryOf } from '../support/finance.js';
import { createCustomer, invoiceLine, issuedInvoice, payInvoice } from '../support/general.js';
import { useTestServer } from '../support/setup.js';

/**
 * Several currencies in a real browser, in businesses whose base currency is USD: the exchange rates
 * screen (a rate set through its form, a comma and the base currency refused beside their fields,
 * the list filtered and paged, a CSV file checked then imported), revaluation of an open euro invoice
 * from that screen and from the balance sheet and trial balance (a later day and a second revaluation
 * of the day refused), and the base amounts of euro postings: in the journal, each line's beside its
 * own with the rate, and on the invoice and the bill their total's base equivalent.
 */

// Tokens outlive the clock set below.
const server = useTestServer({ env: { ACCESS_TOKEN_TTL: '3650d' }, worker: false });
const browser = useBrowser();

const NOW = '2026-12-05T09:00:00.000Z';

beforeEach(() => server().clock.set(NOW));
afterEach(() => server().clock.reset());

async function open(business: { accessToken: string }, path: string): Promise<AppPage> {
  const app = await openApp(browser(), server().baseUrl, `/app${path}`, {
    accessToken: business.accessToken,
  });
  app.page.setDefaultTimeout(10_000);
  return app;
}

const setRate = async (owner: TestBusiness, currency: string, date: string, rate: string) =>
  unwrap(owner.client.finance.exchangeRates.createExchangeRate({ body: { currency, date, rate } }));

/** Minor units of a two-decimal currency as the page writes them with the currency's code (`EUR 1,000.00`). */
const withCode = (page: Page, minor: number, currency: string): Promise<string> =>
  page.evaluate(
    ([a, c]) =>
      new Intl.NumberFormat(undefined, { style: 'currency', currency: c, currencyDisplay: 'code' }).format(a),
    [minor / 100, currency] as [number, string],
  );

/** A calendar date as the page writes it (`Nov 30, 2026`). */
const dayIn = (page: Page, day: string): Promise<string> =>
  page.evaluate((d) => {
    const [y, m, n] = d.split('-').map(Number) as [number, number, number];
    return new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(new Date(y, m - 1, n));
  }, day);

const text = async (page: Page, selector: string) =>
  (await page.locator(selector).first().textContent())?.trim();

/** The page is no wider than a phone's window: nothing scrolls sideways. */
async function expectFitsPhone(page: Page): Promise<void> {
  await page.setViewportSize(PHONE);
  const widths = await page.evaluate<{ window: number; document: number }>(
    '({ window: window.innerWidth, document: document.documentElement.scrollWidth })',
  );
  expect(widths.document).toBe(widths.window);
}

describe('the exchange rates screen', () => {
  it('sets a rate through its form, refusing a comma and the base currency beside their fields; filters and pages the rates; imports a CSV file after checking it', async () => {
    const owner = await registerBusiness(server(), 'Rates Ltd');
    // More yen rates than a page holds.
    for (let day = 1; day <= 21; day++) {
      await setRate(owner, 'JPY', `2026-11-${String(day).padStart(2, '0')}`, '0.00658');
    }

    const app = await open(owner, '/finance/exchange-rates');
    const { page } = app;
    await page.getByRole('heading', { name: 'Exchange rates', level: 1 }).waitFor();
    const rates = page.getByRole('table', { name: 'Exchange rates' });
    await rates.locator('tbody tr').first().waitFor();
    expect(await page.locator('main .pager').textContent()).toContain('Page 1 of 2');
    await expectAccessible(page, 'exchange rates');

    // A comma is not a decimal point: refused beside the rate, before anything is sent.
    const form = page.getByRole('form', { name: 'Set a rate' });
    const rate = form.getByLabel('Rate in USD');
    const currency = form.getByLabel('Currency');
    await form.getByLabel('Date').fill('2026-11-30');
    await currency.selectOption('EUR');
    await rate.fill('1,1');
    await form.getByRole('button', { name: 'Set rate' }).click();
    expect(await errorBeside(rate)).toBe('Enter a rate such as 1.0842: digits and one point.');

    // The base currency has no rate of its own: the service refuses it, and says so beside the currency.
    await currency.selectOption('USD');
    await rate.fill('1');
    await form.getByRole('button', { name: 'Set rate' }).click();
    expect(await errorBeside(currency)).toBe(
      'USD is the base currency: its rate is always 1; set rates of other currencies.',
    );
    expect(await rate.getAttribute('aria-invalid')).toBeNull();
    await expectAccessible(page, 'exchange rates refused');

    // A euro rate, written plainly by the service, listed first (the newest day).
    await currency.selectOption('EUR');
    await rate.fill('1.10');
    await form.getByRole('button', { name: 'Set rate' }).click();
    await page
      .getByText(`Set: 1 EUR = 1.1 USD from ${await dayIn(page, '2026-11-30')} until the next rate.`)
      .waitFor();
    expect(await rate.inputValue()).toBe('');
    const first = rates.locator('tbody tr').first();
    await expect.poll(() => first.locator('[data-rate]').getAttribute('data-rate')).toBe('1.1');
    expect(await first.textContent()).toContain('1 EUR = 1.1 USD');
    expect(await first.textContent()).toContain('Set here');
    const listed = await unwrap(
      owner.client.finance.exchangeRates.listExchangeRates({ query: { currency: 'EUR' } }),
    );
    expect(listed.exchange_rates.map((r) => [r.date, r.rate, r.source])).toEqual([
      ['2026-11-30', '1.1', 'manual'],
    ]);

    // Filtered by currency, paged.
    const filters = page.getByRole('search', { name: 'Filter the rates' });
    await filters.getByLabel('Currency').selectOption('JPY');
    await filters.getByRole('button', { name: 'Apply' }).click();
    // The unfiltered list also fills a page: wait for the filtered count, not for the rows.
    await expect.poll(() => page.locator('main .pager').textContent()).toContain('21 in all');
    expect(await rates.locator('tbody tr').count()).toBe(20);
    await page.getByRole('link', { name: 'Next →' }).click();
    await expect.poll(() => rates.locator('tbody tr').count()).toBe(1);
    expect(await text(page, 'table tbody tr td')).toBe(await dayIn(page, '2026-11-01'));
    expect(page.url()).toContain('currency=JPY');
    await filters.getByLabel('Currency').selectOption('GBP');
    await filters.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('No rates match these filters').waitFor();

    // The CSV import: checked first (one new rate, one replacing the euro's of the 30th), then imported.
    await page.getByRole('button', { name: 'Import CSV' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import exchange rates from CSV' });
    await dialog.waitFor();
    const file = ['date,currency,rate', '2026-11-16,GBP,1.2634', '2026-11-30,EUR,1.12'].join('\r\n');
    await dialog
      .getByLabel('CSV file')
      .setInputFiles({ name: 'rates.csv', mimeType: 'text/csv', buffer: Buffer.from(file) });
    await dialog.getByRole('button', { name: 'Check file' }).click();
    await dialog.getByText('2 rows read: 1 to create, 1 to update, 0 refused.').waitFor();
    expect(await dialog.locator('[data-columns="mapped"] code').allTextContents()).toEqual([
      'date',
      'currency',
      'rate',
    ]);
    expect(await dialog.locator('.import-summary').textContent()).toContain('matched by currency and date');
    await expectAccessible(page, 'exchange rates import report');
    await dialog.getByRole('button', { name: 'Import 2 rows' }).click();
    await dialog.getByText('Imported 2 rows: 1 rate created, 1 updated.').waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });
    // The list (still on GBP) shows the imported rate.
    await expect.poll(() => rates.locator('[data-rate]').getAttribute('data-rate')).toBe('1.2634');
    expect(await rates.locator('tbody tr').first().textContent()).toContain('Imported');
    const euro = await unwrap(
      owner.client.finance.exchangeRates.lookupExchangeRate({
        query: { currency: 'EUR', date: '2026-11-30' },
      }),
    );
    expect(euro.exchange_rate).toMatchObject({ rate: '1.12', source: 'import' });

    await page.goto('/app/finance/exchange-rates');
    await rates.locator('tbody tr').first().waitFor();
    await screenshot(page, 'currencies-rates');
    // On a phone: the form and the list fit, the table scrolls inside itself.
    await expectFitsPhone(page);
    await screenshot(page, 'currencies-rates-phone');

    expectClean(app, [422]);
    await app.close();
  });
});

describe('revaluation', () => {
  it('revalues an open euro invoice from the rates screen, reached from the balance sheet and the trial balance; a later day and a second revaluation of the day are refused', async () => {
    const owner = await registerBusiness(server(), 'Revalue Ltd');
    const customer = await createCustomer(owner.client, { name: 'Café de Flore' });
    await setRate(owner, 'EUR', '2026-11-02', '1.05');
    await issuedInvoice(owner.client, {
      customer_id: customer.id,
      currency: 'EUR',
      issue_date: '2026-11-03',
      due_date: '2026-12-31',
      items: [invoiceLine({ unit_price: 1000 })],
    });
    await setRate(owner, 'EUR', '2026-11-30', '1.1');

    // The trial balance and the balance sheet of the 30th offer to revalue on that day.
    const app = await open(owner, '/finance/trial-balance?as_of=2026-11-30');
    const { page } = app;
    await page.getByRole('heading', { name: 'Trial balance', level: 1 }).waitFor();
    const revalueLink = page.getByRole('link', {
      name: `Revalue them at the rates of ${await dayIn(page, '2026-11-30')}`,
    });
    await revalueLink.waitFor();
    expect(await revalueLink.getAttribute('href')).toBe('/app/finance/exchange-rates?revalue=2026-11-30');
    await expectAccessible(page, 'trial balance with revalue link');
    await page.goto('/app/finance/balance-sheet?as_of=2026-11-30');
    await page.getByRole('heading', { name: 'Balance sheet', level: 1 }).waitFor();
    await page.locator('[data-balanced="yes"]').waitFor();
    await expectAccessible(page, 'balance sheet with revalue link');
    await revalueLink.click();

    // The rates screen, its revaluation's day filled in and the field focused.
    await page.getByRole('heading', { name: 'Exchange rates', level: 1 }).waitFor();
    const revalue = page.getByRole('form', { name: 'Revalue' });
    const asOf = revalue.getByLabel('As of');
    expect(await asOf.inputValue()).toBe('2026-11-30');
    await expect
      .poll(() => page.evaluate<string | null>("document.activeElement?.getAttribute('name') ?? null"))
      .toBe('as_of');
    await page.getByText('No revaluation yet').waitFor();

    // A day after today: its rates are not known yet.
    await asOf.fill('2026-12-06');
    await revalue.getByRole('button', { name: 'Revalue' }).click();
    expect(await errorBeside(asOf)).toMatch(/^Must be on or before today \(2026-12-05\)/);

    // The 30th: 1,000.00 EUR carried at 1,050.00 USD is 1,100.00 at 1.1, a gain of 50.00.
    await asOf.fill('2026-11-30');
    await revalue.getByRole('button', { name: 'Revalue' }).click();
    const result = page.locator('.revaluation-result');
    await result.waitFor();
    await page.getByText(`an unrealised gain of ${await inPage(page, 50)}`, { exact: false }).waitFor();
    const line = result.getByRole('table', { name: /Balances revalued on/ }).locator('tbody tr');
    expect(await line.count()).toBe(1);
    const cells = await line.locator('td').allTextContents();
    expect(cells).toEqual([
      '1200 Accounts receivable',
      await withCode(page, 100000, 'EUR'),
      await withCode(page, 105000, 'USD'),
      '1 EUR = 1.1 USD',
      await withCode(page, 110000, 'USD'),
      await withCode(page, 5000, 'USD'),
    ]);
    expect(await result.locator('[data-gain]').getAttribute('data-gain')).toBe('5000');
    expect(await result.locator('[data-loss]').getAttribute('data-loss')).toBe('0');
    const made = page.getByRole('table', { name: 'Revaluations made' });
    await expect.poll(() => made.locator('tbody tr').count()).toBe(1);
    expect(await made.locator('tbody tr').textContent()).toContain('EUR');
    await expectAccessible(page, 'revaluation made');
    await screenshot(page, 'currencies-revaluation');

    // Once a day: the second is refused, and says where the first is.
    await revalue.getByRole('button', { name: 'Revalue' }).click();
    await revalue
      .getByText(
        `The books were already revalued on ${await dayIn(page, '2026-11-30')}: that revaluation is listed below. Choose another day.`,
      )
      .waitFor();
    const listed = await unwrap(owner.client.finance.revaluations.listRevaluations({ query: {} }));
    expect(listed.revaluations.map((r) => [r.as_of, r.gain, r.loss])).toEqual([['2026-11-30', 5000, 0]]);

    // Its entries in the journal: the difference in dollars on an entry in euros, and its reversal.
    await result.getByRole('link', { name: 'See the entries in the journal' }).click();
    await page.getByRole('heading', { name: 'Journal', level: 1 }).waitFor();
    const revaluationEntry = page.locator('tr.entry-start').filter({
      has: page.locator('td:nth-child(2)', { hasText: /^Revaluation of EUR balances/ }),
    });
    await revaluationEntry.waitFor();
    expect(await revaluationEntry.locator('.fx-base').first().textContent()).toBe(
      await withCode(page, 5000, 'USD'),
    );
    expect(await revaluationEntry.locator('.fx-amount').first().textContent()).toBe(
      await withCode(page, 0, 'EUR'),
    );

    // Back on the rates screen, a revaluation made shows its lines again.
    await page.goto('/app/finance/exchange-rates');
    await page
      .getByRole('button', { name: `Show the revaluation of ${await dayIn(page, '2026-11-30')}` })
      .click();
    await result.locator('[data-difference="5000"]').waitFor();

    expectClean(app, [409, 422]);
    await app.close();
  });
});

describe('base amounts', () => {
  it('shows the journal’s euro entries with their rate and each line’s base amount, and the base equivalent of a euro invoice and bill', async () => {
    const owner = await registerBusiness(server(), 'Euro Books Ltd');
    const customer = await createCustomer(owner.client, { name: 'Brasserie Lipp' });
    await setRate(owner, 'EUR', '2026-11-02', '1.05');
    await setRate(owner, 'EUR', '2026-11-15', '1.08');
    const invoice = await issuedInvoice(owner.client, {
      customer_id: customer.id,
      currency: 'EUR',
      issue_date: '2026-11-03',
      due_date: '2026-12-31',
      items: [invoiceLine({ unit_price: 1000 })],
    });
    // 400.00 EUR received at 1.08 (432.00 USD) takes off 420.00 carried at 1.05: 12.00 gained.
    const paid = await payInvoice(owner.client, invoice.id, 400, { payment_date: '2026-11-20' });
    const vendor = await createVendor(owner.client, { name: 'Papeterie Gibert', currency: 'EUR' });
    const bill = await billOf(owner.client, 25000, {
      vendor_id: vendor.id,
      currency: 'EUR',
      issue_date: '2026-11-16',
    });
    const invoiceEntry = await entryOf(owner.client, 'invoice', invoice.id);
    const paymentEntry = await entryOf(owner.client, 'invoice_payment', paid.payments[0]!.id);
    expect(paymentEntry.credits.map((l) => [l.account, l.amount, l.base_amount])).toEqual([
      ['1200', 40000, 42000],
      ['4900', 0, 1200],
    ]);

    // The journal: each euro entry names its rate; each line its euros and, under them, its dollars.
    const app = await open(owner, '/finance/journal');
    const { page } = app;
    await page.getByRole('heading', { name: 'Journal', level: 1 }).waitFor();
    const entryRows = (id: string) => page.locator(`tr[data-entry="${id}"]`);
    await entryRows(invoiceEntry.id).first().waitFor();
    const issued = entryRows(invoiceEntry.id);
    expect(await issued.first().locator('.fx-rate').textContent()).toBe('1 EUR = 1.05 USD');
    expect(await issued.first().locator('.fx-rate').getAttribute('data-rate')).toBe('1.05');
    // Debit 1200 (first row), credit 4000 (second): EUR 1,000.00 over USD 1,050.00.
    for (const row of [issued.nth(0), issued.nth(1)]) {
      expect(await row.locator('.fx-amount').textContent()).toBe(await withCode(page, 100000, 'EUR'));
      expect(await row.locator('.fx-base').textContent()).toBe(await withCode(page, 105000, 'USD'));
    }
    const payment = entryRows(paymentEntry.id);
    expect(await payment.first().locator('.fx-rate').textContent()).toBe('1 EUR = 1.08 USD');
    const gainRow = payment.filter({ hasText: '4900' });
    expect(await gainRow.locator('.fx-amount').textContent()).toBe(await withCode(page, 0, 'EUR'));
    expect(await gainRow.locator('.fx-base').getAttribute('data-base-amount')).toBe('1200');
    expect(await gainRow.locator('.fx-base').textContent()).toBe(await withCode(page, 1200, 'USD'));
    await expectAccessible(page, 'journal with euro entries');
    await screenshot(page, 'currencies-journal');

    // The invoice: its 1,000.00 EUR is 1,050.00 USD at the rate of its issue date.
    await page.goto(`/app/invoices/${invoice.id}`);
    await page.getByRole('heading', { name: `Invoice ${invoice.number}` }).waitFor();
    const invoiceBase = page.locator('[data-base-equivalent]');
    await invoiceBase.waitFor();
    expect(await invoiceBase.getAttribute('data-base-equivalent')).toBe('105000');
    expect(await invoiceBase.textContent()).toBe(await inPage(page, 1050));
    const facts = page.locator('dl.facts');
    expect(await facts.textContent()).toContain('Total in USD');
    expect(await facts.locator('.base-rate').textContent()).toBe(
      `The base equivalent at 1 EUR = 1.05 USD, the rate of its issue date (set on ${await dayIn(page, '2026-11-02')}).`,
    );
    await expectAccessible(page, 'euro invoice with its base equivalent');
    await screenshot(page, 'currencies-invoice');

    // The bill: 250.00 EUR on the 16th, at the rate of the 15th (1.08), is 270.00 USD.
    await page.goto(`/app/finance/bills/${bill.id}`);
    await page.getByRole('heading', { name: 'Bill from Papeterie Gibert' }).waitFor();
    await page.locator('[data-base-equivalent]').waitFor();
    expect(await page.locator('[data-base-equivalent]').getAttribute('data-base-equivalent')).toBe('27000');
    expect(await page.locator('dl.facts .base-rate').textContent()).toContain('1 EUR = 1.08 USD');
    await expectAccessible(page, 'euro bill with its base equivalent');

    // An invoice given its own rate posts at it, not at the table's, and the screen says so:
    // 333.33 EUR at 1.1234 is 374.46 USD, what its receivable line carries in the journal.
    const ownRate = await issuedInvoice(owner.client, {
      customer_id: customer.id,
      currency: 'EUR',
      issue_date: '2026-11-20',
      due_date: '2026-12-31',
      exchange_rate: '1.1234',
      items: [invoiceLine({ unit_price: 333.33 })],
    });
    const ownEntry = await entryOf(owner.client, 'invoice', ownRate.id);
    expect(ownEntry.debits.map((l) => [l.account, l.amount, l.base_amount])).toEqual([
      ['1200', 33333, 37446],
    ]);
    await page.goto(`/app/invoices/${ownRate.id}`);
    await page.getByRole('heading', { name: `Invoice ${ownRate.number}` }).waitFor();
    await page.locator('[data-base-equivalent]').waitFor();
    expect(await page.locator('[data-base-equivalent]').getAttribute('data-base-equivalent')).toBe('37446');
    expect(await page.locator('dl.facts .base-rate').textContent()).toBe(
      'The base equivalent at 1 EUR = 1.1234 USD, the rate it was given to post at.',
    );

    expectClean(app);
    await app.close();
  });
});

describe('converted sales', () => {
  it('counts the sales schedule in the base currency alone by default, or every currency converted when asked', async () => {
    const owner = await registerBusiness(server(), 'Two Currencies Ltd');
    const customer = await createCustomer(owner.client, { name: 'Café de Flore' });
    await setRate(owner, 'EUR', '2026-11-02', '1.05');
    await issuedInvoice(owner.client, {
      customer_id: customer.id,
      issue_date: '2026-11-03',
      due_date: '2026-12-31',
      items: [invoiceLine({ unit_price: 100 })],
    });
    // 1,000.00 EUR issued at 1.05: 1,050.00 USD.
    await issuedInvoice(owner.client, {
      customer_id: customer.id,
      currency: 'EUR',
      issue_date: '2026-11-03',
      due_date: '2026-12-31',
      items: [invoiceLine({ unit_price: 1000 })],
    });

    const app = await open(owner, '/finance/sales-schedule?start_date=2026-11-01&end_date=2026-11-30');
    const { page } = app;
    const total = page.locator('[data-total-revenue]');
    await expect.poll(() => total.textContent()).toBe(await inPage(page, 100));
    expect(await page.locator('[data-total-invoices]').textContent()).toBe('1');
    expect(await page.locator('[data-converted]').count()).toBe(0);

    const filters = page.getByRole('search', { name: 'Sales schedule range' });
    await filters.getByLabel('Sales counted').selectOption({ label: 'Every currency, converted to USD' });
    await filters.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => total.textContent()).toBe(await inPage(page, 1150));
    expect(await page.locator('[data-total-invoices]').textContent()).toBe('2');
    expect(new URL(page.url()).searchParams.get('converted')).toBe('true');
    expect(await page.locator('[data-converted]').textContent()).toContain(
      'each at the rate its invoice posted at',
    );
    // The invoices keep their own currency.
    const rows = page.getByRole('table', { name: 'Invoices of the range' }).locator('tbody tr');
    expect(await rows.count()).toBe(2);
    const amounts = await page
      .getByRole('table', { name: 'Invoices of the range' })
      .locator('tbody tr td:last-child')
      .allTextContents();
    expect(amounts.sort()).toEqual(
      [await withCode(page, 100000, 'EUR'), await withCode(page, 10000, 'USD')].sort(),
    );
    await expectAccessible(page, 'sales schedule converted');
    await screenshot(page, 'currencies-sales-converted');

    // Converted sales with a currency other than the base: the service's refusal says what to send.
    await filters.getByLabel('Currency').selectOption('EUR');
    await filters.getByRole('button', { name: 'Apply' }).click();
    await expect
      .poll(() => page.getByRole('alert').first().textContent())
      .toContain('With converted=true the sales are in the base currency, USD');
    expectClean(app, [422]);
    await app.close();
  });
});
