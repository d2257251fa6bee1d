import { afterEach, describe, expect, it } from 'vitest';
import { unwrap, type Client } from '../../client/index.js';
import { raw, registerBusiness, type TestBusiness } from '../support/business.js';
import { verifyDkim } from '../support/dkim.js';
import { createCustomer } from '../support/general.js';
import {
  analyticsOf,
  campaignReaches,
  campaignRecipients,
  createCampaign,
  createSegment,
  createTemplate,
  getCampaign,
  MARKETING_ENV,
  TRUSTED_DOMAIN,
  verifiedDomain,
} from '../support/marketing.js';
import { useTestServer } from '../support/setup.js';
import { sendingLanes } from '../../server/marketing/sending/service.js';
import { useSmtpSink, type SinkMessage } from '../support/smtp.js';
import { waitFor } from '../support/wait.js';

// Retries come due when a test moves the clock by this much; real time alone takes 5 s to get
// there, longer than a slow moment of a loaded machine between two steps of a test.
const RETRY_BASE_MS = 5000;
const { env, sink } = useSmtpSink({
  ...MARKETING_ENV,
  MARKETING_POLL_MS: '40',
  MAIL_RETRY_BASE_MS: String(RETRY_BASE_MS),
  // The clock jumps ahead by several retry delays here: no claim may expire on the way (leases
  // are tested in campaign-workers.test.ts).
  MAIL_CLAIM_LEASE_MS: '600000',
  MAIL_RATE_PER_SECOND: '0',
  MAIL_UNSUBSCRIBE_MAILTO: 'unsubscribe@trusted.example.test',
});
const server = useTestServer({ env });

afterEach(() => {
  sink().reset();
  server().clock.reset();
});

let counter = 0;
/** An address no other test uses, at `tag`. */
const address = (tag: string) => `${tag}-${++counter}-${Date.now().toString(36)}@contacts.example.test`;

/** `n` contacts with an email each, named Contact 1..n. */
async function contacts(client: Client, n: number, tag = 'c') {
  const made = [];
  for (let i = 1; i <= n; i++) {
    made.push(await createCustomer(client, { name: `Contact${i} Smith`, email: address(tag) }));
  }
  return made;
}

/** A business with `n` contacts, a template and an "Everyone" segment, and a draft campaign of them. */
async function draft(n: number, template: Parameters<typeof createTemplate>[1] = {}, tag = 'c') {
  const biz = await registerBusiness(server());
  const people = await contacts(biz.client, n, tag);
  const tpl = await createTemplate(biz.client, template);
  const segment = await createSegment(biz.client);
  const campaign = await createCampaign(biz.client, {
    template_id: tpl.id,
    segment_id: segment.id,
    reply_to: 'support@acme.example',
  });
  return { biz, people, template: tpl, segment, campaign };
}

const send = async (client: Client, id: string) =>
  unwrap(client.marketing.campaigns.sendCampaign({ params: { id } }));

const messagesTo = (emails: readonly string[]) => sink().messages.filter((m) => emails.includes(m.to));

/** The path (and query) of the first URL in `text` that starts with `prefix`. */
function linkPath(text: string, prefix: RegExp): string {
  const match = new RegExp(`https?://[^/]+(${prefix.source}[^"'\\s<>]*)`).exec(text);
  if (!match?.[1]) throw new Error(`no ${prefix.source} link in ${text.slice(0, 400)}`);
  return match[1].replace(/&amp;/g, '&');
}

const state = (client: Client, id: string) => getCampaign(client, id).then((c) => c.status);

