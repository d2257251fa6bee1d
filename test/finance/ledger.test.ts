import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { unwrap, type finance, type general } from '../../client/index.js';
import { raw, registerTenant, type TestTenant } from '../support/business.js';
import { expectResultError, itemAt } from '../support/expect.js';
import {
  approveBill,
  billItem,
  billOf,
  CASH_ACCOUNT,
  createBill,
  createEntry,
  createVendor,
  DEFAULT_CHART,
  entriesOf,
  entryOf,
  expectTrialBalance,
  getBill,
  journal,
  move,
  payBill,
  trialBalance,
  voidBill,
  type Movements,
} from '../support/finance.js';
import {
  createInvoice,
  getInvoice,
  invoiceLine,
  issuedInvoice,
  issueInvoice,
  payInvoice,
  voidInvoice,
} from '../support/general.js';
import { setRate } from '../support/finance.js';
import { useTestServer } from '../support/setup.js';
import { updateBusiness } from '../support/auth.js';

// Tokens outlive the clock moves below.
const server = useTestServer({ env: { ACCESS_TOKEN_TTL: '3650d' }, worker: false });

const NOW = '2026-11-21T09:00:00.000Z';
const TODAY = '2026-11-21';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

beforeEach(() => server().clock.set(NOW));
afterEach(() => server().clock.reset());

/** A business of its own for each test, so its trial balance holds only what the test posts. */
const newTenant = () => registerTenant(server());

/** USD major units as the general group answers them, in minor units. */
const cents = (major: number) => Math.round(major * 100);

/** An issued USD invoice of the tenant's customer dated `issue_date`, one line of `price` at `tax_rate`%. */
const invoiceOf = (t: TestTenant, price: number, tax_rate = 0, issue_date = '2026-11-10') =>
  issuedInvoice(t.client, {
    customer_id: t.customerId,
    issue_date,
    items: [invoiceLine({ unit_price: price, tax_rate })],
  });

/** The entry exactly as the journal answers it. */
type LineOf = { account: string; amount: number; base_amount?: number };

/** A line in the base currency: its base amount is its amount (docs/decisions.md D278). */
const inBase = (lines: LineOf[]) => lines.map((l) => ({ base_amount: l.amount, ...l }));

/** An entry exactly; in USD at rate 1 unless told, each line's base amount its amount unless told. */
const entry = (
  fields: Pick<finance.JournalEntry, 'date' | 'description' | 'source'> & {
    debits: LineOf[];
    credits: LineOf[];
    currency?: string;
    exchange_rate?: string;
  },
) => ({
  id: expect.stringMatching(/^je_/),
  currency: 'USD',
  exchange_rate: '1',
  created_at: expect.stringMatching(ISO),
  ...fields,
  debits: inBase(fields.debits),
  credits: inBase(fields.credits),
});

describe('the default chart of accounts', () => {
  it('is made with each business: its system accounts, by code', async () => {
    const t = await newTenant();
    const res = await t.client.finance.accounts.listAccounts();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', accounts: DEFAULT_CHART });
  });

  it('has a trial balance of zeros before anything is posted, as of today in USD', async () => {
    const t = await newTenant();
    const tb = await expectTrialBalance(t.client, {});
    expect(tb).toMatchObject({ as_of: TODAY, currency: 'USD', total_debit: 0, total_credit: 0 });
    expect(await journal(t.client)).toEqual([]);
  });
});

