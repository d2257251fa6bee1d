import { QUIET_HOST } from './dns.js';
import type { TestServer } from './server.js';
import { unwrap, type Client, type webhooks } from '../../client/index.js';

/** Factories of the webhooks group, through the typed client. */

/**
 * A URL that is never dialled on purpose: the test server's DNS resolves its host to a public
 * address (so the address guard accepts it), the system's resolves it nowhere.
 */
export const quietUrl = (tag = 'hook') => `https://${QUIET_HOST}/${tag}`;

/**
 * A webhook: `quietUrl()` for `invoice.paid` unless told. Returns the creation's answer: its `id`
 * and its signing `secret` (shown only here).
 */
export async function createWebhook(client: Client, overrides: Partial<webhooks.CreateWebhookBody> = {}) {
  const body: webhooks.CreateWebhookBody = { url: quietUrl(), events: ['invoice.paid'], ...overrides };
  return unwrap(client.webhooks.createWebhook({ body }));
}

/** The webhook's deliveries, newest first (first page of 200). */
export async function deliveriesOf(client: Client, webhookId: number): Promise<webhooks.Delivery[]> {
  return (await unwrap(client.webhooks.listDeliveries({ params: { id: webhookId }, query: { limit: 200 } })))
    .deliveries;
}

/** A delivery's attempts as stored, oldest first. */
export const attemptRows = (server: TestServer, businessId: string, deliveryId: string) =>
  server.deps.db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('delivery_id', '=', deliveryId)
    .orderBy('attempted_at')
    .orderBy('id')
    .execute();
