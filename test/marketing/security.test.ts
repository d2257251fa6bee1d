import { expect } from 'vitest';
import { contract } from '../../client/index.js';
import { registerBusiness } from '../support/business.js';
import { createCustomer } from '../support/general.js';
import {
  createDomain,
  createSegment,
  createTemplate,
  MARKETING_ENV,
  uniqueDomain,
} from '../support/marketing.js';
import { describeRouteSecurity, type Answer } from '../support/security.js';
import { useTestServer } from '../support/setup.js';

const server = useTestServer({ env: MARKETING_ENV, worker: false });

const { domains, segments, templates } = contract.marketing;

/** A list another business reads: answered, without this business's items. */
const emptyList =
  (key: 'domains' | 'segments' | 'templates') =>
  (answer: Answer): void => {
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ result: 'success', [key]: [] });
  };

describeRouteSecurity({
  server,
  tenant: registerBusiness,
  router: contract.marketing,
  routes: (route) => [
    route(
      domains.listDomains,
      async (t) => {
        await createDomain(t.client);
        return {};
      },
      { otherBusiness: emptyList('domains') },
    ),
    route(domains.createDomain, async () => ({ body: { domain: uniqueDomain() } })),
    route(domains.getDomain, async (t) => ({ params: { id: (await createDomain(t.client)).id } })),
    route(domains.verifyDomain, async (t) => ({ params: { id: (await createDomain(t.client)).id } })),
    route(domains.deleteDomain, async (t) => ({ params: { id: (await createDomain(t.client)).id } })),

    route(
      segments.listSegments,
      async (t) => {
        await createSegment(t.client);
        return { query: {} };
      },
      { otherBusiness: emptyList('segments') },
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
        await createTemplate(t.client);
        return { query: {} };
      },
      { otherBusiness: emptyList('templates') },
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
  ],
});
