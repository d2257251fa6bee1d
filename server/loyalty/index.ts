import { createExpressEndpoints } from '@ts-rest/express';
import { contract } from '../../contract/index.js';
import type { DomainModule } from '../platform/module.js';
import { expirePoints } from './expiry.js';
import { earnForInvoice } from './members.js';
import { expireVouchers } from './redemptions.js';
import { sendDueReminders } from './reminders.js';
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
} from './earning.js';
export { membersChanged } from './member-counts.js';
export { enrollInTransaction, findMemberByEmail } from './members.js';
export { findActiveProgram } from './program.js';
export type { MemberViewRow } from './queries.js';
export { findVoucher, redeemReward } from './redemptions.js';

/** The member list's two queries, for bench/loyalty.ts, which explains their plans. */
export { memberListQueries } from './members.queries.js';
