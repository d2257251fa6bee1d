import { afterEach, describe, expect, it, vi } from 'vitest';
import { unwrap } from '../../client/index.js';
import { runSending } from '../../server/marketing/sending/service.js';
import { registerBusiness, type TestBusiness } from '../support/business.js';
import { onPostgres } from '../support/database.js';
import { expectResultError } from '../support/expect.js';
import { createCustomer } from '../support/general.js';
import {
  campaignRecipients,
  createCampaign,
  createSegment,
  createTemplate,
  getCampaign,
  MARKETING_ENV,
} from '../support/marketing.js';
import { useTestServer } from '../support/setup.js';

// A campaign whose template or segment is gone has nothing it can send. Sending or scheduling it is
// refused (422), a delete racing a send has one winner, and a campaign that reached `sending` or its
// scheduled time without them (rows older than the rule) is paused once by the worker.
//
// A pool large enough that the delete and the sends really run at once on PostgreSQL (the row
// locks, not the pool, order them); on PGlite the engine serialises them, and the same outcome
// must hold. The worker is driven by the test (runSending), so no pass runs behind its back.
const server = useTestServer({
  env: { ...MARKETING_ENV, DB_POOL_SIZE: '30', ACCESS_TOKEN_TTL: '3650d' },
  worker: false,
});

afterEach(() => {
  server().clock.reset();
  vi.restoreAllMocks();
});

const where = onPostgres ? 'on PostgreSQL, under real concurrency' : 'on PGlite, serialised by the engine';

let counter = 0;
const address = () => `orphan-${++counter}-${Date.now().toString(36)}@contacts.example.test`;

/** A business with two contacts, a template, an "Everyone" segment and a draft campaign of them. */
async function draft(biz?: TestBusiness) {
  const owner = biz ?? (await registerBusiness(server()));
  if (!biz) {
    await createCustomer(owner.client, { name: 'Ada Lovelace', email: address() });
    await createCustomer(owner.client, { name: 'Bob Stone', email: address() });
  }
  const template = await createTemplate(owner.client);
  const segment = await createSegment(owner.client);
  const campaign = await createCampaign(owner.client, { template_id: template.id, segment_id: segment.id });
  return { biz: owner, template, segment, campaign };
}

const recipientRows = async (campaignId: string) =>
  Number(
    (
      await server()
        .deps.db.selectFrom('marketing_recipients')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('campaign_id', '=', campaignId)
        .executeTakeFirstOrThrow()
    ).n,
  );

const inAnHour = () => new Date(server().clock.now().getTime() + 3_600_000).toISOString();

/**
 * Soft-deletes a template or segment behind the API's back: how a campaign that is already
 * scheduled or sending comes to lack one (rows written before the rule, or any other path).
 */
