import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import {
  expectAccessible,
  expectClean,
  openApp,
  screenshot,
  useBrowser,
  type AppPage,
} from '../support/browser.js';
import { registerBusiness, signedInMember, type TestBusiness } from '../support/business.js';
import { createCustomer, issuedInvoice, payInvoice } from '../support/general.js';
import { useTestServer } from '../support/setup.js';

/**
 * The words a business owner reads: no validator's or integrator's wording reaches a screen, amounts
 * are refused in the form's currency, roles and statuses read as people write them, a far-off VAT
 * projection is not shown as a date, and the audit log reads as sentences with links.
 */

const server = useTestServer();
const browser = useBrowser();

const open = (business: { accessToken: string }, path: string) =>
  openApp(browser(), server().baseUrl, `/app${path}`, { accessToken: business.accessToken });

const heading = (page: Page, name: string | RegExp) =>
  page.getByRole('heading', { name, level: 1 }).waitFor();

async function finish(app: AppPage, allowedStatuses: number[] = []) {
  expectClean(app, allowedStatuses);
  await app.close();
}

/** What a person must never read: the validator's own wording, or an integrator's. */
const RAW =
  /String must contain|Expected (a |number|string|integer)|Required$|Invalid enum value|Invalid input|character\(s\)|major units \(a decimal|minor units \(an integer|received (nan|string|undefined)|\/v1\//m;
/** A camelCase operation id (`createPayment`). */
const OPERATION_ID =
  /\b(create|update|delete|issue|send|void|list|get|pay|approve|invite|change|remove)[A-Z][A-Za-z]+\b/;

/** A GBP business with a customer. */
async function gbpBusiness(name: string): Promise<TestBusiness & { customerId: string }> {
  const biz = await registerBusiness(server(), name);
  await unwrap(biz.client.auth.updateBusiness({ body: { base_currency: 'GBP' } }));
  const customer = await createCustomer(biz.client, { name: 'Ada Lovelace', email: 'ada@example.test' });
  return { ...biz, customerId: customer.id };
}

/** The fields of a form a person types into (dates and choices keep what they hold). */
const typed = (scope: Locator) =>
  scope.locator(
    'input:not([type=hidden]):not([type=checkbox]):not([type=radio]):not([type=date]):not([type=file]):not([type=search]):not([readonly]):not([disabled]), textarea:not([readonly])',
  );

/** A value each kind of field refuses: not an email, not a web address, not an amount, too long. */
async function junkFor(input: Locator): Promise<string> {
  const [type, mode, name] = await Promise.all([
    input.getAttribute('type'),
    input.getAttribute('inputmode'),
    input.getAttribute('name'),
  ]);
  if (type === 'email' || /email|reply_to/.test(name ?? '')) return 'not an email';
  if (type === 'url' || /url/.test(name ?? '')) return 'not a web address';
  if (type === 'number') return '-5';
  if (mode === 'decimal' || mode === 'numeric' || /price|amount|salary|stock|quantity/.test(name ?? '')) {
    return 'abc';
  }
  return 'x'.repeat(6000);
}

/**
 * Fills a form's fields (empty, or with what each refuses), submits it, waits for its refusal and
 * returns the page's text.
 */
async function refused(page: Page, form: Locator, mode: 'empty' | 'junk'): Promise<string> {
  const fields = typed(form);
  for (let i = 0; i < (await fields.count()); i++) {
    const field = fields.nth(i);
    if (!(await field.isVisible())) continue;
    await field.fill(mode === 'empty' ? '' : await junkFor(field));
  }
  await form.locator('button[type=submit]').first().click();
  await expect
    .poll(() => form.locator('[aria-invalid="true"], .error, [role="alert"]').count(), {
      message: 'the form shows its refusal',
    })
    .toBeGreaterThan(0);
  return page.locator('body').innerText();
}

/** The form a button opens (a dialog's), or the screen's own. */
async function formOf(page: Page, button: string | null): Promise<Locator> {
  if (button) {
    await page.getByRole('button', { name: button, exact: true }).first().click();
    // A dialog's form, or one the button opened in the page (a new webhook's).
    const form = page.locator('[role=dialog] form, main form:has(button[type=submit])').first();
    await form.waitFor();
    return form;
  }
  const form = page.locator('main form:has(button[type=submit])').first();
  await form.waitFor();
  return form;
}

describe('the words of refusals', () => {
  it('shows no validator text on any form, and refuses amounts in the form currency', async () => {
    const biz = await gbpBusiness('Plain Words Ltd');
    const forms: [string, string | RegExp, string | null][] = [
      ['/customers', 'Customers', 'New customer'],
      ['/products', 'Products', 'New product'],
      ['/invoices/new', 'New invoice', null],
      ['/finance/bills/new', 'New bill', null],
      ['/hr/employees', 'Employees', 'New employee'],
      ['/marketing/campaigns', 'Campaigns', 'New campaign'],
      ['/marketing/templates', 'Templates', 'New template'],
      ['/settings/webhooks', 'Webhooks', 'Add endpoint'],
      ['/settings/api-keys', 'API keys', 'Create API key'],
      ['/settings/business', 'Business settings', null],
      ['/settings/team', 'Team', 'Invite a member'],
    ];
    // A vendor and a department, so the bill and employee forms are there to refuse.
    await unwrap(biz.client.finance.vendors.createVendor({ body: { name: 'Paper Co' } }));
    await unwrap(biz.client.hr.departments.createDepartment({ body: { name: 'Shop floor' } }));
    const app = await open(biz, '/');
    const { page } = app;
    for (const [path, title, button] of forms) {
      for (const mode of ['empty', 'junk'] as const) {
        await page.goto(`/app${path}`);
        await heading(page, title);
        const text = await refused(page, await formOf(page, button), mode).catch((err: unknown) => {
          throw new Error(`${path} (${mode}): ${String(err)}`);
        });
        expect(text, `${path} (${mode})`).not.toMatch(RAW);
        if (mode === 'junk' && (path === '/invoices/new' || path === '/finance/bills/new')) {
          // An amount that is not one is refused in the form's currency.
          expect(text, path).toContain('Enter an amount in GBP, like 12.50.');
          await screenshot(page, `messages-refused${path.replace(/\//g, '-')}`);
          await expectAccessible(page, `refused ${path}`);
        }
      }
    }
    await finish(app, [409, 422]);
  });
});

describe('roles, statuses, projections', () => {
  it('names the HR role as people write it, on the team screen and in the header', async () => {
    const owner = await gbpBusiness('Roles Words Ltd');
    const hr = await signedInMember(server(), owner, 'hr');
    const app = await open(owner, '/settings/team');
    const { page } = app;
    await heading(page, 'Team');
    const row = page.getByRole('row', { name: new RegExp(hr.email) });
    await row.waitFor();
    expect(await row.innerText()).toContain('HR');
    expect(await page.locator('main').innerText()).not.toMatch(/\bHr\b/);
    expect(await page.locator('.who').innerText()).toContain('Owner');
    await expectAccessible(page, 'team roles');
    await screenshot(page, 'messages-team-roles');
    await finish(app);

    const asHr = await open(hr, '/');
    expect(await asHr.page.locator('.who').innerText()).toMatch(/· HR$/);
    await finish(asHr);
  });

  it('calls a part-paid invoice partially paid, with what is still due', async () => {
    const biz = await gbpBusiness('Part Paid Ltd');
    const invoice = await issuedInvoice(biz.client, {
      customer_id: biz.customerId,
      currency: 'GBP',
      items: [{ description: 'Consulting', quantity: 1, unit_price: 500 }],
    });
    await payInvoice(biz.client, invoice.id, 200);
    const app = await open(biz, '/invoices');
    const { page } = app;
    await heading(page, 'Invoices');
    const row = page.getByRole('row', { name: new RegExp(invoice.number) });
    await row.waitFor();
    expect(await row.locator('.badge').innerText()).toMatch(/^partially paid$/i);
    expect(await row.innerText()).toContain('£300.00');
    await expectAccessible(page, 'invoices partially paid');
    await screenshot(page, 'messages-invoices-partially-paid');

    await row.getByRole('link', { name: invoice.number }).click();
    await heading(page, `Invoice ${invoice.number}`);
    const status = page.locator('.status-line');
    expect(await status.innerText()).toMatch(
      /^partially paid\s+Partially paid: £300\.00 of £500\.00 still due/i,
    );
    expect(await status.innerText()).not.toMatch(/\bunpaid\b/i);
    await expectAccessible(page, 'invoice partially paid');
    await screenshot(page, 'messages-invoice-partially-paid');
    await finish(app);
  });

  it('says a VAT threshold crossing centuries away is not within the next years, not its date', async () => {
    const biz = await gbpBusiness('Slow Sales Ltd');
    await issuedInvoice(biz.client, {
      customer_id: biz.customerId,
      currency: 'GBP',
      items: [{ description: 'Tea', quantity: 1, unit_price: 100 }],
    });
    const vat = (
      await unwrap(
        biz.client.finance.vat.createVatThreshold({
          body: {
            country: 'GB',
            thresholdAmount: 9_000_000,
            currency: 'GBP',
            periodType: 'rolling_12_months',
            alertAtPercentage: 80,
            alertEmail: 'accounts@example.test',
          },
        }),
      )
    ).data;
    // The service projects a date (about two centuries away at this pace): the screen does not show it.
    expect(vat.projectedCrossingDate).not.toBeNull();
    expect(Number(vat.projectedCrossingDate!.slice(0, 4))).toBeGreaterThan(new Date().getFullYear() + 2);
    const app = await open(biz, '/finance/vat');
    const { page } = app;
    await heading(page, /VAT/);
    const crossing = page.locator('[data-crossing]');
    await expect.poll(() => crossing.innerText()).toBe('Not within the next 2 years');
    expect(await page.locator('main').innerText()).not.toContain(vat.projectedCrossingDate!.slice(0, 4));
    await expectAccessible(page, 'vat far projection');
    await screenshot(page, 'messages-vat-far-projection');
    await finish(app);
  });

  it("explains that a campaign's From address is optional", async () => {
    const biz = await gbpBusiness('Campaign Words Ltd');
    const app = await open(biz, '/marketing/campaigns');
    const { page } = app;
    await heading(page, 'Campaigns');
    await page.getByRole('button', { name: 'New campaign', exact: true }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Overrides (optional)').click();
    expect(await dialog.innerText()).toContain("Optional. Empty, the template's From address is used.");
    await expectAccessible(page, 'campaign dialog');
    await screenshot(page, 'messages-campaign-dialog');
    await finish(app);
  });
});

describe('the audit log', () => {
  it('reads a payment as a sentence with a link to its invoice, and shows no operation id', async () => {
    const biz = await gbpBusiness('Audit Words Ltd');
    const invoice = await issuedInvoice(biz.client, {
      customer_id: biz.customerId,
      currency: 'GBP',
      items: [{ description: 'Consulting', quantity: 1, unit_price: 500 }],
    });
    await payInvoice(biz.client, invoice.id, 200);
    const app = await open(biz, '/audit-log');
    const { page } = app;
    await heading(page, 'Audit log');
    const rows = page.getByRole('table', { name: 'Audit log entries' }).locator('tbody tr');
    await rows.first().waitFor();
    expect(await rows.first().innerText()).toContain(`Recorded a payment of £200.00 on ${invoice.number}`);
    const text = await page.locator('main').innerText();
    expect(text).toContain(`Issued ${invoice.number}`);
    expect(text).toContain('Added customer Ada Lovelace');
    expect(text).not.toMatch(OPERATION_ID);
    expect(text).not.toContain(invoice.id);
    await expectAccessible(page, 'audit log sentences');
    await screenshot(page, 'messages-audit-log');

    await rows.first().getByRole('link', { name: invoice.number }).click();
    await heading(page, `Invoice ${invoice.number}`);
    expect(new URL(page.url()).pathname).toBe(`/app/invoices/${invoice.id}`);
    await finish(app);
  });
});