describe('bills on the ledger', () => {
  it('posts a pending bill Dr 5000 Expenses / Cr 2000 Accounts payable on its issue date', async () => {
    const t = await newTenant();
    const bill = await createBill(t.client, { issue_date: '2026-11-03' });
    expect(await entryOf(t.client, 'bill', bill.id)).toEqual(
      entry({
        date: '2026-11-03',
        description: 'Bill from Acme Supplies',
        debits: [{ account: '5000', amount: 11996 }],
        credits: [{ account: '2000', amount: 11996 }],
        source: { type: 'bill', id: bill.id },
      }),
    );
    await expectTrialBalance(t.client, { '5000': { debit: 11996 }, '2000': { credit: 11996 } });
  });

  it('posts a draft only when approved, on its issue date, not on the approval day', async () => {
    const t = await newTenant();
    const draft = await billOf(t.client, 4_200, { status: 'draft', issue_date: '2026-11-01' });
    expect(await journal(t.client)).toEqual([]);
    await expectTrialBalance(t.client, {});
    await approveBill(t.client, draft.id);
    const posted = await entryOf(t.client, 'bill', draft.id);
    expect(posted).toMatchObject({ date: '2026-11-01', debits: [{ account: '5000', amount: 4_200 }] });
    await expectTrialBalance(t.client, { '5000': { debit: 4_200 }, '2000': { credit: 4_200 } });
  });

  it.each([
    ['cash', '1000'],
    ['bank_transfer', '1010'],
    ['check', '1010'],
    ['mobile_money', '1020'],
  ] as const)(
    'posts a payment by %s Dr 2000 Accounts payable / Cr %s on its payment_date',
    async (payment_method, account) => {
      const t = await newTenant();
      const bill = await billOf(t.client, 10_000, { issue_date: '2026-11-02' });
      const { payment_id } = await payBill(t.client, bill.id, 3_500, {
        payment_method,
        payment_date: '2026-11-15',
      });
      expect(await entryOf(t.client, 'bill_payment', payment_id)).toEqual(
        entry({
          date: '2026-11-15',
          description: 'Payment to Acme Supplies',
          debits: [{ account: '2000', amount: 3_500 }],
          credits: [{ account, amount: 3_500 }],
          source: { type: 'bill_payment', id: payment_id },
        }),
      );
      await expectTrialBalance(t.client, {
        '5000': { debit: 10_000 },
        '2000': { debit: 3_500, credit: 10_000 },
        [account]: { credit: 3_500 },
      });
      const payable = (await trialBalance(t.client)).accounts.find((a) => a.code === '2000');
      expect(payable?.balance).toBe((await getBill(t.client, bill.id)).amount_due);
    },
  );

  it('posts each payment of a bill paid in parts, and the payable nets to zero once it is paid', async () => {
    const t = await newTenant();
    const bill = await billOf(t.client, 9_000, { issue_date: '2026-11-01' });
    const first = await payBill(t.client, bill.id, 4_000, {
      payment_method: 'cash',
      payment_date: '2026-11-05',
    });
    const second = await payBill(t.client, bill.id, 5_000, {
      payment_method: 'check',
      payment_date: '2026-11-06',
    });
    expect(second.bill_status).toBe('paid');
    const dates = (await journal(t.client)).map((e) => [e.date, e.source.type, e.source.id]);
    expect(dates).toEqual([
      ['2026-11-06', 'bill_payment', second.payment_id],
      ['2026-11-05', 'bill_payment', first.payment_id],
      ['2026-11-01', 'bill', bill.id],
    ]);
    const tb = await expectTrialBalance(t.client, {
      '5000': { debit: 9_000 },
      '2000': { debit: 9_000, credit: 9_000 },
      '1000': { credit: 4_000 },
      '1010': { credit: 5_000 },
    });
    expect(tb.accounts.find((a) => a.code === '2000')?.balance).toBe(0);
  });

  it('reverses a voided bill exactly (Dr 2000 / Cr 5000), dated on the day of the void, with the bill as source', async () => {
    const t = await newTenant();
    const bill = await billOf(t.client, 7_300, { issue_date: '2026-11-02' });
    server().clock.set('2026-11-22T15:00:00.000Z');
    await voidBill(t.client, bill.id);
    expect(await entryOf(t.client, 'void', bill.id)).toEqual(
      entry({
        date: '2026-11-22',
        description: 'Void of bill from Acme Supplies',
        debits: [{ account: '2000', amount: 7_300 }],
        credits: [{ account: '5000', amount: 7_300 }],
        source: { type: 'void', id: bill.id },
      }),
    );
    await expectTrialBalance(t.client, {
      '5000': { debit: 7_300, credit: 7_300 },
      '2000': { debit: 7_300, credit: 7_300 },
    });
    // The day before the void, only the bill is on the books.
    await expectTrialBalance(
      t.client,
      { '5000': { debit: 7_300 }, '2000': { credit: 7_300 } },
      { as_of: '2026-11-21' },
    );
  });

  it('posts a bill in its own currency, converted in the books at the rate of its date', async () => {
    const t = await newTenant();
    await setRate(t, 'EUR', '2026-11-01', '1.1');
    const bill = await billOf(t.client, 5_000, { currency: 'EUR', issue_date: '2026-11-02' });
    const { payment_id } = await payBill(t.client, bill.id, 2_000, { payment_method: 'cash' });
    expect((await entryOf(t.client, 'bill', bill.id)).currency).toBe('EUR');
    expect((await entryOf(t.client, 'bill_payment', payment_id)).currency).toBe('EUR');
    // The books in the base currency: every line at the rate it posted at (1.1 throughout).
    await expectTrialBalance(
      t.client,
      { '5000': { debit: 5_500 }, '2000': { debit: 2_200, credit: 5_500 }, '1000': { credit: 2_200 } },
      { as_of: '2026-12-31' },
    );
    await expectTrialBalance(t.client, {}, { currency: 'USD', as_of: '2026-12-31' });
    const eur = await expectTrialBalance(
      t.client,
      { '5000': { debit: 5_000 }, '2000': { debit: 2_000, credit: 5_000 }, '1000': { credit: 2_000 } },
      { currency: 'EUR', as_of: '2026-12-31' },
    );
    expect(eur).toMatchObject({ currency: 'EUR', as_of: '2026-12-31' });
  });

  it('posts nothing for a draft that is deleted or a bill whose change is refused', async () => {
    const t = await newTenant();
    const draft = await createBill(t.client, { status: 'draft' });
    await unwrap(t.client.finance.bills.deleteBill({ params: { id: draft.id } }));
    const bill = await billOf(t.client, 100);
    const refused = await t.client.finance.bills.payBill({
      params: { id: bill.id },
      body: { amount: 101, payment_method: 'cash', payment_date: TODAY },
    });
    expect(refused.status).toBe(422);
    expect((await journal(t.client)).map((e) => e.source)).toEqual([{ type: 'bill', id: bill.id }]);
  });
});

