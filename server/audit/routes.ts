import { initServer } from '@ts-rest/express';
import { contract } from '../../contract/index.js';
import { ok, success } from '../platform/answers.js';
import { listAuditLog } from '../platform/audit.js';
import { ctxFor, type Deps } from '../platform/deps.js';

const s = initServer();

export const auditRoutes = (deps: Deps) => {
  const ctx = ctxFor(deps);
  return s.router(contract.auditLog, {
    listAuditLog: async ({ query, req }) => ok(success(await listAuditLog(ctx(req), query))),
  });
};
