import { initServer } from '@ts-rest/express';
import { contract } from '../../contract/index.js';
import { created, ok, success } from '../platform/answers.js';
import { ctxFor, type Deps } from '../platform/deps.js';
import * as webhooks from './endpoints/service.js';

const s = initServer();

export const webhooksRoutes = (deps: Deps) => {
  const ctx = ctxFor(deps);
  return s.router(contract.webhooks, {
    createWebhook: async ({ body, req }) => {
      const { id, secret } = await webhooks.createWebhook(ctx(req), body);
      return created(success({ message: 'Webhook created', id, secret }));
    },
    listWebhooks: async ({ req }) => ok(success({ webhooks: await webhooks.listWebhooks(ctx(req)) })),
    getWebhook: async ({ params, req }) =>
      ok(success({ webhook: await webhooks.getWebhook(ctx(req), params.id) })),
    updateWebhook: async ({ params, body, req }) => {
      await webhooks.updateWebhook(ctx(req), params.id, body);
      return ok(success({ message: 'Webhook updated' }));
    },
    deleteWebhook: async ({ params, req }) => {
      await webhooks.deleteWebhook(ctx(req), params.id);
      return ok(success({ message: 'Webhook deleted' }));
    },
    listDeliveries: async ({ params, query, req }) =>
      ok(success(await webhooks.listDeliveries(ctx(req), params.id, query))),
    redeliver: async ({ params, req }) => {
      await webhooks.redeliver(ctx(req), params.id, params.deliveryId);
      return ok(success({ message: 'Redelivery queued' }));
    },
    rotateSecret: async ({ params, req }) =>
      ok(
        success({
          message: 'Secret rotated; the previous one keeps signing webhook-signature for 24 hours',
          secret: await webhooks.rotateSecret(ctx(req), params.id),
        }),
      ),
  });
};
