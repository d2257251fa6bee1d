import type { Executor } from '../../platform/db/database.js';
import type { RecipientKey } from './service.js';

const recipient = (db: Executor, key: RecipientKey) =>
  db
    .updateTable('marketing_recipients')
    .where('business_id', '=', key.businessId)
    .where('campaign_id', '=', key.campaignId)
    .where('customer_id', '=', key.customerId);

/** The recipient a link names, when the campaign sent it anything. */
export async function findRecipient(db: Executor, key: RecipientKey) {
  return db
    .selectFrom('marketing_recipients')
    .select(['status', 'sent_at', 'opened_at', 'clicked_at', 'unsubscribed_at'])
    .where('business_id', '=', key.businessId)
    .where('campaign_id', '=', key.campaignId)
    .where('customer_id', '=', key.customerId)
    .executeTakeFirst();
}

export async function insertEvent(
  db: Executor,
  key: RecipientKey,
  event: { kind: 'open' | 'click'; counted: boolean; url: string | null; userAgent: string | null; at: Date },
): Promise<void> {
  await db
    .insertInto('marketing_tracking_events')
    .values({
      business_id: key.businessId,
      campaign_id: key.campaignId,
      customer_id: key.customerId,
      kind: event.kind,
      counted: event.counted,
      url: event.url,
      user_agent: event.userAgent,
      at: event.at,
    })
    .execute();
}

/** The first counted open (a click counts as one too) and the first click; later ones keep the first. */
export async function markTracked(db: Executor, key: RecipientKey, kind: 'open' | 'click', at: Date) {
  await recipient(db, key)
    .set((eb) => ({
      opened_at: eb.fn.coalesce('opened_at', eb.val(at)),
      ...(kind === 'click' && { clicked_at: eb.fn.coalesce('clicked_at', eb.val(at)) }),
      updated_at: at,
    }))
    .execute();
}

/** The contact unsubscribed through this campaign (the first time only). */
export async function markUnsubscribed(db: Executor, key: RecipientKey, at: Date): Promise<void> {
  await recipient(db, key)
    .set({ unsubscribed_at: at, updated_at: at })
    .where('unsubscribed_at', 'is', null)
    .execute();
}
