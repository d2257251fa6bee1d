import { contract } from '../../client/index.js';
import { createApiKey } from '../support/auth.js';
import { registerBusiness } from '../support/business.js';
import { describeRouteSecurity } from '../support/security.js';
import { useTestServer } from '../support/setup.js';

const server = useTestServer({ worker: false });

const { auth } = contract;

describeRouteSecurity({
  server,
  tenant: registerBusiness,
  router: auth,
  routes: (route) => [
    // Signs out the very token it is sent with (the accepted check signs in afresh).
    route(auth.logout, async () => ({})),
    route(auth.getSession, async () => ({})),
    route(auth.switchEnvironment, async () => ({ body: { environment: 'sandbox' as const } })),
    route(auth.createApiKey, async () => ({ body: { name: 'Backend', scope: 'full' as const } })),
    route(auth.listApiKeys, async () => ({})),
    route(auth.revokeApiKey, async (t) => ({ params: { id: (await createApiKey(t.client, 'full')).id } })),
    route(auth.getBusiness, async () => ({})),
    route(auth.updateBusiness, async () => ({
      body: { timezone: 'Pacific/Auckland', base_currency: 'NZD' },
    })),
  ],
});
