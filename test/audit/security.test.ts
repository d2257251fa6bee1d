import { expect } from 'vitest';
import { contract } from '../../client/index.js';
import { registerBusiness } from '../support/business.js';
import { createCustomer } from '../support/general.js';
import { describeRouteSecurity, type Answer } from '../support/security.js';
import { useTestServer } from '../support/setup.js';

const server = useTestServer({ worker: false });

/** Another business's log filtered by this business's resource: answered, and empty. */
const emptyLog = (answer: Answer): void => {
  expect(answer.status).toBe(200);
  expect(answer.body).toEqual({ result: 'success', entries: [], total_count: 0 });
};

describeRouteSecurity({
  server,
  tenant: registerBusiness,
  router: contract.auditLog,
  routes: (route) => [
    route(
      contract.auditLog.listAuditLog,
      async (t) => ({ query: { resource_id: (await createCustomer(t.client)).id } }),
      { otherBusiness: emptyLog },
    ),
  ],
});
