import type {
  Analytics,
  BounceBody,
  Campaign,
  CampaignStatus,
  CreateCampaignBody,
  ListCampaignsQuery,
  ListRecipientsQuery,
  Recipient,
  ScheduleBody,
  SegmentFilters,
} from '../../../contract/marketing/index.js';
import { type Ctx, type TxCtx, inTransaction } from '../../platform/context.js';
import { type Trx } from '../../platform/db/database.js';
import { ApiError, invalid, invalidState, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { percentOf } from '../../platform/money.js';
import * as queries from './queries.js';
import { isVerifiedSender } from '../domains/service.js';
import { findSegment, type SegmentRow } from '../segments/queries.js';
import { findTemplate, type TemplateRow } from '../templates/queries.js';

type Row = queries.CampaignRow;

const iso = (d: Date | null) => d?.toISOString() ?? null;

export function toCampaign(row: Row): Campaign {
  return {
    id: row.id,
    name: row.name,
    template_id: row.template_id,
    segment_id: row.segment_id,
    status: row.status,
    subject_override: row.subject_override,
    from_name_override: row.from_name_override,
    from_email_override: row.from_email_override,
    reply_to: row.reply_to,
    scheduled_at: iso(row.scheduled_at),
    sent_at: iso(row.sent_at),
    recipients_count: row.recipients_count,
    paused_reason: row.paused_reason,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

async function campaignOrFail(ctx: Ctx, id: string, forUpdate = false): Promise<Row> {
  const row = await queries.findCampaign(ctx.db, ctx.businessId, id, forUpdate);
  if (!row) throw notFound('Campaign');
  return row;
}

export async function listCampaigns(ctx: Ctx, query: ListCampaignsQuery) {
  const { rows, total } = await queries.listCampaigns(ctx.db, ctx.businessId, query);
  return { campaigns: rows.map(toCampaign), total_count: total };
}

export async function getCampaign(ctx: Ctx, id: string): Promise<Campaign> {
  return toCampaign(await campaignOrFail(ctx, id));
}

export async function createCampaign(ctx: Ctx, input: CreateCampaignBody): Promise<Campaign> {
  return inTransaction(ctx, async (ctx) => {
    const template = await findTemplate(ctx.db, ctx.businessId, input.template_id, 'share');
    if (!template) throw invalid('template_id', 'No template with this id');
    const segment = await findSegment(ctx.db, ctx.businessId, input.segment_id, 'share');
    if (!segment) throw invalid('segment_id', 'No segment with this id');
    if (segment.status !== 'active') throw invalid('segment_id', 'The segment is archived');
    if (input.from_email_override && !(await isVerifiedSender(ctx, input.from_email_override))) {
      throw invalid('from_email_override', 'Not at a verified sender domain of this business');
    }
    const now = ctx.clock.now();
    const id = newId('cmp');
    await queries.insertCampaign(ctx.db, {
      business_id: ctx.businessId,
      id,
      name: input.name,
      template_id: input.template_id,
      segment_id: input.segment_id,
      status: 'draft',
      subject_override: input.subject_override ?? null,
      from_name_override: input.from_name_override ?? null,
      from_email_override: input.from_email_override ?? null,
      reply_to: input.reply_to ?? null,
      created_at: now,
      updated_at: now,
    });
    return toCampaign(await campaignOrFail(ctx, id));
  });
}

/** A campaign's template and segment, each undefined when it was deleted. */
export interface CampaignParts {
  template: TemplateRow | undefined;
  segment: SegmentRow | undefined;
}

export type MissingPart = 'template' | 'segment';

/**
 * The campaign's template and segment, locked FOR SHARE until the transaction ends. A delete locks
 * the row FOR UPDATE and only then looks for active campaigns, so a delete and a campaign starting
 * to send are ordered by that lock: either the delete waits and then sees this campaign active (409),
 * or it commits first and the row is read here as gone (the re-check of `deleted_at` under the lock).
 */
export async function lockParts(trx: Trx, businessId: string, row: Row): Promise<CampaignParts> {
  return {
    template: await findTemplate(trx, businessId, row.template_id, 'share'),
    segment: await findSegment(trx, businessId, row.segment_id, 'share'),
  };
}

/** What the campaign lacks to send; the segment matters only until its recipients are resolved. */
export function missingParts(parts: CampaignParts, needSegment = true): MissingPart[] {
  return [
    ...(parts.template ? [] : ['template' as const]),
    ...(parts.segment || !needSegment ? [] : ['segment' as const]),
  ];
}

/** "template was deleted", "segment was deleted" or "template and segment were deleted". */
const deleted = (missing: readonly MissingPart[]) =>
  `${missing.join(' and ')} ${missing.length > 1 ? 'were' : 'was'} deleted`;

/** What has become of a campaign missing its template or segment, and what its owner can do. */
export function orphanNotice(missing: readonly MissingPart[]): { reason: string; advice: string } {
  return {
    reason: `its ${deleted(missing)}`,
    advice: `Cancel it and create a campaign with another ${missing.join(' and ')}.`,
  };
}

/** 422 naming `template_id` and/or `segment_id`: a campaign cannot send without them. */
function refusal(missing: readonly MissingPart[]): ApiError {
  return new ApiError(
    'VALIDATION_ERROR',
    `This campaign's ${deleted(missing)}: create a campaign with another ${missing.join(' and ')} ` +
      '(this one can be cancelled)',
    missing.map((part) => ({ field: `${part}_id`, message: `The ${part} was deleted` })),
  );
}

/** The campaign's template and segment, locked (see lockParts); 422 when either was deleted. */
async function requireParts(ctx: TxCtx, row: Row) {
  const { template, segment } = await lockParts(ctx.db, ctx.businessId, row);
  if (!template || !segment) throw refusal(missingParts({ template, segment }));
  return { template, segment };
}

/**
 * Starts sending, in the caller's transaction: the segment (locked by lockParts) resolved into
 * recipients now. A campaign with none is sent at once.
 */
export async function startSending(ctx: TxCtx, row: Row, segment: SegmentRow): Promise<Row> {
  const now = ctx.clock.now();
  const count = await queries.resolveRecipients(
    ctx.db,
    row.id,
    {
      businessId: ctx.businessId,
      id: segment.id,
      filters: (segment.filters as SegmentFilters | null) ?? null,
      listed: Number(segment.listed_contacts ?? 0),
    },
    now,
  );
  return queries.updateCampaign(ctx.db, ctx.businessId, row.id, {
    status: count === 0 ? 'sent' : 'sending',
    recipients_count: count,
    started_at: now,
    ...(count === 0 && { sent_at: now }),
    paused_reason: null,
    updated_at: now,
  });
}

const refuse = (action: string, status: CampaignStatus) =>
  invalidState(`A ${status} campaign cannot be ${action}`);

export async function sendCampaign(ctx: Ctx, id: string): Promise<number> {
  return inTransaction(ctx, async (ctx) => {
    const row = await campaignOrFail(ctx, id, true);
    if (row.status !== 'draft' && row.status !== 'scheduled') throw refuse('sent', row.status);
    const { segment } = await requireParts(ctx, row);
    return (await startSending(ctx, row, segment)).recipients_count;
  });
}

export async function scheduleCampaign(ctx: Ctx, id: string, input: ScheduleBody): Promise<string> {
  const at = new Date(input.scheduled_at);
  return inTransaction(ctx, async (ctx) => {
    const row = await campaignOrFail(ctx, id, true);
    if (row.status !== 'draft') throw refuse('scheduled', row.status);
    if (at.getTime() <= ctx.clock.now().getTime()) throw invalid('scheduled_at', 'Must be in the future');
    await requireParts(ctx, row);
    const updated = await queries.updateCampaign(ctx.db, ctx.businessId, id, {
      status: 'scheduled',
      scheduled_at: at,
      updated_at: ctx.clock.now(),
    });
    return (updated.scheduled_at ?? at).toISOString();
  });
}

export async function pauseCampaign(ctx: Ctx, id: string, reason: string | null = null): Promise<void> {
  await inTransaction(ctx, async (ctx) => {
    const row = await campaignOrFail(ctx, id, true);
    if (row.status !== 'sending' && row.status !== 'scheduled') throw refuse('paused', row.status);
    await queries.updateCampaign(ctx.db, ctx.businessId, id, {
      status: 'paused',
      paused_reason: reason,
      updated_at: ctx.clock.now(),
    });
  });
}

/** Back to scheduled while scheduled_at is ahead and sending never began; otherwise sending. */
export async function resumeCampaign(ctx: Ctx, id: string): Promise<CampaignStatus> {
  return inTransaction(ctx, async (ctx) => {
    const row = await campaignOrFail(ctx, id, true);
    if (row.status !== 'paused') throw refuse('resumed', row.status);
    const now = ctx.clock.now();
    // Never back to sending (or scheduled) with nothing it can send. Once started, its recipients
    // are resolved and only the template matters.
    if (row.started_at) {
      const missing = missingParts(await lockParts(ctx.db, ctx.businessId, row), false);
      if (missing.length > 0) throw refusal(missing);
      await queries.updateCampaign(ctx.db, ctx.businessId, id, {
        status: 'sending',
        paused_reason: null,
        updated_at: now,
      });
      return 'sending';
    }
    const { segment } = await requireParts(ctx, row);
    if (row.scheduled_at && row.scheduled_at > now) {
      await queries.updateCampaign(ctx.db, ctx.businessId, id, {
        status: 'scheduled',
        paused_reason: null,
        updated_at: now,
      });
      return 'scheduled';
    }
    return (await startSending(ctx, row, segment)).status;
  });
}

export async function cancelCampaign(ctx: Ctx, id: string): Promise<void> {
  await inTransaction(ctx, async (ctx) => {
    const row = await campaignOrFail(ctx, id, true);
    if (!['draft', 'scheduled', 'paused'].includes(row.status)) throw refuse('cancelled', row.status);
    const now = ctx.clock.now();
    await queries.updateCampaign(ctx.db, ctx.businessId, id, { status: 'cancelled', updated_at: now });
    await queries.skipQueued(ctx.db, ctx.businessId, id, now);
  });
}

const rate = (part: number, whole: number) => (whole === 0 ? 0 : percentOf(BigInt(part), BigInt(whole)));

export async function campaignAnalytics(ctx: Ctx, id: string): Promise<Analytics> {
  const row = await campaignOrFail(ctx, id);
  if (!row.started_at)
    throw invalidState(`Analytics exist once sending has begun; this campaign is ${row.status}`);
  const c = await queries.recipientCounts(ctx.db, ctx.businessId, id);
  const n = (v: unknown) => Number(v ?? 0);
  const [recipients, delivered] = [n(c.recipients), n(c.delivered)];
  return {
    campaign_id: id,
    recipients,
    delivered,
    opened: n(c.opened),
    clicked: n(c.clicked),
    bounced: n(c.bounced),
    unsubscribed: n(c.unsubscribed),
    spam_reports: n(c.spam_reports),
    open_rate: rate(n(c.opened), delivered),
    click_rate: rate(n(c.clicked), delivered),
    bounce_rate: rate(n(c.bounced), recipients),
    unsubscribe_rate: rate(n(c.unsubscribed), delivered),
    last_updated_at: (c.last_updated_at ? new Date(c.last_updated_at) : row.updated_at).toISOString(),
  };
}

export async function listRecipients(
  ctx: Ctx,
  id: string,
  query: ListRecipientsQuery,
): Promise<{ recipients: Recipient[]; total_count: number }> {
  await campaignOrFail(ctx, id);
  const { rows, total } = await queries.listRecipients(ctx.db, ctx.businessId, id, query);
  return {
    recipients: rows.map((r) => ({
      email: r.email,
      status: r.status,
      sent_at: iso(r.sent_at),
      opened_at: iso(r.opened_at),
      clicked_at: iso(r.clicked_at),
      error: r.error,
    })),
    total_count: total,
  };
}

/** A provider's bounce or complaint: counted on the campaign's recipient, and suppressing when hard. */
export async function reportBounce(ctx: Ctx, input: BounceBody): Promise<void> {
  await inTransaction(ctx, async (ctx) => {
    const now = ctx.clock.now();
    if (input.campaign_id) {
      if (!(await queries.findCampaign(ctx.db, ctx.businessId, input.campaign_id))) {
        throw invalid('campaign_id', 'No campaign with this id');
      }
      await queries.markReported(
        ctx.db,
        ctx.businessId,
        input.campaign_id,
        input.email,
        input.type,
        input.reason ?? null,
        now,
      );
    }
    if (input.type !== 'soft') {
      await queries.suppress(
        ctx.db,
        ctx.businessId,
        input.email,
        input.type === 'hard' ? 'hard_bounce' : 'complaint',
        input.campaign_id ?? null,
        now,
      );
    }
  });
}
