import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import type { StatementQuery } from '../../contract/general/index.js';
import { registerTenant, type TestTenant } from '../support/business.js';
import { expectError } from '../support/expect.js';
import {
  createCreditNote,
  createCustomer,
  createInvoice,
  getInvoice,
  invoiceLine,
  issueInvoice,
  issuedInvoice,
  payInvoice,
  voidInvoice,
} from '../support/general.js';
import { pdfText } from '../support/pdf.js';
import { useTestServer } from '../support/setup.js';

const server = useTestServer();

const NOW = '2026-11-21T09:00:00.000Z';

beforeEach(() => server().clock.set(NOW));
afterEach(() => server().clock.reset());

const statementOf = async (t: TestTenant, query: StatementQuery = {}, customerId = t.customerId) =>
  (await unwrap(t.client.general.statements.getCustomerStatement({ params: { id: customerId }, query })))
    .data;

/** An invoice of the tenant's customer for `amount` (no tax) issued on `issue_date`. */
const invoiceOn = (t: TestTenant, issue_date: string, amount: number, currency = 'USD') =>
  issuedInvoice(t.client, {
    customer_id: t.customerId,
    issue_date,
    due_date: '2026-12-31',
    currency,
    items: [invoiceLine({ unit_price: amount })],
  });

/**
 * October: invoice A of 100, 40 paid. November 2-5: invoice B of 200, 50 paid by cash, a credit note of
 * 60 on B (20 off what B owes, 15 refunded, 25 to the customer's credit), invoice C of 30 paid by
 * that credit at its issue. November 20: 5 paid on C. And what a statement leaves out: a draft, a void
 * invoice and an invoice in EUR.
 */
async function history(t: TestTenant) {
  const a = await invoiceOn(t, '2026-10-05', 100);
  await payInvoice(t.client, a.id, 40, { payment_date: '2026-10-10' });
  const b = await invoiceOn(t, '2026-11-02', 200);
  const cash = await payInvoice(t.client, b.id, 50, { payment_date: '2026-11-03', payment_method: 'cash' });
  const note = await createCreditNote(t.client, {
    invoice_id: b.id,
    amount: 60,
    issue_date: '2026-11-04',
    credit_amount: 20,
    refund_amount: 15,
    refund_method: 'bank_transfer',
    customer_credit_amount: 25,
  });
  const c = await invoiceOn(t, '2026-11-05', 30);
  expect(c.amount_due).toBe(5);
  await payInvoice(t.client, c.id, 5, { payment_date: '2026-11-20' });
  await createInvoice(t.client, { customer_id: t.customerId, issue_date: '2026-11-06' });
  const voided = await createInvoice(t.client, { customer_id: t.customerId, issue_date: '2026-11-07' });
  await issueInvoice(t.client, voided.id);
  await voidInvoice(t.client, voided.id);
  await invoiceOn(t, '2026-11-08', 70, 'EUR');
  const payment = (await getInvoice(t.client, b.id)).payments.find((p) => p.amount === 50);
  const applied = (await getInvoice(t.client, c.id)).payments.find((p) => p.payment_method === 'credit');
  return { a, b, c, note, cashPaymentId: payment?.id ?? cash.id, appliedPaymentId: applied?.id ?? '' };
}

