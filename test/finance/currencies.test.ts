import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import { registerTenant, type TestTenant } from '../support/business.js';
import { expectError, expectResultError } from '../support/expect.js';
import { billOf, entryOf, journal, payBill, setRate } from '../support/finance.js';
import {
  createCreditNote,
  createInvoice,
  getInvoice,
  invoiceLine,
  issuedInvoice,
  payInvoice,
} from '../support/general.js';
import { useTestServer } from '../support/setup.js';

/**
 * Several currencies (docs/decisions.md D278), in a business whose base currency is USD: rates to
 * the base, every journal line with its base amount, realised differences on payments at another
 * rate, revaluation and its reversal, and the reports in the base currency.
 */

// Tokens outlive the frozen clock.
const server = useTestServer({ worker: false, env: { ACCESS_TOKEN_TTL: '3650d' } });

beforeEach(() => server().clock.set('2026-12-05T09:00:00.000Z'));
afterEach(() => server().clock.reset());

const rates = (t: TestTenant) => t.client.finance.exchangeRates;

/** An issued invoice of one line of `price` (major units) in `currency`, dated `date`. */
const invoiceIn = (t: TestTenant, currency: string, price: number, date: string) =>
  issuedInvoice(t.client, {
    customer_id: t.customerId,
    currency,
    issue_date: date,
    items: [invoiceLine({ unit_price: price })],
  });

const line = (account: string, amount: number, base_amount: number) => ({ account, amount, base_amount });

async function trialBalanceOf(t: TestTenant, query: { as_of?: string; currency?: string } = {}) {
  return (await unwrap(t.client.finance.accounts.getTrialBalance({ query }))).data;
}

describe('exchange rates', () => {
  it('are set per currency and day, written plainly, replaced on the same day, listed and looked up', async () => {
    const t = await registerTenant(server());
    expect(await setRate(t, 'EUR', '2026-11-02', '1.0500')).toMatchObject({
      currency: 'EUR',
      date: '2026-11-02',
      rate: '1.05',
      source: 'manual',
    });
    await setRate(t, 'EUR', '2026-11-10', 1.08);
    await setRate(t, 'GBP', '2026-11-10', '1.2634');
    expect((await setRate(t, 'EUR', '2026-11-10', '1.0812')).rate).toBe('1.0812');

    const listed = await unwrap(rates(t).listExchangeRates({ query: { currency: 'EUR' } }));
    expect(listed.total_count).toBe(2);
    expect(listed.exchange_rates.map((r) => [r.date, r.rate])).toEqual([
      ['2026-11-10', '1.0812'],
      ['2026-11-02', '1.05'],
    ]);

    const on = async (currency: string, date: string) =>
      (await unwrap(rates(t).lookupExchangeRate({ query: { currency, date } }))).exchange_rate;
    expect(await on('EUR', '2026-11-09')).toEqual({
      currency: 'EUR',
      base_currency: 'USD',
      date: '2026-11-09',
      rate: '1.05',
      rate_date: '2026-11-02',
      source: 'manual',
    });
    expect(await on('USD', '2026-11-09')).toMatchObject({ rate: '1', source: 'base' });
    // Before the business's own rate, the daily feed's (per euro, the test database's of 2026-01-02).
    expect(await on('EUR', '2026-11-01')).toMatchObject({
      rate: '1.1',
      rate_date: '2026-01-02',
      source: 'feed',
    });
    // Pounds through the euro: 1.1 USD / 0.85 GBP, to 10 significant digits.
    expect(await on('GBP', '2026-11-01')).toMatchObject({ rate: '1.294117647', source: 'feed' });
    expectResultError(
      await rates(t).lookupExchangeRate({ query: { currency: 'CHF', date: '2026-11-01' } }),
      404,
      'NOT_FOUND',
    );
  });

  it('refuses the base currency, a rate of more than 10 significant digits, 0 and a comma (422)', async () => {
    const t = await registerTenant(server());
    const refused = async (body: { currency: string; date: string; rate: string | number }, field: string) =>
      expectResultError(await rates(t).createExchangeRate({ body }), 422, 'VALIDATION_ERROR', field);
    await refused({ currency: 'USD', date: '2026-11-02', rate: '1' }, 'currency');
    await refused({ currency: 'EUR', date: '2026-11-02', rate: '1.0000000001' }, 'rate');
    await refused({ currency: 'EUR', date: '2026-11-02', rate: '0' }, 'rate');
    await refused({ currency: 'EUR', date: '2026-11-02', rate: '1,05' }, 'rate');
    await refused({ currency: 'EUR', date: '2026-02-30', rate: '1.05' }, 'date');
    expect((await unwrap(rates(t).listExchangeRates({ query: {} }))).total_count).toBe(0);
  });
});

