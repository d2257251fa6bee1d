import { auditModule } from './audit/index.js';
import { authModule } from './auth/index.js';
import { financeModule } from './finance/index.js';
import { generalModule } from './general/index.js';
import { hrModule } from './hr/index.js';
import { importsModule } from './imports/index.js';
import { loyaltyModule } from './loyalty/index.js';
import { marketingModule } from './marketing/index.js';
import type { DomainModule } from './platform/module.js';
import { publicLoyaltyModule } from './public-loyalty/index.js';
import { sandboxModule } from './sandbox/index.js';
import { webhooksModule } from './webhooks/index.js';

/**
 * Every domain of the service, in the order their routes are matched (the point-of-sale routes,
 * the busiest, first) and their hook subscribers run. Adding a domain is adding one line here.
 */
export const domains: readonly DomainModule[] = [
  publicLoyaltyModule,
  authModule,
  generalModule,
  hrModule,
  financeModule,
  marketingModule,
  webhooksModule,
  loyaltyModule,
  sandboxModule,
  auditModule,
  importsModule,
];
