import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { resultCreated, resultData, ResultMessageSchema } from '../common/envelopes.js';
import { resultErrors } from '../common/errors.js';
import { IdempotencyHeadersSchema } from '../common/schemas.js';
import { loyaltyRoute, PublicIdParamsSchema } from './shared.js';

const c = initContract();

const HexColorSchema = z
  .string()
  .length(7)
  .regex(/^#[0-9A-Fa-f]{6}$/, 'Expected a hex color such as #C0C0C0');

export const TierSchema = extendApi(
  z.object({
    publicId: z.string(),
    name: z.string(),
    color: z.string(),
    minPoints: z.number().int().describe('Lifetime points needed.'),
    multiplier: z.number(),
    sortOrder: z.number().int(),
  }),
  { title: 'LoyaltyTier' },
);
export type Tier = z.infer<typeof TierSchema>;

export const CreateTierBodySchema = extendApi(
  z
    .object({
      name: z.string().trim().min(1).max(100),
      minPoints: z.number().int().min(0).max(1_000_000_000),
      color: HexColorSchema.optional().describe('Default #808080.'),
      multiplier: z.number().min(0.1).max(10).optional().describe('Default 1.0; at most 2 decimals.'),
      sortOrder: z.number().int().min(0).max(10_000).optional(),
    })
    .strict(),
  { title: 'CreateTierBody', example: { name: 'Gold', minPoints: 1000, color: '#FFD700', multiplier: 1.5 } },
);
export type CreateTierBody = z.infer<typeof CreateTierBodySchema>;

export const UpdateTierBodySchema = extendApi(CreateTierBodySchema.partial().strict(), {
  title: 'UpdateTierBody',
});
export type UpdateTierBody = z.infer<typeof UpdateTierBodySchema>;

export const tiersContract = c.router({
  listTiers: {
    method: 'GET',
    path: '/loyalty/tiers',
    summary: 'List tiers',
    description: 'Tiers of the current program by sortOrder, then minPoints.',
    responses: { 200: resultData(z.array(TierSchema)), ...resultErrors() },
    metadata: loyaltyRoute,
  },
  createTier: {
    method: 'POST',
    path: '/loyalty/tiers',
    summary: 'Create a tier',
    description:
      'Needs a program (404 without one). Tier names and minPoints are unique within the program (409).',
    headers: IdempotencyHeadersSchema,
    body: CreateTierBodySchema,
    responses: { 201: resultCreated(TierSchema), ...resultErrors(404, 409) },
    metadata: loyaltyRoute,
  },
  updateTier: {
    method: 'PUT',
    path: '/loyalty/tiers/:publicId',
    summary: 'Update a tier',
    description: 'Partial update; an empty body changes nothing. An unknown id is 404.',
    pathParams: PublicIdParamsSchema,
    body: UpdateTierBodySchema,
    responses: { 200: ResultMessageSchema, ...resultErrors(404, 409) },
    metadata: loyaltyRoute,
  },
  deleteTier: {
    method: 'DELETE',
    path: '/loyalty/tiers/:publicId',
    summary: 'Delete a tier',
    description: 'Its members move to the next lower tier (or to no tier when it was the lowest).',
    pathParams: PublicIdParamsSchema,
    body: c.noBody(),
    responses: { 200: ResultMessageSchema, ...resultErrors(404) },
    metadata: loyaltyRoute,
  },
});
