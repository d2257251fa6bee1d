import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import type {
  CreateCreditNoteBody,
  CreateInvoiceBody,
  CreditNote,
  ListCreditNotesQuery,
} from '../../contract/general/index.js';
import { raw, registerTenant, type TestTenant } from '../support/business.js';
import { withEvents } from '../support/events.js';
import { expectError } from '../support/expect.js';
import { entriesOf, entryOf, linesOf, trialBalance } from '../support/finance.js';
import {
  createCreditNote,
  createCustomer,
  createInvoice,
  getInvoice,
  invoiceLine,
  issuedInvoice,
  payInvoice,
} from '../support/general.js';
import { createProgram, transactions } from '../support/loyalty.js';
import { pdfText } from '../support/pdf.js';
import { useTestServer } from '../support/setup.js';

const server = useTestServer({ env: { ACCESS_TOKEN_TTL: '3650d' } });

const NOW = '2026-11-21T09:00:00.000Z';
const TODAY = '2026-11-21';

beforeEach(() => server().clock.set(NOW));
afterEach(() => server().clock.reset());

const newTenant = () => registerTenant(server());
const api = (t: TestTenant) => t.client.general.creditNotes;

/** An issued invoice of 100.00 net at 20 % tax: 120.00. */
const invoiceOf = (t: TestTenant, overrides: Partial<CreateInvoiceBody> = {}) =>
  issuedInvoice(t.client, {
    customer_id: t.customerId,
    items: [invoiceLine({ description: 'Consulting', unit_price: 100, tax_rate: 20 })],
    ...overrides,
  });

const body = (invoiceId: string, overrides: Partial<CreateCreditNoteBody> = {}): CreateCreditNoteBody => ({
  invoice_id: invoiceId,
  amount: 60,
  reason: 'Half the hours were not worked',
  credit_amount: 60,
  refund_amount: 0,
  customer_credit_amount: 0,
  ...overrides,
});

const create = (t: TestTenant, overrides: Partial<CreateCreditNoteBody> & { invoice_id: string }) =>
  api(t).createCreditNote({ body: body(overrides.invoice_id, overrides) });

