import type { Express, Request, Response } from 'express';
import { inTransaction, type Ctx } from '../../platform/context.js';
import type { Deps } from '../../platform/deps.js';
import { QUEUES } from '../../platform/jobs.js';
import { toMajor } from '../../platform/money.js';
import { escapeHtml, handle } from '../../platform/pages.js';
import { readTestSession, TEST_CHECKOUT_PATH } from '../../platform/payments/test-provider.js';
import { findBusiness } from '../../platform/settings.js';
import { contextOf, documentPage, notFoundPage, refusedFromAnotherSite } from '../documents/pages.js';
import { formatMoney } from '../documents/format.js';
import * as invoices from '../invoices/service.js';
import { checkoutProcessing, confirmPayment, declineCheckout, findCheckout } from './service.js';

/**
 * The built-in test provider's checkout (docs/decisions.md D270), at `/pay/test/<session>`: the
 * amount and the invoice, and three buttons as Stripe's test cards are. Succeed records the payment
 * at once; Decline records nothing; Succeed later shows "processing" and the provider confirms it
 * a couple of seconds later (a job). Each answers with the checkout's page again (303), which then
 * says what happened and links back to the invoice.
 */

/** Seconds after Succeed later that the test provider confirms the payment. */
export const CONFIRM_LATER_SECONDS = 2;

type Checkout = NonNullable<Awaited<ReturnType<typeof findCheckout>>>;

/** The checkout the request's session names, in its business's context; null after answering 404. */
async function openCheckout(
  deps: Deps,
  req: Request,
  res: Response,
): Promise<{ ctx: Ctx; checkout: Checkout; session: string } | null> {
  const session = String(req.params.session ?? '');
  const named = readTestSession(deps.secrets, session);
  const ctx = named && (await contextOf(deps, named.businessId));
  const checkout = ctx && named && (await findCheckout(ctx, named.checkoutId));
  if (!ctx || !checkout || checkout.provider !== 'test') {
    notFoundPage(res);
    return null;
  }
  return { ctx, checkout, session };
}

/** The test payment of a checkout: one per checkout, so its id is the checkout's. */
const testPayment = (checkout: Checkout) => ({
  provider: 'test' as const,
  session: checkout.provider_session,
  paymentId: `test_${checkout.id}`,
  amountMinor: Number(checkout.amount_minor),
  currency: checkout.currency,
});

async function checkoutPage(ctx: Ctx, checkout: Checkout, session: string): Promise<string> {
  const [business, invoice] = await Promise.all([
    findBusiness(ctx),
    invoices.getInvoice(ctx, checkout.invoice_id),
  ]);
  const amount = escapeHtml(
    formatMoney(toMajor(Number(checkout.amount_minor), checkout.currency), checkout.currency),
  );
  // A path of this origin, as the checkout's own address is.
  const invoicePage = invoice.hosted_url ? new URL(invoice.hosted_url).pathname : '';
  const back = `<p><a href="${escapeHtml(invoicePage)}">Back to invoice ${escapeHtml(invoice.number)}</a></p>`;
  const head =
    `<header><div><h1>Test checkout</h1><p class="muted">${escapeHtml(business?.name ?? '')}</p></div>` +
    `<div class="right"><h2>${amount}</h2><p class="muted">Invoice ${escapeHtml(invoice.number)}</p></div></header>`;
  const state: Record<string, string> = {
    succeeded: `<p class="notice ok" role="status"><strong>Payment received.</strong> ${amount} was paid. Thank you.</p>`,
    declined:
      `<p class="notice" role="alert"><strong>Payment declined.</strong> Nothing was charged. ` +
      `You can try again from the invoice.</p>`,
    processing:
      `<p class="notice info" role="status"><strong>Payment processing.</strong> The payment is being confirmed; ` +
      `the invoice shows it as paid within a few seconds.</p>`,
  };
  if (state[checkout.status]) return head + state[checkout.status] + back;
  const button = (action: string, label: string, secondary = false) =>
    `<form method="post" action="${TEST_CHECKOUT_PATH}/${escapeHtml(session)}/${action}">` +
    `<button type="submit"${secondary ? ' class="secondary"' : ''}>${label}</button></form>`;
  return (
    head +
    `<p class="notice info" role="note">This is the test payment provider: no card is asked for and no money moves. ` +
    `Choose how the payment ends.</p>` +
    `<div class="actions">${button('succeed', `Succeed: pay ${amount}`)}${button('decline', 'Decline', true)}` +
    `${button('later', 'Succeed later', true)}</div>` +
    back
  );
}

export function mountTestCheckout(app: Express, deps: Deps): void {
  app.get(
    `${TEST_CHECKOUT_PATH}/:session`,
    handle(async (req, res) => {
      const opened = await openCheckout(deps, req, res);
      if (!opened) return;
      documentPage(
        res,
        200,
        'Test checkout',
        await checkoutPage(opened.ctx, opened.checkout, opened.session),
      );
    }),
  );
  app.post(
    `${TEST_CHECKOUT_PATH}/:session/:action`,
    handle(async (req, res) => {
      if (
        refusedFromAnotherSite(deps, req, res, 'This answer came from another website, so it was not taken.')
      ) {
        return;
      }
      const action = String(req.params.action);
      if (!['succeed', 'decline', 'later'].includes(action)) {
        notFoundPage(res);
        return;
      }
      const opened = await openCheckout(deps, req, res);
      if (!opened) return;
      const { ctx, checkout, session } = opened;
      // A checkout already ended (paid, declined, processing) keeps its end: a second post, from a
      // reload or another tab, only shows it. Concurrent posts meet at the checkout's row lock.
      if (checkout.status !== 'open') {
        res.redirect(303, `${TEST_CHECKOUT_PATH}/${encodeURIComponent(session)}`);
        return;
      }
      if (action === 'succeed') await confirmPayment(ctx, testPayment(checkout));
      else if (action === 'decline') await declineCheckout(ctx, checkout.id);
      else {
        await inTransaction(ctx, async (ctx) => {
          if (await checkoutProcessing(ctx, checkout.id)) {
            await ctx.jobs.sendLater(
              ctx.db,
              QUEUES.confirmTestPayment,
              { businessId: ctx.businessId, checkoutId: checkout.id },
              CONFIRM_LATER_SECONDS,
            );
          }
        });
      }
      res.redirect(303, `${TEST_CHECKOUT_PATH}/${encodeURIComponent(session)}`);
    }),
  );
}

/** The test provider's later confirmation (the job Succeed later sent). */
export async function confirmTestPaymentLater(
  deps: Deps,
  job: { businessId: string; checkoutId: string },
): Promise<void> {
  const ctx = await contextOf(deps, job.businessId);
  const checkout = ctx && (await findCheckout(ctx, job.checkoutId));
  if (!ctx || !checkout || checkout.status !== 'processing') return;
  await confirmPayment(ctx, testPayment(checkout));
}
