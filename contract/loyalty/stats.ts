import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { resultData } from '../common/envelopes.js';
import { resultErrors } from '../common/errors.js';
import { loyaltyRoute } from './shared.js';

const c = initContract();

export const StatsSchema = extendApi(
  z.object({
    totalMembers: z.number().int(),
    activeMembers: z.number().int(),
    totalPointsIssued: z.number().int(),
    totalPointsRedeemed: z.number().int(),
    redemptionRate: z.number().describe('redeemed / issued x 100, two decimals.'),
    tierDistribution: z.array(z.object({ name: z.string(), count: z.number().int(), color: z.string() })),
  }),
  { title: 'LoyaltyStats' },
);
export type Stats = z.infer<typeof StatsSchema>;

const getStats = {
  method: 'GET',
  responses: { 200: resultData(StatsSchema), ...resultErrors() },
  metadata: loyaltyRoute,
} as const;

export const statsContract = c.router({
  getStats: {
    ...getStats,
    path: '/loyalty/stats',
    summary: 'Loyalty statistics',
    description: 'Members, points and tiers.',
  },
  getStatsAlias: {
    ...getStats,
    path: '/get/loyalty/stats',
    summary: 'Loyalty statistics (alias)',
    description: 'The same as GET /v1/loyalty/stats.',
  },
});
