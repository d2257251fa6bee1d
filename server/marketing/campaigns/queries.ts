import { sql, type Insertable, type Updateable } from 'kysely';
import type { ListCampaignsQuery, ListRecipientsQuery } from '../../../contract/marketing/index.js';
import type { Executor } from '../../platform/db/database.js';
import { pageWithTotal } from '../../platform/db/paged.js';
import type { MarketingCampaignsTable } from '../../platform/db/types.js';
import { inSegment, type SegmentDefinition } from '../segments/filters.queries.js';

/** Whether a scheduled, sending or paused campaign uses the segment (or template). */
export async function usedByActiveCampaign(
  db: Executor,
  businessId: string,
  by: { segmentId: string } | { templateId: string },
): Promise<boolean> {
  let q = db
    .selectFrom('marketing_campaigns')
    .select('id')
    .where('business_id', '=', businessId)
    .where('status', 'in', ['scheduled', 'sending', 'paused']);
  q =
    'segmentId' in by ? q.where('segment_id', '=', by.segmentId) : q.where('template_id', '=', by.templateId);
  return (await q.limit(1).executeTakeFirst()) !== undefined;
}

export async function findCampaign(db: Executor, businessId: string, id: string, forUpdate = false) {
  const q = db
    .selectFrom('marketing_campaigns')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('id', '=', id);
  return (forUpdate ? q.forUpdate() : q).executeTakeFirst();
}

export type CampaignRow = NonNullable<Awaited<ReturnType<typeof findCampaign>>>;

export async function listCampaigns(db: Executor, businessId: string, query: ListCampaignsQuery) {
  let base = db.selectFrom('marketing_campaigns').selectAll().where('business_id', '=', businessId);
  if (query.status) base = base.where('status', '=', query.status);
  return pageWithTotal(base, (q) => q.orderBy('created_at', 'desc').orderBy('id', 'desc'), query);
}

export async function insertCampaign(
  db: Executor,
  values: Insertable<MarketingCampaignsTable>,
): Promise<void> {
  await db.insertInto('marketing_campaigns').values(values).execute();
}

export async function updateCampaign(
  db: Executor,
  businessId: string,
  id: string,
  changes: Updateable<MarketingCampaignsTable>,
) {
  return db
    .updateTable('marketing_campaigns')
    .set(changes)
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * One recipient row per eligible contact of the segment (an email, not unsubscribed, not
 * suppressed), with its merge fields as they are now, in one statement; returns how many. A new
 * recipient is due at once, whatever clock started the campaign (a sandbox's test clock runs ahead
 * of the sending workers'): `next_attempt_at` dates only retries.
 */
export async function resolveRecipients(
  db: Executor,
  campaignId: string,
  segment: SegmentDefinition,
  now: Date,
): Promise<number> {
  const result = await db
    .insertInto('marketing_recipients')
    .columns([
      'business_id',
      'campaign_id',
      'customer_id',
      'email',
      'fields',
      'status',
      'next_attempt_at',
      'updated_at',
    ])
    .expression((eb) =>
      eb
        .selectFrom('customer_directory as c')
        .where('c.business_id', '=', segment.businessId)
        .where(inSegment(segment))
        .where('c.email', 'is not', null)
        .where('c.email', '<>', '')
        .where('c.unsubscribed', '=', false)
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('marketing_suppressions as s')
                .select('s.email')
                .where('s.business_id', '=', segment.businessId)
                .whereRef('s.email', '=', sql`lower(c.email)`),
            ),
          ),
        )
        .select([
          sql<string>`${segment.businessId}::text`.as('business_id'),
          sql<string>`${campaignId}::text`.as('campaign_id'),
          'c.id',
          sql<string>`c.email`.as('email'),
          sql`jsonb_build_object('first_name', c.first_name, 'last_name', c.last_name, 'name', c.name,
                'email', c.email, 'company', c.company, 'attributes', c.attributes)`.as('fields'),
          sql<string>`'queued'`.as('status'),
          sql`'epoch'::timestamptz`.as('next_attempt_at'),
          sql`${now}::timestamptz`.as('updated_at'),
        ]),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

/** Queued recipients of a stopped campaign are skipped (a cancel). */
export async function skipQueued(
  db: Executor,
  businessId: string,
  campaignId: string,
  now: Date,
): Promise<void> {
  await db
    .updateTable('marketing_recipients')
    .set({ status: 'skipped', updated_at: now })
    .where('business_id', '=', businessId)
    .where('campaign_id', '=', campaignId)
    .where('status', '=', 'queued')
    .execute();
}

export async function listRecipients(
  db: Executor,
  businessId: string,
  campaignId: string,
  query: ListRecipientsQuery,
) {
  let base = db
    .selectFrom('marketing_recipients')
    .select(['email', 'status', 'sent_at', 'opened_at', 'clicked_at', 'error'])
    .where('business_id', '=', businessId)
    .where('campaign_id', '=', campaignId);
  if (query.status) base = base.where('status', '=', query.status);
  return pageWithTotal(base, (q) => q.orderBy('email').orderBy('customer_id'), query);
}

/** The counts analytics are made of. */
export async function recipientCounts(db: Executor, businessId: string, campaignId: string) {
  const row = await db
    .selectFrom('marketing_recipients')
    .where('business_id', '=', businessId)
    .where('campaign_id', '=', campaignId)
    .select([
      (eb) => eb.fn.countAll<number>().as('recipients'),
      sql<number>`count(*) FILTER (WHERE status = 'sent')`.as('delivered'),
      sql<number>`count(opened_at)`.as('opened'),
      sql<number>`count(clicked_at)`.as('clicked'),
      sql<number>`count(*) FILTER (WHERE status = 'bounced')`.as('bounced'),
      sql<number>`count(unsubscribed_at)`.as('unsubscribed'),
      sql<number>`count(complained_at)`.as('spam_reports'),
      sql<Date | null>`max(updated_at)`.as('last_updated_at'),
    ])
    .executeTakeFirstOrThrow();
  return row;
}

/** Suppresses an address for every future campaign of the business. */
export async function suppress(
  db: Executor,
  businessId: string,
  email: string,
  reason: 'hard_bounce' | 'complaint',
  campaignId: string | null,
  now: Date,
): Promise<void> {
  await db
    .insertInto('marketing_suppressions')
    .values({
      business_id: businessId,
      email: email.toLowerCase(),
      reason,
      campaign_id: campaignId,
      created_at: now,
    })
    .onConflict((oc) => oc.columns(['business_id', 'email']).doNothing())
    .execute();
}

/** A provider's report about a recipient of a campaign (by email). */
export async function markReported(
  db: Executor,
  businessId: string,
  campaignId: string,
  email: string,
  type: 'hard' | 'soft' | 'complaint',
  reason: string | null,
  now: Date,
): Promise<void> {
  const q = db
    .updateTable('marketing_recipients')
    .where('business_id', '=', businessId)
    .where('campaign_id', '=', campaignId)
    .where(sql`lower(email)`, '=', email.toLowerCase());
  if (type === 'complaint') await q.set({ complained_at: now, updated_at: now }).execute();
  else if (type === 'hard') await q.set({ status: 'bounced', error: reason, updated_at: now }).execute();
  // A soft bounce is a delay the provider retries: noted, the recipient's state kept.
  else await q.set({ error: reason, updated_at: now }).execute();
}
