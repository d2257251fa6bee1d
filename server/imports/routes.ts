import { initServer } from '@ts-rest/express';
import { contract } from '../../contract/index.js';
import type { ImportKind, ImportQuery } from '../../contract/imports/index.js';
import { ok } from '../platform/answers.js';
import { actorOf } from '../platform/audit.js';
import { ctxFor, type Deps } from '../platform/deps.js';
import type { ImportTarget } from '../platform/import-target.js';
import { runImport } from './run.js';

const s = initServer();

/** Each kind's operation in the contract: the name of its audit rows. */
const OPERATIONS: Record<ImportKind, keyof typeof contract.imports> = {
  customers: 'importCustomers',
  products: 'importProducts',
  vendors: 'importVendors',
  employees: 'importEmployees',
  exchange_rates: 'importExchangeRates',
  holidays: 'importHolidays',
};

export const importRoutes = (deps: Deps) => {
  const ctx = ctxFor(deps);
  const targets = new Map<ImportKind, ImportTarget>(
    deps.modules.flatMap((module) => module.imports ?? []).map((target) => [target.kind, target]),
  );
  // The file is read by the platform's body reader (bytes in `req.body.file`), not by ts-rest.
  const run = async (kind: ImportKind, req: Express.Request, body: unknown, query: ImportQuery) => {
    const target = targets.get(kind);
    if (!target) throw new Error(`No module imports ${kind}`);
    const { file } = body as { file?: unknown };
    const audit = { actor: actorOf(req.auth!), operation: OPERATIONS[kind] };
    return ok({ result: 'success' as const, data: await runImport(ctx(req), target, file, query, audit) });
  };
  return s.router(contract.imports, {
    importCustomers: async ({ query, req }) => run('customers', req, req.body, query),
    importProducts: async ({ query, req }) => run('products', req, req.body, query),
    importVendors: async ({ query, req }) => run('vendors', req, req.body, query),
    importEmployees: async ({ query, req }) => run('employees', req, req.body, query),
    importExchangeRates: async ({ query, req }) => run('exchange_rates', req, req.body, query),
    importHolidays: async ({ query, req }) => run('holidays', req, req.body, query),
  });
};
