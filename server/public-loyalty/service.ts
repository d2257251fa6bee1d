import type { AuditActor } from '../platform/audit.js';
import type {
  Balance,
  EarnPointsBody,
  EarnPointsResult,
  RedeemRewardBody,
  RedeemRewardResult,
  Reward,
  VoucherVerification,
} from '../../contract/public-loyalty/index.js';
import type { Ctx } from '../platform/context.js';
import type { AccessConfirmation } from '../platform/deps.js';
import { notFound } from '../platform/errors.js';
import {
  activeRewards,
  currentProgram,
  earnByEmail,
  findVoucher,
  memberByEmail,
  redeemReward,
} from '../loyalty/index.js';

const noProgram = () => notFound('Loyalty program');
const noMember = () => notFound('Member');

export async function getBalance(ctx: Ctx, email: string): Promise<Balance> {
  const [program, member] = await Promise.all([currentProgram(ctx), memberByEmail(ctx, email)]);
  if (!program) throw noProgram();
  if (!member) throw noMember();
  return {
    customerName: member.customerName,
    tierName: member.tierName,
    tierColor: member.tierColor,
    pointsBalance: member.pointsBalance,
    lifetimePoints: member.lifetimePoints,
    pointsName: program.pointsName,
  };
}

/**
 * Public earn: loyalty's earn by email (two statements on the usual path, see earn-by-email.ts),
 * confirming a cached key with the first of them when the request left that to it.
 */
export const earn = (
  ctx: Ctx,
  input: EarnPointsBody,
  actor: AuditActor,
  confirmAccess?: AccessConfirmation,
): Promise<EarnPointsResult> => earnByEmail(ctx, input, actor, confirmAccess);

export async function redeem(ctx: Ctx, input: RedeemRewardBody): Promise<RedeemRewardResult> {
  const member = await memberByEmail(ctx, input.email);
  if (!member) throw noMember();
  const { redemption, member: after } = await redeemReward(ctx, {
    memberId: member.publicId,
    rewardId: input.rewardId,
  });
  return {
    redemptionId: redemption.publicId,
    rewardName: redemption.rewardName,
    pointsSpent: redemption.pointsSpent,
    newBalance: after.pointsBalance,
    voucherCode: redemption.voucherCode,
    expiresAt: redemption.expiresAt,
  };
}

export async function listRewards(ctx: Ctx): Promise<Reward[]> {
  return (await activeRewards(ctx)).map((r) => ({
    publicId: r.publicId,
    name: r.name,
    description: r.description,
    pointsCost: r.pointsCost,
    rewardType: r.rewardType,
    ...(r.rewardType === 'discount' && r.discountPercent !== null && { discountPercent: r.discountPercent }),
  }));
}

export async function verifyVoucher(ctx: Ctx, code: string): Promise<VoucherVerification> {
  const { voucher, rewardType } = await findVoucher(ctx, code);
  return { ...voucher, rewardType };
}
