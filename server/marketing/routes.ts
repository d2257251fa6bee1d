import { initServer } from '@ts-rest/express';
import { contract } from '../../contract/index.js';
import { created, ok, success } from '../platform/answers.js';
import { ctxFor, type Deps } from '../platform/deps.js';
import * as campaigns from './campaigns/service.js';
import * as domains from './domains/service.js';
import * as segments from './segments/service.js';
import * as templates from './templates/service.js';

const s = initServer();

export const marketingRoutes = (deps: Deps) => {
  const ctx = ctxFor(deps);
  return s.router(contract.marketing, {
    domains: {
      listDomains: async ({ req }) => ok(success({ domains: await domains.listDomains(ctx(req)) })),
      createDomain: async ({ body, req }) =>
        created(success({ domain: await domains.createDomain(ctx(req), body) })),
      getDomain: async ({ params, req }) =>
        ok(success({ domain: await domains.getDomain(ctx(req), params.id) })),
      verifyDomain: async ({ params, req }) =>
        ok(success({ domain: await domains.verifyDomain(ctx(req), params.id) })),
      deleteDomain: async ({ params, req }) => {
        await domains.deleteDomain(ctx(req), params.id);
        return ok(success({ message: 'Sender domain deleted' }));
      },
    },
    segments: {
      listSegments: async ({ query, req }) => ok(success(await segments.listSegments(ctx(req), query))),
      createSegment: async ({ body, req }) => {
        const segment = await segments.createSegment(ctx(req), body);
        return created(success({ segment_id: segment.id, message: 'Segment created', segment }));
      },
      getSegment: async ({ params, req }) =>
        ok(success({ segment: await segments.getSegment(ctx(req), params.id) })),
      listSegmentContacts: async ({ params, query, req }) =>
        ok(success(await segments.listSegmentContacts(ctx(req), params.id, query))),
      updateSegment: async ({ params, body, req }) =>
        ok(
          success({
            message: 'Segment updated',
            segment: await segments.updateSegment(ctx(req), params.id, body),
          }),
        ),
      deleteSegment: async ({ params, req }) => {
        await segments.deleteSegment(ctx(req), params.id);
        return ok(success({ message: 'Segment deleted' }));
      },
    },
    templates: {
      listTemplates: async ({ query, req }) => ok(success(await templates.listTemplates(ctx(req), query))),
      createTemplate: async ({ body, req }) => {
        const template = await templates.createTemplate(ctx(req), body);
        return created(success({ template_id: template.id, message: 'Template created', template }));
      },
      getTemplate: async ({ params, req }) =>
        ok(success({ template: await templates.getTemplate(ctx(req), params.id) })),
      updateTemplate: async ({ params, body, req }) =>
        ok(
          success({
            message: 'Template updated',
            template: await templates.updateTemplate(ctx(req), params.id, body),
          }),
        ),
      deleteTemplate: async ({ params, req }) => {
        await templates.deleteTemplate(ctx(req), params.id);
        return ok(success({ message: 'Template deleted' }));
      },
      previewTemplate: async ({ params, body, req }) =>
        ok(success({ preview: await templates.previewTemplate(ctx(req), params.id, body) })),
    },
    campaigns: {
      listCampaigns: async ({ query, req }) => ok(success(await campaigns.listCampaigns(ctx(req), query))),
      createCampaign: async ({ body, req }) => {
        const campaign = await campaigns.createCampaign(ctx(req), body);
        return created(success({ campaign_id: campaign.id, message: 'Campaign created', campaign }));
      },
      getCampaign: async ({ params, req }) =>
        ok(success({ campaign: await campaigns.getCampaign(ctx(req), params.id) })),
      sendCampaign: async ({ params, req }) => {
        const recipients = await campaigns.sendCampaign(ctx(req), params.id);
        return ok(success({ message: 'Campaign sending', recipients_count: recipients }));
      },
      scheduleCampaign: async ({ params, body, req }) =>
        ok(
          success({
            message: 'Campaign scheduled',
            scheduled_at: await campaigns.scheduleCampaign(ctx(req), params.id, body),
          }),
        ),
      pauseCampaign: async ({ params, req }) => {
        await campaigns.pauseCampaign(ctx(req), params.id);
        return ok(success({ message: 'Campaign paused' }));
      },
      resumeCampaign: async ({ params, req }) => {
        const status = await campaigns.resumeCampaign(ctx(req), params.id);
        return ok(success({ message: `Campaign ${status}`, status }));
      },
      cancelCampaign: async ({ params, req }) => {
        await campaigns.cancelCampaign(ctx(req), params.id);
        return ok(success({ message: 'Campaign cancelled' }));
      },
      getCampaignAnalytics: async ({ params, req }) =>
        ok(success({ analytics: await campaigns.campaignAnalytics(ctx(req), params.id) })),
      listCampaignRecipients: async ({ params, query, req }) =>
        ok(success(await campaigns.listRecipients(ctx(req), params.id, query))),
      reportBounce: async ({ body, req }) => {
        await campaigns.reportBounce(ctx(req), body);
        return ok(success({ message: 'Report recorded' }));
      },
    },
  });
};
