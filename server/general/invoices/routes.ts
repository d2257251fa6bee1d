import { initServer } from '@ts-rest/express';
import { contract } from '../../../contract/index.js';
import { ctxOf, type Deps } from '../../platform/deps.js';
import * as invoices from './service.js';

const s = initServer();

export const invoicesRoutes = (deps: Deps) =>
  s.router(contract.general.invoices, {
    listInvoices: async ({ query, req }) => ({
      status: 200,
      body: await invoices.listInvoices(ctxOf(req, deps), query),
    }),
    createInvoice: async ({ body, req }) => ({
      status: 201,
      body: { data: await invoices.createInvoice(ctxOf(req, deps), body) },
    }),
    getInvoice: async ({ params, req }) => ({
      status: 200,
      body: { data: await invoices.getInvoice(ctxOf(req, deps), params.id) },
    }),
    updateInvoice: async ({ params, body, req }) => ({
      status: 200,
      body: { data: await invoices.updateInvoice(ctxOf(req, deps), params.id, body) },
    }),
    deleteInvoice: async ({ params, req }) => ({
      status: 200,
      body: { data: await invoices.deleteInvoice(ctxOf(req, deps), params.id) },
    }),
    issueInvoice: async ({ params, req }) => ({
      status: 200,
      body: { data: await invoices.issueInvoice(ctxOf(req, deps), params.id) },
    }),
    createPayment: async ({ params, body, req }) => ({
      status: 201,
      body: { data: await invoices.recordPayment(ctxOf(req, deps), params.id, body) },
    }),
    voidInvoice: async ({ params, req }) => ({
      status: 200,
      body: { data: await invoices.voidInvoice(ctxOf(req, deps), params.id) },
    }),
  });