describe('the campaign state machine', () => {
  it('creates a draft with the overrides and reply_to, lists it by status and shows it', async () => {
    const { biz, campaign, template, segment } = await draft(1);
    expect(campaign).toMatchObject({
      status: 'draft',
      template_id: template.id,
      segment_id: segment.id,
      reply_to: 'support@acme.example',
      recipients_count: 0,
      sent_at: null,
      scheduled_at: null,
    });
    const other = await createCampaign(biz.client, {
      name: 'Second',
      template_id: template.id,
      segment_id: segment.id,
      subject_override: 'Hi {{first_name}}!',
      from_name_override: 'Acme News',
      from_email_override: `offers@${TRUSTED_DOMAIN}`,
    });
    expect(other).toMatchObject({
      subject_override: 'Hi {{first_name}}!',
      from_name_override: 'Acme News',
      from_email_override: `offers@${TRUSTED_DOMAIN}`,
    });
    await unwrap(biz.client.marketing.campaigns.cancelCampaign({ params: { id: other.id } }));
    const drafts = await unwrap(biz.client.marketing.campaigns.listCampaigns({ query: { status: 'draft' } }));
    expect(drafts.campaigns.map((c) => c.id)).toEqual([campaign.id]);
    expect(drafts.total_count).toBe(1);
    const all = await unwrap(biz.client.marketing.campaigns.listCampaigns({ query: { limit: 1 } }));
    expect(all.total_count).toBe(2);
    expect(all.campaigns).toHaveLength(1);
  });

  it("refuses a template or segment that is not the business's, and an unverified sender (422)", async () => {
    const { biz, template, segment } = await draft(0);
    const stranger = await draft(0);
    const refusals = [
      { template_id: stranger.template.id, segment_id: segment.id, field: 'template_id' },
      { template_id: template.id, segment_id: stranger.segment.id, field: 'segment_id' },
      {
        template_id: template.id,
        segment_id: segment.id,
        from_email_override: 'x@unverified.example',
        field: 'from_email_override',
      },
    ];
    for (const { field, ...body } of refusals) {
      const res = await biz.client.marketing.campaigns.createCampaign({ body: { name: 'Nope', ...body } });
      expect(res.status).toBe(422);
      expect(JSON.stringify(res.body)).toContain(field);
    }
    expect((await unwrap(biz.client.marketing.campaigns.listCampaigns({ query: {} }))).total_count).toBe(1);
    expect(
      (
        await stranger.biz.client.marketing.campaigns.getCampaign({
          params: { id: (await draft(0)).campaign.id },
        })
      ).status,
    ).toBe(404);
  });

  it('refuses every move its state forbids with 409 INVALID_STATE, changing nothing', async () => {
    const { biz, campaign } = await draft(1);
    const c = biz.client.marketing.campaigns;
    const params = { id: campaign.id };
    const expect409 = async (res: Promise<{ status: number; body: unknown }>) => {
      const r = await res;
      expect(r.status).toBe(409);
      expect(r.body).toMatchObject({ error: { code: 'INVALID_STATE' } });
    };
    // draft: pause, resume and analytics refused
    await expect409(c.pauseCampaign({ params }));
    await expect409(c.resumeCampaign({ params }));
    await expect409(c.getCampaignAnalytics({ params }));
    await send(biz.client, campaign.id);
    await campaignReaches(biz.client, campaign.id, 'sent');
    // sent: nothing moves it
    await expect409(c.sendCampaign({ params }));
    await expect409(
      c.scheduleCampaign({ params, body: { scheduled_at: new Date(Date.now() + 3_600_000).toISOString() } }),
    );
    await expect409(c.pauseCampaign({ params }));
    await expect409(c.resumeCampaign({ params }));
    await expect409(c.cancelCampaign({ params }));
    expect(await state(biz.client, campaign.id)).toBe('sent');
    // cancelled: irreversible
    const second = await draft(1);
    const p2 = { id: second.campaign.id };
    const c2 = second.biz.client.marketing.campaigns;
    await unwrap(c2.cancelCampaign({ params: p2 }));
    await expect409(c2.sendCampaign({ params: p2 }));
    await expect409(
      c2.scheduleCampaign({
        params: p2,
        body: { scheduled_at: new Date(Date.now() + 3_600_000).toISOString() },
      }),
    );
    await expect409(c2.cancelCampaign({ params: p2 }));
    expect(await state(second.biz.client, second.campaign.id)).toBe('cancelled');
    expect(sink().to(second.people[0]!.email!)).toEqual([]);
  });

  it('schedules a draft (422 for a time not ahead), fires it at scheduled_at on the clock, and sends', async () => {
    const { biz, campaign, people } = await draft(2);
    const c = biz.client.marketing.campaigns;
    const past = await c.scheduleCampaign({
      params: { id: campaign.id },
      body: { scheduled_at: new Date(server().clock.now().getTime() - 1000).toISOString() },
    });
    expect(past.status).toBe(422);
    const at = new Date(server().clock.now().getTime() + 3_600_000);
    const scheduled = await unwrap(
      c.scheduleCampaign({ params: { id: campaign.id }, body: { scheduled_at: at.toISOString() } }),
    );
    expect(scheduled.scheduled_at).toBe(at.toISOString());
    // a scheduled campaign may be paused, and resumes to scheduled while its time is ahead
    await unwrap(c.pauseCampaign({ params: { id: campaign.id } }));
    expect((await unwrap(c.resumeCampaign({ params: { id: campaign.id } }))).status).toBe('scheduled');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await state(biz.client, campaign.id)).toBe('scheduled');
    expect(messagesTo(people.map((p) => p.email!))).toEqual([]);
    server().clock.advance(3_600_000 + 1000);
    const sent = await campaignReaches(biz.client, campaign.id, 'sent');
    expect(sent.recipients_count).toBe(2);
    expect(messagesTo(people.map((p) => p.email!))).toHaveLength(2);
  });
});

