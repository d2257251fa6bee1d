import { describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import type { CreateProgramBody, Tier } from '../../contract/loyalty/index.js';
import { json, raw, registerBusiness, type TestBusiness } from '../support/business.js';
import { withEvents } from '../support/events.js';
import { useTestServer } from '../support/setup.js';
import { expectApiError } from '../support/expect.js';
import { createProgram, createTier, enrollMember } from '../support/loyalty.js';
import { createCustomer } from '../support/general.js';

const server = useTestServer();

const PROGRAM_ID = /^prog_[0-9A-HJKMNP-TV-Z]{26}$/;
const TIER_ID = /^tier_[0-9A-HJKMNP-TV-Z]{26}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const MISSING_TIER = 'tier_01JD7X2R5VQ8N3K4M6P9T1W2Y3';

const PROGRAM: CreateProgramBody = {
  name: 'Coffee Club',
  pointsName: 'Beans',
  pointsPerCurrency: 10,
  currency: 'USD',
};

const loyalty = (biz: TestBusiness) => biz.client.loyalty;

const getProgram = async (biz: TestBusiness) => (await unwrap(loyalty(biz).program.getProgram())).data;

async function openProgram(body: Partial<CreateProgramBody> = {}) {
  const biz = await registerBusiness(server());
  const program = await createProgram(biz.client, { ...PROGRAM, ...body });
  return { biz, program };
}

const listTiers = async (biz: TestBusiness) => (await unwrap(loyalty(biz).tiers.listTiers())).data;

async function enroll(
  biz: TestBusiness,
  name: string,
  options: { tierId?: string; initialPoints?: number } = {},
) {
  const customer = await createCustomer(biz.client, { name });
  return enrollMember(biz.client, { customerId: customer.id, ...options });
}

const getMember = async (biz: TestBusiness, id: string) =>
  (await unwrap(loyalty(biz).members.getMember({ params: { publicId: id } }))).data;

const tierRows = (biz: TestBusiness) =>
  server()
    .deps.db.selectFrom('loyalty_tiers')
    .selectAll()
    .where('business_id', '=', biz.businessId)
    .execute();

describe('loyalty program', () => {
  it('answers data: null when the business has no program', async () => {
    const biz = await registerBusiness(server());
    const res = await loyalty(biz).program.getProgram();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', data: null });
  });

  it('creates the program (201) with automatic enrollment, no expiry, autoNotify and active by default', async () => {
    const biz = await registerBusiness(server());
    const res = await loyalty(biz).program.createProgram({ body: PROGRAM });
    expect(res.status).toBe(201);
    const body = res.body as { result: string; data: unknown };
    expect(body.result).toBe('success');
    expect(body.data).toEqual({
      publicId: expect.stringMatching(PROGRAM_ID),
      name: 'Coffee Club',
      pointsName: 'Beans',
      pointsPerCurrency: 10,
      currency: 'USD',
      enrollmentType: 'automatic',
      pointsExpiryDays: 0,
      isActive: true,
      autoNotify: true,
      dateCreated: expect.stringMatching(ISO),
    });
    expect(await getProgram(biz)).toEqual(body.data);
  });

  it('takes enrollmentType, pointsExpiryDays and autoNotify at creation', async () => {
    const { biz, program } = await openProgram({
      enrollmentType: 'manual',
      pointsExpiryDays: 365,
      autoNotify: false,
    });
    expect(program).toMatchObject({
      enrollmentType: 'manual',
      pointsExpiryDays: 365,
      autoNotify: false,
      isActive: true,
    });
    expect(await getProgram(biz)).toEqual(program);
  });

  it('refuses a second active program (409 CONFLICT) and keeps the first', async () => {
    const { biz, program } = await openProgram();
    await expectApiError(
      loyalty(biz).program.createProgram({ body: { ...PROGRAM, name: 'Second Club' } }),
      409,
      'CONFLICT',
    );
    expect(await getProgram(biz)).toEqual(program);
    const rows = await server()
      .deps.db.selectFrom('loyalty_programs')
      .select('id')
      .where('business_id', '=', biz.businessId)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('updates the program partially (200 {result, message}) and GET shows the change', async () => {
    const { biz, program } = await openProgram();
    const res = await loyalty(biz).program.updateProgram({
      body: { pointsPerCurrency: 5, autoNotify: false },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', message: expect.any(String) });
    expect(await getProgram(biz)).toEqual({ ...program, pointsPerCurrency: 5, autoNotify: false });

    await unwrap(
      loyalty(biz).program.updateProgram({
        body: { name: 'Bean Club', pointsName: 'Points', enrollmentType: 'manual', pointsExpiryDays: 30 },
      }),
    );
    expect(await getProgram(biz)).toEqual({
      ...program,
      name: 'Bean Club',
      pointsName: 'Points',
      pointsPerCurrency: 5,
      enrollmentType: 'manual',
      pointsExpiryDays: 30,
      autoNotify: false,
    });
  });

  it('deactivates the program with isActive false and reactivates it with isActive true', async () => {
    const { biz, program } = await openProgram();
    await unwrap(loyalty(biz).program.updateProgram({ body: { isActive: false } }));
    expect(await getProgram(biz)).toEqual({ ...program, isActive: false });
    // Without an active program there is nothing to add tiers to.
    await expectApiError(
      loyalty(biz).tiers.createTier({ body: { name: 'Bronze', minPoints: 0 } }),
      404,
      'NOT_FOUND',
    );

    await unwrap(loyalty(biz).program.updateProgram({ body: { isActive: true } }));
    expect(await getProgram(biz)).toEqual(program);
  });

  it('refuses to update when the business never had a program (404 NOT_FOUND)', async () => {
    const biz = await registerBusiness(server());
    await expectApiError(loyalty(biz).program.updateProgram({ body: { name: 'Nothing' } }), 404, 'NOT_FOUND');
    await expectApiError(loyalty(biz).program.updateProgram({ body: {} }), 404, 'NOT_FOUND');
    expect(await getProgram(biz)).toBeNull();
  });

  it('treats an empty update as a no-op (200, program untouched)', async () => {
    const { biz, program } = await openProgram();
    const row = () =>
      server()
        .deps.db.selectFrom('loyalty_programs')
        .selectAll()
        .where('business_id', '=', biz.businessId)
        .executeTakeFirstOrThrow();
    const before = await row();
    const res = await raw(server(), 'PUT', '/v1/loyalty/program', { token: biz.accessToken, ...json({}) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', message: expect.any(String) });
    expect(await getProgram(biz)).toEqual(program);
    expect(await row()).toEqual(before);
  });

  it('deletes the program: GET shows it deactivated, its tiers are gone, members and transactions stay', async () => {
    const { biz, program } = await openProgram();
    await createTier(biz.client, { name: 'Bronze', minPoints: 0 });
    const silver = await createTier(biz.client, { name: 'Silver', minPoints: 500, color: '#C0C0C0' });
    const member = await enroll(biz, 'Ada Lovelace', { tierId: silver.publicId, initialPoints: 120 });

    const res = await loyalty(biz).program.deleteProgram();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', message: expect.any(String) });

    expect(await getProgram(biz)).toEqual({ ...program, isActive: false });
    expect(await listTiers(biz)).toEqual([]);
    expect(await tierRows(biz)).toEqual([]);

    const kept = await getMember(biz, member.publicId);
    expect(kept).toMatchObject({
      publicId: member.publicId,
      pointsBalance: 120,
      lifetimePoints: 120,
      status: 'active',
    });
    expect(kept).toMatchObject({ tierId: null, tierName: null, tierColor: null });
    const transactions = await unwrap(loyalty(biz).transactions.listTransactions({ query: {} }));
    expect(transactions.totalCount).toBe(1);
    expect(transactions.data[0]).toMatchObject({ memberId: member.publicId, points: 120, type: 'adjust' });
  });

  it('refuses to delete when there is no active program (404 NOT_FOUND)', async () => {
    const biz = await registerBusiness(server());
    await expectApiError(loyalty(biz).program.deleteProgram(), 404, 'NOT_FOUND');

    await unwrap(loyalty(biz).program.createProgram({ body: PROGRAM }));
    await unwrap(loyalty(biz).program.deleteProgram());
    await expectApiError(loyalty(biz).program.deleteProgram(), 404, 'NOT_FOUND');
  });

  it('lets a new program be created after a delete, and GET returns the new one', async () => {
    const { biz, program } = await openProgram();
    await unwrap(loyalty(biz).program.deleteProgram());
    const next = (
      await unwrap(
        loyalty(biz).program.createProgram({ body: { ...PROGRAM, name: 'Tea Club', currency: 'EUR' } }),
      )
    ).data;
    expect(next.publicId).not.toBe(program.publicId);
    expect(next).toMatchObject({ name: 'Tea Club', currency: 'EUR', isActive: true });
    expect(await getProgram(biz)).toEqual(next);
    // Updates now go to the new program; the old one stays deactivated.
    await unwrap(loyalty(biz).program.updateProgram({ body: { pointsPerCurrency: 3 } }));
    expect(await getProgram(biz)).toEqual({ ...next, pointsPerCurrency: 3 });
    const old = await server()
      .deps.db.selectFrom('loyalty_programs')
      .selectAll()
      .where('business_id', '=', biz.businessId)
      .where('id', '=', program.publicId)
      .executeTakeFirstOrThrow();
    expect(old).toMatchObject({ is_active: false, points_per_currency: 10 });
  });

  it('shows the most recently deactivated program when none is active', async () => {
    const { biz } = await openProgram({ name: 'First' });
    await unwrap(loyalty(biz).program.deleteProgram());
    server().clock.advance(1000);
    try {
      await unwrap(loyalty(biz).program.createProgram({ body: { ...PROGRAM, name: 'Second' } }));
      server().clock.advance(1000);
      await unwrap(loyalty(biz).program.deleteProgram());
    } finally {
      server().clock.reset();
    }
    expect(await getProgram(biz)).toMatchObject({ name: 'Second', isActive: false });
  });

  it.each([
    ['an unknown field', { ...PROGRAM, tiers: [] }, 'tiers'],
    ['an unknown currency', { ...PROGRAM, currency: 'XYZ' }, 'currency'],
    ['a lower-case currency', { ...PROGRAM, currency: 'usd' }, 'currency'],
    ['pointsPerCurrency 0', { ...PROGRAM, pointsPerCurrency: 0 }, 'pointsPerCurrency'],
    ['a fractional pointsPerCurrency', { ...PROGRAM, pointsPerCurrency: 1.5 }, 'pointsPerCurrency'],
    ['a negative pointsExpiryDays', { ...PROGRAM, pointsExpiryDays: -1 }, 'pointsExpiryDays'],
    ['an unknown enrollmentType', { ...PROGRAM, enrollmentType: 'invite' }, 'enrollmentType'],
    ['a blank name', { ...PROGRAM, name: '   ' }, 'name'],
    ['a missing pointsName', { name: 'Club', pointsPerCurrency: 1, currency: 'USD' }, 'pointsName'],
    ['a string autoNotify', { ...PROGRAM, autoNotify: 'yes' }, 'autoNotify'],
  ])('refuses a program with %s (422 VALIDATION_ERROR)', async (_, body, field) => {
    const biz = await registerBusiness(server());
    await expectApiError(
      raw(server(), 'POST', '/v1/loyalty/program', { token: biz.accessToken, ...json(body) }),
      422,
      'VALIDATION_ERROR',
      field,
    );
    expect(await getProgram(biz)).toBeNull();
  });

  it.each([
    ['the currency (not updatable)', { currency: 'EUR' }, 'currency'],
    ['pointsPerCurrency 0', { pointsPerCurrency: 0 }, 'pointsPerCurrency'],
    ['a non-boolean isActive', { isActive: 'false' }, 'isActive'],
    ['pointsExpiryDays over 3650', { pointsExpiryDays: 3651 }, 'pointsExpiryDays'],
  ])('refuses an update with %s (422) and changes nothing', async (_, body, field) => {
    const { biz, program } = await openProgram();
    await expectApiError(
      raw(server(), 'PUT', '/v1/loyalty/program', { token: biz.accessToken, ...json(body) }),
      422,
      'VALIDATION_ERROR',
      field,
    );
    expect(await getProgram(biz)).toEqual(program);
  });

  it('refuses malformed JSON (400 BAD_REQUEST) and a missing token (401 UNAUTHORIZED)', async () => {
    const biz = await registerBusiness(server());
    await expectApiError(
      raw(server(), 'POST', '/v1/loyalty/program', {
        token: biz.accessToken,
        headers: { 'content-type': 'application/json' },
        body: '{"name": ',
      }),
      400,
      'BAD_REQUEST',
    );
    await expectApiError(raw(server(), 'GET', '/v1/loyalty/program'), 401, 'UNAUTHORIZED');
    await expectApiError(raw(server(), 'POST', '/v1/loyalty/program', json(PROGRAM)), 401, 'UNAUTHORIZED');
  });

  it("keeps programs apart: another business neither sees nor changes this one's program", async () => {
    const { biz, program } = await openProgram();
    const other = await registerBusiness(server());
    expect(await getProgram(other)).toBeNull();
    await expectApiError(
      loyalty(other).program.updateProgram({ body: { name: 'Hijack' } }),
      404,
      'NOT_FOUND',
    );
    await expectApiError(loyalty(other).program.deleteProgram(), 404, 'NOT_FOUND');
    // Its own program does not clash with the first business's.
    await unwrap(loyalty(other).program.createProgram({ body: PROGRAM }));
    expect(await getProgram(biz)).toEqual(program);
  });
});

describe('loyalty tiers', () => {
  it('creates a tier (201 {result, message, data}) with color #808080 and multiplier 1 by default', async () => {
    const { biz } = await openProgram();
    const res = await loyalty(biz).tiers.createTier({ body: { name: 'Bronze', minPoints: 0 } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      result: 'success',
      message: expect.any(String),
      data: {
        publicId: expect.stringMatching(TIER_ID),
        name: 'Bronze',
        color: '#808080',
        minPoints: 0,
        multiplier: 1,
        sortOrder: 0,
      },
    });
    const gold = await createTier(biz.client, {
      name: 'Gold',
      minPoints: 1000,
      color: '#FFD700',
      multiplier: 1.55,
      sortOrder: 2,
    });
    expect(gold).toMatchObject({
      name: 'Gold',
      color: '#FFD700',
      minPoints: 1000,
      multiplier: 1.55,
      sortOrder: 2,
    });
    expect(await listTiers(biz)).toEqual([(res.body as { data: Tier }).data, gold]);
  });

  it('lists tiers by sortOrder, then minPoints', async () => {
    const { biz } = await openProgram();
    const gold = await createTier(biz.client, { name: 'Gold', minPoints: 5000, sortOrder: 1 });
    const silver = await createTier(biz.client, { name: 'Silver', minPoints: 1000, sortOrder: 1 });
    const vip = await createTier(biz.client, { name: 'VIP', minPoints: 20000, sortOrder: 0 });
    const bronze = await createTier(biz.client, { name: 'Bronze', minPoints: 0, sortOrder: 3 });
    expect((await listTiers(biz)).map((t) => t.name)).toEqual([
      vip.name,
      silver.name,
      gold.name,
      bronze.name,
    ]);
  });

  it('lists no tiers when there is no active program', async () => {
    const biz = await registerBusiness(server());
    const res = await loyalty(biz).tiers.listTiers();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', data: [] });
  });

  it('updates a tier partially (200 {result, message})', async () => {
    const { biz } = await openProgram();
    const tier = await createTier(biz.client, {
      name: 'Silver',
      minPoints: 500,
      color: '#C0C0C0',
      multiplier: 1.25,
    });
    const res = await loyalty(biz).tiers.updateTier({
      params: { publicId: tier.publicId },
      body: { color: '#aabbcc', multiplier: 1.5 },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', message: expect.any(String) });
    expect(await listTiers(biz)).toEqual([{ ...tier, color: '#aabbcc', multiplier: 1.5 }]);

    await unwrap(
      loyalty(biz).tiers.updateTier({
        params: { publicId: tier.publicId },
        body: { name: 'Platinum', minPoints: 750, sortOrder: 4 },
      }),
    );
    expect(await listTiers(biz)).toEqual([
      { ...tier, name: 'Platinum', minPoints: 750, sortOrder: 4, color: '#aabbcc', multiplier: 1.5 },
    ]);
  });

  it('treats an empty update as a no-op (200, tier unchanged) and answers 404 for an unknown or foreign tier', async () => {
    const { biz } = await openProgram();
    const tier = await createTier(biz.client, {
      name: 'Silver',
      minPoints: 500,
      color: '#C0C0C0',
      multiplier: 1.25,
    });
    const put = (publicId: string) =>
      raw(server(), 'PUT', `/v1/loyalty/tiers/${publicId}`, { token: biz.accessToken, ...json({}) });
    const res = await put(tier.publicId);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', message: expect.any(String) });
    expect(await listTiers(biz)).toEqual([tier]);

    const unknown = await put(MISSING_TIER);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ result: 'error', error: { code: 'NOT_FOUND', status: 404 } });
    await expectApiError(
      loyalty(biz).tiers.updateTier({ params: { publicId: MISSING_TIER }, body: {} }),
      404,
      'NOT_FOUND',
    );
    await expectApiError(
      loyalty(biz).tiers.updateTier({ params: { publicId: MISSING_TIER }, body: { name: 'Ghost' } }),
      404,
      'NOT_FOUND',
    );
    const other = await registerBusiness(server());
    await expectApiError(
      loyalty(other).tiers.updateTier({ params: { publicId: tier.publicId }, body: {} }),
      404,
      'NOT_FOUND',
    );
  });

  it('deletes a tier (200 {result, message}); it is gone from the list', async () => {
    const { biz } = await openProgram();
    const bronze = await createTier(biz.client, { name: 'Bronze', minPoints: 0 });
    const silver = await createTier(biz.client, { name: 'Silver', minPoints: 500 });
    const res = await loyalty(biz).tiers.deleteTier({ params: { publicId: silver.publicId } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', message: expect.any(String) });
    expect(await listTiers(biz)).toEqual([bronze]);
    await expectApiError(
      loyalty(biz).tiers.deleteTier({ params: { publicId: silver.publicId } }),
      404,
      'NOT_FOUND',
    );
    await expectApiError(
      loyalty(biz).tiers.updateTier({ params: { publicId: silver.publicId }, body: { name: 'Back' } }),
      404,
      'NOT_FOUND',
    );
  });

  it('refuses a duplicate name (any case) or minPoints within the program (409 CONFLICT), on create and update', async () => {
    const { biz } = await openProgram();
    const bronze = await createTier(biz.client, { name: 'Bronze', minPoints: 0 });
    const silver = await createTier(biz.client, { name: 'Silver', minPoints: 500 });
    await expectApiError(
      loyalty(biz).tiers.createTier({ body: { name: 'silver', minPoints: 900 } }),
      409,
      'CONFLICT',
    );
    await expectApiError(
      loyalty(biz).tiers.createTier({ body: { name: 'Gold', minPoints: 500 } }),
      409,
      'CONFLICT',
    );
    await expectApiError(
      loyalty(biz).tiers.updateTier({ params: { publicId: silver.publicId }, body: { name: 'BRONZE' } }),
      409,
      'CONFLICT',
    );
    await expectApiError(
      loyalty(biz).tiers.updateTier({ params: { publicId: silver.publicId }, body: { minPoints: 0 } }),
      409,
      'CONFLICT',
    );
    expect(await listTiers(biz)).toEqual([bronze, silver]);
    // Another business may use the same names and thresholds.
    const { biz: other } = await openProgram();
    await createTier(other.client, { name: 'Silver', minPoints: 500 });
  });

  it('refuses a tier when the business has no program (404 NOT_FOUND)', async () => {
    const biz = await registerBusiness(server());
    await expectApiError(
      loyalty(biz).tiers.createTier({ body: { name: 'Bronze', minPoints: 0 } }),
      404,
      'NOT_FOUND',
    );
    expect(await tierRows(biz)).toEqual([]);
  });

  it.each([
    ['a color without #', { name: 'T', minPoints: 1, color: 'FFD700' }, 'color'],
    ['a short color', { name: 'T', minPoints: 1, color: '#FFF' }, 'color'],
    ['a non-hex color', { name: 'T', minPoints: 1, color: '#GGGGGG' }, 'color'],
    ['a multiplier with 3 decimals', { name: 'T', minPoints: 1, multiplier: 1.125 }, 'multiplier'],
    // Counted exactly, as sent: no float tolerance rounds it to 1.
    [
      'a multiplier of 1.0000000000000002',
      { name: 'T', minPoints: 1, multiplier: 1.0000000000000002 },
      'multiplier',
    ],
    ['a multiplier of 0', { name: 'T', minPoints: 1, multiplier: 0 }, 'multiplier'],
    ['a multiplier over 10', { name: 'T', minPoints: 1, multiplier: 10.5 }, 'multiplier'],
    ['negative minPoints', { name: 'T', minPoints: -1 }, 'minPoints'],
    ['fractional minPoints', { name: 'T', minPoints: 1.5 }, 'minPoints'],
    ['a missing name', { minPoints: 1 }, 'name'],
    ['an unknown field', { name: 'T', minPoints: 1, perks: 'free coffee' }, 'perks'],
  ])('refuses a tier with %s (422 VALIDATION_ERROR)', async (_, body, field) => {
    const { biz } = await openProgram();
    await expectApiError(
      raw(server(), 'POST', '/v1/loyalty/tiers', { token: biz.accessToken, ...json(body) }),
      422,
      'VALIDATION_ERROR',
      field,
    );
    expect(await listTiers(biz)).toEqual([]);
  });

  it('refuses an update with a 3-decimal multiplier or a bad color (422) and changes nothing', async () => {
    const { biz } = await openProgram();
    const tier = await createTier(biz.client, { name: 'Gold', minPoints: 100, multiplier: 2 });
    for (const [body, field] of [
      [{ multiplier: 1.001 }, 'multiplier'],
      [{ multiplier: 2.0000000000000004 }, 'multiplier'],
      [{ color: 'red' }, 'color'],
      [{ minPoints: 'many' }, 'minPoints'],
    ] as const) {
      await expectApiError(
        raw(server(), 'PUT', `/v1/loyalty/tiers/${tier.publicId}`, { token: biz.accessToken, ...json(body) }),
        422,
        'VALIDATION_ERROR',
        field,
      );
    }
    expect(await listTiers(biz)).toEqual([tier]);
  });

  it("answers 404 for an unknown tier and for another business's tier, and leaves that tier alone", async () => {
    const { biz } = await openProgram();
    const tier = await createTier(biz.client, { name: 'Gold', minPoints: 100 });
    const { biz: other } = await openProgram();
    for (const publicId of [MISSING_TIER, tier.publicId]) {
      await expectApiError(
        loyalty(other).tiers.updateTier({ params: { publicId }, body: { name: 'Stolen' } }),
        404,
        'NOT_FOUND',
      );
      await expectApiError(loyalty(other).tiers.deleteTier({ params: { publicId } }), 404, 'NOT_FOUND');
    }
    expect(await listTiers(biz)).toEqual([tier]);
    expect(await listTiers(other)).toEqual([]);
  });

  it('moves the members of a deleted tier to the next lower tier and announces loyalty.tier_changed', async () => {
    const { biz } = await openProgram();
    const bronze = await createTier(biz.client, { name: 'Bronze', minPoints: 0, color: '#CD7F32' });
    const silver = await createTier(biz.client, { name: 'Silver', minPoints: 500, color: '#C0C0C0' });
    const gold = await createTier(biz.client, {
      name: 'Gold',
      minPoints: 2000,
      color: '#FFD700',
      multiplier: 2,
    });
    const ada = await enroll(biz, 'Ada Lovelace', { tierId: silver.publicId });
    const grace = await enroll(biz, 'Grace Hopper', { tierId: silver.publicId, initialPoints: 900 });
    const alan = await enroll(biz, 'Alan Turing', { tierId: gold.publicId });
    const edsger = await enroll(biz, 'Edsger Dijkstra');
    expect(edsger.tierId).toBe(bronze.publicId);

    const { events } = await withEvents(server(), biz.businessId, () =>
      unwrap(loyalty(biz).tiers.deleteTier({ params: { publicId: silver.publicId } })),
    );

    for (const member of [ada, grace]) {
      expect(await getMember(biz, member.publicId)).toMatchObject({
        tierId: bronze.publicId,
        tierName: 'Bronze',
        tierColor: '#CD7F32',
      });
    }
    expect(await getMember(biz, alan.publicId)).toMatchObject({ tierId: gold.publicId, tierName: 'Gold' });
    expect(await getMember(biz, edsger.publicId)).toMatchObject({ tierId: bronze.publicId });
    // Points are untouched by the move.
    expect(await getMember(biz, grace.publicId)).toMatchObject({ pointsBalance: 900, lifetimePoints: 900 });

    const changed = events.filter((e) => e.type === 'loyalty.tier_changed');
    expect(events.map((e) => e.type)).toEqual(changed.map(() => 'loyalty.tier_changed'));
    expect(changed).toHaveLength(2);
    const byMember = new Map(
      changed.map((e) => {
        const data = e.data as { member: { publicId: string } };
        return [data.member.publicId, data];
      }),
    );
    expect([...byMember.keys()].sort()).toEqual([ada.publicId, grace.publicId].sort());
    expect(byMember.get(grace.publicId)).toEqual({
      member: expect.objectContaining({
        publicId: grace.publicId,
        customerName: 'Grace Hopper',
        tierId: bronze.publicId,
        tierName: 'Bronze',
        pointsBalance: 900,
      }),
      previousTier: { publicId: silver.publicId, name: 'Silver', color: '#C0C0C0' },
      newTier: { publicId: bronze.publicId, name: 'Bronze', color: '#CD7F32' },
    });
  });

  it('leaves the members of a deleted lowest tier without a tier (newTier null)', async () => {
    const { biz } = await openProgram();
    const bronze = await createTier(biz.client, { name: 'Bronze', minPoints: 0, color: '#CD7F32' });
    await createTier(biz.client, { name: 'Silver', minPoints: 500 });
    const ada = await enroll(biz, 'Ada Lovelace');
    expect(ada.tierId).toBe(bronze.publicId);

    const { events } = await withEvents(server(), biz.businessId, () =>
      unwrap(loyalty(biz).tiers.deleteTier({ params: { publicId: bronze.publicId } })),
    );
    expect(await getMember(biz, ada.publicId)).toMatchObject({
      tierId: null,
      tierName: null,
      tierColor: null,
    });
    expect(events.map((e) => [e.type, e.data])).toEqual([
      [
        'loyalty.tier_changed',
        {
          member: expect.objectContaining({ publicId: ada.publicId, tierId: null }),
          previousTier: { publicId: bronze.publicId, name: 'Bronze', color: '#CD7F32' },
          newTier: null,
        },
      ],
    ]);
  });

  it('moves members by minPoints even when sortOrder says otherwise', async () => {
    const { biz } = await openProgram();
    const silver = await createTier(biz.client, { name: 'Silver', minPoints: 500, sortOrder: 0 });
    const bronze = await createTier(biz.client, { name: 'Bronze', minPoints: 0, sortOrder: 9 });
    const gold = await createTier(biz.client, { name: 'Gold', minPoints: 2000, sortOrder: 5 });
    const member = await enroll(biz, 'Ada Lovelace', { tierId: gold.publicId });
    await unwrap(loyalty(biz).tiers.deleteTier({ params: { publicId: gold.publicId } }));
    expect((await getMember(biz, member.publicId)).tierId).toBe(silver.publicId);
    await unwrap(loyalty(biz).tiers.deleteTier({ params: { publicId: silver.publicId } }));
    expect((await getMember(biz, member.publicId)).tierId).toBe(bronze.publicId);
  });
});
