import { createExpressEndpoints } from '@ts-rest/express';
import { withCsvExports } from '../platform/exports.js';
import { contract } from '../../contract/index.js';
import type { DomainModule } from '../platform/module.js';
import { seedMarketingDemo } from './demo.js';
import { mountPages } from './tracking/pages.js';
import { marketingRoutes } from './routes.js';
import { hasDueCampaigns, runSending, startDue } from './sending/service.js';
import { closeTransport } from './sending/transport.js';

export { compileTemplate, type MergeFields } from './templates/render.js';

/**
 * Marketing: sender domains, segments of contacts, email templates and campaigns; the worker sends
 * campaigns, and the pages behind their links track opens and clicks and unsubscribe.
 */
export const marketingModule: DomainModule = {
  name: 'marketing',
  tables: [
    'marketing_domains',
    'marketing_segments',
    'marketing_segment_contacts',
    'marketing_templates',
    'marketing_campaigns',
    'marketing_recipients',
    'marketing_send_pacing',
    'marketing_send_attempts',
    'marketing_suppressions',
    'marketing_tracking_events',
  ],
  mount: (app, deps, options) =>
    createExpressEndpoints(
      contract.marketing,
      withCsvExports(deps, contract.marketing, marketingRoutes(deps)),
      app,
      options,
    ),
  pages: mountPages,
  periodic: [{ name: 'campaign sending', everyMs: (config) => config.MARKETING_POLL_MS, run: runSending }],
  due: [{ counts: 'campaigns_started', run: startDue, pending: hasDueCampaigns }],
  seedDemo: seedMarketingDemo,
  stop: (deps) => closeTransport(deps),
};
