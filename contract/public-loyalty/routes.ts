import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { AUTHED, errorResponses } from '../common/errors.js';
import { meta, ROUTER_OPTIONS } from '../common/metadata.js';
import { IdempotencyHeadersSchema } from '../common/schemas.js';
import {
  BalanceQuerySchema,
  EarnBodySchema,
  EarnResultSchema,
  PublicBalanceSchema,
  PublicRewardSchema,
  PublicVoucherVerificationSchema,
  RedeemBodySchema,
  RedeemResultSchema,
} from './schemas.js';

const c = initContract();
const m = meta('apiKey', 'Public loyalty');
const ok = <T extends z.ZodTypeAny>(data: T) => z.object({ result: z.literal('success'), data });
const errors = (...extra: (404 | 409)[]) => errorResponses('result', [...AUTHED, ...extra]);

/** The interface point-of-sale and e-commerce systems call, with an `X-Api-Key`. */
export const publicLoyaltyContract = c.router(
  {
    publicGetBalance: {
      method: 'GET',
      path: '/public/loyalty/balance',
      summary: 'Balance of a member',
      description: 'By the customer email. Unknown email, or a customer who is not a member: 404.',
      query: BalanceQuerySchema,
      responses: { 200: ok(PublicBalanceSchema), ...errors(404) },
      metadata: m,
    },
    publicEarn: {
      method: 'POST',
      path: '/public/loyalty/earn',
      summary: 'Earn points for a purchase',
      description:
        'points = floor(amount x pointsPerCurrency x tier multiplier). An unknown email is enrolled (customer and ' +
        'member created, the customer named from the local part of the email: grace.hopper@example.com is ' +
        '"Grace Hopper") when the program enrolls automatically, else 404. An earn that would take the balance or ' +
        'lifetime points past 9007199254740991 (2^53-1) is 422 VALIDATION_ERROR naming `amount`, and changes ' +
        'nothing. A `reference` used before by the ' +
        'business: 409 CONFLICT. No active program: 404. Send an `Idempotency-Key` so that a retry after a lost ' +
        'response is answered from the first attempt (`Idempotent-Replayed: true`).',
      headers: IdempotencyHeadersSchema,
      body: EarnBodySchema,
      responses: { 200: ok(EarnResultSchema), ...errors(404, 409) },
      metadata: m,
    },
    publicRedeem: {
      method: 'POST',
      path: '/public/loyalty/redeem',
      summary: 'Redeem a reward',
      description:
        "Debits the reward's pointsCost and issues a voucher, as the token redemption does. Balance too low: 422 " +
        'INSUFFICIENT_POINTS; member not active or reward inactive: 409 INVALID_STATE; unknown member email: 404; ' +
        'unknown rewardId: 422.',
      headers: IdempotencyHeadersSchema,
      body: RedeemBodySchema,
      responses: { 201: ok(RedeemResultSchema), ...errors(404, 409) },
      metadata: m,
    },
    publicListRewards: {
      method: 'GET',
      path: '/public/loyalty/rewards',
      summary: 'Rewards catalogue',
      description: 'Active rewards only, cheapest first.',
      responses: { 200: ok(z.array(PublicRewardSchema)), ...errors() },
      metadata: m,
    },
    publicVerifyVoucher: {
      method: 'GET',
      path: '/public/loyalty/vouchers/:code/verify',
      summary: 'Verify a voucher',
      description: 'Unknown code: 404. `valid` is true for a pending, unexpired redemption.',
      pathParams: z.object({ code: z.string().max(20) }),
      responses: { 200: ok(PublicVoucherVerificationSchema), ...errors(404) },
      metadata: m,
    },
  },
  ROUTER_OPTIONS,
);
