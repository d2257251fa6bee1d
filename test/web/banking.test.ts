import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { unwrap, type Client, type finance } from '../../client/index.js';
import {
  expectAccessible,
  expectClean,
  inPage,
  openApp,
  PHONE,
  screenshot,
  useBrowser,
  type AppPage,
} from '../support/browser.js';
import { registerBusiness } from '../support/business.js';
import { createCustomer, getInvoice, invoiceLine, issuedInvoice } from '../support/general.js';
import { useTestServer } from '../support/setup.js';

/**
 * Bank accounts and reconciliation in a real browser: a CSV statement imported through its column
 * preview and a dry run, its lines reconciled from the keyboard (the invoice it paid matched with
 * Enter, a line categorised, one made into a rule and accepted, a double excluded), a line split
 * across two invoices with the refusal of parts that do not add up, the reconciliation report, and
 * the bank rules list; axe on every screen.
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

/** A screenshot to look at (/tmp) and to keep with the test's artefacts. */
async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `/tmp/banking-${name}.png`, fullPage: true });
  await screenshot(page, `banking-${name}`);
}

const today = () => new Date().toISOString().slice(0, 10);
const addDays = (day: string, days: number) => {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1, d! + days)).toISOString().slice(0, 10);
};
/** `2026-11-03` as a British bank's CSV writes it: `03/11/2026`. */
const british = (day: string) => day.split('-').reverse().join('/');

async function bankAccount(client: Client, name = 'Business current account'): Promise<finance.BankAccount> {
  const body = {
    name,
    currency: 'USD',
    account_number_last4: '4821',
    opening_balance: 100000,
    opening_date: addDays(today(), -30),
  };
  return (await unwrap(client.finance.bankAccounts.createBankAccount({ body }))).bank_account;
}

/** A CSV statement imported through the API, its columns named by `mapping`. */
async function importCsv(client: Client, id: string, csv: string, mapping: Record<string, string>) {
  const file = new File([csv], 'statement.csv', { type: 'text/csv' });
  const query = { mapping: JSON.stringify(mapping) };
  return (
    await unwrap(client.finance.bankAccounts.importStatement({ params: { id }, query, body: { file } }))
  ).report;
}

const linesOf = async (client: Client, bank_account_id: string, status: finance.BankTransactionStatus) =>
  (
    await unwrap(
      client.finance.bankTransactions.listBankTransactions({ query: { bank_account_id, status, limit: 50 } }),
    )
  ).bank_transactions;

/** The chosen line of the reconcile screen's list. */
const chosenLine = (page: Page) =>
  page.getByRole('listbox', { name: 'Statement lines' }).locator('[aria-selected="true"]');

/** Presses `key` until the chosen line holds `text` (at most `limit` times). */
async function moveTo(page: Page, text: string, key = 'j', limit = 10): Promise<void> {
  for (let i = 0; i < limit; i++) {
    if ((await chosenLine(page).textContent())?.includes(text)) return;
    await page.keyboard.press(key);
  }
  expect(await chosenLine(page).textContent()).toContain(text);
}