describe('invoices on the ledger', () => {
  it('posts an issued invoice Dr 1200 total / Cr 4000 subtotal / Cr 2200 tax on its issue date', async () => {
    const t = await newTenant();
    const invoice = await invoiceOf(t, 150, 20, '2026-11-12');
    expect(invoice).toMatchObject({ subtotal: 150, tax: 30, total: 180 });
    expect(await entryOf(t.client, 'invoice', invoice.id)).toEqual(
      entry({
        date: '2026-11-12',
        description: `Invoice ${invoice.number}`,
        debits: [{ account: '1200', amount: 18_000 }],
        credits: [
          { account: '4000', amount: 15_000 },
          { account: '2200', amount: 3_000 },
        ],
        source: { type: 'invoice', id: invoice.id },
      }),
    );
    await expectTrialBalance(t.client, {
      '1200': { debit: 18_000 },
      '4000': { credit: 15_000 },
      '2200': { credit: 3_000 },
    });
  });

  it('posts no 2200 line for an invoice without tax', async () => {
    const t = await newTenant();
    const invoice = await invoiceOf(t, 99.99);
    const posted = await entryOf(t.client, 'invoice', invoice.id);
    expect(posted.debits).toEqual(inBase([{ account: '1200', amount: 9_999 }]));
    expect(posted.credits).toEqual(inBase([{ account: '4000', amount: 9_999 }]));
  });

  it('posts the rounded tax of several lines so that the entry balances to the invoice total', async () => {
    const t = await newTenant();
    const invoice = await issuedInvoice(t.client, {
      customer_id: t.customerId,
      issue_date: '2026-11-11',
      items: [
        invoiceLine({ unit_price: 0.05, tax_rate: 10 }),
        invoiceLine({ unit_price: 0.05, tax_rate: 10 }),
        invoiceLine({ quantity: 3, unit_price: 33.33, tax_rate: 7.5 }),
      ],
    });
    const posted = await entryOf(t.client, 'invoice', invoice.id);
    expect(posted.debits).toEqual(inBase([{ account: '1200', amount: cents(invoice.total) }]));
    expect(posted.credits).toEqual(
      inBase([
        { account: '4000', amount: cents(invoice.subtotal) },
        { account: '2200', amount: cents(invoice.tax) },
      ]),
    );
    expect(cents(invoice.subtotal) + cents(invoice.tax)).toBe(cents(invoice.total));
  });

  it('defaults the posting date to the day the invoice is issued', async () => {
    const t = await newTenant();
    const draft = await createInvoice(t.client, { customer_id: t.customerId });
    expect(await journal(t.client)).toEqual([]);
    server().clock.set('2026-11-23T08:00:00.000Z');
    await issueInvoice(t.client, draft.id);
    expect((await entryOf(t.client, 'invoice', draft.id)).date).toBe('2026-11-23');
  });

  it.each(Object.entries(CASH_ACCOUNT))(
    'posts an invoice payment by %s Dr %s / Cr 1200 on its payment_date',
    async (method, account) => {
      const t = await newTenant();
      const invoice = await invoiceOf(t, 200);
      const paid = await payInvoice(t.client, invoice.id, 80.5, {
        payment_method: method as general.CreatePaymentBody['payment_method'],
        payment_date: '2026-11-18',
      });
      const payment = itemAt(paid.payments, 0);
      expect(await entryOf(t.client, 'invoice_payment', payment.id)).toEqual(
        entry({
          date: '2026-11-18',
          description: `Payment of invoice ${invoice.number}`,
          debits: [{ account, amount: 8_050 }],
          credits: [{ account: '1200', amount: 8_050 }],
          source: { type: 'invoice_payment', id: payment.id },
        }),
      );
      const tb = await expectTrialBalance(t.client, {
        '1200': { debit: 20_000, credit: 8_050 },
        '4000': { credit: 20_000 },
        [account]: { debit: 8_050 },
      });
      expect(tb.accounts.find((a) => a.code === '1200')?.balance).toBe(cents(paid.amount_due));
    },
  );

  it('reverses a voided issued invoice (source void, the invoice id) on the day of the void', async () => {
    const t = await newTenant();
    const invoice = await invoiceOf(t, 50, 10, '2026-11-05');
    server().clock.set('2026-11-25T12:00:00.000Z');
    await voidInvoice(t.client, invoice.id);
    expect(await entryOf(t.client, 'void', invoice.id)).toEqual(
      entry({
        date: '2026-11-25',
        description: `Void of invoice ${invoice.number}`,
        debits: [
          { account: '4000', amount: 5_000 },
          { account: '2200', amount: 500 },
        ],
        credits: [{ account: '1200', amount: 5_500 }],
        source: { type: 'void', id: invoice.id },
      }),
    );
    await expectTrialBalance(t.client, {
      '1200': { debit: 5_500, credit: 5_500 },
      '4000': { debit: 5_000, credit: 5_000 },
      '2200': { debit: 500, credit: 500 },
    });
  });

  it('posts nothing for a draft invoice, nor for voiding one', async () => {
    const t = await newTenant();
    const draft = await createInvoice(t.client, { customer_id: t.customerId });
    await voidInvoice(t.client, draft.id);
    expect(await journal(t.client)).toEqual([]);
    await expectTrialBalance(t.client, {});
  });

  it('posts an invoice in its currency; the USD view leaves it out, the books convert it', async () => {
    const t = await newTenant();
    await setRate(t, 'JPY', '2026-11-01', '0.0065');
    const invoice = await issuedInvoice(t.client, {
      customer_id: t.customerId,
      currency: 'JPY',
      issue_date: '2026-11-10',
      items: [invoiceLine({ unit_price: 12_000 })],
    });
    const posted = await entryOf(t.client, 'invoice', invoice.id);
    expect(posted).toMatchObject({
      currency: 'JPY',
      exchange_rate: '0.0065',
      debits: [{ account: '1200', amount: 12_000, base_amount: 7_800 }],
    });
    await expectTrialBalance(t.client, {}, { currency: 'USD' });
    await expectTrialBalance(t.client, { '1200': { debit: 7_800 }, '4000': { credit: 7_800 } });
    await expectTrialBalance(
      t.client,
      { '1200': { debit: 12_000 }, '4000': { credit: 12_000 } },
      { currency: 'JPY' },
    );
  });
});

