import { initContract } from '@ts-rest/core';
import { authContract } from './auth/routes.js';
import { generalContract } from './general/index.js';
import { loyaltyContract } from './loyalty/routes.js';
import { webhooksContract } from './webhooks/routes.js';

const c = initContract();

/** The whole API. Every route's path is relative to `/v1`. */
export const contract = c.router(
  {
    auth: authContract,
    general: generalContract,
    webhooks: webhooksContract,
    loyalty: loyaltyContract,
  },
  { pathPrefix: '/v1', strictStatusCodes: true },
);

export type Contract = typeof contract;

export * from './auth/schemas.js';
export * from './common/errors.js';
export * from './common/metadata.js';
export * from './common/pagination.js';
export * from './common/schemas.js';
export { CURRENCY_CODES, CURRENCY_EXPONENTS, currencyExponent } from './common/currencies.js';
export * from './general/index.js';
export * from './common/events.js';
export * from './webhooks/schemas.js';
export * from './loyalty/schemas.js';