async function vanish(table: 'marketing_templates' | 'marketing_segments', id: string): Promise<void> {
  const now = new Date();
  await server()
    .deps.db.updateTable(table)
    .set({ deleted_at: now, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** Warnings and errors the worker logs while `run` goes. */
async function logged(run: () => Promise<unknown>) {
  const warn = vi.spyOn(server().deps.log, 'warn');
  const error = vi.spyOn(server().deps.log, 'error');
  await run();
  const calls = { warnings: warn.mock.calls.map((c) => c), errors: error.mock.calls.map((c) => c) };
  warn.mockRestore();
  error.mockRestore();
  return calls;
}

describe('sending or scheduling a campaign whose template or segment was deleted', () => {
  const cases = [
    { part: 'template', field: 'template_id' },
    { part: 'segment', field: 'segment_id' },
  ] as const;

  it.each(cases)(
    'refuses to send a draft whose $part was deleted (422 naming $field), changing nothing',
    async ({ part, field }) => {
      const { biz, template, segment, campaign } = await draft();
      if (part === 'template') {
        await unwrap(biz.client.marketing.templates.deleteTemplate({ params: { id: template.id } }));
      } else {
        await unwrap(biz.client.marketing.segments.deleteSegment({ params: { id: segment.id } }));
      }
      const res = await biz.client.marketing.campaigns.sendCampaign({ params: { id: campaign.id } });
      const error = expectResultError(res, 422, 'VALIDATION_ERROR', field);
      // The message says what to do about it, not only what is wrong.
      expect(error.message).toMatch(new RegExp(`${part} was deleted`, 'i'));
      expect(error.message).toMatch(/create a campaign with another/i);
      expect(await getCampaign(biz.client, campaign.id)).toEqual(campaign);
      expect(await recipientRows(campaign.id)).toBe(0);
    },
  );

  it.each(cases)(
    'refuses to schedule a draft whose $part was deleted (422 naming $field), changing nothing',
    async ({ part, field }) => {
      const { biz, template, segment, campaign } = await draft();
      if (part === 'template') {
        await unwrap(biz.client.marketing.templates.deleteTemplate({ params: { id: template.id } }));
      } else {
        await unwrap(biz.client.marketing.segments.deleteSegment({ params: { id: segment.id } }));
      }
      const res = await biz.client.marketing.campaigns.scheduleCampaign({
        params: { id: campaign.id },
        body: { scheduled_at: inAnHour() },
      });
      expectResultError(res, 422, 'VALIDATION_ERROR', field);
      expect(await getCampaign(biz.client, campaign.id)).toEqual(campaign);
      expect(await recipientRows(campaign.id)).toBe(0);
    },
  );

  it('names both fields when both are gone, and still lets the draft be cancelled', async () => {
    const { biz, template, segment, campaign } = await draft();
    await unwrap(biz.client.marketing.templates.deleteTemplate({ params: { id: template.id } }));
    await unwrap(biz.client.marketing.segments.deleteSegment({ params: { id: segment.id } }));
    const res = await biz.client.marketing.campaigns.sendCampaign({ params: { id: campaign.id } });
    const error = expectResultError(res, 422, 'VALIDATION_ERROR', 'template_id');
    expect(error.details?.map((d) => d.field).sort()).toEqual(['segment_id', 'template_id']);
    await unwrap(biz.client.marketing.campaigns.cancelCampaign({ params: { id: campaign.id } }));
    expect((await getCampaign(biz.client, campaign.id)).status).toBe('cancelled');
  });
});

describe(`a template delete racing five sends of a campaign using it (${where})`, () => {
  it('has exactly one winner: the delete (every send 422) or one send (the delete 409)', async () => {
    const biz = await registerBusiness(server());
    await createCustomer(biz.client, { name: 'Ada Lovelace', email: address() });
    const outcomes: string[] = [];
    for (let round = 0; round < 6; round++) {
      const { template, campaign } = await draft(biz);
      const params = { id: campaign.id };
      // All six at once; the delete goes out first in even rounds and last in odd ones, so that
      // either may reach the row locks first.
      const remove = () => biz.client.marketing.templates.deleteTemplate({ params: { id: template.id } });
      const sendAll = () =>
        Array.from({ length: 5 }, () => biz.client.marketing.campaigns.sendCampaign({ params }));
      const [removal, sends] =
        round % 2 === 0
          ? await Promise.all([remove(), Promise.all(sendAll())])
          : await Promise.all([Promise.all(sendAll()), remove()]).then(([s, r]) => [r, s] as const);
      const after = await getCampaign(biz.client, campaign.id);
      const templateRow = await server()
        .deps.db.selectFrom('marketing_templates')
        .select('deleted_at')
        .where('id', '=', template.id)
        .executeTakeFirstOrThrow();
      if (removal.status === 200) {
        outcomes.push('delete');
        for (const send of sends) expectResultError(send, 422, 'VALIDATION_ERROR', 'template_id');
        expect(after).toEqual(campaign);
        expect(await recipientRows(campaign.id)).toBe(0);
        expect(templateRow.deleted_at).not.toBeNull();
      } else {
        outcomes.push('send');
        expectResultError(removal, 409, 'RESOURCE_IN_USE');
        expect(sends.filter((s) => s.status === 200)).toHaveLength(1);
        for (const send of sends.filter((s) => s.status !== 200)) {
          expectResultError(send, 409, 'INVALID_STATE');
        }
        expect(after.status).toBe('sending');
        expect(after.recipients_count).toBe(1);
        expect(templateRow.deleted_at).toBeNull();
      }
    }
    expect(outcomes).toHaveLength(6);
    // Never a campaign sending (or scheduled, or paused) whose template is gone.
    const orphans = await server()
      .deps.db.selectFrom('marketing_campaigns as c')
      .innerJoin('marketing_templates as t', (join) =>
        join.onRef('t.business_id', '=', 'c.business_id').onRef('t.id', '=', 'c.template_id'),
      )
      .select('c.id')
      .where('c.business_id', '=', biz.businessId)
      .where('c.status', 'in', ['scheduled', 'sending', 'paused'])
      .where('t.deleted_at', 'is not', null)
      .execute();
    expect(orphans).toEqual([]);
  });
});

describe('the sending worker and a campaign whose template or segment is gone', () => {
  it('pauses a sending campaign whose template is gone once, with its reason and one warning, and it can be cancelled', async () => {
    const { biz, template, campaign } = await draft();
    await unwrap(biz.client.marketing.campaigns.sendCampaign({ params: { id: campaign.id } }));
    await vanish('marketing_templates', template.id);

    const first = await logged(() => runSending(server().deps));
    const paused = await getCampaign(biz.client, campaign.id);
    expect(paused.status).toBe('paused');
    expect(paused.paused_reason).toMatch(/template was deleted/i);
    expect(first.errors).toEqual([]);
    expect(first.warnings).toHaveLength(1);
    expect(first.warnings[0]?.[0]).toMatchObject({ campaignId: campaign.id });
    // The business is told, as for the automatic pause on failures.
    const notices = await server()
      .deps.db.selectFrom('mail_messages')
      .select(['to_address', 'subject', 'body'])
      .where('business_id', '=', biz.businessId)
      .execute();
    expect(notices).toEqual([
      {
        to_address: biz.email,
        subject: `Campaign "${campaign.name}" paused`,
        body: expect.stringContaining(campaign.id),
      },
    ]);
    expect(notices[0]?.body).toMatch(/template was deleted/i);

    // Later passes leave it alone: no warning, no error, nothing sent.
    const later = await logged(async () => {
      await runSending(server().deps);
      await runSending(server().deps);
    });
    expect(later).toEqual({ warnings: [], errors: [] });
    expect((await campaignRecipients(biz.client, campaign.id)).map((r) => r.status)).toEqual([
      'queued',
      'queued',
    ]);

    // It cannot go back to sending with nothing to send; it can be cancelled.
    const resume = await biz.client.marketing.campaigns.resumeCampaign({ params: { id: campaign.id } });
    expectResultError(resume, 422, 'VALIDATION_ERROR', 'template_id');
    expect((await getCampaign(biz.client, campaign.id)).status).toBe('paused');
    await unwrap(biz.client.marketing.campaigns.cancelCampaign({ params: { id: campaign.id } }));
    expect((await getCampaign(biz.client, campaign.id)).status).toBe('cancelled');
    expect((await campaignRecipients(biz.client, campaign.id)).map((r) => r.status)).toEqual([
      'skipped',
      'skipped',
    ]);
  });

  it.each([
    { part: 'template', table: 'marketing_templates' },
    { part: 'segment', table: 'marketing_segments' },
  ] as const)(
    'pauses a scheduled campaign that comes due without its $part, resolving no recipient',
    async ({ part, table }) => {
      const { biz, template, segment, campaign } = await draft();
      await unwrap(
        biz.client.marketing.campaigns.scheduleCampaign({
          params: { id: campaign.id },
          body: { scheduled_at: inAnHour() },
        }),
      );
      await vanish(table, part === 'template' ? template.id : segment.id);
      server().clock.advance(3_600_000 + 1000);

      const first = await logged(() => runSending(server().deps));
      const paused = await getCampaign(biz.client, campaign.id);
      expect(paused).toMatchObject({ status: 'paused', recipients_count: 0, sent_at: null });
      expect(paused.paused_reason).toMatch(new RegExp(`${part} was deleted`, 'i'));
      expect(first.errors).toEqual([]);
      expect(first.warnings).toHaveLength(1);
      expect(await recipientRows(campaign.id)).toBe(0);

      const later = await logged(() => runSending(server().deps));
      expect(later).toEqual({ warnings: [], errors: [] });
      const resume = await biz.client.marketing.campaigns.resumeCampaign({ params: { id: campaign.id } });
      expectResultError(resume, 422, 'VALIDATION_ERROR', `${part}_id`);
      await unwrap(biz.client.marketing.campaigns.cancelCampaign({ params: { id: campaign.id } }));
      expect((await getCampaign(biz.client, campaign.id)).status).toBe('cancelled');
    },
  );

  it('still starts the other due campaigns of the pass', async () => {
    const broken = await draft();
    const fine = await draft();
    for (const { biz, campaign } of [broken, fine]) {
      await unwrap(
        biz.client.marketing.campaigns.scheduleCampaign({
          params: { id: campaign.id },
          body: { scheduled_at: inAnHour() },
        }),
      );
    }
    await vanish('marketing_templates', broken.template.id);
    server().clock.advance(3_600_000 + 1000);
    await runSending(server().deps);
    expect((await getCampaign(broken.biz.client, broken.campaign.id)).status).toBe('paused');
    expect(await getCampaign(fine.biz.client, fine.campaign.id)).toMatchObject({
      status: 'sent',
      recipients_count: 2,
    });
  });
});
