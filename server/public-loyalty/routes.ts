import { initServer } from '@ts-rest/express';
import { contract } from '../../contract/index.js';
import { ctxOf, type Deps } from '../platform/deps.js';
import * as service from './service.js';

const s = initServer();

export const publicLoyaltyRoutes = (deps: Deps) => {
  const ctx = (req: Express.Request) => ctxOf(req, deps);
  return s.router(contract.publicLoyalty, {
    publicGetBalance: async ({ query, req }) => ({
      status: 200,
      body: { result: 'success', data: await service.getBalance(ctx(req), query.email) },
    }),
    publicEarn: async ({ body, req }) => ({
      status: 200,
      body: { result: 'success', data: await service.earn(ctx(req), body) },
    }),
    publicRedeem: async ({ body, req }) => ({
      status: 201,
      body: { result: 'success', data: await service.redeem(ctx(req), body) },
    }),
    publicListRewards: async ({ req }) => ({
      status: 200,
      body: { result: 'success', data: await service.listRewards(ctx(req)) },
    }),
    publicVerifyVoucher: async ({ params, req }) => ({
      status: 200,
      body: { result: 'success', data: await service.verifyVoucher(ctx(req), params.code) },
    }),
  });
};
