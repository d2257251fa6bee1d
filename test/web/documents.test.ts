import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { unwrap, type general } from '../../client/index.js';
import {
  errorBeside,
  expectAccessible,
  expectClean,
  openApp,
  screenshot,
  useBrowser,
  type AppPage,
} from '../support/browser.js';
import { registerBusiness, signedInMember, uniqueEmail, type TestBusiness } from '../support/business.js';
import { withEvents } from '../support/events.js';
import { createCustomer, createQuote, getInvoice, issuedInvoice, voidInvoice } from '../support/general.js';
import { useTestServer } from '../support/setup.js';
import { useSmtpSink } from '../support/smtp.js';

/**
 * Documents customers receive, in a real browser: an invoice sent from the dashboard reaches the
 * customer over SMTP with its PDF and the link to its hosted page; the hosted pages of an invoice and
 * a quote open without signing in, record the first view, and let the customer accept or decline a
 * quote; the business settings keep the payment instructions and the overdue-reminder steps.
 */

const { env, sink } = useSmtpSink();
const server = useTestServer({ env });
const browser = useBrowser();

/** The dashboard at `path`, signed in; a step that waits longer than 10 s fails naming what it waited for. */
async function open(business: { accessToken: string }, path: string): Promise<AppPage> {
  const app = await openApp(browser(), server().baseUrl, `/app${path}`, {
    accessToken: business.accessToken,
  });
  app.page.setDefaultTimeout(10_000);
  return app;
}

/**
 * A hosted page in a fresh browser context with no session at all, as the customer opens the link
 * in the mail: the page's log is recorded from the start, and its answer's status is returned.
 */
async function openHosted(path: string): Promise<{ app: AppPage; status: number }> {
  const app = await openApp(browser(), server().baseUrl, 'about:blank');
  app.page.setDefaultTimeout(10_000);
  const response = await app.page.goto(path);
  return { app, status: response?.status() ?? 0 };
}

/** The hosted page's path in a document's `hosted_url` (its host is the service's public address). */
const pathOf = (url: string | null): string => {
  expect(url, 'the document has a hosted page').toMatch(/^https?:\/\/[^/]+\/[iq]\/[\w-]+\.[\w-]+$/);
  return new URL(url!).pathname;
};

/** The same token with one character of its signature changed. */
const tampered = (path: string): string => {
  const last = path.at(-1)!;
  return `${path.slice(0, -1)}${last === 'A' ? 'B' : 'A'}`;
};

const getQuote = async (business: TestBusiness, id: string): Promise<general.Quote> =>
  (await unwrap(business.client.general.quotes.getQuote({ params: { id } }))).data;

/** Two lines, one taxed: 3 x 24.50 + 20% and 1 x 1,100.10, so 1,188.30 in all. */
const LINES = [
  { description: 'Espresso beans 1kg', quantity: 3, unit_price: 24.5, tax_rate: 20 },
  { description: 'Grinder setup', quantity: 1, unit_price: 1100.1 },
];

const bytesOf = async (body: Response) => Buffer.from(await body.arrayBuffer());

