import { describe, expect, it } from 'vitest';
import { unwrap, type Client } from '../../client/index.js';
import { sendInvoiceReminders } from '../../server/general/invoices/reminders.js';
import { registerBusiness, raw, sandboxOf, type TestBusiness } from '../support/business.js';
import { onPostgres } from '../support/database.js';
import { outbox } from '../support/events.js';
import { expectError } from '../support/expect.js';
import {
  createCustomer,
  createInvoice,
  createQuote,
  getInvoice,
  payInvoice,
  voidInvoice,
} from '../support/general.js';
import { pdfText } from '../support/pdf.js';
import { useTestServer } from '../support/setup.js';
import { useSmtpSink } from '../support/smtp.js';
import { waitFor } from '../support/wait.js';

/**
 * Documents customers receive (docs/decisions.md D146 to D153): invoice and quote PDFs read back as text,
 * sending them to a real SMTP server with the PDF attached, the hosted pages behind their links, and the
 * overdue reminders on the business's clock.
 */

const { env, sink } = useSmtpSink();
const server = useTestServer({ env });

const DAY = 86_400_000;

/** A business with its name, address, tax number and payment instructions set. */
async function business(name = 'Acme Trading Ltd'): Promise<TestBusiness> {
  const biz = await registerBusiness(server(), name);
  await unwrap(
    biz.client.auth.updateBusiness({
      body: {
        address: { line1: '12 Harbour Street', city: 'Bristol', postal_code: 'BS1 4QA', country: 'GB' },
        tax_number: 'GB123456789',
        payment_instructions: 'Bank transfer to Acme Trading Ltd, sort code 12-34-56, account 87654321',
      },
    }),
  );
  return biz;
}

const customerWithEmail = async (client: Client, name = 'Grace Hopper') =>
  createCustomer(client, {
    name,
    email: `${name.toLowerCase().replace(/\W+/g, '.')}@example.com`,
    company: 'Navy Labs',
  });

/** The document's PDF as the API serves it: the answer and its bytes. */
async function pdfOf(biz: TestBusiness, path: string) {
  const res = await fetch(`${server().baseUrl}${path}`, {
    headers: { authorization: `Bearer ${biz.accessToken}` },
  });
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

const daysFromNow = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);