describe('an invoice in another currency', () => {
  it('posts its base amount at the rate of its date, keeping the euro amounts on the lines', async () => {
    const t = await registerTenant(server());
    await setRate(t, 'EUR', '2026-11-02', '1.05');
    const invoice = await invoiceIn(t, 'EUR', 1000, '2026-11-03');
    expect(await entryOf(t.client, 'invoice', invoice.id)).toMatchObject({
      currency: 'EUR',
      exchange_rate: '1.05',
      debits: [line('1200', 100000, 105000)],
      credits: [line('4000', 100000, 105000)],
    });
  });

  it('paid at a higher rate: the difference is a realised gain on 4900, to the minor unit', async () => {
    const t = await registerTenant(server());
    await setRate(t, 'EUR', '2026-11-02', '1.05');
    await setRate(t, 'EUR', '2026-11-10', '1.08');
    const invoice = await invoiceIn(t, 'EUR', 1000, '2026-11-02');
    const paid = await payInvoice(t.client, invoice.id, 1000, { payment_date: '2026-11-10' });
    const payment = paid.payments[0]!;
    // 1,000.00 EUR received at 1.08 is 1,080.00 USD; the receivable was 1,050.00 USD: 30.00 gained.
    expect(await entryOf(t.client, 'invoice_payment', payment.id)).toMatchObject({
      date: '2026-11-10',
      currency: 'EUR',
      exchange_rate: '1.08',
      debits: [line('1010', 100000, 108000)],
      credits: [line('1200', 100000, 105000), line('4900', 0, 3000)],
    });
    const tb = await trialBalanceOf(t, { as_of: '2026-11-30' });
    const of = (code: string) => tb.accounts.find((a) => a.code === code);
    expect(of('1200')).toMatchObject({ debit: 105000, credit: 105000, balance: 0 });
    expect(of('4900')).toMatchObject({ name: 'Exchange gains', credit: 3000, balance: 3000 });
    expect(tb.total_debit).toBe(tb.total_credit);
  });

  it('paid at a lower rate: a realised loss on 5900', async () => {
    const t = await registerTenant(server());
    await setRate(t, 'EUR', '2026-11-02', '1.05');
    await setRate(t, 'EUR', '2026-11-12', '1.02');
    const invoice = await invoiceIn(t, 'EUR', 1000, '2026-11-02');
    const payment = (await payInvoice(t.client, invoice.id, 1000, { payment_date: '2026-11-12' }))
      .payments[0]!;
    expect(await entryOf(t.client, 'invoice_payment', payment.id)).toMatchObject({
      exchange_rate: '1.02',
      debits: [line('1010', 100000, 102000), line('5900', 0, 3000)],
      credits: [line('1200', 100000, 105000)],
    });
  });

  it('paid in parts: the parts take off exactly what the invoice posted', async () => {
    const t = await registerTenant(server());
    await setRate(t, 'EUR', '2026-11-02', '0.8642');
    const invoice = await invoiceIn(t, 'EUR', 100.01, '2026-11-02');
    // 100.01 EUR at 0.8642 is 86.428642 USD: 86.43.
    expect((await entryOf(t.client, 'invoice', invoice.id)).debits).toEqual([line('1200', 10001, 8643)]);
    await payInvoice(t.client, invoice.id, 33.33, { payment_date: '2026-11-03' });
    const paid = await payInvoice(t.client, invoice.id, 66.68, { payment_date: '2026-11-04' });
    const [first, second] = paid.payments;
    // 33.33 EUR takes off round(33.33 x 0.8642) = 28.80; the rest of the 86.43, 57.63, goes with the last.
    expect((await entryOf(t.client, 'invoice_payment', first!.id)).credits).toEqual([
      line('1200', 3333, 2880),
    ]);
    const last = await entryOf(t.client, 'invoice_payment', second!.id);
    // 66.68 EUR received at the same rate is 57.62: the rounding of two conversions, a cent, is a loss.
    expect(last.debits).toEqual([line('1010', 6668, 5762), line('5900', 0, 1)]);
    expect(last.credits).toEqual([line('1200', 6668, 5763)]);
    const tb = await trialBalanceOf(t);
    expect(tb.accounts.find((a) => a.code === '1200')).toMatchObject({
      debit: 8643,
      credit: 8643,
      balance: 0,
    });
  });

  it('is refused at issue when no rate is known, naming the currency and the date and both ways out; nothing posts', async () => {
    const t = await registerTenant(server());
    // No rate of Swiss francs, neither the business's nor the feed's.
    const draft = await createInvoice(t.client, {
      customer_id: t.customerId,
      currency: 'CHF',
      issue_date: '2026-11-03',
      items: [invoiceLine({ unit_price: 1000 })],
    });
    const refused = expectError(
      await t.client.general.invoices.issueInvoice({ params: { id: draft.id } }),
      422,
      'VALIDATION_ERROR',
      'exchange_rate',
    );
    expect(refused.details?.[0]?.message).toMatch(/CHF to USD on or before 2026-11-03/);
    expect(refused.details?.[0]?.message).toMatch(/POST \/v1\/finance\/exchange-rates/);
    expect(refused.details?.[0]?.message).toMatch(/send exchange_rate/);
    expect((await getInvoice(t.client, draft.id)).status).toBe('draft');
    expect(await journal(t.client)).toEqual([]);
  });
});

