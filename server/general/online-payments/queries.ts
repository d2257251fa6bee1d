import type { Insertable } from 'kysely';
import type { Executor, Trx } from '../../platform/db/database.js';
import type { PaymentCheckoutsTable } from '../../platform/db/types.js';
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
