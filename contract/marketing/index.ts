import { initContract } from '@ts-rest/core';
import { domainsContract } from './domains.js';
import { segmentsContract } from './segments.js';
import { templatesContract } from './templates.js';

const c = initContract();

/** The marketing domain: one router per resource. */
export const marketingContract = c.router({
  domains: domainsContract,
  segments: segmentsContract,
  templates: templatesContract,
});

export * from './domains.js';
export * from './segments.js';
export * from './templates.js';
