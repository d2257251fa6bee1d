import { initServer } from '@ts-rest/express';
import { contract } from '../../contract/index.js';
import { created, ok, success } from '../platform/answers.js';
import { actorOf } from '../platform/audit.js';
import { ctxFor, type Deps } from '../platform/deps.js';
import * as service from './service.js';

const s = initServer();

export const publicLoyaltyRoutes = (deps: Deps) => {
  const ctx = ctxFor(deps);
  return s.router(contract.publicLoyalty, {
    publicGetBalance: async ({ query, req }) =>
      ok(success({ data: await service.getBalance(ctx(req), query.email) })),
    publicEarn: async ({ body, req }) => {
      // The key this earn runs as, when the auth middleware left its confirmation to the earn.
      const confirm = req.auth === req.credentials.apiKey ? req.credentials.confirmApiKey : undefined;
      return ok(success({ data: await service.earn(ctx(req), body, actorOf(req.auth!), confirm) }));
    },
    publicRedeem: async ({ body, req }) => created(success({ data: await service.redeem(ctx(req), body) })),
    publicListRewards: async ({ req }) => ok(success({ data: await service.listRewards(ctx(req)) })),
    publicVerifyVoucher: async ({ params, req }) =>
      ok(success({ data: await service.verifyVoucher(ctx(req), params.code) })),
  });
};
