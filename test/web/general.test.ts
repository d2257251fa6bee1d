import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import {
  expectAccessible,
  errorBeside,
  expectClean,
  firstCells,
  inPage,
  openApp,
  screenshot,
  useBrowser,
  type AppPage,
} from '../support/browser.js';
import { registerBusiness, signedInMember } from '../support/business.js';
import {
  createCustomer,
  createInvoice,
  createProduct,
  getInvoice,
  issuedInvoice,
  uniqueSku,
} from '../support/general.js';
import { useTestServer } from '../support/setup.js';

/**
 * The general group's screens in a real browser: customers, products, invoices and quotes, created,
 * changed and moved through their states in the dashboard as a person would, checked against what the
 * API then answers.
 */

const server = useTestServer({ worker: false });
const browser = useBrowser();

/** The dashboard at `path`, signed in; a step that waits longer than 10 s fails naming what it waited for. */
async function open(business: { accessToken: string }, path: string): Promise<AppPage> {
  const app = await openApp(browser(), server().baseUrl, `/app${path}`, {
    accessToken: business.accessToken,
  });
  app.page.setDefaultTimeout(10_000);
  return app;
}

const liveTotal = (page: Page) => page.locator('.totals-panel [data-total]').textContent();

describe('customers, products and an invoice from draft to paid', () => {
  it('adds a customer and a product, invoices them with live totals, issues, records the payment and finds it under Paid', async () => {
    const owner = await registerBusiness(server(), 'Flow Ltd');
    const app = await open(owner, '/customers');
    const { page } = app;

    await page.getByText('No customers yet').waitFor();
    await expectAccessible(page, 'customers, empty');
    await screenshot(page, 'general-customers-empty');

    await page.getByRole('button', { name: 'New customer' }).click();
    const dialog = page.getByRole('dialog', { name: 'New customer' });
    await dialog.getByLabel('Name', { exact: true }).fill('Grace Hopper');
    await dialog.getByLabel('Email', { exact: true }).fill('grace@example.test');
    await dialog.getByLabel('Company', { exact: true }).fill('Harvard Computation Lab');
    await dialog.locator('summary', { hasText: 'Address' }).click();
    await dialog.getByLabel('City', { exact: true }).fill('Cambridge');
    await dialog.getByLabel('Country', { exact: true }).fill('us');
    await expectAccessible(page, 'new customer dialog');
    await screenshot(page, 'general-customer-new');
    await dialog.getByRole('button', { name: 'Add customer' }).click();

    await page.getByRole('heading', { name: 'Grace Hopper' }).waitFor();
    const customerId = /\/app\/customers\/(cus_\w+)$/.exec(page.url())?.[1];
    expect(customerId).toBeDefined();
    const saved = (await unwrap(owner.client.general.customers.getCustomer({ params: { id: customerId! } })))
      .data;
    expect(saved).toMatchObject({
      name: 'Grace Hopper',
      email: 'grace@example.test',
      company: 'Harvard Computation Lab',
      address: { city: 'Cambridge', country: 'US' },
    });
    await page.getByText('No invoices yet').waitFor();

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Products' }).click();
    await page.getByText('No products yet').waitFor();
    await page.getByRole('button', { name: 'New product' }).click();
    const productDialog = page.getByRole('dialog', { name: 'New product' });
    await productDialog.getByLabel('Name', { exact: true }).fill('Espresso beans 1kg');
    await productDialog.getByLabel('SKU', { exact: true }).fill('BEAN-1KG');
    await productDialog.getByLabel('Unit price', { exact: true }).fill('24.50');
    await productDialog.getByLabel('In stock', { exact: true }).fill('120');
    expect(await productDialog.getByLabel('Currency').inputValue()).toBe('USD');
    await productDialog.getByRole('button', { name: 'Add product' }).click();
    await page.getByText('Espresso beans 1kg was added.').waitFor();
    const productRow = page.getByRole('row', { name: /Espresso beans 1kg/ });
    expect(await productRow.textContent()).toContain(await inPage(page, 24.5, 'USD'));
    await expectAccessible(page, 'products');
    await screenshot(page, 'general-products');

    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Invoices', exact: true })
      .click();
    await page.getByText('No invoices yet').waitFor();
    await page.getByRole('link', { name: 'New invoice' }).click();
    await page.getByRole('heading', { name: 'New invoice' }).waitFor();
    await page.getByLabel('Customer', { exact: true }).selectOption(customerId!);
    // Line 1 from the product: its name and price filled in.
    await page.getByLabel('Product, line 1').selectOption({ label: 'Espresso beans 1kg (BEAN-1KG)' });
    expect(await page.getByLabel('Description, line 1').inputValue()).toBe('Espresso beans 1kg');
    expect(await page.getByLabel('Unit price in USD, line 1').inputValue()).toBe('24.50');
    await page.getByLabel('Quantity, line 1').fill('3');
    await page.getByLabel('Tax percent, line 1').fill('20');
    // Line 2 described by hand.
    await page.getByRole('button', { name: 'Add line' }).click();
    await page.getByLabel('Description, line 2').fill('Grinder setup');
    await page.getByLabel('Quantity, line 2').fill('1');
    await page.getByLabel('Unit price in USD, line 2').fill('100.10');

    // 3 x 24.50 = 73.50 with 14.70 tax, plus 100.10: 173.60 + 14.70 = 188.30, exactly.
    const expected = await inPage(page, 188.3, 'USD');
    expect(await page.locator('.totals-panel [data-subtotal]').textContent()).toBe(
      await inPage(page, 173.6, 'USD'),
    );
    expect(await page.locator('.totals-panel [data-tax]').textContent()).toBe(
      await inPage(page, 14.7, 'USD'),
    );
    expect(await liveTotal(page)).toBe(expected);
    await expectAccessible(page, 'new invoice');
    await screenshot(page, 'general-invoice-new');

    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByRole('heading', { name: 'Invoice INV-000001' }).waitFor();
    const invoiceId = /\/app\/invoices\/(inv_\w+)$/.exec(page.url())?.[1];
    const draft = await getInvoice(owner.client, invoiceId!);
    expect(draft).toMatchObject({
      status: 'draft',
      subtotal: 173.6,
      tax: 14.7,
      total: 188.3,
      currency: 'USD',
    });
    expect(draft.items.map((i) => i.product_id)).toEqual([expect.stringMatching(/^prod_/), null]);
    expect(await page.locator('.totals [data-total]').textContent()).toBe(expected);
    await screenshot(page, 'general-invoice-draft');

    await page.getByRole('button', { name: 'Issue invoice' }).click();
    await page.getByText('Issued: INV-000001').waitFor();
    expect(await page.locator('.status-line .badge').textContent()).toBe('unpaid');
    expect((await getInvoice(owner.client, invoiceId!)).status).toBe('unpaid');

    await page.getByRole('button', { name: 'Record payment' }).click();
    const payment = page.getByRole('dialog', { name: 'Record a payment of INV-000001' });
    expect(await payment.getByLabel('Amount in USD').inputValue()).toBe('188.30');
    await payment.getByLabel('Method').selectOption('card');
    await payment.getByLabel('Reference').fill('RCPT-42');
    await expectAccessible(page, 'record payment dialog');
    await screenshot(page, 'general-invoice-payment');
    await payment.getByRole('button', { name: 'Record payment' }).click();
    await page.getByText('Payment recorded: INV-000001 is paid in full.').waitFor();
    expect(await page.locator('.status-line .badge').textContent()).toBe('paid');
    expect(await page.getByRole('row', { name: /RCPT-42/ }).textContent()).toContain(expected);
    const paid = await getInvoice(owner.client, invoiceId!);
    expect(paid).toMatchObject({ status: 'paid', amount_paid: 188.3, amount_due: 0 });
    expect(paid.payments).toMatchObject([{ amount: 188.3, payment_method: 'card', reference: 'RCPT-42' }]);
    await page.getByRole('button', { name: 'Record payment' }).waitFor({ state: 'detached' });
    await expectAccessible(page, 'paid invoice');
    await screenshot(page, 'general-invoice-paid');

    await page.getByRole('link', { name: 'Invoices', exact: true }).first().click();
    await page
      .getByRole('navigation', { name: 'Invoice status' })
      .getByRole('link', { name: 'Draft' })
      .click();
    await page.getByText('No draft invoices').waitFor();
    expect(new URL(page.url()).searchParams.get('status')).toBe('draft');
    await page
      .getByRole('navigation', { name: 'Invoice status' })
      .getByRole('link', { name: 'Paid', exact: true })
      .click();
    await page.getByRole('row', { name: /INV-000001/ }).waitFor();
    expect(new URL(page.url()).searchParams.get('status')).toBe('paid');
    expect(await page.getByRole('row', { name: /INV-000001/ }).textContent()).toContain('Grace Hopper');

    // The filtered URL is a bookmark: a reload lands on the same view.
    await page.reload();
    await page.getByRole('row', { name: /INV-000001/ }).waitFor();
    expect(
      await page
        .getByRole('navigation', { name: 'Invoice status' })
        .getByRole('link', { name: 'Paid', exact: true })
        .getAttribute('aria-current'),
    ).toBe('page');
    expect(await firstCells(page)).toEqual(['INV-000001']);
    await expectAccessible(page, 'invoices filtered by paid');
    await screenshot(page, 'general-invoices-paid');

    // The customer's page lists the invoice.
    await page
      .getByRole('row', { name: /INV-000001/ })
      .getByRole('link', { name: 'Grace Hopper' })
      .click();
    await page.getByRole('heading', { name: 'Grace Hopper' }).waitFor();
    await page
      .getByRole('table', { name: 'Invoices of Grace Hopper' })
      .getByRole('link', { name: 'INV-000001' })
      .waitFor();
    await expectAccessible(page, 'customer');
    await screenshot(page, 'general-customer');

    expectClean(app);
    await app.close();
  });

  it('prices JPY and KWD lines in their own decimals, as the service does', async () => {
    const owner = await registerBusiness(server(), 'Currencies Ltd');
    const customer = await createCustomer(owner.client, { name: 'Kenji Sato' });
    const app = await open(owner, `/invoices/new?customer_id=${customer.id}`);
    const { page } = app;
    await page.getByRole('heading', { name: 'New invoice' }).waitFor();
    // The customer named in the URL is chosen.
    await expect.poll(() => page.getByLabel('Customer', { exact: true }).inputValue()).toBe(customer.id);
    await page.getByLabel('Currency').selectOption('JPY');
    await page.getByLabel('Description, line 1').fill('Omakase');
    await page.getByLabel('Quantity, line 1').fill('3');
    await page.getByLabel('Unit price in JPY, line 1').fill('1250');
    await page.getByLabel('Tax percent, line 1').fill('10');
    // 3750 + 375 = 4125, no decimals.
    const yen = await inPage(page, 4125, 'JPY');
    expect(yen).not.toMatch(/[.,]\d{2}$/);
    expect(await liveTotal(page)).toBe(yen);
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByRole('heading', { name: /^Invoice INV-/ }).waitFor();
    const jpy = await getInvoice(owner.client, /(inv_\w+)$/.exec(page.url())![1]!);
    expect(jpy).toMatchObject({ currency: 'JPY', subtotal: 3750, tax: 375, total: 4125 });
    expect(await page.locator('.totals [data-total]').textContent()).toBe(yen);

    await page.goto(`/app/invoices/new?customer_id=${customer.id}`);
    await page.getByRole('heading', { name: 'New invoice' }).waitFor();
    await page.getByLabel('Currency').selectOption('KWD');
    await page.getByLabel('Description, line 1').fill('Dates, 1 kg');
    await page.getByLabel('Quantity, line 1').fill('2');
    await page.getByLabel('Unit price in KWD, line 1').fill('1.235');
    await page.getByLabel('Tax percent, line 1').fill('5');
    await page.getByRole('button', { name: 'Add line' }).click();
    await page.getByLabel('Description, line 2').fill('Delivery');
    await page.getByLabel('Quantity, line 2').fill('0.5');
    await page.getByLabel('Unit price in KWD, line 2').fill('0.003');
    await page.getByLabel('Tax percent, line 2').fill('5');
    // 2.470 + 0.002 (0.0015 rounded half-up); taxes 0.1235 + 0.0001 summed exactly, then rounded once: 0.124.
    const dinar = await inPage(page, 2.596, 'KWD');
    expect(await liveTotal(page)).toBe(dinar);
    expect(await page.locator('.totals-panel [data-tax]').textContent()).toBe(
      await inPage(page, 0.124, 'KWD'),
    );
    await screenshot(page, 'general-invoice-new-kwd');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByRole('heading', { name: /^Invoice INV-/ }).waitFor();
    const kwd = await getInvoice(owner.client, /(inv_\w+)$/.exec(page.url())![1]!);
    expect(kwd).toMatchObject({ currency: 'KWD', subtotal: 2.472, tax: 0.124, total: 2.596 });
    expect(await page.locator('.totals [data-total]').textContent()).toBe(dinar);
    expectClean(app);
    await app.close();
  });
});

