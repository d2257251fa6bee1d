import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { resultData } from '../common/envelopes.js';
import { resultErrors } from '../common/errors.js';
import { majorAmountInput } from '../common/money.js';
import { IdempotencyHeadersSchema } from '../common/schemas.js';
import { MemberEmailSchema, publicLoyaltyRoute } from './shared.js';

const c = initContract();

export const BalanceQuerySchema = z.object({ email: MemberEmailSchema });
export type BalanceQuery = z.infer<typeof BalanceQuerySchema>;

export const BalanceSchema = extendApi(
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
export type Balance = z.infer<typeof BalanceSchema>;

export const EarnPointsBodySchema = extendApi(
  z
    .object({
      email: MemberEmailSchema,
      amount: majorAmountInput({
        description:
          'Purchase amount in the program currency, with any number of decimals: points are floored from ' +
          'the amount exactly as sent, never from a rounded one',
        min: 0,
        aboveMin: true,
        anyDecimals: true,
        max: 1_000_000_000,
        example: 12.5,
      }),
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
export type EarnPointsBody = z.infer<typeof EarnPointsBodySchema>;

export const EarnPointsResultSchema = extendApi(
  z.object({
    pointsEarned: z.number().int(),
    multiplierApplied: z.number(),
    newBalance: z.number().int(),
    tierName: z.string().nullable(),
  }),
  { title: 'PublicEarnResult' },
);
export type EarnPointsResult = z.infer<typeof EarnPointsResultSchema>;

/** A member's points, read and earned by the calling system. */
export const pointsContract = c.router({
  publicGetBalance: {
    method: 'GET',
    path: '/public/loyalty/balance',
    summary: 'Balance of a member',
    description: 'By the customer email. Unknown email, or a customer who is not a member: 404.',
    query: BalanceQuerySchema,
    responses: { 200: resultData(BalanceSchema), ...resultErrors(404) },
    metadata: publicLoyaltyRoute,
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
    body: EarnPointsBodySchema,
    responses: { 200: resultData(EarnPointsResultSchema), ...resultErrors(404, 409) },
    metadata: publicLoyaltyRoute,
  },
});
