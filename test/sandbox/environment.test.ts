import { describe, expect, it } from 'vitest';
import { createClient, unwrap, type Client, sessionOf } from '../../client/index.js';
import { createApiKey, getBusiness, updateBusiness } from '../support/auth.js';
import { raw, registerBusiness, sandboxOf, uniqueEmail, type TestBusiness } from '../support/business.js';
import { expectResultError } from '../support/expect.js';
import { createCustomer } from '../support/general.js';
import {
  campaignReaches,
  createCampaign,
  createSegment,
  createTemplate,
  MARKETING_ENV,
} from '../support/marketing.js';
import { useReceivers } from '../support/receiver.js';
import { useTestServer } from '../support/setup.js';
import { useSmtpSink } from '../support/smtp.js';
import { waitFor } from '../support/wait.js';
import { createWebhook } from '../support/webhooks.js';

// SMTP_URL set: live mail really goes to the sink, a sandbox's never does.
const { env, sink } = useSmtpSink({
  ...MARKETING_ENV,
  MARKETING_POLL_MS: '40',
  MAIL_RATE_PER_SECOND: '0',
  WEBHOOK_ALLOW_PRIVATE: 'true',
});
const server = useTestServer({ env });
const startReceiver = useReceivers<{ event: string; livemode: boolean; data: { name?: string } }>();

const anonymous = () => createClient({ baseUrl: server().baseUrl, maxRetries: 0 });
const clientOf = (options: { accessToken?: string; apiKey?: string; environment?: 'live' | 'sandbox' }) =>
  createClient({ baseUrl: server().baseUrl, maxRetries: 0, ...options });

const messagesOf = async (client: Client) =>
  (await unwrap(client.sandbox.messages.listMessages({ query: { limit: 200 } }))).messages;

describe('signing in to the sandbox', () => {
  it('answers a token of a business of its own, the same twin at every sandbox sign-in, and says which environment', async () => {
    const live = await registerBusiness(server());
    const first = {
      data: sessionOf(
        (
          await unwrap(
            anonymous().auth.signIn({
              body: { email: live.email, password: live.password, environment: 'sandbox' },
            }),
          )
        ).data,
      ),
    };
    expect(first.data).toMatchObject({ environment: 'sandbox', tokenType: 'Bearer' });
    expect(first.data.businessId).toMatch(/^biz_/);
    expect(first.data.businessId).not.toBe(live.businessId);
    const again = await sandboxOf(server(), live);
    expect(again.businessId).toBe(first.data.businessId);
    const liveSignIn = await unwrap(
      anonymous().auth.signIn({ body: { email: live.email, password: live.password } }),
    );
    expect(liveSignIn.data).toMatchObject({ businessId: live.businessId, environment: 'live' });
  });

  it('makes one twin when first sandbox sign-ins race', async () => {
    const live = await registerBusiness(server());
    const twins = await Promise.all(Array.from({ length: 6 }, () => sandboxOf(server(), live)));
    expect(new Set(twins.map((t) => t.businessId)).size).toBe(1);
    const rows = await server()
      .deps.db.selectFrom('businesses')
      .select(['id', 'environment', 'live_business_id'])
      .where('live_business_id', '=', live.businessId)
      .execute();
    expect(rows).toEqual([
      { id: twins[0]!.businessId, environment: 'sandbox', live_business_id: live.businessId },
    ]);
  });

  it('starts the twin with the live business settings, then keeps them apart', async () => {
    const live = await registerBusiness(server(), 'Settings Ltd');
    await updateBusiness(live.client, { base_currency: 'EUR', timezone: 'Europe/Berlin', country: 'DE' });
    const sandbox = await sandboxOf(server(), live);
    expect(await getBusiness(sandbox.client)).toMatchObject({
      id: sandbox.businessId,
      name: 'Settings Ltd',
      base_currency: 'EUR',
      timezone: 'Europe/Berlin',
      country: 'DE',
    });
    await updateBusiness(sandbox.client, { name: 'Settings Ltd (test)' });
    expect((await getBusiness(live.client)).name).toBe('Settings Ltd');
  });

  it('refuses a wrong password for the sandbox as for live (401), and an unknown environment (422)', async () => {
    const live = await registerBusiness(server());
    const wrong = await anonymous().auth.signIn({
      body: { email: live.email, password: 'not the password at all', environment: 'sandbox' },
    });
    expectResultError(wrong, 401, 'UNAUTHORIZED');
    const odd = await raw(server(), 'POST', '/v1/auth/token', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: live.email, password: live.password, environment: 'staging' }),
    });
    expect(odd.status).toBe(422);
    expect(odd.body.error.details).toEqual([expect.objectContaining({ field: 'environment' })]);
  });

  it('registers live businesses only: register refuses an environment (422)', async () => {
    const res = await raw(server(), 'POST', '/v1/auth/register', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        businessName: 'Twin Ltd',
        email: uniqueEmail(),
        password: 'correct horse battery staple',
        environment: 'sandbox',
      }),
    });
    expect(res.status).toBe(422);
    const registered = await unwrap(
      anonymous().auth.register({
        body: { businessName: 'Live Ltd', email: uniqueEmail(), password: 'correct horse battery staple' },
      }),
    );
    expect(registered.data.environment).toBe('live');
  });
});