describe('refusals beside their fields', () => {
  it('shows a missing name (the schema), a taken email (409) and a price in too many decimals (422) where they belong', async () => {
    const owner = await registerBusiness(server(), 'Refusals Ltd');
    await createCustomer(owner.client, { name: 'Ada Lovelace', email: 'ada@example.test' });
    const app = await open(owner, '/customers');
    const { page } = app;
    await page.getByRole('row', { name: /Ada Lovelace/ }).waitFor();

    await page.getByRole('button', { name: 'New customer' }).click();
    const dialog = page.getByRole('dialog', { name: 'New customer' });
    await dialog.getByRole('button', { name: 'Add customer' }).click();
    const name = dialog.getByLabel('Name', { exact: true });
    expect(await errorBeside(name)).toBe('Fill this in.');

    await name.fill('Ada Byron');
    await dialog.getByLabel('Email', { exact: true }).fill('ADA@example.test');
    await dialog.getByRole('button', { name: 'Add customer' }).click();
    const email = dialog.getByLabel('Email', { exact: true });
    expect(await errorBeside(email)).toBe('A customer with this email already exists.');
    expect(await name.getAttribute('aria-invalid')).toBeNull();
    await expectAccessible(page, 'new customer, refused');
    await screenshot(page, 'general-customer-new-refused');
    const { data } = await unwrap(owner.client.general.customers.listCustomers({ query: {} }));
    expect(data.map((c) => c.name)).toEqual(['Ada Lovelace']);
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Invoices', exact: true })
      .click();
    await page.getByRole('link', { name: 'New invoice' }).click();
    await page.getByRole('heading', { name: 'New invoice' }).waitFor();
    await page.getByLabel('Currency').selectOption('JPY');
    await page.getByLabel('Description, line 1').fill('Sushi set');
    await page.getByLabel('Unit price in JPY, line 1').fill('1250.5');
    // No customer: the schema refuses before anything is sent.
    await page.getByRole('button', { name: 'Save draft' }).click();
    const customer = page.getByLabel('Customer', { exact: true });
    expect(await errorBeside(customer)).toBe('Fill this in.');

    // Yen have no decimals: the live total cannot be shown, the field advises, and the service refuses
    // the price itself.
    await customer.selectOption({ label: 'Ada Lovelace (ada@example.test)' });
    expect(await liveTotal(page)).toBe('—');
    expect(await page.locator('.items-table .hint').textContent()).toBe(
      'Enter an amount in JPY without decimals, like 1250.',
    );
    await page.getByRole('button', { name: 'Save draft' }).click();
    const price = page.getByLabel('Unit price in JPY, line 1');
    expect(await errorBeside(price)).toBe('Enter an amount in JPY without decimals, like 1250.');
    // Under the form, a pointer to the field rather than the envelope's "Request validation failed".
    expect(await page.locator('.document-form > .message.error').textContent()).toBe(
      'Check the highlighted field.',
    );
    expect(await customer.getAttribute('aria-invalid')).toBeNull();
    await expectAccessible(page, 'new invoice, refused');
    await screenshot(page, 'general-invoice-new-refused');
    const invoices = await unwrap(owner.client.general.invoices.listInvoices({ query: {} }));
    expect(invoices.data).toEqual([]);

    // Corrected, it saves.
    await price.fill('1250');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByRole('heading', { name: 'Invoice INV-000001' }).waitFor();

    expectClean(app, [409, 422]);
    await app.close();
  });
});

