import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { resultEnvelope, ResultMessageSchema } from '../common/envelopes.js';
import { resultErrors } from '../common/errors.js';
import { EVENT_NAMES, type EventName } from '../common/events.js';
import { IdempotencyHeadersSchema, TimestampSchema } from '../common/schemas.js';
import { webhooksRoute } from './shared.js';

const c = initContract();

export const MAX_WEBHOOKS_PER_BUSINESS = 10;

export const EventNameSchema = z.enum(EVENT_NAMES, {
  errorMap: (_issue, ctx) => ({ message: `Unknown event name "${String(ctx.data)}"` }),
});

export const isEventName = (name: string): name is EventName =>
  (EVENT_NAMES as readonly string[]).includes(name);

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

/** The webhook endpoints themselves: registered, read, changed, deleted, their secret rotated. */
export const endpointsContract = c.router({
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
      201: resultEnvelope({
        message: z.string(),
        id: z.number().int(),
        secret: z.string().describe('Signing secret, shown only once.'),
      }),
      ...resultErrors(409),
    },
    metadata: webhooksRoute,
  },
  listWebhooks: {
    method: 'GET',
    path: '/webhooks',
    summary: 'List webhooks',
    description: "The business's webhooks, newest first.",
    responses: {
      200: resultEnvelope({ webhooks: z.array(WebhookSchema).max(MAX_WEBHOOKS_PER_BUSINESS) }),
      ...resultErrors(),
    },
    metadata: webhooksRoute,
  },
  getWebhook: {
    method: 'GET',
    path: '/webhooks/:id',
    summary: 'Get a webhook',
    description: 'The webhook (never its secret).',
    pathParams: WebhookIdParamsSchema,
    responses: { 200: resultEnvelope({ webhook: WebhookSchema }), ...resultErrors(404) },
    metadata: webhooksRoute,
  },
  updateWebhook: {
    method: 'PUT',
    path: '/webhooks/:id',
    summary: 'Update a webhook',
    description: 'Partial update of url, events and is_active. Re-activating clears `disabled_reason`.',
    pathParams: WebhookIdParamsSchema,
    body: UpdateWebhookBodySchema,
    responses: { 200: ResultMessageSchema, ...resultErrors(404) },
    metadata: webhooksRoute,
  },
  deleteWebhook: {
    method: 'DELETE',
    path: '/webhooks/:id',
    summary: 'Delete a webhook',
    description: 'Deletes the webhook and its delivery log; pending retries stop.',
    pathParams: WebhookIdParamsSchema,
    body: c.noBody(),
    responses: { 200: ResultMessageSchema, ...resultErrors(404) },
    metadata: webhooksRoute,
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
      200: resultEnvelope({ message: z.string(), secret: z.string() }),
      ...resultErrors(404, 409),
    },
    metadata: webhooksRoute,
  },
});
