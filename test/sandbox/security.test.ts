import { contract } from '../../client/index.js';
import { registerBusiness } from '../support/business.js';
import { describeRouteSecurity } from '../support/security.js';
import { useTestServer } from '../support/setup.js';

const server = useTestServer({ worker: false });

const { sandbox } = contract;

describeRouteSecurity({
  server,
  tenant: registerBusiness,
  router: sandbox,
  routes: (route) => [route(sandbox.messages.listMessages, async () => ({ query: {} }))],
});
