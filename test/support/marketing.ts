import { randomBytes } from 'node:crypto';
import { unwrap, type Client, type marketing } from '../../client/index.js';
import type { StubDns } from './dns.js';

/** Factories of the marketing domain: one per resource, each through the typed client. */

/** The domain test servers trust without DNS records (pass `MARKETING_ENV` to useTestServer). */
export const TRUSTED_DOMAIN = 'trusted.example.test';
export const MARKETING_ENV = { MAIL_TRUSTED_DOMAINS: TRUSTED_DOMAIN };

/** A domain name no other test uses. */
export const uniqueDomain = (tag = 'mail') => `${tag}-${randomBytes(4).toString('hex')}.example.com`;

/** A sender domain (pending unless trusted): `uniqueDomain()` unless told. */
export async function createDomain(client: Client, domain = uniqueDomain()): Promise<marketing.Domain> {
  return (await unwrap(client.marketing.domains.createDomain({ body: { domain } }))).domain;
}

/** Publishes both records the domain asks for in the stub DNS. */
export function publishRecords(dns: StubDns, domain: marketing.Domain): void {
  for (const record of domain.verification) dns.publish(record.name, record.value);
}

/** A sender domain with its records published and verified. */
export async function verifiedDomain(
  client: Client,
  dns: StubDns,
  domain = uniqueDomain(),
): Promise<marketing.Domain> {
  const created = await createDomain(client, domain);
  publishRecords(dns, created);
  return (await unwrap(client.marketing.domains.verifyDomain({ params: { id: created.id } }))).domain;
}

/** A segment: "Everyone" with no conditions (every contact) unless told. */
export async function createSegment(
  client: Client,
  overrides: Partial<marketing.CreateSegmentBody> = {},
): Promise<marketing.Segment> {
  const body: marketing.CreateSegmentBody = {
    name: 'Everyone',
    filters: { match: 'all', conditions: [] },
    ...overrides,
  };
  return (await unwrap(client.marketing.segments.createSegment({ body }))).segment;
}

/** A segment of contacts meeting one condition. */
export const segmentWhere = (client: Client, ...conditions: marketing.Condition[]) =>
  createSegment(client, { name: 'Filtered', filters: { match: 'all', conditions } });

/** The ids of a segment's contacts, in its order (every page). */
export async function segmentContactIds(client: Client, id: string): Promise<string[]> {
  const ids: string[] = [];
  for (let offset = 0; ; offset += 200) {
    const page = await unwrap(
      client.marketing.segments.listSegmentContacts({ params: { id }, query: { limit: 200, offset } }),
    );
    ids.push(...page.contacts.map((c) => c.id));
    if (page.contacts.length < 200) return ids;
  }
}

/** A template: "Welcome" greeting {{first_name}}, sent from the trusted domain unless told. */
export async function createTemplate(
  client: Client,
  overrides: Partial<marketing.CreateTemplateBody> = {},
): Promise<marketing.Template> {
  const body: marketing.CreateTemplateBody = {
    name: 'Welcome',
    subject: 'Welcome, {{first_name}}',
    html_body: '<p>Hello {{first_name}},</p><p>Welcome to Acme.</p>',
    from_name: 'Acme',
    from_email: `news@${TRUSTED_DOMAIN}`,
    ...overrides,
  };
  return (await unwrap(client.marketing.templates.createTemplate({ body }))).template;
}

/** A draft campaign of the template to the segment. */
export async function createCampaign(
  client: Client,
  body: Partial<marketing.CreateCampaignBody> &
    Pick<marketing.CreateCampaignBody, 'template_id' | 'segment_id'>,
): Promise<marketing.Campaign> {
  return (
    await unwrap(client.marketing.campaigns.createCampaign({ body: { name: 'Autumn offer', ...body } }))
  ).campaign;
}

export const getCampaign = async (client: Client, id: string) =>
  (await unwrap(client.marketing.campaigns.getCampaign({ params: { id } }))).campaign;

/** Waits until the campaign reaches `status` (the worker sends in the background). */
export async function campaignReaches(
  client: Client,
  id: string,
  status: marketing.Campaign['status'],
  timeoutMs = 15_000,
): Promise<marketing.Campaign> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const campaign = await getCampaign(client, id);
    if (campaign.status === status) return campaign;
    if (Date.now() > deadline) throw new Error(`campaign ${id} is ${campaign.status}, not ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Every recipient of a campaign (all pages). */
export async function campaignRecipients(client: Client, id: string): Promise<marketing.Recipient[]> {
  const all: marketing.Recipient[] = [];
  for (let offset = 0; ; offset += 200) {
    const page = await unwrap(
      client.marketing.campaigns.listCampaignRecipients({ params: { id }, query: { limit: 200, offset } }),
    );
    all.push(...page.recipients);
    if (page.recipients.length < 200) return all;
  }
}

export const analyticsOf = async (client: Client, id: string) =>
  (await unwrap(client.marketing.campaigns.getCampaignAnalytics({ params: { id } }))).analytics;
