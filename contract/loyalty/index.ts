import { initContract } from '@ts-rest/core';
import { membersContract } from './members.js';
import { programContract } from './program.js';
import { redemptionsContract } from './redemptions.js';
import { remindersContract } from './reminders.js';
import { rewardsContract } from './rewards.js';
import { statsContract } from './stats.js';
import { tiersContract } from './tiers.js';
import { transactionsContract } from './transactions.js';

const c = initContract();

/**
 * The loyalty domain: one router per resource.
 * Typed by the resources' routers, so that declaration files name them rather than spell every
 * route out again.
 */
export const loyaltyContract: {
  program: typeof programContract;
  tiers: typeof tiersContract;
  members: typeof membersContract;
  transactions: typeof transactionsContract;
  rewards: typeof rewardsContract;
  redemptions: typeof redemptionsContract;
  stats: typeof statsContract;
  reminders: typeof remindersContract;
} = c.router({
  program: programContract,
  tiers: tiersContract,
  members: membersContract,
  transactions: transactionsContract,
  rewards: rewardsContract,
  redemptions: redemptionsContract,
  stats: statsContract,
  reminders: remindersContract,
});

export * from './members.js';
export * from './program.js';
export * from './redemptions.js';
export * from './reminders.js';
export * from './rewards.js';
export * from './stats.js';
export * from './tiers.js';
export * from './transactions.js';
