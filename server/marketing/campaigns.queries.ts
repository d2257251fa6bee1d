import type { Executor } from '../platform/db/database.js';

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
