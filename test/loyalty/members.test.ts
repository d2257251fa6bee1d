import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import type { Member, Tier } from '../../contract/loyalty/index.js';
import { json, raw, registerBusiness, type TestBusiness } from '../support/business.js';
import { onPostgres } from '../support/database.js';
import { withEvents } from '../support/events.js';
import { useTestServer } from '../support/setup.js';
import { expectApiError, itemAt } from '../support/expect.js';
import { adjustPoints, createProgram, createTier, enrollMember } from '../support/loyalty.js';
import { createCustomer } from '../support/general.js';

const server = useTestServer();

const MEMBER_ID = /^mem_[0-9A-HJKMNP-TV-Z]{26}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const MISSING_MEMBER = 'mem_01JD7X2R5VQ8N3K4M6P9T1W2Y3';
const MISSING_CUSTOMER = 'cus_01JD7X2R5VQ8N3K4M6P9T1W2Y3';
const MISSING_TIER = 'tier_01JD7X2R5VQ8N3K4M6P9T1W2Y3';

const loyalty = (biz: TestBusiness) => biz.client.loyalty;
const tag = () => randomBytes(3).toString('hex');

interface Shop {
  biz: TestBusiness;
  bronze: Tier;
  silver: Tier;
  gold: Tier;
}

/** A business with an active program (manual or automatic enrollment) and three tiers. */
async function openShop(enrollmentType: 'automatic' | 'manual' = 'automatic'): Promise<Shop> {
  const biz = await registerBusiness(server());
  await createProgram(biz.client, { name: 'Coffee Club', pointsName: 'Beans', enrollmentType });
  const tier = (name: string, minPoints: number, color: string, multiplier = 1) =>
    createTier(biz.client, { name, minPoints, color, multiplier });
  const silver = await tier('Silver', 500, '#C0C0C0', 1.25);
  const bronze = await tier('Bronze', 0, '#CD7F32');
  const gold = await tier('Gold', 2000, '#FFD700', 1.5);
  return { biz, bronze, silver, gold };
}

async function newCustomer(
  biz: TestBusiness,
  name = 'Ada Lovelace',
  extra: { email?: string | null; phone?: string } = {},
): Promise<string> {
  const email =
    extra.email === undefined
      ? `${itemAt(name.split(' '), 0).toLowerCase()}.${tag()}@example.test`
      : extra.email;
  const body = { name, ...(email ? { email } : {}), ...(extra.phone ? { phone: extra.phone } : {}) };
  return (await createCustomer(biz.client, body)).id;
}

const enroll = (
  biz: TestBusiness,
  customerId: string,
  options: { tierId?: string; initialPoints?: number } = {},
): Promise<Member> => enrollMember(biz.client, { customerId, ...options });

const enrollNew = async (
  biz: TestBusiness,
  name = 'Ada Lovelace',
  options: { tierId?: string; initialPoints?: number } = {},
) => enroll(biz, await newCustomer(biz, name), options);

const getMember = async (biz: TestBusiness, id: string) =>
  (await unwrap(loyalty(biz).members.getMember({ params: { publicId: id } }))).data;

type ListQuery = NonNullable<
  Parameters<TestBusiness['client']['loyalty']['members']['listMembers']>[0]
>['query'];
const listMembers = async (biz: TestBusiness, query: ListQuery = {}) =>
  unwrap(loyalty(biz).members.listMembers({ query }));

const memberTransactions = async (biz: TestBusiness, id: string) =>
  unwrap(loyalty(biz).members.listMemberTransactions({ params: { publicId: id }, query: {} }));

const adjust = (biz: TestBusiness, memberId: string, points: number) =>
  adjustPoints(biz.client, memberId, points, 'Manual');

const memberRows = (biz: TestBusiness) =>
  server()
    .deps.db.selectFrom('loyalty_members')
    .selectAll()
    .where('business_id', '=', biz.businessId)
    .execute();

