import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import type { Download, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { unwrap, type Client, type general } from '../../client/index.js';
import { columnsOf } from '../../contract/common/exports.js';
import { CustomerSchema } from '../../contract/general/customers.js';
import {
  expectAccessible,
  expectClean,
  firstCells,
  openApp,
  screenshot,
  useBrowser,
  type AppPage,
} from '../support/browser.js';
import { ensureBuilt } from '../support/build.js';
import { registerBusiness, registerShop, signedInMember, uniqueEmail } from '../support/business.js';
import { createCustomer, issuedInvoice } from '../support/general.js';
import { createEmployee, createLeave } from '../support/hr.js';
import { adjustPoints, enrollMember } from '../support/loyalty.js';
import { useTestServer } from '../support/setup.js';

/**
 * Data in and out of the dashboard (docs/decisions.md D155, D160) in a real browser: a list's Export CSV
 * saves every item its filters and order select, as the service writes it; the customers' Import CSV checks a
 * file with a dry run, shows each row's fate, and imports the valid rows.
 */

// The browser loads the built dashboard: rebuilt first when a source is newer than the build.
beforeAll(ensureBuilt, 300_000);
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

/** Clicks Export CSV and reads the file the browser saves: its name, header and rows. */
async function exportFrom(page: Page): Promise<{ name: string; header: string[]; rows: string[][] }> {
  const [download]: [Download, void] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  const text = await readFile(await download.path(), 'utf8');
  const [header, ...rows]: string[][] = parse(text, { bom: true });
  return { name: download.suggestedFilename(), header: header!, rows };
}

const customersOf = async (client: Client, query: { search?: string; sort?: string } = {}) =>
  (await unwrap(client.general.customers.listCustomers({ query: { limit: 100, ...query } }))).data;

/** A row of the export as an object keyed by its header. */
const byColumn = (header: string[], row: string[]) =>
  Object.fromEntries(header.map((column, i) => [column, row[i] ?? '']));

describe('exporting a list', () => {
  it('saves every customer in the order and filters on screen, columns named as the JSON fields, a formula neutralised', async () => {
    const owner = await registerBusiness(server(), 'Export Ltd');
    const ada = await createCustomer(owner.client, {
      name: 'Ada Lovelace',
      email: uniqueEmail('ada'),
      company: 'Analytical Engines',
      address: { city: 'London', country: 'GB' },
    });
    const grace = await createCustomer(owner.client, { name: 'Grace Hopper', email: uniqueEmail('grace') });
    const formula = await createCustomer(owner.client, { name: '=HYPERLINK("http://evil.test","x")' });
    const all: general.Customer[] = [ada, grace, formula];

    // Sorted by name, descending: the file follows the screen's order, every page of it.
    const app = await open(owner, '/customers?sort=-name');
    const { page } = app;
    await page.getByRole('link', { name: 'Grace Hopper' }).waitFor();
    const exported = await exportFrom(page);
    expect(exported.name).toMatch(/^customers-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(exported.header).toEqual(columnsOf(CustomerSchema));
    const expectedOrder = (await customersOf(owner.client, { sort: 'name:desc' })).map((c) => c.id);
    expect(exported.rows.map((row) => byColumn(exported.header, row).id)).toEqual(expectedOrder);
    for (const customer of all) {
      const row = exported.rows.map((r) => byColumn(exported.header, r)).find((r) => r.id === customer.id)!;
      expect(row).toMatchObject({
        name: customer.name.startsWith('=') ? `'${customer.name}` : customer.name,
        email: customer.email ?? '',
        company: customer.company ?? '',
        'address.city': customer.address?.city ?? '',
        created_at: customer.created_at,
      });
    }

    // A search on screen is a search in the file.
    await page.getByLabel('Search', { exact: true }).fill('Lovelace');
    await expect.poll(() => firstCells(page)).toEqual(['Ada Lovelace']);
    const searched = await exportFrom(page);
    expect(searched.rows.map((row) => byColumn(searched.header, row).id)).toEqual([ada.id]);

    expectClean(app);
    await app.close();
  });
});

/**
 * Export CSV on a screen: the saved file's name and header, or the failure the screen shows (so a
 * refused export fails the test naming why rather than waiting for a download that never comes).
 */
async function exportOn(
  page: Page,
  name: string | RegExp = /^Export CSV/,
): Promise<{ file: string; header: string[] }> {
  const button = page.getByRole('button', { name }).first();
  await button.waitFor();
  const download = page.waitForEvent('download');
  await button.click();
  const outcome = await Promise.race([
    download,
    page
      .locator('.export [role="alert"]')
      .waitFor()
      .then(async () => page.locator('.export [role="alert"]').first().textContent()),
  ]);
  if (typeof outcome === 'string' || outcome === null) throw new Error(`the export failed: ${outcome}`);
  const text = await readFile(await outcome.path(), 'utf8');
  const [header]: string[][] = parse(text, { bom: true, to: 1 });
  return { file: outcome.suggestedFilename(), header: header ?? [] };
}

describe('every list screen', () => {
  it('has an Export CSV that saves the list with its filters, named after it', async () => {
    const owner = await registerShop(server());
    const customer = await createCustomer(owner.client, {
      name: 'Ada Lovelace',
      email: uniqueEmail('ada'),
    });
    await issuedInvoice(owner.client, { customer_id: customer.id });
    const employee = await createEmployee(owner.client);
    await createLeave(owner.client, employee.id);
    const member = await enrollMember(owner.client, { customerId: customer.id });
    await adjustPoints(owner.client, member.publicId, 50);

    /** Each screen (with filters where it has some), the file's name, and a column the file must have. */
    const screens: [path: string, file: string, column: string, button?: RegExp][] = [
      ['/customers?search=Ada&sort=-name', 'customers', 'email'],
      ['/products?search=bean&sort=price', 'products', 'sku'],
      ['/invoices?status=unpaid&sort=-total', 'invoices', 'number'],
      ['/quotes?status=draft', 'quotes', 'number'],
      [`/customers/${customer.id}`, 'invoices', 'number', /^Export CSV of the invoices/],
      ['/finance/vendors', 'vendors', 'name'],
      ['/finance/bills?status=pending', 'bills', 'vendor_name'],
      ['/finance/journal?start_date=2026-01-01&end_date=2026-12-31', 'journal', 'description'],
      ['/finance/accounts', 'accounts', 'code'],
      ['/hr/departments', 'departments', 'name'],
      ['/hr/employees?status=active&sort=last_name', 'employees', 'email'],
      [`/hr/employees/${employee.id}`, 'leaves', 'start_date', /^Export CSV of the leave/],
      ['/hr/leaves?status=pending', 'leaves', 'employee_name'],
      ['/marketing/segments?status=active', 'segments', 'name'],
      ['/marketing/templates', 'templates', 'name'],
      ['/marketing/campaigns', 'campaigns', 'name'],
      ['/loyalty/program', 'tiers', 'minPoints', /^Export CSV of the tiers/],
      ['/loyalty/members?status=active', 'members', 'publicId'],
      [`/loyalty/members/${member.publicId}`, 'transactions', 'points', /^Export CSV of the transactions/],
      ['/loyalty/rewards?offered=yes', 'rewards', 'name'],
      ['/loyalty/redemptions', 'redemptions', 'status'],
      ['/loyalty/reminders?active=yes', 'reminders', 'intervalDays'],
      ['/settings/api-keys', 'api-keys', 'name'],
      ['/settings/webhooks', 'webhooks', 'url'],
      ['/settings/domains', 'domains', 'domain'],
      ['/sandbox/inbox', 'messages', 'subject'],
      ['/audit-log?operation=createCustomer', 'audit-log', 'operation'],
    ];
    const app = await open(owner, '/');
    const { page } = app;
    for (const [path, file, column, button] of screens) {
      await page.goto(`/app${path}`);
      const saved = await exportOn(page, button);
      expect(saved.file, path).toMatch(new RegExp(`^${file}-\\d{4}-\\d{2}-\\d{2}\\.csv$`));
      expect(saved.header, path).toContain(column);
    }
    expectClean(app);
    await app.close();
  });
});

/** The import dialog of the customers screen, opened. */
async function openImport(page: Page) {
  await page.getByRole('button', { name: 'Import CSV' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import customers from CSV' });
  await dialog.waitFor();
  return dialog;
}

const countIn = (dialog: ReturnType<Page['getByRole']>, what: 'create' | 'update' | 'refused') =>
  dialog.locator(`.import-checked [data-count="${what}"]`).textContent();

describe('importing customers', () => {
  it('checks the file, shows what each row would do, imports the valid rows and skips the refused one', async () => {
    const owner = await registerBusiness(server(), 'Import Ltd');
    const known = await createCustomer(owner.client, { name: 'Ada Lovelace', email: uniqueEmail('ada') });
    const newEmail = uniqueEmail('grace');
    const file = [
      'Name,Email,Company,Notes',
      `Grace Hopper,${newEmail},US Navy,first`,
      `Ada King,${known.email},Analytical Engines,renamed`,
      'Bad Row,not-an-email,,oops',
    ].join('\r\n');

    const app = await open(owner, '/customers');
    const { page } = app;
    await page.getByRole('link', { name: 'Ada Lovelace' }).waitFor();
    const dialog = await openImport(page);
    await dialog
      .getByLabel('CSV file')
      .setInputFiles({ name: 'customers.csv', mimeType: 'text/csv', buffer: Buffer.from(file) });
    await dialog.getByRole('button', { name: 'Check file' }).click();

    // The dry run's report: counts, columns read and ignored, the refused row's line, field and reason.
    await dialog.getByText('3 rows read: 1 to create, 1 to update, 1 refused.').waitFor();
    expect(await countIn(dialog, 'create')).toBe('1');
    expect(await countIn(dialog, 'update')).toBe('1');
    expect(await countIn(dialog, 'refused')).toBe('1');
    expect(await dialog.locator('[data-columns="mapped"] code').allTextContents()).toEqual([
      'name',
      'email',
      'company',
    ]);
    expect(await dialog.locator('[data-columns="unknown"] code').allTextContents()).toEqual(['Notes']);
    const refused = dialog.getByRole('table', { name: 'Refused rows' });
    const cells = await refused.locator('tbody tr td').allTextContents();
    expect(cells.slice(0, 2)).toEqual(['4', 'email']);
    expect(cells[2]).toMatch(/email/i);
    expect(await dialog.locator('.import-summary').textContent()).toContain('from line 2');
    expect(await dialog.locator('.import-summary').textContent()).toContain('matched by email, from line 3');
    // Nothing changed yet.
    expect((await customersOf(owner.client)).map((c) => c.name)).toEqual(['Ada Lovelace']);

    // All or nothing is refused while a row is; the valid rows can be imported on their own.
    const importAll = dialog.getByRole('button', { name: 'Import 3 rows' });
    expect(await importAll.isDisabled()).toBe(true);
    await expectAccessible(page, 'customers import report');
    await screenshot(page, 'csv-customers-import-report');
    await page.screenshot({ path: '/tmp/csv-customers-import-report.png' });
    await dialog.getByLabel('Import the valid rows and skip refused ones').check();
    await dialog.getByRole('button', { name: 'Import 2 rows' }).click();
    await dialog
      .getByText('Imported 2 rows: 1 customer created, 1 updated. 1 refused row was skipped.')
      .waitFor();
    await screenshot(page, 'csv-customers-imported');
    await page.screenshot({ path: '/tmp/csv-customers-imported.png' });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // The list shows the new customer and the new name; the refused row made no customer.
    await page.getByRole('link', { name: 'Grace Hopper' }).waitFor();
    await page.getByRole('link', { name: 'Ada King' }).waitFor();
    expect(await page.getByRole('link', { name: 'Ada Lovelace' }).count()).toBe(0);
    const after = await customersOf(owner.client, { sort: 'name:asc' });
    expect(after.map((c) => [c.name, c.email, c.company])).toEqual([
      ['Ada King', known.email, 'Analytical Engines'],
      ['Grace Hopper', newEmail, 'US Navy'],
    ]);
    expect(after.find((c) => c.name === 'Ada King')!.id).toBe(known.id);
    expect(await customersOf(owner.client, { search: 'Bad Row' })).toEqual([]);

    expectClean(app);
    await app.close();
  });

  it('imports a file with no refused row all or nothing', async () => {
    const owner = await registerBusiness(server(), 'Clean Import Ltd');
    const app = await open(owner, '/customers');
    const { page } = app;
    await page.getByText('No customers yet').waitFor();
    const dialog = await openImport(page);
    const file = `name,email\nAda Lovelace,${uniqueEmail('ada')}\nGrace Hopper,${uniqueEmail('grace')}\n`;
    await dialog
      .getByLabel('CSV file')
      .setInputFiles({ name: 'customers.csv', mimeType: 'text/csv', buffer: Buffer.from(file) });
    await dialog.getByRole('button', { name: 'Check file' }).click();
    await dialog.getByText('2 rows read: 2 to create, 0 to update, 0 refused.').waitFor();
    expect(await dialog.getByLabel('Import the valid rows and skip refused ones').count()).toBe(0);
    await dialog.getByRole('button', { name: 'Import 2 rows' }).click();
    await dialog.getByText('Imported 2 rows: 2 customers created, 0 updated.').waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect
      .poll(() => firstCells(page))
      .toEqual(expect.arrayContaining(['Ada Lovelace', 'Grace Hopper']));
    expect((await customersOf(owner.client, { sort: 'name:asc' })).map((c) => c.name)).toEqual([
      'Ada Lovelace',
      'Grace Hopper',
    ]);
    expectClean(app);
    await app.close();
  });

  it('shows the service’s message naming the line of a file that is not UTF-8', async () => {
    const owner = await registerBusiness(server(), 'Latin Ltd');
    const app = await open(owner, '/customers');
    const { page } = app;
    await page.getByText('No customers yet').waitFor();
    const dialog = await openImport(page);
    const latin1 = Buffer.from('name,email\nJosé Müller,jose@example.test\n', 'latin1');
    await dialog
      .getByLabel('CSV file')
      .setInputFiles({ name: 'latin1.csv', mimeType: 'text/csv', buffer: latin1 });
    await dialog.getByRole('button', { name: 'Check file' }).click();
    const alert = dialog.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/^Line 2: the file is not UTF-8/);
    expect(await dialog.getByRole('button', { name: /^Import \d/ }).count()).toBe(0);
    await expectAccessible(page, 'customers import refused file');
    await page.screenshot({ path: '/tmp/csv-customers-import-latin1.png' });
    expect(await customersOf(owner.client)).toEqual([]);
    expectClean(app, [422]);
    await app.close();
  });

  it('offers Export but not Import to a viewer', async () => {
    const owner = await registerBusiness(server(), 'Viewer Ltd');
    await createCustomer(owner.client, { name: 'Ada Lovelace' });
    const viewer = await signedInMember(server(), owner, 'viewer');
    const app = await open(viewer, '/customers');
    const { page } = app;
    await page.getByRole('link', { name: 'Ada Lovelace' }).waitFor();
    await page.getByRole('button', { name: 'Export CSV' }).waitFor();
    expect(await page.getByRole('button', { name: 'Import CSV' }).count()).toBe(0);
    const exported = await exportFrom(page);
    expect(exported.rows).toHaveLength(1);
    expectClean(app);
    await app.close();
  });
});
