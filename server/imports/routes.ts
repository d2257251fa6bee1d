import { initServer } from '@ts-rest/express';
import { contract } from '../../contract/index.js';
import type { ImportKind, ImportQuery } from '../../contract/imports/index.js';
import { ok } from '../platform/answers.js';
import { ctxFor, type Deps } from '../platform/deps.js';
import { runImport, type ImportTarget } from '../platform/imports.js';

const s = initServer();

export const importRoutes = (deps: Deps) => {
  const ctx = ctxFor(deps);
  const targets = new Map<ImportKind, ImportTarget>(
    deps.modules.flatMap((module) => module.imports ?? []).map((target) => [target.kind, target]),
  );
  const run = async (kind: ImportKind, req: Express.Request, file: unknown, query: ImportQuery) => {
    const target = targets.get(kind);
    if (!target) throw new Error(`No module imports ${kind}`);
    return ok({ result: 'success' as const, data: await runImport(ctx(req), target, file, query) });
  };
  return s.router(contract.imports, {
    importCustomers: async ({ body, query, req }) => run('customers', req, body.file, query),
    importProducts: async ({ body, query, req }) => run('products', req, body.file, query),
    importVendors: async ({ body, query, req }) => run('vendors', req, body.file, query),
    importEmployees: async ({ body, query, req }) => run('employees', req, body.file, query),
  });
};
