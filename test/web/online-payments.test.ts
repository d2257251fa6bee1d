import { describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import {
  expectAccessible,
  expectClean,
  openApp,
  PHONE,
  screenshot,
  useBrowser,
  type AppPage,
} from '../support/browser.js';
import { registerBusiness, sandboxOf, type TestBusiness } from '../support/business.js';
import { outbox } from '../support/events.js';
import { createCustomer, getInvoice, invoiceLine, issuedInvoice } from '../support/general.js';
import { useTestServer } from '../support/setup.js';
import { waitFor } from '../support/wait.js';

/**
 * Paying an invoice online in a real browser, as the customer does (docs/decisions.md D270): the
 * invoice's page with Pay, the test provider's checkout, Succeed, Decline and Succeed later, and
 * the invoice paid once with its events fired once; then the business's side, the Payments settings
 * and the invoice screen's payment link.
 */

const server = useTestServer();
const browser = useBrowser();

/** A customer's browser on a page of the service, with no session. */
async function asCustomer(path: string, viewport?: { width: number; height: number }): Promise<AppPage> {
  const app = await openApp(browser(), server().baseUrl, 'about:blank', undefined, viewport);
  app.page.setDefaultTimeout(10_000);
  await app.page.goto(path);
  return app;
}

async function sandboxWithInvoice(
  amount: number,
): Promise<{ biz: TestBusiness; invoiceId: string; page: string }> {
  const live = await registerBusiness(server(), 'Harbour Supplies');
  const biz = await sandboxOf(server(), live);
  const customer = await createCustomer(biz.client, { name: 'Ada Lovelace', email: 'ada@example.com' });
  const invoice = await issuedInvoice(biz.client, {
    customer_id: customer.id,
    currency: 'GBP',
    items: [invoiceLine({ description: 'Mooring rope, 50 m', unit_price: amount })],
  });
  return { biz, invoiceId: invoice.id, page: new URL(invoice.hosted_url!).pathname };
}

describe('the customer pays on the invoice page', () => {
  it('Pay, then Succeed: the payment received, the invoice paid once, its events fired once', async () => {
    const { biz, invoiceId, page } = await sandboxWithInvoice(120.5);
    const app = await asCustomer(page);
    try {
      const pay = app.page.getByRole('button', { name: 'Pay £120.50' });
      await expect(pay.isVisible()).resolves.toBe(true);
      await expectAccessible(app.page, 'hosted invoice with Pay');
      await screenshot(app.page, 'hosted-invoice-pay');

      await pay.click();
      await app.page.waitForURL(/\/pay\/test\//);
      await expect(app.page.getByRole('heading', { name: 'Test checkout' }).isVisible()).resolves.toBe(true);
      await expect(app.page.getByRole('heading', { name: '£120.50' }).isVisible()).resolves.toBe(true);
      await expectAccessible(app.page, 'test checkout');
      await screenshot(app.page, 'test-checkout');

      const before = (await outbox(server(), biz.businessId)).length;
      await app.page.getByRole('button', { name: 'Succeed: pay £120.50' }).click();
      await app.page.getByText('Payment received').waitFor();
      await screenshot(app.page, 'test-checkout-received');
      // Back on the invoice: paid, and no Pay any more.
      await app.page.getByRole('link', { name: /Back to invoice/ }).click();
      await app.page.getByText('This invoice is paid').waitFor();
      expect(await app.page.getByRole('button', { name: /^Pay / }).count()).toBe(0);
      // A reload of the checkout's answer posts nothing again.
      await app.page.goBack();
      await app.page.reload();

      const invoice = await getInvoice(biz.client, invoiceId);
      expect(invoice).toMatchObject({ status: 'paid', amount_due: 0 });
      expect(invoice.payments).toHaveLength(1);
      expect(invoice.payments[0]).toMatchObject({ payment_method: 'card', amount: 120.5 });
      const types = (await outbox(server(), biz.businessId)).slice(before).map((e) => e.type);
      expect(types.filter((t) => t === 'payment.created')).toEqual(['payment.created']);
      expect(types.filter((t) => t === 'invoice.paid')).toEqual(['invoice.paid']);
      expectClean(app);
    } finally {
      await app.close();
    }
  });

  it('Decline records nothing and Pay can be tried again; Succeed later is confirmed on its own', async () => {
    const { biz, invoiceId, page } = await sandboxWithInvoice(40);
    const app = await asCustomer(page, PHONE);
    try {
      await app.page.getByRole('button', { name: 'Pay £40.00' }).click();
      await app.page.getByRole('button', { name: 'Decline' }).click();
      await app.page.getByText('Payment declined').waitFor();
      expect((await getInvoice(biz.client, invoiceId)).payments).toEqual([]);

      await app.page.getByRole('link', { name: /Back to invoice/ }).click();
      await app.page.getByRole('button', { name: 'Pay £40.00' }).click();
      await app.page.getByRole('button', { name: 'Succeed later' }).click();
      await app.page.getByText('Payment processing').waitFor();
      await screenshot(app.page, 'test-checkout-processing-phone');
      const paid = await waitFor('the test provider to confirm the payment', async () => {
        const invoice = await getInvoice(biz.client, invoiceId);
        return invoice.status === 'paid' && invoice;
      });
      expect(paid.payments).toHaveLength(1);
      await app.page.reload();
      await app.page.getByText('Payment received').waitFor();
      expectClean(app);
    } finally {
      await app.close();
    }
  });
});

describe('the business side', () => {
  it('Payments settings say which provider takes payments; the invoice screen gives the payment link', async () => {
    const { biz, invoiceId } = await sandboxWithInvoice(75);
    const app = await openApp(browser(), server().baseUrl, '/app/settings/payments', {
      accessToken: biz.accessToken,
      environment: 'sandbox',
    });
    app.page.setDefaultTimeout(10_000);
    try {
      await app.page.getByText('Test provider').waitFor();
      await app.page.getByRole('button', { name: 'Test the connection' }).click();
      await app.page.getByText('The connection works').waitFor();
      expect(await app.page.locator('[data-check="provider"]').innerText()).toMatch(
        /^passed The test provider/,
      );
      await expectAccessible(app.page, 'payments settings');
      await screenshot(app.page, 'settings-payments');

      await app.page.goto(`/app/invoices/${invoiceId}`);
      await app.page.getByRole('button', { name: 'Payment link' }).click();
      const invoice = await getInvoice(biz.client, invoiceId);
      await app.page.getByText(`can pay £75.00 by card at ${invoice.hosted_url}`).waitFor();
      expectClean(app);
    } finally {
      await app.close();
    }
  });

  it('a live business with no provider is told how to take payments online, and connects Stripe', async () => {
    const live = await registerBusiness(server());
    const app = await openApp(browser(), server().baseUrl, '/app/settings/payments', {
      accessToken: live.accessToken,
    });
    app.page.setDefaultTimeout(10_000);
    try {
      await app.page.getByText('No provider is connected').waitFor();
      await app.page.getByRole('button', { name: 'Connect the test provider' }).click();
      await app.page
        .getByRole('alert')
        .getByText(/sandbox/)
        .waitFor();
      expect((await unwrap(live.client.auth.getPaymentSettings())).data.provider).toBeNull();

      // Stripe: a publishable key where the secret key goes is refused beside its field.
      const secretKey = app.page.getByLabel('Secret key');
      await secretKey.fill('pk_live_notasecretkey');
      await app.page.getByLabel('Webhook signing secret').fill('whsec_abcdefgh12345678');
      await app.page.getByRole('button', { name: 'Connect Stripe' }).click();
      const invalid = app.page.locator('.field.invalid');
      await invalid.waitFor();
      // The field, with the form of key it takes (its hint) and the refusal beside it.
      expect(await invalid.innerText()).toMatch(/^Secret key\nsk_live_[\s\S]*\nCheck this value\.$/);
      expect(await app.page.locator('.field.invalid').count()).toBe(1);
      await secretKey.fill('sk_test_51HxAbCdEfGh4242');
      await app.page.getByRole('button', { name: 'Connect Stripe' }).click();
      await app.page.getByText('Connected with the secret key ending in 4242').waitFor();
      expect(await secretKey.inputValue()).toBe('');
      await expectAccessible(app.page, 'payments settings, Stripe');
      await screenshot(app.page, 'settings-payments-stripe');
      expect((await unwrap(live.client.auth.getPaymentSettings())).data).toEqual({
        provider: 'stripe',
        secret_key_hint: '4242',
        webhook_secret_set: true,
      });
      expectClean(app, [422]);
    } finally {
      await app.close();
    }
  });

  it('a refund to the card shows on the credit note screen where it stands', async () => {
    const { biz, invoiceId, page } = await sandboxWithInvoice(40);
    const post = (path: string) =>
      fetch(`${server().baseUrl}${path}`, { method: 'POST', redirect: 'manual' });
    const checkout = (await post(`${page}/pay`)).headers.get('location')!;
    expect((await post(`${checkout}/succeed`)).status).toBe(303);
    const note = (
      await unwrap(
        biz.client.general.creditNotes.createCreditNote({
          body: {
            invoice_id: invoiceId,
            amount: 15,
            reason: 'One rope returned',
            credit_amount: 0,
            refund_amount: 15,
            refund_method: 'card',
            customer_credit_amount: 0,
          },
        }),
      )
    ).data;
    await waitFor(
      'the refund settled',
      async () => {
        const now = await unwrap(biz.client.general.creditNotes.getCreditNote({ params: { id: note.id } }));
        return now.data.refund?.status === 'succeeded';
      },
      30_000,
    );
    const app = await openApp(browser(), server().baseUrl, `/app/credit-notes/${note.id}`, {
      accessToken: biz.accessToken,
      environment: 'sandbox',
    });
    app.page.setDefaultTimeout(10_000);
    try {
      const refund = app.page.locator('[data-refund]');
      await refund.getByText('refunded').waitFor();
      expect(await refund.innerText()).toMatch(/£15\.00 by card through the test provider refunded/);
      expect(await refund.innerText()).toContain(`test_refund-${note.id}`);
      await screenshot(app.page, 'credit-note-card-refund');
      expectClean(app);
    } finally {
      await app.close();
    }
  });
});
