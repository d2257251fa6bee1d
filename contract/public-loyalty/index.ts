import { initContract } from '@ts-rest/core';
import { pointsContract } from './points.js';
import { rewardsContract } from './rewards.js';

const c = initContract();

/**
 * The interface point-of-sale and e-commerce systems call, with an `X-Api-Key`. Its routes sit
 * directly under `publicLoyalty` (`client.publicLoyalty.publicEarn`).
 */
export const publicLoyaltyContract = c.router({ ...pointsContract, ...rewardsContract });

export * from './points.js';
export * from './rewards.js';
