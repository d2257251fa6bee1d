import type { Request } from 'express';
import { ApiError } from '../../platform/errors.js';
import type { Deps } from '../../platform/deps.js';
import { stripeOf } from '../../platform/payments/connection.js';
import { ProviderSignatureError } from '../../platform/payments/stripe.js';
import { contextOf } from '../documents/pages.js';
import * as queries from './queries.js';
import { refundsReported } from './refunds.js';
import { confirmPayment, payoutPaid } from './service.js';

export type WebhookOutcome =
  'recorded' | 'already recorded' | 'checkout ended' | 'refunds settled' | 'ignored';

const refused = (message: string) => new ApiError('BAD_REQUEST', message);

/**
 * A payment provider's webhook (docs/decisions.md D270): the business named in its address, the
 * provider it connected, the signature over the raw body with that business's signing secret, then
 * the event. A paid checkout is recorded once (`confirmPayment`); an expired or failed one is marked
 * declined if still open; a refund settles the credit note's card refund once (docs/decisions.md D271);
 * a payout is kept once and posted to the bank. Anything else is acknowledged and left. Whatever is
 * refused changes nothing.
 */
export async function receiveProviderWebhook(
  deps: Deps,
  req: Request,
  provider: string,
  businessId: string,
): Promise<WebhookOutcome> {
  // The test provider confirms through its own pages; only Stripe sends webhooks.
  if (provider !== 'stripe')
    throw new ApiError(
      'NOT_FOUND',
      `No webhooks are received from a provider named ${provider}: the address is /v1/payments/webhooks/stripe/<business id>`,
    );
  const ctx = await contextOf(deps, businessId);
  if (!ctx) throw refused('No business has this id: check the webhook endpoint address');
  const stripe = await stripeOf(ctx);
  if (!stripe)
    throw refused('This business is not connected to Stripe: PUT /v1/business/payments connects it');
  let event;
  try {
    event = stripe.parseWebhook(
      req.rawBody ?? Buffer.alloc(0),
      req.get('stripe-signature'),
      deps.clock.now().getTime() / 1000,
    );
  } catch (err) {
    if (err instanceof ProviderSignatureError) {
      throw refused(`The Stripe-Signature does not check out: ${err.message}`);
    }
    throw err;
  }
  if (event.kind === 'payment') {
    const done = await confirmPayment(ctx, event.payment);
    return done === 'unknown checkout' ? 'ignored' : done;
  }
  if (event.kind === 'checkout ended') {
    await queries.declineSession(ctx.db, ctx.businessId, 'stripe', event.session, ctx.clock.now());
    return 'checkout ended';
  }
  if (event.kind === 'refund' || event.kind === 'refund status') {
    const settled = await refundsReported(ctx, {
      provider: 'stripe',
      paymentId: event.paymentId,
      refundId: event.refundId,
      ...(event.kind === 'refund'
        ? { status: 'succeeded', refundedMinor: event.amountMinor }
        : { status: event.status }),
    });
    return settled > 0 ? 'refunds settled' : 'ignored';
  }
  if (event.kind === 'payout') {
    if (event.amountMinor <= 0) return 'ignored';
    return payoutPaid(ctx, { provider: 'stripe', ...event });
  }
  return 'ignored';
}
