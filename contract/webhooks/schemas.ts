import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { EVENT_NAMES, type EventName } from '../common/events.js';
import { TimestampSchema } from '../common/schemas.js';

export const MAX_WEBHOOKS_PER_BUSINESS = 10;

export const EventNameSchema = z.enum(EVENT_NAMES, {
  errorMap: (_issue, ctx) => ({ message: `Unknown event name "${String(ctx.data)}"` }),
});

const UrlSchema = extendApi(z.string().trim().min(1).max(2048).url(), {
  description: 'HTTPS URL that receives the POSTs. Hosts resolving to private addresses are refused.',
  example: 'https://example.com/webhooks/bms',
});

const EventsSchema = z
  .array(EventNameSchema)
  .min(1)
  .max(EVENT_NAMES.length)
  .refine((events) => new Set(events).size === events.length, { message: 'Events must not repeat' });

export const WebhookSchema = extendApi(
  z.object({
    id: z.number().int(),
    url: z.string(),
    events: z.array(z.enum(EVENT_NAMES)),
    is_active: z.boolean(),
    dateCreated: TimestampSchema,
    dateUpdated: TimestampSchema,
    disabled_reason: z
      .string()
      .nullable()
      .describe(
        'Why the service turned the webhook off (410 Gone, or 5 days without a success); null otherwise.',
      ),
  }),
  {
    title: 'Webhook',
    example: {
      id: 7,
      url: 'https://example.com/webhooks/bms',
      events: ['invoice.paid', 'customer.created'],
      is_active: true,
      dateCreated: '2026-11-21T09:30:00.000Z',
      dateUpdated: '2026-11-21T09:30:00.000Z',
      disabled_reason: null,
    },
  },
);
export type Webhook = z.infer<typeof WebhookSchema>;

export const CreateWebhookBodySchema = extendApi(
  z
    .object({
      url: UrlSchema,
      events: EventsSchema,
      is_active: z.boolean().optional().describe('Default true.'),
    })
    .strict(),
  {
    title: 'CreateWebhookBody',
    example: { url: 'https://example.com/webhooks/bms', events: ['invoice.paid'] },
  },
);
export type CreateWebhookBody = z.infer<typeof CreateWebhookBodySchema>;

export const UpdateWebhookBodySchema = extendApi(
  z
    .object({ url: UrlSchema.optional(), events: EventsSchema.optional(), is_active: z.boolean().optional() })
    .strict(),
  { title: 'UpdateWebhookBody', example: { is_active: false } },
);
export type UpdateWebhookBody = z.infer<typeof UpdateWebhookBodySchema>;

export const WebhookIdParamsSchema = z.object({
  id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).describe('Webhook id'),
});

export const DeliveryParamsSchema = WebhookIdParamsSchema.extend({
  deliveryId: z
    .string()
    .max(36)
    .uuid()
    .describe('Delivery id (also sent as `X-Webhook-Delivery-Id` and `webhook-id`)'),
});

export const AttemptSchema = extendApi(
  z.object({
    attemptedAt: TimestampSchema,
    statusCode: z.number().int().nullable().describe('HTTP status the receiver answered; null when none.'),
    durationMs: z.number().int(),
    errorClass: z
      .enum(['timeout', 'connection', 'dns', 'blocked_address', 'redirect', 'http_status', 'invalid_url'])
      .nullable()
      .describe("Why the attempt failed; null for a 2xx answer. The receiver's body is never stored."),
    redelivery: z.boolean().describe('True for an attempt asked for with the redeliver operation.'),
  }),
  { title: 'WebhookAttempt' },
);

export const DELIVERY_STATUSES = ['pending', 'retrying', 'succeeded', 'failed'] as const;

export const DeliverySchema = extendApi(
  z.object({
    deliveryId: z.string().uuid(),
    event: z.enum(EVENT_NAMES),
    eventId: z.string(),
    status: z.enum(DELIVERY_STATUSES),
    createdAt: TimestampSchema,
    nextAttemptAt: TimestampSchema.nullable().describe('When the next retry is due, while `retrying`.'),
    attempts: z.array(AttemptSchema),
  }),
  { title: 'WebhookDelivery' },
);
export type Delivery = z.infer<typeof DeliverySchema>;

export const ListDeliveriesQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  status: z.enum(DELIVERY_STATUSES).optional(),
});
export type ListDeliveriesQuery = z.infer<typeof ListDeliveriesQuerySchema>;

export const isEventName = (name: string): name is EventName =>
  (EVENT_NAMES as readonly string[]).includes(name);
