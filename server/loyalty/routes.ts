import { initServer } from '@ts-rest/express';
import { contract } from '../../contract/index.js';
import { ctxOf, type Deps } from '../platform/deps.js';
import * as members from './members/service.js';
import * as program from './program/service.js';
import * as redemptions from './redemptions/service.js';
import * as reminders from './reminders/service.js';
import * as rewards from './rewards/service.js';
import { getStats } from './stats/service.js';
import * as tiers from './tiers/service.js';

const s = initServer();
const done = (message: string) => ({ status: 200 as const, body: { result: 'success' as const, message } });

export const loyaltyRoutes = (deps: Deps) => {
  const ctx = (req: Express.Request) => ctxOf(req, deps);
  return s.router(contract.loyalty, {
    program: {
      getProgram: async ({ req }) => ({
        status: 200,
        body: { result: 'success', data: await program.getProgram(ctx(req)) },
      }),
      createProgram: async ({ body, req }) => ({
        status: 201,
        body: { result: 'success', data: await program.createProgram(ctx(req), body) },
      }),
      updateProgram: async ({ body, req }) => {
        await program.updateProgram(ctx(req), body);
        return done('Program updated');
      },
      deleteProgram: async ({ req }) => {
        await program.deleteProgram(ctx(req));
        return done('Program deactivated and its tiers removed');
      },
    },
    tiers: {
      listTiers: async ({ req }) => ({
        status: 200,
        body: { result: 'success', data: await tiers.listTiers(ctx(req)) },
      }),
      createTier: async ({ body, req }) => ({
        status: 201,
        body: { result: 'success', message: 'Tier created', data: await tiers.createTier(ctx(req), body) },
      }),
      updateTier: async ({ params, body, req }) => {
        await tiers.updateTier(ctx(req), params.publicId, body);
        return done('Tier updated');
      },
      deleteTier: async ({ params, req }) => {
        await tiers.deleteTier(ctx(req), params.publicId);
        return done('Tier deleted');
      },
    },
    members: {
      listMembers: async ({ query, req }) => ({
        status: 200,
        body: { result: 'success', ...(await members.listMembers(ctx(req), query)) },
      }),
      getMember: async ({ params, req }) => ({
        status: 200,
        body: { result: 'success', data: await members.getMember(ctx(req), params.publicId) },
      }),
      enrollMember: async ({ body, req }) => ({
        status: 201,
        body: { result: 'success', data: await members.enrollMember(ctx(req), body) },
      }),
      bulkEnrollMembers: async ({ body, req }) => ({
        status: 200,
        body: { result: 'success', data: await members.bulkEnroll(ctx(req), body) },
      }),
      updateMember: async ({ params, body, req }) => {
        await members.updateMember(ctx(req), params.publicId, body);
        return done('Member updated');
      },
      deleteMember: async ({ params, req }) => {
        await members.deleteMember(ctx(req), params.publicId);
        return done('Member deleted');
      },
      listMemberTransactions: async ({ params, query, req }) => ({
        status: 200,
        body: { result: 'success', ...(await members.listTransactions(ctx(req), query, params.publicId)) },
      }),
    },
    transactions: {
      listTransactions: async ({ query, req }) => ({
        status: 200,
        body: { result: 'success', ...(await members.listTransactions(ctx(req), query)) },
      }),
      adjustPoints: async ({ body, req }) => ({
        status: 201,
        body: { result: 'success', data: await members.adjustPoints(ctx(req), body) },
      }),
    },
    rewards: {
      listRewards: async ({ query, req }) => ({
        status: 200,
        body: { result: 'success', data: await rewards.listRewards(ctx(req), query.isActive) },
      }),
      listRewardsAlias: async ({ query, req }) => ({
        status: 200,
        body: { result: 'success', data: await rewards.listRewards(ctx(req), query.isActive) },
      }),
      createReward: async ({ body, req }) => ({
        status: 201,
        body: {
          result: 'success',
          message: 'Reward created',
          data: await rewards.createReward(ctx(req), body),
        },
      }),
      updateReward: async ({ params, body, req }) => {
        await rewards.updateReward(ctx(req), params.publicId, body);
        return done('Reward updated');
      },
      deleteReward: async ({ params, req }) => {
        await rewards.deleteReward(ctx(req), params.publicId);
        return done('Reward deleted');
      },
    },
    redemptions: {
      listRedemptions: async ({ query, req }) => ({
        status: 200,
        body: { result: 'success', ...(await redemptions.listRedemptions(ctx(req), query)) },
      }),
      createRedemption: async ({ body, req }) => ({
        status: 201,
        body: { result: 'success', data: await redemptions.createRedemption(ctx(req), body) },
      }),
      updateRedemption: async ({ params, body, req }) => {
        await redemptions.updateRedemption(ctx(req), params.publicId, body);
        return done('Redemption updated');
      },
      verifyVoucher: async ({ params, req }) => ({
        status: 200,
        body: { result: 'success', data: await redemptions.verifyVoucher(ctx(req), params.code) },
      }),
    },
    stats: {
      getStats: async ({ req }) => ({
        status: 200,
        body: { result: 'success', data: await getStats(ctx(req)) },
      }),
      getStatsAlias: async ({ req }) => ({
        status: 200,
        body: { result: 'success', data: await getStats(ctx(req)) },
      }),
    },
    reminders: {
      listReminders: async ({ query, req }) => ({
        status: 200,
        body: { result: 'success', data: await reminders.listReminders(ctx(req), query.isActive) },
      }),
      createReminder: async ({ body, req }) => ({
        status: 201,
        body: {
          result: 'success',
          message: 'Reminder created',
          data: await reminders.createReminder(ctx(req), body),
        },
      }),
      updateReminder: async ({ params, body, req }) => {
        await reminders.updateReminder(ctx(req), params.publicId, body);
        return done('Reminder updated');
      },
      deleteReminder: async ({ params, req }) => {
        await reminders.deleteReminder(ctx(req), params.publicId);
        return done('Reminder deleted');
      },
      completeReminder: async ({ params, body, req }) => ({
        status: 200,
        body: {
          result: 'success',
          data: await reminders.completeReminder(ctx(req), params.publicId, body.memberId),
        },
      }),
    },
  });
};
