import { describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import type { Invoice } from '../../contract/general/index.js';
import { confirmPayment } from '../../server/general/online-payments/service.js';
import { jobCtx } from '../../server/platform/context.js';
import {
  createCustomer,
  createInvoice,
  getInvoice,
  invoiceLine,
  issuedInvoice,
  payInvoice,
} from '../support/general.js';
import { updateBusiness } from '../support/auth.js';
import { raw, registerBusiness, sandboxOf, type TestBusiness } from '../support/business.js';
import { onPostgres } from '../support/database.js';
import { outbox } from '../support/events.js';
import { expectApiError, expectError } from '../support/expect.js';
import { journal } from '../support/finance.js';
import { useTestServer } from '../support/setup.js';
import { waitFor } from '../support/wait.js';

/**
 * Customers pay invoices online (docs/decisions.md D270) through the built-in test provider: the
 * business's payment settings, the payment link, Pay on the hosted page, the test checkout's
 * Succeed, Decline and Succeed later, a payment recorded once however often it is confirmed, and
 * a second tab's payment kept as the customer's credit, each read back in the journal.
 */

// A pool larger than the concurrency below, so the checkout's row lock, not the pool, serialises.
const server = useTestServer({ env: { DB_POOL_SIZE: '30' } });

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

/** A path of the service from an absolute URL it answered (`http://localhost:<port>/...`). */
const path = (url: string) => new URL(url).pathname;

/** A sandbox (connected to the test provider from the start) with a customer. */
async function sandbox(): Promise<TestBusiness & { customerId: string }> {
  const live = await registerGbpBusiness(server(), 'Harbour Supplies');
  const biz = await sandboxOf(server(), live);
  const customer = await createCustomer(biz.client, { name: 'Ada Lovelace', email: 'ada@example.com' });
  return { ...biz, customerId: customer.id };
}

const issued = (biz: TestBusiness & { customerId: string }, amount = 120.5): Promise<Invoice> =>
  issuedInvoice(biz.client, {
    customer_id: biz.customerId,
    currency: 'GBP',
    items: [invoiceLine({ description: 'Rope, 50 m', unit_price: amount })],
  });

/** A form post from the page itself (no Origin: a same-origin form of an old browser, or a test). */
const post = (pathname: string) =>
  fetch(`${server().baseUrl}${pathname}`, { method: 'POST', redirect: 'manual' });

/** Pay on the invoice's page: the test checkout's path it sends the customer to. */
async function pay(invoice: Invoice): Promise<string> {
  const res = await post(`${path(invoice.hosted_url!)}/pay`);
  expect(res.status).toBe(303);
  const location = res.headers.get('location')!;
  expect(location).toMatch(/^\/pay\/test\/[\w-]+\.[\w-]+$/);
  return location;
}

describe('GET and PUT /v1/business/payments', () => {
  it('a live business starts with no provider, and may not connect the test provider', async () => {
    const live = await registerGbpBusiness(server());
    const settings = await unwrap(live.client.auth.getPaymentSettings());
    expect(settings.data).toEqual({ provider: null, secret_key_hint: null, webhook_secret_set: false });
    const refused = await live.client.auth.updatePaymentSettings({ body: { provider: 'test' } });
    await expectApiError(refused, 422, 'VALIDATION_ERROR', 'provider');
    expect(JSON.stringify(refused.body)).toContain('sandbox');
    expect((await unwrap(live.client.auth.getPaymentSettings())).data.provider).toBeNull();
  });

  it('a sandbox starts connected to the test provider, and connecting it again keeps it', async () => {
    const biz = await sandbox();
    expect((await unwrap(biz.client.auth.getPaymentSettings())).data.provider).toBe('test');
    const connected = await unwrap(biz.client.auth.updatePaymentSettings({ body: { provider: 'test' } }));
    expect(connected.data).toEqual({ provider: 'test', secret_key_hint: null, webhook_secret_set: false });
  });
});

describe('POST /v1/invoices/:id/payment-link', () => {
  it('answers the hosted page with what Pay asks for', async () => {
    const biz = await sandbox();
    const invoice = await issued(biz, 80);
    const link = await unwrap(biz.client.general.invoices.createPaymentLink({ params: { id: invoice.id } }));
    expect(link.data).toEqual({ url: invoice.hosted_url, amount_due: 80, currency: 'GBP', provider: 'test' });
  });

  it('refuses a draft, a paid and a void invoice, and a live business with no provider, saying what to do', async () => {
    const biz = await sandbox();
    const draft = await createInvoice(biz.client, { customer_id: biz.customerId, items: [invoiceLine()] });
    const refuse = async (client: TestBusiness['client'], id: string, says: RegExp) => {
      const error = expectError(
        await client.general.invoices.createPaymentLink({ params: { id } }),
        409,
        'INVALID_STATE',
      );
      expect(error.message).toMatch(says);
    };
    await refuse(biz.client, draft.id, /issue the invoice first/);
    const paid = await issued(biz, 10);
    await payInvoice(biz.client, paid.id, 10);
    await refuse(biz.client, paid.id, /paid/);

    const live = await registerGbpBusiness(server());
    const customer = await createCustomer(live.client, { name: 'Grace Hopper' });
    const owed = await issuedInvoice(live.client, { customer_id: customer.id, items: [invoiceLine()] });
    await refuse(live.client, owed.id, /PUT \/v1\/business\/payments/);
    // Its page shows no Pay.
    expect((await raw(server(), 'GET', path(owed.hosted_url!))).body).not.toContain('/pay"');
  });
});

describe('Pay on the hosted invoice page, with the test provider', () => {
  it('Succeed records the payment once: card, the provider reference, 1030, payment.created and invoice.paid', async () => {
    const biz = await sandbox();
    const invoice = await issued(biz, 120.5);
    const page = await raw(server(), 'GET', path(invoice.hosted_url!));
    expect(page.body).toContain(`action="${path(invoice.hosted_url!)}/pay"`);
    expect(page.body).toContain('Pay £120.50');

    const checkout = await pay(invoice);
    const checkoutPage = await raw(server(), 'GET', checkout);
    expect(checkoutPage.status).toBe(200);
    expect(checkoutPage.body).toContain('£120.50');
    expect(checkoutPage.body).toContain(invoice.number);
    for (const action of ['succeed', 'decline', 'later']) {
      expect(checkoutPage.body).toContain(`action="${checkout}/${action}"`);
    }

    const before = (await outbox(server(), biz.businessId)).length;
    const done = await post(`${checkout}/succeed`);
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe(checkout);
    const received = await raw(server(), 'GET', checkout);
    expect(received.body).toContain('Payment received');
    expect(received.body).toContain(`href="${path(invoice.hosted_url!)}"`);

    const now = await getInvoice(biz.client, invoice.id);
    expect(now.status).toBe('paid');
    expect(now.payments).toHaveLength(1);
    expect(now.payments[0]).toMatchObject({ amount: 120.5, payment_method: 'card' });
    expect(now.payments[0]!.reference).toMatch(/^test_chk_/);
    const types = (await outbox(server(), biz.businessId)).slice(before).map((e) => e.type);
    expect(types.filter((t) => t === 'payment.created')).toHaveLength(1);
    expect(types.filter((t) => t === 'invoice.paid')).toHaveLength(1);

    const entries = await journal(biz.client, { account: '1030' });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      source: { type: 'invoice_payment', id: now.payments[0]!.id },
      debits: [{ account: '1030', amount: 12050 }],
      credits: [{ account: '1200', amount: 12050 }],
    });

    // Delivered again (a reload that posts again): nothing more.
    expect((await post(`${checkout}/succeed`)).status).toBe(303);
    expect((await getInvoice(biz.client, invoice.id)).payments).toHaveLength(1);
    // The invoice's page no longer shows Pay, and Pay from an old tab says why.
    const paidPage = await raw(server(), 'GET', path(invoice.hosted_url!));
    expect(paidPage.body).toContain('This invoice is paid');
    expect(paidPage.body).not.toContain(`action="${path(invoice.hosted_url!)}/pay"`);
    const late = await post(`${path(invoice.hosted_url!)}/pay`);
    expect(late.status).toBe(409);
    expect(await late.text()).toContain('nothing is due on it');
  });

  it('Decline records nothing, and Pay can be tried again', async () => {
    const biz = await sandbox();
    const invoice = await issued(biz, 40);
    const checkout = await pay(invoice);
    const before = (await outbox(server(), biz.businessId)).length;
    expect((await post(`${checkout}/decline`)).status).toBe(303);
    expect((await raw(server(), 'GET', checkout)).body).toContain('Payment declined');
    // A declined checkout cannot then succeed from its page.
    await post(`${checkout}/succeed`);
    const now = await getInvoice(biz.client, invoice.id);
    expect(now).toMatchObject({ status: 'unpaid', amount_due: 40, payments: [] });
    expect((await outbox(server(), biz.businessId)).length).toBe(before);

    const again = await pay(invoice);
    expect(again).not.toBe(checkout);
    await post(`${again}/succeed`);
    expect((await getInvoice(biz.client, invoice.id)).status).toBe('paid');
  });

  it('Succeed later shows processing, and the provider confirms it a few seconds later', async () => {
    const biz = await sandbox();
    const invoice = await issued(biz, 15);
    const checkout = await pay(invoice);
    expect((await post(`${checkout}/later`)).status).toBe(303);
    expect((await raw(server(), 'GET', checkout)).body).toContain('Payment processing');
    expect((await getInvoice(biz.client, invoice.id)).status).toBe('unpaid');
    const paid = await waitFor('the later confirmation', async () => {
      const now = await getInvoice(biz.client, invoice.id);
      return now.status === 'paid' && now;
    });
    expect(paid.payments).toHaveLength(1);
    expect((await raw(server(), 'GET', checkout)).body).toContain('Payment received');
  });

  it('a second tab paid after the first: the invoice is paid once, the rest goes to the customer credit (Dr 1030 / Cr 2300)', async () => {
    const biz = await sandbox();
    const invoice = await issued(biz, 60);
    const first = await pay(invoice);
    const second = await pay(invoice);
    await post(`${first}/succeed`);
    await post(`${second}/succeed`);
    const now = await getInvoice(biz.client, invoice.id);
    expect(now).toMatchObject({ status: 'paid', amount_paid: 60 });
    expect(now.payments).toHaveLength(1);
    const customer = await unwrap(
      biz.client.general.customers.getCustomer({ params: { id: biz.customerId } }),
    );
    expect(customer.data.credit_balance).toEqual({ GBP: 60 });
    const credit = (await journal(biz.client, { account: '2300' })).filter(
      (e) => e.source.type === 'customer_credit',
    );
    expect(credit).toHaveLength(1);
    expect(credit[0]).toMatchObject({
      debits: [{ account: '1030', amount: 6000 }],
      credits: [{ account: '2300', amount: 6000 }],
    });
  });

  it(`the same confirmation ten times at once records one payment (${where})`, async () => {
    const biz = await sandbox();
    const invoice = await issued(biz, 99.99);
    const checkout = await pay(invoice);
    const answers = await Promise.all(Array.from({ length: 10 }, () => post(`${checkout}/succeed`)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(303));
    const now = await getInvoice(biz.client, invoice.id);
    expect(now.payments).toHaveLength(1);
    expect(now.amount_paid).toBe(99.99);
    const customer = await unwrap(
      biz.client.general.customers.getCustomer({ params: { id: biz.customerId } }),
    );
    expect(customer.data.credit_balance).toEqual({});
    const events = (await outbox(server(), biz.businessId)).filter((e) => e.type === 'payment.created');
    expect(events).toHaveLength(1);
  });

  it('a confirmation for a checkout of another business, or none, records nothing', async () => {
    const biz = await sandbox();
    const other = await sandbox();
    const invoice = await issued(biz, 25);
    const checkout = await pay(invoice);
    const session = checkout.slice('/pay/test/'.length);
    const confirmation = {
      provider: 'test' as const,
      session,
      paymentId: 'test_forged',
      amountMinor: 2500,
      currency: 'GBP',
    };
    expect(await confirmPayment(jobCtx(server().deps, other.businessId, 'test'), confirmation)).toBe(
      'unknown checkout',
    );
    expect(
      await confirmPayment(jobCtx(server().deps, biz.businessId, 'test'), {
        ...confirmation,
        session: 'nothing',
      }),
    ).toBe('unknown checkout');
    expect((await getInvoice(biz.client, invoice.id)).payments).toEqual([]);
  });

  it('refuses a post from another site, and answers 404 for a session it did not sign', async () => {
    const biz = await sandbox();
    const invoice = await issued(biz, 30);
    const fromElsewhere = await fetch(`${server().baseUrl}${path(invoice.hosted_url!)}/pay`, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: 'https://attacker.example' },
    });
    expect(fromElsewhere.status).toBe(403);
    const checkout = await pay(invoice);
    const forged = `${checkout.slice(0, -4)}AAAA`;
    expect((await raw(server(), 'GET', forged)).status).toBe(404);
    expect((await post(`${forged}/succeed`)).status).toBe(404);
    expect((await post(`${checkout}/refund`)).status).toBe(404);
    const crossSite = await fetch(`${server().baseUrl}${checkout}/succeed`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(crossSite.status).toBe(403);
    expect((await getInvoice(biz.client, invoice.id)).status).toBe('unpaid');
  });
});