describe('the trial balance', () => {
  it('counts only entries dated on or before as_of', async () => {
    const t = await newTenant();
    await billOf(t.client, 1_000, { issue_date: '2026-11-01' });
    await billOf(t.client, 2_000, { issue_date: '2026-11-10' });
    await billOf(t.client, 4_000, { issue_date: '2026-11-20', due_date: '2026-12-31' });
    const at = async (as_of: string) =>
      (await trialBalance(t.client, { as_of })).accounts.find((a) => a.code === '5000')?.debit;
    expect(await at('2026-10-31')).toBe(0);
    expect(await at('2026-11-01')).toBe(1_000);
    expect(await at('2026-11-09')).toBe(1_000);
    expect(await at('2026-11-10')).toBe(3_000);
    expect(await at('2026-11-20')).toBe(7_000);
    expect((await trialBalance(t.client)).accounts.find((a) => a.code === '5000')?.debit).toBe(7_000);
  });

  it('leaves out entries dated after today by default and counts them once as_of reaches them', async () => {
    const t = await newTenant();
    await createEntry(t.client, { date: '2026-12-15' });
    await expectTrialBalance(t.client, {});
    await expectTrialBalance(
      t.client,
      { '1010': { debit: 5000 }, '1000': { credit: 5000 } },
      { as_of: '2026-12-15' },
    );
  });

  it("defaults to the business's base currency, as manual entries do, converting the other currencies", async () => {
    const t = await newTenant();
    await updateBusiness(t.client, { base_currency: 'EUR' });
    expect((await createEntry(t.client, { date: '2026-11-02' })).currency).toBe('EUR');
    await setRate(t, 'USD', '2026-11-01', '0.9');
    await billOf(t.client, 300, { currency: 'USD', issue_date: '2026-11-02' });
    const tb = await expectTrialBalance(t.client, {
      '1010': { debit: 5000 },
      '1000': { credit: 5000 },
      '5000': { debit: 270 },
      '2000': { credit: 270 },
    });
    expect(tb.currency).toBe('EUR');
    await expectTrialBalance(
      t.client,
      { '1010': { debit: 5000 }, '1000': { credit: 5000 } },
      { currency: 'EUR' },
    );
    await expectTrialBalance(
      t.client,
      { '5000': { debit: 300 }, '2000': { credit: 300 } },
      { currency: 'USD' },
    );
  });

  it('lists accounts the business added, with zeros until used, and their balances on the normal side', async () => {
    const t = await newTenant();
    await unwrap(
      t.client.finance.accounts.createAccount({ body: { code: '3000', name: 'Equity', type: 'equity' } }),
    );
    await unwrap(
      t.client.finance.accounts.createAccount({ body: { code: '6100', name: 'Rent', type: 'expense' } }),
    );
    await expectTrialBalance(t.client, {});
    await createEntry(t.client, {
      date: '2026-11-02',
      debits: [{ account: '1010', amount: 50_000 }],
      credits: [{ account: '3000', amount: 50_000 }],
    });
    await createEntry(t.client, {
      date: '2026-11-03',
      debits: [{ account: '6100', amount: 12_000 }],
      credits: [{ account: '1010', amount: 12_000 }],
    });
    const tb = await expectTrialBalance(t.client, {
      '1010': { debit: 50_000, credit: 12_000 },
      '3000': { credit: 50_000 },
      '6100': { debit: 12_000 },
    });
    const balance = (code: string) => tb.accounts.find((a) => a.code === code)?.balance;
    expect([balance('1010'), balance('3000'), balance('6100')]).toEqual([38_000, 50_000, 12_000]);
  });

  it.each([
    ['as_of=2026-02-30', 'as_of'],
    ['as_of=yesterday', 'as_of'],
    ['currency=usd', 'currency'],
    ['currency=ABC', 'currency'],
  ])('refuses %s (422 naming the parameter)', async (query, field) => {
    const t = await newTenant();
    const res = await raw(server(), 'GET', `/v1/finance/trial-balance?${query}`, { token: t.accessToken });
    expectResultError(res, 422, 'VALIDATION_ERROR', field);
  });
});

