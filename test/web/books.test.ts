import type { Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import {
  expectAccessible,
  errorBeside,
  expectClean,
  inPage,
  openApp,
  screenshot,
  useBrowser,
  type AppPage,
} from '../support/browser.js';
import { registerBusiness, signedInMember, type TestBusiness } from '../support/business.js';
import { billItem, createBill, createVendor, payBill } from '../support/finance.js';
import { createCustomer, invoiceLine, issuedInvoice, payInvoice } from '../support/general.js';
import { useTestServer } from '../support/setup.js';

/**
 * The books in a real browser, over one invoice and one bill with VAT made through the API: the
 * balance sheet balancing with the year's earnings computed, the cash flow's waterfall and its
 * figures, both ageings in their buckets, an account's ledger with its running balance, the VAT
 * return's net due with its documents, the profit and loss PDF offered, and the lock date set by the
 * owner, a future date and an accountant's move earlier refused beside the field.
 */

// Tokens outlive the clock set below.
const server = useTestServer({ env: { ACCESS_TOKEN_TTL: '3650d' }, worker: false });
const browser = useBrowser();

const NOW = '2026-11-21T09:00:00.000Z';

beforeEach(() => server().clock.set(NOW));
afterEach(() => server().clock.reset());

async function open(business: { accessToken: string }, path: string): Promise<AppPage> {
  const app = await openApp(browser(), server().baseUrl, `/app${path}`, {
    accessToken: business.accessToken,
  });
  app.page.setDefaultTimeout(10_000);
  return app;
}

/** Minor units of USD as the page's locale writes them. */
const usd = (page: Page, minor: number) => inPage(page, minor / 100);

const text = async (page: Page, selector: string) =>
  (await page.locator(selector).first().textContent())?.trim();

/**
 * An invoice of 1,000.00 at 20 % (1,200.00) issued on 2026-09-15, due 2026-10-01, half paid on
 * 2026-11-10; a bill of 500.00 at 20 % (600.00) of 2026-11-01, due 2026-12-15, half paid on 2026-11-20.
 */
async function seed(owner: TestBusiness) {
  const customer = await createCustomer(owner.client, { name: 'Grace Hopper' });
  const invoice = await issuedInvoice(owner.client, {
    customer_id: customer.id,
    issue_date: '2026-09-15',
    due_date: '2026-10-01',
    items: [invoiceLine({ description: 'Consulting (hours)', quantity: 10, unit_price: 100, tax_rate: 20 })],
  });
  await payInvoice(owner.client, invoice.id, 600, { payment_date: '2026-11-10' });
  const vendor = await createVendor(owner.client, { name: 'Paper Mill Ltd' });
  const bill = await createBill(owner.client, {
    vendor_id: vendor.id,
    issue_date: '2026-11-01',
    due_date: '2026-12-15',
    items: [billItem({ description: 'Printer paper', quantity: 1, unit_price: 50000, tax_rate: 20 })],
  });
  await payBill(owner.client, bill.id, 30000, { payment_date: '2026-11-20' });
  return { customer, invoice, vendor, bill };
}

describe('the books', () => {
  it('shows the balance sheet, cash flow, ageing, ledger and VAT return of an invoice and a bill, and sets the lock date', async () => {
    const owner = await registerBusiness(server(), 'Books Ltd');
    const { customer, vendor } = await seed(owner);

    // The service's own figures, which the screens must show.
    const sheet = await unwrap(owner.client.finance.books.getBalanceSheet({ query: {} }));
    expect(sheet.data).toMatchObject({
      as_of: '2026-11-21',
      currency: 'USD',
      total_assets: 100000,
      total_liabilities: 50000,
      current_year_earnings: 50000,
      total_liabilities_and_equity: 100000,
    });

    // Balance sheet.
    const app = await open(owner, '/finance/balance-sheet');
    const { page } = app;
    await page.getByRole('heading', { name: 'Balance sheet', level: 1 }).waitFor();
    await page.locator('[data-balanced="yes"]').waitFor();
    expect(await text(page, '[data-assets]')).toBe(await usd(page, 100000));
    expect(await text(page, '[data-liabilities-equity]')).toBe(await usd(page, 100000));
    expect(await text(page, '[data-earnings]')).toBe(await usd(page, 50000));
    expect(await text(page, 'table[data-section="liabilities"] [data-total]')).toBe(await usd(page, 50000));
    const assets = page.locator('table[data-section="assets"] tbody');
    expect(await assets.getByRole('row', { name: /Accounts receivable/ }).textContent()).toContain(
      await usd(page, 60000),
    );
    expect(await assets.getByRole('row', { name: /VAT receivable/ }).textContent()).toContain(
      await usd(page, 10000),
    );
    expect(
      await page
        .locator('table[data-section="equity"]')
        .getByRole('row', { name: /earnings/i })
        .count(),
    ).toBeGreaterThanOrEqual(1);
    await page.getByRole('button', { name: 'Download CSV of the balance sheet' }).waitFor();
    await page.getByRole('button', { name: 'Download PDF' }).waitFor();
    await expectAccessible(page, 'balance sheet');
    await screenshot(page, 'books-balance-sheet');
    // An earlier day: before anything was posted, nothing but a balance of zero.
    await page.getByLabel('As of').fill('2026-08-31');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => text(page, '[data-assets]')).toBe(await usd(page, 0));

    // Cash flow: opening 0, customers +600, suppliers −300, closing 300; the waterfall and its table.
    await page.goto('/app/finance/cash-flow');
    await page.getByRole('heading', { name: 'Cash flow', level: 1 }).waitFor();
    await page.locator('[data-figure="closing"]').waitFor();
    expect(await text(page, '[data-figure="opening"]')).toBe(await usd(page, 0));
    expect(await text(page, '[data-figure="customers"]')).toBe(await usd(page, 60000));
    expect(await text(page, '[data-figure="suppliers"]')).toBe(await usd(page, -30000));
    expect(await text(page, '[data-figure="closing"]')).toBe(await usd(page, 30000));
    const chart = page.getByRole('img', { name: /Cash from opening to closing/ });
    expect(await chart.getAttribute('data-bars')).toBe('8');
    const figures = page.getByRole('table', { name: 'The figures behind the chart' });
    expect(await figures.getByRole('row', { name: /Closing/ }).textContent()).toContain(
      await usd(page, 30000),
    );
    expect(await figures.getByRole('row', { name: /Suppliers/ }).textContent()).toContain(
      await usd(page, -30000),
    );
    await expectAccessible(page, 'cash flow');
    await screenshot(page, 'books-cash-flow');

    // Aged receivables: 600.00 of Grace Hopper 51 days past due; then the payables by the switch.
    await page.goto('/app/finance/aged-receivables');
    await page.getByRole('heading', { name: 'Aged receivables', level: 1 }).waitFor();
    const customerRow = page.locator(`table.ageing tr[data-id="${customer.id}"]`);
    await customerRow.waitFor();
    expect(await customerRow.textContent()).toContain('Grace Hopper');
    expect(await text(page, '[data-total]')).toBe(await usd(page, 60000));
    expect(await text(page, '[data-bucket="days_31_60"] .bucket-amount')).toBe(await usd(page, 60000));
    expect(await text(page, '[data-bucket="current"] .bucket-amount')).toBe(await usd(page, 0));
    await expectAccessible(page, 'aged receivables');
    await screenshot(page, 'books-aged-receivables');
    await page
      .getByRole('navigation', { name: 'Receivables or payables' })
      .getByRole('link', { name: 'Payables' })
      .click();
    await page.getByRole('heading', { name: 'Aged payables', level: 1 }).waitFor();
    const vendorRow = page.locator(`table.ageing tr[data-id="${vendor.id}"]`);
    await vendorRow.waitFor();
    expect(await vendorRow.textContent()).toContain('Paper Mill Ltd');
    expect(await text(page, '[data-bucket="current"] .bucket-amount')).toBe(await usd(page, 30000));
    await expectAccessible(page, 'aged payables');
    await screenshot(page, 'books-aged-payables');

    // General ledger: a prompt until an account is chosen; receivables from the invoice and its payment.
    await page.goto('/app/finance/general-ledger');
    await page.getByText('No account chosen yet').waitFor();
    await page.getByLabel('Account', { exact: true }).selectOption('1200');
    await page.getByLabel('From').fill('2026-01-01');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.locator('table.ledger').waitFor();
    expect(await text(page, '[data-opening]')).toBe(await usd(page, 0));
    expect(await text(page, '[data-closing]')).toBe(await usd(page, 60000));
    expect(await page.locator('table.ledger [data-balance]').allTextContents()).toEqual([
      await usd(page, 120000),
      await usd(page, 60000),
    ]);
    await expectAccessible(page, 'general ledger');
    await screenshot(page, 'books-general-ledger');

    // VAT return: output 200.00, input 100.00, 100.00 due; the invoice and the bill behind them.
    await page.goto('/app/finance/vat-return?start_date=2026-09-01&end_date=2026-11-21');
    await page.getByRole('heading', { name: 'VAT return', level: 1 }).waitFor();
    await page.locator('[data-net]').waitFor();
    expect(await text(page, '[data-output]')).toBe(await usd(page, 20000));
    expect(await text(page, '[data-input]')).toBe(await usd(page, 10000));
    expect(await text(page, '[data-net]')).toBe(await usd(page, 10000));
    await page.getByText('Net due', { exact: true }).waitFor();
    expect(await page.locator('table[data-side="vat-output"] tbody tr').count()).toBe(1);
    expect(await page.locator('table[data-side="vat-input"] tbody tr').count()).toBe(1);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download CSV of the VAT return' }).click();
    expect((await download).suggestedFilename()).toMatch(/\.csv$/);
    await expectAccessible(page, 'VAT return');
    await screenshot(page, 'books-vat-return');

    // Profit and loss: its PDF offered beside the title.
    await page.goto('/app/finance/profit-and-loss');
    await page.getByRole('heading', { name: 'Profit and loss', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Download PDF' }).waitFor();

    // Lock date: none yet; a future day refused beside the field; a past day taken.
    await page.goto('/app/finance/lock-date');
    await page.getByText('No period is locked', { exact: false }).waitFor();
    await expectAccessible(page, 'lock date, none');
    const field = page.getByLabel('Lock date', { exact: true });
    await field.fill('2026-12-01');
    await page.getByRole('button', { name: 'Lock the books' }).click();
    await expect.poll(() => errorBeside(field)).toMatch(/today|earlier/i);
    await expectAccessible(page, 'lock date, refused');
    await screenshot(page, 'books-lock-date-future');
    await field.fill('2026-10-31');
    await page.getByRole('button', { name: 'Lock the books' }).click();
    await page.locator('[data-lock-date="2026-10-31"]').waitFor();
    await page.getByText('The books are locked up to and including 2026-10-31.').waitFor();
    expect((await unwrap(owner.client.finance.books.getLockDate())).data.lock_date).toBe('2026-10-31');
    await page.getByRole('button', { name: 'Clear the lock date' }).waitFor();
    await expectAccessible(page, 'lock date, set');
    await screenshot(page, 'books-lock-date');
    expectClean(app, [422]);
    await app.close();

    // An accountant may move it later, not earlier: told that only an owner can.
    const accountant = await signedInMember(server(), owner, 'accountant');
    const second = await open(accountant, '/finance/lock-date');
    const other = second.page;
    await other.locator('[data-lock-date="2026-10-31"]').waitFor();
    expect(await other.getByRole('button', { name: 'Clear the lock date' }).count()).toBe(0);
    await other.getByLabel('Lock date', { exact: true }).fill('2026-10-15');
    await other.getByRole('button', { name: 'Lock the books' }).click();
    await other.getByText(/Only an owner can move the lock date earlier than/).waitFor();
    expect((await unwrap(owner.client.finance.books.getLockDate())).data.lock_date).toBe('2026-10-31');
    await expectAccessible(other, 'lock date, accountant refused');
    await screenshot(other, 'books-lock-date-accountant');
    expectClean(second, [403]);
    await second.close();
  });
});
