import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { resultData, ResultMessageSchema, resultPage } from '../common/envelopes.js';
import { resultErrors } from '../common/errors.js';
import { IdempotencyHeadersSchema, TimestampSchema } from '../common/schemas.js';
import { LoyaltyPageQuerySchema, loyaltyRoute, PublicIdParamsSchema, PublicIdSchema } from './shared.js';

const c = initContract();

export const REDEMPTION_STATUSES = ['pending', 'fulfilled', 'cancelled', 'expired'] as const;

export const RedemptionSchema = extendApi(
  z.object({
    publicId: z.string(),
    memberId: z.string(),
    memberName: z.string(),
    rewardId: z.string(),
    rewardName: z.string(),
    pointsSpent: z.number().int(),
    status: z.enum(REDEMPTION_STATUSES),
    voucherCode: z
      .string()
      .describe('12 characters of Crockford base32 in groups of four, e.g. K7Q2-M9XD-4HPA.'),
    notes: z.string().nullable(),
    redeemedAt: TimestampSchema,
    fulfilledAt: TimestampSchema.nullable(),
    expiresAt: TimestampSchema,
  }),
  { title: 'LoyaltyRedemption' },
);
export type Redemption = z.infer<typeof RedemptionSchema>;

export const CreateRedemptionBodySchema = extendApi(
  z
    .object({ memberId: PublicIdSchema, rewardId: PublicIdSchema, notes: z.string().max(1000).optional() })
    .strict(),
  { title: 'CreateRedemptionBody' },
);
export type CreateRedemptionBody = z.infer<typeof CreateRedemptionBodySchema>;

export const UpdateRedemptionBodySchema = extendApi(
  z
    .object({ status: z.enum(['pending', 'fulfilled', 'cancelled']), notes: z.string().max(1000).optional() })
    .strict(),
  { title: 'UpdateRedemptionBody' },
);
export type UpdateRedemptionBody = z.infer<typeof UpdateRedemptionBodySchema>;

export const ListRedemptionsQuerySchema = LoyaltyPageQuerySchema.extend({
  status: z.enum(REDEMPTION_STATUSES).optional(),
  memberId: z.string().max(64).optional(),
});
export type ListRedemptionsQuery = z.infer<typeof ListRedemptionsQuerySchema>;

export const VoucherVerificationSchema = extendApi(
  z.object({
    valid: z.boolean().describe('True when the redemption is pending and not expired.'),
    voucherCode: z.string(),
    rewardName: z.string(),
    status: z.enum(REDEMPTION_STATUSES),
    redeemedAt: TimestampSchema,
    expiresAt: TimestampSchema,
    memberName: z.string(),
  }),
  { title: 'VoucherVerification' },
);
export type VoucherVerification = z.infer<typeof VoucherVerificationSchema>;

/** Redemptions and the vouchers they issue. */
export const redemptionsContract = c.router({
  listRedemptions: {
    method: 'GET',
    path: '/loyalty/redemptions',
    summary: 'List redemptions',
    description: 'Newest first; filter by status and memberId.',
    query: ListRedemptionsQuerySchema,
    responses: { 200: resultPage(RedemptionSchema), ...resultErrors() },
    metadata: loyaltyRoute,
  },
  createRedemption: {
    method: 'POST',
    path: '/loyalty/redemptions',
    summary: 'Redeem a reward',
    description:
      "Debits the reward's pointsCost and issues a voucher. Balance too low: 422 INSUFFICIENT_POINTS; member not " +
      'active or reward inactive: 409 INVALID_STATE; unknown memberId or rewardId: 422.',
    headers: IdempotencyHeadersSchema,
    body: CreateRedemptionBodySchema,
    responses: { 201: resultData(RedemptionSchema), ...resultErrors(409) },
    metadata: loyaltyRoute,
  },
  updateRedemption: {
    method: 'PUT',
    path: '/loyalty/redemptions/:publicId',
    summary: 'Move a redemption',
    description:
      'pending -> fulfilled (fulfilledAt set) or cancelled (points refunded); anything else is 409 INVALID_STATE. ' +
      'A refund that would take the balance past 9007199254740991 (2^53-1) is 422 VALIDATION_ERROR naming `status`.',
    pathParams: PublicIdParamsSchema,
    body: UpdateRedemptionBodySchema,
    responses: { 200: ResultMessageSchema, ...resultErrors(404, 409) },
    metadata: loyaltyRoute,
  },
  verifyVoucher: {
    method: 'GET',
    path: '/loyalty/vouchers/:code/verify',
    summary: 'Verify a voucher',
    description: 'Unknown code: 404. `valid` is true for a pending, unexpired redemption.',
    pathParams: z.object({ code: z.string().max(20) }),
    responses: { 200: resultData(VoucherVerificationSchema), ...resultErrors(404) },
    metadata: loyaltyRoute,
  },
});