describe('quotes', () => {
  it('creates a quote, sends it, records the acceptance and converts it into an invoice that opens', async () => {
    const owner = await registerBusiness(server(), 'Quotes Ltd');
    const customer = await createCustomer(owner.client, { name: 'Alan Turing', email: 'alan@example.test' });
    const app = await open(owner, '/quotes');
    const { page } = app;
    await page.getByText('No quotes yet').waitFor();
    await expectAccessible(page, 'quotes, empty');
    await screenshot(page, 'general-quotes-empty');

    await page.getByRole('link', { name: 'New quote' }).first().click();
    await page.getByRole('heading', { name: 'New quote' }).waitFor();
    await page.getByLabel('Find a customer').fill('turing');
    await expect
      .poll(() => page.getByLabel('Customer', { exact: true }).locator('option').allTextContents())
      .toEqual(['Choose a customer', 'Alan Turing (alan@example.test)']);
    await page.getByLabel('Customer', { exact: true }).selectOption(customer.id);
    await page.getByLabel('Valid until').fill('2099-12-31');
    await page.getByLabel('Description, line 1').fill('Website redesign');
    await page.getByLabel('Unit price in USD, line 1').fill('4800');
    await page.getByLabel('Tax percent, line 1').fill('20');
    const total = await inPage(page, 5760, 'USD');
    expect(await liveTotal(page)).toBe(total);
    await expectAccessible(page, 'new quote');
    await screenshot(page, 'general-quote-new');
    await page.getByRole('button', { name: 'Save draft' }).click();

    await page.getByRole('heading', { name: 'Quote QUO-000001' }).waitFor();
    const quoteId = /\/app\/quotes\/(quo_\w+)$/.exec(page.url())![1]!;
    const badge = page.locator('.status-line .badge');
    expect(await badge.textContent()).toBe('draft');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page
      .getByRole('dialog', { name: 'Send quote QUO-000001' })
      .getByRole('button', { name: 'Send quote' })
      .click();
    await expect.poll(() => badge.textContent()).toBe('sent');
    await page.getByRole('button', { name: 'Mark as accepted' }).click();
    await expect.poll(() => badge.textContent()).toBe('accepted');
    await expectAccessible(page, 'accepted quote');
    await screenshot(page, 'general-quote-accepted');
    await page.getByRole('button', { name: 'Convert to invoice' }).click();
    await expect.poll(() => badge.textContent()).toBe('converted');
    const quote = (await unwrap(owner.client.general.quotes.getQuote({ params: { id: quoteId } }))).data;
    expect(quote.status).toBe('converted');
    expect(quote.invoice_id).toMatch(/^inv_/);
    await page.getByRole('link', { name: 'Invoice INV-000001' }).waitFor();
    await expectAccessible(page, 'converted quote');
    await screenshot(page, 'general-quote-converted');

    await page.getByRole('status').getByRole('link', { name: 'INV-000001' }).click();
    await page.getByRole('heading', { name: 'Invoice INV-000001' }).waitFor();
    expect(page.url()).toContain(`/app/invoices/${quote.invoice_id}`);
    expect(await page.locator('.status-line .badge').textContent()).toBe('draft');
    expect(await page.locator('.totals [data-total]').textContent()).toBe(total);
    expect(await page.getByRole('row', { name: /Website redesign/ }).count()).toBe(1);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Quotes' }).click();
    await page
      .getByRole('navigation', { name: 'Quote status' })
      .getByRole('link', { name: 'Converted' })
      .click();
    await page.getByRole('row', { name: /QUO-000001/ }).waitFor();
    expect(new URL(page.url()).searchParams.get('status')).toBe('converted');
    await expectAccessible(page, 'quotes');
    await screenshot(page, 'general-quotes');
    expectClean(app);
    await app.close();
  });
});

