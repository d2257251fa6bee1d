import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import {
  errorBeside,
  expectAccessible,
  expectClean,
  firstCells,
  inPage,
  openApp,
  screenshot,
  useBrowser,
  type AppPage,
} from '../support/browser.js';
import { registerBusiness } from '../support/business.js';
import {
  createCreditNote,
  createCustomer,
  createInvoice,
  getInvoice,
  invoiceLine,
  issuedInvoice,
} from '../support/general.js';
import { useTestServer } from '../support/setup.js';

/**
 * Receivables in a real browser: line discounts typed with live totals, credit notes made from an
 * invoice's screen (their limits beside the fields, the service's refusals where they belong), listed
 * on the invoice and on their own screen with PDF, send and void, and the customer's credit balance.
 */

const server = useTestServer({ worker: false });
const browser = useBrowser();

/** A phone narrower than most: the screens must still fit it. */
const NARROW = { width: 360, height: 800 };

/** The dashboard at `path`, signed in; a step that waits longer than 10 s fails naming what it waited for. */
async function open(
  business: { accessToken: string },
  path: string,
  viewport?: { width: number; height: number },
): Promise<AppPage> {
  const app = await openApp(
    browser(),
    server().baseUrl,
    `/app${path}`,
    { accessToken: business.accessToken },
    viewport,
  );
  app.page.setDefaultTimeout(10_000);
  return app;
}

/** Nothing on the page is wider than the window (no sideways scrolling). */
const fitsWidth = (page: Page) =>
  page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth');

