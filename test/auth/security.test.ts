import { contract } from '../../client/index.js';
import { unwrap } from '../../client/index.js';
import { createApiKey } from '../support/auth.js';
import { registerBusiness, signInTo, type TestBusiness } from '../support/business.js';
import { enableTwoFactor, totpCode } from '../support/two-factor.js';
import { describeRouteSecurity } from '../support/security.js';
import { useTestServer } from '../support/setup.js';

// PAYMENTS_TEST_PROVIDER: a live business may connect the test provider (PUT /v1/business/payments).
const server = useTestServer({ worker: false, env: { PAYMENTS_TEST_PROVIDER: 'true' } });

const { auth } = contract;

/** Each person's unused recovery codes: two-factor sign-in turned on at the first request. */
const recoveryCodes = new Map<string, string[]>();

async function recoveryCode(t: TestBusiness): Promise<string> {
  const key = t.email;
  let codes = recoveryCodes.get(key);
  if (!codes || codes.length === 0) {
    codes = (await enableTwoFactor(server(), t.client)).recoveryCodes;
    recoveryCodes.set(key, codes);
  }
  return codes.shift()!;
}

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
    route(auth.getTwoFactor, async () => ({})),
    route(auth.startTwoFactorEnrolment, async (t) => ({ body: { password: t.password } })),
    route(auth.confirmTwoFactor, async (t) => {
      const body = { password: t.password };
      const { secret } = (await unwrap(t.client.auth.startTwoFactorEnrolment({ body }))).data;
      return { body: { ...body, code: await totpCode(server(), secret) } };
    }),
    route(auth.disableTwoFactor, async (t) => ({
      body: { password: t.password, code: await recoveryCode(t) },
    })),
    route(auth.regenerateRecoveryCodes, async (t) => ({ body: { code: await recoveryCode(t) } })),
    route(auth.listSessions, async () => ({})),
    route(
      auth.revokeSession,
      async (t) => {
        await signInTo(server(), t, t.environment);
        const sessions = (await unwrap(t.client.auth.listSessions())).data;
        const other = sessions.find((s) => !s.current);
        if (!other) throw new Error('no other session to revoke');
        return { params: { id: other.id } };
      },
      // A person's sessions are theirs in both environments: their sandbox token may end a live one.
      { personal: true },
    ),
    // Revokes every other token of the person; the checks present the tenant's own.
    route(auth.revokeOtherSessions, async () => ({})),
    // Last for its tenant: the password changes and every other token ends.
    route(auth.changePassword, async (t) => ({
      body: { currentPassword: t.password, newPassword: `${t.password} and more` },
    })),
    route(auth.getBusiness, async () => ({})),
    route(auth.updateBusiness, async () => ({
      body: { timezone: 'Pacific/Auckland', base_currency: 'NZD' },
    })),
    route(auth.getPaymentSettings, async () => ({})),
    route(auth.updatePaymentSettings, async () => ({ body: { provider: 'test' as const } })),
    route(auth.checkPaymentSettings, async (t) => {
      await unwrap(t.client.auth.updatePaymentSettings({ body: { provider: 'test' } }));
      return {};
    }),
  ],
});
