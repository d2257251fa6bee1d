import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { resultData, ResultMessageSchema, resultPage } from '../common/envelopes.js';
import { resultErrors } from '../common/errors.js';
import { IdempotencyHeadersSchema, TimestampSchema } from '../common/schemas.js';
import { LoyaltyPageQuerySchema, loyaltyRoute, PublicIdParamsSchema, PublicIdSchema } from './shared.js';
import { ListTransactionsQuerySchema, TransactionSchema } from './transactions.js';

const c = initContract();

export const MEMBER_STATUSES = ['active', 'inactive', 'suspended'] as const;

const memberFields = {
  publicId: z.string(),
  customerId: z.string(),
  customerName: z.string(),
  customerEmail: z.string().nullable(),
  tierId: z.string().nullable(),
  tierName: z.string().nullable(),
  tierColor: z.string().nullable(),
  pointsBalance: z.number().int(),
  lifetimePoints: z.number().int(),
  status: z.enum(MEMBER_STATUSES),
  enrolledAt: TimestampSchema,
};
export const MemberSchema = extendApi(z.object(memberFields), { title: 'LoyaltyMember' });
export type Member = z.infer<typeof MemberSchema>;

export const MemberDetailSchema = extendApi(
  z.object({ ...memberFields, customerPhone: z.string().nullable() }),
  { title: 'LoyaltyMemberDetail' },
);
export type MemberDetail = z.infer<typeof MemberDetailSchema>;

export const EnrollMemberBodySchema = extendApi(
  z
    .object({
      customerId: PublicIdSchema,
      tierId: PublicIdSchema.optional().describe('Default: the lowest tier.'),
      initialPoints: z.number().int().min(0).max(100_000_000).optional(),
    })
    .strict(),
  {
    title: 'EnrollMemberBody',
    example: { customerId: 'cus_01JD7X2R5VQ8N3K4M6P9T1W2Y3', initialPoints: 100 },
  },
);
export type EnrollMemberBody = z.infer<typeof EnrollMemberBodySchema>;

export const BulkEnrollMembersBodySchema = extendApi(
  z
    .object({
      customerIds: z.array(PublicIdSchema).min(1).max(1000),
      tierId: PublicIdSchema.optional(),
      initialPoints: z.number().int().min(0).max(100_000_000).optional(),
    })
    .strict(),
  { title: 'BulkEnrollBody' },
);
export type BulkEnrollMembersBody = z.infer<typeof BulkEnrollMembersBodySchema>;

export const BulkEnrollResultSchema = z.object({
  enrolled: z.number().int(),
  skipped: z.number().int(),
  errors: z.array(z.object({ customerId: z.string(), message: z.string() })),
});
export type BulkEnrollResult = z.infer<typeof BulkEnrollResultSchema>;

export const UpdateMemberBodySchema = extendApi(
  z.object({ tierId: PublicIdSchema.optional(), status: z.enum(MEMBER_STATUSES).optional() }).strict(),
  { title: 'UpdateMemberBody' },
);
export type UpdateMemberBody = z.infer<typeof UpdateMemberBodySchema>;

export const ListMembersQuerySchema = LoyaltyPageQuerySchema.extend({
  status: z.enum(MEMBER_STATUSES).optional(),
  tier: z.string().max(64).optional().describe('Tier publicId.'),
  search: z
    .string()
    .max(100)
    .optional()
    .describe("Case-insensitive substring of the member's name or email."),
});
export type ListMembersQuery = z.infer<typeof ListMembersQuerySchema>;

export const membersContract = c.router({
  listMembers: {
    method: 'GET',
    path: '/loyalty/members',
    summary: 'List members',
    description: 'Newest first; filter by status, tier and a case-insensitive name or email substring.',
    query: ListMembersQuerySchema,
    responses: { 200: resultPage(MemberSchema), ...resultErrors() },
    metadata: loyaltyRoute,
  },
  getMember: {
    method: 'GET',
    path: '/loyalty/members/:publicId',
    summary: 'Get a member',
    description: "The member with the customer's phone.",
    pathParams: PublicIdParamsSchema,
    responses: { 200: resultData(MemberDetailSchema), ...resultErrors(404) },
    metadata: loyaltyRoute,
  },
  enrollMember: {
    method: 'POST',
    path: '/loyalty/members',
    summary: 'Enroll a customer',
    description:
      'Enrolls a customer of the general group. Needs a program (404). Unknown customerId or tierId: 422; ' +
      'a customer who is already a member: 409 CONFLICT. initialPoints is recorded as an adjust transaction.',
    headers: IdempotencyHeadersSchema,
    body: EnrollMemberBodySchema,
    responses: { 201: resultData(MemberSchema), ...resultErrors(404, 409) },
    metadata: loyaltyRoute,
  },
  bulkEnrollMembers: {
    method: 'POST',
    path: '/loyalty/members/bulk',
    summary: 'Enroll customers in bulk',
    description: 'Up to 1,000 customer ids: existing members are skipped, unknown ids listed under errors.',
    headers: IdempotencyHeadersSchema,
    body: BulkEnrollMembersBodySchema,
    responses: { 200: resultData(BulkEnrollResultSchema), ...resultErrors(404, 409) },
    metadata: loyaltyRoute,
  },
  updateMember: {
    method: 'PUT',
    path: '/loyalty/members/:publicId',
    summary: 'Update a member',
    description:
      'Sets the tier (kept until earning qualifies for a higher one) and/or the status; an empty body changes ' +
      'nothing.',
    pathParams: PublicIdParamsSchema,
    body: UpdateMemberBodySchema,
    responses: { 200: ResultMessageSchema, ...resultErrors(404) },
    metadata: loyaltyRoute,
  },
  deleteMember: {
    method: 'DELETE',
    path: '/loyalty/members/:publicId',
    summary: 'Delete a member',
    description: 'The member disappears; its transactions and redemptions are kept.',
    pathParams: PublicIdParamsSchema,
    body: c.noBody(),
    responses: { 200: ResultMessageSchema, ...resultErrors(404) },
    metadata: loyaltyRoute,
  },
  listMemberTransactions: {
    method: 'GET',
    path: '/loyalty/members/:publicId/transactions',
    summary: "List a member's transactions",
    description: 'Newest first.',
    pathParams: PublicIdParamsSchema,
    query: ListTransactionsQuerySchema,
    responses: { 200: resultPage(TransactionSchema), ...resultErrors(404) },
    metadata: loyaltyRoute,
  },
});
