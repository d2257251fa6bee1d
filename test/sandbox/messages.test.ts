import { beforeAll, describe, expect, it } from 'vitest';
import { unwrap, type Client } from '../../client/index.js';
import { registerBusiness, type TestBusiness } from '../support/business.js';
import { expectResultError } from '../support/expect.js';
import { createCustomer, issuedInvoice } from '../support/general.js';
import {
  campaignReaches,
  createCampaign,
  createSegment,
  createTemplate,
  MARKETING_ENV,
  TRUSTED_DOMAIN,
} from '../support/marketing.js';
import { useTestServer } from '../support/setup.js';
import { waitFor } from '../support/wait.js';

// No SMTP_URL: every message the service writes is captured and listed, never sent.
const server = useTestServer({
  env: { ...MARKETING_ENV, MARKETING_POLL_MS: '40', MAIL_RATE_PER_SECOND: '0' },
});

const list = (client: Client, query: { limit?: number; offset?: number } = {}) =>
  unwrap(client.sandbox.messages.listMessages({ query }));

let biz: TestBusiness;
let other: TestBusiness;
const emails = ['ada@contacts.example.test', 'grace@contacts.example.test', 'alan@contacts.example.test'];

beforeAll(async () => {
  [biz, other] = await Promise.all([registerBusiness(server()), registerBusiness(server())]);
  for (const [i, email] of emails.entries()) {
    await createCustomer(biz.client, { name: `${['Ada', 'Grace', 'Alan'][i]} Example`, email });
  }
  const campaign = await createCampaign(biz.client, {
    template_id: (await createTemplate(biz.client)).id,
    segment_id: (await createSegment(biz.client)).id,
  });
  await unwrap(biz.client.marketing.campaigns.sendCampaign({ params: { id: campaign.id } }));
  await campaignReaches(biz.client, campaign.id, 'sent');
});

describe('GET /v1/sandbox/messages without SMTP_URL', () => {
  it('lists each campaign message whole: to, from, subject, text, html and its List-Unsubscribe headers', async () => {
    const { result, messages, total_count } = await list(biz.client);
    expect(result).toBe('success');
    expect(total_count).toBe(3);
    expect(messages.map((m) => m.to).sort()).toEqual([...emails].sort());
    const ada = messages.find((m) => m.to === emails[0])!;
    expect(ada).toMatchObject({
      id: expect.stringMatching(/^mail_/),
      from: `Acme <news@${TRUSTED_DOMAIN}>`,
      subject: 'Welcome, Ada',
      text: expect.stringContaining('Hello Ada,'),
      html: expect.stringContaining('<p>Hello Ada,</p>'),
      created_at: expect.stringMatching(/Z$/),
    });
    expect(ada.headers['List-Unsubscribe']).toMatch(/<http:\/\/[^>]+\/u\/[^>]+>/);
    expect(ada.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
  });

  it('pages newest first with limit and offset, every message once', async () => {
    const first = await list(biz.client, { limit: 2 });
    const rest = await list(biz.client, { limit: 2, offset: 2 });
    expect(first.messages).toHaveLength(2);
    expect(rest.messages).toHaveLength(1);
    const all = [...first.messages, ...rest.messages];
    expect(new Set(all.map((m) => m.id)).size).toBe(3);
    const times = all.map((m) => m.created_at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it("captures the service's own mail too (a VAT threshold alert)", async () => {
    const customer = await createCustomer(biz.client, { name: 'Big Buyer' });
    await unwrap(
      biz.client.finance.vat.createVatThreshold({
        body: {
          country: 'GB',
          thresholdAmount: 10_000,
          currency: 'USD',
          periodType: 'annual',
          alertAtPercentage: 80,
          alertEmail: 'accounts@acme.example',
        },
      }),
    );
    await issuedInvoice(biz.client, {
      customer_id: customer.id,
      items: [{ description: 'Order', quantity: 1, unit_price: 95 }],
    });
    const alert = await waitFor('the VAT alert to be captured', async () =>
      (await list(biz.client)).messages.find((m) => m.to === 'accounts@acme.example'),
    );
    expect(alert).toMatchObject({ from: null, html: null, headers: {} });
    expect(alert.subject).toMatch(/VAT/);
  });

  it("shows nothing of another business's mail", async () => {
    expect(await list(other.client)).toEqual({ result: 'success', messages: [], total_count: 0 });
  });

  it('refuses a limit over 200 and a negative offset (422)', async () => {
    expectResultError(
      await biz.client.sandbox.messages.listMessages({ query: { limit: 201 } }),
      422,
      'VALIDATION_ERROR',
      'limit',
    );
    expectResultError(
      await biz.client.sandbox.messages.listMessages({ query: { offset: -1 } }),
      422,
      'VALIDATION_ERROR',
      'offset',
    );
  });
});
