import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import {
  errorBeside,
  expectAccessible,
  expectClean,
  openApp,
  PHONE,
  screenshot,
  useBrowser,
  type AppPage,
} from '../support/browser.js';
import { registerBusiness, sandboxOf, signedInMember } from '../support/business.js';
import { createRecurringBill, createVendor } from '../support/finance.js';
import { createCustomer, createRecurringInvoice } from '../support/general.js';
import { useTestServer } from '../support/setup.js';

/**
 * Recurring invoices and bills in a real browser: a schedule typed with its next five dates shown as
 * the service will make them (the anchor day clamped to short months), created, listed, paused,
 * resumed and ended; the service's and the schema's refusals beside the fields they name.
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

/** The dates of the schedule's preview, as its `<time>` elements carry them. */
const previewDates = (page: Page): Promise<string[]> =>
  page
    .getByRole('list', { name: 'Next dates' })
    .locator('time')
    .evaluateAll((times) => times.map((t) => t.getAttribute('datetime') ?? ''));

/** The status badge below the record's title. */
const statusOf = (page: Page) => page.locator('main .status-line .badge').textContent();

/** 31 January of a leap year to come: the months after it are clamped to 29 Feb, 30 Apr. */
const START = '2028-01-31';
const FIVE_MONTHS = ['2028-01-31', '2028-02-29', '2028-03-31', '2028-04-30', '2028-05-31'];

