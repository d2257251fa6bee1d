import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { resultEnvelope, ResultMessageSchema } from '../common/envelopes.js';
import { resultErrors } from '../common/errors.js';
import { EVENT_NAMES } from '../common/events.js';
import { offsetPageQuery } from '../common/pagination.js';
import { IdempotencyHeadersSchema, TimestampSchema } from '../common/schemas.js';
import { webhooksRoute } from './shared.js';
import { WebhookIdParamsSchema } from './webhooks.js';

const c = initContract();

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
export type Attempt = z.infer<typeof AttemptSchema>;

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

export const ListDeliveriesQuerySchema = offsetPageQuery(1_000_000).extend({
  status: z.enum(DELIVERY_STATUSES).optional(),
});
export type ListDeliveriesQuery = z.infer<typeof ListDeliveriesQuerySchema>;

/** A webhook's delivery log, and asking for a delivery again. */
export const deliveriesContract = c.router({
  listDeliveries: {
    method: 'GET',
    path: '/webhooks/:id/deliveries',
    summary: 'List deliveries',
    description:
      'The delivery log, newest first: each delivery with its attempts (time, status code, duration, error ' +
      "class). The receiver's response body is never stored.",
    pathParams: WebhookIdParamsSchema,
    query: ListDeliveriesQuerySchema,
    responses: {
      200: resultEnvelope({ deliveries: z.array(DeliverySchema), total_count: z.number().int() }),
      ...resultErrors(404),
    },
    metadata: webhooksRoute,
  },
  redeliver: {
    method: 'POST',
    path: '/webhooks/:id/deliveries/:deliveryId/redeliver',
    headers: IdempotencyHeadersSchema,
    summary: 'Redeliver',
    description:
      'Queues a new attempt of the same delivery (same deliveryId, fresh timestamp and signature), whatever ' +
      'its status. Refused with 409 INVALID_STATE while the webhook is inactive.',
    pathParams: DeliveryParamsSchema,
    body: c.noBody(),
    responses: { 200: ResultMessageSchema, ...resultErrors(404, 409) },
    metadata: webhooksRoute,
  },
});
