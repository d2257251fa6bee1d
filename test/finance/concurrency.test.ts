import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { unwrap, type finance, type general } from '../../client/index.js';
import { registerTenant, type TestTenant } from '../support/business.js';
import { onPostgres } from '../support/database.js';
import { outbox } from '../support/events.js';
import { expectResultError } from '../support/expect.js';
import {
  billOf,
  CASH_ACCOUNT,
  createEntry,
  expectTrialBalance,
  getBill,
  journal,
  move,
  payBill,
  voidBill,
  type Movements,
} from '../support/finance.js';
import { getInvoice, invoiceLine, issuedInvoice } from '../support/general.js';
import { useTestServer } from '../support/setup.js';

// A pool large enough that concurrent requests really run at once on PostgreSQL (the bill and
// invoice row locks, not the pool, serialise them). On PGlite the engine serialises everything, so
// the same properties hold trivially; the tests run there too, never skipped.
const server = useTestServer({ env: { DB_POOL_SIZE: '30', ACCESS_TOKEN_TTL: '3650d' }, worker: false });

beforeEach(() => server().clock.set('2026-11-21T09:00:00.000Z'));
afterEach(() => server().clock.reset());

const where = onPostgres ? 'on PostgreSQL, under real concurrency' : 'on PGlite, serialised by the engine';

const METHODS = ['bank_transfer', 'cash', 'check', 'mobile_money'] as const;
const cents = (major: number) => Math.round(major * 100);
const sum = (values: number[]) => values.reduce((x, y) => x + y, 0);

/** What the journal says on `account` about the entries of these sources: credits less debits. */
function netCredit(entries: finance.JournalEntry[], account: string, sources: Set<string>): number {
  const mine = entries.filter((e) => sources.has(e.source.id));
  const side = (lines: finance.JournalEntry['debits']) =>
    sum(lines.filter((l) => l.account === account).map((l) => l.amount));
  return sum(mine.map((e) => side(e.credits) - side(e.debits)));
}

/** `n` payments of `amount` on the bill, all at once, by the four methods in turn. */
const payAtOnce = (t: TestTenant, billId: string, n: number, amount: (i: number) => number) =>
  Promise.all(
    Array.from({ length: n }, (_, i) =>
      t.client.finance.bills.payBill({
        params: { id: billId },
        body: { amount: amount(i), payment_method: METHODS[i % 4]!, payment_date: '2026-11-20' },
      }),
    ),
  );

/**
 * The bill's payments are exactly the accepted ones, each posted once (Dr 2000 / Cr its cash
 * account, its amount), one payment.created each, and the payable of the bill nets to amount_due.
 */
async function expectBillConsistent(
  t: TestTenant,
  billId: string,
  accepted: string[],
): Promise<finance.Bill> {
  const bill = await getBill(t.client, billId);
  expect(bill.payments.map((p) => p.id).sort()).toEqual([...accepted].sort());
  expect(bill.amount_paid).toBe(sum(bill.payments.map((p) => p.amount)));
  expect(bill.amount_paid).toBeLessThanOrEqual(bill.amount);
  expect(bill.amount_due).toBe(bill.amount - bill.amount_paid);

  const entries = await journal(t.client);
  const postings = entries.filter((e) => e.source.type === 'bill_payment' && accepted.includes(e.source.id));
  expect(postings).toHaveLength(accepted.length);
  expect(new Set(postings.map((e) => e.source.id)).size).toBe(accepted.length);
  for (const payment of bill.payments) {
    const [posting] = postings.filter((e) => e.source.id === payment.id);
    expect(posting).toMatchObject({
      date: '2026-11-20',
      debits: [{ account: '2000', amount: payment.amount }],
      credits: [
        {
          account: CASH_ACCOUNT[payment.payment_method],
          amount: payment.amount,
        },
      ],
    });
  }
  expect(netCredit(entries, '2000', new Set([billId, ...accepted]))).toBe(bill.amount_due);

  const created = (await outbox(server(), t.businessId)).filter(
    (e) => e.type === 'payment.created' && (e.data as { bill_id?: string }).bill_id === billId,
  );
  expect(created.map((e) => (e.data as { id: string }).id).sort()).toEqual([...accepted].sort());
  return bill;
}