describe('line discounts', () => {
  it('prices a discounted line as the service does while typing, and shows the discount in the detail', async () => {
    const owner = await registerBusiness(server(), 'Discounts Ltd');
    const customer = await createCustomer(owner.client);
    const invoice = await createInvoice(owner.client, {
      customer_id: customer.id,
      items: [invoiceLine({ quantity: 3, unit_price: 24.5, tax_rate: 20 }), invoiceLine({ unit_price: 10 })],
    });
    const app = await open(owner, `/invoices/${invoice.id}`);
    const { page } = app;
    await page.getByRole('heading', { name: `Invoice ${invoice.number}` }).waitFor();
    // No line has a discount yet: no Discount column, as on the PDF.
    expect(await page.getByRole('columnheader', { name: 'Discount' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Edit draft' }).click();
    // 3 x 24.50 at 12.5 % off is 64.3125, rounded once to 64.31; tax 20 % of it 12.862, so 12.86.
    await page.getByLabel('Discount percent, line 1').fill('12.5');
    const line = page.locator('.items-table tbody tr').first().locator('[data-amount]');
    await expect.poll(() => line.textContent()).toBe(await inPage(page, 64.31));
    expect(await page.locator('.totals-panel [data-total]').textContent()).toBe(await inPage(page, 87.17));
    // Beyond 100 % the line cannot be priced: the totals wait, and the schema says why on saving.
    await page.getByLabel('Discount percent, line 2').fill('120');
    expect(await page.locator('.totals-panel [data-total]').textContent()).toBe('—');
    await page.getByRole('button', { name: 'Save changes' }).click();
    expect(await errorBeside(page.getByLabel('Discount percent, line 2'))).toBeTruthy();
    await page.getByLabel('Discount percent, line 2').fill('');
    await expectAccessible(page, 'invoice lines with a discount');
    await screenshot(page, 'receivables-discount-editor');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Changes saved.').waitFor();

    const saved = await getInvoice(owner.client, invoice.id);
    expect(saved.items.map((i) => [i.discount_percent, i.total])).toEqual([
      [12.5, 64.31],
      [0, 10],
    ]);
    expect(saved.total).toBe(87.17);
    expect(await page.getByRole('columnheader', { name: 'Discount' }).count()).toBe(1);
    expect(await page.locator('table.lines [data-discount]').allTextContents()).toEqual(['12.5%', '—']);
    expect(await page.locator('.totals [data-total]').textContent()).toBe(await inPage(page, 87.17));
    expectClean(app);
    await app.close();
  });
});

describe('credit notes', () => {
  it("credits an invoice from its screen, refusing more than is left beside the amount, and puts the customer's share on their credit balance", async () => {
    const owner = await registerBusiness(server(), 'Credits Ltd');
    const customer = await createCustomer(owner.client, { name: 'Grace Hopper' });
    const invoice = await issuedInvoice(owner.client, {
      customer_id: customer.id,
      items: [invoiceLine({ unit_price: 100, tax_rate: 20 })],
    });
    const app = await open(owner, `/invoices/${invoice.id}`);
    const { page } = app;
    await page.getByRole('heading', { name: `Invoice ${invoice.number}` }).waitFor();
    await page.getByText('No credit notes').waitFor();
    await page.getByRole('button', { name: 'Credit note', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Credit note for ${invoice.number}` });
    const amount = dialog.getByLabel('Amount in USD');
    // The limits beside the fields: what is left to credit, and what is still due.
    await dialog
      .getByText(`At most ${await inPage(page, 120)} is left to credit on ${invoice.number}.`)
      .waitFor();
    await dialog
      .getByText(`At most ${await inPage(page, 120)}, what ${invoice.number} still owes.`)
      .waitFor();
    await dialog.getByLabel('Reason').fill('Two hours billed twice');
    await amount.fill('150');
    await dialog.getByLabel('Off the amount due (USD)').fill('150');
    expect(await dialog.locator('[data-total]').textContent()).toBe(await inPage(page, 150));
    expect(await dialog.locator('[data-unplaced]').textContent()).toBe(await inPage(page, 0));
    await expectAccessible(page, 'credit note dialog');
    await screenshot(page, 'receivables-credit-note-dialog');

    // More than the invoice's total less earlier credit notes: the service's 422 beside the amount.
    await dialog.getByRole('button', { name: 'Issue credit note' }).click();
    expect(await errorBeside(amount)).toMatch(/120/);
    expect((await getInvoice(owner.client, invoice.id)).amount_credited).toBe(0);

    // 48 = 30 off what is owed + 18 to the customer's credit; the total and what is placed as typed.
    await amount.fill('48');
    await dialog.getByLabel('Off the amount due (USD)').fill('30');
    expect(await dialog.locator('[data-unplaced]').textContent()).toBe(await inPage(page, 18));
    await dialog.getByLabel("To the customer's credit (USD)").fill('18');
    expect(await dialog.locator('[data-unplaced]').textContent()).toBe(await inPage(page, 0));
    await dialog.getByRole('button', { name: 'Issue credit note' }).click();
    await page.getByText(/^Credit note CN-\d{6} issued for /).waitFor();
    await dialog.waitFor({ state: 'hidden' });

    const credited = await getInvoice(owner.client, invoice.id);
    expect(credited).toMatchObject({ amount_credited: 30, amount_due: 90, status: 'unpaid' });
    const notes = (
      await unwrap(owner.client.general.creditNotes.listCreditNotes({ query: { invoice_id: invoice.id } }))
    ).data;
    expect(notes.map((n) => [n.total, n.credit_amount, n.customer_credit_amount, n.reason])).toEqual([
      [48, 30, 18, 'Two hours billed twice'],
    ]);
    const [note] = notes;
    // The invoice shows what was credited and lists the credit note.
    const totals = page.locator('dl.totals');
    await expect.poll(() => totals.textContent()).toContain('Credited');
    expect(await totals.textContent()).toContain(await inPage(page, 30));
    const section = page.getByRole('region', { name: 'Credit notes' });
    await section.getByRole('link', { name: note!.number }).waitFor();
    await section
      .getByText(`${await inPage(page, 72)} of ${await inPage(page, 120)} is left to credit.`)
      .waitFor();
    await expectAccessible(page, 'invoice with a credit note');
    await screenshot(page, 'receivables-invoice-credited');

    // Its PDF from the row.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      section.getByRole('button', { name: `${note!.number} PDF` }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${note!.number}.pdf`);
    expect((await readFile(await download.path())).subarray(0, 5).toString('latin1')).toBe('%PDF-');

    // The customer's screen shows the credit balance.
    const customerPage = await open(owner, `/customers/${customer.id}`);
    await customerPage.page.getByRole('heading', { name: 'Grace Hopper' }).waitFor();
    await expect
      .poll(() => customerPage.page.locator('[data-credit-balance]').textContent())
      .toBe(await inPage(customerPage.page, 18));
    expectClean(customerPage);
    await customerPage.close();

    // Voided from the invoice's row: the invoice owes its 30 again and the credit leaves the balance.
    await section.getByRole('button', { name: `Void ${note!.number}` }).click();
    await page
      .getByRole('dialog', { name: `Void credit note ${note!.number}?` })
      .getByRole('button', { name: 'Void credit note' })
      .click();
    await page.getByText(`${note!.number} is void.`).waitFor();
    expect(await getInvoice(owner.client, invoice.id)).toMatchObject({ amount_credited: 0, amount_due: 120 });
    const after = (await unwrap(owner.client.general.customers.getCustomer({ params: { id: customer.id } })))
      .data;
    expect(after.credit_balance).toEqual({});
    // The notice comes with the answer; the section lists the note again once the invoice is read back.
    await expect.poll(() => section.getByRole('button', { name: `Void ${note!.number}` }).count()).toBe(0);
    expectClean(app, [422]);
    await app.close();
  });

  it('credits lines with a discount and a refund, and refuses a credit above the amount due beside its field', async () => {
    const owner = await registerBusiness(server(), 'Refunds Ltd');
    const customer = await createCustomer(owner.client);
    const invoice = await issuedInvoice(owner.client, { customer_id: customer.id });
    await unwrap(
      owner.client.general.invoices.createPayment({
        params: { id: invoice.id },
        body: { amount: 60, payment_method: 'cash' },
      }),
    );
    const app = await open(owner, `/invoices/${invoice.id}`);
    const { page } = app;
    await page.getByRole('heading', { name: `Invoice ${invoice.number}` }).waitFor();
    await page.getByRole('button', { name: 'Credit note', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Credit note for ${invoice.number}` });
    await dialog.getByLabel('Reason').fill('Late delivery');
    await dialog.getByLabel('Lines').check();
    await dialog.getByLabel('Description, line 1').fill('Consulting (hours)');
    await dialog.getByLabel('Unit price in USD, line 1').fill('100');
    await dialog.getByLabel('Discount percent, line 1').fill('50');
    expect(await dialog.locator('.totals-panel [data-total]').textContent()).toBe(await inPage(page, 50));
    // 40 are still due: 50 off the amount due is refused by the service beside the field.
    const off = dialog.getByLabel('Off the amount due (USD)');
    await off.fill('50');
    await dialog.getByRole('button', { name: 'Issue credit note' }).click();
    expect(await errorBeside(off)).toBeTruthy();

    await off.fill('20');
    await dialog.getByLabel('Refunded (USD)').fill('30');
    await dialog.getByLabel('Refunded by').selectOption('cash');
    await expectAccessible(page, 'credit note dialog with lines');
    await dialog.getByRole('button', { name: 'Issue credit note' }).click();
    await page.getByText(/^Credit note CN-\d{6} issued for /).waitFor();
    const [note] = (
      await unwrap(owner.client.general.creditNotes.listCreditNotes({ query: { invoice_id: invoice.id } }))
    ).data;
    expect(note).toMatchObject({ total: 50, credit_amount: 20, refund_amount: 30, refund_method: 'cash' });
    expect(note!.items.map((i) => [i.discount_percent, i.total])).toEqual([[50, 50]]);
    // A refunded credit note cannot be voided: no Void offered.
    expect(await page.getByRole('button', { name: `Void ${note!.number}` }).count()).toBe(0);
    expectClean(app, [422]);
    await app.close();
  });

  it('lists credit notes by status with their detail: where the money went, PDF, send and void', async () => {
    const owner = await registerBusiness(server(), 'Notes Ltd');
    const customer = await createCustomer(owner.client, { email: 'ada@example.test' });
    const invoice = await issuedInvoice(owner.client, { customer_id: customer.id });
    const refunded = await createCreditNote(owner.client, {
      invoice_id: invoice.id,
      amount: 10,
      credit_amount: 0,
      refund_amount: 10,
      refund_method: 'bank_transfer',
    });
    const plain = await createCreditNote(owner.client, { invoice_id: invoice.id, amount: 5 });

    const app = await open(owner, '/credit-notes');
    const { page } = app;
    await page.getByRole('heading', { name: 'Credit notes', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Credit notes' }).first().waitFor();
    await expect.poll(() => firstCells(page)).toEqual([plain.number, refunded.number]);
    await expectAccessible(page, 'credit notes list');
    await screenshot(page, 'receivables-credit-notes');

    await page.getByRole('link', { name: refunded.number }).click();
    await page.getByRole('heading', { name: `Credit note ${refunded.number}` }).waitFor();
    expect(await page.locator('[data-refund]').textContent()).toBe(
      `${await inPage(page, 10)} by bank transfer`,
    );
    // Refunded: no void offered.
    expect(await page.getByRole('button', { name: 'Void' }).count()).toBe(0);
    // The customer's page, without a view mark: a credit note records none.
    const delivery = page.getByRole('region', { name: 'Customer copy' });
    expect(await delivery.locator('[data-sent]').textContent()).toBe('Not sent yet');
    expect(await delivery.locator('[data-viewed]').count()).toBe(0);
    expect(await delivery.getByRole('link').getAttribute('href')).toBe(refunded.hosted_url);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const send = page.getByRole('dialog', { name: `Send credit note ${refunded.number}` });
    await expect.poll(() => send.getByLabel('To', { exact: true }).inputValue()).toBe('ada@example.test');
    await expectAccessible(page, 'credit note send dialog');
    await send.getByRole('button', { name: 'Send credit note' }).click();
    await page.getByText(`${refunded.number} was sent to ada@example.test.`).waitFor();
    expect(
      (await unwrap(owner.client.general.creditNotes.getCreditNote({ params: { id: refunded.id } }))).data
        .sent_at,
    ).not.toBeNull();
    await expectAccessible(page, 'credit note detail');
    await screenshot(page, 'receivables-credit-note');

    // The other one, voided from its own screen, then found under Void.
    await page.goto(`/app/credit-notes/${plain.id}`);
    await page.getByRole('heading', { name: `Credit note ${plain.number}` }).waitFor();
    await page.getByRole('button', { name: 'Void', exact: true }).click();
    await page
      .getByRole('dialog', { name: `Void credit note ${plain.number}?` })
      .getByRole('button', { name: 'Void credit note' })
      .click();
    await page.getByText(`${plain.number} is void:`).waitFor();
    expect(await page.locator('.status-line .badge').textContent()).toBe('void');
    await page.goto('/app/credit-notes?status=void');
    await expect.poll(() => firstCells(page)).toEqual([plain.number]);
    expectClean(app);
    await app.close();
  });

  it('fits a 360 px wide phone: the credit note dialog, the credited invoice and the credit note', async () => {
    const owner = await registerBusiness(server(), 'Narrow Ltd');
    const customer = await createCustomer(owner.client);
    const invoice = await issuedInvoice(owner.client, { customer_id: customer.id });
    const note = await createCreditNote(owner.client, { invoice_id: invoice.id, amount: 25 });
    const app = await open(owner, `/invoices/${invoice.id}`, NARROW);
    const { page } = app;
    await page.getByRole('heading', { name: `Invoice ${invoice.number}` }).waitFor();
    await page.getByRole('link', { name: note.number }).waitFor();
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, 'receivables-invoice-credited-360');
    await page.getByRole('button', { name: 'Credit note', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Credit note for ${invoice.number}` });
    await dialog.getByLabel('Lines').check();
    expect(await fitsWidth(page)).toBe(true);
    await expectAccessible(page, 'credit note dialog on a phone');
    await screenshot(page, 'receivables-credit-note-dialog-360');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await page.goto(`/app/credit-notes/${note.id}`);
    await page.getByRole('heading', { name: `Credit note ${note.number}` }).waitFor();
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, 'receivables-credit-note-360');
    expectClean(app);
    await app.close();
  });
});

describe("a customer's statement", () => {
  it('shows the credit balance and a statement with a running balance, its PDF, and a refused range beside the filter', async () => {
    const owner = await registerBusiness(server(), 'Statements Ltd');
    const customer = await createCustomer(owner.client, { name: 'Alan Turing' });
    const invoice = await issuedInvoice(owner.client, { customer_id: customer.id });
    await unwrap(
      owner.client.general.invoices.createPayment({
        params: { id: invoice.id },
        body: { amount: 30, payment_method: 'cash' },
      }),
    );
    const note = await createCreditNote(owner.client, {
      invoice_id: invoice.id,
      amount: 25,
      credit_amount: 10,
      customer_credit_amount: 15,
    });
    const app = await open(owner, `/customers/${customer.id}`);
    const { page } = app;
    await page.getByRole('heading', { name: 'Alan Turing' }).waitFor();
    await expect.poll(() => page.locator('[data-credit-balance]').textContent()).toBe(await inPage(page, 15));
    await page.getByRole('link', { name: 'Statement', exact: true }).click();
    await page.getByRole('heading', { name: 'Statement of Alan Turing' }).waitFor();
    // 100 invoiced, 30 paid, 25 credited: 45 owed at the close.
    expect(await page.locator('[data-opening]').textContent()).toBe(await inPage(page, 0));
    expect(await page.locator('[data-closing]').textContent()).toBe(await inPage(page, 45));
    const rows = page.locator('main table tbody tr');
    await expect.poll(() => rows.count()).toBe(3);
    expect(await rows.nth(0).textContent()).toContain(invoice.number);
    expect(await rows.nth(2).textContent()).toContain(note.number);
    expect(await rows.nth(2).locator('td').last().textContent()).toBe(await inPage(page, 45));
    await expectAccessible(page, 'customer statement');
    await screenshot(page, 'receivables-statement');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download PDF' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^statement-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.pdf$/);
    expect((await readFile(await download.path())).subarray(0, 5).toString('latin1')).toBe('%PDF-');

    // An end before the start: the service's refusal, with the filter still there to put it right.
    const filter = page.getByRole('search', { name: 'Statement days and currency' });
    await filter.getByLabel('From').fill('2026-11-20');
    await filter.getByLabel('To').fill('2026-11-10');
    await filter.getByRole('button', { name: 'Apply' }).click();
    await page.locator('.error, [role="alert"]').first().waitFor();
    expect(new URL(page.url()).searchParams.get('end_date')).toBe('2026-11-10');
    await filter.getByLabel('To').waitFor();
    expectClean(app, [422]);
    await app.close();

    const narrow = await open(owner, `/customers/${customer.id}/statement`, NARROW);
    await narrow.page.getByRole('heading', { name: 'Statement of Alan Turing' }).waitFor();
    await narrow.page.locator('[data-closing]').waitFor();
    expect(await fitsWidth(narrow.page)).toBe(true);
    await screenshot(narrow.page, 'receivables-statement-360');
    expectClean(narrow);
    await narrow.close();
  });
});
