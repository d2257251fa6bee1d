import type { Invoice, PaymentLink } from '../../../contract/general/invoices.js';
import { today } from '../../platform/calendar.js';
import { inTransaction, type Ctx } from '../../platform/context.js';
import { invalidState } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { toMinor } from '../../platform/money.js';
import { providerOf } from '../../platform/payments/connection.js';
import type { ConfirmedPayment, PaymentProvider, ProviderName } from '../../platform/payments/provider.js';
import * as invoices from '../invoices/service.js';
import * as queries from './queries.js';

/*
 * Customers pay invoices online (docs/decisions.md D270): Pay on an invoice's hosted page opens the
 * checkout of the provider the business connected, for what the invoice owes; the provider's
 * confirmation records the payment, once per provider payment however often it arrives.
 */

/** Why an invoice has nothing to pay online, or null when it has. */
function nothingToPay(invoice: Invoice): string | null {
  if (invoice.status === 'draft') return 'A draft has nothing to pay: issue the invoice first';
  if (invoice.status === 'void') return 'This invoice is void: nothing is due on it';
  if (invoice.status === 'paid' || invoice.amount_due <= 0)
    return 'This invoice is paid: nothing is due on it';
  return null;
}

/** The invoice with what it owes, and the provider a checkout for it opens with; 409 otherwise. */
async function payable(
  ctx: Ctx,
  invoiceId: string,
): Promise<{ invoice: Invoice; provider: PaymentProvider }> {
  const invoice = await invoices.getInvoice(ctx, invoiceId);
  const reason = nothingToPay(invoice);
  if (reason) throw invalidState(reason);
  const provider = await providerOf(ctx);
  if (!provider) {
    throw invalidState(
      'No payment provider is connected: connect one with PUT /v1/business/payments (in the dashboard: ' +
        'Settings, Payments), or try payments in the sandbox, which has the test provider',
    );
  }
  if (!provider.supportsCurrency(invoice.currency)) {
    throw invalidState(
      `The ${provider.name} payment provider takes no payments in ${invoice.currency}: ` +
        'the customer can pay by the instructions on the invoice',
    );
  }
  return { invoice, provider };
}

/** Whether the invoice's page shows Pay: it owes something, and a provider takes its currency. */
export async function payableOnline(ctx: Ctx, invoice: Invoice): Promise<boolean> {
  if (nothingToPay(invoice)) return false;
  const provider = await providerOf(ctx);
  return provider !== null && provider.supportsCurrency(invoice.currency);
}

/** Where Pay may send the customer besides this service: the connected provider's checkout. */
export async function checkoutOrigins(ctx: Ctx): Promise<string[]> {
  const provider = await providerOf(ctx);
  return provider?.checkoutOrigin ? [provider.checkoutOrigin] : [];
}

/** `POST /v1/invoices/:id/payment-link`: the hosted page with Pay, for an invoice that owes something. */
export async function paymentLink(ctx: Ctx, invoiceId: string): Promise<PaymentLink> {
  const { invoice, provider } = await payable(ctx, invoiceId);
  return {
    url: invoice.hosted_url!,
    amount_due: invoice.amount_due,
    currency: invoice.currency,
    provider: provider.name,
  };
}

/** Pay: opens the provider's checkout for what the invoice owes now; answers the page to send the customer to. */
export async function openCheckout(ctx: Ctx, invoiceId: string, businessName: string): Promise<string> {
  const { invoice, provider } = await payable(ctx, invoiceId);
  const checkoutId = newId('chk');
  const amountMinor = toMinor(invoice.amount_due, invoice.currency, 'amount_due');
  const opened = await provider.createCheckout({
    checkoutId,
    businessId: ctx.businessId,
    invoiceId,
    description: `Invoice ${invoice.number} from ${businessName}`,
    amountMinor,
    currency: invoice.currency,
    successUrl: invoice.hosted_url!,
    cancelUrl: invoice.hosted_url!,
  });
  await queries.insertCheckout(ctx.db, {
    business_id: ctx.businessId,
    id: checkoutId,
    invoice_id: invoiceId,
    provider: provider.name,
    provider_session: opened.session,
    amount_minor: amountMinor,
    currency: invoice.currency,
    status: 'open',
    created_at: ctx.clock.now(),
  });
  return opened.url;
}

