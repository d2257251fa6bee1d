import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import type { CreateInvoiceBody } from '../../contract/general/index.js';
import { registerTenant, type TestTenant } from '../support/business.js';
import { onPostgres } from '../support/database.js';
import { withEvents } from '../support/events.js';
import { expectError } from '../support/expect.js';
import { entryOf, linesOf } from '../support/finance.js';
import {
  createCreditNote,
  createInvoice,
  getInvoice,
  invoiceLine,
  issueInvoice,
  issuedInvoice,
  payInvoice,
} from '../support/general.js';
import { useTestServer } from '../support/setup.js';

// A pool larger than the concurrency below, so the balance's row lock, not the pool, serialises issues.
const server = useTestServer({ env: { DB_POOL_SIZE: '30', ACCESS_TOKEN_TTL: '3650d' } });

const where = onPostgres ? 'on PostgreSQL, under real concurrency' : 'on PGlite, serialised by the engine';

const NOW = '2026-11-21T09:00:00.000Z';
const TODAY = '2026-11-21';

beforeEach(() => server().clock.set(NOW));
afterEach(() => server().clock.reset());

const newTenant = () => registerTenant(server());

/** A draft invoice of the tenant's customer for `amount` (no tax). */
const draftOf = (t: TestTenant, amount: number, overrides: Partial<CreateInvoiceBody> = {}) =>
  createInvoice(t.client, {
    customer_id: t.customerId,
    items: [invoiceLine({ description: 'Consulting', unit_price: amount })],
    ...overrides,
  });

/** An invoice of the tenant's customer for `amount` (no tax), issued and paid in full. */
async function paidInvoice(t: TestTenant, amount: number, currency = 'USD') {
  const invoice = await issuedInvoice(t.client, {
    customer_id: t.customerId,
    currency,
    items: [invoiceLine({ unit_price: amount })],
  });
  // Credit the customer already has may pay part of it as it is issued.
  return invoice.amount_due > 0 ? payInvoice(t.client, invoice.id, invoice.amount_due) : invoice;
}

/** A credit note giving the whole of a paid invoice back as customer credit. */
const creditAll = (t: TestTenant, invoice: { id: string; total: number }) =>
  createCreditNote(t.client, {
    invoice_id: invoice.id,
    amount: invoice.total,
    credit_amount: 0,
    customer_credit_amount: invoice.total,
  });

/** Gives the tenant's customer `amount` of credit in `currency`. */
const giveCredit = async (t: TestTenant, amount: number, currency = 'USD') =>
  creditAll(t, await paidInvoice(t, amount, currency));

const customerOf = async (t: TestTenant) =>
  (await unwrap(t.client.general.customers.getCustomer({ params: { id: t.customerId } }))).data;

describe('credit_balance', () => {
  it("shows a credit note's customer credit on the customer, by currency, and none before", async () => {
    const t = await newTenant();
    expect((await customerOf(t)).credit_balance).toEqual({});
    const sources = [await paidInvoice(t, 40), await paidInvoice(t, 10.5), await paidInvoice(t, 1000, 'JPY')];
    for (const invoice of sources) await creditAll(t, invoice);
    expect((await customerOf(t)).credit_balance).toEqual({ USD: 50.5, JPY: 1000 });
    const listed = (await unwrap(t.client.general.customers.listCustomers({ query: {} }))).data;
    expect(listed.find((c) => c.id === t.customerId)?.credit_balance).toEqual({ USD: 50.5, JPY: 1000 });
  });

  it('refuses credit_balance in a customer body (422)', async () => {
    const t = await newTenant();
    const res = await t.client.general.customers.updateCustomer({
      params: { id: t.customerId },
      body: { credit_balance: { USD: 100 } } as never,
    });
    expectError(res, 422, 'VALIDATION_ERROR', 'credit_balance');
  });
});