describe('create', () => {
  it('credits an issued invoice for lines (201), numbered CN-000001 then CN-000002, lowering what it owes', async () => {
    const t = await newTenant();
    const invoice = await invoiceOf(t);
    const { result, events } = await withEvents(server(), t.businessId, async () =>
      create(t, {
        invoice_id: invoice.id,
        amount: undefined,
        items: [
          { description: 'Consulting', quantity: 1, unit_price: 50, tax_rate: 20, discount_percent: 10 },
        ],
        credit_amount: 54,
      }),
    );
    expect(result.status).toBe(201);
    const note = (await unwrap(result)).data;
    expect(note).toMatchObject({
      number: 'CN-000001',
      invoice_id: invoice.id,
      invoice_number: invoice.number,
      customer_id: t.customerId,
      customer: { id: t.customerId, name: 'Ada Lovelace' },
      status: 'issued',
      currency: 'USD',
      issue_date: TODAY,
      reason: 'Half the hours were not worked',
      subtotal: 45,
      tax: 9,
      total: 54,
      credit_amount: 54,
      refund_amount: 0,
      refund_method: null,
      customer_credit_amount: 0,
      created_at: NOW,
      voided_at: null,
      sent_at: null,
    });
    expect(note.items).toEqual([
      expect.objectContaining({
        description: 'Consulting',
        quantity: 1,
        discount_percent: 10,
        total: 45,
        tax: 9,
      }),
    ]);
    expect(events.map((e) => e.type)).toEqual(['invoice.updated', 'credit_note.created']);
    expect(events[1]!.data).toEqual(note);
    expect(await getInvoice(t.client, invoice.id)).toMatchObject({
      status: 'unpaid',
      amount_credited: 54,
      amount_due: 66,
      credited: false,
    });
    expect((await unwrap(api(t).getCreditNote({ params: { id: note.id } }))).data).toEqual(note);

    const second = (await unwrap(create(t, { invoice_id: invoice.id, amount: 6, credit_amount: 6 }))).data;
    expect(second.number).toBe('CN-000002');
  });

  it("splits a bare amount between net and tax in the invoice's proportion", async () => {
    const t = await newTenant();
    const invoice = await invoiceOf(t);
    const note = (await unwrap(create(t, { invoice_id: invoice.id, amount: 60, credit_amount: 60 }))).data;
    expect(note).toMatchObject({ items: [], subtotal: 50, tax: 10, total: 60 });
    // 0.01 of a 120.00 invoice with 20.00 tax: 0.00167 tax, 0.00 once rounded.
    const cent = (await unwrap(create(t, { invoice_id: invoice.id, amount: 0.01, credit_amount: 0.01 })))
      .data;
    expect(cent).toMatchObject({ subtotal: 0.01, tax: 0, total: 0.01 });
  });

  it('marks the invoice paid (credited) when its amount due reaches 0 through a credit note, firing invoice.paid', async () => {
    const t = await newTenant();
    const invoice = await invoiceOf(t);
    await payInvoice(t.client, invoice.id, 20);
    const { events } = await withEvents(server(), t.businessId, () =>
      createCreditNote(t.client, { invoice_id: invoice.id, amount: 100 }),
    );
    expect(events.map((e) => e.type)).toEqual(['invoice.updated', 'invoice.paid', 'credit_note.created']);
    expect(await getInvoice(t.client, invoice.id)).toMatchObject({
      status: 'paid',
      amount_paid: 20,
      amount_credited: 100,
      amount_due: 0,
      credited: true,
      paid_at: NOW,
    });
  });

  it('credits a paid invoice by a refund and customer credit, posting Dr 4000 and 2200 / Cr 1200, Dr 1200 / Cr bank and Cr 2300', async () => {
    const t = await newTenant();
    const invoice = await invoiceOf(t);
    await payInvoice(t.client, invoice.id, 120);
    const note = await createCreditNote(t.client, {
      invoice_id: invoice.id,
      amount: 120,
      credit_amount: 0,
      refund_amount: 80,
      refund_method: 'bank_transfer',
      customer_credit_amount: 40,
    });
    expect(note).toMatchObject({
      refund_amount: 80,
      refund_method: 'bank_transfer',
      customer_credit_amount: 40,
    });
    const entry = await entryOf(t.client, 'credit_note', note.id);
    expect(entry).toMatchObject({ date: TODAY, currency: 'USD' });
    const sorted = (lines: { account: string; amount: number }[]) =>
      [...lines]
        .sort((a, b) => a.account.localeCompare(b.account) || a.amount - b.amount)
        .map(({ account, amount }) => ({ account, amount }));
    expect(sorted(linesOf(entry).debits)).toEqual([
      { account: '1200', amount: 12_000 },
      { account: '2200', amount: 2_000 },
      { account: '4000', amount: 10_000 },
    ]);
    expect(sorted(linesOf(entry).credits)).toEqual([
      { account: '1010', amount: 8_000 },
      { account: '1200', amount: 12_000 },
      { account: '2300', amount: 4_000 },
    ]);
    // In the base currency, every line's base amount is its amount.
    for (const l of [...linesOf(entry).debits, ...linesOf(entry).credits])
      expect(l.base_amount).toBe(l.amount);
    expect(await getInvoice(t.client, invoice.id)).toMatchObject({
      status: 'paid',
      amount_credited: 0,
      amount_due: 0,
    });
    const accounts = (await unwrap(t.client.finance.accounts.listAccounts())).accounts;
    expect(accounts.find((a) => a.code === '2300')).toMatchObject({
      name: 'Customer credit',
      type: 'liability',
    });
  });

  it('refuses a draft or void invoice (409 INVALID_STATE) and an unknown or foreign one (422 invoice_id)', async () => {
    const t = await newTenant();
    const draft = await createInvoice(t.client, { customer_id: t.customerId });
    expectError(await create(t, { invoice_id: draft.id }), 409, 'INVALID_STATE');
    const voided = await createInvoice(t.client, { customer_id: t.customerId });
    await unwrap(t.client.general.invoices.voidInvoice({ params: { id: voided.id } }));
    expectError(await create(t, { invoice_id: voided.id }), 409, 'INVALID_STATE');
    expectError(await create(t, { invoice_id: 'inv_unknown' }), 422, 'VALIDATION_ERROR', 'invoice_id');
    const other = await newTenant();
    const foreign = await invoiceOf(other);
    expectError(await create(t, { invoice_id: foreign.id }), 422, 'VALIDATION_ERROR', 'invoice_id');
    expect((await unwrap(api(t).listCreditNotes({ query: {} }))).pagination.total).toBe(0);
  });

  it('refuses more than the invoice total less earlier credit notes (422 on amount or items, naming what is left)', async () => {
    const t = await newTenant();
    const invoice = await invoiceOf(t);
    const tooMuch = expectError(
      await create(t, { invoice_id: invoice.id, amount: 120.01, credit_amount: 120.01 }),
      422,
      'VALIDATION_ERROR',
      'amount',
    );
    expect(tooMuch.details?.[0]?.message).toContain(`At most 120 USD is left to credit on ${invoice.number}`);
    await payInvoice(t.client, invoice.id, 120);
    await createCreditNote(t.client, {
      invoice_id: invoice.id,
      amount: 100,
      credit_amount: 0,
      customer_credit_amount: 100,
    });
    const items = expectError(
      await create(t, {
        invoice_id: invoice.id,
        amount: undefined,
        items: [{ description: 'More', quantity: 1, unit_price: 20.01, tax_rate: 0 }],
        credit_amount: 0,
        customer_credit_amount: 20.01,
      }),
      422,
      'VALIDATION_ERROR',
      'items',
    );
    expect(items.details?.[0]?.message).toContain('At most 20 USD is left');
  });

  it('refuses a split that does not add up to the total, a credit above the amount due, and a refund without a method', async () => {
    const t = await newTenant();
    const invoice = await invoiceOf(t);
    await payInvoice(t.client, invoice.id, 100);
    expectError(
      await create(t, { invoice_id: invoice.id, amount: 10, credit_amount: 5, customer_credit_amount: 4 }),
      422,
      'VALIDATION_ERROR',
      'credit_amount',
    );
    const due = expectError(
      await create(t, { invoice_id: invoice.id, amount: 30, credit_amount: 30 }),
      422,
      'VALIDATION_ERROR',
      'credit_amount',
    );
    expect(due.details?.[0]?.message).toContain('At most 20 USD is due');
    expectError(
      await create(t, { invoice_id: invoice.id, amount: 10, credit_amount: 0, refund_amount: 10 }),
      422,
      'VALIDATION_ERROR',
      'refund_method',
    );
    expectError(
      await create(t, {
        invoice_id: invoice.id,
        items: [{ description: 'x', quantity: 1, unit_price: 1 }],
        amount: 1,
        credit_amount: 1,
      }),
      422,
      'VALIDATION_ERROR',
      'amount',
    );
    expectError(
      await create(t, { invoice_id: invoice.id, amount: undefined, credit_amount: 1 }),
      422,
      'VALIDATION_ERROR',
      'amount',
    );
    expectError(
      await create(t, {
        invoice_id: invoice.id,
        amount: undefined,
        items: [{ description: 'x', quantity: 1, unit_price: 1, discount_percent: 100.5 }],
        credit_amount: 1,
      }),
      422,
      'VALIDATION_ERROR',
      'items.0.discount_percent',
    );
    expectError(
      await create(t, {
        invoice_id: invoice.id,
        amount: undefined,
        items: [{ description: 'x', quantity: 1, unit_price: 1, discount_percent: 100 }],
        credit_amount: 0,
      }),
      422,
      'VALIDATION_ERROR',
      'items',
    );
    expectError(
      await create(t, { invoice_id: invoice.id, amount: 1, credit_amount: 1, issue_date: '2026-11-20' }),
      422,
      'VALIDATION_ERROR',
      'issue_date',
    );
    expect(await getInvoice(t.client, invoice.id)).toMatchObject({ amount_credited: 0, amount_due: 20 });
    expect((await unwrap(api(t).listCreditNotes({ query: {} }))).pagination.total).toBe(0);
  });

  it('refuses to void an invoice that has credit notes (409 INVALID_STATE)', async () => {
    const t = await newTenant();
    const invoice = await invoiceOf(t);
    await createCreditNote(t.client, { invoice_id: invoice.id, amount: 10 });
    expectError(
      await t.client.general.invoices.voidInvoice({ params: { id: invoice.id } }),
      409,
      'INVALID_STATE',
    );
  });
});

