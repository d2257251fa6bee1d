import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { resultEnvelope } from '../common/envelopes.js';
import { resultErrors } from '../common/errors.js';
import {
  EmailSchema,
  IdempotencyHeadersSchema,
  IdParamsSchema,
  IdSchema,
  dateTimeField,
  idOf,
  TimestampSchema,
} from '../common/schemas.js';
import { MarketingPageQuerySchema, marketingRoute } from './shared.js';
import { MAX_SUBJECT } from './templates.js';

const c = initContract();

export const CAMPAIGN_STATUSES = ['draft', 'scheduled', 'sending', 'sent', 'paused', 'cancelled'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];
export const RECIPIENT_STATUSES = ['queued', 'sending', 'sent', 'failed', 'bounced', 'skipped'] as const;

export const CampaignSchema = extendApi(
  z.object({
    id: idOf('cmp'),
    name: z.string(),
    template_id: z.string(),
    segment_id: z.string(),
    status: z.enum(CAMPAIGN_STATUSES),
    subject_override: z.string().nullable(),
    from_name_override: z.string().nullable(),
    from_email_override: z.string().nullable(),
    reply_to: z.string().nullable(),
    scheduled_at: TimestampSchema.nullable(),
    sent_at: TimestampSchema.nullable().describe('When the last recipient was processed.'),
    recipients_count: z.number().int().describe('Eligible contacts resolved when sending started.'),
    paused_reason: z.string().nullable().describe('Why the service paused it, when it did.'),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  }),
  {
    title: 'Campaign',
    example: {
      id: 'cmp_01JD7X2R5VQ8N3K4M6P9T1W2Y3',
      name: 'Autumn offer',
      template_id: 'tpl_01JD7X2R5VQ8N3K4M6P9T1W2Y4',
      segment_id: 'seg_01JD7X2R5VQ8N3K4M6P9T1W2Y5',
      status: 'draft',
      subject_override: null,
      from_name_override: null,
      from_email_override: null,
      reply_to: 'support@example.com',
      scheduled_at: null,
      sent_at: null,
      recipients_count: 0,
      paused_reason: null,
      created_at: '2026-11-24T09:30:00.000Z',
      updated_at: '2026-11-24T09:30:00.000Z',
    },
  },
);
export type Campaign = z.infer<typeof CampaignSchema>;

export const CreateCampaignBodySchema = extendApi(
  z
    .object({
      name: z.string().trim().min(1).max(200),
      template_id: IdSchema.describe('A template of the business (422 otherwise).'),
      segment_id: IdSchema.describe('An active segment of the business (422 otherwise).'),
      subject_override: z.string().trim().min(1).max(MAX_SUBJECT).optional(),
      from_name_override: z.string().trim().min(1).max(200).optional(),
      from_email_override: EmailSchema.optional().describe('At a verified sender domain of the business.'),
      reply_to: EmailSchema.optional(),
    })
    .strict(),
  {
    title: 'CreateCampaignBody',
    example: {
      name: 'Autumn offer',
      template_id: 'tpl_01JD7X2R5VQ8N3K4M6P9T1W2Y4',
      segment_id: 'seg_01JD7X2R5VQ8N3K4M6P9T1W2Y5',
      reply_to: 'support@example.com',
    },
  },
);
export type CreateCampaignBody = z.infer<typeof CreateCampaignBodySchema>;

export const ScheduleBodySchema = extendApi(
  z
    .object({
      scheduled_at: dateTimeField('In the future (422 otherwise).'),
    })
    .strict(),
  { title: 'ScheduleCampaignBody', example: { scheduled_at: '2026-12-01T09:00:00Z' } },
);
export type ScheduleBody = z.infer<typeof ScheduleBodySchema>;

export const ListCampaignsQuerySchema = MarketingPageQuerySchema.extend({
  status: z.enum(CAMPAIGN_STATUSES).optional(),
});
export type ListCampaignsQuery = z.infer<typeof ListCampaignsQuerySchema>;

export const AnalyticsSchema = extendApi(
  z.object({
    campaign_id: z.string(),
    recipients: z.number().int(),
    delivered: z.number().int(),
    opened: z.number().int(),
    clicked: z.number().int(),
    bounced: z.number().int(),
    unsubscribed: z.number().int(),
    spam_reports: z.number().int(),
    open_rate: z.number().describe('Percent of delivered, two decimals.'),
    click_rate: z.number().describe('Percent of delivered, two decimals.'),
    bounce_rate: z.number().describe('Percent of recipients, two decimals.'),
    unsubscribe_rate: z.number().describe('Percent of delivered, two decimals.'),
    last_updated_at: TimestampSchema,
  }),
  { title: 'CampaignAnalytics' },
);
export type Analytics = z.infer<typeof AnalyticsSchema>;

export const RecipientSchema = z.object({
  email: z.string(),
  status: z.enum(RECIPIENT_STATUSES),
  sent_at: TimestampSchema.nullable(),
  opened_at: TimestampSchema.nullable(),
  clicked_at: TimestampSchema.nullable(),
  error: z.string().nullable(),
});
export type Recipient = z.infer<typeof RecipientSchema>;

export const ListRecipientsQuerySchema = MarketingPageQuerySchema.extend({
  status: z.enum(RECIPIENT_STATUSES).optional(),
});
export type ListRecipientsQuery = z.infer<typeof ListRecipientsQuerySchema>;