describe('GET /v1/invoices/:id/pdf and /v1/quotes/:id/pdf', () => {
  it('renders the number, the business, the customer, each line and the totals to the cent (USD)', async () => {
    const biz = await business();
    const customer = await customerWithEmail(biz.client);
    const draft = await createInvoice(biz.client, {
      customer_id: customer.id,
      currency: 'USD',
      due_date: '2027-01-31',
      notes: 'Thank you for your custom',
      items: [
        { description: 'Harbour survey', quantity: 3, unit_price: 1234.56, tax_rate: 20 },
        { description: 'Chart corrections', quantity: 1.5, unit_price: 99.99, tax_rate: 0 },
      ],
    });
    const { res, bytes } = await pdfOf(biz, `/v1/invoices/${draft.id}/pdf`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe(`inline; filename="${draft.number}.pdf"`);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(bytes);
    for (const expected of [
      draft.number,
      'Acme Trading Ltd',
      '12 Harbour Street',
      'GB123456789',
      'Grace Hopper',
      'Navy Labs',
      'Harbour survey',
      'Chart corrections',
      '$3,703.68', // 3 x 1,234.56
      '$149.99', // 1.5 x 99.99, half-up
      '$3,853.67', // subtotal
      '$740.74', // tax
      '$4,594.41', // total
      '2027-01-31',
      'Thank you for your custom',
      'sort code 12-34-56',
      'DRAFT',
    ]) {
      expect(text).toContain(expected);
    }
    expect(draft.total).toBe(4594.41);
  });

  it('prints JPY without decimals and KWD with three, to the minor unit, and no DRAFT once issued', async () => {
    const biz = await business();
    const customer = await customerWithEmail(biz.client);
    for (const [currency, unit_price, total] of [
      ['JPY', 1235, '¥1,482'], // 1,235 + 20% = 1,482
      ['KWD', 1.235, 'KWD 1.482'],
    ] as const) {
      const draft = await createInvoice(biz.client, {
        customer_id: customer.id,
        currency,
        items: [{ description: `Widget in ${currency}`, quantity: 1, unit_price, tax_rate: 20 }],
      });
      await unwrap(biz.client.general.invoices.issueInvoice({ params: { id: draft.id } }));
      const text = pdfText((await pdfOf(biz, `/v1/invoices/${draft.id}/pdf`)).bytes);
      expect(text).toContain(`Widget in ${currency}`);
      expect(text).toContain(total);
      expect(text).not.toContain('DRAFT');
    }
  });

  it("renders a quote with its validity, and answers 404 for another business's document", async () => {
    const biz = await business();
    const other = await business('Other Ltd');
    const customer = await customerWithEmail(biz.client);
    const quote = await createQuote(biz.client, customer.id);
    const text = pdfText((await pdfOf(biz, `/v1/quotes/${quote.id}/pdf`)).bytes);
    expect(text).toContain(quote.number);
    expect(text).toContain('2099-12-31');
    expect(text).toContain('$360.00');
    expect((await pdfOf(other, `/v1/quotes/${quote.id}/pdf`)).res.status).toBe(404);
    const invoice = await createInvoice(biz.client, { customer_id: customer.id });
    const stranger = await pdfOf(other, `/v1/invoices/${invoice.id}/pdf`);
    expect(stranger.res.status).toBe(404);
    expect(JSON.parse(stranger.bytes.toString()).error.code).toBe('NOT_FOUND');
  });
});

describe('POST /v1/invoices/:id/send', () => {
  it('issues a draft and mails it with the PDF attached, the page link, cc and message, from the business', async () => {
    const biz = await business();
    const customer = await customerWithEmail(biz.client, 'Ada Byron');
    const draft = await createInvoice(biz.client, { customer_id: customer.id });
    expect(draft.hosted_url).toBeNull();
    const sent = (
      await unwrap(
        biz.client.general.invoices.sendInvoice({
          params: { id: draft.id },
          body: { cc: ['books@example.org'], message: 'Our invoice for November.' },
        }),
      )
    ).data;
    expect(sent.status).toBe('unpaid');
    expect(sent.issued_at).not.toBeNull();
    expect(sent.sent_at).not.toBeNull();
    expect(sent.hosted_url).toMatch(/^http:\/\/localhost:\d+\/i\/[\w-]+\.[\w-]+$/);

    const mail = await waitFor('the invoice mail', () => sink().to('ada.byron@example.com')[0]);
    expect(mail.mail.subject).toBe(`Invoice ${draft.number} from Acme Trading Ltd`);
    expect(mail.mail.from?.value).toEqual([{ name: 'Acme Trading Ltd', address: 'no-reply@localhost' }]);
    expect(mail.header('reply-to')).toBe(biz.email);
    expect(mail.header('cc')).toBe('books@example.org');
    expect(mail.mail.text).toContain('Our invoice for November.');
    expect(mail.mail.text).toContain(sent.hosted_url!);
    const [attachment, ...more] = mail.mail.attachments;
    expect(more).toEqual([]);
    expect(attachment!.contentType).toBe('application/pdf');
    expect(attachment!.filename).toBe(`${draft.number}.pdf`);
    const text = pdfText(attachment!.content);
    expect(text).toContain(draft.number);
    expect(text).not.toContain('DRAFT');
    await waitFor('the copy', () => sink().to('books@example.org')[0]);

    const events = (await outbox(server(), biz.businessId)).filter((e) => e.type === 'invoice.updated');
    expect(events.at(-1)?.data).toMatchObject({ id: draft.id, status: 'unpaid' });
  });

  it('sends to `to` instead of the customer, and refuses a customer without email (422 on to) changing nothing', async () => {
    const biz = await business();
    const customer = await createCustomer(biz.client, { name: 'No Mail Ltd' });
    const draft = await createInvoice(biz.client, { customer_id: customer.id });
    const refused = expectError(
      await biz.client.general.invoices.sendInvoice({ params: { id: draft.id }, body: {} }),
      422,
      'VALIDATION_ERROR',
    );
    expect(refused.details?.map((d) => d.field)).toEqual(['to']);
    const after = await getInvoice(biz.client, draft.id);
    expect(after.status).toBe('draft');
    expect(after.sent_at).toBeNull();

    await unwrap(
      biz.client.general.invoices.sendInvoice({
        params: { id: draft.id },
        body: { to: 'accounts@nomail.example' },
      }),
    );
    await waitFor('the mail to `to`', () => sink().to('accounts@nomail.example')[0]);
  });

  it('refuses a void invoice (409) and a malformed address (422), and sends a paid one again', async () => {
    const biz = await business();
    const customer = await customerWithEmail(biz.client, 'Paid Person');
    const voided = await createInvoice(biz.client, { customer_id: customer.id });
    await voidInvoice(biz.client, voided.id);
    expectError(
      await biz.client.general.invoices.sendInvoice({ params: { id: voided.id }, body: {} }),
      409,
      'INVALID_STATE',
    );
    const res = await raw(server(), 'POST', `/v1/invoices/${voided.id}/send`, {
      token: biz.accessToken,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ to: 'not an address', cc: ['x@example.com', 'also bad'] }),
    });
    expect(res.status).toBe(422);
    expect(res.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['cc.1', 'to']);

    const invoice = await createInvoice(biz.client, { customer_id: customer.id });
    await unwrap(biz.client.general.invoices.issueInvoice({ params: { id: invoice.id } }));
    await payInvoice(biz.client, invoice.id, invoice.total);
    const again = (
      await unwrap(biz.client.general.invoices.sendInvoice({ params: { id: invoice.id }, body: {} }))
    ).data;
    expect(again.status).toBe('paid');
    const mail = await waitFor('the receipt', () => sink().to('paid.person@example.com')[0]);
    expect(mail.mail.text).toContain('is paid');
  });

  it('mails a quote on send, and marks it sent without mail when there is no address', async () => {
    const biz = await business();
    const customer = await customerWithEmail(biz.client, 'Quote Reader');
    const quote = await createQuote(biz.client, customer.id, 'sent');
    expect(quote.hosted_url).toMatch(/\/q\//);
    const mail = await waitFor('the quote mail', () => sink().to('quote.reader@example.com')[0]);
    expect(mail.mail.subject).toBe(`Quote ${quote.number} from Acme Trading Ltd`);
    expect(mail.mail.text).toContain(quote.hosted_url!);
    expect(mail.mail.attachments[0]!.filename).toBe(`${quote.number}.pdf`);

    const silent = await createCustomer(biz.client, { name: 'Walk-in' });
    const handed = await createQuote(biz.client, silent.id, 'sent');
    expect(handed.status).toBe('sent');
  });
});

