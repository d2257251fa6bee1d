import { createExpressEndpoints } from '@ts-rest/express';
import { withCsvExports } from '../platform/exports.js';
import { contract } from '../../contract/index.js';
import { QUEUES } from '../platform/jobs.js';
import type { DomainModule } from '../platform/module.js';
import { deliver, fanOutIn, sweep } from './deliveries/service.js';
import { webhooksRoutes } from './routes.js';

/** Webhooks: the routes, delivery of outbox events to subscribers, and the retry sweep. */
export const webhooksModule: DomainModule = {
  name: 'webhooks',
  tables: ['webhooks', 'webhook_deliveries', 'webhook_attempts'],
  mount: (app, deps, options) =>
    createExpressEndpoints(
      contract.webhooks,
      withCsvExports(deps, contract.webhooks, webhooksRoutes(deps)),
      app,
      options,
    ),
  dispatch: fanOutIn,
  jobs: [
    {
      queue: QUEUES.deliverWebhook,
      options: { batchSize: 50, parallel: true, concurrency: 2 },
      handle: (deps, data) => deliver(deps, data),
    },
  ],
  periodic: [{ name: 'webhook sweep', everyMs: (config) => config.WEBHOOK_SWEEP_INTERVAL_MS, run: sweep }],
};