describe('GET /v1/customers/:id/statement', () => {
  it('opens with the balance before the range and runs every kind of line to the closing balance', async () => {
    const t = await registerTenant(server());
    const { b, c, note, cashPaymentId, appliedPaymentId } = await history(t);
    const statement = await statementOf(t, { start_date: '2026-11-01', end_date: '2026-11-15' });
    expect(statement).toMatchObject({
      customer_id: t.customerId,
      customer: { id: t.customerId, name: 'Ada Lovelace' },
      currency: 'USD',
      start_date: '2026-11-01',
      end_date: '2026-11-15',
      opening_balance: 60,
      closing_balance: 195,
      totals: { invoiced: 230, paid: 50, credit_applied: 25, credited: 60, refunded: 15 },
    });
    expect(statement.lines).toEqual([
      {
        date: '2026-11-02',
        type: 'invoice',
        document_id: b.id,
        number: b.number,
        description: `Invoice ${b.number}`,
        amount: 200,
        change: 200,
        balance: 260,
      },
      {
        date: '2026-11-03',
        type: 'payment',
        document_id: cashPaymentId,
        number: b.number,
        description: `Payment on ${b.number} (cash)`,
        amount: 50,
        change: -50,
        balance: 210,
      },
      {
        date: '2026-11-04',
        type: 'credit_note',
        document_id: note.id,
        number: note.number,
        description: `Credit note ${note.number} on ${b.number}`,
        amount: 60,
        change: -60,
        balance: 150,
      },
      {
        date: '2026-11-04',
        type: 'refund',
        document_id: note.id,
        number: note.number,
        description: `Refund of ${note.number} (bank transfer)`,
        amount: 15,
        change: 15,
        balance: 165,
      },
      {
        date: '2026-11-05',
        type: 'invoice',
        document_id: c.id,
        number: c.number,
        description: `Invoice ${c.number}`,
        amount: 30,
        change: 30,
        balance: 195,
      },
      {
        date: '2026-11-05',
        type: 'credit_applied',
        document_id: appliedPaymentId,
        number: c.number,
        description: `Credit applied to ${c.number}`,
        amount: 25,
        change: 0,
        balance: 195,
      },
    ]);
  });

  it('counts customer credit once: the closing balance is what the invoices owe less the credit held', async () => {
    const t = await registerTenant(server());
    const { a, b, c } = await history(t);
    const owed = async () => {
      let sum = 0;
      for (const invoice of [a, b, c]) sum += (await getInvoice(t.client, invoice.id)).amount_due;
      return sum;
    };
    const whole = await statementOf(t, { start_date: '2026-01-01' });
    expect(whole.opening_balance).toBe(0);
    expect(whole.closing_balance).toBe(await owed());
    expect(whole.closing_balance).toBe(190);

    // Credit the customer still holds takes off what they owe, until an invoice uses it.
    const held = await createCreditNote(t.client, {
      invoice_id: a.id,
      amount: 10,
      issue_date: '2026-11-21',
      credit_amount: 0,
      customer_credit_amount: 10,
    });
    expect(held.customer_credit_amount).toBe(10);
    expect((await statementOf(t, { start_date: '2026-01-01' })).closing_balance).toBe((await owed()) - 10);
    server().clock.advance(60_000);
    await invoiceOn(t, '2026-11-21', 8);
    const after = await statementOf(t, { start_date: '2026-01-01' });
    expect(after.closing_balance).toBe(190 - 10 + 8);
    expect(after.lines.at(-1)).toMatchObject({ type: 'credit_applied', amount: 8, change: 0 });
  });

  it('leaves out drafts, void invoices, void credit notes and other currencies', async () => {
    const t = await registerTenant(server());
    const a = await invoiceOn(t, '2026-11-02', 100);
    const note = await createCreditNote(t.client, { invoice_id: a.id, amount: 10, issue_date: '2026-11-03' });
    await unwrap(t.client.general.creditNotes.voidCreditNote({ params: { id: note.id } }));
    await createInvoice(t.client, { customer_id: t.customerId });
    const voided = await invoiceOn(t, '2026-11-04', 40);
    await voidInvoice(t.client, voided.id);
    await invoiceOn(t, '2026-11-05', 70, 'EUR');
    const usd = await statementOf(t);
    expect(usd.lines.map((l) => l.document_id)).toEqual([a.id]);
    expect(usd.closing_balance).toBe(100);
    const eur = await statementOf(t, { currency: 'EUR' });
    expect(eur).toMatchObject({ currency: 'EUR', opening_balance: 0, closing_balance: 70 });
  });

  it("covers the month to date in the business's base currency by default", async () => {
    const t = await registerTenant(server());
    await invoiceOn(t, '2026-10-31', 100);
    await invoiceOn(t, '2026-11-01', 20);
    const statement = await statementOf(t);
    expect(statement).toMatchObject({
      start_date: '2026-11-01',
      end_date: '2026-11-21',
      currency: 'USD',
      opening_balance: 100,
      closing_balance: 120,
    });
    expect((await statementOf(t, { end_date: '2026-10-31' })).start_date).toBe('2026-10-01');
  });

  it('orders the lines of one day as they were made', async () => {
    const t = await registerTenant(server());
    const first = await invoiceOn(t, '2026-11-10', 100);
    server().clock.set('2026-11-21T10:00:00.000Z');
    await payInvoice(t.client, first.id, 100, { payment_date: '2026-11-10' });
    server().clock.set('2026-11-21T11:00:00.000Z');
    const second = await invoiceOn(t, '2026-11-10', 30);
    const { lines } = await statementOf(t);
    expect(lines.map((l) => [l.type, l.number, l.balance])).toEqual([
      ['invoice', first.number, 100],
      ['payment', first.number, 0],
      ['invoice', second.number, 30],
    ]);
  });

  it("shows only the business's own documents, and another business's customer is 404", async () => {
    const t = await registerTenant(server());
    const other = await registerTenant(server());
    await invoiceOn(t, '2026-11-02', 100);
    await invoiceOn(other, '2026-11-02', 999);
    expect((await statementOf(t)).closing_balance).toBe(100);
    const res = await t.client.general.statements.getCustomerStatement({
      params: { id: other.customerId },
      query: {},
    });
    expectError(res, 404, 'NOT_FOUND');
  });

  it('refuses an unknown customer (404), an end before the start and an unknown currency (422)', async () => {
    const t = await registerTenant(server());
    const statements = t.client.general.statements;
    expectError(
      await statements.getCustomerStatement({ params: { id: 'cus_unknown' }, query: {} }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await statements.getCustomerStatement({
        params: { id: t.customerId },
        query: { start_date: '2026-11-10', end_date: '2026-11-09' },
      }),
      422,
      'VALIDATION_ERROR',
      'end_date',
    );
    expectError(
      await statements.getCustomerStatement({ params: { id: t.customerId }, query: { currency: 'ABC' } }),
      422,
      'VALIDATION_ERROR',
      'currency',
    );
    expectError(
      await statements.getCustomerStatementPdf({
        params: { id: t.customerId },
        query: { start_date: '2026-02-30' },
      }),
      422,
      'VALIDATION_ERROR',
      'start_date',
    );
    const other = await createCustomer(t.client, { name: 'Nobody Yet' });
    expect(await statementOf(t, {}, other.id)).toMatchObject({ lines: [], closing_balance: 0 });
  });
});

describe('GET /v1/customers/:id/statement/pdf', () => {
  it('renders the statement with its lines and balances', async () => {
    const t = await registerTenant(server());
    const { b, c, note } = await history(t);
    const res = await fetch(
      `${server().baseUrl}/v1/customers/${t.customerId}/statement/pdf?start_date=2026-11-01&end_date=2026-11-15`,
      { headers: { authorization: `Bearer ${t.accessToken}` } },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe(
      'inline; filename="statement-2026-11-01-2026-11-15.pdf"',
    );
    const text = pdfText(Buffer.from(await res.arrayBuffer()));
    for (const expected of ['STATEMENT', 'Ada Lovelace', '2026-11-01 to 2026-11-15']) {
      expect(text).toContain(expected);
    }
    expect(text).toMatch(/2026-11-01\s+Opening balance\s+\$60\.00/);
    expect(text).toMatch(new RegExp(`Invoice ${b.number}\\s+\\$200\\.00\\s+\\$260\\.00`));
    expect(text).toMatch(
      new RegExp(`Credit note ${note.number} on ${b.number}\\s+-\\$60\\.00\\s+\\$150\\.00`),
    );
    expect(text).toMatch(new RegExp(`Credit applied to ${c.number}: \\$25\\.00 of credit\\s+\\$195\\.00`));
    expect(text).toMatch(/Closing balance\s+\$195\.00/);
  });
});
