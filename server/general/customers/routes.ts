import { initServer } from '@ts-rest/express';
import { contract } from '../../../contract/index.js';
import { ctxOf, type Deps } from '../../platform/deps.js';
import * as customers from './service.js';

const s = initServer();

export const customersRoutes = (deps: Deps) =>
  s.router(contract.general.customers, {
    listCustomers: async ({ query, req }) => ({
      status: 200,
      body: await customers.listCustomers(ctxOf(req, deps), query),
    }),
    createCustomer: async ({ body, req }) => ({
      status: 201,
      body: { data: await customers.createCustomer(ctxOf(req, deps), body) },
    }),
    getCustomer: async ({ params, req }) => ({
      status: 200,
      body: { data: await customers.getCustomer(ctxOf(req, deps), params.id) },
    }),
    updateCustomer: async ({ params, body, req }) => ({
      status: 200,
      body: { data: await customers.updateCustomer(ctxOf(req, deps), params.id, body) },
    }),
    deleteCustomer: async ({ params, req }) => ({
      status: 200,
      body: { data: await customers.deleteCustomer(ctxOf(req, deps), params.id) },
    }),
  });
