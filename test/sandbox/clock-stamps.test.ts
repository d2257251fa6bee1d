import { describe, expect, it } from 'vitest';
import { unwrap, type Client } from '../../client/index.js';
import { registerBusiness, sandboxOf, type TestBusiness } from '../support/business.js';
import { createCustomer } from '../support/general.js';
import { createProgram, createReminder, enrollMember } from '../support/loyalty.js';
import {
  campaignReaches,
  campaignRecipients,
  createCampaign,
  createSegment,
  createTemplate,
  MARKETING_ENV,
} from '../support/marketing.js';
import { useTestServer } from '../support/setup.js';
import { waitFor } from '../support/wait.js';

// No SMTP_URL: mail is captured. The sending worker runs on real time, as in production; what it
// records must still be dated by the sandbox's clock.
const server = useTestServer({
  env: { ...MARKETING_ENV, MARKETING_POLL_MS: '40', MAIL_RATE_PER_SECOND: '0', ACCESS_TOKEN_TTL: '3650d' },
});

const DAY = 86_400_000;
const YEAR = 365 * DAY;
const iso = (ms: number) => new Date(ms).toISOString();
const ms = (at: string | null | undefined) => Date.parse(at ?? '');

const clockNow = async (client: Client) => ms((await unwrap(client.sandbox.clock.getClock())).data.now);
const advance = async (client: Client, to: number) =>
  (await unwrap(client.sandbox.clock.advanceClock({ body: { advance_to: iso(to) } }))).data;
const captured = async (client: Client) =>
  (await unwrap(client.sandbox.messages.listMessages({ query: { limit: 200 } }))).messages;

async function newSandbox(): Promise<{ sandbox: TestBusiness; start: number }> {
  const live = await registerBusiness(server());
  const sandbox = await sandboxOf(server(), live);
  return { sandbox, start: await clockNow(sandbox.client) };
}

/** A draft campaign to one contact of the sandbox. */
async function draftTo(client: Client, email: string) {
  await createCustomer(client, { name: 'Ada Example', email });
  return createCampaign(client, {
    template_id: (await createTemplate(client)).id,
    segment_id: (await createSegment(client)).id,
  });
}

describe("what the sending worker records, on the sandbox's clock", () => {
  it('dates a campaign sent after a year’s advance (created, sent, recipients, captured mail) on the sandbox’s day', async () => {
    const { sandbox, start } = await newSandbox();
    const target = start + YEAR;
    await advance(sandbox.client, target);
    const campaign = await draftTo(sandbox.client, 'ada@contacts.example.test');
    await unwrap(sandbox.client.marketing.campaigns.sendCampaign({ params: { id: campaign.id } }));
    const sent = await campaignReaches(sandbox.client, campaign.id, 'sent');
    const after = await clockNow(sandbox.client);

    for (const at of [sent.created_at, sent.sent_at, sent.updated_at]) {
      expect(ms(at)).toBeGreaterThanOrEqual(target);
      expect(ms(at)).toBeLessThanOrEqual(after);
    }
    expect(ms(sent.sent_at)).toBeGreaterThanOrEqual(ms(sent.created_at));
    const [recipient] = await campaignRecipients(sandbox.client, campaign.id);
    expect(recipient?.status).toBe('sent');
    expect(ms(recipient?.sent_at)).toBeGreaterThanOrEqual(target);
    const mail = (await captured(sandbox.client)).find((m) => m.to === 'ada@contacts.example.test');
    expect(ms(mail?.created_at)).toBeGreaterThanOrEqual(target);
    expect(ms(mail?.created_at)).toBeLessThanOrEqual(after);
  }, 90_000);

  it('records a scheduled campaign that an advance started as sent at the sandbox’s time, never at real time', async () => {
    const { sandbox, start } = await newSandbox();
    const campaign = await draftTo(sandbox.client, 'grace@contacts.example.test');
    const scheduled = start + 10 * DAY;
    await unwrap(
      sandbox.client.marketing.campaigns.scheduleCampaign({
        params: { id: campaign.id },
        body: { scheduled_at: iso(scheduled) },
      }),
    );
    const target = start + YEAR;
    expect((await advance(sandbox.client, target)).ran.campaigns_started).toBe(1);
    const sent = await campaignReaches(sandbox.client, campaign.id, 'sent');
    // Sent once the advance had run: on the sandbox's clock, a year on, not on the real day.
    expect(ms(sent.sent_at)).toBeGreaterThanOrEqual(scheduled);
    expect(ms(sent.sent_at)).toBeGreaterThanOrEqual(target);
    expect(ms(sent.sent_at)).toBeLessThanOrEqual(await clockNow(sandbox.client));
    const mail = (await captured(sandbox.client)).find((m) => m.to === 'grace@contacts.example.test');
    expect(ms(mail?.created_at)).toBeGreaterThanOrEqual(target);
  }, 90_000);

  it('lists the inbox newest first on the sandbox’s clock: mail sent after an advance above mail the advance made', async () => {
    const { sandbox, start } = await newSandbox();
    // A service reminder due in 300 days is mailed during the advance, at that step's time.
    await createProgram(sandbox.client);
    const m = await enrollMember(sandbox.client, { customer: { email: 'rider@contacts.example.test' } });
    const reminder = await createReminder(sandbox.client, { name: 'Bike service', intervalDays: 300 });
    await unwrap(
      sandbox.client.loyalty.reminders.completeReminder({
        params: { publicId: reminder.publicId },
        body: { memberId: m.publicId },
      }),
    );
    const target = start + YEAR;
    expect((await advance(sandbox.client, target)).ran.reminders_sent).toBe(1);
    const campaign = await draftTo(sandbox.client, 'alan@contacts.example.test');
    await unwrap(sandbox.client.marketing.campaigns.sendCampaign({ params: { id: campaign.id } }));
    await campaignReaches(sandbox.client, campaign.id, 'sent');
    const inbox = await waitFor('both messages to be captured', async () => {
      const list = await captured(sandbox.client);
      return list.length >= 2 && list;
    });
    const [newest, ...older] = inbox;
    expect(newest?.to).toBe('alan@contacts.example.test');
    expect(ms(newest?.created_at)).toBeGreaterThanOrEqual(target);
    // The reminders mailed on the way (and by the periodic pass since), each dated by the sandbox's
    // clock when it was mailed, below it.
    expect(older.map((x) => x.to)).toEqual(older.map(() => 'rider@contacts.example.test'));
    for (const mail of older) {
      expect(ms(mail.created_at)).toBeGreaterThan(start + 299 * DAY);
      expect(ms(mail.created_at)).toBeLessThanOrEqual(ms(newest?.created_at));
    }
  }, 90_000);
});

describe("GET /v1/auth/session: the business's clock, for default ranges", () => {
  it("answers the sandbox's time and today after an advance, and the live business's real time", async () => {
    const live = await registerBusiness(server());
    const sandbox = await sandboxOf(server(), live);
    const start = await clockNow(sandbox.client);
    const target = start + YEAR;
    await advance(sandbox.client, target);
    const { clock, mail } = (await unwrap(sandbox.client.auth.getSession())).data;
    expect(mail).toBe('captured');
    expect(ms(clock.now)).toBeGreaterThanOrEqual(target);
    expect(ms(clock.now) - target).toBeLessThan(60_000);
    expect(clock.timezone).toBe('UTC');
    expect(clock.today).toBe(clock.now.slice(0, 10));
    const real = (await unwrap(live.client.auth.getSession())).data.clock;
    expect(Math.abs(ms(real.now) - server().clock.now().getTime())).toBeLessThan(60_000);
  });
});
