import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { AUTHED, errorResponses } from '../common/errors.js';
import { meta, ROUTER_OPTIONS } from '../common/metadata.js';
import { IdempotencyHeadersSchema } from '../common/schemas.js';
import {
  AdjustBodySchema,
  BulkEnrollBodySchema,
  BulkEnrollResultSchema,
  CompleteReminderBodySchema,
  CompleteReminderResultSchema,
  CreateProgramBodySchema,
  CreateRedemptionBodySchema,
  CreateReminderBodySchema,
  CreateRewardBodySchema,
  CreateTierBodySchema,
  EnrollMemberBodySchema,
  ListMembersQuerySchema,
  ListRedemptionsQuerySchema,
  ListRewardsQuerySchema,
  ListTransactionsQuerySchema,
  MemberDetailSchema,
  MemberSchema,
  ProgramSchema,
  ProgramShape,
  RedemptionSchema,
  ReminderSchema,
  RewardSchema,
  StatsSchema,
  TierSchema,
  TransactionSchema,
  UpdateMemberBodySchema,
  UpdateProgramBodySchema,
  UpdateRedemptionBodySchema,
  UpdateReminderBodySchema,
  UpdateRewardBodySchema,
  UpdateTierBodySchema,
  VoucherVerificationSchema,
} from './schemas.js';

const c = initContract();
const success = z.literal('success');
const tag = 'Loyalty';
const m = meta('token', tag);
const PublicIdParams = z.object({ publicId: z.string().max(64) });
const ok = <T extends z.ZodTypeAny>(data: T) => z.object({ result: success, data });
const message = z.object({ result: success, message: z.string() });
const created = <T extends z.ZodTypeAny>(data: T) => z.object({ result: success, message: z.string(), data });
const page = <T extends z.ZodTypeAny>(item: T) =>
  z.object({ result: success, data: z.array(item), totalCount: z.number().int() });
const errors = (...extra: (404 | 409)[]) => errorResponses('result', [...AUTHED, ...extra]);

const program = c.router({
  getProgram: {
    method: 'GET',
    path: '/loyalty/program',
    summary: 'Get the loyalty program',
    description: 'The active program, else the most recently deactivated one, else `data: null`.',
    responses: { 200: ok(ProgramShape.nullable()), ...errors() },
    metadata: m,
  },
  createProgram: {
    method: 'POST',
    path: '/loyalty/program',
    summary: 'Create the loyalty program',
    description: 'One active program per business: a second is 409 CONFLICT.',
    headers: IdempotencyHeadersSchema,
    body: CreateProgramBodySchema,
    responses: { 201: ok(ProgramSchema), ...errors(409) },
    metadata: m,
  },
  updateProgram: {
    method: 'PUT',
    path: '/loyalty/program',
    summary: 'Update the loyalty program',
    description:
      'Partial update of the current program (404 when there is none); an empty body changes nothing.',
    body: UpdateProgramBodySchema,
    responses: { 200: message, ...errors(404, 409) },
    metadata: m,
  },
  deleteProgram: {
    method: 'DELETE',
    path: '/loyalty/program',
    summary: 'Delete the loyalty program',
    description: 'Deactivates the program and removes its tiers; members, transactions and redemptions stay.',
    body: c.noBody(),
    responses: { 200: message, ...errors(404) },
    metadata: m,
  },
});

const tiers = c.router({
  listTiers: {
    method: 'GET',
    path: '/loyalty/tiers',
    summary: 'List tiers',
    description: 'Tiers of the current program by sortOrder, then minPoints.',
    responses: { 200: ok(z.array(TierSchema)), ...errors() },
    metadata: m,
  },
  createTier: {
    method: 'POST',
    path: '/loyalty/tiers',
    summary: 'Create a tier',
    description:
      'Needs a program (404 without one). Tier names and minPoints are unique within the program (409).',
    headers: IdempotencyHeadersSchema,
    body: CreateTierBodySchema,
    responses: { 201: created(TierSchema), ...errors(404, 409) },
    metadata: m,
  },
  updateTier: {
    method: 'PUT',
    path: '/loyalty/tiers/:publicId',
    summary: 'Update a tier',
    description: 'Partial update; an empty body changes nothing. An unknown id is 404.',
    pathParams: PublicIdParams,
    body: UpdateTierBodySchema,
    responses: { 200: message, ...errors(404, 409) },
    metadata: m,
  },
  deleteTier: {
    method: 'DELETE',
    path: '/loyalty/tiers/:publicId',
    summary: 'Delete a tier',
    description: 'Its members move to the next lower tier (or to no tier when it was the lowest).',
    pathParams: PublicIdParams,
    body: c.noBody(),
    responses: { 200: message, ...errors(404) },
    metadata: m,
  },
});

