import { afterAll, describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import type { CreditNote, Invoice } from '../../contract/general/index.js';
import { updateBusiness } from '../support/auth.js';
import { raw, registerBusiness, sandboxOf, type TestBusiness } from '../support/business.js';
import { onPostgres } from '../support/database.js';
import { expectInvalid } from '../support/expect.js';
import { entriesOf, entryOf, journal, setRate } from '../support/finance.js';
import {
  createCreditNote,
  createCustomer,
  invoiceLine,
  issuedInvoice,
  payInvoice,
} from '../support/general.js';
import { useTestServer } from '../support/setup.js';
import {
  chargeRefunded,
  checkoutCompleted,
  payoutPaid,
  refundUpdated,
  signedEvent,
  startStripeStandIn,
} from '../support/stripe-stand-in.js';
import { waitFor } from '../support/wait.js';

/**
 * Refunds to the card and payouts (docs/decisions.md D271): a credit note's `card` refund on an
 * invoice paid online goes back through the provider that took the payment, `pending` until the
 * provider confirms it and only then posted (Dr 1200 / Cr 1030), settled once however often the
 * provider says so; a refund the provider refuses or fails posts nothing. A payout moves clearing
 * to the bank once. The test provider and Stripe (a local stand-in) each.
 */

const stripe = await startStripeStandIn();
afterAll(() => stripe.close());

const server = useTestServer({ env: { STRIPE_API_BASE: stripe.url, DB_POOL_SIZE: '30' } });

/**
 * A business that keeps its books in pounds, the currency these payments are in (so no rate is
 * needed to post them: docs/decisions.md D278).
 */
async function registerGbpBusiness(...args: Parameters<typeof registerBusiness>): Promise<TestBusiness> {
  const business = await registerBusiness(...args);
  await updateBusiness(business.client, { base_currency: 'GBP' });
  return business;
}

const where = onPostgres ? 'on PostgreSQL, under real concurrency' : 'on PGlite, serialised by the engine';

const SECRET_KEY = 'sk_test_51HxAbCdEfGh4242';
const WEBHOOK_SECRET = 'whsec_3f9aBcDeFgHiJkLmNoPq';

/** Waits for what a job (the refund asked of the provider) does, as long as a slow machine may take. */
const afterJobs = <T>(what: string, probe: () => T | Promise<T>) => waitFor(what, probe, 30_000);

const path = (url: string) => new URL(url).pathname;
const post = (pathname: string) =>
  fetch(`${server().baseUrl}${pathname}`, { method: 'POST', redirect: 'manual' });

type Biz = TestBusiness & { customerId: string };

const issued = (biz: Biz, amount: number): Promise<Invoice> =>
  issuedInvoice(biz.client, {
    customer_id: biz.customerId,
    currency: 'GBP',
    items: [invoiceLine({ description: 'Rope, 50 m', unit_price: amount })],
  });

const getCreditNote = async (biz: Biz, id: string): Promise<CreditNote> =>
  (await unwrap(biz.client.general.creditNotes.getCreditNote({ params: { id } }))).data;

/** A credit note refunding `amount` of the invoice to the card. */
const cardRefund = (biz: Biz, invoiceId: string, amount: number) =>
  createCreditNote(biz.client, {
    invoice_id: invoiceId,
    amount,
    credit_amount: 0,
    refund_amount: amount,
    refund_method: 'card',
  });

/** The balance of an account over the whole journal (debits less credits), minor units. */
async function balanceOf(biz: Pick<Biz, 'client'>, account: string): Promise<number> {
  let balance = 0;
  for (const entry of await journal(biz.client, { account })) {
    for (const line of entry.debits) if (line.account === account) balance += line.amount;
    for (const line of entry.credits) if (line.account === account) balance -= line.amount;
  }
  return balance;
}

const accountsOf = (entry: { debits: { account: string }[]; credits: { account: string }[] }) =>
  [...entry.debits, ...entry.credits].map((l) => l.account);

describe('a card refund through the test provider', () => {
  /** A sandbox invoice paid through the test checkout's Succeed. */
  async function paidOnline(amount: number, byHand = 0): Promise<{ biz: Biz; invoice: Invoice }> {
    const live = await registerGbpBusiness(server(), 'Harbour Supplies');
    const sandbox = await sandboxOf(server(), live);
    const customer = await createCustomer(sandbox.client, { name: 'Ada Lovelace' });
    const biz = { ...sandbox, customerId: customer.id };
    const invoice = await issued(biz, amount);
    if (byHand > 0) await payInvoice(biz.client, invoice.id, byHand);
    const pay = await post(`${path(invoice.hosted_url!)}/pay`);
    const checkout = pay.headers.get('location')!;
    expect((await post(`${checkout}/succeed`)).status).toBe(303);
    return { biz, invoice };
  }

  it('is pending, posts nothing, then settles by itself: Dr 1200 / Cr 1030 once', async () => {
    const { biz, invoice } = await paidOnline(120.5);
    const note = await cardRefund(biz, invoice.id, 20.5);
    expect(note.refund).toEqual({
      amount: 20.5,
      method: 'card',
      status: 'pending',
      provider: 'test',
      provider_refund_id: null,
    });
    // The credit note's own entry leaves the pending refund out: no cash or clearing account in it.
    const own = await entryOf(biz.client, 'credit_note', note.id);
    expect(accountsOf(own)).not.toContain('1030');
    expect(accountsOf(own)).not.toContain('1010');

    const settled = await afterJobs('the refund settled', async () => {
      const now = await getCreditNote(biz, note.id);
      return now.refund?.status === 'succeeded' && now;
    });
    expect(settled.refund).toEqual({
      amount: 20.5,
      method: 'card',
      status: 'succeeded',
      provider: 'test',
      provider_refund_id: `test_refund-${note.id}`,
    });
    const entry = await entryOf(biz.client, 'card_refund', note.id);
    expect(entry).toMatchObject({
      debits: [{ account: '1200', amount: 2050 }],
      credits: [{ account: '1030', amount: 2050 }],
    });
    expect(await balanceOf(biz, '1030')).toBe(12050 - 2050);
    // What the customer was paid back is off what they hold with the business: the receivable nets to 0.
    expect(await balanceOf(biz, '1200')).toBe(0);
  });

  it("in pounds on books in dollars: the receivable back at its invoice's rate, the money at the day's, the difference realised", async () => {
    const live = await registerBusiness(server(), 'Harbour Exports');
    const sandbox = await sandboxOf(server(), live);
    const customer = await createCustomer(sandbox.client, { name: 'Ada Lovelace' });
    const biz = { ...sandbox, customerId: customer.id };
    const invoice = await issued(biz, 100);
    const pay = await post(`${path(invoice.hosted_url!)}/pay`);
    const checkout = pay.headers.get('location')!;
    expect((await post(`${checkout}/succeed`)).status).toBe(303);
    const receivable = (await entryOf(biz.client, 'invoice', invoice.id)).debits[0]!;
    expect(receivable).toMatchObject({ account: '1200', amount: 10000 });
    const paid = (await unwrap(biz.client.general.invoices.getInvoice({ params: { id: invoice.id } }))).data;
    const day = (await entryOf(biz.client, 'invoice_payment', paid.payments[0]!.id)).date;
    // The pound dearer by the refund: 100.00 GBP leaves at 1.50, 150.00 USD.
    await setRate(biz, 'GBP', day, '1.5');

    const note = await cardRefund(biz, invoice.id, 100);
    await afterJobs(
      'the refund settled',
      async () => (await getCreditNote(biz, note.id)).refund?.status === 'succeeded',
    );
    const entry = await entryOf(biz.client, 'card_refund', note.id);
    expect(entry.credits).toEqual([{ account: '1030', amount: 10000, base_amount: 15000 }]);
    expect(entry.debits).toEqual([
      { account: '1200', amount: 10000, base_amount: receivable.base_amount },
      { account: '5900', amount: 0, base_amount: 15000 - receivable.base_amount },
    ]);
    // The receivable nets to nothing in dollars as in pounds.
    const tb = (await unwrap(biz.client.finance.accounts.getTrialBalance({ query: {} }))).data;
    expect(tb.accounts.find((a) => a.code === '1200')).toMatchObject({ balance: 0 });
    expect(tb.total_debit).toBe(tb.total_credit);
  });

  it('refuses more than the card payment can take back, naming what it can, and takes that', async () => {
    // 50 paid by bank transfer first, so the card paid 70.50 of the 120.50.
    const { biz, invoice } = await paidOnline(120.5, 50);
    const tooMuch = await biz.client.general.creditNotes.createCreditNote({
      body: {
        invoice_id: invoice.id,
        amount: 70.51,
        reason: 'Returned',
        credit_amount: 0,
        refund_amount: 70.51,
        refund_method: 'card',
        customer_credit_amount: 0,
      },
    });
    expectInvalid(tooMuch, 'refund_amount');
    expect(JSON.stringify(tooMuch.body)).toContain('At most 70.5 GBP');
    await cardRefund(biz, invoice.id, 20.5);
    const more = await biz.client.general.creditNotes.createCreditNote({
      body: {
        invoice_id: invoice.id,
        amount: 50.01,
        reason: 'Returned',
        credit_amount: 0,
        refund_amount: 50.01,
        refund_method: 'card',
        customer_credit_amount: 0,
      },
    });
    expect(JSON.stringify(more.body)).toContain('At most 50 GBP');
    const rest = await cardRefund(biz, invoice.id, 50);
    expect(rest.refund).toMatchObject({ status: 'pending', provider: 'test' });
    await afterJobs('both refunds settled', async () => (await balanceOf(biz, '1030')) === 0);
  });

  it('an invoice paid by card by hand keeps its refund by hand: succeeded and posted at once', async () => {
    const live = await registerGbpBusiness(server());
    const customer = await createCustomer(live.client, { name: 'Grace Hopper' });
    const biz = { ...live, customerId: customer.id };
    const invoice = await issued(biz, 60);
    await payInvoice(biz.client, invoice.id, 60, { payment_method: 'card' });
    const note = await cardRefund(biz, invoice.id, 15);
    expect(note.refund).toEqual({
      amount: 15,
      method: 'card',
      status: 'succeeded',
      provider: null,
      provider_refund_id: null,
    });
    const own = await entryOf(biz.client, 'credit_note', note.id);
    expect(own.credits).toContainEqual({ account: '1010', amount: 1500, base_amount: 1500 });
    expect((await entriesOf(biz.client, note.id)).map((e) => e.source.type)).toEqual(['credit_note']);
  });
});

describe('a card refund through Stripe', () => {
  async function paidThroughStripe(
    amount: number,
    paymentIntent: string,
  ): Promise<{ biz: Biz; invoice: Invoice }> {
    const live = await registerGbpBusiness(server(), 'Harbour Supplies');
    await unwrap(
      live.client.auth.updatePaymentSettings({
        body: { provider: 'stripe', secret_key: SECRET_KEY, webhook_secret: WEBHOOK_SECRET },
      }),
    );
    const customer = await createCustomer(live.client, { name: 'Ada Lovelace' });
    const biz = { ...live, customerId: customer.id };
    const invoice = await issued(biz, amount);
    const pay = await post(`${path(invoice.hosted_url!)}/pay`);
    const id = /\/checkout\/(cs_test_\w+)$/.exec(pay.headers.get('location') ?? '')?.[1];
    const session = stripe.sessions.get(id!)!;
    const paid = await deliver(biz.businessId, checkoutCompleted(session, paymentIntent));
    expect(paid.body).toEqual({ data: { received: true, outcome: 'recorded' } });
    return { biz, invoice };
  }

  const deliver = (businessId: string, event: object) => {
    const signed = signedEvent(WEBHOOK_SECRET, event);
    return raw(server(), 'POST', `/v1/payments/webhooks/stripe/${businessId}`, {
      headers: { 'content-type': 'application/json', 'stripe-signature': signed.header },
      body: signed.body,
    });
  };
  const outcomeOf = (answer: { body: unknown }) =>
    (answer.body as { data: { outcome: string } }).data.outcome;

  /** The refund the service asked Stripe for, once its job ran. */
  const askedFor = (paymentIntent: string) =>
    afterJobs('the refund asked of Stripe', () =>
      stripe.requests.find((r) => r.path === '/v1/refunds' && r.form['payment_intent'] === paymentIntent),
    );

  it('asks Stripe once with the payment and amount; charge.refunded settles it, once', async () => {
    const { biz, invoice } = await paidThroughStripe(120.5, 'pi_test_r001');
    const note = await cardRefund(biz, invoice.id, 50);
    expect(note.refund).toMatchObject({ status: 'pending', provider: 'stripe' });
    const asked = await askedFor('pi_test_r001');
    expect(asked.form).toMatchObject({ payment_intent: 'pi_test_r001', amount: '5000' });
    expect(asked.headers['idempotency-key']).toBe(`refund-${note.id}`);
    expect(asked.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
    // Stripe answered `pending`: the refund keeps Stripe's id, and nothing is posted yet.
    const waiting = await afterJobs('the refund id kept', async () => {
      const now = await getCreditNote(biz, note.id);
      return now.refund?.provider_refund_id && now;
    });
    expect(waiting.refund).toMatchObject({
      status: 'pending',
      provider_refund_id: expect.stringMatching(/^re_test_/),
    });
    expect((await entriesOf(biz.client, note.id)).map((e) => e.source.type)).toEqual(['credit_note']);

    // As current API versions send it: the charge's cumulative refunded amount, its refunds left out.
    const refunded = chargeRefunded({
      paymentIntentId: 'pi_test_r001',
      amountRefunded: 5000,
      amount: 12050,
      currency: 'GBP',
    });
    expect(outcomeOf(await deliver(biz.businessId, refunded))).toBe('refunds settled');
    expect(outcomeOf(await deliver(biz.businessId, refunded))).toBe('ignored');
    expect((await getCreditNote(biz, note.id)).refund?.status).toBe('succeeded');
    expect((await entriesOf(biz.client, note.id)).map((e) => e.source.type)).toEqual([
      'credit_note',
      'card_refund',
    ]);
    expect(await balanceOf(biz, '1030')).toBe(12050 - 5000);
    expect(stripe.requests.filter((r) => r.form['payment_intent'] === 'pi_test_r001')).toHaveLength(1);
  });

  it(`the same refund.updated delivered ten times at once settles one refund (${where})`, async () => {
    const { biz, invoice } = await paidThroughStripe(80, 'pi_test_r010');
    const note = await cardRefund(biz, invoice.id, 80);
    const kept = await afterJobs(
      'the refund id kept',
      async () => (await getCreditNote(biz, note.id)).refund?.provider_refund_id,
    );
    const event = refundUpdated({
      refundId: kept,
      paymentIntentId: 'pi_test_r010',
      amount: 8000,
      currency: 'GBP',
      status: 'succeeded',
    });
    const answers = await Promise.all(Array.from({ length: 10 }, () => deliver(biz.businessId, event)));
    expect(answers.map(outcomeOf).sort()).toEqual(['refunds settled', ...Array(9).fill('ignored')].sort());
    await entryOf(biz.client, 'card_refund', note.id);
    expect(await balanceOf(biz, '1030')).toBe(0);
  });

  it('a refund Stripe fails later posts nothing, and the customer keeps it to their credit', async () => {
    const { biz, invoice } = await paidThroughStripe(40, 'pi_test_r020');
    const note = await cardRefund(biz, invoice.id, 40);
    const kept = await afterJobs(
      'the refund id kept',
      async () => (await getCreditNote(biz, note.id)).refund?.provider_refund_id,
    );
    const failed = refundUpdated({
      refundId: kept,
      paymentIntentId: 'pi_test_r020',
      amount: 4000,
      currency: 'GBP',
      status: 'failed',
    });
    expect(outcomeOf(await deliver(biz.businessId, failed))).toBe('refunds settled');
    expect((await getCreditNote(biz, note.id)).refund?.status).toBe('failed');
    // A later success for the same refund (out of order) changes nothing: it ended.
    const late = chargeRefunded({ paymentIntentId: 'pi_test_r020', amountRefunded: 4000, currency: 'GBP' });
    expect(outcomeOf(await deliver(biz.businessId, late))).toBe('ignored');
    expect((await entriesOf(biz.client, note.id)).map((e) => e.source.type)).toEqual(['credit_note']);
    expect(await balanceOf(biz, '1030')).toBe(4000);
    const statement = (
      await unwrap(
        biz.client.general.statements.getCustomerStatement({
          params: { id: biz.customerId },
          query: { currency: 'GBP' },
        }),
      )
    ).data;
    expect(statement.lines.map((l) => l.type)).not.toContain('refund');
    expect(statement.closing_balance).toBe(-40);
  });

  it('a refund Stripe refuses outright fails at once and posts nothing', async () => {
    const { biz, invoice } = await paidThroughStripe(30, 'pi_disputed_r030');
    const note = await cardRefund(biz, invoice.id, 30);
    const failed = await afterJobs('the refund failed', async () => {
      const now = await getCreditNote(biz, note.id);
      return now.refund?.status === 'failed' && now;
    });
    expect(failed.refund).toMatchObject({ provider: 'stripe', provider_refund_id: null });
    expect(await balanceOf(biz, '1030')).toBe(3000);
  });
});

describe('a Stripe payout', () => {
  it(`moves clearing to the bank once, however often and however concurrently it is told (${where})`, async () => {
    const live = await registerGbpBusiness(server());
    await unwrap(
      live.client.auth.updatePaymentSettings({
        body: { provider: 'stripe', secret_key: SECRET_KEY, webhook_secret: WEBHOOK_SECRET },
      }),
    );
    const deliver = (event: object) => {
      const signed = signedEvent(WEBHOOK_SECRET, event);
      return raw(server(), 'POST', `/v1/payments/webhooks/stripe/${live.businessId}`, {
        headers: { 'content-type': 'application/json', 'stripe-signature': signed.header },
        body: signed.body,
      });
    };
    const arrival = Date.UTC(2026, 10, 27) / 1000;
    const payout = payoutPaid({
      payoutId: 'po_test_0001',
      amount: 25000,
      currency: 'GBP',
      arrivalDate: arrival,
    });
    const answers = await Promise.all(Array.from({ length: 10 }, () => deliver(payout)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(answers.map((a) => (a.body as { data: { outcome: string } }).data.outcome).sort()).toEqual(
      ['recorded', ...Array(9).fill('already recorded')].sort(),
    );
    const entry = await entryOf(live.client, 'payout', 'po_test_0001');
    expect(entry).toMatchObject({
      date: '2026-11-27',
      currency: 'GBP',
      debits: [{ account: '1010', amount: 25000 }],
      credits: [{ account: '1030', amount: 25000 }],
    });
  });

  it('is found on the bank statement like any other money: the payout line suggested and matched into the bank account', async () => {
    const live = await registerGbpBusiness(server());
    await unwrap(
      live.client.auth.updatePaymentSettings({
        body: { provider: 'stripe', secret_key: SECRET_KEY, webhook_secret: WEBHOOK_SECRET },
      }),
    );
    const signed = signedEvent(
      WEBHOOK_SECRET,
      payoutPaid({
        payoutId: 'po_test_0002',
        amount: 41250,
        currency: 'GBP',
        arrivalDate: Date.UTC(2026, 10, 20) / 1000,
      }),
    );
    const told = await raw(server(), 'POST', `/v1/payments/webhooks/stripe/${live.businessId}`, {
      headers: { 'content-type': 'application/json', 'stripe-signature': signed.header },
      body: signed.body,
    });
    expect(told.status).toBe(200);
    const payout = await entryOf(live.client, 'payout', 'po_test_0002');

    // The bank's statement shows the payout arriving the next working day.
    const bank = (
      await unwrap(
        live.client.finance.bankAccounts.createBankAccount({
          body: { name: 'Current account', currency: 'GBP', opening_balance: 0, opening_date: '2026-11-01' },
        }),
      )
    ).bank_account;
    const mapping = encodeURIComponent(
      JSON.stringify({ date: 'Date', description: 'Details', amount: 'Amount' }),
    );
    const imported = await raw(
      server(),
      'POST',
      `/v1/finance/bank-accounts/${bank.id}/statements?mapping=${mapping}`,
      {
        headers: { 'content-type': 'text/csv' },
        body: 'Date,Details,Amount\n2026-11-23,STRIPE PAYMENTS UK PAYOUT,412.50\n',
        token: live.accessToken,
      },
    );
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    const lines = (
      await unwrap(
        live.client.finance.bankTransactions.listBankTransactions({ query: { bank_account_id: bank.id } }),
      )
    ).bank_transactions;
    expect(lines).toHaveLength(1);
    const line = lines[0]!;

    const held = `${payout.id}:1`;
    const { suggestions } = await unwrap(
      live.client.finance.bankTransactions.getBankTransactionSuggestions({ params: { id: line.id } }),
    );
    expect(suggestions[0]).toMatchObject({
      kind: 'journal_line',
      amount: 41250,
      date: '2026-11-20',
      journal_line_id: held,
    });

    const { bank_transaction: done } = await unwrap(
      live.client.finance.bankTransactions.matchBankTransaction({
        params: { id: line.id },
        body: { matches: [{ journal_line_id: held, amount: 41250 }] },
      }),
    );
    expect(done.status).toBe('matched');
    const moved = (await journal(live.client, { account: bank.account_code })).filter(
      (e) => e.source.type === 'bank_transaction',
    );
    expect(moved).toHaveLength(1);
    expect(moved[0]).toMatchObject({
      date: '2026-11-23',
      debits: [{ account: bank.account_code, amount: 41250 }],
      credits: [{ account: '1010', amount: 41250 }],
    });
    // Clearing emptied by the payout, 1010 by the statement: the money is where the bank says it is.
    expect(await balanceOf(live, '1030')).toBe(-41250);
    expect(await balanceOf(live, '1010')).toBe(0);
    expect(await balanceOf(live, bank.account_code)).toBe(41250);
  });
});
