import type { Deps } from '../../platform/deps.js';
import { providerOf } from '../../platform/payments/connection.js';
import { RefundRefusedError } from '../../platform/payments/provider.js';
import { contextOf } from '../documents/pages.js';
import * as queries from './queries.js';
import { settleCardRefund } from './refunds.js';

/*
 * The job that asks a payment provider for a credit note's refund to the card (docs/decisions.md
 * D271), apart from refunds.ts, which the credit notes use, because it opens the business's context
 * the way the hosted pages do.
 */

/** The job: asks the provider to refund, and settles what it answers. */
export async function refundToCard(deps: Deps, job: { businessId: string; creditNoteId: string }) {
  const ctx = await contextOf(deps, job.businessId);
  const refund = ctx && (await queries.findCardRefund(ctx.db, job.businessId, job.creditNoteId));
  // Settled, or asked for already: what remains comes by the provider's webhook.
  if (!ctx || !refund || refund.refund_status !== 'pending' || refund.refund_provider_id) return;
  const provider = await providerOf(ctx);
  if (provider?.name !== refund.refund_provider) {
    ctx.log.warn(
      { creditNoteId: refund.id, provider: refund.refund_provider },
      'card refund failed: its payment provider is no longer connected',
    );
    await settleCardRefund(ctx, refund.id, { status: 'failed', refundId: null });
    return;
  }
  try {
    const started = await provider.refund(
      refund.refund_payment_id!,
      Number(refund.refund_minor),
      `refund-${refund.id}`,
    );
    await settleCardRefund(ctx, refund.id, started);
  } catch (error) {
    if (!(error instanceof RefundRefusedError)) throw error; // retried by the queue, with the same key
    ctx.log.warn({ creditNoteId: refund.id, reason: error.message }, 'card refund refused by the provider');
    await settleCardRefund(ctx, refund.id, { status: 'failed', refundId: null });
  }
}