describe('recurring invoices', () => {
  it('previews the next five dates as typed, creates the schedule, lists it, then pauses, resumes and ends it', async () => {
    const owner = await registerBusiness(server(), 'Recurring Ltd');
    const customer = await createCustomer(owner.client, { name: 'Ada Lovelace' });
    const app = await open(owner, '/recurring-invoices');
    const { page } = app;
    await page.getByText('No recurring invoices yet').waitFor();
    // The owner may create one: the empty list says how, not to wait for someone who may.
    await page.getByText('Create one to bill a customer', { exact: false }).waitFor();
    await expectAccessible(page, 'recurring invoices, empty');
    // The navigation has it under Sales.
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Recurring invoices' })
      .waitFor();
    await page.getByRole('link', { name: 'New recurring invoice' }).click();
    await page.getByRole('heading', { name: 'New recurring invoice' }).waitFor();

    await page.getByLabel('Customer', { exact: true }).selectOption(customer.id);
    await page.getByLabel('Start date').fill(START);
    expect(await previewDates(page)).toEqual(FIVE_MONTHS);
    // Every quarter, then every other week: the preview follows.
    await page.getByLabel('Repeats every').selectOption('quarter');
    expect(await previewDates(page)).toEqual([
      '2028-01-31',
      '2028-04-30',
      '2028-07-31',
      '2028-10-31',
      '2029-01-31',
    ]);
    await page.getByLabel('Repeats every').selectOption('week');
    await page.getByLabel('Number of weeks').fill('2');
    expect(await previewDates(page)).toEqual([
      '2028-01-31',
      '2028-02-14',
      '2028-02-28',
      '2028-03-13',
      '2028-03-27',
    ]);
    // Ending after three invoices: three dates.
    await page.getByLabel('Repeats every').selectOption('month');
    await page.getByLabel('Number of months').fill('1');
    await page.getByLabel('After a number of invoices').check();
    await page.getByLabel('Number of invoices', { exact: true }).fill('3');
    expect(await previewDates(page)).toEqual(FIVE_MONTHS.slice(0, 3));
    await page.getByLabel('Never').check();
    expect(await previewDates(page)).toEqual(FIVE_MONTHS);

    await page.getByLabel('Description, line 1').fill('Monthly support');
    await page.getByLabel('Unit price in USD, line 1').fill('150');
    await page.getByLabel('Tax percent, line 1').fill('20');
    await page.getByLabel('Payment terms in days').fill('14');
    await page.getByLabel('Mail each invoice to the customer when it is made').check();
    await expectAccessible(page, 'new recurring invoice');
    await screenshot(page, 'recurring-invoice-new');
    await page.getByRole('button', { name: 'Create recurring invoice' }).click();
    await page.getByRole('heading', { name: 'Recurring invoice for Ada Lovelace' }).waitFor();
    const id = /\/app\/recurring-invoices\/(rinv_\w+)$/.exec(page.url())?.[1];
    expect(id).toBeDefined();
    const saved = (
      await unwrap(owner.client.general.recurringInvoices.getRecurringInvoice({ params: { id: id! } }))
    ).data;
    expect(saved).toMatchObject({
      customer_id: customer.id,
      interval: 'month',
      interval_count: 1,
      start_date: START,
      end_after_count: null,
      end_date: null,
      due_days: 14,
      auto_send: true,
      total: 180,
      status: 'active',
      next_run_on: START,
    });
    // The detail: its schedule with the same five dates, counted from the next one.
    expect(await statusOf(page)).toBe('active');
    expect(
      await page
        .getByRole('list', { name: 'Next dates' })
        .locator('time')
        .evaluateAll((times) => times.map((t) => t.getAttribute('datetime'))),
    ).toEqual(FIVE_MONTHS);
    await expectAccessible(page, 'recurring invoice');
    await screenshot(page, 'recurring-invoice');

    // Pause, resume, end (after a confirm); each answer is what the screen shows.
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByText('Paused: no invoice is made until it is resumed.').waitFor();
    expect(await statusOf(page)).toBe('paused');
    await page.getByRole('button', { name: 'Resume' }).click();
    await page.getByText('Resumed: it goes on from the first date on or after today.').waitFor();
    expect(await statusOf(page)).toBe('active');
    await page.getByRole('button', { name: 'End', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'End this recurring invoice?' });
    await confirm.getByRole('button', { name: 'End schedule' }).click();
    await page.getByText('Ended: no further invoice is made.').waitFor();
    expect(await statusOf(page)).toBe('ended');
    expect(await page.getByRole('button', { name: 'Pause' }).count()).toBe(0);
    const ended = (
      await unwrap(owner.client.general.recurringInvoices.getRecurringInvoice({ params: { id: id! } }))
    ).data;
    expect(ended.status).toBe('ended');

    // The list: it shows under All and Ended, not under Active.
    await page.getByRole('link', { name: 'Recurring invoices' }).first().click();
    const row = page.getByRole('row').filter({ hasText: 'Ada Lovelace' });
    await row.waitFor();
    const cells = await row.getByRole('cell').allTextContents();
    expect([cells[0], cells[1], cells[2], cells[3], cells[5]]).toEqual([
      'Ada Lovelace',
      'Ended',
      'Every month',
      '—',
      '0',
    ]);
    await expectAccessible(page, 'recurring invoices');
    await screenshot(page, 'recurring-invoices');
    await page
      .getByRole('navigation', { name: 'Recurring invoice status' })
      .getByRole('link', { name: 'Active' })
      .click();
    await page.getByText('No active recurring invoices').waitFor();
    expectClean(app);
    await app.close();
  });

  it('shows the schema’s and the service’s refusals beside the fields they name', async () => {
    const owner = await registerBusiness(server(), 'Refusals Ltd');
    const customer = await createCustomer(owner.client, { name: 'Grace Hopper' });
    const app = await open(owner, `/recurring-invoices/new?customer_id=${customer.id}`);
    const { page } = app;
    await page.getByRole('heading', { name: 'New recurring invoice' }).waitFor();
    await expect.poll(() => page.getByLabel('Customer', { exact: true }).inputValue()).toBe(customer.id);
    await page.getByLabel('Description, line 1').fill('Support');
    await page.getByLabel('Unit price in USD, line 1').fill('100');
    await page.getByLabel('Start date').fill(START);
    // 13 months: beyond what a period may span; no preview, and the schema says why.
    await page.getByLabel('Number of months').fill('13');
    await page
      .getByText('The dates show once there is a start date and a number of months from 1 to 12.')
      .waitFor();
    await page.getByRole('button', { name: 'Create recurring invoice' }).click();
    expect(await errorBeside(page.getByLabel('Number of months'))).toBe('Enter 12 or less.');
    // An end before the start: the service refuses it, naming end_date.
    await page.getByLabel('Number of months').fill('1');
    await page.getByLabel('On a date').check();
    await page.getByLabel('End date').fill('2028-01-01');
    await page.getByRole('button', { name: 'Create recurring invoice' }).click();
    expect(await errorBeside(page.getByLabel('End date'))).toBe('Enter the start date or a later one.');
    expect(await page.getByLabel('Number of months').getAttribute('aria-invalid')).toBeNull();
    await expectAccessible(page, 'new recurring invoice, refused');
    await screenshot(page, 'recurring-invoice-refused');
    // On a phone the schedule and its preview stack, and nothing scrolls sideways.
    await page.setViewportSize(PHONE);
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    await screenshot(page, 'recurring-invoice-refused-phone');
    const listed = await unwrap(
      owner.client.general.recurringInvoices.listRecurringInvoices({ query: { limit: 10 } }),
    );
    expect(listed.data).toEqual([]);
    expectClean(app, [422]);
    await app.close();
  });
});

