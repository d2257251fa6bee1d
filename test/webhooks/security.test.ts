import { contract } from '../../client/index.js';
import { relayPendingEvents } from '../../server/platform/relay.js';
import { registerBusiness, type TestBusiness } from '../support/business.js';
import { createCustomer } from '../support/general.js';
import { describeRouteSecurity } from '../support/security.js';
import { useTestServer } from '../support/setup.js';
import { createWebhook, deliveriesOf, quietUrl } from '../support/webhooks.js';

// No worker: nothing is ever sent, so the rows stay as the checks left them.
const server = useTestServer({ worker: false });

const { webhooks } = contract;

/** A webhook of the business with one delivery (of a customer.created), never attempted. */
async function delivered(business: TestBusiness): Promise<{ id: number; deliveryId: string }> {
  const { id } = await createWebhook(business.client, { events: ['customer.created'] });
  await createCustomer(business.client);
  await relayPendingEvents(server().deps);
  const [delivery] = await deliveriesOf(business.client, id);
  if (!delivery) throw new Error('the relay made no delivery');
  return { id, deliveryId: delivery.deliveryId };
}

describeRouteSecurity({
  server,
  tenant: registerBusiness,
  router: webhooks,
  routes: (route) => [
    route(webhooks.createWebhook, async () => ({
      body: { url: quietUrl(), events: ['invoice.paid' as const] },
    })),
    route(webhooks.listWebhooks, async () => ({})),
    route(webhooks.getWebhook, async (t) => ({ params: { id: (await createWebhook(t.client)).id } })),
    route(webhooks.updateWebhook, async (t) => ({
      params: { id: (await createWebhook(t.client)).id },
      body: { is_active: false },
    })),
    route(webhooks.deleteWebhook, async (t) => ({ params: { id: (await createWebhook(t.client)).id } })),
    route(webhooks.rotateSecret, async (t) => ({ params: { id: (await createWebhook(t.client)).id } })),
    route(webhooks.listDeliveries, async (t) => ({ params: { id: (await delivered(t)).id }, query: {} })),
    route(webhooks.redeliver, async (t) => ({ params: await delivered(t) })),
  ],
});
