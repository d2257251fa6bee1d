import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
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
import { registerBusiness, signedInMember } from '../support/business.js';
import { billOf, createBill, createVendor, getBill, journalPage } from '../support/finance.js';
import { createCustomer, issuedInvoice } from '../support/general.js';
import { useTestServer } from '../support/setup.js';

/**
 * The finance screens in a real browser: a vendor and a bill recorded, approved and paid in the
 * dashboard and found in the journal and the trial balance; a manual entry refused while unbalanced
 * and posted once balanced; the reports and the VAT threshold over invoices made through the API;
 * a viewer's screens without actions.
 */

const server = useTestServer({ worker: false });
const browser = useBrowser();

async function open(business: { accessToken: string }, path: string): Promise<AppPage> {
  const app = await openApp(browser(), server().baseUrl, `/app${path}`, {
    accessToken: business.accessToken,
  });
  app.page.setDefaultTimeout(10_000);
  return app;
}

/** Today and `days` from today, as the business (UTC) counts them. */
const today = () => new Date().toISOString().slice(0, 10);
const addDays = (day: string, days: number) => {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1, d! + days)).toISOString().slice(0, 10);
};

const percentInPage = (page: Page, ratio: number): Promise<string> =>
  page.evaluate(
    (r) => new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 }).format(r),
    ratio,
  );

const dateInPage = (page: Page, day: string): Promise<string> =>
  page.evaluate((value) => {
    const [y, m, d] = value.split('-').map(Number);
    return new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(new Date(y!, m! - 1, d));
  }, day);

/** The journal's lines as shown: account, debit, credit. */
const journalLines = (page: Page): Promise<string[][]> =>
  page.evaluate(
    `Array.from(document.querySelectorAll('table.journal tbody tr')).map((row) =>
      Array.from(row.cells).slice(-3).map((cell) => cell.textContent))`,
  );

const nav = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();