describe('void', () => {
  it('reverses the postings on the day of the void and gives the invoice back what it credited', async () => {
    const t = await newTenant();
    const invoice = await invoiceOf(t);
    const note = await createCreditNote(t.client, { invoice_id: invoice.id, amount: 120 });
    expect((await getInvoice(t.client, invoice.id)).status).toBe('paid');
    server().clock.set('2026-11-23T09:00:00.000Z');
    const voided = (await unwrap(api(t).voidCreditNote({ params: { id: note.id } }))).data;
    expect(voided).toMatchObject({ status: 'void', voided_at: '2026-11-23T09:00:00.000Z' });
    expect(await getInvoice(t.client, invoice.id)).toMatchObject({
      status: 'unpaid',
      amount_credited: 0,
      amount_due: 120,
      credited: false,
      paid_at: null,
    });
    const [posted, reversed] = await entriesOf(t.client, note.id);
    expect(reversed).toMatchObject({ source: { type: 'void', id: note.id }, date: '2026-11-23' });
    expect(reversed!.debits).toEqual(expect.arrayContaining(posted!.credits));
    expect(reversed!.credits).toEqual(expect.arrayContaining(posted!.debits));
    // The whole invoice can be credited again.
    await createCreditNote(t.client, { invoice_id: invoice.id, amount: 120 });
    expectError(await api(t).voidCreditNote({ params: { id: note.id } }), 409, 'INVALID_STATE');
  });

  it('refuses to void a credit note with a refund (409 INVALID_STATE)', async () => {
    const t = await newTenant();
    const invoice = await invoiceOf(t);
    await payInvoice(t.client, invoice.id, 120);
    const note = await createCreditNote(t.client, {
      invoice_id: invoice.id,
      amount: 10,
      credit_amount: 0,
      refund_amount: 10,
      refund_method: 'cash',
    });
    expectError(await api(t).voidCreditNote({ params: { id: note.id } }), 409, 'INVALID_STATE');
    expect((await unwrap(api(t).getCreditNote({ params: { id: note.id } }))).data.status).toBe('issued');
  });

  it('answers 404 for an unknown or foreign credit note', async () => {
    const t = await newTenant();
    const other = await newTenant();
    const note = await createCreditNote(other.client, { invoice_id: (await invoiceOf(other)).id });
    expectError(await api(t).voidCreditNote({ params: { id: note.id } }), 404, 'NOT_FOUND');
    expectError(await api(t).getCreditNote({ params: { id: note.id } }), 404, 'NOT_FOUND');
    expectError(await api(t).voidCreditNote({ params: { id: 'cn_unknown' } }), 404, 'NOT_FOUND');
  });
});

