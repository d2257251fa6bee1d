import type { Insertable } from 'kysely';
import type { Executor, Trx } from '../../platform/db/database.js';
import type { PaymentCheckoutsTable, PaymentPayoutsTable } from '../../platform/db/types.js';
import type { ProviderName } from '../../platform/payments/provider.js';

export async function insertCheckout(db: Executor, values: Insertable<PaymentCheckoutsTable>) {
  await db.insertInto('payment_checkouts').values(values).execute();
}

export async function findCheckout(db: Executor, businessId: string, id: string) {
  return db
    .selectFrom('payment_checkouts')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Where the business's checkout of a provider's session stands, read without a lock. */
export async function findCheckoutBySession(
  db: Executor,
  businessId: string,
  provider: ProviderName,
  session: string,
) {
  return db
    .selectFrom('payment_checkouts')
    .select('status')
    .where('business_id', '=', businessId)
    .where('provider', '=', provider)
    .where('provider_session', '=', session)
    .executeTakeFirst();
}

/** The business's checkout a provider's session belongs to, locked until the transaction ends. */
export async function lockCheckoutBySession(
  trx: Trx,
  businessId: string,
  provider: ProviderName,
  session: string,
) {
  return trx
    .selectFrom('payment_checkouts')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('provider', '=', provider)
    .where('provider_session', '=', session)
    .forUpdate()
    .executeTakeFirst();
}

/** The checkout paid: the provider's id of the payment, the payment recorded and what went to credit. */
export async function completeCheckout(
  trx: Trx,
  businessId: string,
  id: string,
  done: { providerPaymentId: string; paymentId: string | null; creditedMinor: number; at: Date },
) {
  await trx
    .updateTable('payment_checkouts')
    .set({
      status: 'succeeded',
      provider_payment_id: done.providerPaymentId,
      payment_id: done.paymentId,
      credited_minor: done.creditedMinor,
      completed_at: done.at,
    })
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .execute();
}

/** An open or processing checkout declined, or one waiting for the provider's confirmation. */
export async function setCheckoutStatus(
  db: Executor,
  businessId: string,
  id: string,
  status: 'declined' | 'processing',
  at: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('payment_checkouts')
    .set({ status, ...(status === 'declined' && { completed_at: at }) })
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .where('status', '=', 'open')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** A provider's checkout that ended unpaid (expired, failed): declined while it was still open. */
export async function declineSession(
  db: Executor,
  businessId: string,
  provider: ProviderName,
  session: string,
  at: Date,
) {
  await db
    .updateTable('payment_checkouts')
    .set({ status: 'declined', completed_at: at })
    .where('business_id', '=', businessId)
    .where('provider', '=', provider)
    .where('provider_session', '=', session)
    .where('status', 'in', ['open', 'processing'])
    .execute();
}

/**
 * The invoice's payments a provider took, each with what is left to refund to its card: its amount
 * less the card refunds of credit notes that are pending or went through.
 */
export async function refundablePayments(db: Executor, businessId: string, invoiceId: string) {
  return db
    .selectFrom('payments as p')
    .select((eb) => [
      'p.provider',
      'p.provider_payment_id',
      'p.amount_minor',
      eb
        .selectFrom('credit_notes as n')
        .select((n) => n.fn.coalesce(n.fn.sum<string>('n.refund_minor'), n.lit(0)).as('refunded'))
        .whereRef('n.business_id', '=', 'p.business_id')
        .whereRef('n.refund_provider', '=', 'p.provider')
        .whereRef('n.refund_payment_id', '=', 'p.provider_payment_id')
        .where('n.refund_status', 'in', ['pending', 'succeeded'])
        .as('refunded_minor'),
    ])
    .where('p.business_id', '=', businessId)
    .where('p.invoice_id', '=', invoiceId)
    .where('p.provider', 'is not', null)
    .orderBy('p.created_at', 'desc')
    .orderBy('p.id', 'desc')
    .execute();
}

/** A credit note's card refund, locked until the transaction ends when `lock`. */
function cardRefund(db: Executor, businessId: string) {
  return db
    .selectFrom('credit_notes')
    .select([
      'id',
      'number',
      'currency',
      'refund_minor',
      'refund_status',
      'refund_provider',
      'refund_payment_id',
      'refund_provider_id',
    ])
    .where('business_id', '=', businessId)
    .where('refund_provider', 'is not', null);
}

export const findCardRefund = (db: Executor, businessId: string, creditNoteId: string) =>
  cardRefund(db, businessId).where('id', '=', creditNoteId).executeTakeFirst();

export const lockCardRefund = (trx: Trx, businessId: string, creditNoteId: string) =>
  cardRefund(trx, businessId).where('id', '=', creditNoteId).forUpdate().executeTakeFirst();

/** The credit note whose card refund the provider knows by `refundId`. */
export const cardRefundById = (db: Executor, businessId: string, provider: ProviderName, refundId: string) =>
  cardRefund(db, businessId)
    .where('refund_provider', '=', provider)
    .where('refund_provider_id', '=', refundId)
    .executeTakeFirst();

/** The card refunds of one provider payment, oldest first. */
export const cardRefundsOfPayment = (
  db: Executor,
  businessId: string,
  provider: ProviderName,
  paymentId: string,
) =>
  cardRefund(db, businessId)
    .where('refund_provider', '=', provider)
    .where('refund_payment_id', '=', paymentId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();

/** Where a card refund stands now; `refundId` kept once the provider named it. */
export async function setCardRefund(
  trx: Trx,
  businessId: string,
  creditNoteId: string,
  change: { status: 'pending' | 'succeeded' | 'failed'; refundId: string | null; at: Date },
) {
  await trx
    .updateTable('credit_notes')
    .set((eb) => ({
      refund_status: change.status,
      refund_provider_id: eb.fn.coalesce('refund_provider_id', eb.val(change.refundId)),
      refund_settled_at: change.status === 'pending' ? null : change.at,
      updated_at: change.at,
    }))
    .where('business_id', '=', businessId)
    .where('id', '=', creditNoteId)
    .execute();
}

/** A provider's payout kept once: false when it was kept already. */
export async function insertPayout(trx: Trx, values: Insertable<PaymentPayoutsTable>): Promise<boolean> {
  const result = await trx
    .insertInto('payment_payouts')
    .values(values)
    .onConflict((oc) => oc.columns(['business_id', 'provider', 'provider_payout_id']).doNothing())
    .returning('provider_payout_id')
    .executeTakeFirst();
  return result !== undefined;
}
