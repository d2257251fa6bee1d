import { initServer } from '@ts-rest/express';
import { contract } from '../../contract/index.js';
import { ok, success } from '../platform/answers.js';
import { ctxFor, type Deps } from '../platform/deps.js';
import * as messages from './service.js';

const s = initServer();

export const sandboxRoutes = (deps: Deps) => {
  const ctx = ctxFor(deps);
  return s.router(contract.sandbox, {
    messages: {
      listMessages: async ({ query, req }) => ok(success(await messages.listMessages(ctx(req), query))),
    },
  });
};
