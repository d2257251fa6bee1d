import { initServer } from '@ts-rest/express';
import { contract } from '../../contract/index.js';
import { ok, success } from '../platform/answers.js';
import { ctxFor, type Deps } from '../platform/deps.js';
import { advanceClock, dueRules, getClock } from './clock/service.js';
import * as messages from './messages/service.js';
import { resetSandbox } from './reset/service.js';

const s = initServer();

export const sandboxRoutes = (deps: Deps) => {
  const ctx = ctxFor(deps);
  /** The clock and reset work on real time: they read and move the sandbox's offset themselves. */
  const realTime = (req: Express.Request) => ({ ...ctx(req), clock: deps.clock });
  const rules = dueRules(deps.modules.flatMap((m) => m.due ?? []));
  return s.router(contract.sandbox, {
    messages: {
      listMessages: async ({ query, req }) =>
        ok(success(await messages.listMessages(ctx(req), query, req.auth?.role))),
    },
    clock: {
      getClock: async ({ req }) => ok(success({ data: await getClock(realTime(req)) })),
      advanceClock: async ({ body, req }) =>
        ok(success({ data: await advanceClock(realTime(req), body, rules) })),
    },
    reset: {
      resetSandbox: async ({ body, req }) =>
        ok(success({ data: await resetSandbox(realTime(req), body, deps.modules) })),
    },
  });
};