export const BounceBodySchema = extendApi(
  z
    .object({
      email: EmailSchema,
      type: z.enum(['hard', 'soft', 'complaint']),
      campaign_id: IdSchema.optional(),
      reason: z.string().max(1000).optional(),
    })
    .strict(),
  {
    title: 'BounceReport',
    description:
      'Hard bounces and complaints suppress the address for every future campaign of the business.',
    example: { email: 'ada@example.com', type: 'hard', reason: '550 5.1.1 user unknown' },
  },
);
export type BounceBody = z.infer<typeof BounceBodySchema>;

export const campaignsContract = c.router({
  listCampaigns: {
    method: 'GET',
    path: '/marketing/campaigns',
    summary: 'List campaigns',
    description: 'Newest first.',
    query: ListCampaignsQuerySchema,
    responses: {
      200: resultEnvelope({ campaigns: z.array(CampaignSchema), total_count: z.number().int() }),
      ...resultErrors(),
    },
    metadata: marketingRoute,
  },
  createCampaign: {
    method: 'POST',
    path: '/marketing/campaigns',
    summary: 'Create a campaign',
    description: 'A draft sending a template of the business to one of its active segments.',
    headers: IdempotencyHeadersSchema,
    body: CreateCampaignBodySchema,
    responses: {
      201: resultEnvelope({ campaign_id: z.string(), message: z.string(), campaign: CampaignSchema }),
      ...resultErrors(409),
    },
    metadata: marketingRoute,
  },
  getCampaign: {
    method: 'GET',
    path: '/marketing/campaigns/:id',
    summary: 'Get a campaign',
    pathParams: IdParamsSchema,
    responses: { 200: resultEnvelope({ campaign: CampaignSchema }), ...resultErrors(404) },
    metadata: marketingRoute,
  },
  sendCampaign: {
    method: 'POST',
    path: '/marketing/campaigns/:id/send',
    summary: 'Send a campaign now',
    description:
      'A draft or scheduled campaign starts sending: its segment is resolved into one recipient per eligible contact ' +
      '(with an email, not unsubscribed, not suppressed). Otherwise 409 INVALID_STATE.',
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: {
      200: resultEnvelope({ message: z.string(), recipients_count: z.number().int() }),
      ...resultErrors(404, 409),
    },
    metadata: marketingRoute,
  },
  scheduleCampaign: {
    method: 'POST',
    path: '/marketing/campaigns/:id/schedule',
    summary: 'Schedule a campaign',
    description: 'A draft only (409 INVALID_STATE otherwise); it starts sending at scheduled_at.',
    pathParams: IdParamsSchema,
    body: ScheduleBodySchema,
    responses: {
      200: resultEnvelope({ message: z.string(), scheduled_at: TimestampSchema }),
      ...resultErrors(404, 409),
    },
    metadata: marketingRoute,
  },
  pauseCampaign: {
    method: 'POST',
    path: '/marketing/campaigns/:id/pause',
    summary: 'Pause a campaign',
    description:
      'A sending or scheduled campaign stops taking recipients at once. Otherwise 409 INVALID_STATE.',
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: resultEnvelope({ message: z.string() }), ...resultErrors(404, 409) },
    metadata: marketingRoute,
  },
  resumeCampaign: {
    method: 'POST',
    path: '/marketing/campaigns/:id/resume',
    summary: 'Resume a paused campaign',
    description:
      'Back to scheduled when scheduled_at is still ahead, otherwise sending, to the recipients not yet sent to. ' +
      'Anything not paused: 409 INVALID_STATE.',
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: {
      200: resultEnvelope({ message: z.string(), status: z.enum(CAMPAIGN_STATUSES) }),
      ...resultErrors(404, 409),
    },
    metadata: marketingRoute,
  },
  cancelCampaign: {
    method: 'POST',
    path: '/marketing/campaigns/:id/cancel',
    summary: 'Cancel a campaign',
    description: 'Draft, scheduled or paused only (409 INVALID_STATE otherwise); irreversible.',
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: resultEnvelope({ message: z.string() }), ...resultErrors(404, 409) },
    metadata: marketingRoute,
  },
  getCampaignAnalytics: {
    method: 'GET',
    path: '/marketing/campaigns/:id/analytics',
    summary: 'Campaign analytics',
    description:
      'Once sending has begun (sending, paused after sending began, sent); before: 409 INVALID_STATE.',
    pathParams: IdParamsSchema,
    responses: { 200: resultEnvelope({ analytics: AnalyticsSchema }), ...resultErrors(404, 409) },
    metadata: marketingRoute,
  },
  listCampaignRecipients: {
    method: 'GET',
    path: '/marketing/campaigns/:id/recipients',
    summary: 'Recipients of a campaign',
    description: 'By email; each with its own state.',
    pathParams: IdParamsSchema,
    query: ListRecipientsQuerySchema,
    responses: {
      200: resultEnvelope({ recipients: z.array(RecipientSchema), total_count: z.number().int() }),
      ...resultErrors(404),
    },
    metadata: marketingRoute,
  },
  reportBounce: {
    method: 'POST',
    path: '/marketing/bounces',
    summary: 'Report a bounce or complaint',
    description:
      "From the mail provider's feedback: counted in the campaign's analytics when campaign_id is given; hard " +
      'bounces and complaints suppress the address for every future campaign of the business.',
    body: BounceBodySchema,
    responses: { 200: resultEnvelope({ message: z.string() }), ...resultErrors() },
    metadata: marketingRoute,
  },
});
