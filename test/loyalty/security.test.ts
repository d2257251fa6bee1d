import { randomBytes, randomInt } from 'node:crypto';
import { expect } from 'vitest';
import { contract, unwrap } from '../../client/index.js';
import { registerShop, type TestShop } from '../support/business.js';
import { createCustomer } from '../support/general.js';
import {
  createProgram,
  createRedemption,
  createReminder,
  createTier,
  enrollMember,
  newReward,
} from '../support/loyalty.js';
import { describeRouteSecurity, type Answer } from '../support/security.js';
import { useTestServer } from '../support/setup.js';

const server = useTestServer({ worker: false });

const { program, tiers, members, transactions, rewards, redemptions, stats, reminders } = contract.loyalty;

const tag = () => randomBytes(4).toString('hex');

/** The shop's program, active (created again when a check deleted it). */
async function activeProgram(shop: TestShop): Promise<void> {
  const { data } = await unwrap(shop.client.loyalty.program.getProgram());
  if (!data?.isActive) await createProgram(shop.client);
}

/** No active program: the shop may create one. */
async function noActiveProgram(shop: TestShop): Promise<void> {
  const { data } = await unwrap(shop.client.loyalty.program.getProgram());
  if (data?.isActive) await unwrap(shop.client.loyalty.program.deleteProgram());
}

/** A member holding 1,000 points. */
const richMember = (shop: TestShop) => enrollMember(shop.client, { initialPoints: 1000 });

const newTier = (shop: TestShop) =>
  createTier(shop.client, { name: `Tier ${tag()}`, minPoints: randomInt(1, 1_000_000) });

/** A pending redemption of a 100-point reward by a member who had 1,000 points. */
async function pendingRedemption(shop: TestShop) {
  const [member, reward] = [await richMember(shop), await newReward(shop)];
  return createRedemption(shop.client, { memberId: member.publicId, rewardId: reward.publicId });
}

/** A page of a loyalty list that another business filtered by this business's ids: answered, empty. */
const emptyPage = (answer: Answer) => {
  expect(answer.status).toBe(200);
  expect(answer.body).toEqual({ result: 'success', data: [], totalCount: 0 });
};

describeRouteSecurity({
  server,
  tenant: (s) => registerShop(s),
  router: contract.loyalty,
  routes: (route) => [
    route(program.getProgram, async () => ({})),
    route(program.createProgram, async (t) => {
      await noActiveProgram(t);
      return { body: { name: 'Club', pointsName: 'Stars', pointsPerCurrency: 10, currency: 'USD' } };
    }),
    route(program.updateProgram, async (t) => {
      await activeProgram(t);
      return { body: { name: 'Coffee Club' } };
    }),
    route(program.deleteProgram, async (t) => {
      await activeProgram(t);
      return {};
    }),

    route(tiers.listTiers, async () => ({})),
    route(tiers.createTier, async () => ({
      body: { name: `Tier ${tag()}`, minPoints: randomInt(1, 1_000_000) },
    })),
    route(tiers.updateTier, async (t) => ({
      params: { publicId: (await newTier(t)).publicId },
      body: { color: '#FFD700' },
    })),
    route(tiers.deleteTier, async (t) => ({ params: { publicId: (await newTier(t)).publicId } })),

    route(
      members.listMembers,
      async (t) => {
        const tier = await newTier(t);
        await enrollMember(t.client, { tierId: tier.publicId });
        return { query: { tier: tier.publicId } };
      },
      { otherBusiness: emptyPage },
    ),
    route(members.getMember, async (t) => ({
      params: { publicId: (await enrollMember(t.client)).publicId },
    })),
    // Ids in a body name the business's own resources: another business's are unknown (422 on the field).
    route(
      members.enrollMember,
      async (t) => ({ body: { customerId: (await createCustomer(t.client)).id } }),
      {
        otherBusiness: { status: 422, code: 'VALIDATION_ERROR', field: 'customerId' },
      },
    ),
    // Bulk enrollment reports another business's customers as unknown, one by one, and enrolls none.
    route(
      members.bulkEnrollMembers,
      async (t) => ({ body: { customerIds: [(await createCustomer(t.client)).id] } }),
      {
        otherBusiness: (answer) => {
          expect(answer.status).toBe(200);
          expect(answer.body).toMatchObject({
            result: 'success',
            data: { enrolled: 0, skipped: 0, errors: [{ customerId: expect.any(String) }] },
          });
        },
      },
    ),
    route(members.updateMember, async (t) => ({
      params: { publicId: (await enrollMember(t.client)).publicId },
      body: { status: 'suspended' as const },
    })),
    route(members.deleteMember, async (t) => ({
      params: { publicId: (await enrollMember(t.client)).publicId },
    })),
    route(members.listMemberTransactions, async (t) => ({
      params: { publicId: (await richMember(t)).publicId },
      query: {},
    })),

    route(transactions.listTransactions, async () => ({ query: {} })),
    route(
      transactions.adjustPoints,
      async (t) => ({
        body: { memberId: (await richMember(t)).publicId, points: -50, description: 'Goodwill' },
      }),
      { otherBusiness: { status: 422, code: 'VALIDATION_ERROR', field: 'memberId' } },
    ),

    route(rewards.listRewards, async () => ({ query: {} })),
    route(rewards.listRewardsAlias, async () => ({ query: {} })),
    route(rewards.createReward, async () => ({
      body: { name: 'Free coffee', pointsCost: 100, rewardType: 'product' as const },
    })),
    route(rewards.updateReward, async (t) => ({
      params: { publicId: (await newReward(t)).publicId },
      body: { pointsCost: 150 },
    })),
    route(rewards.deleteReward, async (t) => ({ params: { publicId: (await newReward(t)).publicId } })),

    route(
      redemptions.listRedemptions,
      async (t) => ({ query: { memberId: (await pendingRedemption(t)).memberId } }),
      { otherBusiness: emptyPage },
    ),
    route(
      redemptions.createRedemption,
      async (t) => {
        const [member, reward] = [await richMember(t), await newReward(t)];
        return { body: { memberId: member.publicId, rewardId: reward.publicId } };
      },
      { otherBusiness: { status: 422, code: 'VALIDATION_ERROR', field: 'memberId' } },
    ),
    route(redemptions.updateRedemption, async (t) => ({
      params: { publicId: (await pendingRedemption(t)).publicId },
      body: { status: 'fulfilled' as const },
    })),
    route(redemptions.verifyVoucher, async (t) => ({
      params: { code: (await pendingRedemption(t)).voucherCode },
    })),

    route(stats.getStats, async () => ({})),
    route(stats.getStatsAlias, async () => ({})),

    route(reminders.listReminders, async () => ({ query: {} })),
    route(reminders.createReminder, async () => ({ body: { name: 'Bike service', intervalDays: 180 } })),
    route(reminders.updateReminder, async (t) => ({
      params: { publicId: (await createReminder(t.client)).publicId },
      body: { intervalDays: 90 },
    })),
    route(reminders.deleteReminder, async (t) => ({
      params: { publicId: (await createReminder(t.client)).publicId },
    })),
    route(reminders.completeReminder, async (t) => ({
      params: { publicId: (await createReminder(t.client, { bonusPoints: 50 })).publicId },
      body: { memberId: (await enrollMember(t.client)).publicId },
    })),
  ],
});
