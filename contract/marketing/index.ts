import { initContract } from '@ts-rest/core';
import { campaignsContract } from './campaigns.js';
import { domainsContract } from './domains.js';
import { segmentsContract } from './segments.js';
import { templatesContract } from './templates.js';

const c = initContract();

/**
 * The marketing domain: one router per resource.
 * Typed by the resources' routers, so that declaration files name them rather than spell every
 * route out again.
 */
export const marketingContract: {
  domains: typeof domainsContract;
  segments: typeof segmentsContract;
  templates: typeof templatesContract;
  campaigns: typeof campaignsContract;
} = c.router({
  domains: domainsContract,
  segments: segmentsContract,
  templates: templatesContract,
  campaigns: campaignsContract,
});

export * from './campaigns.js';
export * from './domains.js';
export * from './segments.js';
export * from './templates.js';