describe('the trial balance', () => {
  it('balances after every kind of credit note, and after a void, with 2300 holding the customer credit', async () => {
    const t = await newTenant();
    const balanced = async () => {
      const tb = await trialBalance(t.client);
      const debits = tb.accounts.reduce((sum, a) => sum + a.debit, 0);
      const credits = tb.accounts.reduce((sum, a) => sum + a.credit, 0);
      expect(debits).toBeGreaterThan(0);
      expect(debits).toBe(credits);
      return tb;
    };
    // Lowering what an issued invoice owes.
    const owed = await invoiceOf(t);
    await createCreditNote(t.client, { invoice_id: owed.id, amount: 30, credit_amount: 30 });
    await balanced();
    // A refund and customer credit on a paid invoice.
    const paid = await invoiceOf(t);
    await payInvoice(t.client, paid.id, 120);
    await createCreditNote(t.client, {
      invoice_id: paid.id,
      amount: 60,
      credit_amount: 0,
      refund_amount: 24,
      refund_method: 'bank_transfer',
      customer_credit_amount: 36,
    });
    const tb = await balanced();
    expect(tb.accounts.find((a) => a.code === '2300')).toMatchObject({ debit: 0, credit: 3_600 });
    // Voided: its reversal balances too.
    const voidable = await createCreditNote(t.client, { invoice_id: owed.id, amount: 12, credit_amount: 12 });
    await unwrap(api(t).voidCreditNote({ params: { id: voidable.id } }));
    await balanced();
  });
});

