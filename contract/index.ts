import * as audit from './audit/index.js';
import * as auth from './auth/index.js';
import * as finance from './finance/index.js';
import * as general from './general/index.js';
import * as hr from './hr/index.js';
import * as imports from './imports/index.js';
import * as loyalty from './loyalty/index.js';
import * as marketing from './marketing/index.js';
import * as publicLoyalty from './public-loyalty/index.js';
import * as sandbox from './sandbox/index.js';
import * as team from './team/index.js';
import * as webhooks from './webhooks/index.js';
import { c, V1, type Mounted } from './mount.js';

/** The whole API: one router per domain, every route under /v1 and declaring every status it returns. */
export const contract: {
  auth: Mounted<typeof auth.authContract>;
  general: Mounted<typeof general.generalContract>;
  hr: Mounted<typeof hr.hrContract>;
  finance: Mounted<typeof finance.financeContract>;
  marketing: Mounted<typeof marketing.marketingContract>;
  webhooks: Mounted<typeof webhooks.webhooksContract>;
  loyalty: Mounted<typeof loyalty.loyaltyContract>;
  publicLoyalty: Mounted<typeof publicLoyalty.publicLoyaltyContract>;
  sandbox: Mounted<typeof sandbox.sandboxContract>;
  team: Mounted<typeof team.teamContract>;
  auditLog: Mounted<typeof audit.auditLogContract>;
  imports: Mounted<typeof imports.importsContract>;
} = c.router(
  {
    auth: auth.authContract,
    general: general.generalContract,
    hr: hr.hrContract,
    finance: finance.financeContract,
    marketing: marketing.marketingContract,
    webhooks: webhooks.webhooksContract,
    loyalty: loyalty.loyaltyContract,
    publicLoyalty: publicLoyalty.publicLoyaltyContract,
    sandbox: sandbox.sandboxContract,
    team: team.teamContract,
    auditLog: audit.auditLogContract,
    imports: imports.importsContract,
  },
  V1,
);

export type Contract = typeof contract;

/**
 * Each domain's schemas and types under its own name (`loyalty.Member`, `general.Payment`), so two
 * domains may both name a Payment or a Transaction.
 */
export {
  audit,
  auth,
  finance,
  general,
  hr,
  imports,
  loyalty,
  marketing,
  publicLoyalty,
  sandbox,
  team,
  webhooks,
};

/** What every domain shares: errors, envelopes, ids, dates, money, paging, events, route metadata. */
export * from './common/index.js';
