import { expect } from 'vitest';
import { contract } from '../../client/index.js';
import { registerBusiness } from '../support/business.js';
import { createCustomer } from '../support/general.js';
import { unwrap, type Client } from '../../client/index.js';
import {
  createCampaign,
  createDomain,
  createSegment,
  createTemplate,
  MARKETING_ENV,
  uniqueDomain,
} from '../support/marketing.js';
import { describeRouteSecurity, type Answer } from '../support/security.js';
import { useTestServer } from '../support/setup.js';

const server = useTestServer({ env: MARKETING_ENV, worker: false });

const { campaigns, domains, segments, templates } = contract.marketing;

/** A campaign of the business, moved to `state` (no worker runs here: a sending one stays sending). */
async function campaignIn(client: Client, state: 'draft' | 'scheduled' | 'paused' | 'sending') {
  await createCustomer(client, {
    name: 'Ada Lovelace',
    email: `ada-${Math.random().toString(36).slice(2)}@example.test`,
  });
  const campaign = await createCampaign(client, {
    template_id: (await createTemplate(client)).id,
    segment_id: (await createSegment(client)).id,
  });
  const params = { id: campaign.id };
  const ahead = { scheduled_at: new Date(Date.now() + 86_400_000).toISOString() };
  if (state === 'sending') await unwrap(client.marketing.campaigns.sendCampaign({ params }));
  if (state === 'scheduled' || state === 'paused') {
    await unwrap(client.marketing.campaigns.scheduleCampaign({ params, body: ahead }));
  }
  if (state === 'paused') await unwrap(client.marketing.campaigns.pauseCampaign({ params }));
  return campaign;
}

/** The id of the item the last list request was built around. */
let built = '';

/**
 * A list another business (or the business's twin in the other environment) reads: answered, its
 * own items only, never the one the request was built around.
 */
const withoutIt =
  (key: 'domains' | 'segments' | 'templates' | 'campaigns') =>
  (answer: Answer): void => {
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ result: 'success', [key]: expect.any(Array) });
    const items = (answer.body as Record<typeof key, { id: string }[]>)[key];
    expect(items.map((item) => item.id)).not.toContain(built);
  };

describeRouteSecurity({
  server,
  tenant: registerBusiness,
  router: contract.marketing,
  routes: (route) => [
    route(
      domains.listDomains,
      async (t) => {
        built = (await createDomain(t.client)).id;
        return {};
      },
      { otherBusiness: withoutIt('domains') },
    ),
    route(domains.createDomain, async () => ({ body: { domain: uniqueDomain() } })),
    route(domains.getDomain, async (t) => ({ params: { id: (await createDomain(t.client)).id } })),
    route(domains.verifyDomain, async (t) => ({ params: { id: (await createDomain(t.client)).id } })),
    route(domains.deleteDomain, async (t) => ({ params: { id: (await createDomain(t.client)).id } })),

    route(
      segments.listSegments,
      async (t) => {
        built = (await createSegment(t.client)).id;
        return { query: {} };
      },
      { otherBusiness: withoutIt('segments') },
    ),
    // Another business's customers are unknown to the caller: 422 naming contact_ids.
    route(
      segments.createSegment,
      async (t) => ({ body: { name: 'Listed', contact_ids: [(await createCustomer(t.client)).id] } }),
      { otherBusiness: { status: 422, code: 'VALIDATION_ERROR', field: 'contact_ids' } },
    ),
    route(segments.getSegment, async (t) => ({ params: { id: (await createSegment(t.client)).id } })),
    route(segments.listSegmentContacts, async (t) => ({
      params: { id: (await createSegment(t.client)).id },
      query: {},
    })),
    route(segments.updateSegment, async (t) => ({
      params: { id: (await createSegment(t.client)).id },
      body: { name: 'Renamed', status: 'archived' as const },
    })),
    route(segments.deleteSegment, async (t) => ({ params: { id: (await createSegment(t.client)).id } })),

    route(
      templates.listTemplates,
      async (t) => {
        built = (await createTemplate(t.client)).id;
        return { query: {} };
      },
      { otherBusiness: withoutIt('templates') },
    ),
    route(templates.createTemplate, async () => ({
      body: { name: 'Welcome', subject: 'Hello {{first_name}}', html_body: '<p>Hello</p>' },
    })),
    route(templates.getTemplate, async (t) => ({ params: { id: (await createTemplate(t.client)).id } })),
    route(templates.updateTemplate, async (t) => ({
      params: { id: (await createTemplate(t.client)).id },
      body: { status: 'published' as const },
    })),
    route(templates.deleteTemplate, async (t) => ({ params: { id: (await createTemplate(t.client)).id } })),
    // The path names the template first: another business gets 404 for it.
    route(templates.previewTemplate, async (t) => ({
      params: { id: (await createTemplate(t.client)).id },
      body: { customer_id: (await createCustomer(t.client)).id },
    })),
    route(
      campaigns.listCampaigns,
      async (t) => {
        built = (await campaignIn(t.client, 'draft')).id;
        return { query: {} };
      },
      { otherBusiness: withoutIt('campaigns') },
    ),
    route(
      campaigns.createCampaign,
      async (t) => ({
        body: {
          name: 'Autumn offer',
          template_id: (await createTemplate(t.client)).id,
          segment_id: (await createSegment(t.client)).id,
        },
      }),
      { otherBusiness: { status: 422, code: 'VALIDATION_ERROR', field: 'template_id' } },
    ),
    route(campaigns.getCampaign, async (t) => ({ params: { id: (await campaignIn(t.client, 'draft')).id } })),
    route(campaigns.sendCampaign, async (t) => ({
      params: { id: (await campaignIn(t.client, 'draft')).id },
    })),
    route(campaigns.scheduleCampaign, async (t) => ({
      params: { id: (await campaignIn(t.client, 'draft')).id },
      body: { scheduled_at: new Date(Date.now() + 86_400_000).toISOString() },
    })),
    route(campaigns.pauseCampaign, async (t) => ({
      params: { id: (await campaignIn(t.client, 'scheduled')).id },
    })),
    route(campaigns.resumeCampaign, async (t) => ({
      params: { id: (await campaignIn(t.client, 'paused')).id },
    })),
    route(campaigns.cancelCampaign, async (t) => ({
      params: { id: (await campaignIn(t.client, 'draft')).id },
    })),
    route(campaigns.getCampaignAnalytics, async (t) => ({
      params: { id: (await campaignIn(t.client, 'sending')).id },
    })),
    route(campaigns.listCampaignRecipients, async (t) => ({
      params: { id: (await campaignIn(t.client, 'sending')).id },
      query: {},
    })),
    route(
      campaigns.reportBounce,
      async (t) => ({
        body: {
          email: 'ada@example.test',
          type: 'hard' as const,
          campaign_id: (await campaignIn(t.client, 'sending')).id,
        },
      }),
      { otherBusiness: { status: 422, code: 'VALIDATION_ERROR', field: 'campaign_id' } },
    ),
  ],
});