describe('a credit note paying money back in another currency', () => {
  it("posts the correction at the invoice's rate and the money at the day's: the difference is realised", async () => {
    const t = await registerTenant(server());
    await setRate(t, 'EUR', '2026-11-02', '1.05');
    await setRate(t, 'EUR', '2026-11-10', '1.08');
    await setRate(t, 'EUR', '2026-11-20', '1.1');
    const invoice = await invoiceIn(t, 'EUR', 1000, '2026-11-02');
    await payInvoice(t.client, invoice.id, 1000, { payment_date: '2026-11-10' });
    // 400.00 EUR paid back on the 20th: 440.00 USD leaves the bank at 1.10, against 420.00 USD of
    // the receivable carried at the invoice's 1.05: 20.00 lost.
    const note = await createCreditNote(t.client, {
      invoice_id: invoice.id,
      amount: 400,
      credit_amount: 0,
      refund_amount: 400,
      refund_method: 'bank_transfer',
      issue_date: '2026-11-20',
    });
    expect(await entryOf(t.client, 'credit_note', note.id)).toMatchObject({
      date: '2026-11-20',
      currency: 'EUR',
      exchange_rate: '1.05',
      debits: [line('4000', 40000, 42000), line('1200', 40000, 42000), line('5900', 0, 2000)],
      credits: [line('1200', 40000, 42000), line('1010', 40000, 44000)],
    });
    const tb = await trialBalanceOf(t, { as_of: '2026-11-30' });
    const of = (code: string) => tb.accounts.find((a) => a.code === code);
    // Paid at 1.08 (30.00 gained), 400.00 of it paid back at 1.10 (20.00 lost); nothing is owed.
    expect(of('1200')).toMatchObject({ balance: 0 });
    expect(of('4900')).toMatchObject({ balance: 3000 });
    expect(of('5900')).toMatchObject({ balance: 2000 });
    expect(of('1010')).toMatchObject({ balance: 108000 - 44000 });
    expect(tb.total_debit).toBe(tb.total_credit);
  });

  it('keeps the rounding of its lines off the difference: only the two rates make it', async () => {
    const t = await registerTenant(server());
    await setRate(t, 'EUR', '2026-11-02', '1.0537');
    // The refund on a day of the same rate: no difference. At 1.0537, 27.49 EUR is 28.97 USD but
    // its parts 0.03 and 27.46 are 0.03 and 28.93: a cent of rounding, which the lines take up.
    const invoice = await invoiceIn(t, 'EUR', 27.49, '2026-11-02');
    await payInvoice(t.client, invoice.id, 27.49, { payment_date: '2026-11-03' });
    const note = await createCreditNote(t.client, {
      invoice_id: invoice.id,
      amount: 27.49,
      credit_amount: 0,
      refund_amount: 0.03,
      refund_method: 'cash',
      customer_credit_amount: 27.46,
      issue_date: '2026-11-04',
    });
    const entry = await entryOf(t.client, 'credit_note', note.id);
    const accounts = [...entry.debits, ...entry.credits].map((l) => l.account);
    expect(accounts).not.toContain('4900');
    expect(accounts).not.toContain('5900');
    expect(entry.credits.find((l) => l.account === '1000')).toMatchObject({ amount: 3, base_amount: 3 });
    const sum = (lines: { base_amount: number }[]) => lines.reduce((a, l) => a + l.base_amount, 0);
    expect(sum(entry.debits)).toBe(sum(entry.credits));
  });

  it('in the base currency posts as before, one rate for every line', async () => {
    const t = await registerTenant(server());
    const invoice = await invoiceIn(t, 'USD', 100, '2026-11-02');
    await payInvoice(t.client, invoice.id, 100, { payment_date: '2026-11-03' });
    const note = await createCreditNote(t.client, {
      invoice_id: invoice.id,
      amount: 100,
      credit_amount: 0,
      refund_amount: 100,
      refund_method: 'bank_transfer',
      issue_date: '2026-11-04',
    });
    expect(await entryOf(t.client, 'credit_note', note.id)).toMatchObject({
      exchange_rate: '1',
      debits: [line('4000', 10000, 10000), line('1200', 10000, 10000)],
      credits: [line('1200', 10000, 10000), line('1010', 10000, 10000)],
    });
  });
});

