import { describe, expect, it } from 'vitest';
import { contract, createClient, unwrap } from '../../client/index.js';
import { recordMail } from '../../server/platform/mail.js';
import { createApiKey } from '../support/auth.js';
import { registerBusiness, sandboxOf, type TestBusiness } from '../support/business.js';
import { expectResultError } from '../support/expect.js';
import { describeRouteSecurity, expectNothingChanged, type Answer } from '../support/security.js';
import { useTestServer } from '../support/setup.js';

// No SMTP_URL: every business's mail is captured, so the messages route answers live credentials too.
const server = useTestServer({ worker: false });

const { sandbox } = contract;

const DAY = 86_400_000;

/** The business the last request was built about; its mail goes to an address of its own. */
let about = '';
const addressOf = (businessId: string) => `${businessId.toLowerCase()}@example.test`;

/** A captured message of the business, as the mail transport leaves one. */
async function capturedMail(business: TestBusiness): Promise<void> {
  about = business.businessId;
  await recordMail(
    server().deps.db,
    { businessId: business.businessId, clock: server().deps.clock },
    { to: addressOf(business.businessId), subject: 'Your invoice', text: 'Hello Ada' },
  );
}

/** What another business (or the business's twin) lists: its own mail, none of this business's. */
const noneOfItsMail = (answer: Answer): void => {
  expect(answer.status).toBe(200);
  expect(answer.body).toMatchObject({ result: 'success', messages: expect.any(Array) });
  const { messages } = answer.body as { messages: { to: string }[] };
  expect(messages.map((m) => m.to)).not.toContain(addressOf(about));
};

/** A day past the sandbox's current time. */
async function aDayLater(business: TestBusiness): Promise<string> {
  const { data } = await unwrap(business.client.sandbox.clock.getClock());
  return new Date(Date.parse(data.now) + DAY).toISOString();
}

describeRouteSecurity({
  server,
  // The clock and reset answer sandbox credentials only: each route's business is a sandbox.
  environment: 'sandbox',
  tenant: registerBusiness,
  router: sandbox,
  routes: (route) => [
    // Mail is its business's: neither another business nor the live twin lists the sandbox's, and
    // the sandbox does not list the live business's.
    route(
      sandbox.messages.listMessages,
      async (t) => {
        await capturedMail(t);
        return { query: {} };
      },
      { otherBusiness: noneOfItsMail },
    ),
    route(sandbox.clock.getClock, async () => ({})),
    route(sandbox.clock.advanceClock, async (t) => ({ body: { advance_to: await aDayLater(t) } })),
    route(sandbox.reset.resetSandbox, async () => ({ body: { seed: false } })),
  ],
});

describe('the live credentials of a sandbox on its clock and reset', () => {
  it('answer 403 FORBIDDEN (access token and full key); nothing changes in the live business or its sandbox', async () => {
    const live = await registerBusiness(server());
    const twin = await sandboxOf(server(), live);
    await capturedMail(twin);
    const liveKey = (await createApiKey(live.client, 'full')).key;
    const advanceTo = await aDayLater(twin);
    await expectNothingChanged(server(), [live.businessId, twin.businessId], async () => {
      for (const credential of [{ accessToken: live.accessToken }, { apiKey: liveKey }]) {
        const client = createClient({ baseUrl: server().baseUrl, maxRetries: 0, ...credential });
        expectResultError(await client.sandbox.clock.getClock(), 403, 'FORBIDDEN');
        expectResultError(
          await client.sandbox.clock.advanceClock({ body: { advance_to: advanceTo } }),
          403,
          'FORBIDDEN',
        );
        expectResultError(
          await client.sandbox.reset.resetSandbox({ body: { seed: false } }),
          403,
          'FORBIDDEN',
        );
      }
    });
  });
});