describe('applied at issue', () => {
  it('pays the next invoice of the currency with method credit, posting Dr 2300 / Cr 1200, and fires invoice.paid when it covers it', async () => {
    const t = await newTenant();
    await giveCredit(t, 50);
    const draft = await draftOf(t, 30);
    const { result: issued, events } = await withEvents(server(), t.businessId, () =>
      issueInvoice(t.client, draft.id),
    );
    expect(issued).toMatchObject({ status: 'paid', amount_paid: 30, amount_due: 0, credited: false });
    expect(issued.payments).toEqual([
      expect.objectContaining({ amount: 30, payment_method: 'credit', payment_date: TODAY, reference: null }),
    ]);
    expect(events.map((e) => e.type)).toEqual(['payment.created', 'invoice.updated', 'invoice.paid']);
    const posting = await entryOf(t.client, 'invoice_payment', issued.payments[0]!.id);
    expect(linesOf(posting)).toEqual({
      debits: [{ account: '2300', amount: 3_000, base_amount: 3_000 }],
      credits: [{ account: '1200', amount: 3_000, base_amount: 3_000 }],
    });
    expect((await customerOf(t)).credit_balance).toEqual({ USD: 20 });

    // The rest goes to the next invoice, which it pays in part; the balance is then empty.
    const next = await issueInvoice(t.client, (await draftOf(t, 100)).id);
    expect(next).toMatchObject({ status: 'unpaid', amount_paid: 20, amount_due: 80 });
    expect((await customerOf(t)).credit_balance).toEqual({});
    const after = await payInvoice(t.client, next.id, 80);
    expect(after.status).toBe('paid');
  });

  it('applies credit to invoices of its currency only, and when they are sent as well as issued', async () => {
    const t = await newTenant();
    await giveCredit(t, 25);
    const euros = await issueInvoice(t.client, (await draftOf(t, 10, { currency: 'EUR' })).id);
    expect(euros).toMatchObject({ amount_paid: 0, payments: [] });
    const draft = await draftOf(t, 10);
    const sent = (
      await unwrap(
        t.client.general.invoices.sendInvoice({ params: { id: draft.id }, body: { to: 'ada@example.com' } }),
      )
    ).data;
    expect(sent).toMatchObject({ status: 'paid', amount_paid: 10 });
    expect((await customerOf(t)).credit_balance).toEqual({ USD: 15 });
  });

  it('refuses to void a credit note whose customer credit was used (409), and voids one still unused', async () => {
    const t = await newTenant();
    const [first, second] = [await paidInvoice(t, 10), await paidInvoice(t, 3)];
    const used = await creditAll(t, first);
    await issueInvoice(t.client, (await draftOf(t, 4)).id);
    expectError(
      await t.client.general.creditNotes.voidCreditNote({ params: { id: used.id } }),
      409,
      'INVALID_STATE',
    );
    const unused = await creditAll(t, second);
    expect((await customerOf(t)).credit_balance).toEqual({ USD: 9 });
    await unwrap(t.client.general.creditNotes.voidCreditNote({ params: { id: unused.id } }));
    expect((await customerOf(t)).credit_balance).toEqual({ USD: 6 });
  });

  it(`takes from the balance one issue at a time, never below zero, ten issues at once (${where})`, async () => {
    const t = await newTenant();
    await giveCredit(t, 35);
    const drafts = await Promise.all(Array.from({ length: 10 }, () => draftOf(t, 10)));
    const answers = await Promise.all(
      drafts.map((d) => t.client.general.invoices.issueInvoice({ params: { id: d.id } })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    const invoices = await Promise.all(drafts.map((d) => getInvoice(t.client, d.id)));
    const applied = invoices.flatMap((i) => i.payments).filter((p) => p.payment_method === 'credit');
    expect(applied.reduce((sum, p) => sum + Math.round(p.amount * 100), 0)).toBe(3_500);
    expect(invoices.filter((i) => i.status === 'paid')).toHaveLength(3);
    expect(invoices.map((i) => i.amount_paid).sort((a, b) => a - b)).toEqual([
      0, 0, 0, 0, 0, 0, 5, 10, 10, 10,
    ]);
    expect((await customerOf(t)).credit_balance).toEqual({});
    const balance = await server()
      .deps.db.selectFrom('customer_credit_balances')
      .select('balance_minor')
      .where('business_id', '=', t.businessId)
      .executeTakeFirstOrThrow();
    expect(Number(balance.balance_minor)).toBe(0);
  });

  it('keeps the balance at zero or above in the database whatever the code does', async () => {
    const t = await newTenant();
    await giveCredit(t, 1);
    await expect(
      server()
        .deps.db.updateTable('customer_credit_balances')
        .set({ balance_minor: -1 })
        .where('business_id', '=', t.businessId)
        .execute(),
    ).rejects.toThrow(/check/i);
  });
});