describe("a document's own exchange rate", () => {
  it('wins over the table for the invoice, its payment, the bill and its payment', async () => {
    const t = await registerTenant(server());
    await setRate(t, 'EUR', '2026-11-01', '1.05');
    const invoice = await issuedInvoice(t.client, {
      customer_id: t.customerId,
      currency: 'EUR',
      issue_date: '2026-11-02',
      exchange_rate: '1.0712',
      items: [invoiceLine({ unit_price: 500 })],
    });
    expect(invoice.exchange_rate).toBe('1.0712');
    expect((await entryOf(t.client, 'invoice', invoice.id)).debits).toEqual([line('1200', 50000, 53560)]);
    const paid = await payInvoice(t.client, invoice.id, 500, {
      payment_date: '2026-11-05',
      exchange_rate: '1.0699',
    });
    const payment = paid.payments[0]!;
    expect(payment.exchange_rate).toBe('1.0699');
    expect(await entryOf(t.client, 'invoice_payment', payment.id)).toMatchObject({
      exchange_rate: '1.0699',
      debits: [line('1010', 50000, 53495), line('5900', 0, 65)],
      credits: [line('1200', 50000, 53560)],
    });

    const bill = await billOf(t.client, 20000, {
      currency: 'EUR',
      issue_date: '2026-11-02',
      exchange_rate: '1.1',
    });
    expect(bill.exchange_rate).toBe('1.1');
    const settled = await payBill(t.client, bill.id, 20000, {
      payment_date: '2026-11-06',
      exchange_rate: '1.05',
    });
    // The euros cost less than the bill was booked at: a gain.
    expect(await entryOf(t.client, 'bill_payment', settled.payment_id)).toMatchObject({
      exchange_rate: '1.05',
      debits: [line('2000', 20000, 22000)],
      credits: [line('1010', 20000, 21000), line('4900', 0, 1000)],
    });
  });

  it('refuses a rate that is not a positive decimal of at most 10 significant digits (422 naming it)', async () => {
    const t = await registerTenant(server());
    expectError(
      await t.client.general.invoices.createInvoice({
        body: {
          customer_id: t.customerId,
          currency: 'EUR',
          due_date: '2026-12-31',
          exchange_rate: '-1',
          items: [invoiceLine()],
        },
      }),
      422,
      'VALIDATION_ERROR',
      'exchange_rate',
    );
    expectResultError(
      await t.client.finance.journal.createJournalEntry({
        body: {
          date: '2026-11-02',
          description: 'Transfer',
          currency: 'EUR',
          exchange_rate: '12345678901',
          debits: [{ account: '1010', amount: 100 }],
          credits: [{ account: '1000', amount: 100 }],
        },
      }),
      422,
      'VALIDATION_ERROR',
      'exchange_rate',
    );
  });
});

