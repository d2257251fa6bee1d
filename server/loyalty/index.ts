import { createExpressEndpoints } from '@ts-rest/express';
import { contract } from '../../contract/index.js';
import type { DomainModule } from '../platform/module.js';
import { expirePoints } from './expiry/service.js';
import { earnForInvoice } from './members/service.js';
import { expireVouchers } from './redemptions/service.js';
import { sendDueReminders } from './reminders/service.js';
import { loyaltyRoutes } from './routes.js';

const MINUTE = 60_000;

/** Loyalty: program, tiers, members and their ledger, rewards, redemptions, reminders. */
export const loyaltyModule: DomainModule = {
  name: 'loyalty',
  mount: (app, deps, options) => createExpressEndpoints(contract.loyalty, loyaltyRoutes(deps), app, options),
  periodic: [
    { name: 'points expiry', everyMs: () => MINUTE, run: expirePoints },
    { name: 'service reminders', everyMs: () => MINUTE, run: sendDueReminders },
    { name: 'voucher expiry', everyMs: () => MINUTE, run: expireVouchers },
  ],
  subscriptions: {
    // A paid invoice earns its customer points (DESIGN section 8).
    invoicePaid: (ctx, { invoice }) => earnForInvoice(ctx, invoice),
  },
};

// What public-loyalty (the X-Api-Key interface) uses of loyalty: the earn computation it shares with
// the ledger's post, enrollment, redemption, vouchers, the active program and the member of an email.
export {
  creditExpiry,
  earning,
  isPointsLimitViolation,
  MAX_POINTS,
  pointsEarnedData,
  pointsLimitExceeded,
  promotion,
  tierChangedData,
} from './ledger/earning.js';
export { membersChanged } from './members/counts.js';
export { enrollInTransaction, findMemberByEmail } from './members/service.js';
export { findActiveProgram } from './program/service.js';
export type { MemberViewRow } from './members/queries.js';
export { findVoucher, redeemReward } from './redemptions/service.js';

/** The member list's two queries, for bench/loyalty.ts, which explains their plans. */
export { memberListQueries } from './members/queries.js';
