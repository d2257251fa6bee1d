import { unsubscribeCustomer } from '../general/index.js';
import type { Executor } from '../platform/db/database.js';
import type { DemoSeed } from '../platform/module.js';
import { createCampaign, scheduleCampaign, sendCampaign } from './campaigns/service.js';
import { createSegment } from './segments/service.js';
import { claimRecipients, markSent, settleRecipients, type Settlement } from './sending/queries.js';
import { createTemplate } from './templates/service.js';
import { insertEvent, markTracked, markUnsubscribed } from './tracking/queries.js';
import type { RecipientKey } from './tracking/service.js';

/**
 * Marketing's part of the sandbox demo (docs/decisions.md D83): a segment of the customers, two
 * templates with merge tags, a newsletter sent to the segment a month ago and a sale announcement
 * scheduled ten days ahead (a test clock advance starts it). The sending worker mails through SMTP,
 * so the sent campaign's history is written as the worker and the tracking pages write it: each
 * recipient's outcome (most delivered, a few bounced or failed, bounced addresses suppressed), then
 * opens, clicks and one unsubscribe over the following days, so its analytics show believable rates.
 */

const DAY = 86_400_000;
const HOUR = 3_600_000;
const MINUTE = 60_000;

const SITE = 'https://roastery.example.com';

const NEWSLETTER = {
  name: 'Monthly newsletter',
  subject: "{{name}}, this month's new roasts are in",
  html_body:
    '<h1>Hello {{name}},</h1>' +
    '<p>Two new single origins have landed, and Rewards Club members earn points on every order.</p>' +
    `<p><a href="${SITE}/new">See the new roasts</a></p>` +
    `<p>Questions about your account? <a href="${SITE}/help">We are here to help</a>.</p>`,
  status: 'published' as const,
};

const SALE = {
  name: 'Sale announcement',
  subject: 'Our seasonal sale starts soon, {{name}}',
  html_body:
    '<h1>Hello {{name}},</h1>' +
    '<p>Our seasonal sale opens next week: up to 30% off, with double points for club members.</p>' +
    `<p><a href="${SITE}/sale">Preview the sale</a></p>`,
  status: 'published' as const,
};

/** Where the newsletter's readers click, most on the first link. */
const LINKS = [`${SITE}/new`, `${SITE}/new`, `${SITE}/help`];

const READERS = [
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko)',
  'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)',
];
/** A mail security scanner fetching the pixel on delivery: recorded, not counted as an open. */
const SCANNER = 'Mozilla/5.0 (compatible; Barracuda Sentinel)';

const BOUNCE = '550 5.1.1 The email account that you tried to reach does not exist';
const FAILURE = '421 4.7.0 Try again later, closing connection';