describe('sending an invoice from the dashboard', () => {
  it('mails the customer with the cc, the message, the PDF attached and the hosted link, then shows it sent', async () => {
    const owner = await registerBusiness(server(), 'Sent Goods Ltd');
    const email = uniqueEmail('ada');
    const customer = await createCustomer(owner.client, { name: 'Ada Lovelace', email });
    const invoice = await issuedInvoice(owner.client, { customer_id: customer.id, items: LINES });
    expect(invoice.sent_at).toBeNull();
    const app = await open(owner, `/invoices/${invoice.id}`);
    const { page } = app;
    await page.getByRole('heading', { name: `Invoice ${invoice.number}` }).waitFor();
    const delivery = page.getByRole('region', { name: 'Customer copy' });
    expect(await delivery.locator('[data-sent]').textContent()).toBe('Not sent yet');
    expect(await delivery.getByRole('link').getAttribute('href')).toBe(invoice.hosted_url);

    // The PDF, fetched through the SDK and saved from an object URL.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download PDF' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${invoice.number}.pdf`);
    const saved = await readFile(await download.path());
    expect(saved.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Send invoice ${invoice.number}` });
    // The customer's address, once the customer has loaded.
    await expect.poll(() => dialog.getByLabel('To', { exact: true }).inputValue()).toBe(email);
    const copies = dialog.getByLabel('Cc', { exact: true });
    await copies.fill('accounts@example.test, boss@example.test');
    await dialog.getByLabel('Message').fill('Thank you for your order.\nPayment within 30 days, please.');
    await expectAccessible(page, 'documents send dialog');
    await screenshot(page, 'documents-send-dialog');

    // A malformed copy is refused beside its field, naming it, before anything is sent.
    await copies.fill('accounts@example.test, not-an-address');
    await dialog.getByRole('button', { name: 'Send invoice' }).click();
    expect(await errorBeside(copies)).toMatch(/^not-an-address: /);
    expect((await getInvoice(owner.client, invoice.id)).sent_at).toBeNull();

    await copies.fill('accounts@example.test, boss@example.test');
    await dialog.getByRole('button', { name: 'Send invoice' }).click();
    await page.getByText(`${invoice.number} was sent to ${email}.`).waitFor();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => delivery.locator('[data-sent]').textContent()).toMatch(/^Sent \S/);
    await page.getByRole('button', { name: 'Send again' }).waitFor();

    const sent = await getInvoice(owner.client, invoice.id);
    expect(sent.sent_at).not.toBeNull();
    expect(sent.viewed_at).toBeNull();
    await expect.poll(() => sink().to(email).length, { timeout: 20_000 }).toBe(1);
    const { mail } = sink().to(email)[0]!;
    expect(mail.subject).toBe(`Invoice ${invoice.number} from Sent Goods Ltd`);
    const cc = Array.isArray(mail.cc) ? mail.cc : mail.cc ? [mail.cc] : [];
    expect(cc.flatMap((a) => a.value.map((v) => v.address))).toEqual([
      'accounts@example.test',
      'boss@example.test',
    ]);
    expect(sink().to('accounts@example.test')).toHaveLength(1);
    expect(mail.text).toContain('Thank you for your order.');
    expect(mail.text).toContain(sent.hosted_url!);
    expect(mail.attachments).toHaveLength(1);
    const [pdf] = mail.attachments;
    expect(pdf!.contentType).toBe('application/pdf');
    expect(pdf!.filename).toMatch(/^INV-\d+\.pdf$/);
    expect(pdf!.filename).toBe(`${invoice.number}.pdf`);
    expect(pdf!.content.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    await expectAccessible(page, 'documents invoice sent');
    await screenshot(page, 'documents-invoice-sent');
    expectClean(app);
    await app.close();
  });

  it('shows the refusal of a customer without an email beside To, and sends once an address is given', async () => {
    const owner = await registerBusiness(server(), 'No Address Ltd');
    const customer = await createCustomer(owner.client, { name: 'Charles Babbage' });
    const invoice = await issuedInvoice(owner.client, { customer_id: customer.id });
    const app = await open(owner, `/invoices/${invoice.id}`);
    const { page } = app;
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Send invoice ${invoice.number}` });
    await dialog.getByText('The customer has no email address: give one.').waitFor();
    expect(await dialog.getByLabel('To', { exact: true }).inputValue()).toBe('');
    await dialog.getByRole('button', { name: 'Send invoice' }).click();
    // The service's 422 names `to`: shown beside it.
    expect(await errorBeside(dialog.getByLabel('To', { exact: true }))).toMatch(/no email address/i);
    expect((await getInvoice(owner.client, invoice.id)).sent_at).toBeNull();

    const to = uniqueEmail('babbage');
    await dialog.getByLabel('To', { exact: true }).fill(to);
    await dialog.getByRole('button', { name: 'Send invoice' }).click();
    await page.getByText(`${invoice.number} was sent to ${to}.`).waitFor();
    expect((await getInvoice(owner.client, invoice.id)).sent_at).not.toBeNull();
    await expect.poll(() => sink().to(to).length, { timeout: 20_000 }).toBe(1);
    expectClean(app, [422]);
    await app.close();
  });

  it('offers the PDF but not Send to a viewer, and no Send on a void invoice', async () => {
    const owner = await registerBusiness(server(), 'Roles Ltd');
    const customer = await createCustomer(owner.client, { email: uniqueEmail('ada') });
    const invoice = await issuedInvoice(owner.client, { customer_id: customer.id });
    const viewer = await signedInMember(server(), owner, 'viewer');
    const asViewer = await open(viewer, `/invoices/${invoice.id}`);
    await asViewer.page.getByRole('button', { name: 'Download PDF' }).waitFor();
    expect(await asViewer.page.getByRole('button', { name: /^Send/ }).count()).toBe(0);
    expectClean(asViewer);
    await asViewer.close();

    const asOwner = await open(owner, `/invoices/${invoice.id}`);
    await asOwner.page.getByRole('button', { name: 'Send', exact: true }).waitFor();
    await voidInvoice(owner.client, invoice.id);
    await asOwner.page.reload();
    await asOwner.page.getByRole('button', { name: 'Download PDF' }).waitFor();
    expect(await asOwner.page.locator('.status-line .badge').textContent()).toBe('void');
    expect(await asOwner.page.getByRole('button', { name: /^Send/ }).count()).toBe(0);
    expectClean(asOwner);
    await asOwner.close();
  });
});

