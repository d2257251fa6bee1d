import { initServer } from '@ts-rest/express';
import { contract } from '../../../contract/index.js';
import { ctxOf, type Deps } from '../../platform/deps.js';
import * as quotes from './service.js';

const s = initServer();

export const quotesRoutes = (deps: Deps) => {
  const ctx = (req: Express.Request) => ctxOf(req, deps);
  return s.router(contract.general.quotes, {
    listQuotes: async ({ query, req }) => ({ status: 200, body: await quotes.listQuotes(ctx(req), query) }),
    createQuote: async ({ body, req }) => ({
      status: 201,
      body: { data: await quotes.createQuote(ctx(req), body) },
    }),
    getQuote: async ({ params, req }) => ({
      status: 200,
      body: { data: await quotes.getQuote(ctx(req), params.id) },
    }),
    updateQuote: async ({ params, body, req }) => ({
      status: 200,
      body: { data: await quotes.updateQuote(ctx(req), params.id, body) },
    }),
    deleteQuote: async ({ params, req }) => ({
      status: 200,
      body: { data: await quotes.deleteQuote(ctx(req), params.id) },
    }),
    sendQuote: async ({ params, req }) => ({
      status: 200,
      body: { data: await quotes.sendQuote(ctx(req), params.id) },
    }),
    acceptQuote: async ({ params, req }) => ({
      status: 200,
      body: { data: await quotes.acceptQuote(ctx(req), params.id) },
    }),
    declineQuote: async ({ params, req }) => ({
      status: 200,
      body: { data: await quotes.declineQuote(ctx(req), params.id) },
    }),
    convertQuote: async ({ params, req }) => ({
      status: 201,
      body: { data: await quotes.convertQuote(ctx(req), params.id) },
    }),
  });
};
