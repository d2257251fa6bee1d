import { initServer } from '@ts-rest/express';
import { contract } from '../../../contract/index.js';
import { ctxOf, type Deps } from '../../platform/deps.js';
import * as products from './service.js';

const s = initServer();

export const productsRoutes = (deps: Deps) =>
  s.router(contract.general.products, {
    listProducts: async ({ query, req }) => ({
      status: 200,
      body: await products.listProducts(ctxOf(req, deps), query),
    }),
    createProduct: async ({ body, req }) => ({
      status: 201,
      body: { data: await products.createProduct(ctxOf(req, deps), body) },
    }),
    getProduct: async ({ params, req }) => ({
      status: 200,
      body: { data: await products.getProduct(ctxOf(req, deps), params.id) },
    }),
    updateProduct: async ({ params, body, req }) => ({
      status: 200,
      body: { data: await products.updateProduct(ctxOf(req, deps), params.id, body) },
    }),
    deleteProduct: async ({ params, req }) => ({
      status: 200,
      body: { data: await products.deleteProduct(ctxOf(req, deps), params.id) },
    }),
  });