const members = c.router({
  listMembers: {
    method: 'GET',
    path: '/loyalty/members',
    summary: 'List members',
    description: 'Newest first; filter by status, tier and a case-insensitive name or email substring.',
    query: ListMembersQuerySchema,
    responses: { 200: page(MemberSchema), ...errors() },
    metadata: m,
  },
  getMember: {
    method: 'GET',
    path: '/loyalty/members/:publicId',
    summary: 'Get a member',
    description: "The member with the customer's phone.",
    pathParams: PublicIdParams,
    responses: { 200: ok(MemberDetailSchema), ...errors(404) },
    metadata: m,
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
    responses: { 201: ok(MemberSchema), ...errors(404, 409) },
    metadata: m,
  },
  bulkEnrollMembers: {
    method: 'POST',
    path: '/loyalty/members/bulk',
    summary: 'Enroll customers in bulk',
    description: 'Up to 1,000 customer ids: existing members are skipped, unknown ids listed under errors.',
    headers: IdempotencyHeadersSchema,
    body: BulkEnrollBodySchema,
    responses: { 200: ok(BulkEnrollResultSchema), ...errors(404, 409) },
    metadata: m,
  },
  updateMember: {
    method: 'PUT',
    path: '/loyalty/members/:publicId',
    summary: 'Update a member',
    description:
      'Sets the tier (kept until earning qualifies for a higher one) and/or the status; an empty body changes ' +
      'nothing.',
    pathParams: PublicIdParams,
    body: UpdateMemberBodySchema,
    responses: { 200: message, ...errors(404) },
    metadata: m,
  },
  deleteMember: {
    method: 'DELETE',
    path: '/loyalty/members/:publicId',
    summary: 'Delete a member',
    description: 'The member disappears; its transactions and redemptions are kept.',
    pathParams: PublicIdParams,
    body: c.noBody(),
    responses: { 200: message, ...errors(404) },
    metadata: m,
  },
  listMemberTransactions: {
    method: 'GET',
    path: '/loyalty/members/:publicId/transactions',
    summary: "List a member's transactions",
    description: 'Newest first.',
    pathParams: PublicIdParams,
    query: ListTransactionsQuerySchema,
    responses: { 200: page(TransactionSchema), ...errors(404) },
    metadata: m,
  },
});

const transactions = c.router({
  listTransactions: {
    method: 'GET',
    path: '/loyalty/transactions',
    summary: 'List transactions',
    description: "Every member's point transactions, newest first.",
    query: ListTransactionsQuerySchema,
    responses: { 200: page(TransactionSchema), ...errors() },
    metadata: m,
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
    body: AdjustBodySchema,
    responses: { 201: ok(TransactionSchema), ...errors(404, 409) },
    metadata: m,
  },
});

const listRewards = {
  method: 'GET',
  query: ListRewardsQuerySchema,
  responses: { 200: ok(z.array(RewardSchema)), ...errors() },
  metadata: m,
} as const;

const rewards = c.router({
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
    responses: { 201: created(RewardSchema), ...errors(409) },
    metadata: m,
  },
  updateReward: {
    method: 'PUT',
    path: '/loyalty/rewards/:publicId',
    summary: 'Update a reward',
    description: 'Partial update; an empty body changes nothing. An unknown id is 404.',
    pathParams: PublicIdParams,
    body: UpdateRewardBodySchema,
    responses: { 200: message, ...errors(404) },
    metadata: m,
  },
  deleteReward: {
    method: 'DELETE',
    path: '/loyalty/rewards/:publicId',
    summary: 'Delete a reward',
    description: 'Existing redemptions of the reward are unchanged.',
    pathParams: PublicIdParams,
    body: c.noBody(),
    responses: { 200: message, ...errors(404) },
    metadata: m,
  },
});

