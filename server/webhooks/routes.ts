import { initServer } from '@ts-rest/express';
import { contract } from '../../contract/index.js';
import { ctxOf, type Deps } from '../platform/deps.js';
import * as webhooks from './endpoints/service.js';

const s = initServer();

export const webhooksRoutes = (deps: Deps) =>
  s.router(contract.webhooks, {
    createWebhook: async ({ body, req }) => {
      const { id, secret } = await webhooks.createWebhook(ctxOf(req, deps), body);
      return { status: 201, body: { result: 'success', message: 'Webhook created', id, secret } };
    },
    listWebhooks: async ({ req }) => ({
      status: 200,
      body: { result: 'success', webhooks: await webhooks.listWebhooks(ctxOf(req, deps)) },
    }),
    getWebhook: async ({ params, req }) => ({
      status: 200,
      body: { result: 'success', webhook: await webhooks.getWebhook(ctxOf(req, deps), params.id) },
    }),
    updateWebhook: async ({ params, body, req }) => {
      await webhooks.updateWebhook(ctxOf(req, deps), params.id, body);
      return { status: 200, body: { result: 'success', message: 'Webhook updated' } };
    },
    deleteWebhook: async ({ params, req }) => {
      await webhooks.deleteWebhook(ctxOf(req, deps), params.id);
      return { status: 200, body: { result: 'success', message: 'Webhook deleted' } };
    },
    listDeliveries: async ({ params, query, req }) => ({
      status: 200,
      body: { result: 'success', ...(await webhooks.listDeliveries(ctxOf(req, deps), params.id, query)) },
    }),
    redeliver: async ({ params, req }) => {
      await webhooks.redeliver(ctxOf(req, deps), params.id, params.deliveryId);
      return { status: 200, body: { result: 'success', message: 'Redelivery queued' } };
    },
    rotateSecret: async ({ params, req }) => ({
      status: 200,
      body: {
        result: 'success',
        message: 'Secret rotated; the previous one keeps signing webhook-signature for 24 hours',
        secret: await webhooks.rotateSecret(ctxOf(req, deps), params.id),
      },
    }),
  });