describe('a bill from the vendor to the ledger', () => {
  it('adds and edits a vendor, records a bill with a live exact total, approves and pays it; the journal and the trial balance show its postings', async () => {
    const owner = await registerBusiness(server(), 'Ledger Ltd');
    const app = await open(owner, '/finance/vendors');
    const { page } = app;

    await page.getByText('No vendors yet').waitFor();
    await expectAccessible(page, 'finance vendors, empty');
    await screenshot(page, 'finance-vendors-empty');

    await page.getByRole('button', { name: 'New vendor' }).click();
    const dialog = page.getByRole('dialog', { name: 'New vendor' });
    await dialog.getByLabel('Name', { exact: true }).fill('Paper Mill Ltd');
    await dialog.getByLabel('Email', { exact: true }).fill('billing@papermill.test');
    await dialog.getByLabel('Usual currency').selectOption('USD');
    await dialog.getByLabel('Tax ID').fill('GB123456789');
    await expectAccessible(page, 'finance new vendor');
    await screenshot(page, 'finance-vendor-new');
    await dialog.getByRole('button', { name: 'Add vendor' }).click();
    await page.getByText('Paper Mill Ltd was added.').waitFor();
    const vendorRow = page.getByRole('row', { name: /Paper Mill Ltd/ });
    expect(await vendorRow.textContent()).toContain('billing@papermill.test');

    await page.getByRole('button', { name: 'Edit Paper Mill Ltd' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Paper Mill Ltd' });
    expect(await edit.getByLabel('Email', { exact: true }).inputValue()).toBe('billing@papermill.test');
    await edit.getByLabel('Phone').fill('+44 20 7946 0000');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Paper Mill Ltd was saved.').waitFor();
    await expect.poll(() => vendorRow.textContent()).toContain('+44 20 7946 0000');
    const { vendors } = await unwrap(owner.client.finance.vendors.listVendors({ query: {} }));
    expect(vendors).toMatchObject([
      {
        name: 'Paper Mill Ltd',
        email: 'billing@papermill.test',
        phone: '+44 20 7946 0000',
        currency: 'USD',
        tax_id: 'GB123456789',
      },
    ]);
    const vendorId = vendors[0]!.id;
    await expectAccessible(page, 'finance vendors');
    await screenshot(page, 'finance-vendors');

    // The vendor's bills: none yet, and a new one starts with the vendor chosen.
    await page.getByRole('link', { name: 'Bills of Paper Mill Ltd' }).click();
    await page.getByText('No bills from this vendor').waitFor();
    expect(new URL(page.url()).searchParams.get('vendor_id')).toBe(vendorId);
    await page.getByRole('link', { name: 'New bill' }).click();
    await page.getByRole('heading', { name: 'New bill' }).waitFor();
    await expect.poll(() => page.getByLabel('Vendor', { exact: true }).inputValue()).toBe(vendorId);
    expect(await page.getByLabel('Currency', { exact: true }).inputValue()).toBe('USD');

    await page.getByLabel('Description, item 1').fill('Printer paper (box)');
    await page.getByLabel('Quantity, item 1').fill('3');
    // Three decimals are not dollars: advised beside the field, no total.
    await page.getByLabel('Unit price in USD, item 1').fill('29.999');
    expect(await page.locator('.items-table .hint').textContent()).toBe(
      'Enter an amount in USD with at most 2 decimals, like 12.50.',
    );
    expect(await page.locator('.totals-panel [data-total]').textContent()).toBe('—');
    await page.getByLabel('Unit price in USD, item 1').fill('29.99');
    await page.getByRole('button', { name: 'Add item' }).click();
    await page.getByLabel('Description, item 2').fill('Staples');
    await page.getByLabel('Quantity, item 2').fill('1.5');
    await page.getByLabel('Unit price in USD, item 2').fill('0.03');
    // 3 x 29.99 = 89.97; 1.5 x 0.03 = 0.045 shown as 0.05; the bill: 90.015 rounded once, 90.02.
    expect(await page.locator('.items-table [data-amount]').allTextContents()).toEqual([
      await inPage(page, 89.97),
      await inPage(page, 0.05),
    ]);
    const total = await inPage(page, 90.02);
    expect(await page.locator('.totals-panel [data-total]').textContent()).toBe(total);
    await expectAccessible(page, 'finance new bill');
    await screenshot(page, 'finance-bill-new');

    await page.getByRole('button', { name: 'Save as draft' }).click();
    await page.getByRole('heading', { name: 'Bill from Paper Mill Ltd' }).waitFor();
    const billId = /\/app\/finance\/bills\/(bill_\w+)$/.exec(page.url())?.[1];
    expect(billId).toBeDefined();
    const draft = await getBill(owner.client, billId!);
    expect(draft).toMatchObject({ status: 'draft', amount: 9002, currency: 'USD', issue_date: today() });
    expect(draft.items.map((i) => i.amount)).toEqual([8997, 5]);
    expect(await page.locator('.totals [data-total]').textContent()).toBe(total);
    const badge = page.locator('.status-line .badge');
    expect(await badge.textContent()).toBe('draft');
    expect(await page.getByRole('button', { name: 'Record payment' }).count()).toBe(0);
    await expectAccessible(page, 'finance draft bill');
    await screenshot(page, 'finance-bill-draft');

    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('Approved: the bill is posted').waitFor();
    await expect.poll(() => badge.textContent()).toBe('pending');
    expect((await getBill(owner.client, billId!)).status).toBe('pending');

    // With a bank account of the bill's currency, the payment may name it (docs/decisions.md D273).
    const bank = await unwrap(
      owner.client.finance.bankAccounts.createBankAccount({
        body: { name: 'Petty cash tin', currency: 'USD', opening_balance: 0 },
      }),
    );
    await page.getByRole('button', { name: 'Record payment' }).click();
    const payment = page.getByRole('dialog', { name: 'Record a payment to Paper Mill Ltd' });
    expect(await payment.getByLabel('Amount in USD').inputValue()).toBe('90.02');
    expect(await payment.getByLabel('Paid on').inputValue()).toBe(today());
    await payment.getByLabel('Method').selectOption('cash');
    // Offered, and left to the method's usual account (cash): the journal below reads 1000.
    const into = payment.getByLabel('Bank account the money went through');
    await into.waitFor();
    expect(await into.locator('option').allTextContents()).toEqual([
      "The method's usual account",
      `Petty cash tin (${bank.bank_account.account_code})`,
    ]);
    await expectAccessible(page, 'finance bill payment');
    await screenshot(page, 'finance-bill-payment');
    await payment.getByRole('button', { name: 'Record payment' }).click();
    await page.getByText('Payment recorded: the bill is paid in full.').waitFor();
    await expect.poll(() => badge.textContent()).toBe('paid');
    const paid = await getBill(owner.client, billId!);
    expect(paid).toMatchObject({ status: 'paid', amount_paid: 9002, amount_due: 0 });
    expect(paid.payments).toMatchObject([
      { amount: 9002, payment_method: 'cash', payment_date: today(), bank_account_id: null },
    ]);
    expect(await page.getByRole('row', { name: /Cash/ }).textContent()).toContain(total);
    expect(await page.getByRole('button', { name: 'Void' }).count()).toBe(0);
    await expectAccessible(page, 'finance paid bill');
    await screenshot(page, 'finance-bill-paid');

    // The bills: under Paid, not under Pending.
    await nav(page, 'Bills');
    await page.getByRole('row', { name: /Paper Mill Ltd/ }).waitFor();
    const tabs = page.getByRole('navigation', { name: 'Bill status' });
    await tabs.getByRole('link', { name: 'Pending' }).click();
    await page.getByText('No pending bills').waitFor();
    expect(new URL(page.url()).searchParams.get('status')).toBe('pending');
    await tabs.getByRole('link', { name: 'Paid' }).click();
    await page.getByRole('row', { name: /Paper Mill Ltd/ }).waitFor();
    expect(await page.getByRole('row', { name: /Paper Mill Ltd/ }).textContent()).toContain(total);
    await expectAccessible(page, 'finance bills, paid');
    await screenshot(page, 'finance-bills');

    // The journal: the payment (newest) then the bill, each balanced.
    await nav(page, 'Journal');
    await page.locator('table.journal').waitFor();
    await expect
      .poll(() => journalLines(page))
      .toEqual([
        ['2000 Accounts payable', total, ''],
        ['1000 Cash', '', total],
        ['5000 Expenses', total, ''],
        ['2000 Accounts payable', '', total],
      ]);
    await page.getByRole('link', { name: 'Bill', exact: true }).waitFor();
    await expectAccessible(page, 'finance journal');
    await screenshot(page, 'finance-journal');

    // Filtered to the cash account: the payment only, the filter in the URL.
    await page.getByLabel('Account', { exact: true }).selectOption('1000');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect
      .poll(() => journalLines(page))
      .toEqual([
        ['2000 Accounts payable', total, ''],
        ['1000 Cash', '', total],
      ]);
    expect(new URL(page.url()).searchParams.get('account')).toBe('1000');
    await page.reload();
    await expect.poll(() => journalLines(page)).toHaveLength(2);
    expect(await page.getByLabel('Account', { exact: true }).inputValue()).toBe('1000');
    // From tomorrow: nothing.
    await page.getByLabel('From', { exact: true }).fill(addDays(today(), 1));
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('No entries match these filters').waitFor();
    expect(new URL(page.url()).searchParams.get('start_date')).toBe(addDays(today(), 1));
    await page.getByRole('link', { name: 'Clear', exact: true }).click();
    await expect.poll(() => journalLines(page)).toHaveLength(4);

    // The trial balance: expenses and cash moved by the bill's amount, payables cleared, totals equal.
    await nav(page, 'Trial balance');
    await page.locator('table.trial-balance').waitFor();
    const cells = (name: RegExp) => page.getByRole('row', { name }).locator('td.numeric').allTextContents();
    expect(await cells(/Cash/)).toEqual([await inPage(page, 0), total, await inPage(page, -90.02)]);
    expect(await cells(/Accounts payable/)).toEqual([total, total, await inPage(page, 0)]);
    expect(await cells(/Expenses/)).toEqual([total, await inPage(page, 0), total]);
    const doubled = await inPage(page, 180.04);
    expect(await page.locator('[data-total-debit]').textContent()).toBe(doubled);
    expect(await page.locator('[data-total-credit]').textContent()).toBe(doubled);
    expect(await page.locator('[data-balanced]').getAttribute('data-balanced')).toBe('yes');
    const balance = (await unwrap(owner.client.finance.accounts.getTrialBalance({ query: {} }))).data;
    expect(balance).toMatchObject({ total_debit: 18004, total_credit: 18004 });
    await expectAccessible(page, 'finance trial balance');
    await screenshot(page, 'finance-trial-balance');

    expectClean(app);
    await app.close();
  });
});

describe('a manual journal entry', () => {
  it('adds an account, shows the difference while typing, refuses to post unbalanced and posts once balanced', async () => {
    const owner = await registerBusiness(server(), 'Journal Ltd');
    const app = await open(owner, '/finance/accounts');
    const { page } = app;

    await page.getByRole('table', { name: 'Asset accounts' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Equity' }).count()).toBe(0);
    await page.getByRole('button', { name: 'New account' }).click();
    let dialog = page.getByRole('dialog', { name: 'New account' });
    await dialog.getByLabel('Code').fill('3000');
    await dialog.getByLabel('Name').fill('Owner’s capital');
    await dialog.getByLabel('Type').selectOption('equity');
    await expectAccessible(page, 'finance new account');
    await screenshot(page, 'finance-account-new');
    await dialog.getByRole('button', { name: 'Add account' }).click();
    await page.getByText('3000 Owner’s capital was added.').waitFor();
    await page.getByRole('table', { name: 'Equity accounts' }).getByRole('row', { name: /3000/ }).waitFor();

    // The same code again: refused beside the code.
    await page.getByRole('button', { name: 'New account' }).click();
    dialog = page.getByRole('dialog', { name: 'New account' });
    await dialog.getByLabel('Code').fill('3000');
    await dialog.getByLabel('Name').fill('Capital again');
    await dialog.getByRole('button', { name: 'Add account' }).click();
    expect(await errorBeside(dialog.getByLabel('Code'))).toMatch(/3000|already/i);
    await expectAccessible(page, 'finance new account, refused');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    const { accounts } = await unwrap(owner.client.finance.accounts.listAccounts());
    expect(accounts.filter((a) => a.code === '3000')).toEqual([
      { code: '3000', name: 'Owner’s capital', type: 'equity', cash_flow_group: 'financing', system: false },
    ]);
    await expectAccessible(page, 'finance accounts');
    await screenshot(page, 'finance-accounts');

    await nav(page, 'Journal');
    await page.getByText('The journal is empty').waitFor();
    await page.getByRole('link', { name: 'New journal entry' }).first().click();
    await page.getByRole('heading', { name: 'New journal entry' }).waitFor();
    await page.getByLabel('Description', { exact: true }).fill('Owner investment');
    await page.getByLabel('Account, line 1').selectOption('1010');
    await page.getByLabel('Debit in USD, line 1').fill('250.00');
    await page.getByLabel('Account, line 2').selectOption('3000');
    await page.getByLabel('Credit in USD, line 2').fill('200');
    const difference = page.locator('[data-difference]');
    expect(await difference.textContent()).toBe(await inPage(page, 50));
    expect(await page.locator('[data-debits]').textContent()).toBe(await inPage(page, 250));
    expect(await page.locator('[data-credits]').textContent()).toBe(await inPage(page, 200));
    expect(await page.locator('[data-balance]').textContent()).toMatch(/cannot be posted/);

    await page.getByRole('button', { name: 'Post entry' }).click();
    const refusal = page.locator('form .message.error');
    await refusal.waitFor();
    expect(await refusal.textContent()).toContain(`they differ by ${await inPage(page, 50)}`);
    expect((await journalPage(owner.client)).total_count).toBe(0);
    await expectAccessible(page, 'finance journal entry, unbalanced');
    await screenshot(page, 'finance-journal-new-unbalanced');

    // Typing the right credit balances it, and it posts.
    await page.getByLabel('Credit in USD, line 2').fill('250');
    expect(await difference.textContent()).toBe(await inPage(page, 0));
    expect(await page.locator('[data-balance]').textContent()).toBe('Balanced: the entry can be posted.');
    expect(await refusal.count()).toBe(0);
    await screenshot(page, 'finance-journal-new-balanced');
    await page.getByRole('button', { name: 'Post entry' }).click();
    await page.getByText('The entry was posted.').waitFor();
    const amount = await inPage(page, 250);
    await expect
      .poll(() => journalLines(page))
      .toEqual([
        ['1010 Bank', amount, ''],
        ['3000 Owner’s capital', '', amount],
      ]);
    const { entries } = await journalPage(owner.client);
    expect(entries).toMatchObject([
      {
        description: 'Owner investment',
        date: today(),
        currency: 'USD',
        debits: [{ account: '1010', amount: 25000 }],
        credits: [{ account: '3000', amount: 25000 }],
        source: { type: 'manual' },
      },
    ]);
    expect(new URL(page.url()).searchParams.get('posted')).toBe(entries[0]!.id);

    expectClean(app, [409]);
    await app.close();
  });
});

describe('reports and the VAT threshold', () => {
  it('shows invoices made through the API in the sales schedule, the VAT threshold set up and registered, the revenue calculator and the profit and loss of a range', async () => {
    const owner = await registerBusiness(server(), 'Sales Ltd');
    const customer = await createCustomer(owner.client, { name: 'Grace Hopper' });
    await issuedInvoice(owner.client, {
      customer_id: customer.id,
      items: [{ description: 'Consulting', quantity: 1, unit_price: 1200, tax_rate: 20 }],
    });
    await issuedInvoice(owner.client, {
      customer_id: customer.id,
      items: [{ description: 'Workshop seats', quantity: 2, unit_price: 150.25 }],
    });
    await billOf(owner.client, 40000, { due_date: addDays(today(), 30) });

    const app = await open(owner, '/finance/sales-schedule');
    const { page } = app;
    const net = await inPage(page, 1500.5);
    await expect.poll(() => page.locator('[data-total-revenue]').textContent()).toBe(net);
    expect(await page.locator('[data-total-invoices]').textContent()).toBe('2');
    await page.locator('figure.chart canvas').first().waitFor();
    // Twelve months; this month holds the revenue, and the cumulative line ends on it.
    const figures = page.locator('figure.chart details table tbody tr');
    expect(await figures.count()).toBe(12);
    expect(await figures.last().locator('td').allTextContents()).toEqual([expect.any(String), net, net]);
    expect(
      await page.locator('main table').last().locator('tbody tr td:first-child').allTextContents(),
    ).toEqual(['INV-000001', 'INV-000002']);
    await expectAccessible(page, 'finance sales schedule');
    await screenshot(page, 'finance-sales-schedule');

    await page.getByLabel('Group by').selectOption('quarter');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('group_by')).toBe('quarter');
    await expect.poll(() => figures.count()).toBeLessThanOrEqual(5);
    expect(await figures.last().locator('td').nth(2).textContent()).toBe(net);
    await screenshot(page, 'finance-sales-schedule-quarter');

    // The VAT threshold: none, set up here, then the revenue of the window against it.
    await nav(page, 'VAT threshold');
    await page.getByText('No threshold is set up').waitFor();
    await expectAccessible(page, 'finance VAT, none');
    await screenshot(page, 'finance-vat-setup');
    await page.getByLabel('Country').fill('gb');
    await page.getByLabel('Threshold in USD').fill('5000');
    await page.getByLabel('Alert email').fill('alerts@sales.test');
    await page.getByRole('button', { name: 'Set up threshold' }).click();
    await page.getByText('The threshold is set up.').waitFor();
    const vat = (await unwrap(owner.client.finance.vat.getVatThreshold())).data!;
    expect(vat).toMatchObject({
      country: 'GB',
      thresholdAmount: 500000,
      currency: 'USD',
      periodType: 'rolling_12_months',
      alertAtPercentage: 80,
      currentRevenue: 150050,
    });
    expect(vat.projectedCrossingDate).not.toBeNull();
    expect(await page.locator('[data-current]').textContent()).toBe(net);
    expect(await page.locator('[data-percent]').textContent()).toBe(
      await percentInPage(page, vat.percentageReached / 100),
    );
    expect(await page.locator('[data-crossing]').textContent()).toBe(
      await dateInPage(page, vat.projectedCrossingDate!),
    );
    expect(await page.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('30');
    await expectAccessible(page, 'finance VAT');
    await screenshot(page, 'finance-vat');

    await page.getByRole('button', { name: 'Mark registered' }).click();
    const register = page.getByRole('dialog', { name: 'Mark the business VAT-registered' });
    await register.getByLabel('VAT number').fill('GB999999973');
    await expectAccessible(page, 'finance VAT, mark registered');
    await register.getByRole('button', { name: 'Mark registered' }).click();
    await page.getByText('Marked registered.').waitFor();
    await expect.poll(() => page.locator('[data-registered]').textContent()).toContain('GB999999973');
    expect(await page.getByRole('button', { name: 'Mark registered' }).count()).toBe(0);
    expect((await unwrap(owner.client.finance.vat.getVatThreshold())).data).toMatchObject({
      registered: true,
      registrationNumber: 'GB999999973',
      registrationDate: today(),
    });
    await screenshot(page, 'finance-vat-registered');

    // The revenue calculator, today and as of the end of last year.
    await nav(page, 'Revenue calculator');
    const metrics = (await unwrap(owner.client.finance.reports.getRevenueCalculator({ query: {} }))).data;
    expect(metrics).toMatchObject({ ytdRevenue: 150050, rolling12MonthRevenue: 150050 });
    await expect.poll(() => page.locator('[data-ytd]').textContent()).toBe(net);
    expect(await page.locator('[data-rolling]').textContent()).toBe(net);
    expect(await page.locator('[data-average]').textContent()).toBe(
      await inPage(page, metrics.monthlyAverage / 100),
    );
    expect(await page.locator('[data-projected]').textContent()).toBe(
      await inPage(page, metrics.projectedAnnual / 100),
    );
    await expectAccessible(page, 'finance revenue calculator');
    await screenshot(page, 'finance-revenue');
    const lastYearEnd = `${Number(today().slice(0, 4)) - 1}-12-31`;
    await page.getByLabel('As of', { exact: true }).fill(lastYearEnd);
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => page.locator('[data-ytd]').textContent()).toBe(await inPage(page, 0));
    expect(new URL(page.url()).searchParams.get('as_of')).toBe(lastYearEnd);

    // Profit and loss: this year by default, then last year (nothing posted).
    await nav(page, 'Profit and loss');
    const revenue = page.locator('section', { has: page.getByRole('heading', { name: 'Revenue' }) });
    const expenses = page.locator('section', { has: page.getByRole('heading', { name: 'Expenses' }) });
    await expect.poll(() => revenue.locator('[data-total]').textContent()).toBe(net);
    expect(await revenue.getByRole('row', { name: /Sales/ }).textContent()).toContain(net);
    expect(await expenses.locator('[data-total]').textContent()).toBe(await inPage(page, 400));
    expect(await page.locator('[data-net]').textContent()).toBe(await inPage(page, 1100.5));
    await expectAccessible(page, 'finance profit and loss');
    await screenshot(page, 'finance-profit-loss');
    await page.getByLabel('From', { exact: true }).fill(`${Number(today().slice(0, 4)) - 1}-01-01`);
    await page.getByLabel('To', { exact: true }).fill(lastYearEnd);
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('No revenue posted in this range').waitFor();
    expect(await page.locator('[data-net]').textContent()).toBe(await inPage(page, 0));
    expect(new URL(page.url()).searchParams.get('end_date')).toBe(lastYearEnd);

    expectClean(app);
    await app.close();
  });
});

describe('a bill with input tax', () => {
  it('shows the subtotal, tax and total while typing as the service answers them, then on the bill and in the list', async () => {
    const owner = await registerBusiness(server(), 'Input Tax Ltd');
    const vendor = await createVendor(owner.client, { name: 'Taxed Supplies' });
    const app = await open(owner, `/finance/bills/new?vendor_id=${vendor.id}`);
    const { page } = app;
    await page.getByRole('heading', { name: 'New bill' }).waitFor();
    await expect.poll(() => page.getByLabel('Vendor', { exact: true }).inputValue()).toBe(vendor.id);

    await page.getByLabel('Description, item 1').fill('Toner');
    await page.getByLabel('Quantity, item 1').fill('3');
    await page.getByLabel('Unit price in USD, item 1').fill('33.33');
    await page.getByLabel('Tax percent, item 1').fill('20');
    await page.getByRole('button', { name: 'Add item' }).click();
    await page.getByLabel('Description, item 2').fill('Envelopes');
    await page.getByLabel('Unit price in USD, item 2').fill('0.05');
    // A rate above 100 % prices nothing.
    await page.getByLabel('Tax percent, item 2').fill('112.5');
    expect(await page.locator('.totals-panel [data-total]').textContent()).toBe('—');
    await page.getByLabel('Tax percent, item 2').fill('12.5');
    // 99.99 at 20 % is 19.998, 0.05 at 12.5 % is 0.00625: the tax 20.00425 rounded once, 20.00.
    const panel = page.locator('.totals-panel');
    const shown = {
      subtotal: await panel.locator('[data-subtotal]').textContent(),
      tax: await panel.locator('[data-tax]').textContent(),
      total: await panel.locator('[data-total]').textContent(),
    };
    expect(shown).toEqual({
      subtotal: await inPage(page, 100.04),
      tax: await inPage(page, 20),
      total: await inPage(page, 120.04),
    });
    await expectAccessible(page, 'finance new bill with tax');

    await page.getByRole('button', { name: 'Save as draft' }).click();
    await page.getByRole('heading', { name: 'Bill from Taxed Supplies' }).waitFor();
    const billId = /\/app\/finance\/bills\/(bill_\w+)$/.exec(page.url())?.[1];
    const saved = await getBill(owner.client, billId!);
    // What was shown while typing is what the service answers.
    expect({
      subtotal: await inPage(page, saved.subtotal / 100),
      tax: await inPage(page, saved.tax / 100),
      total: await inPage(page, saved.amount / 100),
    }).toEqual(shown);
    expect(saved).toMatchObject({ subtotal: 10004, tax: 2000, amount: 12004 });
    expect(saved.items.map((i) => [i.tax_rate, i.tax])).toEqual([
      [20, 2000],
      [12.5, 1],
    ]);

    // The bill: each item's rate and tax, and its subtotal, tax and total.
    const totals = page.locator('.totals');
    expect(await totals.locator('[data-subtotal]').textContent()).toBe(shown.subtotal);
    expect(await totals.locator('[data-tax]').textContent()).toBe(shown.tax);
    expect(await totals.locator('[data-total]').textContent()).toBe(shown.total);
    const items = page.getByRole('table', { name: 'Items' });
    expect(await items.getByRole('columnheader', { name: 'Tax rate' }).count()).toBe(1);
    expect(await items.getByRole('cell', { name: '12.5%' }).count()).toBe(1);
    await expectAccessible(page, 'finance bill with tax');

    // The list: subtotal and tax beside the amount.
    await page.goto('/app/finance/bills');
    const list = page.getByRole('table', { name: 'Bills' });
    await list.getByRole('row', { name: /Taxed Supplies/ }).waitFor();
    expect(await list.getByRole('columnheader', { name: 'Subtotal' }).count()).toBe(1);
    expect(await list.getByRole('row', { name: /Taxed Supplies/ }).textContent()).toContain(shown.tax);
    expectClean(app);
    await app.close();
  });
});

describe('bills overdue, paged and seen by a viewer', () => {
  it('filters overdue bills, pages vendors from the URL, hides every action from a viewer and voids a bill as the owner', async () => {
    const owner = await registerBusiness(server(), 'Overdue Ltd');
    const vendor = await createVendor(owner.client, { name: 'Late Supplies' });
    const overdue = await billOf(owner.client, 12345, {
      vendor_id: vendor.id,
      issue_date: addDays(today(), -60),
      due_date: addDays(today(), -30),
    });
    const draft = await createBill(owner.client, { vendor_id: vendor.id, status: 'draft' });
    for (let i = 1; i <= 20; i++)
      await createVendor(owner.client, { name: `Vendor ${String(i).padStart(2, '0')}` });
    const viewer = await signedInMember(server(), owner, 'viewer');

    const app = await open(viewer, '/finance/bills');
    const { page } = app;
    await page
      .getByRole('row', { name: /Late Supplies/ })
      .first()
      .waitFor();
    expect(await page.getByRole('link', { name: 'New bill' }).count()).toBe(0);
    await page
      .getByRole('navigation', { name: 'Bill status' })
      .getByRole('link', { name: 'Overdue' })
      .click();
    await expect.poll(() => page.locator('main table tbody tr').count()).toBe(1);
    expect(await page.locator('main table tbody .badge').textContent()).toBe('overdue');
    expect(new URL(page.url()).searchParams.get('status')).toBe('overdue');
    await page.reload();
    await expect.poll(() => page.locator('main table tbody tr').count()).toBe(1);
    expect(await page.locator('main table tbody tr').textContent()).toContain(await inPage(page, 123.45));
    await expectAccessible(page, 'finance bills, overdue');
    await screenshot(page, 'finance-bills-overdue');

    await page.getByRole('link', { name: 'Late Supplies' }).click();
    await page.getByRole('heading', { name: 'Bill from Late Supplies' }).waitFor();
    expect(await page.locator('.status-line').textContent()).toContain('Was due on');
    for (const name of ['Record payment', 'Void', 'Approve', 'Delete draft']) {
      expect(await page.getByRole('button', { name }).count(), name).toBe(0);
    }
    await page.goto(`/app/finance/bills/${draft.id}`);
    await page.getByRole('heading', { name: 'Bill from Late Supplies' }).waitFor();
    expect(await page.locator('.status-line .badge').textContent()).toBe('draft');
    for (const name of ['Approve', 'Delete draft']) {
      expect(await page.getByRole('button', { name }).count(), name).toBe(0);
    }
    await page.goto('/app/finance/vendors');
    await page.getByRole('row', { name: /Vendor 20/ }).waitFor();
    expect(await page.getByRole('button', { name: 'New vendor' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Edit / }).count()).toBe(0);
    expect(await page.locator('.pager').textContent()).toContain('21 in all');
    await page.getByRole('link', { name: 'Next →' }).click();
    await expect.poll(() => page.locator('main table tbody tr').count()).toBe(1);
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');
    expect(await page.locator('main table tbody tr').textContent()).toContain('Late Supplies');
    await page.goto('/app/finance/journal/new');
    await page.getByText('cannot open this screen').waitFor();
    expect(await page.getByRole('button', { name: 'Post entry' }).count()).toBe(0);
    expectClean(app);
    await app.close();

    // The owner voids the overdue bill: void, and its posting reversed.
    const ownerApp = await open(owner, `/finance/bills/${overdue.id}`);
    const ownerPage = ownerApp.page;
    await ownerPage.getByRole('button', { name: 'Void' }).click();
    const confirm = ownerPage.getByRole('dialog', { name: 'Void this bill?' });
    await expectAccessible(ownerPage, 'finance void bill');
    await confirm.getByRole('button', { name: 'Void bill' }).click();
    await ownerPage.getByText('The bill is void').waitFor();
    await expect.poll(() => ownerPage.locator('.status-line .badge').textContent()).toBe('void');
    expect((await getBill(owner.client, overdue.id)).status).toBe('void');
    const { entries } = await journalPage(owner.client);
    expect(entries[0]).toMatchObject({
      source: { type: 'void' },
      debits: [{ account: '2000', amount: 12345 }],
      credits: [{ account: '5000', amount: 12345 }],
    });
    await screenshot(ownerPage, 'finance-bill-void');
    expectClean(ownerApp);
    await ownerApp.close();
  });
});