export type Confirmation = 'recorded' | 'already recorded' | 'unknown checkout';

/**
 * A payment the provider confirmed, recorded once: the checkout is locked, so of confirmations
 * arriving together one records and the others find it done; the payment's provider id is unique
 * in the database as well. What the invoice no longer owes goes to the customer's credit.
 */
export async function confirmPayment(ctx: Ctx, payment: ConfirmedPayment): Promise<Confirmation> {
  // A repeat of a confirmation already recorded (the common retry) is told without a transaction.
  const seen = await queries.findCheckoutBySession(ctx.db, ctx.businessId, payment.provider, payment.session);
  if (seen?.status === 'succeeded') return 'already recorded';
  return inTransaction(ctx, async (ctx) => {
    const checkout = await queries.lockCheckoutBySession(
      ctx.db,
      ctx.businessId,
      payment.provider,
      payment.session,
    );
    if (!checkout) return 'unknown checkout';
    if (checkout.status === 'succeeded') return 'already recorded';
    if (payment.currency !== checkout.currency) {
      throw new Error(
        `The ${payment.provider} payment ${payment.paymentId} is in ${payment.currency}, its checkout ${checkout.id} in ${checkout.currency}`,
      );
    }
    const recorded = await invoices.recordProviderPayment(ctx, checkout.invoice_id, {
      provider: payment.provider,
      paymentId: payment.paymentId,
      amountMinor: payment.amountMinor,
      date: await today(ctx),
    });
    await queries.completeCheckout(ctx.db, ctx.businessId, checkout.id, {
      providerPaymentId: payment.paymentId,
      paymentId: recorded.paymentId,
      creditedMinor: recorded.creditedMinor,
      at: ctx.clock.now(),
    });
    return 'recorded';
  });
}

/** A checkout the customer's card was declined on: nothing is recorded, and Pay can be tried again. */
export const declineCheckout = (ctx: Ctx, checkoutId: string): Promise<boolean> =>
  queries.setCheckoutStatus(ctx.db, ctx.businessId, checkoutId, 'declined', ctx.clock.now());

/** A checkout the provider will confirm later (its payment is processing). */
export const checkoutProcessing = (ctx: Ctx, checkoutId: string): Promise<boolean> =>
  queries.setCheckoutStatus(ctx.db, ctx.businessId, checkoutId, 'processing', ctx.clock.now());

export const findCheckout = (ctx: Ctx, checkoutId: string) =>
  queries.findCheckout(ctx.db, ctx.businessId, checkoutId);

/**
 * A payout the provider made into the business's bank account (docs/decisions.md D271), kept once
 * by the provider's id of it however often it is reported, and posted from clearing to the bank.
 */
export async function payoutPaid(
  ctx: Ctx,
  payout: {
    provider: ProviderName;
    payoutId: string;
    amountMinor: number;
    currency: string;
    arrivalDate: string;
  },
): Promise<'recorded' | 'already recorded'> {
  return inTransaction(ctx, async (ctx) => {
    const kept = await queries.insertPayout(ctx.db, {
      business_id: ctx.businessId,
      provider: payout.provider,
      provider_payout_id: payout.payoutId,
      amount_minor: payout.amountMinor,
      currency: payout.currency,
      arrival_date: payout.arrivalDate,
      created_at: ctx.clock.now(),
    });
    if (!kept) return 'already recorded';
    await ctx.hooks.announce(ctx, 'providerPayoutPaid', {
      provider: payout.provider,
      payoutId: payout.payoutId,
      currency: payout.currency,
      amountMinor: payout.amountMinor,
      date: payout.arrivalDate,
    });
    return 'recorded';
  });
}