describe('reconciling a bank account', () => {
  it('imports a CSV statement through its column preview and a dry run', async () => {
    const owner = await registerBusiness(server(), 'Imported Ltd');
    const account = await bankAccount(owner.client);
    const [d1, d2] = [addDays(today(), -3), addDays(today(), -2)];
    const csv = [
      'Date,Details,Paid out,Paid in,Ref',
      `${british(d1)},ACME LTD INV-000001,,120.00,FP-001`,
      `${british(d2)},MONTHLY ACCOUNT FEE,12.50,,FEE-11`,
      `${british(d2)},OFFICE COFFEE CO 4471,45.00,,CARD-88`,
      `${british(d1)},ACME LTD INV-000001,,120.00,FP-001`,
      `31/13/2026,BROKEN ROW,,5.00,`,
      '',
    ].join('\n');

    // The list: the account, and the way to it.
    const app = await open(owner, '/finance/bank-accounts');
    const { page } = app;
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Bank accounts' })
      .waitFor();
    const row = page.getByRole('row').filter({ hasText: 'Business current account' });
    await row.waitFor();
    expect(await row.getByRole('cell').allTextContents()).toEqual([
      'Business current account',
      '•••• 4821',
      account.account_code,
      'USD',
      await inPage(page, 1000),
      expect.any(String),
      'ImportReport',
    ]);
    await expectAccessible(page, 'bank accounts');
    await shot(page, 'accounts');
    await row.getByRole('link', { name: 'Reconcile Business current account' }).click();
    await page.getByRole('heading', { name: 'Business current account' }).waitFor();
    await page.getByText('Nothing to reconcile').waitFor();
    await expectAccessible(page, 'reconcile, empty');

    // The import: the file's columns guessed from its header, the date format from its dates.
    await page.getByRole('main').getByRole('link', { name: 'Import a statement' }).first().click();
    await page.getByLabel('Statement file').setInputFiles({
      name: 'november.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv),
    });
    const preview = page.getByRole('table', { name: 'The first rows of the file' });
    await preview.waitFor();
    expect(await preview.getByRole('columnheader').allTextContents()).toEqual([
      'Date',
      'Details',
      'Paid out',
      'Paid in',
      'Ref',
    ]);
    expect(await page.getByLabel('Date', { exact: true }).inputValue()).toBe('Date');
    expect(await page.getByLabel('Description').inputValue()).toBe('Details');
    expect(await page.getByLabel('In two columns', { exact: false }).isChecked()).toBe(true);
    expect(await page.getByLabel('Debit (money out)').inputValue()).toBe('Paid out');
    expect(await page.getByLabel('Credit (money in)').inputValue()).toBe('Paid in');
    expect(await page.getByLabel('Reference').inputValue()).toBe('Ref');
    expect(await page.getByLabel('Date format').inputValue()).toBe('DD/MM/YYYY');
    await expectAccessible(page, 'statement import, columns');
    await shot(page, 'import-columns');

    // The dry run: four lines to import, the broken one refused with its line number.
    await page.getByRole('button', { name: 'Check the file (dry run)' }).click();
    await page.getByText('5 lines read: 4 to import, 0 already imported, 1 refused.').waitFor();
    const refused = page.getByRole('table', { name: 'Refused lines' });
    expect(await refused.getByRole('cell').allTextContents()).toEqual([
      '6',
      expect.stringContaining('31/13/2026'),
    ]);
    expect(await linesOf(owner.client, account.id, 'unmatched')).toEqual([]);
    const importButton = page.getByRole('button', { name: 'Import 4 lines' });
    expect(await importButton.isDisabled()).toBe(true);
    await page.getByLabel('Import the readable lines and leave the refused ones out').check();
    await expectAccessible(page, 'statement import, checked');
    await shot(page, 'import-checked');
    await importButton.click();
    await page.getByText('Imported 4 lines into Business current account', { exact: false }).waitFor();
    expect(await linesOf(owner.client, account.id, 'unmatched')).toHaveLength(4);
    await expectAccessible(page, 'statement import, imported');
    await page.getByRole('link', { name: 'Reconcile them' }).click();
    const options = page.getByRole('listbox', { name: 'Statement lines' }).getByRole('option');
    await expect.poll(() => options.count()).toBe(4);
    expectClean(app);
    await app.close();
  });

  it('reconciles the lines from the keyboard, and the report explains what is left', async () => {
    const owner = await registerBusiness(server(), 'Reconciled Ltd');
    const account = await bankAccount(owner.client);
    const customer = await createCustomer(owner.client, { name: 'Acme Ltd' });
    const invoice = await issuedInvoice(owner.client, {
      customer_id: customer.id,
      items: [invoiceLine({ description: 'Consulting', unit_price: 120 })],
    });
    expect(invoice.total).toBe(120);
    const [d1, d2] = [addDays(today(), -3), addDays(today(), -2)];
    const csv = [
      'Date,Details,Amount,Ref',
      `${d1},ACME LTD ${invoice.number},120.00,FP-001`,
      `${d2},MONTHLY ACCOUNT FEE,-12.50,FEE-11`,
      `${d2},OFFICE COFFEE CO 4471,-45.00,CARD-88`,
      `${d1},ACME LTD ${invoice.number},120.00,FP-001`,
      '',
    ].join('\n');
    const report = await importCsv(owner.client, account.id, csv, {
      date: 'Date',
      description: 'Details',
      amount: 'Amount',
      reference: 'Ref',
    });
    expect(report.counts.imported).toBe(4);
    const app = await open(owner, `/finance/bank-accounts/${account.id}`);
    const { page } = app;

    // The invoice's line: chosen by the keys, its invoice suggested first, matched with Enter.
    const list = page.getByRole('listbox', { name: 'Statement lines' });
    await list.getByRole('option').first().waitFor();
    expect(await list.getByRole('option').count()).toBe(4);
    await page.getByText('Enter accepts the top suggestion', { exact: false }).waitFor();
    await list.focus();
    await moveTo(page, 'MONTHLY ACCOUNT FEE');
    await moveTo(page, `ACME LTD ${invoice.number}`, 'ArrowUp');
    const panel = page.locator('.line-panel');
    const top = panel.locator('.suggestion').first();
    const matchButton = top.getByRole('button', { name: `Match to ${invoice.number} · Acme Ltd` });
    await matchButton.waitFor();
    await top.getByText('Same amount, and the line names the invoice').waitFor();
    expect(await matchButton.getAttribute('aria-keyshortcuts')).toBe('Enter');
    await expectAccessible(page, 'reconcile');
    await shot(page, 'reconcile');
    await page.keyboard.press('Enter');
    await page.getByText(`Matched “ACME LTD ${invoice.number}”`, { exact: false }).waitFor();
    await expect.poll(() => list.getByRole('option').count()).toBe(3);
    expect((await getInvoice(owner.client, invoice.id)).status).toBe('paid');
    const matched = await linesOf(owner.client, account.id, 'matched');
    expect(matched.map((l) => [l.amount, l.matches.map((m) => m.invoice_id)])).toEqual([
      [12000, [invoice.id]],
    ]);

    // The coffee: categorised with c, to an expense account.
    await moveTo(page, 'OFFICE COFFEE CO');
    await page.keyboard.press('c');
    const categorise = page.getByRole('dialog', { name: 'Categorise this line' });
    await categorise.getByLabel('Account').selectOption('5000');
    await expectAccessible(page, 'reconcile, categorise');
    await shot(page, 'categorise');
    await categorise.getByRole('button', { name: 'Categorise' }).click();
    await page.getByText('Categorised “OFFICE COFFEE CO 4471” to 5000 Expenses.').waitFor();
    await expect.poll(() => list.getByRole('option').count()).toBe(2);

    // The bank fee: a rule made from the line, then its suggestion accepted with the others.
    await list.getByRole('option', { name: /MONTHLY ACCOUNT FEE/ }).click();
    await panel.getByRole('button', { name: 'Make a rule from this line…' }).click();
    const ruleDialog = page.getByRole('dialog', { name: 'Make a rule from this line' });
    expect(await ruleDialog.getByLabel('Description contains').inputValue()).toBe('MONTHLY ACCOUNT FEE');
    expect(await ruleDialog.getByLabel('Direction').inputValue()).toBe('out');
    await ruleDialog.getByLabel('Suggest the account').selectOption('5000');
    await expectAccessible(page, 'reconcile, rule');
    await ruleDialog.getByRole('button', { name: 'Add rule' }).click();
    await page.getByText('Rule “MONTHLY ACCOUNT FEE” added', { exact: false }).waitFor();
    await list
      .getByRole('option', { name: /MONTHLY ACCOUNT FEE/ })
      .getByText('Rule suggests')
      .waitFor();
    await page.getByRole('button', { name: 'Accept all rule suggestions' }).click();
    await page.getByText('Accepted 1 rule suggestion: those lines are categorised.').waitFor();
    await expect.poll(() => list.getByRole('option').count()).toBe(1);

    // The double the bank printed: excluded with e.
    await list.focus();
    expect(await chosenLine(page).textContent()).toContain(`ACME LTD ${invoice.number}`);
    await page.keyboard.press('e');
    await page.getByText(`Excluded “ACME LTD ${invoice.number}”`, { exact: false }).waitFor();
    await page.getByText('Nothing to reconcile').waitFor();
    expect(await linesOf(owner.client, account.id, 'excluded')).toHaveLength(1);
    expect(await linesOf(owner.client, account.id, 'matched')).toHaveLength(3);

    // The tabs: what was matched, each with what it was matched to.
    await page
      .getByRole('navigation', { name: 'Statement lines by status' })
      .getByRole('link', { name: 'Matched' })
      .click();
    await expect.poll(() => list.getByRole('option').count()).toBe(3);
    await list.getByRole('option', { name: /OFFICE COFFEE/ }).click();
    await panel.getByText('Categorised: 5000 Expenses').waitFor();
    await expectAccessible(page, 'reconcile, matched');
    await shot(page, 'matched');
    // On a phone the line comes below the list, and nothing scrolls sideways.
    await page.setViewportSize(PHONE);
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    await shot(page, 'matched-phone');
    await page.setViewportSize({ width: 1280, height: 860 });

    // The report: the excluded double is all that stands between the statement and the ledger.
    await page.getByRole('main').getByRole('link', { name: 'Reconciliation report' }).click();
    await page.getByRole('heading', { name: 'What makes the difference' }).waitFor();
    const figure = (name: string) => page.locator(`[data-figure="${name}"]`).textContent();
    // Opening 1,000.00 + 120.00 - 12.50 - 45.00 + 120.00 on the statement; the ledger without the double.
    expect(await figure('statement')).toBe(await inPage(page, 1182.5));
    expect(await figure('ledger')).toBe(await inPage(page, 1062.5));
    expect(await figure('difference')).toBe(await inPage(page, 120));
    const items = page.getByRole('table', { name: 'Items explaining the difference' });
    expect(await items.getByRole('row').nth(1).getByRole('cell').allTextContents()).toEqual([
      'On the statement, excluded',
      expect.any(String),
      `ACME LTD ${invoice.number}`,
      await inPage(page, 120),
      await inPage(page, 120),
    ]);
    await expectAccessible(page, 'reconciliation report');
    await shot(page, 'report');
    expectClean(app);
    await app.close();
  });

  it('splits a line across two invoices, refusing parts that do not add up to it', async () => {
    const owner = await registerBusiness(server(), 'Split Ltd');
    const account = await bankAccount(owner.client);
    const customer = await createCustomer(owner.client, { name: 'Globex' });
    const first = await issuedInvoice(owner.client, {
      customer_id: customer.id,
      items: [invoiceLine({ unit_price: 70 })],
    });
    const second = await issuedInvoice(owner.client, {
      customer_id: customer.id,
      items: [invoiceLine({ unit_price: 50 })],
    });
    const csv = `Date,Description,Amount\n${addDays(today(), -1)},GLOBEX PAYMENT,120.00\n`;
    await importCsv(owner.client, account.id, csv, {
      date: 'Date',
      description: 'Description',
      amount: 'Amount',
    });
    const app = await open(owner, `/finance/bank-accounts/${account.id}`);
    const { page } = app;
    const panel = page.locator('.line-panel');
    await panel.getByRole('heading', { name: 'GLOBEX PAYMENT' }).waitFor();
    await panel.getByRole('button', { name: 'Match to several…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Match to several documents' });
    await dialog.getByLabel('Document, part 1').selectOption(`invoice:${first.id}`);
    expect(await dialog.getByLabel('Amount in USD, part 1').inputValue()).toBe('70.00');
    await dialog.getByLabel('Document, part 2').selectOption(`invoice:${second.id}`);
    expect(await dialog.getByLabel('Amount in USD, part 2').inputValue()).toBe('50.00');
    expect(await dialog.locator('[data-remaining]').textContent()).toBe(await inPage(page, 0));
    // 40.00 of the second: 10.00 left to place, and the service refuses the parts.
    await dialog.getByLabel('Amount in USD, part 2').fill('40');
    expect(await dialog.locator('[data-remaining]').textContent()).toBe(await inPage(page, 10));
    await dialog.getByRole('button', { name: 'Match', exact: true }).click();
    await dialog
      .getByText(
        `The parts add up to ${await inPage(page, 110)}; the line is ${await inPage(page, 120)}: they must be equal.`,
      )
      .waitFor();
    await expectAccessible(page, 'reconcile, split refused');
    await shot(page, 'split-refused');
    expect(await linesOf(owner.client, account.id, 'matched')).toEqual([]);
    await dialog.getByLabel('Amount in USD, part 2').fill('50');
    await dialog.getByRole('button', { name: 'Match', exact: true }).click();
    await page.getByText('Matched “GLOBEX PAYMENT” to 2 documents.').waitFor();
    await page.getByText('Nothing to reconcile').waitFor();
    expect((await getInvoice(owner.client, first.id)).status).toBe('paid');
    expect((await getInvoice(owner.client, second.id)).status).toBe('paid');
    expectClean(app, [422]);
    await app.close();
  });
});