describe('credentials of each environment', () => {
  let live: TestBusiness;
  let sandbox: TestBusiness;

  it('makes bms_sk_test_ / bms_pk_test_ keys in the sandbox and bms_sk_ / bms_pk_ keys live, listed by prefix', async () => {
    live = await registerBusiness(server());
    sandbox = await sandboxOf(server(), live);
    const testFull = await createApiKey(sandbox.client, 'full');
    const testPublic = await createApiKey(sandbox.client, 'public_loyalty');
    const liveFull = await createApiKey(live.client, 'full');
    expect(testFull.key).toMatch(/^bms_sk_test_[A-Za-z0-9_-]{40,}$/);
    expect(testPublic.key).toMatch(/^bms_pk_test_[A-Za-z0-9_-]{40,}$/);
    expect(liveFull.key).toMatch(/^bms_sk_(?!test_)/);
    expect(testFull.prefix).toBe(testFull.key.slice(0, 16));
    const listed = (await unwrap(sandbox.client.auth.listApiKeys())).data;
    expect(listed.map((k) => k.prefix).sort()).toEqual([testFull.prefix, testPublic.prefix].sort());
    expect((await unwrap(live.client.auth.listApiKeys())).data.map((k) => k.id)).toEqual([liveFull.id]);
  });

  it('names the environment in Bms-Environment on every authenticated answer, not on a refusal', async () => {
    live = await registerBusiness(server());
    sandbox = await sandboxOf(server(), live);
    const testKey = (await createApiKey(sandbox.client, 'full')).key;
    const liveAnswer = await live.client.auth.getBusiness();
    expect(liveAnswer.headers.get('bms-environment')).toBe('live');
    const sandboxAnswer = await sandbox.client.auth.getBusiness();
    expect(sandboxAnswer.headers.get('bms-environment')).toBe('sandbox');
    const byKey = await clientOf({ apiKey: testKey }).general.customers.listCustomers({ query: {} });
    expect(byKey.status).toBe(200);
    expect(byKey.headers.get('bms-environment')).toBe('sandbox');
    const notFound = await sandbox.client.general.customers.getCustomer({ params: { id: 'cus_missing' } });
    expect(notFound.status).toBe(404);
    expect(notFound.headers.get('bms-environment')).toBe('sandbox');
    const refused = await clientOf({ accessToken: 'bms_at_unknown' }).auth.getBusiness();
    expect(refused.status).toBe(401);
    expect(refused.headers.get('bms-environment')).toBeNull();
  });

  it('refuses a credential of the other environment as unknown (401) when the request pins one', async () => {
    live = await registerBusiness(server());
    sandbox = await sandboxOf(server(), live);
    const testKey = (await createApiKey(sandbox.client, 'full')).key;
    const testPublic = (await createApiKey(sandbox.client, 'public_loyalty')).key;
    const liveKey = (await createApiKey(live.client, 'full')).key;

    const cases: [string, ReturnType<typeof clientOf>][] = [
      ['a test key pinned live', clientOf({ apiKey: testKey, environment: 'live' })],
      ['a sandbox token pinned live', clientOf({ accessToken: sandbox.accessToken, environment: 'live' })],
      ['a live key pinned sandbox', clientOf({ apiKey: liveKey, environment: 'sandbox' })],
      ['a live token pinned sandbox', clientOf({ accessToken: live.accessToken, environment: 'sandbox' })],
    ];
    for (const [why, client] of cases) {
      const res = await client.general.customers.listCustomers({ query: {} });
      expect(res.status, why).toBe(401);
      expect(res.body, why).toMatchObject({
        error: { code: 'UNAUTHORIZED', message: expect.stringMatching(/^Invalid or expired/) },
      });
    }
    const pos = await clientOf({ apiKey: testPublic, environment: 'live' }).publicLoyalty.publicListRewards();
    expect(pos.status).toBe(401);

    const matching = await clientOf({
      apiKey: testKey,
      environment: 'sandbox',
    }).general.customers.listCustomers({
      query: {},
    });
    expect(matching.status).toBe(200);
    const liveMatching = await clientOf({ apiKey: liveKey, environment: 'live' }).auth.getBusiness();
    expect(liveMatching.status).toBe(200);
  });

  it("keeps each environment's data to itself: lists, reads and writes by id", async () => {
    live = await registerBusiness(server());
    sandbox = await sandboxOf(server(), live);
    const liveCustomer = await createCustomer(live.client, { name: 'Live Customer' });
    const testCustomer = await createCustomer(sandbox.client, { name: 'Test Customer' });
    const testKey = clientOf({ apiKey: (await createApiKey(sandbox.client, 'full')).key });

    const sandboxList = (await unwrap(testKey.general.customers.listCustomers({ query: {} }))).data;
    expect(sandboxList.map((c) => c.id)).toEqual([testCustomer.id]);
    const liveList = (await unwrap(live.client.general.customers.listCustomers({ query: {} }))).data;
    expect(liveList.map((c) => c.id)).toEqual([liveCustomer.id]);

    expect((await testKey.general.customers.getCustomer({ params: { id: liveCustomer.id } })).status).toBe(
      404,
    );
    expect(
      (await live.client.general.customers.getCustomer({ params: { id: testCustomer.id } })).status,
    ).toBe(404);
    const update = await sandbox.client.general.customers.updateCustomer({
      params: { id: liveCustomer.id },
      body: { name: 'Renamed from the sandbox' },
    });
    expect(update.status).toBe(404);
    expect(
      (await unwrap(live.client.general.customers.getCustomer({ params: { id: liveCustomer.id } }))).data
        .name,
    ).toBe('Live Customer');
  });

  it('answers 403 to live credentials on the sandbox reset and test clock', async () => {
    live = await registerBusiness(server());
    const liveKey = clientOf({ apiKey: (await createApiKey(live.client, 'full')).key });
    for (const client of [live.client, liveKey]) {
      expectResultError(await client.sandbox.clock.getClock(), 403, 'FORBIDDEN');
      expectResultError(
        await client.sandbox.clock.advanceClock({ body: { advance_to: '2030-01-01T00:00:00Z' } }),
        403,
        'FORBIDDEN',
      );
      expectResultError(await client.sandbox.reset.resetSandbox({ body: { seed: false } }), 403, 'FORBIDDEN');
    }
  });
});