const redemptions = c.router({
  listRedemptions: {
    method: 'GET',
    path: '/loyalty/redemptions',
    summary: 'List redemptions',
    description: 'Newest first; filter by status and memberId.',
    query: ListRedemptionsQuerySchema,
    responses: { 200: page(RedemptionSchema), ...errors() },
    metadata: m,
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
    responses: { 201: ok(RedemptionSchema), ...errors(409) },
    metadata: m,
  },
  updateRedemption: {
    method: 'PUT',
    path: '/loyalty/redemptions/:publicId',
    summary: 'Move a redemption',
    description:
      'pending -> fulfilled (fulfilledAt set) or cancelled (points refunded); anything else is 409 INVALID_STATE. ' +
      'A refund that would take the balance past 9007199254740991 (2^53-1) is 422 VALIDATION_ERROR naming `status`.',
    pathParams: PublicIdParams,
    body: UpdateRedemptionBodySchema,
    responses: { 200: message, ...errors(404, 409) },
    metadata: m,
  },
  verifyVoucher: {
    method: 'GET',
    path: '/loyalty/vouchers/:code/verify',
    summary: 'Verify a voucher',
    description: 'Unknown code: 404. `valid` is true for a pending, unexpired redemption.',
    pathParams: z.object({ code: z.string().max(20) }),
    responses: { 200: ok(VoucherVerificationSchema), ...errors(404) },
    metadata: m,
  },
});

const getStats = {
  method: 'GET',
  responses: { 200: ok(StatsSchema), ...errors() },
  metadata: m,
} as const;

const stats = c.router({
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

const reminders = c.router({
  listReminders: {
    method: 'GET',
    path: '/loyalty/reminders',
    summary: 'List service reminders',
    description: 'Newest first; filter by isActive.',
    query: ListRewardsQuerySchema,
    responses: { 200: ok(z.array(ReminderSchema)), ...errors() },
    metadata: m,
  },
  createReminder: {
    method: 'POST',
    path: '/loyalty/reminders',
    summary: 'Create a service reminder',
    description: 'A service due every intervalDays; completing it awards bonusPoints.',
    headers: IdempotencyHeadersSchema,
    body: CreateReminderBodySchema,
    responses: { 201: created(ReminderSchema), ...errors(409) },
    metadata: m,
  },
  updateReminder: {
    method: 'PUT',
    path: '/loyalty/reminders/:publicId',
    summary: 'Update a service reminder',
    description: 'Partial update; an empty body changes nothing. An unknown id is 404.',
    pathParams: PublicIdParams,
    body: UpdateReminderBodySchema,
    responses: { 200: message, ...errors(404) },
    metadata: m,
  },
  deleteReminder: {
    method: 'DELETE',
    path: '/loyalty/reminders/:publicId',
    summary: 'Delete a service reminder',
    description: 'No more reminders of it are sent.',
    pathParams: PublicIdParams,
    body: c.noBody(),
    responses: { 200: message, ...errors(404) },
    metadata: m,
  },
  completeReminder: {
    method: 'POST',
    path: '/loyalty/reminders/:publicId/complete',
    headers: IdempotencyHeadersSchema,
    summary: 'Record a completed service',
    description:
      'Awards bonusPoints to the member (earn, referenceType reminder) and schedules the next reminder ' +
      'intervalDays later. Inactive reminder or member: 409 INVALID_STATE; unknown memberId: 422; a bonus that ' +
      "would take the member's balance or lifetime points past 9007199254740991 (2^53-1): 422 naming `memberId`.",
    pathParams: PublicIdParams,
    body: CompleteReminderBodySchema,
    responses: { 200: ok(CompleteReminderResultSchema), ...errors(404, 409) },
    metadata: m,
  },
});

export const loyaltyContract = c.router(
  { program, tiers, members, transactions, rewards, redemptions, stats, reminders },
  ROUTER_OPTIONS,
);