describe('list', () => {
  it('lists newest first, filtered by invoice, customer and status, with pagination', async () => {
    const t = await newTenant();
    const first = await invoiceOf(t);
    const secondCustomer = await createCustomer(t.client, { name: 'Grace Hopper' });
    const second = await invoiceOf(t, { customer_id: secondCustomer.id });
    const a = await createCreditNote(t.client, { invoice_id: first.id, amount: 1 });
    server().clock.set('2026-11-21T10:00:00.000Z');
    const b = await createCreditNote(t.client, { invoice_id: second.id, amount: 2 });
    server().clock.set('2026-11-21T11:00:00.000Z');
    const c = await createCreditNote(t.client, { invoice_id: first.id, amount: 3 });
    await unwrap(api(t).voidCreditNote({ params: { id: c.id } }));
    const ids = async (query: Partial<ListCreditNotesQuery>) =>
      (await unwrap(api(t).listCreditNotes({ query }))).data.map((n: CreditNote) => n.id);
    expect(await ids({})).toEqual([c.id, b.id, a.id]);
    expect(await ids({ invoice_id: first.id })).toEqual([c.id, a.id]);
    expect(await ids({ customer_id: secondCustomer.id })).toEqual([b.id]);
    expect(await ids({ status: 'void' })).toEqual([c.id]);
    expect(await ids({ sort: 'total:asc' })).toEqual([a.id, b.id, c.id]);
    const page = await unwrap(api(t).listCreditNotes({ query: { limit: 2, page: 2 } }));
    expect(page.data.map((n) => n.id)).toEqual([a.id]);
    expect(page.pagination).toEqual({ page: 2, limit: 2, total: 3, total_pages: 2 });
  });
});

