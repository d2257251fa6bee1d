import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { resultCreated, resultData, ResultMessageSchema } from '../common/envelopes.js';
import { resultErrors } from '../common/errors.js';
import { BooleanQuerySchema } from '../common/pagination.js';
import { IdempotencyHeadersSchema, TimestampSchema } from '../common/schemas.js';
import { DescriptionSchema, loyaltyRoute, NameSchema, PublicIdParamsSchema } from './shared.js';

const c = initContract();

export const REWARD_TYPES = ['discount', 'service', 'product', 'voucher'] as const;

export const RewardSchema = extendApi(
  z.object({
    publicId: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    pointsCost: z.number().int(),
    rewardType: z.enum(REWARD_TYPES),
    discountPercent: z.number().nullable().describe('For discount rewards only.'),
    isActive: z.boolean(),
    voucherValidityDays: z.number().int(),
    totalRedemptions: z.number().int(),
    dateCreated: TimestampSchema,
  }),
  { title: 'LoyaltyReward' },
);
export type Reward = z.infer<typeof RewardSchema>;

export const CreateRewardBodySchema = extendApi(
  z
    .object({
      name: NameSchema,
      pointsCost: z.number().int().min(1).max(100_000_000),
      rewardType: z.enum(REWARD_TYPES),
      description: DescriptionSchema.optional(),
      discountPercent: z
        .number()
        .gt(0)
        .max(100)
        .optional()
        .describe('Required for, and only for, discount rewards.'),
      isActive: z.boolean().optional(),
      voucherValidityDays: z.number().int().min(1).max(3650).optional().describe('Default 90.'),
    })
    .strict(),
  { title: 'CreateRewardBody', example: { name: 'Free coffee', pointsCost: 100, rewardType: 'product' } },
);
export type CreateRewardBody = z.infer<typeof CreateRewardBodySchema>;

export const UpdateRewardBodySchema = extendApi(CreateRewardBodySchema.partial().strict(), {
  title: 'UpdateRewardBody',
});
export type UpdateRewardBody = z.infer<typeof UpdateRewardBodySchema>;

export const ListRewardsQuerySchema = z.object({ isActive: BooleanQuerySchema.optional() });
export type ListRewardsQuery = z.infer<typeof ListRewardsQuerySchema>;

const listRewards = {
  method: 'GET',
  query: ListRewardsQuerySchema,
  responses: { 200: resultData(z.array(RewardSchema)), ...resultErrors() },
  metadata: loyaltyRoute,
} as const;

export const rewardsContract = c.router({
  listRewards: {
    ...listRewards,
    path: '/loyalty/rewards',
    summary: 'List rewards',
    description: 'Newest first; filter by isActive.',
  },
  listRewardsAlias: {
    ...listRewards,
    path: '/get/loyalty/rewards',
    summary: 'List rewards (alias)',
    description: 'The same as GET /v1/loyalty/rewards.',
  },
  createReward: {
    method: 'POST',
    path: '/loyalty/rewards',
    summary: 'Create a reward',
    description: 'discountPercent is required for discount rewards and refused for others (422).',
    headers: IdempotencyHeadersSchema,
    body: CreateRewardBodySchema,
    responses: { 201: resultCreated(RewardSchema), ...resultErrors(409) },
    metadata: loyaltyRoute,
  },
  updateReward: {
    method: 'PUT',
    path: '/loyalty/rewards/:publicId',
    summary: 'Update a reward',
    description: 'Partial update; an empty body changes nothing. An unknown id is 404.',
    pathParams: PublicIdParamsSchema,
    body: UpdateRewardBodySchema,
    responses: { 200: ResultMessageSchema, ...resultErrors(404) },
    metadata: loyaltyRoute,
  },
  deleteReward: {
    method: 'DELETE',
    path: '/loyalty/rewards/:publicId',
    summary: 'Delete a reward',
    description: 'Existing redemptions of the reward are unchanged.',
    pathParams: PublicIdParamsSchema,
    body: c.noBody(),
    responses: { 200: ResultMessageSchema, ...resultErrors(404) },
    metadata: loyaltyRoute,
  },
});