describe(`concurrent payments of one bill (${where})`, () => {
  it('20 payments of 700 on a bill of 10,000: 14 accepted, 6 refused 422, never overpaid; the payable nets to amount_due', async () => {
    const t = await registerTenant(server());
    const bill = await billOf(t.client, 10_000, { issue_date: '2026-11-01' });
    const responses = await payAtOnce(t, bill.id, 20, () => 700);

    const ok = responses.filter((res) => res.status === 200);
    const refused = responses.filter((res) => res.status !== 200);
    expect(ok).toHaveLength(14);
    for (const res of refused) expectResultError(res, 422, 'VALIDATION_ERROR', 'amount');
    const answers = await Promise.all(ok.map((res) => unwrap(res)));
    // Each payment saw the one before it: amount_due steps down by 700 from 9,300 to 200.
    expect(answers.map((a) => a.amount_due).sort((x, y) => y - x)).toEqual(
      Array.from({ length: 14 }, (_, i) => 9_300 - 700 * i),
    );
    expect(answers.every((a) => a.bill_status === 'pending')).toBe(true);

    const after = await expectBillConsistent(
      t,
      bill.id,
      answers.map((a) => a.payment_id),
    );
    expect(after).toMatchObject({ status: 'pending', amount_paid: 9_800, amount_due: 200 });
  });

  it.each([1, 2, 3])(
    'round %i: 20 payments of 1,000 on a bill of 10,000: exactly 10 accepted, then 409 as it is paid; the payable nets to 0',
    async () => {
      const t = await registerTenant(server());
      const bill = await billOf(t.client, 10_000, { issue_date: '2026-11-01' });
      const responses = await payAtOnce(t, bill.id, 20, () => 1_000);
      const ok = responses.filter((res) => res.status === 200);
      expect(ok).toHaveLength(10);
      for (const res of responses.filter((r) => r.status !== 200))
        expectResultError(res, 409, 'INVALID_STATE');
      const answers = await Promise.all(ok.map((res) => unwrap(res)));
      expect(answers.filter((a) => a.bill_status === 'paid')).toHaveLength(1);
      expect(answers.map((a) => a.amount_due).sort((x, y) => x - y)).toEqual(
        Array.from({ length: 10 }, (_, i) => 1_000 * i),
      );
      const after = await expectBillConsistent(
        t,
        bill.id,
        answers.map((a) => a.payment_id),
      );
      expect(after).toMatchObject({ status: 'paid', amount_paid: 10_000, amount_due: 0 });
    },
  );

  it('20 payments of mixed amounts (100 to 2,000): whatever is accepted adds up to at most the bill, the payable nets to amount_due', async () => {
    const t = await registerTenant(server());
    const bill = await billOf(t.client, 12_345, { issue_date: '2026-11-01' });
    const responses = await payAtOnce(t, bill.id, 20, (i) => 100 * (i + 1));
    const ok = responses.filter((res) => res.status === 200);
    for (const res of responses.filter((r) => r.status !== 200)) {
      expect([409, 422]).toContain(res.status);
    }
    const answers = await Promise.all(ok.map((res) => unwrap(res)));
    expect(answers.length).toBeGreaterThan(0);
    const after = await expectBillConsistent(
      t,
      bill.id,
      answers.map((a) => a.payment_id),
    );
    expect(Math.min(...answers.map((a) => a.amount_due))).toBe(after.amount_due);
  });

  it('a void racing 10 payments: either the void wins and no payment is taken, or payments are taken and the void is refused', async () => {
    const t = await registerTenant(server());
    const bill = await billOf(t.client, 5_000, { issue_date: '2026-11-01' });
    const [voided, ...payments] = await Promise.all([
      t.client.finance.bills.voidBill({ params: { id: bill.id } }),
      ...Array.from({ length: 10 }, () =>
        t.client.finance.bills.payBill({
          params: { id: bill.id },
          body: { amount: 100, payment_method: 'cash', payment_date: '2026-11-20' },
        }),
      ),
    ]);
    const accepted = payments.filter((res) => res.status === 200);
    const after = await getBill(t.client, bill.id);
    if (voided.status === 200) {
      expect(after.status).toBe('void');
      expect(after.payments).toEqual([]);
      for (const res of payments) expectResultError(res, 409, 'INVALID_STATE');
    } else {
      expectResultError(voided, 409, 'INVALID_STATE');
      expect(after.status).toBe('pending');
      expect(accepted.length).toBeGreaterThan(0);
    }
    const ids = await Promise.all(accepted.map(async (res) => (await unwrap(res)).payment_id));
    const entries = await journal(t.client);
    expect(netCredit(entries, '2000', new Set([bill.id, ...ids]))).toBe(after.amount_due);
  });
});