describe('enrolling members', () => {
  it('enrolls a customer (201) in the lowest tier with zero points and writes no transaction', async () => {
    const { biz, bronze } = await openShop();
    const customerId = await newCustomer(biz, 'Ada Lovelace', { email: 'Ada@Example.test' });
    const { result: res, events } = await withEvents(server(), biz.businessId, () =>
      loyalty(biz).members.enrollMember({ body: { customerId } }),
    );
    expect(res.status).toBe(201);
    const member = (res.body as { data: Member }).data;
    expect(res.body).toEqual({
      result: 'success',
      data: {
        publicId: expect.stringMatching(MEMBER_ID),
        customerId,
        customerName: 'Ada Lovelace',
        customerEmail: 'Ada@Example.test',
        tierId: bronze.publicId,
        tierName: 'Bronze',
        tierColor: '#CD7F32',
        pointsBalance: 0,
        lifetimePoints: 0,
        status: 'active',
        enrolledAt: expect.stringMatching(ISO),
      },
    });
    expect(await memberTransactions(biz, member.publicId)).toEqual({
      result: 'success',
      data: [],
      totalCount: 0,
    });
    // The first tier assignment is announced with previousTier null.
    expect(events.map((e) => [e.type, e.data])).toEqual([
      [
        'loyalty.tier_changed',
        {
          member,
          previousTier: null,
          newTier: { publicId: bronze.publicId, name: 'Bronze', color: '#CD7F32' },
        },
      ],
    ]);
  });

  it('enrolls in the requested tier', async () => {
    const { biz, gold } = await openShop();
    const member = await enrollNew(biz, 'Grace Hopper', { tierId: gold.publicId });
    expect(member).toMatchObject({ tierId: gold.publicId, tierName: 'Gold', tierColor: '#FFD700' });
    expect(await getMember(biz, member.publicId)).toMatchObject({ tierId: gold.publicId });
  });

  it('enrolls without a tier when the program has none', async () => {
    const biz = await registerBusiness(server());
    await unwrap(
      loyalty(biz).program.createProgram({
        body: { name: 'Club', pointsName: 'Points', pointsPerCurrency: 1, currency: 'USD' },
      }),
    );
    const member = await enrollNew(biz);
    expect(member).toMatchObject({ tierId: null, tierName: null, tierColor: null, status: 'active' });
  });

  it('records initialPoints as one adjust transaction ("Initial points", manual) and keeps the starting tier', async () => {
    const { biz, bronze, silver } = await openShop();
    const member = await enrollNew(biz, 'Ada Lovelace', { initialPoints: 750 });
    // 750 would qualify for Silver, but enrollment keeps the lowest (or requested) tier.
    expect(member).toMatchObject({ pointsBalance: 750, lifetimePoints: 750, tierId: bronze.publicId });
    const { data, totalCount } = await memberTransactions(biz, member.publicId);
    expect(totalCount).toBe(1);
    expect(data[0]).toEqual({
      publicId: expect.stringMatching(/^ltx_/),
      memberId: member.publicId,
      type: 'adjust',
      points: 750,
      balanceAfter: 750,
      description: 'Initial points',
      referenceType: 'manual',
      referenceId: null,
      multiplierApplied: 1,
      dateCreated: expect.stringMatching(ISO),
    });
    // From then on tiers are re-evaluated on every credit.
    await adjust(biz, member.publicId, 1);
    expect(await getMember(biz, member.publicId)).toMatchObject({
      tierId: silver.publicId,
      lifetimePoints: 751,
    });
  });

  it('refuses to enroll a customer twice (409 CONFLICT), and allows it again after the member is deleted', async () => {
    const { biz } = await openShop();
    const customerId = await newCustomer(biz);
    const first = await enroll(biz, customerId, { initialPoints: 10 });
    await expectApiError(loyalty(biz).members.enrollMember({ body: { customerId } }), 409, 'CONFLICT');
    expect(await memberRows(biz)).toHaveLength(1);
    expect(await getMember(biz, first.publicId)).toMatchObject({ pointsBalance: 10 });

    await unwrap(loyalty(biz).members.deleteMember({ params: { publicId: first.publicId } }));
    const again = await enroll(biz, customerId);
    expect(again.publicId).not.toBe(first.publicId);
    expect(again).toMatchObject({ customerId, pointsBalance: 0, lifetimePoints: 0 });
  });

  it('refuses an unknown customer or tier (422 naming the field) and enrolls nobody', async () => {
    const { biz } = await openShop();
    await expectApiError(
      loyalty(biz).members.enrollMember({ body: { customerId: MISSING_CUSTOMER } }),
      422,
      'VALIDATION_ERROR',
      'customerId',
    );
    const customerId = await newCustomer(biz);
    await expectApiError(
      loyalty(biz).members.enrollMember({ body: { customerId, tierId: MISSING_TIER } }),
      422,
      'VALIDATION_ERROR',
      'tierId',
    );
    expect(await memberRows(biz)).toEqual([]);
  });

  it.each([
    ['a negative initialPoints', { initialPoints: -5 }, 'initialPoints'],
    ['a fractional initialPoints', { initialPoints: 2.5 }, 'initialPoints'],
    ['an unknown field', { status: 'active' }, 'status'],
    ['a missing customerId', { customerId: undefined }, 'customerId'],
  ])('refuses an enrollment with %s (422 VALIDATION_ERROR)', async (_, extra, field) => {
    const { biz } = await openShop();
    const customerId = await newCustomer(biz);
    await expectApiError(
      raw(server(), 'POST', '/v1/loyalty/members', {
        token: biz.accessToken,
        ...json({ customerId, ...extra }),
      }),
      422,
      'VALIDATION_ERROR',
      field,
    );
    expect(await memberRows(biz)).toEqual([]);
  });

  it('refuses to enroll without an active program (404 NOT_FOUND)', async () => {
    const biz = await registerBusiness(server());
    const customerId = await newCustomer(biz);
    await expectApiError(loyalty(biz).members.enrollMember({ body: { customerId } }), 404, 'NOT_FOUND');
    await expectApiError(
      loyalty(biz).members.bulkEnrollMembers({ body: { customerIds: [customerId] } }),
      404,
      'NOT_FOUND',
    );

    const { biz: closed } = await openShop();
    await unwrap(loyalty(closed).program.deleteProgram());
    const other = await newCustomer(closed);
    await expectApiError(
      loyalty(closed).members.enrollMember({ body: { customerId: other } }),
      404,
      'NOT_FOUND',
    );
    expect(await memberRows(biz)).toEqual([]);
    expect(await memberRows(closed)).toEqual([]);
  });
});