describe('bank rules', () => {
  it('adds, changes and deletes a rule in its dialog', async () => {
    const owner = await registerBusiness(server(), 'Rules Ltd');
    const app = await open(owner, '/finance/bank-rules');
    const { page } = app;
    await page.getByText('No bank rules yet').waitFor();
    await page.getByRole('button', { name: 'New rule' }).click();
    const dialog = page.getByRole('dialog', { name: 'New bank rule' });
    await dialog.getByLabel('Description contains').fill('card fee');
    await dialog.getByLabel('Direction').selectOption('out');
    await dialog.getByLabel('Largest amount in USD').fill('25');
    await dialog.getByLabel('Suggest the account').selectOption('5000');
    await dialog.getByRole('button', { name: 'Add rule' }).click();
    await page.getByText('“card fee” was added.').waitFor();
    const row = page.getByRole('row').filter({ hasText: 'card fee' });
    // The message comes with the answer; the list shows the rule once it has been read again.
    await row.waitFor();
    expect((await row.getByRole('cell').allTextContents()).slice(0, 4)).toEqual([
      'card fee',
      'Money out',
      `Up to ${await inPage(page, 25)}`,
      '5000 Expenses',
    ]);
    await expectAccessible(page, 'bank rules');
    await shot(page, 'rules');
    await row.getByRole('button', { name: 'Edit “card fee”' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit “card fee”' });
    expect(await edit.getByLabel('Largest amount in USD').inputValue()).toBe('25.00');
    await edit.getByLabel('Largest amount in USD').fill('');
    await edit.getByRole('button', { name: 'Save rule' }).click();
    await page.getByText('“card fee” was saved.').waitFor();
    const rules = (await unwrap(owner.client.finance.bankRules.listBankRules({ query: {} }))).bank_rules;
    expect(rules.map((r) => [r.description_contains, r.direction, r.max_amount, r.account_code])).toEqual([
      ['card fee', 'out', null, '5000'],
    ]);
    await row.getByRole('button', { name: 'Delete' }).click();
    await page
      .getByRole('dialog', { name: 'Delete “card fee”?' })
      .getByRole('button', { name: 'Delete rule' })
      .click();
    await page.getByText('No bank rules yet').waitFor();
    expectClean(app);
    await app.close();
  });
});
