import { initContract } from '@ts-rest/core';
import { deliveriesContract } from './deliveries.js';
import { endpointsContract } from './webhooks.js';

const c = initContract();

/** The webhooks domain: its routes sit directly under `webhooks` (`client.webhooks.createWebhook`). */
export const webhooksContract = c.router({ ...endpointsContract, ...deliveriesContract });

export * from './deliveries.js';
export * from './events.js';
export * from './webhooks.js';
