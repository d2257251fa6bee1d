import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { resultData } from '../common/envelopes.js';
import { resultErrors } from '../common/errors.js';
import { IdempotencyHeadersSchema, TimestampSchema } from '../common/schemas.js';
import { REDEMPTION_STATUSES, REWARD_TYPES } from '../loyalty/index.js';
import { MemberEmailSchema, publicLoyaltyRoute } from './shared.js';

const c = initContract();

export const RewardSchema = extendApi(
  z.object({
    publicId: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    pointsCost: z.number().int(),
    rewardType: z.enum(REWARD_TYPES),
    discountPercent: z.number().optional().describe('Present on discount rewards only.'),
  }),
  { title: 'PublicLoyaltyReward' },
);
export type Reward = z.infer<typeof RewardSchema>;

export const RedeemRewardBodySchema = extendApi(
  z.object({ email: MemberEmailSchema, rewardId: z.string().max(64) }).strict(),
  { title: 'PublicRedeemBody' },
);
export type RedeemRewardBody = z.infer<typeof RedeemRewardBodySchema>;

export const RedeemRewardResultSchema = extendApi(
  z.object({
    redemptionId: z.string(),
    rewardName: z.string(),
    pointsSpent: z.number().int(),
    newBalance: z.number().int(),
    voucherCode: z.string(),
    expiresAt: TimestampSchema,
  }),
  { title: 'PublicRedeemResult' },
);
export type RedeemRewardResult = z.infer<typeof RedeemRewardResultSchema>;

export const VoucherVerificationSchema = extendApi(
  z.object({
    valid: z.boolean().describe('True when the redemption is pending and not expired.'),
    voucherCode: z.string(),
    rewardName: z.string(),
    rewardType: z.enum(REWARD_TYPES),
    status: z.enum(REDEMPTION_STATUSES),
    redeemedAt: TimestampSchema,
    expiresAt: TimestampSchema,
  }),
  { title: 'PublicVoucherVerification' },
);
export type VoucherVerification = z.infer<typeof VoucherVerificationSchema>;

/** The rewards catalogue, redeeming a reward and checking the voucher it issued. */
export const rewardsContract = c.router({
  publicRedeem: {
    method: 'POST',
    path: '/public/loyalty/redeem',
    summary: 'Redeem a reward',
    description:
      "Debits the reward's pointsCost and issues a voucher, as the token redemption does. Balance too low: 422 " +
      'INSUFFICIENT_POINTS; member not active or reward inactive: 409 INVALID_STATE; unknown member email: 404; ' +
      'unknown rewardId: 422.',
    headers: IdempotencyHeadersSchema,
    body: RedeemRewardBodySchema,
    responses: { 201: resultData(RedeemRewardResultSchema), ...resultErrors(404, 409) },
    metadata: publicLoyaltyRoute,
  },
  publicListRewards: {
    method: 'GET',
    path: '/public/loyalty/rewards',
    summary: 'Rewards catalogue',
    description: 'Active rewards only, cheapest first.',
    responses: { 200: resultData(z.array(RewardSchema)), ...resultErrors() },
    metadata: publicLoyaltyRoute,
  },
  publicVerifyVoucher: {
    method: 'GET',
    path: '/public/loyalty/vouchers/:code/verify',
    summary: 'Verify a voucher',
    description: 'Unknown code: 404. `valid` is true for a pending, unexpired redemption.',
    pathParams: z.object({ code: z.string().max(20) }),
    responses: { 200: resultData(VoucherVerificationSchema), ...resultErrors(404) },
    metadata: publicLoyaltyRoute,
  },
});
