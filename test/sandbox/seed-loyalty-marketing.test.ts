import { beforeAll, describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import { registerBusiness, sandboxOf, type TestBusiness } from '../support/business.js';
import { campaignRecipients } from '../support/marketing.js';
import { useTestServer } from '../support/setup.js';

/**
 * Loyalty's and marketing's part of a seeded sandbox reset (docs/decisions.md D83): what the demo made
 * answers through the ordinary routes, and a second seeded reset makes the same again.
 */

const server = useTestServer();

const DAY = 86_400_000;
/** A whole seeded reset (every domain's demo) takes some seconds on a busy machine. */
const RESET_TIMEOUT_MS = 120_000;

let sandbox: TestBusiness;
let seeded: Record<string, number>;

beforeAll(async () => {
  const live = await registerBusiness(server());
  sandbox = await sandboxOf(server(), live);
  ({ seeded } = (await unwrap(sandbox.client.sandbox.reset.resetSandbox({ body: { seed: true } }))).data);
});

describe('the seeded loyalty program', () => {
  it('is active, with three tiers, four rewards and a service reminder', async () => {
    const { client } = sandbox;
    const program = (await unwrap(client.loyalty.program.getProgram())).data;
    expect(program).toMatchObject({ isActive: true, pointsPerCurrency: 1, pointsExpiryDays: 365 });
    const tiers = (await unwrap(client.loyalty.tiers.listTiers())).data;
    expect(tiers.map((t) => t.name)).toEqual(['Bronze', 'Silver', 'Gold']);
    const rewards = (await unwrap(client.loyalty.rewards.listRewards({ query: {} }))).data;
    expect(rewards).toHaveLength(4);
    expect(rewards.reduce((n, r) => n + r.totalRedemptions, 0)).toBe(seeded.redemptions);
    const reminders = (await unwrap(client.loyalty.reminders.listReminders({ query: {} }))).data;
    expect(reminders).toHaveLength(1);
    expect(reminders[0]).toMatchObject({ intervalDays: 180, isActive: true });
    expect(seeded).toMatchObject({ loyalty_programs: 1, rewards: 4, reminders: 1 });
  });

  it('has about two thirds of the customers as members, enrolled over the months, in tiers', async () => {
    const { client } = sandbox;
    const page = await unwrap(client.loyalty.members.listMembers({ query: { limit: 200 } }));
    const customers = seeded.customers ?? 0;
    expect(page.totalCount).toBe(seeded.members);
    expect(page.totalCount).toBe(Math.round((customers * 2) / 3));
    expect(page.data.length).toBeGreaterThan(0);
    const enrolled = page.data.map((m) => Date.parse(m.enrolledAt));
    expect(Math.max(...enrolled) - Math.min(...enrolled)).toBeGreaterThan(60 * DAY);
    expect(page.data.every((m) => m.tierName !== null && m.status === 'active')).toBe(true);
    // Tiers follow from what members earned: more than one tier is reached.
    expect(new Set(page.data.map((m) => m.tierName)).size).toBeGreaterThan(1);

    const stats = (await unwrap(client.loyalty.stats.getStats())).data;
    expect(stats.totalMembers).toBe(seeded.members);
    expect(stats.totalPointsIssued).toBeGreaterThan(0);
    expect(stats.totalPointsRedeemed).toBeGreaterThan(0);
    expect(stats.redemptionRate).toBeGreaterThan(0);
    expect(stats.redemptionRate).toBeLessThan(100);
    expect(stats.tierDistribution.map((t) => t.name)).toEqual(['Bronze', 'Silver', 'Gold']);
    expect(stats.tierDistribution.reduce((n, t) => n + t.count, 0)).toBe(seeded.members);

    // Every balance is its ledger's sum, never below zero on the way.
    for (const member of page.data.slice(0, 4)) {
      const ledger = await unwrap(
        client.loyalty.members.listMemberTransactions({
          params: { publicId: member.publicId },
          query: { limit: 200 },
        }),
      );
      expect(ledger.data.reduce((sum, t) => sum + t.points, 0)).toBe(member.pointsBalance);
      expect(ledger.data.every((t) => t.balanceAfter >= 0)).toBe(true);
    }
  });

  it('has earnings on paid invoices and at the till, expiries, redemptions and their refunds', async () => {
    const { client } = sandbox;
    const all = await unwrap(client.loyalty.transactions.listTransactions({ query: { limit: 200 } }));
    expect(all.totalCount).toBe(seeded.loyalty_transactions);
    const earned = await unwrap(
      client.loyalty.transactions.listTransactions({ query: { type: 'earn', limit: 200 } }),
    );
    const sources = new Set(earned.data.map((t) => t.referenceType));
    expect(sources).toEqual(new Set(['invoice', 'public', 'reminder']));
    expect(earned.data.some((t) => t.multiplierApplied > 1)).toBe(true);
    // Points a year old have expired on the way (the rest expire later: see the clock below).
    const expired = await unwrap(
      client.loyalty.transactions.listTransactions({ query: { type: 'expire', limit: 1 } }),
    );
    expect(expired.totalCount).toBeGreaterThan(0);
    const redeemed = await unwrap(
      client.loyalty.transactions.listTransactions({ query: { type: 'redeem', limit: 200 } }),
    );
    expect(redeemed.totalCount).toBe(seeded.redemptions);
  });

  it('has redemptions fulfilled, cancelled, expired and one pending with a valid voucher', async () => {
    const { client } = sandbox;
    const page = await unwrap(client.loyalty.redemptions.listRedemptions({ query: { limit: 200 } }));
    expect(page.totalCount).toBe(seeded.redemptions);
    expect(page.totalCount).toBe(6);
    const byStatus = (status: string) => page.data.filter((r) => r.status === status);
    expect(byStatus('fulfilled')).toHaveLength(3);
    expect(byStatus('cancelled')).toHaveLength(1);
    expect(byStatus('expired')).toHaveLength(1);
    const [pending] = byStatus('pending');
    expect(pending).toBeDefined();
    const voucher = (
      await unwrap(client.loyalty.redemptions.verifyVoucher({ params: { code: pending!.voucherCode } }))
    ).data;
    expect(voucher).toMatchObject({ valid: true, status: 'pending' });
  });
});

describe('the seeded campaigns', () => {
  it('has a newsletter sent a month ago, with believable analytics and paged recipients', async () => {
    const { client } = sandbox;
    const { campaigns } = await unwrap(
      client.marketing.campaigns.listCampaigns({ query: { status: 'sent' } }),
    );
    expect(campaigns).toHaveLength(1);
    const sent = campaigns[0]!;
    const age = Date.now() - Date.parse(sent.sent_at!);
    expect(age).toBeGreaterThan(29 * DAY);
    expect(age).toBeLessThan(31 * DAY);
    expect(sent.recipients_count).toBe(seeded.campaign_recipients);
    expect(sent.recipients_count).toBeGreaterThan(0);

    const analytics = (
      await unwrap(client.marketing.campaigns.getCampaignAnalytics({ params: { id: sent.id } }))
    ).analytics;
    expect(analytics.recipients).toBe(sent.recipients_count);
    expect(analytics.delivered).toBeGreaterThan(0);
    expect(analytics.delivered).toBeLessThan(analytics.recipients);
    expect(analytics.bounced).toBeGreaterThan(0);
    expect(analytics.opened).toBeGreaterThan(0);
    expect(analytics.clicked).toBeGreaterThan(0);
    expect(analytics.clicked).toBeLessThan(analytics.opened);
    // Rates are percentages: strictly between nothing and everyone.
    for (const rate of [analytics.open_rate, analytics.click_rate, analytics.bounce_rate]) {
      expect(rate).toBeGreaterThan(0);
      expect(rate).toBeLessThan(100);
    }

    const first = await unwrap(
      client.marketing.campaigns.listCampaignRecipients({ params: { id: sent.id }, query: { limit: 5 } }),
    );
    expect(first.recipients).toHaveLength(5);
    expect(first.total_count).toBe(sent.recipients_count);
    const second = await unwrap(
      client.marketing.campaigns.listCampaignRecipients({
        params: { id: sent.id },
        query: { limit: 5, offset: 5 },
      }),
    );
    expect(second.recipients.map((r) => r.email)).not.toContain(first.recipients[0]!.email);
    const recipients = await campaignRecipients(client, sent.id);
    expect(recipients).toHaveLength(sent.recipients_count);
    expect(recipients.filter((r) => r.status === 'sent')).toHaveLength(analytics.delivered);
    expect(recipients.filter((r) => r.opened_at !== null)).toHaveLength(analytics.opened);
    expect(recipients.every((r) => r.status !== 'bounced' || r.error !== null)).toBe(true);
    for (const r of recipients.filter((r) => r.opened_at)) {
      expect(Date.parse(r.opened_at!)).toBeGreaterThan(Date.parse(r.sent_at!));
    }
  });

  it('has a sale announcement scheduled ten days ahead to the same segment', async () => {
    const { client } = sandbox;
    const { campaigns } = await unwrap(
      client.marketing.campaigns.listCampaigns({ query: { status: 'scheduled' } }),
    );
    expect(campaigns).toHaveLength(1);
    const ahead = Date.parse(campaigns[0]!.scheduled_at!) - Date.now();
    expect(ahead).toBeGreaterThan(9 * DAY);
    expect(ahead).toBeLessThan(11 * DAY);
    const { segments } = await unwrap(client.marketing.segments.listSegments({ query: {} }));
    expect(segments.map((s) => s.id)).toEqual([campaigns[0]!.segment_id]);
    expect(segments[0]!.contact_count).toBeGreaterThan(0);
    const { templates } = await unwrap(client.marketing.templates.listTemplates({ query: {} }));
    expect(templates).toHaveLength(2);
    expect(seeded).toMatchObject({ segments: 1, templates: 2, campaigns: 2 });
  });
});

describe('a second seeded reset', () => {
  it(
    'seeds the same counts again',
    async () => {
      const again = (await unwrap(sandbox.client.sandbox.reset.resetSandbox({ body: { seed: true } }))).data;
      expect(again.seeded).toEqual(seeded);
      const { client } = sandbox;
      const members = await unwrap(client.loyalty.members.listMembers({ query: { limit: 1 } }));
      expect(members.totalCount).toBe(seeded.members);
      const { campaigns } = await unwrap(client.marketing.campaigns.listCampaigns({ query: {} }));
      expect(campaigns).toHaveLength(2);
    },
    RESET_TIMEOUT_MS,
  );
});

describe("the sandbox's test clock over the seeded demo", () => {
  it('starts the scheduled campaign, and later expires points and sends service reminders', async () => {
    const { client } = sandbox;
    const advance = async (days: number) =>
      (
        await unwrap(
          client.sandbox.clock.advanceClock({
            body: { advance_to: new Date(Date.now() + days * DAY).toISOString() },
          }),
        )
      ).data.ran;
    const soon = await advance(11);
    expect(soon).toMatchObject({ campaigns_started: 1 });
    const { campaigns } = await unwrap(
      client.marketing.campaigns.listCampaigns({ query: { status: 'scheduled' } }),
    );
    expect(campaigns).toEqual([]);
    const later = await advance(366);
    expect(later.points_expired).toBeGreaterThan(0);
    expect(later.reminders_sent).toBeGreaterThan(0);
    expect(soon.vouchers_expired + later.vouchers_expired).toBe(1);
  });
});