describe('a mixed run of every document type', () => {
  it('balances, and each account holds what the documents imply', async () => {
    const t = await newTenant();
    const c = t.client;
    const expected: Movements = {};
    const vendor = await createVendor(c, { name: 'Globex' });

    // Bills: pending, approved draft, paid in parts by cash and mobile money, paid in full by
    // check, voided, and a draft left unposted.
    const pending = await billOf(c, 12_345, { vendor_id: vendor.id, issue_date: '2026-11-01' });
    const approved = await billOf(c, 20_000, {
      vendor_id: vendor.id,
      status: 'draft',
      issue_date: '2026-11-02',
    });
    await approveBill(c, approved.id);
    const parts = await createBill(c, {
      vendor_id: vendor.id,
      issue_date: '2026-11-03',
      items: [billItem({ quantity: 1.5, unit_price: 1001 }), billItem({ quantity: 2, unit_price: 2_500 })],
    });
    const full = await billOf(c, 8_000, { vendor_id: vendor.id, issue_date: '2026-11-04' });
    const voided = await billOf(c, 3_333, { vendor_id: vendor.id, issue_date: '2026-11-05' });
    const draft = await billOf(c, 999, { vendor_id: vendor.id, status: 'draft' });
    const billPayments: { amount: number; method: keyof typeof CASH_ACCOUNT }[] = [];
    const payBillBy = async (
      id: string,
      amount: number,
      method: 'cash' | 'check' | 'mobile_money' | 'bank_transfer',
    ) => {
      await payBill(c, id, amount, { payment_method: method, payment_date: '2026-11-15' });
      billPayments.push({ amount, method });
    };
    await payBillBy(parts.id, 2_000, 'cash');
    await payBillBy(parts.id, 1_000, 'mobile_money');
    await payBillBy(full.id, 8_000, 'check');
    await payBillBy(approved.id, 5_000, 'bank_transfer');
    await voidBill(c, voided.id);

    // Invoices: with and without tax, paid by card, part paid in cash, voided, and a draft.
    const taxed = await invoiceOf(t, 400, 20, '2026-11-06');
    const plain = await invoiceOf(t, 250, 0, '2026-11-07');
    const part = await invoiceOf(t, 99.99, 5, '2026-11-08');
    const voidedInvoice = await invoiceOf(t, 60, 10, '2026-11-09');
    await createInvoice(c, { customer_id: t.customerId });
    const invoicePayments: { amount: number; method: keyof typeof CASH_ACCOUNT }[] = [];
    const payInvoiceBy = async (id: string, amount: number, method: 'card' | 'cash' | 'mobile_money') => {
      await payInvoice(c, id, amount, { payment_method: method, payment_date: '2026-11-16' });
      invoicePayments.push({ amount: cents(amount), method });
    };
    await payInvoiceBy(taxed.id, taxed.total, 'card');
    await payInvoiceBy(part.id, 50, 'cash');
    await payInvoiceBy(plain.id, 100, 'mobile_money');
    await voidInvoice(c, voidedInvoice.id);

    // A manual entry, and one in another currency that the USD view leaves out.
    await createEntry(c, {
      date: '2026-11-17',
      debits: [{ account: '1010', amount: 30_000 }],
      credits: [{ account: '1000', amount: 30_000 }],
    });
    await setRate(t, 'EUR', '2026-11-17', '1.1');
    await createEntry(c, { date: '2026-11-17', currency: 'EUR' });

    // What the documents imply, from what the API answered about them.
    for (const bill of [pending, approved, parts, full, voided]) {
      move(expected, '5000', 'debit', bill.amount);
      move(expected, '2000', 'credit', bill.amount);
    }
    move(expected, '2000', 'debit', voided.amount);
    move(expected, '5000', 'credit', voided.amount);
    for (const p of billPayments) {
      move(expected, '2000', 'debit', p.amount);
      move(expected, CASH_ACCOUNT[p.method], 'credit', p.amount);
    }
    for (const invoice of [taxed, plain, part, voidedInvoice]) {
      move(expected, '1200', 'debit', cents(invoice.total));
      move(expected, '4000', 'credit', cents(invoice.subtotal));
      if (invoice.tax > 0) move(expected, '2200', 'credit', cents(invoice.tax));
    }
    move(expected, '1200', 'credit', cents(voidedInvoice.total));
    move(expected, '4000', 'debit', cents(voidedInvoice.subtotal));
    move(expected, '2200', 'debit', cents(voidedInvoice.tax));
    for (const p of invoicePayments) {
      move(expected, CASH_ACCOUNT[p.method], 'debit', p.amount);
      move(expected, '1200', 'credit', p.amount);
    }
    move(expected, '1010', 'debit', 30_000);
    move(expected, '1000', 'credit', 30_000);

    const tb = await expectTrialBalance(c, expected, { currency: 'USD' });
    expect(tb.total_debit).toBe(tb.total_credit);
    expect(tb.total_debit).toBeGreaterThan(0);

    // Each balance is what the documents, as read back now, say it should be.
    const balance = (code: string) => tb.accounts.find((a) => a.code === code)?.balance;
    const bills = await Promise.all(
      [pending, approved, parts, full, voided, draft].map((b) => getBill(c, b.id)),
    );
    const posted = bills.filter((b) => b.status !== 'void' && b.status !== 'draft');
    const sum = (values: number[]) => values.reduce((x, y) => x + y, 0);
    expect(balance('2000')).toBe(sum(posted.map((b) => b.amount_due)));
    expect(balance('5000')).toBe(sum(posted.map((b) => b.amount)));
    const invoices = await Promise.all([taxed, plain, part, voidedInvoice].map((i) => getInvoice(c, i.id)));
    const live = invoices.filter((i) => i.status !== 'void');
    expect(balance('1200')).toBe(sum(live.map((i) => cents(i.amount_due))));
    expect(balance('4000')).toBe(sum(live.map((i) => cents(i.subtotal))));
    expect(balance('2200')).toBe(sum(live.map((i) => cents(i.tax))));
    const moneyIn = (account: string) =>
      sum(invoicePayments.filter((p) => CASH_ACCOUNT[p.method] === account).map((p) => p.amount)) -
      sum(billPayments.filter((p) => CASH_ACCOUNT[p.method] === account).map((p) => p.amount));
    expect(balance('1000')).toBe(moneyIn('1000') - 30_000);
    expect(balance('1010')).toBe(moneyIn('1010') + 30_000);
    expect(balance('1020')).toBe(moneyIn('1020'));

    // Every document posted once, the draft bill and the draft invoice not at all.
    const entries = await journal(c);
    const kinds = entries.filter((e) => e.currency === 'USD').map((e) => e.source.type);
    const count = (type: string) => kinds.filter((k) => k === type).length;
    expect([count('bill'), count('bill_payment'), count('invoice'), count('invoice_payment')]).toEqual([
      5,
      billPayments.length,
      4,
      invoicePayments.length,
    ]);
    expect(count('void')).toBe(2);
    expect(count('manual')).toBe(1);
    expect(await entriesOf(c, draft.id)).toEqual([]);
    // Every entry balances on its own.
    for (const e of entries) {
      expect(sum(e.debits.map((l) => l.amount)), e.id).toBe(sum(e.credits.map((l) => l.amount)));
    }
  });
});
