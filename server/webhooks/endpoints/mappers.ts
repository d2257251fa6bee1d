import type { Delivery, Webhook } from '../../../contract/webhooks/index.js';
import type { AttemptRow, DeliveryRow, WebhookRow } from '../../platform/db/types.js';

export const toWebhook = (row: WebhookRow): Webhook => ({
  id: row.id,
  url: row.url,
  events: row.events as Webhook['events'],
  is_active: row.is_active,
  dateCreated: row.created_at.toISOString(),
  dateUpdated: row.updated_at.toISOString(),
  disabled_reason: row.disabled_reason,
});

export const toDelivery = (row: DeliveryRow, attempts: AttemptRow[]): Delivery => ({
  deliveryId: row.id,
  event: row.event_type as Delivery['event'],
  eventId: row.event_id,
  status: row.status,
  createdAt: row.created_at.toISOString(),
  nextAttemptAt: row.status === 'retrying' && row.next_attempt_at ? row.next_attempt_at.toISOString() : null,
  attempts: attempts.map((a) => ({
    attemptedAt: a.attempted_at.toISOString(),
    statusCode: a.status_code,
    durationMs: a.duration_ms,
    errorClass: a.error_class as Delivery['attempts'][number]['errorClass'],
    redelivery: a.redelivery,
  })),
});