describe('sending a quote from the dashboard', () => {
  it('sends a draft quote through the same dialog, then shows its customer page and the view', async () => {
    const owner = await registerBusiness(server(), 'Quote Desk Ltd');
    const email = uniqueEmail('alan');
    const customer = await createCustomer(owner.client, { name: 'Alan Turing', email });
    const quote = await createQuote(owner.client, customer.id);
    expect(quote.hosted_url).toBeNull();
    const app = await open(owner, `/quotes/${quote.id}`);
    const { page } = app;
    await page.getByRole('heading', { name: `Quote ${quote.number}` }).waitFor();
    // A draft has no customer page yet.
    expect(await page.getByRole('region', { name: 'Customer copy' }).count()).toBe(0);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download PDF' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${quote.number}.pdf`);

    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Send quote ${quote.number}` });
    await expect.poll(() => dialog.getByLabel('To', { exact: true }).inputValue()).toBe(email);
    await dialog.getByLabel('Message').fill('As discussed on the phone.');
    await dialog.getByRole('button', { name: 'Send quote' }).click();
    await page.getByText(`${quote.number} was sent to ${email}.`).waitFor();
    expect(await page.locator('.status-line .badge').textContent()).toBe('sent');
    const sent = await getQuote(owner, quote.id);
    expect(sent.status).toBe('sent');
    const delivery = page.getByRole('region', { name: 'Customer copy' });
    expect(await delivery.getByRole('link').getAttribute('href')).toBe(sent.hosted_url);
    expect(await delivery.locator('[data-viewed]').textContent()).toBe('Not viewed yet');
    await expect.poll(() => sink().to(email).length, { timeout: 20_000 }).toBe(1);
    const { mail } = sink().to(email)[0]!;
    expect(mail.text).toContain('As discussed on the phone.');
    expect(mail.text).toContain(sent.hosted_url!);
    expect(mail.attachments.map((a) => [a.filename, a.contentType])).toEqual([
      [`${quote.number}.pdf`, 'application/pdf'],
    ]);

    // The customer opens the page: the dashboard shows when.
    const customerView = await openHosted(pathOf(sent.hosted_url));
    expect(customerView.status).toBe(200);
    await customerView.app.close();
    await page.reload();
    await expect
      .poll(() => page.getByRole('region', { name: 'Customer copy' }).locator('[data-viewed]').textContent())
      .toMatch(/^Viewed \S/);
    await expectAccessible(page, 'documents quote sent');
    await screenshot(page, 'documents-quote-sent');
    expectClean(app);
    await app.close();
  });
});

describe('the hosted invoice page', () => {
  it('shows the invoice without signing in, records the first view and serves its PDF', async () => {
    const owner = await registerBusiness(server(), 'Hosted Goods Ltd');
    await unwrap(
      owner.client.auth.updateBusiness({
        body: {
          payment_instructions: 'Bank transfer to Hosted Goods Ltd\nSort code 12-34-56, account 12345678',
        },
      }),
    );
    const customer = await createCustomer(owner.client, {
      name: 'Grace Hopper',
      email: uniqueEmail('grace'),
    });
    const invoice = await issuedInvoice(owner.client, { customer_id: customer.id, items: LINES });
    expect(invoice.total).toBe(1188.3);
    expect(invoice.viewed_at).toBeNull();
    const path = pathOf(invoice.hosted_url);

    const { app, status } = await openHosted(path);
    const { page } = app;
    expect(status).toBe(200);
    await page.getByRole('heading', { name: 'Hosted Goods Ltd', level: 1 }).waitFor();
    await page.getByRole('heading', { name: `Invoice ${invoice.number}` }).waitFor();
    expect(await page.textContent('body')).toContain('Grace Hopper');
    const beans = await page.getByRole('row', { name: /Espresso beans 1kg/ }).textContent();
    expect(beans).toContain('$24.50');
    const setup = await page.getByRole('row', { name: /Grinder setup/ }).textContent();
    expect(setup).toContain('$1,100.10');
    expect(await page.getByRole('row', { name: /^Total/ }).textContent()).toContain('$1,188.30');
    expect(await page.getByRole('row', { name: /^Amount due/ }).textContent()).toContain('$1,188.30');
    expect(await page.textContent('body')).toContain('Sort code 12-34-56, account 12345678');
    await expectAccessible(page, 'documents hosted invoice');
    await screenshot(page, 'documents-hosted-invoice');
    expectClean(app);

    const viewed = await getInvoice(owner.client, invoice.id);
    expect(viewed.viewed_at).not.toBeNull();
    // The first view stays the one recorded.
    await page.reload();
    expect((await getInvoice(owner.client, invoice.id)).viewed_at).toBe(viewed.viewed_at);

    const pdfHref = await page.getByRole('link', { name: 'Download PDF' }).getAttribute('href');
    expect(pdfHref).toBe(`${path}/pdf`);
    const pdf = await fetch(`${server().baseUrl}${pdfHref}`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toMatch(/^application\/pdf/);
    expect((await bytesOf(pdf)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await app.close();
  });

  it('answers 404 "Document not found" for a token with one character of its signature changed', async () => {
    const owner = await registerBusiness(server(), 'Tamper Ltd');
    const customer = await createCustomer(owner.client);
    const invoice = await issuedInvoice(owner.client, { customer_id: customer.id });
    const forged = tampered(pathOf(invoice.hosted_url));
    expect(forged).not.toBe(pathOf(invoice.hosted_url));

    const { app, status } = await openHosted(forged);
    expect(status).toBe(404);
    await app.page.getByRole('heading', { name: 'Document not found' }).waitFor();
    expect(await app.page.textContent('body')).not.toContain(invoice.number);
    expect((await fetch(`${server().baseUrl}${forged}/pdf`)).status).toBe(404);
    expect((await getInvoice(owner.client, invoice.id)).viewed_at).toBeNull();
    expectClean(app, [404]);
    await app.close();
  });

  it('says a voided invoice has been voided', async () => {
    const owner = await registerBusiness(server(), 'Void Ltd');
    const customer = await createCustomer(owner.client);
    const invoice = await issuedInvoice(owner.client, { customer_id: customer.id });
    const { app, status } = await openHosted(pathOf(invoice.hosted_url));
    expect(status).toBe(200);
    expect(await app.page.getByText('This invoice has been voided.').count()).toBe(0);
    await voidInvoice(owner.client, invoice.id);
    await app.page.reload();
    await app.page.getByText('This invoice has been voided.').waitFor();
    await expectAccessible(app.page, 'documents hosted invoice void');
    expectClean(app);
    await app.close();
  });
});

describe('the hosted quote page', () => {
  /** Clicks a button of the page's form and waits for the answer to its POST. */
  const post = async (page: Page, button: string, action: string) => {
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith(`/${action}`)),
      page.getByRole('button', { name: button }).click(),
    ]);
    await page.waitForLoadState();
    return answer;
  };

  it('lets the customer accept one quote and decline another, firing quote.updated', async () => {
    const owner = await registerBusiness(server(), 'Quoting Ltd');
    const customer = await createCustomer(owner.client, { name: 'Alan Turing', email: uniqueEmail('alan') });
    const quote = await createQuote(owner.client, customer.id, 'sent');
    expect(quote.status).toBe('sent');

    const { app, status } = await openHosted(pathOf(quote.hosted_url));
    const { page } = app;
    expect(status).toBe(200);
    await page.getByRole('heading', { name: `Quote ${quote.number}` }).waitFor();
    expect(await page.getByRole('row', { name: /^Total/ }).textContent()).toContain('$360.00');
    await expectAccessible(page, 'documents hosted quote');
    await screenshot(page, 'documents-hosted-quote');
    expect((await getQuote(owner, quote.id)).viewed_at).not.toBeNull();

    const { events } = await withEvents(server(), owner.businessId, async () => {
      const answer = await post(page, 'Accept quote', 'accept');
      expect(answer.status()).toBe(303);
      await page.getByText('You accepted this quote.').waitFor();
    });
    expect((await getQuote(owner, quote.id)).status).toBe('accepted');
    expect(
      events.map((e) => [e.type, (e.data as general.Quote).id, (e.data as general.Quote).status]),
    ).toEqual([['quote.updated', quote.id, 'accepted']]);
    expect(await page.getByRole('button', { name: 'Accept quote' }).count()).toBe(0);
    await screenshot(page, 'documents-hosted-quote-accepted');
    expectClean(app);
    await app.close();

    const second = await createQuote(owner.client, customer.id, 'sent');
    const declining = await openHosted(pathOf(second.hosted_url));
    const declined = await withEvents(server(), owner.businessId, async () => {
      expect((await post(declining.app.page, 'Decline', 'decline')).status()).toBe(303);
      await declining.app.page.getByText('This quote was declined.').waitFor();
    });
    expect((await getQuote(owner, second.id)).status).toBe('declined');
    expect(declined.events.map((e) => [e.type, (e.data as general.Quote).status])).toEqual([
      ['quote.updated', 'declined'],
    ]);
    expectClean(declining.app);
    await declining.app.close();
  });

  it('refuses to accept a quote whose validity ended while its page was open', async () => {
    const owner = await registerBusiness(server(), 'Expiring Ltd');
    const customer = await createCustomer(owner.client, { email: uniqueEmail('ada') });
    const today = server().clock.now().toISOString().slice(0, 10);
    const quotes = owner.client.general.quotes;
    const created = (
      await unwrap(
        quotes.createQuote({
          body: {
            customer_id: customer.id,
            items: [{ description: 'Audit', quantity: 1, unit_price: 500 }],
            valid_until: today,
          },
        }),
      )
    ).data;
    const quote = (await unwrap(quotes.sendQuote({ params: { id: created.id }, body: {} }))).data;
    const { app } = await openHosted(pathOf(quote.hosted_url));
    const { page } = app;
    await page.getByRole('button', { name: 'Accept quote' }).waitFor();
    try {
      server().clock.advance(3 * 86_400_000);
      const { events } = await withEvents(server(), owner.businessId, async () => {
        expect((await post(page, 'Accept quote', 'accept')).status()).toBe(409);
      });
      await page.getByText('This quote can no longer be accepted.').waitFor();
      expect(await page.getByRole('button', { name: 'Accept quote' }).count()).toBe(0);
      expect((await getQuote(owner, quote.id)).status).toBe('expired');
      expect(events.filter((e) => e.type === 'quote.updated')).toEqual([]);
      await screenshot(page, 'documents-hosted-quote-expired');
      expectClean(app, [409]);
    } finally {
      server().clock.reset();
      await app.close();
    }
  });
});

describe('business settings for documents', () => {
  it('saves payment instructions and the reminder steps, and refuses a repeated or out-of-range day beside the field', async () => {
    const owner = await registerBusiness(server(), 'Reminding Ltd');
    const app = await open(owner, '/settings/business');
    const { page } = app;
    await page.getByRole('heading', { name: 'Business settings', level: 1 }).waitFor();
    const days = page.getByLabel('Days after the due date');
    const enabled = page.getByLabel(/Mail customers a reminder/);
    await expect.poll(() => days.inputValue()).toBe('0, 7, 14');
    expect(await enabled.isChecked()).toBe(true);

    const instructions = 'Bank transfer to Reminding Ltd\nIBAN GB33 BUKB 2020 1555 5555 55';
    await page.getByLabel('Payment instructions').fill(instructions);
    await days.fill('0, 3');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();
    expect((await unwrap(owner.client.auth.getBusiness())).data).toMatchObject({
      payment_instructions: instructions,
      invoice_reminders: { enabled: true, days_after_due: [0, 3] },
    });

    for (const [typed, says] of [
      ['0, 0', /at most once/],
      ['400', /^400: .*0 to 365/],
      ['0, soon', /^soon: /],
    ] as const) {
      await days.fill(typed);
      await page.getByRole('button', { name: 'Save settings' }).click();
      await expect.poll(() => errorBeside(days)).toMatch(says);
      await page.getByText(/^Check the highlighted fields?\.$/).waitFor();
      if (typed === '400') {
        await expectAccessible(page, 'documents settings invalid');
        await screenshot(page, 'documents-settings-invalid');
      }
    }
    // Nothing was saved.
    expect((await unwrap(owner.client.auth.getBusiness())).data.invoice_reminders).toEqual({
      enabled: true,
      days_after_due: [0, 3],
    });

    await days.fill('14, 7');
    await enabled.uncheck();
    await page.getByLabel('Payment instructions').fill('');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();
    // Kept in ascending order, shown as saved.
    await expect.poll(() => days.inputValue()).toBe('7, 14');
    expect(await days.getAttribute('aria-invalid')).toBeNull();
    expect((await unwrap(owner.client.auth.getBusiness())).data).toMatchObject({
      payment_instructions: null,
      invoice_reminders: { enabled: false, days_after_due: [7, 14] },
    });
    await page.getByLabel('Payment instructions').fill(instructions);
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();
    await expectAccessible(page, 'documents settings');
    await screenshot(page, 'documents-settings');
    expectClean(app);
    await app.close();
  });
});