export async function seedMarketingDemo(seed: DemoSeed): Promise<void> {
  const end = seed.now.getTime();
  const at = (t: number) => seed.at(new Date(t));
  const between = (lo: number, hi: number) => lo + seed.random() * (hi - lo);
  /** What happened up to a minute before now (a late reader's open is kept in the past). */
  const before = (t: number) => new Date(Math.min(t, end - MINUTE));

  const segment = await createSegment(at(end - 45 * DAY), {
    name: 'Newsletter subscribers',
    description: 'Every customer with an email address who has not unsubscribed',
    filters: {
      match: 'all',
      conditions: [
        { field: 'email', operator: 'exists', value: true },
        { field: 'unsubscribed', operator: 'eq', value: false },
      ],
    },
  });
  const newsletter = await createTemplate(at(end - 40 * DAY), NEWSLETTER);
  const sale = await createTemplate(at(end - 4 * DAY), SALE);
  seed.count('segments');
  seed.count('templates', 2);

  // The newsletter, sent a month ago.
  const sentAt = end - 30 * DAY;
  const month = new Date(sentAt).toLocaleString('en', { month: 'long', year: 'numeric', timeZone: 'UTC' });
  const campaign = await createCampaign(at(sentAt - 2 * DAY), {
    name: `Newsletter, ${month}`,
    template_id: newsletter.id,
    segment_id: segment.id,
  });
  const ctx = at(sentAt);
  const count = await sendCampaign(ctx, campaign.id);
  const token = `demo-${campaign.id}`;
  const claimed = (
    await claimRecipients(ctx.db, ctx.businessId, campaign.id, token, new Date(sentAt), count)
  ).sort((a, b) => a.email.localeCompare(b.email) || a.customer_id.localeCompare(b.customer_id));

  // Outcomes as the SMTP server answered them, a second or two apart: a few addresses bounce (and
  // are suppressed), one fails its every attempt, the others are delivered.
  const ranks = new Map(
    claimed
      .map((recipient) => ({ id: recipient.customer_id, key: seed.random() }))
      .sort((a, b) => a.key - b.key)
      .map(({ id }, rank) => [id, rank]),
  );
  const bounces = claimed.length >= 8 ? Math.max(1, Math.round(claimed.length / 25)) : 0;
  const failures = claimed.length >= 12 ? 1 : 0;
  let clock = sentAt;
  const outcomes: Settlement[] = claimed.map((recipient) => {
    const rank = ranks.get(recipient.customer_id)!;
    const status = rank < bounces ? 'bounced' : rank < bounces + failures ? 'failed' : 'sent';
    clock += between(800, 2500);
    return {
      customerId: recipient.customer_id,
      email: recipient.email,
      status,
      error: status === 'bounced' ? BOUNCE : status === 'failed' ? FAILURE : null,
      nextAttemptAt: null,
      at: new Date(clock),
    };
  });
  await settleRecipients(ctx.db, ctx.businessId, campaign.id, token, outcomes);
  await markSent(ctx.db, ctx.businessId, campaign.id, new Date(clock));

  // Opens over the next days (about half the delivered), clicks by about a third of those who
  // opened, a scanner's prefetch that does not count, and one reader who unsubscribes.
  let unsubscribed = false;
  let scanned = false;
  for (const outcome of outcomes) {
    if (outcome.status !== 'sent') continue;
    const key: RecipientKey = {
      businessId: ctx.businessId,
      campaignId: campaign.id,
      customerId: outcome.customerId,
    };
    const delivered = outcome.at.getTime();
    if (!scanned && seed.random() < 0.2) {
      scanned = true;
      const scan = new Date(delivered + 900);
      await insertEvent(ctx.db, key, {
        kind: 'open',
        counted: false,
        url: null,
        userAgent: SCANNER,
        at: scan,
      });
    }
    if (seed.random() >= 0.5) continue;
    const reader = READERS[Math.floor(seed.random() * READERS.length)]!;
    let time = delivered + Math.max(2 * MINUTE, 72 * HOUR * seed.random() ** 2);
    await track(ctx.db, key, { kind: 'open', url: null, userAgent: reader, at: before(time) });
    if (seed.random() < 0.25) {
      time += between(2, 48) * HOUR;
      await track(ctx.db, key, { kind: 'open', url: null, userAgent: reader, at: before(time) });
    }
    if (seed.random() < 0.35) {
      time += between(0.5, 15) * MINUTE;
      const url = LINKS[Math.floor(seed.random() * LINKS.length)]!;
      await track(ctx.db, key, { kind: 'click', url, userAgent: reader, at: before(time) });
    } else if (!unsubscribed && seed.random() < 0.3) {
      unsubscribed = true;
      const leaving = seed.at(before(time + between(1, 5) * MINUTE));
      await markUnsubscribed(leaving.db, key, leaving.clock.now());
      await unsubscribeCustomer(leaving, key.customerId);
    }
  }

  // The sale announcement, scheduled ten days ahead.
  const scheduled = await createCampaign(at(end - 3 * DAY), {
    name: 'Seasonal sale preview',
    template_id: sale.id,
    segment_id: segment.id,
  });
  await scheduleCampaign(at(end - 3 * DAY), scheduled.id, {
    scheduled_at: new Date(end + 10 * DAY).toISOString(),
  });
  seed.count('campaigns', 2);
  seed.count('campaign_recipients', claimed.length);
}

/** A counted open or click, as the tracking pages record one: the event and the recipient's first. */
async function track(
  db: Executor,
  key: RecipientKey,
  event: { kind: 'open' | 'click'; url: string | null; userAgent: string; at: Date },
): Promise<void> {
  await insertEvent(db, key, { ...event, counted: true });
  await markTracked(db, key, event.kind, event.at);
}
