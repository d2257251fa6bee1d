import { today } from '../../platform/calendar.js';
import { inTransaction, type Ctx, type TxCtx } from '../../platform/context.js';
import { invalid } from '../../platform/errors.js';
import { QUEUES } from '../../platform/jobs.js';
import { toMajor } from '../../platform/money.js';
import { providerOf } from '../../platform/payments/connection.js';
import type { ProviderName, RefundStatus } from '../../platform/payments/provider.js';
import * as queries from './queries.js';

/*
 * Refunds to the card (docs/decisions.md D271): a credit note's `card` refund on an invoice paid
 * online goes back through the provider that took the payment. The credit note is written with its
 * refund `pending` and a job asks the provider (the same key each attempt, so a retry never refunds
 * twice); the provider's answer, or its webhook later, settles it once: `succeeded` posts the refund
 * (the `cardRefundSettled` hook), `failed` posts nothing and the money stays owed to the customer.
 */

export interface CardRefundTarget {
  provider: ProviderName;
  paymentId: string;
}

const money = (minor: number, currency: string) => `${toMajor(minor, currency)} ${currency}`;

/**
 * The provider payment a card refund of `refundMinor` goes to: the newest one of the invoice (locked
 * by the caller) with that much left to refund, taken by the provider connected now. Null when the
 * invoice was not paid online, so the refund is one paid back by hand; 422 when no payment can take it.
 */
export async function cardRefundTarget(
  ctx: TxCtx,
  invoice: { id: string; number: string; currency: string },
  refundMinor: number,
): Promise<CardRefundTarget | null> {
  const payments = await queries.refundablePayments(ctx.db, ctx.businessId, invoice.id);
  if (payments.length === 0) return null;
  const connected = await providerOf(ctx);
  const left = payments
    .filter((p) => p.provider === connected?.name)
    .map((p) => ({ ...p, leftMinor: Number(p.amount_minor) - Number(p.refunded_minor) }));
  const target = left.find((p) => p.leftMinor >= refundMinor);
  if (target && connected) return { provider: connected.name, paymentId: target.provider_payment_id! };
  if (left.length === 0) {
    throw invalid(
      'refund_method',
      `${invoice.number} was paid online through ${payments[0]!.provider}, which is no longer connected: ` +
        'refund by another method (bank_transfer, cash, ...) and pay it back by hand',
    );
  }
  const most = Math.max(0, ...left.map((p) => p.leftMinor));
  throw invalid(
    'refund_amount',
    most === 0
      ? `The card payments of ${invoice.number} are refunded in full: refund by another method`
      : `At most ${money(most, invoice.currency)} can go back to one card payment of ${invoice.number}: ` +
          'refund the rest by another method, or as customer credit',
  );
}

/** Asks for the refund once the credit note commits. */
export async function requestCardRefund(ctx: TxCtx, creditNoteId: string): Promise<void> {
  await ctx.jobs.send(ctx.db, QUEUES.refundToCard, { businessId: ctx.businessId, creditNoteId });
}

export type Settlement = 'settled' | 'already settled' | 'unknown refund';

/**
 * A card refund where the provider says it stands, settled once: the credit note is locked, so of
 * answers arriving together one settles and the others find it done. `succeeded` posts the refund
 * on today's date; `pending` only keeps the provider's id of it.
 */
export async function settleCardRefund(
  ctx: Ctx,
  creditNoteId: string,
  outcome: { status: RefundStatus; refundId: string | null },
): Promise<Settlement> {
  return inTransaction(ctx, async (ctx) => {
    const refund = await queries.lockCardRefund(ctx.db, ctx.businessId, creditNoteId);
    if (!refund) return 'unknown refund';
    if (refund.refund_status !== 'pending') return 'already settled';
    await queries.setCardRefund(ctx.db, ctx.businessId, creditNoteId, {
      ...outcome,
      at: ctx.clock.now(),
    });
    if (outcome.status === 'succeeded') {
      await ctx.hooks.announce(ctx, 'cardRefundSettled', {
        creditNoteId,
        creditNoteNumber: refund.number,
        currency: refund.currency,
        amountMinor: Number(refund.refund_minor),
        date: await today(ctx),
      });
    }
    return outcome.status === 'pending' ? 'already settled' : 'settled';
  });
}

/**
 * A provider's word on refunds of one payment. By the refund's id when the provider names it;
 * otherwise `refundedMinor`, everything refunded on the payment so far, settles the payment's
 * pending refunds oldest first as far as it reaches.
 */
export async function refundsReported(
  ctx: Ctx,
  report: {
    provider: ProviderName;
    paymentId: string | null;
    refundId: string | null;
    status: RefundStatus;
    refundedMinor?: number;
  },
): Promise<number> {
  if (report.refundId) {
    const known = await queries.cardRefundById(ctx.db, ctx.businessId, report.provider, report.refundId);
    if (known) {
      const done = await settleCardRefund(ctx, known.id, {
        status: report.status,
        refundId: report.refundId,
      });
      return done === 'settled' ? 1 : 0;
    }
  }
  if (report.refundedMinor === undefined || !report.paymentId || report.status !== 'succeeded') return 0;
  const refunds = await queries.cardRefundsOfPayment(
    ctx.db,
    ctx.businessId,
    report.provider,
    report.paymentId,
  );
  let reached = 0;
  let settled = 0;
  for (const refund of refunds) {
    if (refund.refund_status === 'failed') continue;
    reached += Number(refund.refund_minor);
    if (reached > report.refundedMinor) break;
    if (refund.refund_status === 'pending') {
      const done = await settleCardRefund(ctx, refund.id, { status: 'succeeded', refundId: null });
      if (done === 'settled') settled += 1;
    }
  }
  return settled;
}