describe('currencies without two decimals', () => {
  it('converts yen (no decimals) and Kuwaiti dinars (three) exactly, rounding once', async () => {
    const t = await registerTenant(server());
    await setRate(t, 'JPY', '2026-11-01', '0.00658');
    await setRate(t, 'KWD', '2026-11-01', '3.25');
    const yen = await invoiceIn(t, 'JPY', 12345, '2026-11-02');
    // 12,345 JPY x 0.00658 = 81.2301 USD: 81.23.
    expect((await entryOf(t.client, 'invoice', yen.id)).debits).toEqual([line('1200', 12345, 8123)]);
    const dinars = await invoiceIn(t, 'KWD', 12.345, '2026-11-02');
    // 12.345 KWD x 3.25 = 40.12125 USD: 40.12.
    expect((await entryOf(t.client, 'invoice', dinars.id)).debits).toEqual([line('1200', 12345, 4012)]);
  });
});

describe('a bill in euros', () => {
  it('paid when the euro costs more: a realised loss on 5900', async () => {
    const t = await registerTenant(server());
    await setRate(t, 'EUR', '2026-11-02', '1.05');
    await setRate(t, 'EUR', '2026-11-20', '1.1');
    const bill = await billOf(t.client, 50000, { currency: 'EUR', issue_date: '2026-11-02' });
    expect(await entryOf(t.client, 'bill', bill.id)).toMatchObject({
      debits: [line('5000', 50000, 52500)],
      credits: [line('2000', 50000, 52500)],
    });
    const paid = await payBill(t.client, bill.id, 50000, { payment_date: '2026-11-20' });
    expect(await entryOf(t.client, 'bill_payment', paid.payment_id)).toMatchObject({
      exchange_rate: '1.1',
      debits: [line('2000', 50000, 52500), line('5900', 0, 2500)],
      credits: [line('1010', 50000, 55000)],
    });
  });
});

describe('revaluation', () => {
  it('posts the unrealised gain on what is open on the day, reverses it the next day, and once per day', async () => {
    const t = await registerTenant(server());
    await setRate(t, 'EUR', '2026-11-02', '1.05');
    await invoiceIn(t, 'EUR', 1000, '2026-11-02');
    await setRate(t, 'EUR', '2026-11-30', '1.1');
    const made = await unwrap(
      t.client.finance.revaluations.createRevaluation({ body: { as_of: '2026-11-30' } }),
    );
    const revaluation = made.revaluation;
    expect(revaluation).toMatchObject({
      as_of: '2026-11-30',
      reversal_date: '2026-12-01',
      gain: 5000,
      loss: 0,
      lines: [
        {
          account_code: '1200',
          currency: 'EUR',
          balance: 100000,
          base_balance: 105000,
          rate: '1.1',
          revalued: 110000,
          difference: 5000,
        },
      ],
    });
    const entries = (await journal(t.client)).filter((e) => e.source.id.startsWith(revaluation.id));
    expect(entries.map((e) => [e.date, e.source.type])).toEqual([
      ['2026-12-01', 'void'],
      ['2026-11-30', 'revaluation'],
    ]);
    expect(entries[1]).toMatchObject({ debits: [line('1200', 0, 5000)], credits: [line('4910', 0, 5000)] });
    expect(entries[0]).toMatchObject({ debits: [line('4910', 0, 5000)], credits: [line('1200', 0, 5000)] });

    const at = async (as_of: string) => (await trialBalanceOf(t, { as_of })).accounts;
    expect((await at('2026-11-30')).find((a) => a.code === '1200')?.balance).toBe(110000);
    expect((await at('2026-12-01')).find((a) => a.code === '1200')?.balance).toBe(105000);
    expect((await at('2026-12-01')).find((a) => a.code === '4910')?.balance).toBe(0);

    expectResultError(
      await t.client.finance.revaluations.createRevaluation({ body: { as_of: '2026-11-30' } }),
      409,
      'CONFLICT',
    );
    expectResultError(
      await t.client.finance.revaluations.createRevaluation({ body: { as_of: '2026-12-06' } }),
      422,
      'VALIDATION_ERROR',
      'as_of',
    );
    const listed = await unwrap(t.client.finance.revaluations.listRevaluations({ query: {} }));
    expect(listed.revaluations.map((r) => r.id)).toEqual([revaluation.id]);

    // A closed period refuses a revaluation dated in it, as it refuses any posting; nothing is kept.
    await unwrap(t.client.finance.books.setLockDate({ body: { lock_date: '2026-12-02' } }));
    expectResultError(
      await t.client.finance.revaluations.createRevaluation({ body: { as_of: '2026-12-02' } }),
      409,
      'PERIOD_LOCKED',
    );
    expect((await unwrap(t.client.finance.revaluations.listRevaluations({ query: {} }))).total_count).toBe(1);
  });

  it('refuses a revaluation in a closed period even when it would post nothing', async () => {
    const t = await registerTenant(server());
    await unwrap(t.client.finance.books.setLockDate({ body: { lock_date: '2026-11-15' } }));
    const refused = expectResultError(
      await t.client.finance.revaluations.createRevaluation({ body: { as_of: '2026-11-15' } }),
      409,
      'PERIOD_LOCKED',
    );
    expect(refused.message).toContain('2026-11-15');
    expect((await unwrap(t.client.finance.revaluations.listRevaluations({ query: {} }))).total_count).toBe(0);
    // The day after the lock date is open: nothing to post, and the revaluation is recorded.
    const open = await unwrap(
      t.client.finance.revaluations.createRevaluation({ body: { as_of: '2026-11-16' } }),
    );
    expect(open.revaluation.entry_ids).toEqual([]);
  });
});