describe('hosted pages /i/:token and /q/:token', () => {
  async function sentInvoice(biz: TestBusiness) {
    const customer = await customerWithEmail(
      biz.client,
      `Page Reader ${Math.random().toString(36).slice(2, 7)}`,
    );
    const draft = await createInvoice(biz.client, {
      customer_id: customer.id,
      items: [{ description: 'Lighthouse lamp <b>bright</b>', quantity: 2, unit_price: 45.5, tax_rate: 10 }],
    });
    return (await unwrap(biz.client.general.invoices.sendInvoice({ params: { id: draft.id }, body: {} })))
      .data;
  }

  const path = (url: string) => new URL(url).pathname;

  it('shows the invoice without sign-in, under a same-origin CSP, and records the first view only', async () => {
    const biz = await business();
    const invoice = await sentInvoice(biz);
    expect(invoice.viewed_at).toBeNull();
    const page = await raw(server(), 'GET', path(invoice.hosted_url!));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toMatch(/^default-src 'self'/);
    expect(page.body).not.toMatch(/<script|style=/i);
    expect(page.body).toContain(`Invoice ${invoice.number}`);
    expect(page.body).toContain('Acme Trading Ltd');
    expect(page.body).toContain('Lighthouse lamp &lt;b&gt;bright&lt;/b&gt;');
    expect(page.body).toContain('$100.10');
    expect(page.body).toContain('sort code 12-34-56');
    const viewed = await getInvoice(biz.client, invoice.id);
    expect(viewed.viewed_at).not.toBeNull();
    await raw(server(), 'GET', path(invoice.hosted_url!));
    expect((await getInvoice(biz.client, invoice.id)).viewed_at).toBe(viewed.viewed_at);

    const pdf = await fetch(`${invoice.hosted_url}/pdf`.replace(/^http:\/\/localhost:\d+/, server().baseUrl));
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdfText(Buffer.from(await pdf.arrayBuffer()))).toContain(invoice.number);
  });

  it('answers 404 to a tampered, truncated or cross-kind token, and to a deleted or draft document', async () => {
    const biz = await business();
    const invoice = await sentInvoice(biz);
    const token = path(invoice.hosted_url!).slice('/i/'.length);
    const [payload, signature] = token.split('.') as [string, string];
    const flipped = signature.slice(0, -1) + (signature.endsWith('A') ? 'B' : 'A');
    for (const bad of [
      `/i/${payload}.${flipped}`,
      `/i/${payload}`,
      `/i/${payload}.${signature}.x`,
      `/q/${token}`,
      `/i/${token}x`,
      `/i/${'a'.repeat(600)}.${signature}`,
    ]) {
      const res = await raw(server(), 'GET', bad);
      expect(res.status, bad).toBe(404);
      expect(res.body).toContain('Document not found');
    }
    expect((await getInvoice(biz.client, invoice.id)).viewed_at).toBeNull();
  });

  it('says a voided invoice is void', async () => {
    const biz = await business();
    const customer = await customerWithEmail(biz.client, 'Void Reader');
    const draft = await createInvoice(biz.client, { customer_id: customer.id });
    const sent = (
      await unwrap(biz.client.general.invoices.sendInvoice({ params: { id: draft.id }, body: {} }))
    ).data;
    await voidInvoice(biz.client, draft.id);
    const page = await raw(server(), 'GET', path(sent.hosted_url!));
    expect(page.status).toBe(200);
    expect(page.body).toContain('This invoice has been voided');
  });

  it("accepts a quote from its page under the API's rules, firing quote.updated, and refuses a second answer", async () => {
    const biz = await business();
    const customer = await customerWithEmail(biz.client, 'Quote Taker');
    const quote = await createQuote(biz.client, customer.id, 'sent');
    const page = await raw(server(), 'GET', path(quote.hosted_url!));
    expect(page.body).toContain('Accept quote');
    expect(page.body).toContain(`action="${path(quote.hosted_url!)}/accept"`);

    const before = (await outbox(server(), biz.businessId)).length;
    const accepted = await fetch(`${server().baseUrl}${path(quote.hosted_url!)}/accept`, {
      method: 'POST',
      redirect: 'manual',
    });
    expect(accepted.status).toBe(303);
    expect(accepted.headers.get('location')).toBe(path(quote.hosted_url!));
    const now = (await unwrap(biz.client.general.quotes.getQuote({ params: { id: quote.id } }))).data;
    expect(now.status).toBe('accepted');
    const events = (await outbox(server(), biz.businessId)).slice(before);
    expect(events.map((e) => e.type)).toEqual(['quote.updated']);
    expect(events[0]!.data).toMatchObject({ id: quote.id, status: 'accepted' });

    const again = await raw(server(), 'POST', `${path(quote.hosted_url!)}/decline`);
    expect(again.status).toBe(409);
    expect(again.body).toContain('can no longer be declined');
    expect((await raw(server(), 'GET', path(quote.hosted_url!))).body).toContain('You accepted this quote');
  });
});

