import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { TimestampSchema } from '../common/schemas.js';
import { REDEMPTION_STATUSES, REWARD_TYPES } from '../loyalty/schemas.js';

const Email = z.string().trim().email().max(254);

export const BalanceQuerySchema = z.object({ email: Email });
export type BalanceQuery = z.infer<typeof BalanceQuerySchema>;

export const PublicBalanceSchema = extendApi(
  z.object({
    customerName: z.string(),
    tierName: z.string().nullable(),
    tierColor: z.string().nullable(),
    pointsBalance: z.number().int(),
    lifetimePoints: z.number().int(),
    pointsName: z.string(),
  }),
  { title: 'PublicLoyaltyBalance' },
);
export type PublicBalance = z.infer<typeof PublicBalanceSchema>;

export const EarnBodySchema = extendApi(
  z
    .object({
      email: Email,
      amount: z
        .number()
        .positive()
        .max(1_000_000_000)
        .describe(
          'Purchase amount in the program currency (major units, e.g. 12.50), with any number of decimals: ' +
            'points are floored from the amount exactly as sent, never from a rounded one.',
        ),
      reference: z
        .string()
        .trim()
        .min(1)
        .max(200)
        .optional()
        .describe(
          'The sale in the calling system (e.g. a receipt number). Used once per business: a repeat is 409.',
        ),
      description: z.string().max(500).optional(),
    })
    .strict(),
  { title: 'PublicEarnBody', example: { email: 'ada@example.com', amount: 12.5, reference: 'POS-1042' } },
);
export type EarnBody = z.infer<typeof EarnBodySchema>;

export const EarnResultSchema = extendApi(
  z.object({
    pointsEarned: z.number().int(),
    multiplierApplied: z.number(),
    newBalance: z.number().int(),
    tierName: z.string().nullable(),
  }),
  { title: 'PublicEarnResult' },
);
export type EarnResult = z.infer<typeof EarnResultSchema>;

export const RedeemBodySchema = extendApi(z.object({ email: Email, rewardId: z.string().max(64) }).strict(), {
  title: 'PublicRedeemBody',
});
export type RedeemBody = z.infer<typeof RedeemBodySchema>;

export const RedeemResultSchema = extendApi(
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
export type RedeemResult = z.infer<typeof RedeemResultSchema>;

export const PublicRewardSchema = extendApi(
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
export type PublicReward = z.infer<typeof PublicRewardSchema>;

export const PublicVoucherVerificationSchema = extendApi(
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
export type PublicVoucherVerification = z.infer<typeof PublicVoucherVerificationSchema>;
