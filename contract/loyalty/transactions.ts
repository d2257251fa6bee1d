import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { resultData, resultPage } from '../common/envelopes.js';
import { resultErrors } from '../common/errors.js';
import { IdempotencyHeadersSchema, TimestampSchema } from '../common/schemas.js';
import { LoyaltyPageQuerySchema, loyaltyRoute, PublicIdSchema } from './shared.js';

const c = initContract();

export const TRANSACTION_TYPES = ['earn', 'redeem', 'adjust', 'expire'] as const;

/** Untitled, so it can also be used nullable (a titled schema becomes a $ref, which cannot). */
export const TransactionShape = z.object({
  publicId: z.string(),
  memberId: z.string(),
  type: z.enum(TRANSACTION_TYPES),
  points: z.number().int().describe('Negative when points are removed.'),
  balanceAfter: z.number().int(),
  description: z.string().nullable(),
  referenceType: z.string().nullable().describe('invoice, reward, reminder, public or manual.'),
  referenceId: z.string().nullable(),
  multiplierApplied: z.number(),
  dateCreated: TimestampSchema,
});
export const TransactionSchema = extendApi(TransactionShape.extend({}), { title: 'LoyaltyTransaction' });
export type Transaction = z.infer<typeof TransactionSchema>;

export const ListTransactionsQuerySchema = LoyaltyPageQuerySchema.extend({
  type: z.enum(TRANSACTION_TYPES).optional(),
});
export type ListTransactionsQuery = z.infer<typeof ListTransactionsQuerySchema>;

export const AdjustPointsBodySchema = extendApi(
  z
    .object({
      memberId: PublicIdSchema,
      points: z
        .number()
        .int()
        .min(-100_000_000)
        .max(100_000_000)
        .refine((p) => p !== 0, 'Must not be 0'),
      description: z.string().trim().min(1).max(500),
    })
    .strict(),
  {
    title: 'AdjustPointsBody',
    example: { memberId: 'mem_01JD7X2R5VQ8N3K4M6P9T1W2Y3', points: -50, description: 'Goodwill correction' },
  },
);
export type AdjustPointsBody = z.infer<typeof AdjustPointsBodySchema>;

/** Every member's ledger. One member's transactions are listed under members. */
export const transactionsContract = c.router({
  listTransactions: {
    method: 'GET',
    path: '/loyalty/transactions',
    summary: 'List transactions',
    description: "Every member's point transactions, newest first.",
    query: ListTransactionsQuerySchema,
    responses: { 200: resultPage(TransactionSchema), ...resultErrors() },
    metadata: loyaltyRoute,
  },
  adjustPoints: {
    method: 'POST',
    path: '/loyalty/transactions/adjust',
    summary: "Adjust a member's points",
    description:
      'Adds (positive) or removes (negative) points; removing more than the balance is 422 INSUFFICIENT_POINTS, ' +
      'adding so much that the balance or lifetime points would pass 9007199254740991 (2^53-1) is 422 ' +
      'VALIDATION_ERROR naming `points`.',
    headers: IdempotencyHeadersSchema,
    body: AdjustPointsBodySchema,
    responses: { 201: resultData(TransactionSchema), ...resultErrors(404, 409) },
    metadata: loyaltyRoute,
  },
});