describe('sorting and paging from the URL', () => {
  it('pages and sorts customers by links that change the URL, and a reload keeps the view', async () => {
    const owner = await registerBusiness(server(), 'Paging Ltd');
    for (let n = 1; n <= 25; n++) {
      const two = String(n).padStart(2, '0');
      await createCustomer(owner.client, { name: `Customer ${two}`, email: `c${two}@example.test` });
    }
    const app = await open(owner, '/customers');
    const { page } = app;
    await page.getByRole('row', { name: /Customer 25/ }).waitFor();
    // Newest first: 25 down to 06 on the first page.
    expect((await firstCells(page)).length).toBe(20);
    expect((await firstCells(page))[0]).toBe('Customer 25');
    expect(await page.getByRole('navigation', { name: 'Pages' }).textContent()).toContain(
      'Page 1 of 2 · 25 in all',
    );

    await page.getByRole('link', { name: 'Next →' }).click();
    await expect
      .poll(() => firstCells(page))
      .toEqual(['Customer 05', 'Customer 04', 'Customer 03', 'Customer 02', 'Customer 01']);
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');

    await page.getByRole('columnheader', { name: 'Name', exact: true }).getByRole('link').click();
    await expect
      .poll(() => firstCells(page).then((c) => c.slice(0, 2)))
      .toEqual(['Customer 01', 'Customer 02']);
    let url = new URL(page.url());
    expect(url.searchParams.get('sort')).toBe('name');
    expect(url.searchParams.get('page')).toBeNull();
    expect(
      await page.getByRole('columnheader', { name: 'Name', exact: true }).getAttribute('aria-sort'),
    ).toBe('ascending');

    await page.getByRole('columnheader', { name: 'Name', exact: true }).getByRole('link').click();
    await expect.poll(() => firstCells(page).then((c) => c[0])).toBe('Customer 25');
    await page.getByRole('link', { name: 'Next →' }).click();
    await expect
      .poll(() => firstCells(page))
      .toEqual(['Customer 05', 'Customer 04', 'Customer 03', 'Customer 02', 'Customer 01']);
    url = new URL(page.url());
    expect([url.searchParams.get('sort'), url.searchParams.get('page')]).toEqual(['-name', '2']);

    await page.reload();
    await expect
      .poll(() => firstCells(page))
      .toEqual(['Customer 05', 'Customer 04', 'Customer 03', 'Customer 02', 'Customer 01']);
    expect(
      await page.getByRole('columnheader', { name: 'Name', exact: true }).getAttribute('aria-sort'),
    ).toBe('descending');
    await expectAccessible(page, 'customers, page 2');
    await screenshot(page, 'general-customers-page-2');

    // A search typed in the field goes to the URL, back to page 1.
    await page.getByLabel('Search', { exact: true }).fill('customer 1');
    await expect.poll(() => new URL(page.url()).searchParams.get('search')).toBe('customer 1');
    await expect
      .poll(() => firstCells(page))
      .toEqual([19, 18, 17, 16, 15, 14, 13, 12, 11, 10].map((n) => `Customer ${n}`));
    expect(new URL(page.url()).searchParams.get('page')).toBeNull();
    await screenshot(page, 'general-customers-search');
    expectClean(app);
    await app.close();
  });

  it('sorts invoices by total and due date', async () => {
    const owner = await registerBusiness(server(), 'Sorting Ltd');
    const customer = await createCustomer(owner.client);
    const line = (unit_price: number) => [{ description: 'Work', quantity: 1, unit_price }];
    await createInvoice(owner.client, { customer_id: customer.id, items: line(300), due_date: '2099-03-10' });
    await createInvoice(owner.client, { customer_id: customer.id, items: line(100), due_date: '2099-01-10' });
    await createInvoice(owner.client, { customer_id: customer.id, items: line(200), due_date: '2099-02-10' });
    const app = await open(owner, '/invoices');
    const { page } = app;
    await page.getByRole('row', { name: /INV-000003/ }).waitFor();
    expect(await firstCells(page)).toEqual(['INV-000003', 'INV-000002', 'INV-000001']);
    const header = (name: string) => page.getByRole('columnheader', { name, exact: true }).getByRole('link');
    await header('Total').click();
    await expect.poll(() => firstCells(page)).toEqual(['INV-000002', 'INV-000003', 'INV-000001']);
    expect(new URL(page.url()).searchParams.get('sort')).toBe('total');
    await header('Total').click();
    await expect.poll(() => firstCells(page)).toEqual(['INV-000001', 'INV-000003', 'INV-000002']);
    expect(new URL(page.url()).searchParams.get('sort')).toBe('-total');
    await header('Due').click();
    await expect.poll(() => firstCells(page)).toEqual(['INV-000002', 'INV-000003', 'INV-000001']);
    expect(new URL(page.url()).searchParams.get('sort')).toBe('due_date');
    await header('Due').click();
    await expect.poll(() => firstCells(page)).toEqual(['INV-000001', 'INV-000003', 'INV-000002']);
    expect(new URL(page.url()).searchParams.get('sort')).toBe('-due_date');
    await expectAccessible(page, 'invoices');
    await screenshot(page, 'general-invoices');
    expectClean(app);
    await app.close();
  });
});

