import { initServer } from '@ts-rest/express';
import { contract } from '../../contract/index.js';
import { ctxOf, type Deps } from '../platform/deps.js';
import * as messages from './service.js';

const s = initServer();

export const sandboxRoutes = (deps: Deps) =>
  s.router(contract.sandbox, {
    messages: {
      listMessages: async ({ query, req }) => ({
        status: 200,
        body: { result: 'success', ...(await messages.listMessages(ctxOf(req, deps), query)) },
      }),
    },
  });