describe('reports after mixed-currency activity', () => {
  it('balance in the base currency; a currency asked shows its own amounts only', async () => {
    const t = await registerTenant(server());
    await setRate(t, 'EUR', '2026-11-01', '1.05');
    await setRate(t, 'EUR', '2026-11-15', '1.08');
    await setRate(t, 'JPY', '2026-11-01', '0.00658');
    const euro = await invoiceIn(t, 'EUR', 1000, '2026-11-02');
    await invoiceIn(t, 'USD', 250, '2026-11-03');
    await invoiceIn(t, 'JPY', 50000, '2026-11-04');
    await payInvoice(t.client, euro.id, 400, { payment_date: '2026-11-16' });
    const bill = await billOf(t.client, 30000, { currency: 'EUR', issue_date: '2026-11-05' });
    await payBill(t.client, bill.id, 30000, { payment_date: '2026-11-16' });
    await unwrap(t.client.finance.revaluations.createRevaluation({ body: { as_of: '2026-11-20' } }));

    const tb = await trialBalanceOf(t, { as_of: '2026-11-20' });
    expect(tb.currency).toBe('USD');
    expect(tb.total_debit).toBe(tb.total_credit);
    const sheet = (await unwrap(t.client.finance.books.getBalanceSheet({ query: { as_of: '2026-11-20' } })))
      .data;
    expect(sheet.total_assets).toBe(sheet.total_liabilities + sheet.total_equity);

    const euros = await trialBalanceOf(t, { as_of: '2026-11-20', currency: 'EUR' });
    expect(euros.accounts.find((a) => a.code === '1200')).toMatchObject({ debit: 100000, credit: 40000 });
    expect(euros.accounts.find((a) => a.code === '4000')).toMatchObject({ credit: 100000 });
    expect(euros.total_debit).toBe(euros.total_credit);
  });

  it('the base currency cannot change once the journal holds an entry (422 on base_currency)', async () => {
    const t = await registerTenant(server());
    await unwrap(t.client.auth.updateBusiness({ body: { base_currency: 'GBP' } }));
    await unwrap(t.client.auth.updateBusiness({ body: { base_currency: 'USD' } }));
    await invoiceIn(t, 'USD', 10, '2026-11-02');
    const refused = expectResultError(
      await t.client.auth.updateBusiness({ body: { base_currency: 'GBP' } }),
      422,
      'VALIDATION_ERROR',
      'base_currency',
    );
    expect(refused.details?.[0]?.message).toMatch(/base currency is USD/);
  });
});