describe('changing and deleting', () => {
  it("edits a customer, shows the service's refusal to delete one with invoices, and deletes one without", async () => {
    const owner = await registerBusiness(server(), 'Edits Ltd');
    const billed = await createCustomer(owner.client, {
      name: 'Billed Customer',
      email: 'billed@example.test',
    });
    await createInvoice(owner.client, { customer_id: billed.id });
    const spare = await createCustomer(owner.client, { name: 'Spare Customer' });
    const app = await open(owner, `/customers/${billed.id}`);
    const { page } = app;
    await page.getByRole('heading', { name: 'Billed Customer' }).waitFor();

    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Billed Customer' });
    expect(await edit.getByLabel('Email', { exact: true }).inputValue()).toBe('billed@example.test');
    await edit.getByLabel('Phone', { exact: true }).fill('+44 20 7946 0000');
    await edit.getByLabel('Opted out of marketing email').check();
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Changes saved.').waitFor();
    expect(await page.locator('dl.facts').textContent()).toContain('+44 20 7946 0000');
    const changed = (await unwrap(owner.client.general.customers.getCustomer({ params: { id: billed.id } })))
      .data;
    expect(changed).toMatchObject({
      phone: '+44 20 7946 0000',
      unsubscribed: true,
      email: 'billed@example.test',
    });

    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Billed Customer?' });
    await confirm.getByRole('button', { name: 'Delete customer' }).click();
    await confirm
      .getByRole('alert')
      .getByText('The customer has invoices or a loyalty membership and cannot be deleted')
      .waitFor();
    await expectAccessible(page, 'customer delete refused');
    await screenshot(page, 'general-customer-delete-refused');
    await confirm.getByRole('button', { name: 'Close' }).click();
    expect((await owner.client.general.customers.getCustomer({ params: { id: billed.id } })).status).toBe(
      200,
    );

    await page.goto(`/app/customers/${spare.id}`);
    await page.getByRole('heading', { name: 'Spare Customer' }).waitFor();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page
      .getByRole('dialog', { name: 'Delete Spare Customer?' })
      .getByRole('button', { name: 'Delete customer' })
      .click();
    await page.getByRole('heading', { name: 'Customers' }).waitFor();
    await page.getByRole('row', { name: /Billed Customer/ }).waitFor();
    expect(await page.getByRole('row', { name: /Spare Customer/ }).count()).toBe(0);
    expect((await owner.client.general.customers.getCustomer({ params: { id: spare.id } })).status).toBe(404);
    expectClean(app, [409]);
    await app.close();
  });

  it('changes a product and deletes one; a taken SKU is refused beside its field', async () => {
    const owner = await registerBusiness(server(), 'Catalogue Ltd');
    const beans = await createProduct(owner.client, { name: 'Beans', sku: 'BEANS', price: 10 });
    await createProduct(owner.client, { name: 'Mug', sku: 'MUG', price: 8, stock: 5 });
    const app = await open(owner, '/products');
    const { page } = app;
    await page.getByRole('row', { name: /Mug/ }).waitFor();

    await page.getByRole('button', { name: 'Edit Beans' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Beans' });
    expect(await edit.getByLabel('Unit price', { exact: true }).inputValue()).toBe('10.00');
    await edit.getByLabel('SKU', { exact: true }).fill('MUG');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    const sku = edit.getByLabel('SKU', { exact: true });
    expect(await errorBeside(sku)).toBe('A product with this SKU already exists.');
    await sku.fill(uniqueSku('BEANS'));
    await edit.getByLabel('Unit price', { exact: true }).fill('12.75');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Beans was saved.').waitFor();
    const newPrice = await inPage(page, 12.75, 'USD');
    await expect.poll(() => page.getByRole('row', { name: /Beans/ }).textContent()).toContain(newPrice);
    const saved = (await unwrap(owner.client.general.products.getProduct({ params: { id: beans.id } }))).data;
    expect(saved.price).toBe(12.75);

    await page.getByRole('row', { name: /Mug/ }).getByRole('button', { name: 'Delete', exact: true }).click();
    await page
      .getByRole('dialog', { name: 'Delete Mug?' })
      .getByRole('button', { name: 'Delete product' })
      .click();
    await page.getByText('Mug was deleted.').waitFor();
    await expect.poll(() => page.getByRole('row', { name: /Mug/ }).count()).toBe(0);
    const left = await unwrap(owner.client.general.products.listProducts({ query: {} }));
    expect(left.data.map((p) => p.name)).toEqual(['Beans']);
    expectClean(app, [409]);
    await app.close();
  });

  it('changes the lines of a draft invoice with live totals, then deletes the draft', async () => {
    const owner = await registerBusiness(server(), 'Drafts Ltd');
    const customer = await createCustomer(owner.client);
    const invoice = await createInvoice(owner.client, { customer_id: customer.id, notes: 'First notes' });
    const app = await open(owner, `/invoices/${invoice.id}`);
    const { page } = app;
    await page.getByRole('heading', { name: `Invoice ${invoice.number}` }).waitFor();
    await page.getByRole('button', { name: 'Edit draft' }).click();
    await page.getByRole('heading', { name: `Edit draft ${invoice.number}` }).waitFor();
    expect(await page.getByLabel('Description, line 1').inputValue()).toBe('Consulting (hours)');
    expect(await page.getByLabel('Unit price in USD, line 1').inputValue()).toBe('100.00');
    expect(await page.getByLabel('Due date').inputValue()).toBe('2026-12-21');
    await page.getByLabel('Quantity, line 1').fill('2.5');
    await page.getByRole('button', { name: 'Add line' }).click();
    await page.getByLabel('Description, line 2').fill('Travel');
    await page.getByLabel('Unit price in USD, line 2').fill('40.25');
    await page.getByLabel('Notes').fill('');
    const total = await inPage(page, 290.25, 'USD');
    expect(await liveTotal(page)).toBe(total);
    await expectAccessible(page, 'edit draft invoice');
    await screenshot(page, 'general-invoice-edit');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Changes saved.').waitFor();
    expect(await page.locator('.totals [data-total]').textContent()).toBe(total);
    const saved = await getInvoice(owner.client, invoice.id);
    expect(saved).toMatchObject({ total: 290.25, notes: null, status: 'draft' });
    expect(saved.items.map((i) => [i.description, i.quantity, i.unit_price])).toEqual([
      ['Consulting (hours)', 2.5, 100],
      ['Travel', 1, 40.25],
    ]);

    await page.getByRole('button', { name: 'Delete draft' }).click();
    await page
      .getByRole('dialog', { name: `Delete draft ${invoice.number}?` })
      .getByRole('button', { name: 'Delete draft' })
      .click();
    await page.getByText('No invoices yet').waitFor();
    expect(new URL(page.url()).pathname).toBe('/app/invoices');
    expect((await owner.client.general.invoices.getInvoice({ params: { id: invoice.id } })).status).toBe(404);
    expectClean(app);
    await app.close();
  });

  it('voids an issued invoice after asking', async () => {
    const owner = await registerBusiness(server(), 'Voids Ltd');
    const customer = await createCustomer(owner.client);
    const invoice = await issuedInvoice(owner.client, { customer_id: customer.id });
    const app = await open(owner, `/invoices/${invoice.id}`);
    const { page } = app;
    await page.getByRole('heading', { name: `Invoice ${invoice.number}` }).waitFor();
    await page.getByRole('button', { name: 'Void', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: `Void invoice ${invoice.number}?` });
    await expectAccessible(page, 'void dialog');
    await confirm.getByRole('button', { name: 'Void invoice' }).click();
    await page.getByText(`${invoice.number} is void`).waitFor();
    await expect.poll(() => page.locator('.status-line .badge').textContent()).toBe('void');
    await expect.poll(() => page.getByRole('button', { name: 'Record payment' }).count()).toBe(0);
    await expect.poll(() => page.getByRole('heading', { name: 'Payments' }).count()).toBe(0);
    expect((await getInvoice(owner.client, invoice.id)).status).toBe('void');
    await screenshot(page, 'general-invoice-void');
    expectClean(app);
    await app.close();
  });
});

describe('what a role may do', () => {
  it('shows a viewer the sales screens without any action that changes them', async () => {
    const owner = await registerBusiness(server(), 'Roles Ltd');
    const customer = await createCustomer(owner.client, { name: 'Read Only Customer' });
    const invoice = await issuedInvoice(owner.client, { customer_id: customer.id });
    await createProduct(owner.client, { name: 'Tea' });
    const viewer = await signedInMember(server(), owner, 'viewer');

    const app = await open(viewer, `/invoices/${invoice.id}`);
    const { page } = app;
    await page.getByRole('heading', { name: `Invoice ${invoice.number}` }).waitFor();
    expect(await page.locator('.status-line .badge').textContent()).toBe('unpaid');
    for (const action of ['Record payment', 'Void', 'Issue invoice']) {
      expect(await page.getByRole('button', { name: action }).count(), action).toBe(0);
    }
    await expectAccessible(page, 'invoice as viewer');
    await screenshot(page, 'general-invoice-viewer');

    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Invoices', exact: true })
      .click();
    await page.getByRole('row', { name: new RegExp(invoice.number) }).waitFor();
    expect(await page.getByRole('link', { name: 'New invoice' }).count()).toBe(0);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Customers' }).click();
    await page.getByRole('row', { name: /Read Only Customer/ }).waitFor();
    expect(await page.getByRole('button', { name: 'New customer' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Read Only Customer' }).click();
    await page.getByRole('heading', { name: 'Read Only Customer' }).waitFor();
    expect(await page.getByRole('button', { name: 'Edit', exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete', exact: true }).count()).toBe(0);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Products' }).click();
    await page.getByRole('row', { name: /Tea/ }).waitFor();
    expect(await page.getByRole('columnheader', { name: 'Actions' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'New product' }).count()).toBe(0);

    await page.goto('/app/invoices/new');
    await page.getByText('cannot open this screen').waitFor();
    expectClean(app);
    await app.close();
  });
});