describe('mail and webhooks of the sandbox', () => {
  it('sends a live campaign through SMTP, and captures a sandbox campaign, every message listed and none at SMTP', async () => {
    const live = await registerBusiness(server());
    const sandbox = await sandboxOf(server(), live);
    const addresses = ['ada@contacts.example.test', 'grace@contacts.example.test'];
    for (const biz of [live, sandbox]) {
      for (const email of addresses) await createCustomer(biz.client, { name: 'Ada Example', email });
    }
    const sendFrom = async (biz: TestBusiness) => {
      const campaign = await createCampaign(biz.client, {
        template_id: (await createTemplate(biz.client)).id,
        segment_id: (await createSegment(biz.client)).id,
      });
      await unwrap(biz.client.marketing.campaigns.sendCampaign({ params: { id: campaign.id } }));
      return campaignReaches(biz.client, campaign.id, 'sent');
    };

    const before = sink().messages.length;
    const sent = await sendFrom(sandbox);
    expect(sent.status).toBe('sent');
    const recipients = (
      await unwrap(
        sandbox.client.marketing.campaigns.listCampaignRecipients({ params: { id: sent.id }, query: {} }),
      )
    ).recipients;
    expect(recipients.map((r) => r.status).sort()).toEqual(['sent', 'sent']);
    const captured = await messagesOf(sandbox.client);
    expect(captured.map((m) => m.to).sort()).toEqual([...addresses].sort());
    const unsubscribe = captured[0]!.headers['List-Unsubscribe'];
    expect(unsubscribe).toMatch(/\/u\//);
    expect(sink().messages.length).toBe(before);

    await sendFrom(live);
    await waitFor('the live campaign at the SMTP sink', () => sink().messages.length >= before + 2);
    expect(
      sink()
        .messages.slice(before)
        .map((m) => m.to)
        .sort(),
    ).toEqual([...addresses].sort());
    // With SMTP_URL set, live mail is sent, not captured: a live credential gets 403.
    expectResultError(await live.client.sandbox.messages.listMessages({ query: {} }), 403, 'FORBIDDEN');
  });

  it('unsubscribes through the link of a captured message: the sandbox customer, never the live one', async () => {
    const live = await registerBusiness(server());
    const sandbox = await sandboxOf(server(), live);
    const email = 'unsub@contacts.example.test';
    const liveCustomer = await createCustomer(live.client, { name: 'Una Example', email });
    const testCustomer = await createCustomer(sandbox.client, { name: 'Una Example', email });
    const campaign = await createCampaign(sandbox.client, {
      template_id: (await createTemplate(sandbox.client)).id,
      segment_id: (await createSegment(sandbox.client)).id,
    });
    await unwrap(sandbox.client.marketing.campaigns.sendCampaign({ params: { id: campaign.id } }));
    await campaignReaches(sandbox.client, campaign.id, 'sent');
    const [message] = await messagesOf(sandbox.client);
    const link = /<(https?:\/\/[^>]+\/u\/[^>]+)>/.exec(message!.headers['List-Unsubscribe'] ?? '')?.[1];
    expect(link).toBeDefined();
    const post = await raw(server(), 'POST', new URL(link!).pathname, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(post.status).toBe(200);
    const unsubscribed = async (biz: TestBusiness, id: string) =>
      (await unwrap(biz.client.general.customers.getCustomer({ params: { id } }))).data.unsubscribed;
    expect(await unsubscribed(sandbox, testCustomer.id)).toBe(true);
    expect(await unsubscribed(live, liveCustomer.id)).toBe(false);
    const analytics = (
      await unwrap(sandbox.client.marketing.campaigns.getCampaignAnalytics({ params: { id: campaign.id } }))
    ).analytics;
    expect(analytics).toMatchObject({ recipients: 1, unsubscribed: 1 });
  });

  it('delivers webhooks of both environments, livemode false from the sandbox and true from live', async () => {
    const live = await registerBusiness(server());
    const sandbox = await sandboxOf(server(), live);
    const receiver = await startReceiver();
    for (const biz of [live, sandbox]) {
      await createWebhook(biz.client, { url: receiver.url, events: ['customer.created'] });
    }
    await createCustomer(sandbox.client, { name: 'From the sandbox' });
    await createCustomer(live.client, { name: 'From live' });
    await waitFor('both deliveries', () => receiver.hits.length >= 2);
    const byName = Object.fromEntries(receiver.hits.map((h) => [h.body.data.name, h.body.livemode]));
    expect(byName).toEqual({ 'From the sandbox': false, 'From live': true });
  });
});

describe('POST /v1/auth/environment', () => {
  it("switches a signed-in person's token to the sandbox and back, each token reaching its own business", async () => {
    const owner = await registerBusiness(server(), 'Switch Ltd');
    await createCustomer(owner.client, { name: 'Live only', email: uniqueEmail('live') });
    const toSandbox = (
      await unwrap(owner.client.auth.switchEnvironment({ body: { environment: 'sandbox' } }))
    ).data;
    expect(toSandbox.environment).toBe('sandbox');
    expect(toSandbox.businessId).not.toBe(owner.businessId);
    const sandbox = createClient({
      baseUrl: server().baseUrl,
      accessToken: toSandbox.accessToken,
      maxRetries: 0,
    });
    const info = (await unwrap(sandbox.auth.getSession())).data;
    expect(info).toMatchObject({ environment: 'sandbox', role: 'owner', user: { email: owner.email } });
    expect((await unwrap(sandbox.general.customers.listCustomers({ query: {} }))).data).toHaveLength(0);

    // Again: the same twin.
    const again = (await unwrap(owner.client.auth.switchEnvironment({ body: { environment: 'sandbox' } })))
      .data;
    expect(again.businessId).toBe(toSandbox.businessId);

    const back = (await unwrap(sandbox.auth.switchEnvironment({ body: { environment: 'live' } }))).data;
    expect(back).toMatchObject({ environment: 'live', businessId: owner.businessId });
    const live = createClient({ baseUrl: server().baseUrl, accessToken: back.accessToken, maxRetries: 0 });
    expect((await unwrap(live.general.customers.listCustomers({ query: {} }))).data).toHaveLength(1);

    // Only the two environments; signed out, nothing.
    const bad = await raw(server(), 'POST', '/v1/auth/environment', {
      token: owner.accessToken,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ environment: 'staging' }),
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details[0].field).toBe('environment');
    const anonymous = createClient({ baseUrl: server().baseUrl, maxRetries: 0 });
    expect((await anonymous.auth.switchEnvironment({ body: { environment: 'sandbox' } })).status).toBe(401);

    // API keys have no person to switch.
    const key = await createApiKey(owner.client, 'full');
    const byKey = createClient({ baseUrl: server().baseUrl, apiKey: key.key, maxRetries: 0 });
    expect((await byKey.auth.switchEnvironment({ body: { environment: 'sandbox' } })).status).toBe(403);
  });
});
