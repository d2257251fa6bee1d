// Transition shim, to be removed: the public loyalty contract lives per resource, combined in ./index.ts.
export {
  BalanceQuerySchema,
  type BalanceQuery,
  BalanceSchema as PublicBalanceSchema,
  type Balance as PublicBalance,
  EarnPointsBodySchema as EarnBodySchema,
  type EarnPointsBody as EarnBody,
  EarnPointsResultSchema as EarnResultSchema,
  type EarnPointsResult as EarnResult,
} from './points.js';
export {
  RedeemRewardBodySchema as RedeemBodySchema,
  type RedeemRewardBody as RedeemBody,
  RedeemRewardResultSchema as RedeemResultSchema,
  type RedeemRewardResult as RedeemResult,
  RewardSchema as PublicRewardSchema,
  type Reward as PublicReward,
  VoucherVerificationSchema as PublicVoucherVerificationSchema,
  type VoucherVerification as PublicVoucherVerification,
} from './rewards.js';
