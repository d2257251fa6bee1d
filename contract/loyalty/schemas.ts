import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { BooleanQuerySchema } from '../common/pagination.js';
import { CurrencySchema, DateSchema, TimestampSchema } from '../common/schemas.js';

const PublicId = z.string().max(64);
const Name = z.string().trim().min(1).max(200);
const Description = z.string().max(2000);
const HexColor = z
  .string()
  .length(7)
  .regex(/^#[0-9A-Fa-f]{6}$/, 'Expected a hex color such as #C0C0C0');

/** `limit` (default 50, max 200) and `offset` of the loyalty lists. */
export const LoyaltyPageQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
});

export const ENROLLMENT_TYPES = ['automatic', 'manual'] as const;

/** Untitled, so it can also be used nullable (a titled schema becomes a $ref, which cannot). */
export const ProgramShape = z.object({
  publicId: z.string(),
  name: z.string(),
  pointsName: z.string(),
  pointsPerCurrency: z.number().int(),
  currency: z.string(),
  enrollmentType: z.enum(ENROLLMENT_TYPES),
  pointsExpiryDays: z.number().int().describe('0 means points never expire.'),
  isActive: z.boolean(),
  autoNotify: z.boolean(),
  dateCreated: TimestampSchema,
});
// extendApi marks the schema it is given, so the titled one is a separate instance.
export const ProgramSchema = extendApi(ProgramShape.extend({}), { title: 'LoyaltyProgram' });
export type Program = z.infer<typeof ProgramSchema>;

export const CreateProgramBodySchema = extendApi(
  z
    .object({
      name: Name,
      pointsName: z.string().trim().min(1).max(50),
      pointsPerCurrency: z.number().int().min(1).max(100_000),
      currency: CurrencySchema,
      enrollmentType: z.enum(ENROLLMENT_TYPES).optional().describe('Default automatic.'),
      pointsExpiryDays: z.number().int().min(0).max(3650).optional().describe('Default 0 (no expiry).'),
      autoNotify: z.boolean().optional().describe('Default true.'),
    })
    .strict(),
  {
    title: 'CreateProgramBody',
    example: { name: 'Coffee Club', pointsName: 'Beans', pointsPerCurrency: 10, currency: 'USD' },
  },
);
export type CreateProgramBody = z.infer<typeof CreateProgramBodySchema>;

export const UpdateProgramBodySchema = extendApi(
  z
    .object({
      name: Name.optional(),
      pointsName: z.string().trim().min(1).max(50).optional(),
      pointsPerCurrency: z.number().int().min(1).max(100_000).optional(),
      enrollmentType: z.enum(ENROLLMENT_TYPES).optional(),
      pointsExpiryDays: z.number().int().min(0).max(3650).optional(),
      isActive: z.boolean().optional(),
      autoNotify: z.boolean().optional(),
    })
    .strict(),
  { title: 'UpdateProgramBody', example: { pointsPerCurrency: 5 } },
);
export type UpdateProgramBody = z.infer<typeof UpdateProgramBodySchema>;

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
      color: HexColor.optional().describe('Default #808080.'),
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
  {
    title: 'LoyaltyMemberDetail',
  },
);
export type MemberDetail = z.infer<typeof MemberDetailSchema>;

export const EnrollMemberBodySchema = extendApi(
  z
    .object({
      customerId: PublicId,
      tierId: PublicId.optional().describe('Default: the lowest tier.'),
      initialPoints: z.number().int().min(0).max(100_000_000).optional(),
    })
    .strict(),
  {
    title: 'EnrollMemberBody',
    example: { customerId: 'cus_01JD7X2R5VQ8N3K4M6P9T1W2Y3', initialPoints: 100 },
  },
);
export type EnrollMemberBody = z.infer<typeof EnrollMemberBodySchema>;

export const BulkEnrollBodySchema = extendApi(
  z
    .object({
      customerIds: z.array(PublicId).min(1).max(1000),
      tierId: PublicId.optional(),
      initialPoints: z.number().int().min(0).max(100_000_000).optional(),
    })
    .strict(),
  { title: 'BulkEnrollBody' },
);
export type BulkEnrollBody = z.infer<typeof BulkEnrollBodySchema>;

export const BulkEnrollResultSchema = z.object({
  enrolled: z.number().int(),
  skipped: z.number().int(),
  errors: z.array(z.object({ customerId: z.string(), message: z.string() })),
});

export const UpdateMemberBodySchema = extendApi(
  z.object({ tierId: PublicId.optional(), status: z.enum(MEMBER_STATUSES).optional() }).strict(),
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

export const TRANSACTION_TYPES = ['earn', 'redeem', 'adjust', 'expire'] as const;

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

export const AdjustBodySchema = extendApi(
  z
    .object({
      memberId: PublicId,
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
export type AdjustBody = z.infer<typeof AdjustBodySchema>;

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
      name: Name,
      pointsCost: z.number().int().min(1).max(100_000_000),
      rewardType: z.enum(REWARD_TYPES),
      description: Description.optional(),
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
  z.object({ memberId: PublicId, rewardId: PublicId, notes: z.string().max(1000).optional() }).strict(),
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

export const ReminderSchema = extendApi(
  z.object({
    publicId: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    intervalDays: z.number().int(),
    bonusPoints: z.number().int(),
    isActive: z.boolean(),
    dateCreated: TimestampSchema,
  }),
  { title: 'LoyaltyReminder' },
);
export type Reminder = z.infer<typeof ReminderSchema>;

export const CreateReminderBodySchema = extendApi(
  z
    .object({
      name: Name,
      intervalDays: z.number().int().min(1).max(3650),
      description: Description.optional(),
      bonusPoints: z.number().int().min(0).max(1_000_000).optional(),
      isActive: z.boolean().optional(),
    })
    .strict(),
  { title: 'CreateReminderBody', example: { name: 'Bike service', intervalDays: 180, bonusPoints: 50 } },
);
export type CreateReminderBody = z.infer<typeof CreateReminderBodySchema>;
export const UpdateReminderBodySchema = extendApi(CreateReminderBodySchema.partial().strict(), {
  title: 'UpdateReminderBody',
});
export type UpdateReminderBody = z.infer<typeof UpdateReminderBodySchema>;

export const CompleteReminderBodySchema = extendApi(z.object({ memberId: PublicId }).strict(), {
  title: 'CompleteReminderBody',
});

export const CompleteReminderResultSchema = z.object({
  // The bonus earn transaction; null when bonusPoints is 0.
  transaction: TransactionShape.nullable(),
  nextDueDate: DateSchema,
});
