import { describe, expect, it } from 'vitest';
import { createClient, unwrap } from '../../client/index.js';
import { expectAccessible, expectClean, openApp, screenshot, useBrowser } from '../support/browser.js';
import { uniqueEmail } from '../support/business.js';
import { settleDeliveries, useReceivers } from '../support/receiver.js';
import { useTestServer } from '../support/setup.js';
import { waitFor } from '../support/wait.js';

/*
 * A business run from the dashboard alone, as its owner would: register, a key for the developer,
 * a webhook, a customer, a product, an invoice issued and paid; the overview and the lists show it,
 * the webhook received the changes made in the dashboard, and a deep link reloads to the same view.
 */

const server = useTestServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
const browser = useBrowser();
const startReceiver = useReceivers<{ event: string; data: { id: string; status?: string } }>();

const usd = (amount: number) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(amount);

describe('running a business from the dashboard', () => {
  // Many screens and a webhook round trip in one test: generous under a loaded CI machine.
  it('registers, makes a key and a webhook, sells, and sees it everywhere', async () => {
    const receiver = await startReceiver();
    const app = await openApp(browser(), server().baseUrl, '/app/register');
    const { page } = app;
    const nav = page.getByRole('navigation', { name: 'Main' });

    // Register.
    await page.getByLabel('Business name').fill('Flow Coffee Ltd');
    await page.getByLabel('Your email').fill(uniqueEmail('flow'));
    await page.getByLabel('Password').fill('correct horse battery staple');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();

    // A key for the developer: shown once, then only its prefix.
    await nav.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('button', { name: 'Create API key' }).first().click();
    const keyDialog = page.getByRole('dialog', { name: 'Create an API key' });
    await keyDialog.getByLabel('Name').fill('Shop backend');
    await keyDialog.getByRole('radio', { name: /Full access/ }).check();
    await keyDialog.getByRole('button', { name: 'Create key' }).click();
    const key = await page.getByLabel('API key “Shop backend”').inputValue();
    expect(key).toMatch(/^bms_sk_/);
    await page.reload();
    await page.getByRole('row', { name: /Shop backend/ }).waitFor();
    expect(await page.getByLabel('API key “Shop backend”').count()).toBe(0);
    expect(await page.getByRole('row', { name: /Shop backend/ }).textContent()).not.toContain(key);
    const developer = createClient({ baseUrl: server().baseUrl, apiKey: key, maxRetries: 0 });

    // A webhook for the changes the dashboard makes.
    await nav.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('button', { name: 'Add endpoint' }).first().click();
    await page.getByLabel('Endpoint URL').fill(receiver.url);
    await page.getByRole('checkbox', { name: 'customer.created' }).check();
    await page.getByRole('checkbox', { name: 'invoice.paid' }).check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByRole('textbox', { name: 'Signing secret' }).waitFor();

    // A customer and a product.
    await nav.getByRole('link', { name: 'Customers' }).click();
    await page.getByRole('button', { name: 'New customer' }).click();
    const customerDialog = page.getByRole('dialog', { name: 'New customer' });
    await customerDialog.getByLabel('Name', { exact: true }).fill('Margaret Hamilton');
    await customerDialog.getByLabel('Email', { exact: true }).fill(uniqueEmail('margaret'));
    await customerDialog.getByRole('button', { name: 'Add customer' }).click();
    await page.getByRole('heading', { name: 'Margaret Hamilton' }).waitFor();
    const customerId = /\/app\/customers\/(\w+)$/.exec(page.url())?.[1];
    expect(customerId).toMatch(/^cus_/);

    await nav.getByRole('link', { name: 'Products' }).click();
    await page.getByRole('button', { name: 'New product' }).click();
    const productDialog = page.getByRole('dialog', { name: 'New product' });
    await productDialog.getByLabel('Name', { exact: true }).fill('House blend 500g');
    await productDialog.getByLabel('SKU', { exact: true }).fill('HOUSE-500');
    await productDialog.getByLabel('Unit price', { exact: true }).fill('12.50');
    await productDialog.getByRole('button', { name: 'Add product' }).click();
    await page.getByText('House blend 500g was added.').waitFor();

    // An invoice of 4 bags, issued and paid.
    await nav.getByRole('link', { name: 'Invoices', exact: true }).click();
    await page.getByRole('link', { name: 'New invoice' }).click();
    await page.getByLabel('Customer', { exact: true }).selectOption(customerId!);
    await page.getByLabel('Product, line 1').selectOption({ label: 'House blend 500g (HOUSE-500)' });
    await page.getByLabel('Quantity, line 1').fill('4');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByRole('heading', { name: 'Invoice INV-000001' }).waitFor();
    await page.getByRole('button', { name: 'Issue invoice' }).click();
    await page.getByText('Issued: INV-000001').waitFor();
    await page.getByRole('button', { name: 'Record payment' }).click();
    const payment = page.getByRole('dialog', { name: 'Record a payment of INV-000001' });
    expect(await payment.getByLabel('Amount in USD').inputValue()).toBe('50.00');
    await payment.getByRole('button', { name: 'Record payment' }).click();
    await page.getByText('Payment recorded: INV-000001 is paid in full.').waitFor();

    // The developer's key sees what the dashboard made.
    const invoices = (await unwrap(developer.general.invoices.listInvoices({ query: { status: 'paid' } })))
      .data;
    expect(invoices.map((i) => [i.number, i.total, i.customer.name])).toEqual([
      ['INV-000001', 50, 'Margaret Hamilton'],
    ]);

    // The webhook received the changes made in the dashboard.
    await waitFor('the customer and payment events', () => {
      const events = receiver.hits.map((h) => h.body.event);
      return events.includes('customer.created') && events.includes('invoice.paid');
    });
    const created = receiver.hits.find((h) => h.body.event === 'customer.created')!;
    expect(created.body.data.id).toBe(customerId);
    const { businessId } = (await unwrap(developer.auth.getSession())).data;
    await settleDeliveries(server(), businessId);

    // The overview counts the month's revenue (net) and lists the invoice.
    await nav.getByRole('link', { name: 'Overview' }).click();
    const revenue = page.getByRole('region', { name: 'Revenue by month' });
    await revenue.getByText('net over the last 12 months').waitFor();
    expect(await revenue.locator('.figure').textContent()).toBe(usd(50));
    await page
      .getByRole('region', { name: 'Latest invoices' })
      .getByRole('link', { name: 'INV-000001' })
      .waitFor();
    await expectAccessible(page, 'flow-overview');
    await screenshot(page, 'flow-overview');

    // The paid list, as a bookmark: a reload lands on the same view.
    await page.goto('/app/invoices?status=paid');
    await page.getByRole('row', { name: /INV-000001/ }).waitFor();
    await page.reload();
    await page.getByRole('row', { name: /INV-000001/ }).waitFor();
    expect(page.url()).toContain('/app/invoices?status=paid');
    expect(await page.getByRole('row', { name: /INV-000001/ }).textContent()).toContain('Margaret Hamilton');
    expectClean(app);
    await app.close();
  });
});
