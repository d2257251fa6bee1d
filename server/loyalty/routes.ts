import { initServer } from '@ts-rest/express';
import { contract } from '../../contract/index.js';
import { created, ok, success } from '../platform/answers.js';
import { ctxFor, type Deps } from '../platform/deps.js';
import * as members from './members/service.js';
import * as program from './program/service.js';
import * as redemptions from './redemptions/service.js';
import * as reminders from './reminders/service.js';
import * as rewards from './rewards/service.js';
import { getStats } from './stats/service.js';
import * as tiers from './tiers/service.js';

const s = initServer();

export const loyaltyRoutes = (deps: Deps) => {
  const ctx = ctxFor(deps);
  return s.router(contract.loyalty, {
    program: {
      getProgram: async ({ req }) => ok(success({ data: await program.getProgram(ctx(req)) })),
      createProgram: async ({ body, req }) =>
        created(success({ data: await program.createProgram(ctx(req), body) })),
      updateProgram: async ({ body, req }) => {
        await program.updateProgram(ctx(req), body);
        return ok(success({ message: 'Program updated' }));
      },
      deleteProgram: async ({ req }) => {
        await program.deleteProgram(ctx(req));
        return ok(success({ message: 'Program deactivated and its tiers removed' }));
      },
    },
    tiers: {
      listTiers: async ({ req }) => ok(success({ data: await tiers.listTiers(ctx(req)) })),
      createTier: async ({ body, req }) =>
        created(success({ message: 'Tier created', data: await tiers.createTier(ctx(req), body) })),
      updateTier: async ({ params, body, req }) => {
        await tiers.updateTier(ctx(req), params.publicId, body);
        return ok(success({ message: 'Tier updated' }));
      },
      deleteTier: async ({ params, req }) => {
        await tiers.deleteTier(ctx(req), params.publicId);
        return ok(success({ message: 'Tier deleted' }));
      },
    },
    members: {
      listMembers: async ({ query, req }) => ok(success(await members.listMembers(ctx(req), query))),
      getMember: async ({ params, req }) =>
        ok(success({ data: await members.getMember(ctx(req), params.publicId) })),
      enrollMember: async ({ body, req }) =>
        created(success({ data: await members.enrollMember(ctx(req), body) })),
      bulkEnrollMembers: async ({ body, req }) =>
        ok(success({ data: await members.bulkEnroll(ctx(req), body) })),
      updateMember: async ({ params, body, req }) => {
        await members.updateMember(ctx(req), params.publicId, body);
        return ok(success({ message: 'Member updated' }));
      },
      deleteMember: async ({ params, req }) => {
        await members.deleteMember(ctx(req), params.publicId);
        return ok(success({ message: 'Member deleted' }));
      },
      listMemberTransactions: async ({ params, query, req }) =>
        ok(success(await members.listTransactions(ctx(req), query, params.publicId))),
    },
    transactions: {
      listTransactions: async ({ query, req }) =>
        ok(success(await members.listTransactions(ctx(req), query))),
      adjustPoints: async ({ body, req }) =>
        created(success({ data: await members.adjustPoints(ctx(req), body) })),
    },
    rewards: {
      listRewards: async ({ query, req }) =>
        ok(success({ data: await rewards.listRewards(ctx(req), query.isActive) })),
      listRewardsAlias: async ({ query, req }) =>
        ok(success({ data: await rewards.listRewards(ctx(req), query.isActive) })),
      createReward: async ({ body, req }) =>
        created(success({ message: 'Reward created', data: await rewards.createReward(ctx(req), body) })),
      updateReward: async ({ params, body, req }) => {
        await rewards.updateReward(ctx(req), params.publicId, body);
        return ok(success({ message: 'Reward updated' }));
      },
      deleteReward: async ({ params, req }) => {
        await rewards.deleteReward(ctx(req), params.publicId);
        return ok(success({ message: 'Reward deleted' }));
      },
    },
    redemptions: {
      listRedemptions: async ({ query, req }) =>
        ok(success(await redemptions.listRedemptions(ctx(req), query))),
      createRedemption: async ({ body, req }) =>
        created(success({ data: await redemptions.createRedemption(ctx(req), body) })),
      updateRedemption: async ({ params, body, req }) => {
        await redemptions.updateRedemption(ctx(req), params.publicId, body);
        return ok(success({ message: 'Redemption updated' }));
      },
      verifyVoucher: async ({ params, req }) =>
        ok(success({ data: await redemptions.verifyVoucher(ctx(req), params.code) })),
    },
    stats: {
      getStats: async ({ req }) => ok(success({ data: await getStats(ctx(req)) })),
      getStatsAlias: async ({ req }) => ok(success({ data: await getStats(ctx(req)) })),
    },
    reminders: {
      listReminders: async ({ query, req }) =>
        ok(success({ data: await reminders.listReminders(ctx(req), query.isActive) })),
      createReminder: async ({ body, req }) =>
        created(
          success({ message: 'Reminder created', data: await reminders.createReminder(ctx(req), body) }),
        ),
      updateReminder: async ({ params, body, req }) => {
        await reminders.updateReminder(ctx(req), params.publicId, body);
        return ok(success({ message: 'Reminder updated' }));
      },
      deleteReminder: async ({ params, req }) => {
        await reminders.deleteReminder(ctx(req), params.publicId);
        return ok(success({ message: 'Reminder deleted' }));
      },
      completeReminder: async ({ params, body, req }) =>
        ok(success({ data: await reminders.completeReminder(ctx(req), params.publicId, body.memberId) })),
    },
  });
};