describe(`concurrent enrollment (${onPostgres ? 'PostgreSQL' : 'PGlite, which serialises it'})`, () => {
  it('enrolls a customer once when ten requests race: one 201, nine 409 CONFLICT', async () => {
    const { biz } = await openShop();
    const customerId = await newCustomer(biz);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        loyalty(biz).members.enrollMember({ body: { customerId, initialPoints: 5 } }),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    for (const answer of answers.filter((a) => a.status !== 201))
      await expectApiError(answer, 409, 'CONFLICT');
    const rows = await memberRows(biz);
    expect(rows).toHaveLength(1);
    expect(Number(rows[0]?.points_balance)).toBe(5);
  });

  it('enrolls each customer once when overlapping bulk requests race; the others skip them', async () => {
    const { biz } = await openShop();
    const customerIds = [
      await newCustomer(biz, 'Ada Lovelace'),
      await newCustomer(biz, 'Grace Hopper'),
      await newCustomer(biz, 'Alan Turing'),
    ];
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        loyalty(biz).members.bulkEnrollMembers({
          body: { customerIds: i % 2 ? [...customerIds].reverse() : customerIds },
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    const results = answers.map(
      (a) => (a.body as { data: { enrolled: number; skipped: number; errors: unknown[] } }).data,
    );
    expect(results.reduce((n, r) => n + r.enrolled, 0)).toBe(3);
    for (const r of results) expect([r.enrolled + r.skipped, r.errors]).toEqual([3, []]);
    expect((await memberRows(biz)).map((r) => r.customer_id).sort()).toEqual([...customerIds].sort());
  });
});

describe('bulk enrollment', () => {
  it('enrolls new customers, skips members and duplicates, lists unknown ids under errors', async () => {
    const { biz, silver } = await openShop();
    const existing = await newCustomer(biz, 'Ada Lovelace');
    await enroll(biz, existing);
    const fresh = [await newCustomer(biz, 'Grace Hopper'), await newCustomer(biz, 'Alan Turing')] as const;
    const res = await loyalty(biz).members.bulkEnrollMembers({
      body: {
        customerIds: [existing, fresh[0], MISSING_CUSTOMER, fresh[1], fresh[0]],
        tierId: silver.publicId,
        initialPoints: 40,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: 'success',
      data: {
        enrolled: 2,
        skipped: 2,
        errors: [{ customerId: MISSING_CUSTOMER, message: expect.any(String) }],
      },
    });

    const { data, totalCount } = await listMembers(biz);
    expect(totalCount).toBe(3);
    const enrolled = data.filter((m) => fresh.includes(m.customerId));
    expect(enrolled).toHaveLength(2);
    for (const member of enrolled) {
      expect(member).toMatchObject({
        tierId: silver.publicId,
        pointsBalance: 40,
        lifetimePoints: 40,
        status: 'active',
      });
      const tx = await memberTransactions(biz, member.publicId);
      expect(tx.data.map((t) => [t.type, t.points, t.description, t.referenceType])).toEqual([
        ['adjust', 40, 'Initial points', 'manual'],
      ]);
    }
    // The member who was skipped is untouched.
    expect(data.find((m) => m.customerId === existing)).toMatchObject({ pointsBalance: 0 });
  });

  it('takes up to 1000 customer ids and refuses 1001 or none (422)', async () => {
    const { biz } = await openShop();
    const real = await newCustomer(biz);
    const unknown = Array.from({ length: 999 }, (_, i) => `cus_missing_${i}`);
    const { data } = await unwrap(
      loyalty(biz).members.bulkEnrollMembers({ body: { customerIds: [real, ...unknown] } }),
    );
    expect(data.enrolled).toBe(1);
    expect(data.skipped).toBe(0);
    expect(data.errors).toHaveLength(999);

    await expectApiError(
      raw(server(), 'POST', '/v1/loyalty/members/bulk', {
        token: biz.accessToken,
        ...json({ customerIds: [...unknown, 'cus_a', 'cus_b'] }),
      }),
      422,
      'VALIDATION_ERROR',
      'customerIds',
    );
    await expectApiError(
      raw(server(), 'POST', '/v1/loyalty/members/bulk', {
        token: biz.accessToken,
        ...json({ customerIds: [] }),
      }),
      422,
      'VALIDATION_ERROR',
      'customerIds',
    );
    expect(await memberRows(biz)).toHaveLength(1);
  });

  it('refuses an unknown tierId (422) and enrolls nobody', async () => {
    const { biz } = await openShop();
    const customerId = await newCustomer(biz);
    await expectApiError(
      loyalty(biz).members.bulkEnrollMembers({ body: { customerIds: [customerId], tierId: MISSING_TIER } }),
      422,
      'VALIDATION_ERROR',
      'tierId',
    );
    expect(await memberRows(biz)).toEqual([]);
  });
});

describe('listing members', () => {
  async function populated() {
    const shop = await openShop();
    const { biz } = shop;
    const ada = await enroll(
      biz,
      await newCustomer(biz, 'Ada Lovelace', { email: `ada.${tag()}@analytical.example` }),
    );
    const grace = await enroll(
      biz,
      await newCustomer(biz, 'Grace Hopper', { email: `amazing.${tag()}@navy.example` }),
      { tierId: shop.gold.publicId },
    );
    const alan = await enroll(biz, await newCustomer(biz, 'Alan Turing', { email: null }), {
      tierId: shop.silver.publicId,
    });
    const percent = await enroll(biz, await newCustomer(biz, 'Rate 100% Co', { email: null }));
    await unwrap(
      loyalty(biz).members.updateMember({
        params: { publicId: alan.publicId },
        body: { status: 'suspended' },
      }),
    );
    return { ...shop, ada, grace, alan, percent };
  }

  it('lists members newest first with totalCount (default limit 50)', async () => {
    const { biz, ada, grace, alan, percent } = await populated();
    const res = await listMembers(biz);
    expect(res.result).toBe('success');
    expect(res.totalCount).toBe(4);
    expect(res.data.map((m) => m.publicId)).toEqual([percent, alan, grace, ada].map((m) => m.publicId));
    expect(res.data[3]).toEqual(ada);
    // The list item has no phone; only the detail does.
    expect(res.data[0]).not.toHaveProperty('customerPhone');
  });

  it('filters by status and by tier', async () => {
    const { biz, ada, grace, alan, percent, gold, silver } = await populated();
    const ids = (r: { data: Member[] }) => r.data.map((m) => m.publicId);
    const suspended = await listMembers(biz, { status: 'suspended' });
    expect([ids(suspended), suspended.totalCount]).toEqual([[alan.publicId], 1]);
    const active = await listMembers(biz, { status: 'active' });
    expect([ids(active), active.totalCount]).toEqual([[percent.publicId, grace.publicId, ada.publicId], 3]);
    expect(ids(await listMembers(biz, { status: 'inactive' }))).toEqual([]);
    expect(ids(await listMembers(biz, { tier: gold.publicId }))).toEqual([grace.publicId]);
    expect(ids(await listMembers(biz, { tier: silver.publicId, status: 'active' }))).toEqual([]);
    expect(ids(await listMembers(biz, { tier: MISSING_TIER }))).toEqual([]);
  });

  it('searches a case-insensitive substring of the name or the email', async () => {
    const { biz, ada, grace, alan, percent } = await populated();
    const search = async (term: string) => {
      const res = await listMembers(biz, { search: term });
      expect(res.totalCount).toBe(res.data.length);
      return res.data.map((m) => m.publicId);
    };
    expect(await search('LOVE')).toEqual([ada.publicId]);
    expect(await search('hop')).toEqual([grace.publicId]);
    // Email only: "amazing" and "navy" are in Grace's email, not in her name.
    expect(await search('NAVY.exa')).toEqual([grace.publicId]);
    expect(await search('amazing')).toEqual([grace.publicId]);
    expect(await search('analytical')).toEqual([ada.publicId]);
    // "a" is in every name; "tur" only in a member without an email.
    expect(await search('a')).toEqual([percent, alan, grace, ada].map((m) => m.publicId));
    expect(await search('tur')).toEqual([alan.publicId]);
    expect(await search('nobody-here')).toEqual([]);
    // LIKE wildcards are literal.
    expect(await search('100%')).toEqual([percent.publicId]);
    expect(await search('%')).toEqual([percent.publicId]);
    expect(await search('_')).toEqual([]);
    // Combined with a filter.
    const res = await listMembers(biz, { search: 'a', status: 'suspended' });
    expect([res.data.map((m) => m.publicId), res.totalCount]).toEqual([[alan.publicId], 1]);
  });

  it('pages with limit and offset; totalCount counts every match', async () => {
    const { biz, ada, grace, alan, percent } = await populated();
    const newestFirst = [percent, alan, grace, ada].map((m) => m.publicId);
    const page1 = await listMembers(biz, { limit: 3 });
    expect([page1.data.map((m) => m.publicId), page1.totalCount]).toEqual([newestFirst.slice(0, 3), 4]);
    const page2 = await listMembers(biz, { limit: 3, offset: 3 });
    expect([page2.data.map((m) => m.publicId), page2.totalCount]).toEqual([newestFirst.slice(3), 4]);
    const beyond = await listMembers(biz, { limit: 200, offset: 10 });
    expect([beyond.data, beyond.totalCount]).toEqual([[], 4]);
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=201', 'limit'],
    ['limit=abc', 'limit'],
    ['offset=-1', 'offset'],
    ['status=deleted', 'status'],
    [`search=${'x'.repeat(101)}`, 'search'],
  ])('refuses %s (422 VALIDATION_ERROR)', async (query, field) => {
    const biz = await registerBusiness(server());
    await expectApiError(
      raw(server(), 'GET', `/v1/loyalty/members?${query}`, { token: biz.accessToken }),
      422,
      'VALIDATION_ERROR',
      field,
    );
  });
});

describe('member detail, update and delete', () => {
  it("returns the member with the customer's phone", async () => {
    const { biz, bronze } = await openShop();
    const customerId = await newCustomer(biz, 'Ada Lovelace', { phone: '+44 20 7946 0000' });
    const member = await enroll(biz, customerId);
    const res = await loyalty(biz).members.getMember({ params: { publicId: member.publicId } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', data: { ...member, customerPhone: '+44 20 7946 0000' } });
    expect(member.tierId).toBe(bronze.publicId);

    const noPhone = await enrollNew(biz, 'Grace Hopper');
    expect(await getMember(biz, noPhone.publicId)).toEqual({ ...noPhone, customerPhone: null });
  });

  it('answers 404 for an unknown member on every id route', async () => {
    const { biz } = await openShop();
    await expectApiError(
      loyalty(biz).members.getMember({ params: { publicId: MISSING_MEMBER } }),
      404,
      'NOT_FOUND',
    );
    await expectApiError(
      loyalty(biz).members.updateMember({
        params: { publicId: MISSING_MEMBER },
        body: { status: 'inactive' },
      }),
      404,
      'NOT_FOUND',
    );
    await expectApiError(
      loyalty(biz).members.deleteMember({ params: { publicId: MISSING_MEMBER } }),
      404,
      'NOT_FOUND',
    );
    await expectApiError(
      loyalty(biz).members.listMemberTransactions({ params: { publicId: MISSING_MEMBER }, query: {} }),
      404,
      'NOT_FOUND',
    );
  });

  it('treats an empty update as a no-op (200, member untouched) and answers 404 for an unknown member', async () => {
    const { biz } = await openShop();
    const member = await enrollNew(biz);
    const row = () =>
      server()
        .deps.db.selectFrom('loyalty_members')
        .selectAll()
        .where('business_id', '=', biz.businessId)
        .where('id', '=', member.publicId)
        .executeTakeFirstOrThrow();
    const before = await row();
    const res = await raw(server(), 'PUT', `/v1/loyalty/members/${member.publicId}`, {
      token: biz.accessToken,
      ...json({}),
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', message: expect.any(String) });
    expect(await row()).toEqual(before);
    await expectApiError(
      loyalty(biz).members.updateMember({ params: { publicId: MISSING_MEMBER }, body: {} }),
      404,
      'NOT_FOUND',
    );
  });

  it('sets the status to each allowed value (200 {result, message})', async () => {
    const { biz } = await openShop();
    const member = await enrollNew(biz);
    for (const status of ['suspended', 'inactive', 'active'] as const) {
      const res = await loyalty(biz).members.updateMember({
        params: { publicId: member.publicId },
        body: { status },
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ result: 'success', message: expect.any(String) });
      expect(await getMember(biz, member.publicId)).toMatchObject({ status, tierId: member.tierId });
    }
  });

  it('refuses an unknown status, an unknown field or an unknown tier (422) and changes nothing', async () => {
    const { biz } = await openShop();
    const member = await enrollNew(biz);
    for (const [body, field] of [
      [{ status: 'banned' }, 'status'],
      [{ pointsBalance: 1000 }, 'pointsBalance'],
      [{ tierId: MISSING_TIER }, 'tierId'],
      [{ tierId: MISSING_TIER, status: 'suspended' }, 'tierId'],
    ] as const) {
      await expectApiError(
        raw(server(), 'PUT', `/v1/loyalty/members/${member.publicId}`, {
          token: biz.accessToken,
          ...json(body),
        }),
        422,
        'VALIDATION_ERROR',
        field,
      );
    }
    expect(await getMember(biz, member.publicId)).toMatchObject({
      status: 'active',
      tierId: member.tierId,
      pointsBalance: 0,
    });
  });

  it('sets a tier by hand (announced) and keeps it until earning qualifies for a higher one', async () => {
    const { biz, bronze, gold } = await openShop();
    const member = await enrollNew(biz);
    const { events } = await withEvents(server(), biz.businessId, () =>
      unwrap(
        loyalty(biz).members.updateMember({
          params: { publicId: member.publicId },
          body: { tierId: gold.publicId, status: 'inactive' },
        }),
      ),
    );
    expect(await getMember(biz, member.publicId)).toMatchObject({
      tierId: gold.publicId,
      tierName: 'Gold',
      status: 'inactive',
    });
    expect(events.map((e) => [e.type, e.data])).toEqual([
      [
        'loyalty.tier_changed',
        {
          member: expect.objectContaining({ publicId: member.publicId, tierId: gold.publicId }),
          previousTier: { publicId: bronze.publicId, name: 'Bronze', color: '#CD7F32' },
          newTier: { publicId: gold.publicId, name: 'Gold', color: '#FFD700' },
        },
      ],
    ]);

    // Setting the same tier again announces nothing.
    const same = await withEvents(server(), biz.businessId, () =>
      unwrap(
        loyalty(biz).members.updateMember({
          params: { publicId: member.publicId },
          body: { tierId: gold.publicId },
        }),
      ),
    );
    expect(same.events).toEqual([]);

    // Credits that qualify only for Silver or Gold leave the hand-set Gold alone.
    await adjust(biz, member.publicId, 600);
    await adjust(biz, member.publicId, 1500);
    expect(await getMember(biz, member.publicId)).toMatchObject({
      tierId: gold.publicId,
      lifetimePoints: 2100,
    });

    // A higher tier the member now qualifies for is reached on the next credit.
    const platinum = (
      await unwrap(
        loyalty(biz).tiers.createTier({ body: { name: 'Platinum', minPoints: 3000, color: '#E5E4E2' } }),
      )
    ).data;
    await adjust(biz, member.publicId, 899);
    expect((await getMember(biz, member.publicId)).tierId).toBe(gold.publicId);
    await adjust(biz, member.publicId, 1);
    expect(await getMember(biz, member.publicId)).toMatchObject({
      tierId: platinum.publicId,
      lifetimePoints: 3000,
    });
  });

  it('moves a member down by hand; a later credit restores the tier its lifetime points earn', async () => {
    const { biz, bronze, silver } = await openShop();
    const member = await enrollNew(biz, 'Ada Lovelace', { tierId: silver.publicId, initialPoints: 800 });
    await unwrap(
      loyalty(biz).members.updateMember({
        params: { publicId: member.publicId },
        body: { tierId: bronze.publicId },
      }),
    );
    expect((await getMember(biz, member.publicId)).tierId).toBe(bronze.publicId);
    // A debit never changes the tier.
    await adjust(biz, member.publicId, -100);
    expect((await getMember(biz, member.publicId)).tierId).toBe(bronze.publicId);
    await adjust(biz, member.publicId, 5);
    expect(await getMember(biz, member.publicId)).toMatchObject({
      tierId: silver.publicId,
      pointsBalance: 705,
    });
  });

  it('deletes a member: 404 afterwards, gone from the list, its transactions kept', async () => {
    const { biz } = await openShop();
    const member = await enrollNew(biz, 'Ada Lovelace', { initialPoints: 300 });
    await adjust(biz, member.publicId, -50);
    const other = await enrollNew(biz, 'Grace Hopper');

    const res = await loyalty(biz).members.deleteMember({ params: { publicId: member.publicId } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', message: expect.any(String) });

    await expectApiError(
      loyalty(biz).members.getMember({ params: { publicId: member.publicId } }),
      404,
      'NOT_FOUND',
    );
    await expectApiError(
      loyalty(biz).members.updateMember({
        params: { publicId: member.publicId },
        body: { status: 'active' },
      }),
      404,
      'NOT_FOUND',
    );
    await expectApiError(
      loyalty(biz).members.deleteMember({ params: { publicId: member.publicId } }),
      404,
      'NOT_FOUND',
    );
    await expectApiError(
      loyalty(biz).members.listMemberTransactions({ params: { publicId: member.publicId }, query: {} }),
      404,
      'NOT_FOUND',
    );
    await expectApiError(
      loyalty(biz).transactions.adjustPoints({
        body: { memberId: member.publicId, points: 5, description: 'Late' },
      }),
      422,
      'VALIDATION_ERROR',
      'memberId',
    );
    const list = await listMembers(biz);
    expect([list.data.map((m) => m.publicId), list.totalCount]).toEqual([[other.publicId], 1]);

    const transactions = await unwrap(loyalty(biz).transactions.listTransactions({ query: {} }));
    expect(transactions.totalCount).toBe(2);
    expect(transactions.data.map((t) => [t.memberId, t.type, t.points, t.balanceAfter])).toEqual([
      [member.publicId, 'adjust', -50, 250],
      [member.publicId, 'adjust', 300, 300],
    ]);
  });
});

describe('member transactions', () => {
  it("lists only this member's transactions, newest first, with type filter, paging and totalCount", async () => {
    const { biz } = await openShop();
    const member = await enrollNew(biz, 'Ada Lovelace', { initialPoints: 100 });
    const other = await enrollNew(biz, 'Grace Hopper', { initialPoints: 7 });
    await adjust(biz, member.publicId, 20);
    await adjust(biz, member.publicId, -30);
    await adjust(biz, other.publicId, 1);

    const all = await memberTransactions(biz, member.publicId);
    expect(all.totalCount).toBe(3);
    expect(all.data.map((t) => [t.points, t.balanceAfter])).toEqual([
      [-30, 90],
      [20, 120],
      [100, 100],
    ]);
    expect(all.data.every((t) => t.memberId === member.publicId)).toBe(true);

    const page = await unwrap(
      loyalty(biz).members.listMemberTransactions({
        params: { publicId: member.publicId },
        query: { limit: 1, offset: 1 },
      }),
    );
    expect([page.data.map((t) => t.points), page.totalCount]).toEqual([[20], 3]);

    const adjusts = await unwrap(
      loyalty(biz).members.listMemberTransactions({
        params: { publicId: member.publicId },
        query: { type: 'adjust' },
      }),
    );
    expect(adjusts.totalCount).toBe(3);
    const earns = await unwrap(
      loyalty(biz).members.listMemberTransactions({
        params: { publicId: member.publicId },
        query: { type: 'earn' },
      }),
    );
    expect([earns.data, earns.totalCount]).toEqual([[], 0]);

    const everyone = await unwrap(loyalty(biz).transactions.listTransactions({ query: { limit: 2 } }));
    expect(everyone.totalCount).toBe(5);
    expect(everyone.data.map((t) => [t.memberId, t.points])).toEqual([
      [other.publicId, 1],
      [member.publicId, -30],
    ]);
  });

  it.each(['limit=0', 'limit=201', 'type=bonus', 'offset=-2'])(
    'refuses %s on transaction lists (422)',
    async (query) => {
      const { biz } = await openShop();
      const member = await enrollNew(biz);
      for (const path of [
        `/v1/loyalty/transactions?${query}`,
        `/v1/loyalty/members/${member.publicId}/transactions?${query}`,
      ]) {
        await expectApiError(
          raw(server(), 'GET', path, { token: biz.accessToken }),
          422,
          'VALIDATION_ERROR',
          query.split('=')[0],
        );
      }
    },
  );
});

describe('tenant isolation', () => {
  it("never shows or changes another business's members, customers or tiers", async () => {
    const a = await openShop();
    const member = await enrollNew(a.biz, 'Ada Lovelace', { initialPoints: 50 });
    const aCustomer = await newCustomer(a.biz, 'Grace Hopper');
    const b = await openShop();
    const own = await enrollNew(b.biz, 'Alan Turing');
    const bCustomer = await newCustomer(b.biz, 'Edsger Dijkstra');
    const publicId = member.publicId;
    const members = loyalty(b.biz).members;

    await expectApiError(members.getMember({ params: { publicId } }), 404, 'NOT_FOUND');
    await expectApiError(
      members.updateMember({ params: { publicId }, body: { status: 'suspended' } }),
      404,
      'NOT_FOUND',
    );
    await expectApiError(members.deleteMember({ params: { publicId } }), 404, 'NOT_FOUND');
    await expectApiError(
      members.listMemberTransactions({ params: { publicId }, query: {} }),
      404,
      'NOT_FOUND',
    );

    // Ids in a body that belong to someone else are unknown: 422.
    await expectApiError(
      members.enrollMember({ body: { customerId: aCustomer } }),
      422,
      'VALIDATION_ERROR',
      'customerId',
    );
    await expectApiError(
      members.enrollMember({ body: { customerId: bCustomer, tierId: a.gold.publicId } }),
      422,
      'VALIDATION_ERROR',
      'tierId',
    );
    await expectApiError(
      members.updateMember({ params: { publicId: own.publicId }, body: { tierId: a.gold.publicId } }),
      422,
      'VALIDATION_ERROR',
      'tierId',
    );
    await expectApiError(
      members.bulkEnrollMembers({ body: { customerIds: [bCustomer], tierId: a.silver.publicId } }),
      422,
      'VALIDATION_ERROR',
      'tierId',
    );
    await expectApiError(
      loyalty(b.biz).transactions.adjustPoints({
        body: { memberId: publicId, points: 10, description: 'Steal' },
      }),
      422,
      'VALIDATION_ERROR',
      'memberId',
    );
    const bulk = await unwrap(members.bulkEnrollMembers({ body: { customerIds: [aCustomer] } }));
    expect(bulk.data).toEqual({
      enrolled: 0,
      skipped: 0,
      errors: [{ customerId: aCustomer, message: expect.any(String) }],
    });

    // Lists only show the caller's own rows.
    const bList = await listMembers(b.biz);
    expect([bList.data.map((m) => m.publicId), bList.totalCount]).toEqual([[own.publicId], 1]);
    expect((await listMembers(b.biz, { tier: a.bronze.publicId })).data).toEqual([]);
    // A name's word no email can hold by chance (emails end in random hex, which can spell "ada").
    expect((await listMembers(b.biz, { search: 'Lovelace' })).data).toEqual([]);
    expect((await unwrap(loyalty(b.biz).transactions.listTransactions({ query: {} }))).totalCount).toBe(0);

    // Nothing changed on the first business's side.
    expect(await getMember(a.biz, publicId)).toMatchObject({
      status: 'active',
      tierId: a.bronze.publicId,
      pointsBalance: 50,
    });
    expect((await listMembers(a.biz)).totalCount).toBe(1);
    expect(await getMember(b.biz, own.publicId)).toMatchObject({ tierId: b.bronze.publicId });
  });
});