describe('the invoices a schedule made', () => {
  it('counts them on the schedule, links to the customer’s invoices, and each links back to its schedule', async () => {
    const owner = await registerBusiness(server(), 'Made Ltd');
    const sandbox = await sandboxOf(server(), owner);
    const customer = await createCustomer(sandbox.client, { name: 'Charles Babbage' });
    const recurring = await createRecurringInvoice(sandbox.client, {
      customer_id: customer.id,
      start_date: '2027-01-31',
    });
    // The sandbox's clock makes the invoices of 31 January and 28 February.
    const moved = await unwrap(
      sandbox.client.sandbox.clock.advanceClock({ body: { advance_to: '2027-03-01T12:00:00.000Z' } }),
    );
    expect(moved.data.ran.invoices_recurred).toBe(2);
    const app = await openApp(browser(), server().baseUrl, `/app/recurring-invoices/${recurring.id}`, {
      accessToken: sandbox.accessToken,
      environment: 'sandbox',
    });
    const { page } = app;
    page.setDefaultTimeout(10_000);
    await page.getByRole('heading', { name: 'Recurring invoice for Charles Babbage' }).waitFor();
    expect(await page.locator('[data-made]').textContent()).toBe('2');
    await page.getByText('2 so far').waitFor();
    // The next date is the schedule's, clamped: 31 March after 28 February.
    expect(
      await page
        .getByRole('list', { name: 'Next dates' })
        .locator('time')
        .evaluateAll((times) => times.map((t) => t.getAttribute('datetime'))),
    ).toEqual(['2027-03-31', '2027-04-30', '2027-05-31', '2027-06-30', '2027-07-31']);
    await page.getByRole('link', { name: 'See Charles Babbage’s invoices' }).click();
    await page.getByText('Invoices of Charles Babbage').waitFor();
    const numbers = page.locator('main table tbody tr td:first-child a');
    await expect.poll(() => numbers.count()).toBe(2);
    await numbers.first().click();
    await page.getByRole('heading', { name: /^Invoice INV-/ }).waitFor();
    await page.getByRole('link', { name: 'Its recurring invoice' }).click();
    await page.getByRole('heading', { name: 'Recurring invoice for Charles Babbage' }).waitFor();
    expectClean(app);
    await app.close();
  });
});

