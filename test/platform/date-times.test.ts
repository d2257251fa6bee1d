import { describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import { DateTimeSchema, isInstant } from '../../contract/common/schemas.js';
import { json, raw, registerBusiness, sandboxOf } from '../support/business.js';
import { expectResultError } from '../support/expect.js';
import { createCampaign, createSegment, createTemplate, MARKETING_ENV } from '../support/marketing.js';
import { useTestServer } from '../support/setup.js';

const server = useTestServer({ env: MARKETING_ENV, worker: false });

/** Offsets no time zone has, and minutes past 59: PostgreSQL would be handed NaN for each. */
const BAD_OFFSETS = ['+24:00', '+99:00', '-99:59', '+00:60', '-24:00', '+2400', '+9900'];

describe('one date-time schema for every date-time of a request', () => {
  it('refuses offsets of 24 hours or more, minutes past 59 and instants that are not real', () => {
    for (const offset of BAD_OFFSETS) expect(isInstant(`2026-12-01T09:00:00${offset}`), offset).toBe(false);
    for (const value of [
      '2026-02-30T09:00:00Z', // no such day
      '2026-12-01T24:00:00Z',
      '2026-12-01T09:60:00Z',
      '2026-12-01T09:00:60Z', // a leap second JavaScript cannot hold
      '0000-01-01T00:00:00Z', // before the year 1
      '0001-01-01T00:00:00+01:00', // the year 0 in UTC
      '9999-12-31T23:00:00-05:00', // the year 10000 in UTC
      '2026-12-01T09:00:00', // no offset: which instant?
      '2026-12-01 09:00:00Z',
      '2026-12-01T09:00:00.1234567890Z',
      '+002026-12-01T09:00:00Z',
    ]) {
      expect(isInstant(value), value).toBe(false);
    }
    for (const value of [
      '2026-12-01T09:00:00Z',
      '2026-12-01T09:00:00.866Z',
      '2026-12-01T09:00:00+23:59',
      '2026-12-01T09:00:00-23:59',
      '2026-12-01T09:00:00+05:30',
      '2026-12-01T09:00:00-0800',
      '2028-02-29T00:00:00Z',
      '0001-01-01T00:00:00Z',
      '9999-12-31T23:59:59.999Z',
    ]) {
      expect(isInstant(value), value).toBe(true);
    }
  });

  it("words a refusal as Zod's own date-time issue, so forms show their date-time message", () => {
    const parsed = DateTimeSchema.safeParse('2026-12-01T09:00:00+99:00');
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues).toEqual([
      expect.objectContaining({ code: 'invalid_string', validation: 'datetime', path: [] }),
    ]);
  });

  it('answers 422 naming advance_to for an impossible offset on the sandbox clock, and the clock stays', async () => {
    const live = await registerBusiness(server());
    const sandbox = await sandboxOf(server(), live);
    const before = (await unwrap(sandbox.client.sandbox.clock.getClock())).data;
    for (const offset of BAD_OFFSETS) {
      const res = await raw(server(), 'POST', '/v1/sandbox/clock', {
        token: sandbox.accessToken,
        ...json({ advance_to: `2026-11-29T05:02:02.866${offset}` }),
      });
      expectResultError(res, 422, 'VALIDATION_ERROR', 'advance_to');
    }
    const after = (await unwrap(sandbox.client.sandbox.clock.getClock())).data;
    expect(after.advanced_by_seconds).toBe(before.advanced_by_seconds);
  }, 120_000);

  it('answers 422 naming scheduled_at for an impossible offset, and the campaign stays a draft', async () => {
    const biz = await registerBusiness(server());
    const template = await createTemplate(biz.client);
    const segment = await createSegment(biz.client);
    const campaign = await createCampaign(biz.client, { template_id: template.id, segment_id: segment.id });
    for (const offset of BAD_OFFSETS) {
      const res = await raw(server(), 'POST', `/v1/marketing/campaigns/${campaign.id}/schedule`, {
        token: biz.accessToken,
        ...json({ scheduled_at: `2026-12-01T09:00:00${offset}` }),
      });
      expectResultError(res, 422, 'VALIDATION_ERROR', 'scheduled_at');
    }
    const now = await unwrap(biz.client.marketing.campaigns.getCampaign({ params: { id: campaign.id } }));
    expect(now.campaign).toMatchObject({ status: 'draft', scheduled_at: null });
  }, 120_000);

  it('answers 422 naming from and to for an impossible offset in the audit-log query', async () => {
    const biz = await registerBusiness(server());
    for (const offset of BAD_OFFSETS) {
      for (const field of ['from', 'to']) {
        const value = encodeURIComponent(`2027-01-01T00:00:00${offset}`);
        const res = await raw(server(), 'GET', `/v1/audit-log?${field}=${value}`, { token: biz.accessToken });
        expectResultError(res, 422, 'VALIDATION_ERROR', field);
      }
    }
  }, 120_000);

  it('takes a real offset as the instant it names, in a body and in a query', async () => {
    const live = await registerBusiness(server());
    const sandbox = await sandboxOf(server(), live);
    const target = new Date(Date.now() + 3 * 86_400_000);
    target.setUTCMilliseconds(0);
    // The same instant written at UTC-08:00, without the colon.
    const local = new Date(target.getTime() - 8 * 3_600_000).toISOString().slice(0, 19);
    const moved = await unwrap(
      sandbox.client.sandbox.clock.advanceClock({ body: { advance_to: `${local}-0800` } }),
    );
    expect(moved.data.now).toBe(target.toISOString());

    const created = await unwrap(
      live.client.general.customers.createCustomer({ body: { name: 'Ada Lovelace' } }),
    );
    const at = Date.now();
    const window = (from: number, to: number) => ({
      // +23:59 and -23:59: the widest offsets there are.
      from: `${new Date(from + (23 * 60 + 59) * 60_000).toISOString().slice(0, 19)}+23:59`,
      to: `${new Date(to - (23 * 60 + 59) * 60_000).toISOString().slice(0, 19)}-23:59`,
    });
    const around = await unwrap(
      live.client.auditLog.listAuditLog({ query: window(at - 60_000, at + 60_000) }),
    );
    expect(around.entries.map((e) => e.resource_id)).toContain(created.data.id);
    const later = await unwrap(
      live.client.auditLog.listAuditLog({ query: window(at + 60_000, at + 120_000) }),
    );
    expect(later.entries).toEqual([]);
  }, 120_000);
});
