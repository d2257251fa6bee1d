import { afterEach, describe, expect, it } from 'vitest';
import { unwrap, type marketing } from '../../client/index.js';
import { registerBusiness, type TestBusiness } from '../support/business.js';
import { expectResultError } from '../support/expect.js';
import { createCustomer } from '../support/general.js';
import { createSegment, createTemplate, MARKETING_ENV } from '../support/marketing.js';
import { useTestServer } from '../support/setup.js';

const server = useTestServer({ env: { ...MARKETING_ENV, ACCESS_TOKEN_TTL: '3650d' }, worker: false });

afterEach(() => server().clock.reset());

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const tenant = () => registerBusiness(server());
const segmentsOf = (t: TestBusiness) => t.client.marketing.segments;

/** A campaign row of `status` using the segment (campaigns are written by the sending part). */
async function campaignUsing(t: TestBusiness, segmentId: string, status: string) {
  const template = await createTemplate(t.client);
  const now = new Date();
  await server()
    .deps.db.insertInto('marketing_campaigns')
    .values({
      business_id: t.businessId,
      id: `cmp_${status}_${segmentId}`,
      name: 'Autumn',
      template_id: template.id,
      segment_id: segmentId,
      status: status as 'draft',
      created_at: now,
      updated_at: now,
    })
    .execute();
  return template;
}

