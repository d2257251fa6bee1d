import { afterEach, describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import type { CreateRewardBody } from '../../contract/loyalty/index.js';
import { expectResultError } from '../support/expect.js';
import { newReward } from '../support/loyalty.js';
import { useTestServer } from '../support/setup.js';
import { DAY_MS, enroll, newShop, type Enrolled, type Shop } from '../support/public-loyalty.js';

const server = useTestServer({ worker: false });

afterEach(() => server().clock.reset());

const catalogue = async (shop: Shop) => (await unwrap(shop.pos.publicLoyalty.publicListRewards())).data;

const verify = (shop: Shop, code: string) => shop.pos.publicLoyalty.publicVerifyVoucher({ params: { code } });

/** A shop with a member holding 10,000 points. */
async function shopWithMember(): Promise<{ shop: Shop; m: Enrolled }> {
  const shop = await newShop(server());
  const m = await enroll(shop, { points: 10_000, name: 'Ada Lovelace' });
  return { shop, m };
}

async function voucher(shop: Shop, m: Enrolled, reward: Partial<CreateRewardBody> = {}) {
  const r = await newReward(shop, reward);
  return (
    await unwrap(shop.pos.publicLoyalty.publicRedeem({ body: { email: m.email, rewardId: r.publicId } }))
  ).data;
}

describe('GET /v1/public/loyalty/rewards', () => {
  it('lists the active rewards only, cheapest first, with discountPercent on discount rewards alone', async () => {
    const shop = await newShop(server());
    const discount = await newReward(shop, {
      name: '12.5% off',
      pointsCost: 300,
      rewardType: 'discount',
      discountPercent: 12.5,
      description: 'On the whole basket',
    });
    const product = await newReward(shop, { name: 'Coffee', pointsCost: 100, description: 'A cup' });
    const service = await newReward(shop, { name: 'Car wash', pointsCost: 200, rewardType: 'service' });
    const gift = await newReward(shop, { name: 'Gift card', pointsCost: 50, rewardType: 'voucher' });
    await newReward(shop, { name: 'Retired', pointsCost: 10, isActive: false });
    const deleted = await newReward(shop, { name: 'Deleted', pointsCost: 20 });
    await unwrap(shop.client.loyalty.rewards.deleteReward({ params: { publicId: deleted.publicId } }));

    const res = await shop.pos.publicLoyalty.publicListRewards();
    expect(res.status).toBe(200);
    expect(await unwrap(res)).toStrictEqual({
      result: 'success',
      data: [
        {
          publicId: gift.publicId,
          name: 'Gift card',
          description: null,
          pointsCost: 50,
          rewardType: 'voucher',
        },
        {
          publicId: product.publicId,
          name: 'Coffee',
          description: 'A cup',
          pointsCost: 100,
          rewardType: 'product',
        },
        {
          publicId: service.publicId,
          name: 'Car wash',
          description: null,
          pointsCost: 200,
          rewardType: 'service',
        },
        {
          publicId: discount.publicId,
          name: '12.5% off',
          description: 'On the whole basket',
          pointsCost: 300,
          rewardType: 'discount',
          discountPercent: 12.5,
        },
      ],
    });
    const items = (res.body as { data: Record<string, unknown>[] }).data;
    for (const item of items.slice(0, 3)) expect(item).not.toHaveProperty('discountPercent');
  });

  it('follows a reward being deactivated and reactivated', async () => {
    const shop = await newShop(server());
    const r = await newReward(shop, { name: 'Seasonal' });
    expect((await catalogue(shop)).map((x) => x.publicId)).toEqual([r.publicId]);
    await unwrap(
      shop.client.loyalty.rewards.updateReward({
        params: { publicId: r.publicId },
        body: { isActive: false },
      }),
    );
    expect(await catalogue(shop)).toEqual([]);
    await unwrap(
      shop.client.loyalty.rewards.updateReward({
        params: { publicId: r.publicId },
        body: { isActive: true },
      }),
    );
    expect((await catalogue(shop)).map((x) => x.publicId)).toEqual([r.publicId]);
  });

  it('answers an empty list for a business without rewards', async () => {
    const shop = await newShop(server());
    expect(await unwrap(shop.pos.publicLoyalty.publicListRewards())).toEqual({ result: 'success', data: [] });
  });
});

describe('GET /v1/public/loyalty/vouchers/:code/verify', () => {
  it('reports a pending, unexpired voucher as valid, with the reward type and without the member name', async () => {
    const { shop, m } = await shopWithMember();
    const now = '2026-03-01T12:00:00.000Z';
    server().clock.set(now);
    const made = await voucher(shop, m, { name: '10% off', rewardType: 'discount', discountPercent: 10 });
    const res = await verify(shop, made.voucherCode);
    expect(res.status).toBe(200);
    expect(await unwrap(res)).toStrictEqual({
      result: 'success',
      data: {
        valid: true,
        voucherCode: made.voucherCode,
        rewardName: '10% off',
        rewardType: 'discount',
        status: 'pending',
        redeemedAt: now,
        expiresAt: made.expiresAt,
      },
    });
    expect((res.body as { data: object }).data).not.toHaveProperty('memberName');
  });

  it('reads the code case-insensitively, with or without hyphens, and O, I, L as 0, 1, 1', async () => {
    const { shop, m } = await shopWithMember();
    const made = await voucher(shop, m);
    const expected = (await unwrap(verify(shop, made.voucherCode))).data;
    const bare = made.voucherCode.replace(/-/g, '');
    for (const form of [
      made.voucherCode.toLowerCase(),
      bare,
      bare.toLowerCase(),
      made.voucherCode.replace(/0/g, 'O').replace(/1/g, 'l'),
    ]) {
      expect((await unwrap(verify(shop, form))).data, form).toStrictEqual(expected);
    }
    expect(expected.voucherCode).toBe(made.voucherCode);
  });

  it('answers 404 NOT_FOUND for an unknown or malformed code', async () => {
    const { shop, m } = await shopWithMember();
    const made = await voucher(shop, m);
    const unknown = made.voucherCode.startsWith('0000') ? '1111-1111-1111' : '0000-0000-0000';
    expectResultError(await verify(shop, unknown), 404, 'NOT_FOUND');
    expectResultError(await verify(shop, 'NOT-A-CODE'), 404, 'NOT_FOUND');
    expectResultError(await verify(shop, `${made.voucherCode.replace(/-/g, '')}0`), 404, 'NOT_FOUND');
    expectResultError(await verify(shop, 'UUUU-UUUU-UUUU'), 404, 'NOT_FOUND');
  });

  it('reports a fulfilled or cancelled voucher as not valid', async () => {
    const { shop, m } = await shopWithMember();
    const fulfilled = await voucher(shop, m);
    const cancelled = await voucher(shop, m);
    await unwrap(
      shop.client.loyalty.redemptions.updateRedemption({
        params: { publicId: fulfilled.redemptionId },
        body: { status: 'fulfilled' },
      }),
    );
    await unwrap(
      shop.client.loyalty.redemptions.updateRedemption({
        params: { publicId: cancelled.redemptionId },
        body: { status: 'cancelled' },
      }),
    );
    expect((await unwrap(verify(shop, fulfilled.voucherCode))).data).toMatchObject({
      valid: false,
      status: 'fulfilled',
      voucherCode: fulfilled.voucherCode,
    });
    expect((await unwrap(verify(shop, cancelled.voucherCode))).data).toMatchObject({
      valid: false,
      status: 'cancelled',
      voucherCode: cancelled.voucherCode,
    });
  });

  it('reports a voucher as not valid once the clock reaches its expiresAt', async () => {
    const { shop, m } = await shopWithMember();
    server().clock.set('2026-06-01T09:00:00.000Z');
    const made = await voucher(shop, m, { voucherValidityDays: 2 });
    expect(made.expiresAt).toBe('2026-06-03T09:00:00.000Z');

    server().clock.advance(2 * DAY_MS - 1);
    expect((await unwrap(verify(shop, made.voucherCode))).data).toMatchObject({
      valid: true,
      status: 'pending',
    });
    server().clock.advance(1);
    expect((await unwrap(verify(shop, made.voucherCode))).data).toMatchObject({
      valid: false,
      status: 'pending',
      expiresAt: made.expiresAt,
    });
    server().clock.advance(30 * DAY_MS);
    expect((await unwrap(verify(shop, made.voucherCode))).data.valid).toBe(false);
  });

  it('still verifies a voucher whose reward has since been deleted', async () => {
    const { shop, m } = await shopWithMember();
    const r = await newReward(shop, { name: 'Gone soon', rewardType: 'service' });
    const made = (
      await unwrap(shop.pos.publicLoyalty.publicRedeem({ body: { email: m.email, rewardId: r.publicId } }))
    ).data;
    await unwrap(shop.client.loyalty.rewards.deleteReward({ params: { publicId: r.publicId } }));
    expect((await unwrap(verify(shop, made.voucherCode))).data).toMatchObject({
      valid: true,
      rewardName: 'Gone soon',
      rewardType: 'service',
    });
  });
});