describe('sending', () => {
  it('sends one message per eligible contact, with merge fields escaped, the headers and the links', async () => {
    const biz = await registerBusiness(server());
    const ada = await createCustomer(biz.client, {
      name: 'Ada Lovelace',
      first_name: '<b>Ada</b>',
      email: address('ada'),
    });
    const bob = await createCustomer(biz.client, { name: 'Bob Stone', email: address('bob') });
    await createCustomer(biz.client, { name: 'No Email' });
    const gone = await createCustomer(biz.client, {
      name: 'Gone Away',
      email: address('gone'),
      unsubscribed: true,
    });
    const bounced = await createCustomer(biz.client, { name: 'Bad Box', email: address('bad') });
    await unwrap(
      biz.client.marketing.campaigns.reportBounce({
        body: { email: bounced.email!.toUpperCase(), type: 'hard' },
      }),
    );
    const template = await createTemplate(biz.client, {
      subject: 'Hello {{first_name}}',
      html_body:
        '<html><body><p>Dear {{first_name}} of {{company}},</p>' +
        '<p><a href="https://shop.example/offer?a=1&amp;b=2">See the offer</a></p></body></html>',
    });
    const segment = await createSegment(biz.client);
    const campaign = await createCampaign(biz.client, {
      template_id: template.id,
      segment_id: segment.id,
      reply_to: 'support@acme.example',
    });

    const started = await send(biz.client, campaign.id);
    expect(started.recipients_count).toBe(2);
    const done = await campaignReaches(biz.client, campaign.id, 'sent');
    expect(done.recipients_count).toBe(2);
    expect(done.sent_at).not.toBeNull();

    expect(sink().to(gone.email!)).toEqual([]);
    expect(sink().to(bounced.email!)).toEqual([]);
    const [toAda, ...more] = sink().to(ada.email!);
    expect(more).toEqual([]);
    expect(sink().to(bob.email!)).toHaveLength(1);
    const m = toAda!;
    expect(m.mail.from?.value).toEqual([{ name: 'Acme', address: `news@${TRUSTED_DOMAIN}` }]);
    expect(m.mail.replyTo?.value[0]?.address).toBe('support@acme.example');
    expect(m.mail.subject).toBe('Hello <b>Ada</b>');
    expect(m.mail.messageId).toMatch(new RegExp(`^<${campaign.id}\\.${ada.id}@`));
    expect(m.header('list-unsubscribe')).toMatch(
      /^<https?:\/\/[^>]+\/u\/[^>]+>, <mailto:unsubscribe@trusted\.example\.test\?subject=unsubscribe>$/,
    );
    expect(m.header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    const html = String(m.mail.html);
    expect(html).toMatch(/Dear &lt;b&gt;Ada&lt;(\/|&#x2F;)b&gt; of ,/);
    expect(html).not.toContain('<b>Ada</b>');
    expect(html).not.toContain('href="https://shop.example/offer');
    expect(html).toMatch(/href="https?:\/\/[^"]+\/t\/c\/[^"]+"/);
    expect(html).toMatch(/<img src="https?:\/\/[^"]+\/t\/o\/[^"]+"/);
    expect(html).toMatch(/href="https?:\/\/[^"]+\/u\/[^"]+">Unsubscribe</);
    expect(m.mail.text).toContain('Dear <b>Ada</b> of ,');
    expect(m.mail.text).toMatch(/Unsubscribe: https?:\/\/\S+\/u\/\S+/);

    const recipients = await campaignRecipients(biz.client, campaign.id);
    expect(recipients.map((r) => [r.email, r.status]).sort()).toEqual(
      [
        [ada.email, 'sent'],
        [bob.email, 'sent'],
      ].sort(),
    );
    expect(recipients.every((r) => r.sent_at !== null && r.error === null)).toBe(true);
  });

  it('signs mail from a verified domain with its DKIM key, covering List-Unsubscribe', async () => {
    const biz = await registerBusiness(server());
    const domain = await verifiedDomain(biz.client, server().dns);
    const [person] = await contacts(biz.client, 1, 'dkim');
    const template = await createTemplate(biz.client, { from_email: `news@${domain.domain}` });
    const segment = await createSegment(biz.client);
    const campaign = await createCampaign(biz.client, { template_id: template.id, segment_id: segment.id });
    await send(biz.client, campaign.id);
    await campaignReaches(biz.client, campaign.id, 'sent');
    const [message] = sink().to(person!.email!);
    const result = await verifyDkim(message!.raw, server().dns);
    const [signature] = result.results;
    expect(signature?.signingDomain).toBe(domain.domain);
    expect(signature?.status.result).toBe('pass');
    const signed = (signature?.signingHeaders?.keys ?? '')
      .toLowerCase()
      .split(':')
      .map((k) => k.trim());
    expect(signed).toEqual(
      expect.arrayContaining(['list-unsubscribe', 'list-unsubscribe-post', 'from', 'subject']),
    );

    // Altered after signing: the signature no longer verifies.
    const tampered = Buffer.from(message!.raw.toString('utf8').replace(/^Subject: .*$/m, 'Subject: Changed'));
    const broken = await verifyDkim(tampered, server().dns);
    expect(broken.results[0]?.status.result).not.toBe('pass');
  });

  it('pauses mid-send, sends nobody more, then resumes with only the rest, each once', async () => {
    const lanes = sendingLanes(server().deps.config);
    const total = 3 * lanes + 30;
    const { biz, campaign, people } = await draft(total, {}, 'pause');
    const emails = people.map((p) => p.email!);
    sink().delayMs = 100;
    await send(biz.client, campaign.id);
    await waitFor('some messages', () => messagesTo(emails).length >= 5);
    await unwrap(biz.client.marketing.campaigns.pauseCampaign({ params: { id: campaign.id } }));
    // In-flight messages settle; no new claim is made.
    await waitFor('claims settled', async () =>
      (await campaignRecipients(biz.client, campaign.id)).every((r) => r.status !== 'sending'),
    );
    // A claim needs a sending campaign (the claim's own condition): with none in flight the count is
    // final, and every message the server took is a recipient marked sent.
    const atPause = messagesTo(emails).length;
    // What had been sent, and what the lanes had under way until they saw the pause (within 100 ms).
    expect(atPause).toBeLessThan(2 * lanes + 10);
    const paused = await getCampaign(biz.client, campaign.id);
    expect(paused.status).toBe('paused');
    const recipients = await campaignRecipients(biz.client, campaign.id);
    expect(recipients.filter((r) => r.status === 'sent')).toHaveLength(atPause);
    expect(recipients.filter((r) => r.status === 'queued')).toHaveLength(total - atPause);
    expect((await analyticsOf(biz.client, campaign.id)).delivered).toBe(atPause);

    sink().delayMs = 0;
    const resumed = await unwrap(
      biz.client.marketing.campaigns.resumeCampaign({ params: { id: campaign.id } }),
    );
    expect(resumed.status).toBe('sending');
    await campaignReaches(biz.client, campaign.id, 'sent');
    for (const email of emails) expect(sink().to(email), email).toHaveLength(1);
  });

  it('retries a 4xx refusal with backoff until accepted, and bounces and suppresses on a 5xx', async () => {
    const { biz, campaign, people, template, segment } = await draft(3, {}, 'retry');
    const [later, never, fine] = people.map((p) => p.email!) as [string, string, string];
    sink().answer = (email, attempt) => {
      if (email === later && attempt <= 2) return { code: 451, message: '4.7.1 Try again later' };
      if (email === never) return { code: 550, message: '5.1.1 No such user' };
      return null;
    };
    await send(biz.client, campaign.id);
    await waitFor('first attempts', () => sink().attempts.get(later) === 1 && sink().to(fine).length === 1);
    await waitFor('the bounce settled', async () =>
      (await campaignRecipients(biz.client, campaign.id)).some(
        (r) => r.email === never && r.status === 'bounced',
      ),
    );
    let recipients = await campaignRecipients(biz.client, campaign.id);
    expect(recipients.find((r) => r.email === later)).toMatchObject({ status: 'queued' });
    expect(recipients.find((r) => r.email === later)?.error).toContain('451');
    expect(recipients.find((r) => r.email === never)?.error).toContain('550');
    expect(await state(biz.client, campaign.id)).toBe('sending');

    // Not before the backoff: 1 s, then 2 s.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(sink().attempts.get(later)).toBe(1);
    server().clock.advance(RETRY_BASE_MS);
    await waitFor('second attempt', () => sink().attempts.get(later) === 2);
    server().clock.advance(2 * RETRY_BASE_MS);
    await campaignReaches(biz.client, campaign.id, 'sent');
    expect(sink().attempts.get(later)).toBe(3);
    expect(sink().to(later)).toHaveLength(1);
    expect(sink().to(never)).toHaveLength(0);
    recipients = await campaignRecipients(biz.client, campaign.id);
    expect(recipients.find((r) => r.email === later)).toMatchObject({ status: 'sent', error: null });
    const analytics = await analyticsOf(biz.client, campaign.id);
    expect(analytics).toMatchObject({ recipients: 3, delivered: 2, bounced: 1, bounce_rate: 33.33 });

    // The bounced address is suppressed for the next campaign.
    const next = await createCampaign(biz.client, { template_id: template.id, segment_id: segment.id });
    expect((await send(biz.client, next.id)).recipients_count).toBe(2);
  });

  it('skips a recipient who unsubscribed or was suppressed after sending started', async () => {
    const { biz, campaign, people } = await draft(3, {}, 'skip');
    const [leaving, bounced, staying] = people as [
      (typeof people)[0],
      (typeof people)[0],
      (typeof people)[0],
    ];
    // The first two are refused for now, so they are still queued when their status changes.
    sink().answer = (email, attempt) =>
      attempt === 1 && email !== staying.email ? { code: 451, message: '4.7.1 Later' } : null;
    await send(biz.client, campaign.id);
    await waitFor(
      'first attempts',
      () => sink().attempts.get(bounced.email!) === 1 && sink().to(staying.email!).length === 1,
    );
    await waitFor(
      'retries queued',
      async () =>
        (await campaignRecipients(biz.client, campaign.id)).filter((r) => r.status === 'queued').length === 2,
    );
    await unwrap(
      biz.client.general.customers.updateCustomer({
        params: { id: leaving.id },
        body: { unsubscribed: true },
      }),
    );
    await unwrap(
      biz.client.marketing.campaigns.reportBounce({ body: { email: bounced.email!, type: 'complaint' } }),
    );
    server().clock.advance(RETRY_BASE_MS);
    await campaignReaches(biz.client, campaign.id, 'sent');
    expect(sink().to(leaving.email!)).toEqual([]);
    expect(sink().to(bounced.email!)).toEqual([]);
    const statuses = Object.fromEntries(
      (await campaignRecipients(biz.client, campaign.id)).map((r) => [r.email, r.status]),
    );
    expect(statuses).toEqual({
      [leaving.email!]: 'skipped',
      [bounced.email!]: 'skipped',
      [staying.email!]: 'sent',
    });
  });

  it('marks a recipient failed after the first attempt and three retries, all refused for now', async () => {
    const { biz, campaign, people } = await draft(1, {}, 'fail');
    const email = people[0]!.email!;
    sink().answer = () => ({ code: 452, message: '4.2.2 Mailbox full' });
    await send(biz.client, campaign.id);
    for (let attempt = 1; attempt <= 4; attempt++) {
      // Each retry waits for a worker's next pass: up to 20 s on a loaded machine.
      await waitFor(`attempt ${attempt}`, () => sink().attempts.get(email) === attempt, 20_000);
      server().clock.advance(RETRY_BASE_MS * 2 ** (attempt - 1));
    }
    const sent = await campaignReaches(biz.client, campaign.id, 'sent');
    expect(sent.recipients_count).toBe(1);
    const [recipient] = await campaignRecipients(biz.client, campaign.id);
    expect(recipient).toMatchObject({ status: 'failed', sent_at: null });
    expect(recipient?.error).toContain('452');
    expect(sink().attempts.get(email)).toBe(4);
  }, 90_000);

  it('pauses itself when more than 20% of the last attempts failed, and emails the business', async () => {
    const { biz, campaign, people } = await draft(30, {}, 'auto');
    const emails = people.map((p) => p.email!);
    sink().answer = (email) =>
      emails.indexOf(email) % 3 === 0 ? { code: 451, message: '4.2.0 Mailbox busy' } : null;
    await send(biz.client, campaign.id);
    const paused = await campaignReaches(biz.client, campaign.id, 'paused');
    expect(paused.paused_reason).toMatch(/^\d+ of the last \d+ attempts failed$/);
    const notice = await waitFor('the notice', () => sink().to(biz.email)[0]);
    expect(notice.mail.subject).toBe(`Campaign "${paused.name}" paused`);
    expect(notice.mail.text).toContain(campaign.id);
    // Nothing more goes while paused: the messages other lanes had already handed to the server
    // when the pause was decided finish (waited for as no recipient left in flight), and a claim
    // needs a sending campaign, so the rest stay queued and every message sent is a recipient's.
    await waitFor('in-flight messages to settle', async () =>
      (await campaignRecipients(biz.client, campaign.id)).every((r) => r.status !== 'sending'),
    );
    const recipients = await campaignRecipients(biz.client, campaign.id);
    const count = messagesTo(emails).length;
    expect(count).toBeLessThan(emails.length);
    expect(recipients.filter((r) => r.status === 'sent')).toHaveLength(count);
    expect(recipients.filter((r) => r.status === 'queued').length).toBeGreaterThan(0);
    expect((await getCampaign(biz.client, campaign.id)).status).toBe('paused');
  });
});

describe('tracking and unsubscribe', () => {
  async function sentTo(n: number) {
    const setup = await draft(
      n,
      {
        html_body:
          '<p>Hi {{first_name}}</p><p><a href="https://shop.example/a?x=1">A</a> <a href="https://shop.example/b">B</a></p>',
      },
      'track',
    );
    await send(setup.biz.client, setup.campaign.id);
    await campaignReaches(setup.biz.client, setup.campaign.id, 'sent');
    const messageOf = (i: number): SinkMessage => sink().to(setup.people[i]!.email!)[0]!;
    return { ...setup, messageOf };
  }

  it('counts an open once per recipient, not a prefetch within 2 s of delivery', async () => {
    const { biz, campaign, messageOf } = await sentTo(3);
    const pixel = (i: number) => linkPath(String(messageOf(i).mail.html), /\/t\/o\//);
    // Within 2 s of delivery: a scanner's prefetch, recorded but not counted.
    const early = await fetch(`${server().baseUrl}${pixel(0)}`);
    expect(early.status).toBe(200);
    expect(early.headers.get('content-type')).toBe('image/gif');
    expect((await analyticsOf(biz.client, campaign.id)).opened).toBe(0);
    server().clock.advance(5000);
    for (let k = 0; k < 3; k++) await fetch(`${server().baseUrl}${pixel(0)}`);
    await fetch(`${server().baseUrl}${pixel(1)}`, {
      headers: { 'user-agent': 'Mozilla/5.0 (compatible; Proofpoint URL Defense)' },
    });
    const analytics = await analyticsOf(biz.client, campaign.id);
    expect(analytics).toMatchObject({ recipients: 3, delivered: 3, opened: 1, clicked: 0, open_rate: 33.33 });
    const events = await server()
      .deps.db.selectFrom('marketing_tracking_events')
      .select(['kind', 'counted'])
      .where('campaign_id', '=', campaign.id)
      .execute();
    expect(events.filter((e) => e.kind === 'open')).toHaveLength(5);
    expect(events.filter((e) => e.counted)).toHaveLength(3);
  });

  it("redirects a click to the campaign's own link only, counting it once and as an open", async () => {
    const { biz, campaign, messageOf } = await sentTo(2);
    server().clock.advance(5000);
    const html = String(messageOf(0).mail.html);
    const click = linkPath(html, /\/t\/c\//);
    const res = await fetch(`${server().baseUrl}${click}`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('https://shop.example/a?x=1');
    await fetch(`${server().baseUrl}${click}`, { redirect: 'manual' });
    expect(await analyticsOf(biz.client, campaign.id)).toMatchObject({
      opened: 1,
      clicked: 1,
      click_rate: 50,
    });
    const [first] = (await campaignRecipients(biz.client, campaign.id)).filter((r) => r.clicked_at !== null);
    expect(first?.opened_at).toBe(first?.clicked_at);

    // Another target, a foreign signature or an altered token: 404, no redirect anywhere.
    const url = new URL(click, server().baseUrl);
    const elsewhere = new URL(url);
    elsewhere.searchParams.set('u', 'https://evil.example/');
    const otherToken = linkPath(String(messageOf(1).mail.html), /\/t\/c\//);
    const crossed = new URL(url);
    crossed.searchParams.set('s', new URL(otherToken, server().baseUrl).searchParams.get('s')!);
    const altered = new URL(url);
    altered.pathname = url.pathname.replace(/.$/, (ch) => (ch === 'A' ? 'B' : 'A'));
    for (const bad of [elsewhere, crossed, altered]) {
      const r = await fetch(bad, { redirect: 'manual' });
      expect(r.status, bad.toString()).toBe(404);
      expect(r.headers.get('location')).toBeNull();
    }
    expect((await fetch(`${server().baseUrl}/t/o/not-a-token`)).status).toBe(404);
    expect((await analyticsOf(biz.client, campaign.id)).clicked).toBe(1);
  });

  it('unsubscribes through the one-click POST, never through the GET page, and counts it', async () => {
    const { biz, campaign, people, messageOf, template, segment } = await sentTo(2);
    const link = /<(https?:\/\/[^>]+)>/.exec(messageOf(0).header('list-unsubscribe') ?? '')![1]!;
    const path = new URL(link).pathname;
    expect(String(messageOf(0).mail.html)).toContain(path);

    const page = await fetch(`${server().baseUrl}${path}`);
    expect(page.status).toBe(200);
    const body = await page.text();
    expect(body).toContain(`<form method="post" action="${path}">`);
    const customer = async () =>
      (await unwrap(biz.client.general.customers.getCustomer({ params: { id: people[0]!.id } }))).data;
    expect((await customer()).unsubscribed).toBe(false);

    const post = await raw(server(), 'POST', path, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(post.status).toBe(200);
    expect((await customer()).unsubscribed).toBe(true);
    // Again: still 200, counted once.
    expect((await raw(server(), 'POST', path)).status).toBe(200);
    expect(await analyticsOf(biz.client, campaign.id)).toMatchObject({
      unsubscribed: 1,
      unsubscribe_rate: 50,
    });
    expect((await raw(server(), 'POST', `${path.slice(0, -2)}xx`)).status).toBe(404);

    const next = await createCampaign(biz.client, { template_id: template.id, segment_id: segment.id });
    expect((await send(biz.client, next.id)).recipients_count).toBe(1);
  });
});

describe('bounce and complaint reports', () => {
  it('counts hard bounces and complaints on the campaign and suppresses the address; soft ones do not', async () => {
    const { biz, campaign, people, template, segment } = await draft(4, {}, 'report');
    await send(biz.client, campaign.id);
    await campaignReaches(biz.client, campaign.id, 'sent');
    const report = (email: string, type: 'hard' | 'soft' | 'complaint') =>
      unwrap(
        biz.client.marketing.campaigns.reportBounce({
          body: { email, type, campaign_id: campaign.id, reason: `${type} report` },
        }),
      );
    await report(people[0]!.email!, 'hard');
    await report(people[1]!.email!, 'complaint');
    await report(people[2]!.email!, 'soft');
    expect(await analyticsOf(biz.client, campaign.id)).toMatchObject({
      recipients: 4,
      bounced: 1,
      spam_reports: 1,
      bounce_rate: 25,
    });
    const unknown = await biz.client.marketing.campaigns.reportBounce({
      body: { email: people[3]!.email!, type: 'hard', campaign_id: 'cmp_01JD7X2R5VQ8N3K4M6P9T1W2Y3' },
    });
    expect(unknown.status).toBe(422);
    const next = await createCampaign(biz.client, { template_id: template.id, segment_id: segment.id });
    expect((await send(biz.client, next.id)).recipients_count).toBe(2);
  });

  it("keeps one business's suppressions from another's campaigns", async () => {
    const a: TestBusiness = await registerBusiness(server());
    const shared = address('shared');
    await unwrap(a.client.marketing.campaigns.reportBounce({ body: { email: shared, type: 'complaint' } }));
    const b = await draft(0);
    await createCustomer(b.biz.client, { name: 'Shared Person', email: shared });
    expect((await send(b.biz.client, b.campaign.id)).recipients_count).toBe(1);
    await campaignReaches(b.biz.client, b.campaign.id, 'sent');
    expect(sink().to(shared)).toHaveLength(1);
  });
});