describe('PDF and send', () => {
  it('serves the PDF named after its number, naming the invoice and where the money goes', async () => {
    const t = await newTenant();
    const invoice = await invoiceOf(t);
    await payInvoice(t.client, invoice.id, 100);
    const note = await createCreditNote(t.client, {
      invoice_id: invoice.id,
      amount: 30,
      credit_amount: 20,
      customer_credit_amount: 10,
    });
    const res = await fetch(`${server().baseUrl}/v1/credit-notes/${note.id}/pdf`, {
      headers: { authorization: `Bearer ${t.accessToken}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe('inline; filename="CN-000001.pdf"');
    const text = pdfText(Buffer.from(await res.arrayBuffer()));
    for (const expected of ['CREDIT NOTE', 'CN-000001', invoice.number, 'Reason', 'Goodwill']) {
      expect(text).toContain(expected);
    }
    expect(text).toMatch(/Total\s+\$30\.00/);
    expect(text).toMatch(/Credited to invoice\s+\$20\.00/);
    expect(text).toMatch(/Customer credit\s+\$10\.00/);
    expect(text).not.toContain('Refunded');

    const invoicePdf = await fetch(`${server().baseUrl}/v1/invoices/${invoice.id}/pdf`, {
      headers: { authorization: `Bearer ${t.accessToken}` },
    });
    expect(pdfText(Buffer.from(await invoicePdf.arrayBuffer()))).toMatch(/Amount credited\s+\$20\.00/);
  });

  it('mails the credit note to the customer with its PDF, sets sent_at, and refuses a void one (409)', async () => {
    const t = await newTenant();
    const customer = await createCustomer(t.client, { name: 'Grace Hopper', email: 'grace@example.com' });
    const invoice = await invoiceOf(t, { customer_id: customer.id });
    const note = await createCreditNote(t.client, { invoice_id: invoice.id, amount: 12 });
    const sent = (await unwrap(api(t).sendCreditNote({ params: { id: note.id }, body: {} }))).data;
    expect(sent.sent_at).toBe(NOW);
    const mail = await server()
      .deps.db.selectFrom('mail_messages')
      .select(['to_address', 'subject', 'body'])
      .where('business_id', '=', t.businessId)
      .where('to_address', '=', 'grace@example.com')
      .executeTakeFirstOrThrow();
    expect(mail.subject).toMatch(/^Credit note CN-000001 from /);
    expect(mail.body).toContain(`credits invoice ${invoice.number}`);
    expect(mail.body).toContain(`View it online: ${sent.hosted_url}`);
    const plain = await createCreditNote(t.client, { invoice_id: (await invoiceOf(t)).id, amount: 1 });
    expectError(
      await api(t).sendCreditNote({ params: { id: plain.id }, body: {} }),
      422,
      'VALIDATION_ERROR',
      'to',
    );
    await unwrap(api(t).voidCreditNote({ params: { id: note.id } }));
    expectError(await api(t).sendCreditNote({ params: { id: note.id }, body: {} }), 409, 'INVALID_STATE');
  });
});

describe('hosted page /c/:token', () => {
  const path = (url: string) => new URL(url).pathname;

  /** A credit note for a discounted line, split between the invoice, a refund and customer credit. */
  async function splitNote(t: TestTenant) {
    const invoice = await invoiceOf(t);
    const note = await createCreditNote(t.client, {
      invoice_id: invoice.id,
      amount: undefined,
      items: [
        {
          description: 'Consulting <b>hours</b>',
          quantity: 1,
          unit_price: 50,
          tax_rate: 20,
          discount_percent: 10,
        },
      ],
      credit_amount: 30,
      refund_amount: 14,
      refund_method: 'bank_transfer',
      customer_credit_amount: 10,
    });
    return { invoice, note };
  }

  it('answers hosted_url on create, get and list, the same signed /c/ link each time', async () => {
    const t = await newTenant();
    const { note } = await splitNote(t);
    expect(note.hosted_url).toMatch(/^https?:\/\/[^/]+\/c\/[\w-]+\.[\w-]+$/);
    const got = (await unwrap(api(t).getCreditNote({ params: { id: note.id } }))).data;
    expect(got.hosted_url).toBe(note.hosted_url);
    const listed = (await unwrap(api(t).listCreditNotes({ query: {} }))).data;
    expect(listed.map((n) => n.hosted_url)).toEqual([note.hosted_url]);
  });

  it('shows the credit note without sign-in under a same-origin CSP: lines, totals, the invoice and where the money went', async () => {
    const t = await newTenant();
    const { invoice, note } = await splitNote(t);
    const page = await raw(server(), 'GET', path(note.hosted_url));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toMatch(/^default-src 'self'/);
    expect(page.body).not.toMatch(/<script|style=/i);
    for (const expected of [
      '<title>Credit note CN-000001</title>',
      `Credits invoice ${invoice.number}`,
      'Consulting &lt;b&gt;hours&lt;/b&gt;',
      '<th scope="col" class="num">Discount</th>',
      '>10%<',
      '<h2>Reason</h2><pre>Goodwill</pre>',
      'Where the money went',
      `Credited to invoice ${invoice.number}`,
      'Refunded (bank transfer)',
      'Kept as customer credit',
      `href="${path(note.hosted_url)}/pdf"`,
    ]) {
      expect(page.body).toContain(expected);
    }
    for (const [label, amount] of [
      ['Subtotal', '$45.00'],
      ['Tax', '$9.00'],
      ['Total', '$54.00'],
      [`Credited to invoice ${invoice.number}`, '$30.00'],
      ['Refunded (bank transfer)', '$14.00'],
      ['Kept as customer credit', '$10.00'],
    ]) {
      expect(page.body).toContain(`<td>${label}</td><td class="num">${amount}</td>`);
    }
    expect(page.body).not.toContain('voided');

    const pdf = await fetch(`${server().baseUrl}${path(note.hosted_url)}/pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdfText(Buffer.from(await pdf.arrayBuffer()))).toContain('CN-000001');
  });

  it('shows a credit note made for an amount without a lines table, and only the parts it has', async () => {
    const t = await newTenant();
    const invoice = await invoiceOf(t);
    const note = await createCreditNote(t.client, { invoice_id: invoice.id, amount: 12 });
    const page = await raw(server(), 'GET', path(note.hosted_url));
    expect(page.status).toBe(200);
    expect(page.body).not.toContain('class="items"');
    expect(page.body).toContain(`<td>Credited to invoice ${invoice.number}</td><td class="num">$12.00</td>`);
    expect(page.body).not.toContain('Refunded');
    expect(page.body).not.toContain('Kept as customer credit');
  });

  it('answers 404 to a tampered token and to an invoice token under /c/ (and the credit note token under /i/)', async () => {
    const t = await newTenant();
    const { invoice, note } = await splitNote(t);
    const token = path(note.hosted_url).slice('/c/'.length);
    const [payload, signature] = token.split('.') as [string, string];
    const flipped = signature.slice(0, -1) + (signature.endsWith('A') ? 'B' : 'A');
    const invoiceToken = path((await getInvoice(t.client, invoice.id)).hosted_url!).slice('/i/'.length);
    for (const bad of [
      `/c/${payload}.${flipped}`,
      `/c/${payload}`,
      `/c/${token}x`,
      `/c/${invoiceToken}`,
      `/c/${invoiceToken}/pdf`,
      `/i/${token}`,
      `/q/${token}`,
    ]) {
      const res = await raw(server(), 'GET', bad);
      expect(res.status, bad).toBe(404);
      expect(res.body).toContain('Document not found');
    }
  });

  it('says a void credit note is void, and still serves its page', async () => {
    const t = await newTenant();
    const invoice = await invoiceOf(t);
    const note = await createCreditNote(t.client, { invoice_id: invoice.id, amount: 12 });
    await unwrap(api(t).voidCreditNote({ params: { id: note.id } }));
    const page = await raw(server(), 'GET', path(note.hosted_url));
    expect(page.status).toBe(200);
    expect(page.body).toContain('This credit note has been voided');
    expect(page.body).toContain(`It no longer credits invoice ${invoice.number}`);
    expect(page.body).toContain('<span class="badge void">Void</span>');
  });
});

describe('loyalty points follow money', () => {
  it('takes back the points of a refund with an adjust, and earns none on what credit notes paid', async () => {
    const t = await newTenant();
    await createProgram(t.client); // 10 points per USD, automatic enrollment
    const invoice = await invoiceOf(t); // 120.00
    await payInvoice(t.client, invoice.id, 120);
    const memberOf = async () =>
      (await unwrap(t.client.loyalty.members.listMembers({ query: {} }))).data.find(
        (m) => m.customerId === t.customerId,
      )!;
    const member = await memberOf();
    expect(member.pointsBalance).toBe(1200);
    await createCreditNote(t.client, {
      invoice_id: invoice.id,
      amount: 50,
      credit_amount: 0,
      refund_amount: 50,
      refund_method: 'card',
    });
    const history = await transactions(t, member.publicId);
    expect(history[0]).toMatchObject({
      type: 'adjust',
      points: -500,
      description: 'Refund on credit note CN-000001',
      referenceType: 'invoice',
      referenceId: invoice.id,
    });
    expect((await memberOf()).pointsBalance).toBe(700);

    // An invoice paid 20.00 in money and 100.00 by a credit note earns the points of 20.00.
    const credited = await invoiceOf(t);
    await payInvoice(t.client, credited.id, 20);
    await createCreditNote(t.client, { invoice_id: credited.id, amount: 100 });
    expect((await memberOf()).pointsBalance).toBe(900);
  });
});
