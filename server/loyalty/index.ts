import { createExpressEndpoints } from '@ts-rest/express';
import { withCsvExports } from '../platform/exports.js';
import { contract } from '../../contract/index.js';
import type { DomainModule } from '../platform/module.js';
import { seedLoyaltyDemo } from './demo.js';
import { expirePoints, hasExpiredPoints } from './expiry/service.js';
import { earnForInvoice, reversePointsOfRefund } from './members/service.js';
import { refuseDeletingMemberCustomer } from './members/subscriptions.js';
import { expireVouchers, hasExpiredVouchers } from './redemptions/service.js';
import { hasDueReminders, sendDueReminders } from './reminders/service.js';
import { loyaltyRoutes } from './routes.js';

const MINUTE = 60_000;

/** Loyalty: program, tiers, members and their ledger, rewards, redemptions, reminders. */
export const loyaltyModule: DomainModule = {
  name: 'loyalty',
  tables: [
    'loyalty_programs',
    'loyalty_tiers',
    'loyalty_members',
    'loyalty_transactions',
    'loyalty_rewards',
    'loyalty_redemptions',
    'loyalty_reminders',
    'loyalty_member_reminders',
  ],
  mount: (app, deps, options) =>
    createExpressEndpoints(
      contract.loyalty,
      withCsvExports(deps, contract.loyalty, loyaltyRoutes(deps)),
      app,
      options,
    ),
  periodic: [
    { name: 'points expiry', everyMs: () => MINUTE, run: expirePoints },
    { name: 'service reminders', everyMs: () => MINUTE, run: sendDueReminders },
    { name: 'voucher expiry', everyMs: () => MINUTE, run: expireVouchers },
  ],
  due: [
    { counts: 'points_expired', run: expirePoints, pending: hasExpiredPoints },
    { counts: 'vouchers_expired', run: expireVouchers, pending: hasExpiredVouchers },
    { counts: 'reminders_sent', run: sendDueReminders, pending: hasDueReminders },
  ],
  seedDemo: seedLoyaltyDemo,
  subscriptions: {
    // A paid invoice earns its customer points (docs/decisions.md D100).
    invoicePaid: (ctx, { invoice }) => earnForInvoice(ctx, invoice),
    // A refund takes back the points of the refunded amount (docs/decisions.md D241).
    creditNoteIssued: (ctx, { creditNote }) => reversePointsOfRefund(ctx, creditNote),
    // A member's customer is not deleted from under the member (409 RESOURCE_IN_USE).
    customerDeleting: refuseDeletingMemberCustomer,
  },
};

// What the X-Api-Key interface (public-loyalty) uses: a handful of services, in the contract's shapes.
export { earnByEmail } from './ledger/earn-by-email.js';
export { memberByEmail } from './members/service.js';
export { currentProgram } from './program/service.js';
export { redeemReward, findVoucher } from './redemptions/service.js';
export { activeRewards } from './rewards/service.js';

/** The member list's two queries, for bench/loyalty.ts, which explains their plans. */
export { memberListQueries } from './members/queries.js';
