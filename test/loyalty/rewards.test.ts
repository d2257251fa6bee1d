import { describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import type { Reward } from '../../contract/loyalty/index.js';
import { raw, json, registerBusiness, type TestBusiness } from '../support/business.js';
import { expectResultError } from '../support/expect.js';
import { createProgram, enrollMember, newReward } from '../support/loyalty.js';
import { useTestServer } from '../support/setup.js';
import { createCustomer } from '../support/general.js';

const server = useTestServer();

const rewardsOf = (t: TestBusiness) => t.client.loyalty.rewards;

async function list(t: TestBusiness, isActive?: 'true' | 'false'): Promise<Reward[]> {
  return (await unwrap(rewardsOf(t).listRewards({ query: isActive === undefined ? {} : { isActive } }))).data;
}

async function find(t: TestBusiness, id: string): Promise<Reward | undefined> {
  return (await list(t)).find((r) => r.publicId === id);
}

const UNKNOWN_REWARD = 'rew_01JD7X2R5VQ8N3K4M6P9T1W2Y3';

/** A business with a program, a member holding `points`, for the redemption side of deleting a reward. */
async function withMember(t: TestBusiness, points: number): Promise<string> {
  await createProgram(t.client, { pointsName: 'Points', pointsPerCurrency: 1 });
  const customer = await createCustomer(t.client, { name: 'Grace Hopper' });
  return (await enrollMember(t.client, { customerId: customer.id, initialPoints: points })).publicId;
}

describe('creating a reward', () => {
  it('creates a product reward with the defaults: active, 90-day vouchers, no discount, no redemptions (201)', async () => {
    const t = await registerBusiness(server());
    const now = '2026-03-01T10:00:00.000Z';
    server().clock.set(now);
    try {
      const res = await rewardsOf(t).createReward({
        body: { name: 'Free coffee', pointsCost: 100, rewardType: 'product' },
      });
      expect(res.status).toBe(201);
      const body = await unwrap(res);
      expect(body).toEqual({
        result: 'success',
        message: expect.any(String),
        data: {
          publicId: expect.stringMatching(/^rew_/),
          name: 'Free coffee',
          description: null,
          pointsCost: 100,
          rewardType: 'product',
          discountPercent: null,
          isActive: true,
          voucherValidityDays: 90,
          totalRedemptions: 0,
          dateCreated: now,
        },
      });
      expect(await list(t)).toEqual([body.data]);
    } finally {
      server().clock.reset();
    }
  });

  it('creates a discount reward with its percentage and the optional fields given', async () => {
    const t = await registerBusiness(server());
    const reward = await newReward(t, {
      name: '10% off',
      rewardType: 'discount',
      discountPercent: 12.5,
      description: 'On any order',
      isActive: false,
      voucherValidityDays: 30,
      pointsCost: 250,
    });
    expect(reward).toMatchObject({
      name: '10% off',
      rewardType: 'discount',
      discountPercent: 12.5,
      description: 'On any order',
      isActive: false,
      voucherValidityDays: 30,
      pointsCost: 250,
    });
    expect(await find(t, reward.publicId)).toEqual(reward);
  });

  it('accepts a discount of exactly 100 percent and one with two decimals', async () => {
    const t = await registerBusiness(server());
    expect((await newReward(t, { rewardType: 'discount', discountPercent: 100 })).discountPercent).toBe(100);
    expect((await newReward(t, { rewardType: 'discount', discountPercent: 33.33 })).discountPercent).toBe(
      33.33,
    );
  });

  it('accepts the service and voucher types without a discount', async () => {
    const t = await registerBusiness(server());
    expect((await newReward(t, { rewardType: 'service' })).rewardType).toBe('service');
    expect((await newReward(t, { rewardType: 'voucher' })).rewardType).toBe('voucher');
  });

  it('refuses a discount reward without discountPercent (422 on discountPercent)', async () => {
    const t = await registerBusiness(server());
    const res = await rewardsOf(t).createReward({
      body: { name: 'Discount', pointsCost: 10, rewardType: 'discount' },
    });
    expectResultError(res, 422, 'VALIDATION_ERROR', 'discountPercent');
    expect(await list(t)).toEqual([]);
  });

  it.each(['product', 'service', 'voucher'] as const)(
    'refuses discountPercent on a %s reward (422 on discountPercent)',
    async (rewardType) => {
      const t = await registerBusiness(server());
      const res = await rewardsOf(t).createReward({
        body: { name: 'Not a discount', pointsCost: 10, rewardType, discountPercent: 10 },
      });
      expectResultError(res, 422, 'VALIDATION_ERROR', 'discountPercent');
      expect(await list(t)).toEqual([]);
    },
  );

  it('refuses a discountPercent with more than two decimals (422) rather than rounding it', async () => {
    const t = await registerBusiness(server());
    const res = await rewardsOf(t).createReward({
      body: { name: 'Odd', pointsCost: 10, rewardType: 'discount', discountPercent: 12.345 },
    });
    expectResultError(res, 422, 'VALIDATION_ERROR', 'discountPercent');
    // Counted exactly, as sent: no float tolerance rounds 10.000000000000002 to 10.
    const raised = await raw(server(), 'POST', '/v1/loyalty/rewards', {
      token: t.accessToken,
      ...json({ name: 'Odd', pointsCost: 10, rewardType: 'discount', discountPercent: 10.000000000000002 }),
    });
    expectResultError(raised, 422, 'VALIDATION_ERROR', 'discountPercent');
    expect(await list(t)).toEqual([]);
  });

  it.each([
    ['pointsCost 0', { pointsCost: 0 }, 'pointsCost'],
    ['a negative pointsCost', { pointsCost: -5 }, 'pointsCost'],
    ['a fractional pointsCost', { pointsCost: 1.5 }, 'pointsCost'],
    ['an unknown rewardType', { rewardType: 'cash' }, 'rewardType'],
    ['an empty name', { name: '  ' }, 'name'],
    ['a discountPercent of 0', { rewardType: 'discount', discountPercent: 0 }, 'discountPercent'],
    ['a discountPercent over 100', { rewardType: 'discount', discountPercent: 100.5 }, 'discountPercent'],
    ['voucherValidityDays 0', { voucherValidityDays: 0 }, 'voucherValidityDays'],
    ['an unknown field', { color: 'red' }, 'color'],
  ])('refuses %s (422 VALIDATION_ERROR)', async (_label, override, field) => {
    const t = await registerBusiness(server());
    const res = await raw(server(), 'POST', '/v1/loyalty/rewards', {
      token: t.accessToken,
      ...json({ name: 'Reward', pointsCost: 10, rewardType: 'product', ...override }),
    });
    expectResultError(res, 422, 'VALIDATION_ERROR', field);
    expect(await list(t)).toEqual([]);
  });

  it('refuses a body without name, pointsCost and rewardType (422 naming each)', async () => {
    const t = await registerBusiness(server());
    const res = await raw(server(), 'POST', '/v1/loyalty/rewards', { token: t.accessToken, ...json({}) });
    const error = expectResultError(res, 422, 'VALIDATION_ERROR', 'name');
    expect(error.details?.map((d) => d.field)).toEqual(expect.arrayContaining(['pointsCost', 'rewardType']));
  });

  it('answers 401 without a credential', async () => {
    const res = await raw(server(), 'POST', '/v1/loyalty/rewards', {
      ...json({ name: 'Reward', pointsCost: 10, rewardType: 'product' }),
    });
    expectResultError(res, 401, 'UNAUTHORIZED');
  });
});

describe('listing rewards', () => {
  it('lists newest first', async () => {
    const t = await registerBusiness(server());
    const first = await newReward(t, { name: 'First' });
    server().clock.advance(1000);
    const second = await newReward(t, { name: 'Second' });
    server().clock.advance(1000);
    const third = await newReward(t, { name: 'Third' });
    server().clock.reset();
    expect((await list(t)).map((r) => r.publicId)).toEqual([third.publicId, second.publicId, first.publicId]);
  });

  it('filters by isActive', async () => {
    const t = await registerBusiness(server());
    const active = await newReward(t, { name: 'Active' });
    const inactive = await newReward(t, { name: 'Inactive', isActive: false });
    expect((await list(t, 'true')).map((r) => r.publicId)).toEqual([active.publicId]);
    expect((await list(t, 'false')).map((r) => r.publicId)).toEqual([inactive.publicId]);
    expect(await list(t)).toHaveLength(2);
  });

  it('refuses an isActive that is not true or false (422)', async () => {
    const t = await registerBusiness(server());
    const res = await raw(server(), 'GET', '/v1/loyalty/rewards?isActive=yes', { token: t.accessToken });
    expectResultError(res, 422, 'VALIDATION_ERROR', 'isActive');
  });

  it('answers the alias GET /v1/get/loyalty/rewards with the same list, filters included', async () => {
    const t = await registerBusiness(server());
    await newReward(t, { name: 'Active' });
    await newReward(t, { name: 'Inactive', isActive: false });
    const alias = await unwrap(rewardsOf(t).listRewardsAlias({ query: {} }));
    expect(alias).toEqual(await unwrap(rewardsOf(t).listRewards({ query: {} })));
    expect(alias.data).toHaveLength(2);
    const aliasActive = await unwrap(rewardsOf(t).listRewardsAlias({ query: { isActive: 'true' } }));
    expect(aliasActive.data).toEqual(await list(t, 'true'));
    expect(aliasActive.data.map((r) => r.name)).toEqual(['Active']);
  });

  it("shows only the business's own rewards", async () => {
    const a = await registerBusiness(server());
    const b = await registerBusiness(server());
    const mine = await newReward(a, { name: 'Mine' });
    await newReward(b, { name: 'Theirs' });
    expect((await list(a)).map((r) => r.publicId)).toEqual([mine.publicId]);
    expect((await unwrap(rewardsOf(a).listRewardsAlias({ query: {} }))).data.map((r) => r.publicId)).toEqual([
      mine.publicId,
    ]);
  });
});

describe('updating a reward', () => {
  it('changes only the fields given', async () => {
    const t = await registerBusiness(server());
    const reward = await newReward(t, { name: 'Old', description: 'Keep me', pointsCost: 100 });
    const res = await rewardsOf(t).updateReward({
      params: { publicId: reward.publicId },
      body: { name: 'New' },
    });
    expect(res.status).toBe(200);
    expect(await unwrap(res)).toEqual({ result: 'success', message: expect.any(String) });
    expect(await find(t, reward.publicId)).toEqual({ ...reward, name: 'New' });

    await unwrap(
      rewardsOf(t).updateReward({
        params: { publicId: reward.publicId },
        body: { pointsCost: 250, description: 'Changed', voucherValidityDays: 7, rewardType: 'service' },
      }),
    );
    expect(await find(t, reward.publicId)).toEqual({
      ...reward,
      name: 'New',
      pointsCost: 250,
      description: 'Changed',
      voucherValidityDays: 7,
      rewardType: 'service',
    });
  });

  it('deactivates and reactivates a reward with isActive', async () => {
    const t = await registerBusiness(server());
    const reward = await newReward(t);
    await unwrap(
      rewardsOf(t).updateReward({ params: { publicId: reward.publicId }, body: { isActive: false } }),
    );
    expect(await list(t, 'true')).toEqual([]);
    expect((await list(t, 'false')).map((r) => r.publicId)).toEqual([reward.publicId]);
    await unwrap(
      rewardsOf(t).updateReward({ params: { publicId: reward.publicId }, body: { isActive: true } }),
    );
    expect((await find(t, reward.publicId))?.isActive).toBe(true);
  });

  it('changes the percentage of a discount reward, and keeps it when other fields change', async () => {
    const t = await registerBusiness(server());
    const reward = await newReward(t, { rewardType: 'discount', discountPercent: 10 });
    await unwrap(
      rewardsOf(t).updateReward({ params: { publicId: reward.publicId }, body: { discountPercent: 15 } }),
    );
    expect((await find(t, reward.publicId))?.discountPercent).toBe(15);
    await unwrap(
      rewardsOf(t).updateReward({ params: { publicId: reward.publicId }, body: { name: 'Renamed' } }),
    );
    expect(await find(t, reward.publicId)).toMatchObject({
      name: 'Renamed',
      discountPercent: 15,
      rewardType: 'discount',
    });
  });

  it('turns a product reward into a discount only with a discountPercent (422 without)', async () => {
    const t = await registerBusiness(server());
    const reward = await newReward(t);
    const refused = await rewardsOf(t).updateReward({
      params: { publicId: reward.publicId },
      body: { rewardType: 'discount', name: 'Half off' },
    });
    expectResultError(refused, 422, 'VALIDATION_ERROR', 'discountPercent');
    expect(await find(t, reward.publicId)).toEqual(reward);

    await unwrap(
      rewardsOf(t).updateReward({
        params: { publicId: reward.publicId },
        body: { rewardType: 'discount', discountPercent: 50 },
      }),
    );
    expect(await find(t, reward.publicId)).toMatchObject({ rewardType: 'discount', discountPercent: 50 });
  });

  it('drops the percentage when a discount reward becomes another type', async () => {
    const t = await registerBusiness(server());
    const reward = await newReward(t, { rewardType: 'discount', discountPercent: 20 });
    await unwrap(
      rewardsOf(t).updateReward({ params: { publicId: reward.publicId }, body: { rewardType: 'voucher' } }),
    );
    expect(await find(t, reward.publicId)).toMatchObject({ rewardType: 'voucher', discountPercent: null });
  });

  it('refuses a discountPercent on a reward that is not (or stops being) a discount (422)', async () => {
    const t = await registerBusiness(server());
    const product = await newReward(t);
    const onProduct = await rewardsOf(t).updateReward({
      params: { publicId: product.publicId },
      body: { discountPercent: 10 },
    });
    expectResultError(onProduct, 422, 'VALIDATION_ERROR', 'discountPercent');
    expect(await find(t, product.publicId)).toEqual(product);

    const discount = await newReward(t, { rewardType: 'discount', discountPercent: 20 });
    const leaving = await rewardsOf(t).updateReward({
      params: { publicId: discount.publicId },
      body: { rewardType: 'service', discountPercent: 30 },
    });
    expectResultError(leaving, 422, 'VALIDATION_ERROR', 'discountPercent');
    expect(await find(t, discount.publicId)).toEqual(discount);
  });

  it('refuses invalid values (422) and leaves the reward unchanged', async () => {
    const t = await registerBusiness(server());
    const reward = await newReward(t);
    const res = await raw(server(), 'PUT', `/v1/loyalty/rewards/${reward.publicId}`, {
      token: t.accessToken,
      ...json({ pointsCost: 0, name: 'Changed' }),
    });
    expectResultError(res, 422, 'VALIDATION_ERROR', 'pointsCost');
    expect(await find(t, reward.publicId)).toEqual(reward);
  });

  it('treats an empty body as a no-op (200, reward untouched) and answers 404 for an unknown reward', async () => {
    const t = await registerBusiness(server());
    const reward = await newReward(t, { rewardType: 'discount', discountPercent: 12.5 });
    const updatedAt = () =>
      server()
        .deps.db.selectFrom('loyalty_rewards')
        .select('updated_at')
        .where('business_id', '=', t.businessId)
        .where('id', '=', reward.publicId)
        .executeTakeFirstOrThrow();
    const before = await updatedAt();
    server().clock.advance(60_000);
    try {
      const res = await raw(server(), 'PUT', `/v1/loyalty/rewards/${reward.publicId}`, {
        token: t.accessToken,
        ...json({}),
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ result: 'success', message: expect.any(String) });
      expect(await find(t, reward.publicId)).toEqual(reward);
      expect(await updatedAt()).toEqual(before);
      const unknown = await rewardsOf(t).updateReward({ params: { publicId: UNKNOWN_REWARD }, body: {} });
      expectResultError(unknown, 404, 'NOT_FOUND');
    } finally {
      server().clock.reset();
    }
  });

  it('answers 404 for an unknown or deleted reward', async () => {
    const t = await registerBusiness(server());
    const unknown = await rewardsOf(t).updateReward({
      params: { publicId: UNKNOWN_REWARD },
      body: { name: 'X' },
    });
    expectResultError(unknown, 404, 'NOT_FOUND');
    const reward = await newReward(t);
    await unwrap(rewardsOf(t).deleteReward({ params: { publicId: reward.publicId } }));
    const deleted = await rewardsOf(t).updateReward({
      params: { publicId: reward.publicId },
      body: { name: 'X' },
    });
    expectResultError(deleted, 404, 'NOT_FOUND');
  });

  it("answers 404 for another business's reward and leaves it unchanged", async () => {
    const owner = await registerBusiness(server());
    const other = await registerBusiness(server());
    const reward = await newReward(owner);
    const res = await rewardsOf(other).updateReward({
      params: { publicId: reward.publicId },
      body: { name: 'Hijacked', isActive: false },
    });
    expectResultError(res, 404, 'NOT_FOUND');
    expect(await find(owner, reward.publicId)).toEqual(reward);
  });
});

describe('deleting a reward', () => {
  it('removes it from both lists and keeps the row (soft delete)', async () => {
    const t = await registerBusiness(server());
    const kept = await newReward(t, { name: 'Kept' });
    const gone = await newReward(t, { name: 'Gone' });
    const res = await rewardsOf(t).deleteReward({ params: { publicId: gone.publicId } });
    expect(res.status).toBe(200);
    expect(await unwrap(res)).toEqual({ result: 'success', message: expect.any(String) });
    expect((await list(t)).map((r) => r.publicId)).toEqual([kept.publicId]);
    expect((await unwrap(rewardsOf(t).listRewardsAlias({ query: {} }))).data.map((r) => r.publicId)).toEqual([
      kept.publicId,
    ]);
    const row = await server()
      .deps.db.selectFrom('loyalty_rewards')
      .select(['deleted_at', 'name'])
      .where('business_id', '=', t.businessId)
      .where('id', '=', gone.publicId)
      .executeTakeFirstOrThrow();
    expect(row.name).toBe('Gone');
    expect(row.deleted_at).toBeInstanceOf(Date);
  });

  it('answers 404 for an unknown reward and for a second delete', async () => {
    const t = await registerBusiness(server());
    expectResultError(
      await rewardsOf(t).deleteReward({ params: { publicId: UNKNOWN_REWARD } }),
      404,
      'NOT_FOUND',
    );
    const reward = await newReward(t);
    await unwrap(rewardsOf(t).deleteReward({ params: { publicId: reward.publicId } }));
    expectResultError(
      await rewardsOf(t).deleteReward({ params: { publicId: reward.publicId } }),
      404,
      'NOT_FOUND',
    );
  });

  it("answers 404 for another business's reward and leaves it listed", async () => {
    const owner = await registerBusiness(server());
    const other = await registerBusiness(server());
    const reward = await newReward(owner);
    expectResultError(
      await rewardsOf(other).deleteReward({ params: { publicId: reward.publicId } }),
      404,
      'NOT_FOUND',
    );
    expect(await find(owner, reward.publicId)).toEqual(reward);
  });

  it('leaves existing redemptions unchanged and refuses new ones (422 on rewardId)', async () => {
    const t = await registerBusiness(server());
    const memberId = await withMember(t, 500);
    const reward = await newReward(t, { name: 'Car wash', pointsCost: 100 });
    const redemption = (
      await unwrap(
        t.client.loyalty.redemptions.createRedemption({ body: { memberId, rewardId: reward.publicId } }),
      )
    ).data;
    await unwrap(rewardsOf(t).deleteReward({ params: { publicId: reward.publicId } }));

    const listed = await unwrap(t.client.loyalty.redemptions.listRedemptions({ query: {} }));
    expect(listed.data).toEqual([redemption]);
    expect(redemption).toMatchObject({ rewardName: 'Car wash', status: 'pending' });
    const verified = await unwrap(
      t.client.loyalty.redemptions.verifyVoucher({ params: { code: redemption.voucherCode } }),
    );
    expect(verified.data).toMatchObject({ valid: true, rewardName: 'Car wash', status: 'pending' });

    const refused = await t.client.loyalty.redemptions.createRedemption({
      body: { memberId, rewardId: reward.publicId },
    });
    expectResultError(refused, 422, 'VALIDATION_ERROR', 'rewardId');
    const member = await unwrap(t.client.loyalty.members.getMember({ params: { publicId: memberId } }));
    expect(member.data.pointsBalance).toBe(400);

    // The pending redemption of the deleted reward can still be fulfilled.
    await unwrap(
      t.client.loyalty.redemptions.updateRedemption({
        params: { publicId: redemption.publicId },
        body: { status: 'fulfilled' },
      }),
    );
    const after = await unwrap(t.client.loyalty.redemptions.listRedemptions({ query: {} }));
    expect(after.data[0]).toMatchObject({ status: 'fulfilled', rewardName: 'Car wash' });
  });
});