describe('creating a segment', () => {
  it('answers 201 with segment_id, a message and the segment', async () => {
    const t = await tenant();
    await createCustomer(t.client, { attributes: { plan: 'pro' } });
    const res = await segmentsOf(t).createSegment({
      body: {
        name: 'Pro',
        description: 'Paying customers',
        filters: {
          conditions: [{ field: 'attributes.plan', operator: 'eq', value: 'pro' }],
        },
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      result: 'success',
      segment_id: expect.stringMatching(/^seg_/),
      message: expect.any(String),
      segment: {
        id: expect.stringMatching(/^seg_/),
        name: 'Pro',
        description: 'Paying customers',
        status: 'active',
        filters: { match: 'all', conditions: [{ field: 'attributes.plan', operator: 'eq', value: 'pro' }] },
        contact_count: 1,
        listed_contacts: 0,
        created_at: expect.stringMatching(ISO),
        updated_at: expect.stringMatching(ISO),
      },
    });
  });

  it.each([
    [{ name: '' }, 'name'],
    [{ name: 'x'.repeat(201) }, 'name'],
    [{ name: 'x', description: 'x'.repeat(1001) }, 'description'],
    [{ name: 'x', filters: { conditions: 'all' } }, 'filters.conditions'],
    [{ name: 'x', contact_ids: 'cus_1' }, 'contact_ids'],
    [{ name: 'x', status: 'archived' }, ''],
  ])('refuses %j: 422', async (body, field) => {
    const t = await tenant();
    const res = await segmentsOf(t).createSegment({ body: body as marketing.CreateSegmentBody });
    expect(res.status).toBe(422);
    if (field) expectResultError(res, 422, 'VALIDATION_ERROR', field);
  });
});

describe('listing segments', () => {
  it('lists newest first with total_count, limit (default 50) and offset', async () => {
    const t = await tenant();
    const made: string[] = [];
    for (let i = 0; i < 4; i++) {
      server().clock.set(new Date(Date.UTC(2026, 10, 1, 9, i)).toISOString());
      made.push((await createSegment(t.client, { name: `S${i}` })).id);
    }
    const all = await unwrap(segmentsOf(t).listSegments({ query: {} }));
    expect(all.total_count).toBe(4);
    expect(all.segments.map((s) => s.id)).toEqual([...made].reverse());
    const page = await unwrap(segmentsOf(t).listSegments({ query: { limit: 2, offset: 1 } }));
    expect(page.segments.map((s) => s.id)).toEqual([made[2], made[1]]);
    expect(page.total_count).toBe(4);
  });

  it('filters by status, counts the filtered total, and shows live counts', async () => {
    const t = await tenant();
    await createCustomer(t.client);
    const kept = await createSegment(t.client, { name: 'Kept' });
    const archived = await createSegment(t.client, { name: 'Old' });
    await unwrap(segmentsOf(t).updateSegment({ params: { id: archived.id }, body: { status: 'archived' } }));
    const active = await unwrap(segmentsOf(t).listSegments({ query: { status: 'active' } }));
    expect(active.segments.map((s) => [s.id, s.contact_count])).toEqual([[kept.id, 1]]);
    expect(active.total_count).toBe(1);
    const old = await unwrap(segmentsOf(t).listSegments({ query: { status: 'archived' } }));
    expect(old.segments.map((s) => s.id)).toEqual([archived.id]);
  });

  it.each([{ limit: 0 }, { limit: 201 }, { offset: -1 }, { status: 'deleted' }])(
    'refuses %j: 422',
    async (query) => {
      const t = await tenant();
      const res = await segmentsOf(t).listSegments({
        query: query as unknown as marketing.ListSegmentsQuery,
      });
      expect(res.status).toBe(422);
    },
  );

  it("shows none of another business's segments", async () => {
    const [t, other] = [await tenant(), await tenant()];
    await createSegment(other.client);
    expect(await unwrap(segmentsOf(t).listSegments({ query: {} }))).toEqual({
      result: 'success',
      segments: [],
      total_count: 0,
    });
  });
});

describe('reading, updating and deleting a segment', () => {
  it('reads one with its filters; unknown and foreign ids are 404', async () => {
    const [t, other] = [await tenant(), await tenant()];
    const segment = await createSegment(t.client);
    expect((await unwrap(segmentsOf(t).getSegment({ params: { id: segment.id } }))).segment).toEqual(segment);
    expectResultError(await segmentsOf(t).getSegment({ params: { id: 'seg_missing' } }), 404, 'NOT_FOUND');
    expectResultError(await segmentsOf(other).getSegment({ params: { id: segment.id } }), 404, 'NOT_FOUND');
  });

  it('updates partly: name, description, status; updated_at follows the clock', async () => {
    const t = await tenant();
    server().clock.set('2026-11-01T09:00:00.000Z');
    const segment = await createSegment(t.client, { description: 'All' });
    server().clock.set('2026-11-02T09:00:00.000Z');
    const res = await segmentsOf(t).updateSegment({
      params: { id: segment.id },
      body: { name: 'Everybody' },
    });
    expect(res.status).toBe(200);
    const updated = (res.body as { segment: marketing.Segment }).segment;
    expect(updated).toEqual({ ...segment, name: 'Everybody', updated_at: '2026-11-02T09:00:00.000Z' });
    const archived = await unwrap(
      segmentsOf(t).updateSegment({
        params: { id: segment.id },
        body: { status: 'archived', description: null },
      }),
    );
    expect(archived.segment).toMatchObject({ status: 'archived', description: null, name: 'Everybody' });
  });

  it('replaces the filters, removes them with null, and replaces the listed contacts', async () => {
    const t = await tenant();
    const [a, b] = [
      await createCustomer(t.client, { name: 'A', attributes: { plan: 'pro' } }),
      await createCustomer(t.client, { name: 'B' }),
    ];
    const segment = await createSegment(t.client, { contact_ids: [b.id] });
    expect(segment.contact_count).toBe(2);
    const pro = await unwrap(
      segmentsOf(t).updateSegment({
        params: { id: segment.id },
        body: {
          filters: { match: 'all', conditions: [{ field: 'attributes.plan', operator: 'eq', value: 'pro' }] },
        },
      }),
    );
    expect(pro.segment.contact_count).toBe(2); // a by the filter, b listed
    const listedOnly = await unwrap(
      segmentsOf(t).updateSegment({ params: { id: segment.id }, body: { filters: null } }),
    );
    expect(listedOnly.segment).toMatchObject({ filters: null, contact_count: 1, listed_contacts: 1 });
    const relisted = await unwrap(
      segmentsOf(t).updateSegment({ params: { id: segment.id }, body: { contact_ids: [a.id] } }),
    );
    expect(relisted.segment).toMatchObject({ contact_count: 1, listed_contacts: 1 });
    const ids = (
      await unwrap(segmentsOf(t).listSegmentContacts({ params: { id: segment.id }, query: {} }))
    ).contacts.map((c) => c.id);
    expect(ids).toEqual([a.id]);
  });

  it('refuses an update naming a foreign contact, changing nothing', async () => {
    const [t, other] = [await tenant(), await tenant()];
    const segment = await createSegment(t.client, { name: 'Before' });
    const foreign = await createCustomer(other.client);
    const res = await segmentsOf(t).updateSegment({
      params: { id: segment.id },
      body: { name: 'After', contact_ids: [foreign.id] },
    });
    expectResultError(res, 422, 'VALIDATION_ERROR', 'contact_ids');
    expect((await unwrap(segmentsOf(t).getSegment({ params: { id: segment.id } }))).segment.name).toBe(
      'Before',
    );
  });

  it('deletes a segment; its contacts stay', async () => {
    const t = await tenant();
    const customer = await createCustomer(t.client);
    const segment = await createSegment(t.client, { contact_ids: [customer.id] });
    const res = await segmentsOf(t).deleteSegment({ params: { id: segment.id } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', message: expect.any(String) });
    expectResultError(await segmentsOf(t).getSegment({ params: { id: segment.id } }), 404, 'NOT_FOUND');
    expectResultError(await segmentsOf(t).deleteSegment({ params: { id: segment.id } }), 404, 'NOT_FOUND');
    expect(
      (await unwrap(t.client.general.customers.getCustomer({ params: { id: customer.id } }))).data.id,
    ).toBe(customer.id);
    expect((await unwrap(segmentsOf(t).listSegments({ query: {} }))).total_count).toBe(0);
  });

  it.each(['scheduled', 'sending', 'paused'])(
    'refuses to delete a segment a %s campaign uses: 409 RESOURCE_IN_USE',
    async (status) => {
      const t = await tenant();
      const segment = await createSegment(t.client);
      await campaignUsing(t, segment.id, status);
      expectResultError(
        await segmentsOf(t).deleteSegment({ params: { id: segment.id } }),
        409,
        'RESOURCE_IN_USE',
      );
      expect((await unwrap(segmentsOf(t).getSegment({ params: { id: segment.id } }))).segment.id).toBe(
        segment.id,
      );
    },
  );

  it.each(['draft', 'sent', 'cancelled'])('deletes a segment a %s campaign used', async (status) => {
    const t = await tenant();
    const segment = await createSegment(t.client);
    await campaignUsing(t, segment.id, status);
    expect((await segmentsOf(t).deleteSegment({ params: { id: segment.id } })).status).toBe(200);
  });
});

describe("a segment's contacts", () => {
  it('pages them oldest first with total_count and the contact fields', async () => {
    const t = await tenant();
    const made = [];
    for (let i = 0; i < 5; i++) {
      server().clock.set(new Date(Date.UTC(2026, 10, 1, 9, i)).toISOString());
      made.push(
        await createCustomer(t.client, {
          name: `Contact ${i}`,
          email: `c${i}@example.com`,
          company: 'Acme',
          attributes: { n: String(i) },
        }),
      );
    }
    const segment = await createSegment(t.client);
    const page = await unwrap(
      segmentsOf(t).listSegmentContacts({ params: { id: segment.id }, query: { limit: 2, offset: 2 } }),
    );
    expect(page.total_count).toBe(5);
    expect(page.contacts).toEqual(
      made.slice(2, 4).map((c, i) => ({
        id: c.id,
        name: `Contact ${i + 2}`,
        email: `c${i + 2}@example.com`,
        first_name: 'Contact',
        last_name: String(i + 2),
        company: 'Acme',
        attributes: { n: String(i + 2) },
        unsubscribed: false,
        created_at: c.created_at,
      })),
    );
    const rest = await unwrap(
      segmentsOf(t).listSegmentContacts({ params: { id: segment.id }, query: { offset: 4 } }),
    );
    expect(rest.contacts.map((c) => c.id)).toEqual([made[4]?.id]);
  });

  it("answers 404 for another business's segment", async () => {
    const [t, other] = [await tenant(), await tenant()];
    const segment = await createSegment(t.client);
    expectResultError(
      await segmentsOf(other).listSegmentContacts({ params: { id: segment.id }, query: {} }),
      404,
      'NOT_FOUND',
    );
  });
});