describe(`concurrent invoice payments (${where})`, () => {
  it('20 payments of 15.00 on an invoice of 200.00: each accepted payment posted exactly once, 1200 nets to amount_due', async () => {
    const t = await registerTenant(server());
    const invoice = await issuedInvoice(t.client, {
      customer_id: t.customerId,
      issue_date: '2026-11-02',
      items: [invoiceLine({ unit_price: 200 })],
    });
    const methods: general.CreatePaymentBody['payment_method'][] = ['card', 'cash', 'mobile_money', 'check'];
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.client.general.invoices.createPayment({
          params: { id: invoice.id },
          body: { amount: 15, payment_method: methods[i % 4]!, payment_date: '2026-11-19' },
        }),
      ),
    );
    const ok = responses.filter((res) => res.status === 201);
    expect(ok).toHaveLength(13);
    for (const res of responses.filter((r) => r.status !== 201)) expect(res.status).toBe(422);

    const after = await getInvoice(t.client, invoice.id);
    expect(after.payments).toHaveLength(13);
    expect(cents(after.amount_due)).toBe(500);
    const paymentIds = after.payments.map((p) => p.id);
    const entries = await journal(t.client);
    const postings = entries.filter((e) => e.source.type === 'invoice_payment');
    expect(postings.map((e) => e.source.id).sort()).toEqual([...paymentIds].sort());
    for (const payment of after.payments) {
      const posting = postings.find((e) => e.source.id === payment.id);
      expect(posting).toMatchObject({
        date: '2026-11-19',
        debits: [
          {
            account: CASH_ACCOUNT[payment.payment_method as keyof typeof CASH_ACCOUNT],
            amount: 1_500,
          },
        ],
        credits: [{ account: '1200', amount: 1_500 }],
      });
    }
    expect(entries.filter((e) => e.source.type === 'invoice')).toHaveLength(1);
    expect(-netCredit(entries, '1200', new Set([invoice.id, ...paymentIds]))).toBe(cents(after.amount_due));
  });

  it('payments that complete an invoice at once: one is accepted as the last, the invoice is paid once, 1200 nets to zero', async () => {
    const t = await registerTenant(server());
    const invoice = await issuedInvoice(t.client, {
      customer_id: t.customerId,
      issue_date: '2026-11-02',
      items: [invoiceLine({ unit_price: 100 })],
    });
    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        t.client.general.invoices.createPayment({
          params: { id: invoice.id },
          body: { amount: 100, payment_method: 'bank_transfer', payment_date: '2026-11-19' },
        }),
      ),
    );
    expect(responses.filter((res) => res.status === 201)).toHaveLength(1);
    for (const res of responses.filter((r) => r.status !== 201)) expect(res.status).toBe(409);
    const after = await getInvoice(t.client, invoice.id);
    expect(after.status).toBe('paid');
    const entries = await journal(t.client);
    expect(entries.filter((e) => e.source.type === 'invoice_payment').map((e) => e.source.id)).toEqual([
      after.payments[0]!.id,
    ]);
    expect(netCredit(entries, '1200', new Set([invoice.id, after.payments[0]!.id]))).toBe(0);
  });
});

describe(`every kind of posting of one business at once (${where})`, () => {
  it('bills, payments, voids, invoice payments and manual entries on the same days all post; the trial balance balances', async () => {
    const t = await registerTenant(server());
    const bills = await Promise.all(
      Array.from({ length: 6 }, (_, i) => billOf(t.client, 1_000 * (i + 1), { issue_date: '2026-11-03' })),
    );
    const invoices = await Promise.all(
      Array.from({ length: 4 }, () =>
        issuedInvoice(t.client, {
          customer_id: t.customerId,
          issue_date: '2026-11-03',
          items: [invoiceLine({ unit_price: 50, tax_rate: 10 })],
        }),
      ),
    );
    const [toVoid, ...toPay] = bills;
    const results = await Promise.all([
      voidBill(t.client, toVoid!.id),
      ...toPay.map((bill, i) =>
        payBill(t.client, bill.id, bill.amount, {
          payment_method: METHODS[i % 4]!,
          payment_date: '2026-11-10',
        }),
      ),
      ...invoices.map((invoice) =>
        unwrap(
          t.client.general.invoices.createPayment({
            params: { id: invoice.id },
            body: { amount: 55, payment_method: 'cash', payment_date: '2026-11-10' },
          }),
        ),
      ),
      ...Array.from({ length: 6 }, (_, i) =>
        createEntry(t.client, { date: i % 2 ? '2026-11-10' : '2026-11-03' }),
      ),
      ...Array.from({ length: 3 }, () => billOf(t.client, 700, { issue_date: '2026-11-10' })),
    ]);
    expect(results).toHaveLength(1 + 5 + 4 + 6 + 3);

    const expected: Movements = {};
    for (const bill of [...bills, ...(results.slice(-3) as finance.Bill[])]) {
      move(expected, '5000', 'debit', bill.amount);
      move(expected, '2000', 'credit', bill.amount);
    }
    move(expected, '2000', 'debit', toVoid!.amount);
    move(expected, '5000', 'credit', toVoid!.amount);
    toPay.forEach((bill, i) => {
      move(expected, '2000', 'debit', bill.amount);
      move(expected, CASH_ACCOUNT[METHODS[i % 4]!], 'credit', bill.amount);
    });
    for (const invoice of invoices) {
      move(expected, '1200', 'debit', cents(invoice.total));
      move(expected, '4000', 'credit', cents(invoice.subtotal));
      move(expected, '2200', 'credit', cents(invoice.tax));
      move(expected, '1000', 'debit', 5_500);
      move(expected, '1200', 'credit', 5_500);
    }
    for (let i = 0; i < 6; i++) {
      move(expected, '1010', 'debit', 5_000);
      move(expected, '1000', 'credit', 5_000);
    }
    const tb = await expectTrialBalance(t.client, expected);
    expect(tb.accounts.find((x) => x.code === '2000')?.balance).toBe(3 * 700);
    expect(tb.accounts.find((x) => x.code === '1200')?.balance).toBe(0);
  });
});