describe('overdue reminders', () => {
  /** A mailed invoice of a customer with `email`, due `dueInDays` from today. */
  async function mailedInvoice(biz: TestBusiness, email: string, dueInDays: number) {
    const customer = await createCustomer(biz.client, { name: 'Late Payer', email });
    const draft = await createInvoice(biz.client, {
      customer_id: customer.id,
      due_date: daysFromNow(dueInDays),
    });
    return (await unwrap(biz.client.general.invoices.sendInvoice({ params: { id: draft.id }, body: {} })))
      .data;
  }

  const captured = async (biz: TestBusiness, to: string) =>
    (await unwrap(biz.client.sandbox.messages.listMessages({ query: { limit: 100 } }))).messages.filter(
      (m) => m.to === to,
    );

  it('mails one reminder per step on the sandbox test clock (due date, +7, +14), none after payment', async () => {
    const live = await business();
    const sandbox = await sandboxOf(server(), live);
    const late = await mailedInvoice(sandbox, 'late@example.com', 2);
    const prompt = await mailedInvoice(sandbox, 'prompt@example.com', 2);
    const advance = (days: number) =>
      unwrap(
        sandbox.client.sandbox.clock.advanceClock({
          body: { advance_to: new Date(Date.now() + days * DAY + 60_000).toISOString() },
        }),
      );
    const reminders = async (to: string) =>
      (await captured(sandbox, to)).filter(
        (m) => m.subject.startsWith('Reminder:') || m.subject.endsWith('is due today'),
      );
    /** The reminders to `to` once `count` of them are captured (the worker sends what the sweep queued). */
    const capturedReminders = async (to: string, count: number) =>
      waitFor(`${count} reminders to ${to}`, async () => {
        const found = await reminders(to);
        return found.length === count && found;
      });

    expect(await reminders('late@example.com')).toHaveLength(0);
    const atDue = await advance(2);
    expect(atDue.data.ran.invoice_reminders_sent).toBe(2);
    const first = await capturedReminders('late@example.com', 1);
    expect(first.map((m) => m.subject)).toEqual([
      `Invoice ${late.number} from Acme Trading Ltd is due today`,
    ]);
    expect(first[0]!.text).toContain(late.hosted_url!);
    expect(first[0]!.text).toContain('sort code 12-34-56');

    await payInvoice(sandbox.client, prompt.id, prompt.total);
    const later = await advance(30);
    expect(later.data.ran.invoice_reminders_sent).toBe(2);
    const all = await capturedReminders('late@example.com', 3);
    expect(all.map((m) => m.subject)).toEqual([
      `Reminder: invoice ${late.number} from Acme Trading Ltd is overdue`,
      `Reminder: invoice ${late.number} from Acme Trading Ltd is overdue`,
      `Invoice ${late.number} from Acme Trading Ltd is due today`,
    ]);
    expect(all[0]!.text).toContain('14 days ago');
    expect(all[1]!.text).toContain('7 days ago');
    expect(await capturedReminders('prompt@example.com', 1)).toHaveLength(1);
  });

  it("follows the business's schedule, sends nothing when off, and mails one reminder when several steps came at once", async () => {
    const biz = await business();
    const off = await business('Quiet Ltd');
    await unwrap(off.client.auth.updateBusiness({ body: { invoice_reminders: { enabled: false } } }));
    const custom = await business('Custom Ltd');
    const settings = (
      await unwrap(
        custom.client.auth.updateBusiness({
          body: { invoice_reminders: { days_after_due: [3, 1] } },
        }),
      )
    ).data;
    expect(settings.invoice_reminders).toEqual({ enabled: true, days_after_due: [1, 3] });

    const a = await mailedInvoice(biz, 'a.late@example.com', 0);
    await mailedInvoice(off, 'quiet.late@example.com', 0);
    await mailedInvoice(custom, 'custom.late@example.com', -2);
    // The invoices' own mails first, so that what follows is the reminders alone.
    await waitFor('the invoices mailed', () =>
      ['a.late', 'quiet.late', 'custom.late'].every((name) => sink().to(`${name}@example.com`).length === 1),
    );
    sink().reset();

    // The worker's sweep at real time plus 20 days: each business's own schedule.
    const deps = server().deps;
    const at = new Date(Date.now() + 20 * DAY);
    const clock = { now: () => at };
    const sent = await sendInvoiceReminders({ ...deps, clock });
    expect(sent).toBeGreaterThanOrEqual(2);
    // Steps 7 and 14 both came (the due date's was covered by the invoice's own mail that day): one
    // mail, saying how late it is now.
    await waitFor('the reminder', () => sink().to('a.late@example.com')[0]);
    await waitFor('the custom reminder', () => sink().to('custom.late@example.com')[0]);
    expect(
      sink()
        .to('a.late@example.com')
        .map((m) => m.mail.text),
    ).toEqual([expect.stringContaining('20 days ago')]);
    expect(
      sink()
        .to('custom.late@example.com')
        .map((m) => m.mail.text),
    ).toEqual([expect.stringContaining('22 days ago')]);
    expect(sink().to('quiet.late@example.com')).toHaveLength(0);

    // A second sweep finds nothing left to send.
    expect(await sendInvoiceReminders({ ...deps, clock })).toBe(0);
    const steps = await server()
      .deps.db.selectFrom('invoice_reminders')
      .select('days_after_due')
      .where('invoice_id', '=', a.id)
      .orderBy('days_after_due')
      .execute();
    expect(steps.map((r) => r.days_after_due)).toEqual([7, 14]);
  });

  it(`mails each step once when two workers sweep at the same time (${onPostgres ? 'PostgreSQL' : 'PGlite, which serialises them'})`, async () => {
    const biz = await business('Race Ltd');
    const addresses = Array.from({ length: 6 }, (_, i) => `race-${i}@example.com`);
    for (const address of addresses) await mailedInvoice(biz, address, 0);
    await waitFor('the invoices mailed', () => addresses.every((a) => sink().to(a).length === 1));
    const clock = { now: () => new Date(Date.now() + 8 * DAY) };
    const deps = { ...server().deps, clock };
    const [first, second] = await Promise.all([
      sendInvoiceReminders(deps, biz.businessId),
      sendInvoiceReminders(deps, biz.businessId),
    ]);
    expect(first + second).toBe(addresses.length);
    await waitFor('the reminders', () => addresses.every((a) => sink().to(a).length === 2));
    expect(await sendInvoiceReminders(deps, biz.businessId)).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(addresses.map((a) => sink().to(a).length)).toEqual(addresses.map(() => 2));
  });

  it('refuses a schedule with repeated or out-of-range days (422 naming the field)', async () => {
    const biz = await business();
    for (const days_after_due of [[0, 0], [400], [-1], Array.from({ length: 11 }, (_, i) => i)]) {
      const res = await raw(server(), 'PATCH', '/v1/business', {
        token: biz.accessToken,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ invoice_reminders: { days_after_due } }),
      });
      expect(res.status, JSON.stringify(days_after_due)).toBe(422);
      expect(res.body.error.details[0].field).toMatch(/^invoice_reminders\.days_after_due/);
    }
    const business_ = (await unwrap(biz.client.auth.getBusiness())).data;
    expect(business_.invoice_reminders).toEqual({ enabled: true, days_after_due: [0, 7, 14] });
  });
});
