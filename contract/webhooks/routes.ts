import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { AUTHED, errorResponses } from '../common/errors.js';
import { meta, ROUTER_OPTIONS } from '../common/metadata.js';
import { IdempotencyHeadersSchema } from '../common/schemas.js';
import {
  CreateWebhookBodySchema,
  DeliveryParamsSchema,
  DeliverySchema,
  ListDeliveriesQuerySchema,
  UpdateWebhookBodySchema,
  WebhookIdParamsSchema,
  WebhookSchema,
} from './schemas.js';

const c = initContract();
const success = z.literal('success');
const tag = 'Webhooks';

export const webhooksContract = c.router(
  {
    createWebhook: {
      method: 'POST',
      path: '/webhooks',
      summary: 'Register a webhook',
      description:
        'Registers an HTTPS endpoint for the listed events. The signing secret (`whsec_...`) is returned only ' +
        'here. At most 10 webhooks per business (422 LIMIT_EXCEEDED); a URL that is not HTTPS or whose host ' +
        'resolves to a private address, or an unknown event name, is 422.',
      headers: IdempotencyHeadersSchema,
      body: CreateWebhookBodySchema,
      responses: {
        201: z.object({
          result: success,
          message: z.string(),
          id: z.number().int(),
          secret: z.string().describe('Signing secret, shown only once.'),
        }),
        ...errorResponses('result', [...AUTHED, 409]),
      },
      metadata: meta('token', tag),
    },
    listWebhooks: {
      method: 'GET',
      path: '/webhooks',
      summary: 'List webhooks',
      description: "The business's webhooks, newest first.",
      responses: {
        200: z.object({ result: success, webhooks: z.array(WebhookSchema).max(10) }),
        ...errorResponses('result', AUTHED),
      },
      metadata: meta('token', tag),
    },
    getWebhook: {
      method: 'GET',
      path: '/webhooks/:id',
      summary: 'Get a webhook',
      description: 'The webhook (never its secret).',
      pathParams: WebhookIdParamsSchema,
      responses: {
        200: z.object({ result: success, webhook: WebhookSchema }),
        ...errorResponses('result', [...AUTHED, 404]),
      },
      metadata: meta('token', tag),
    },
    updateWebhook: {
      method: 'PUT',
      path: '/webhooks/:id',
      summary: 'Update a webhook',
      description: 'Partial update of url, events and is_active. Re-activating clears `disabled_reason`.',
      pathParams: WebhookIdParamsSchema,
      body: UpdateWebhookBodySchema,
      responses: {
        200: z.object({ result: success, message: z.string() }),
        ...errorResponses('result', [...AUTHED, 404]),
      },
      metadata: meta('token', tag),
    },
    deleteWebhook: {
      method: 'DELETE',
      path: '/webhooks/:id',
      summary: 'Delete a webhook',
      description: 'Deletes the webhook and its delivery log; pending retries stop.',
      pathParams: WebhookIdParamsSchema,
      body: c.noBody(),
      responses: {
        200: z.object({ result: success, message: z.string() }),
        ...errorResponses('result', [...AUTHED, 404]),
      },
      metadata: meta('token', tag),
    },
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
        200: z.object({
          result: success,
          deliveries: z.array(DeliverySchema),
          total_count: z.number().int(),
        }),
        ...errorResponses('result', [...AUTHED, 404]),
      },
      metadata: meta('token', tag),
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
      responses: {
        200: z.object({ result: success, message: z.string() }),
        ...errorResponses('result', [...AUTHED, 404, 409]),
      },
      metadata: meta('token', tag),
    },
    rotateSecret: {
      method: 'POST',
      path: '/webhooks/:id/rotate-secret',
      headers: IdempotencyHeadersSchema,
      summary: 'Rotate the signing secret',
      description:
        'Returns a new secret. For 24 hours the `webhook-signature` header carries a signature with the old ' +
        'secret beside the new one, so receivers can switch without losing events.',
      pathParams: WebhookIdParamsSchema,
      body: c.noBody(),
      responses: {
        200: z.object({ result: success, message: z.string(), secret: z.string() }),
        ...errorResponses('result', [...AUTHED, 404, 409]),
      },
      metadata: meta('token', tag),
    },
  },
  ROUTER_OPTIONS,
);
