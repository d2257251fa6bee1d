import { authContract } from './auth/index.js';
import { generalContract } from './general/index.js';
import { loyaltyContract } from './loyalty/index.js';
import { publicLoyaltyContract } from './public-loyalty/index.js';
import { webhooksContract } from './webhooks/index.js';

/**
 * The whole API, one router per domain (each mounted under /v1). A plain object of the domain
 * routers, so its declared type stays a list of references the compiler can emit.
 */
export const contract: {
  auth: typeof authContract;
  general: typeof generalContract;
  webhooks: typeof webhooksContract;
  loyalty: typeof loyaltyContract;
  publicLoyalty: typeof publicLoyaltyContract;
} = {
  auth: authContract,
  general: generalContract,
  webhooks: webhooksContract,
  loyalty: loyaltyContract,
  publicLoyalty: publicLoyaltyContract,
};

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
export * from './public-loyalty/schemas.js';