describe('a viewer', () => {
  it('sees recurring invoices and bills without any action that changes them', async () => {
    const owner = await registerBusiness(server(), 'Viewed Ltd');
    const customer = await createCustomer(owner.client, { name: 'Mary Somerville' });
    const invoice = await createRecurringInvoice(owner.client, {
      customer_id: customer.id,
      start_date: START,
    });
    const bill = await createRecurringBill(owner.client, { start_date: START });
    const viewer = await signedInMember(server(), owner, 'viewer');
    const app = await open(viewer, '/recurring-invoices');
    const { page } = app;
    await page.getByRole('link', { name: 'Mary Somerville' }).click();
    await page.getByRole('heading', { name: 'Recurring invoice for Mary Somerville' }).waitFor();
    expect(page.url()).toContain(invoice.id);
    await page.goto(`/app/finance/recurring-bills/${bill.id}`);
    await page.getByRole('heading', { name: /^Recurring bill from / }).waitFor();
    await page.goto('/app/finance/recurring-bills');
    await page.getByRole('table', { name: 'Recurring bills' }).waitFor();
    for (const path of [
      '/app/recurring-invoices',
      `/app/recurring-invoices/${invoice.id}`,
      '/app/finance/recurring-bills',
      `/app/finance/recurring-bills/${bill.id}`,
    ]) {
      await page.goto(path);
      await page.locator('main h1').waitFor();
      await page.waitForLoadState('networkidle');
      const main = page.getByRole('main');
      expect(await main.getByRole('link', { name: /^New recurring/ }).count(), path).toBe(0);
      expect(await main.getByRole('button', { name: /^(Pause|Resume|End)$/ }).count(), path).toBe(0);
    }
    expectClean(app);
    await app.close();
  });
});

describe('recurring bills', () => {
  it('previews the dates, creates a vendor’s recurring bill, lists it and pauses it', async () => {
    const owner = await registerBusiness(server(), 'Rent Payer Ltd');
    const vendor = await createVendor(owner.client, { name: 'Landlord Estates' });
    const app = await open(owner, '/finance/recurring-bills');
    const { page } = app;
    await page.getByText('No recurring bills yet').waitFor();
    await page.getByText('Create one for a bill that comes the same', { exact: false }).waitFor();
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Recurring bills' })
      .waitFor();
    await page.getByRole('link', { name: 'New recurring bill' }).click();
    await page.getByRole('heading', { name: 'New recurring bill' }).waitFor();
    await page.getByLabel('Vendor').selectOption(vendor.id);
    await page.getByLabel('Start date').fill(START);
    expect(await previewDates(page)).toEqual(FIVE_MONTHS);
    await page.getByLabel('On a date').check();
    await page.getByLabel('End date').fill('2028-03-31');
    expect(await previewDates(page)).toEqual(FIVE_MONTHS.slice(0, 3));
    await page.getByLabel('Description, item 1').fill('Office rent');
    await page.getByLabel('Unit price in USD, item 1').fill('1200');
    await expectAccessible(page, 'new recurring bill');
    await screenshot(page, 'recurring-bill-new');
    await page.getByRole('button', { name: 'Create recurring bill' }).click();
    await page.getByRole('heading', { name: 'Recurring bill from Landlord Estates' }).waitFor();
    const id = /\/app\/finance\/recurring-bills\/(rbill_\w+)$/.exec(page.url())?.[1];
    const saved = (
      await unwrap(owner.client.finance.recurringBills.getRecurringBill({ params: { id: id! } }))
    ).recurring_bill;
    expect(saved).toMatchObject({
      vendor_id: vendor.id,
      amount: 120000,
      start_date: START,
      end_date: '2028-03-31',
      status: 'active',
    });
    expect(await statusOf(page)).toBe('active');
    await expectAccessible(page, 'recurring bill');
    await screenshot(page, 'recurring-bill');
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByText('Paused: no bill is made until it is resumed.').waitFor();
    expect(await statusOf(page)).toBe('paused');
    const paused = (
      await unwrap(owner.client.finance.recurringBills.getRecurringBill({ params: { id: id! } }))
    ).recurring_bill;
    expect(paused.status).toBe('paused');

    await page.getByRole('link', { name: 'Recurring bills' }).first().click();
    const row = page.getByRole('row').filter({ hasText: 'Landlord Estates' });
    await row.waitFor();
    expect(await row.getByRole('cell').nth(1).textContent()).toBe('Paused');
    await expectAccessible(page, 'recurring bills');
    await screenshot(page, 'recurring-bills');
    expectClean(app);
    await app.close();
  });
});
