import { afterEach, describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import type { Member, Redemption } from '../../contract/loyalty/index.js';
import { json, raw, uniqueEmail, type TestBusiness } from '../support/business.js';
import { withEvents } from '../support/events.js';
import { expectResultError, itemAt } from '../support/expect.js';
import { expectLedgerBalanced, member, newReward, redemptionRows, transactions } from '../support/loyalty.js';
import { useTestServer } from '../support/setup.js';
import {
  DAY_MS,
  UNKNOWN_REWARD,
  VOUCHER,
  enroll,
  newShop,
  type Enrolled,
  withoutPhone,
  type Shop,
} from '../support/public-loyalty.js';

const server = useTestServer({ worker: false });

afterEach(() => server().clock.reset());

const redeem = (shop: Shop, email: string, rewardId: string) =>
  shop.pos.publicLoyalty.publicRedeem({ body: { email, rewardId } });

const rawRedeem = (shop: Shop, body: unknown) => {
  const { headers, body: text } = json(body);
  return raw(server(), 'POST', '/v1/public/loyalty/redeem', {
    headers: { ...headers, 'x-api-key': shop.apiKey },
    body: text,
  });
};

async function redemptions(business: TestBusiness): Promise<Redemption[]> {
  return (await unwrap(business.client.loyalty.redemptions.listRedemptions({ query: { limit: 200 } }))).data;
}

async function totalRedemptions(business: TestBusiness, rewardId: string): Promise<number | undefined> {
  const rewards = await unwrap(business.client.loyalty.rewards.listRewards({ query: {} }));
  return rewards.data.find((r) => r.publicId === rewardId)?.totalRedemptions;
}

/** A shop with one member holding `points`. */
async function shopWithMember(points = 1000): Promise<{ shop: Shop; m: Enrolled }> {
  const shop = await newShop(server());
  const m = await enroll(shop, { points, name: 'Ada Lovelace' });
  return { shop, m };
}

describe('POST /v1/public/loyalty/redeem', () => {
  it('debits the reward and issues a voucher that expires after the reward validity (201)', async () => {
    const { shop, m } = await shopWithMember(500);
    const reward = await newReward(shop, { name: 'Car wash', pointsCost: 120, voucherValidityDays: 30 });
    const now = '2026-04-10T08:30:00.000Z';
    server().clock.set(now);

    const res = await redeem(shop, m.email, reward.publicId);
    expect(res.status).toBe(201);
    const body = await unwrap(res);
    expect(body).toEqual({
      result: 'success',
      data: {
        redemptionId: expect.stringMatching(/^red_/),
        rewardName: 'Car wash',
        pointsSpent: 120,
        newBalance: 380,
        voucherCode: expect.stringMatching(VOUCHER),
        expiresAt: '2026-05-10T08:30:00.000Z',
      },
    });

    // The token API shows the same redemption, pending, for this member.
    const listed = (await redemptions(shop)).find((r) => r.publicId === body.data.redemptionId);
    expect(listed).toEqual({
      publicId: body.data.redemptionId,
      memberId: m.memberId,
      memberName: 'Ada Lovelace',
      rewardId: reward.publicId,
      rewardName: 'Car wash',
      pointsSpent: 120,
      status: 'pending',
      voucherCode: body.data.voucherCode,
      notes: null,
      redeemedAt: now,
      fulfilledAt: null,
      expiresAt: '2026-05-10T08:30:00.000Z',
    });
  });

  it('gives vouchers 90 days by default', async () => {
    const { shop, m } = await shopWithMember();
    const reward = await newReward(shop);
    const now = '2026-01-01T00:00:00.000Z';
    server().clock.set(now);
    const made = (await unwrap(redeem(shop, m.email, reward.publicId))).data;
    expect(Date.parse(made.expiresAt) - Date.parse(now)).toBe(90 * DAY_MS);
  });

  it('writes a redeem transaction, keeps lifetime points and counts the redemption on the reward', async () => {
    const { shop, m } = await shopWithMember(500);
    const reward = await newReward(shop, { name: 'Oil change', pointsCost: 150 });
    const made = (await unwrap(redeem(shop, m.email, reward.publicId))).data;

    const after = await expectLedgerBalanced(shop, m.memberId);
    expect(after).toMatchObject({ pointsBalance: 350, lifetimePoints: 500 });
    const redeemed = (await transactions(shop, m.memberId)).filter((t) => t.type === 'redeem');
    expect(redeemed).toEqual([
      expect.objectContaining({
        memberId: m.memberId,
        points: -150,
        balanceAfter: 350,
        description: 'Redeemed Oil change',
        referenceType: 'reward',
        referenceId: made.redemptionId,
      }),
    ]);
    expect(await totalRedemptions(shop, reward.publicId)).toBe(1);
  });

  it('finds the member by email whatever its case', async () => {
    const { shop, m } = await shopWithMember(300);
    const reward = await newReward(shop, { pointsCost: 100 });
    const made = await unwrap(redeem(shop, m.email.toUpperCase(), reward.publicId));
    expect(made.data.newBalance).toBe(200);
  });

  it('lets a member spend the whole balance, down to exactly 0, and then refuses', async () => {
    const { shop, m } = await shopWithMember(200);
    const reward = await newReward(shop, { pointsCost: 100 });
    expect((await unwrap(redeem(shop, m.email, reward.publicId))).data.newBalance).toBe(100);
    expect((await unwrap(redeem(shop, m.email, reward.publicId))).data.newBalance).toBe(0);
    expectResultError(await redeem(shop, m.email, reward.publicId), 422, 'INSUFFICIENT_POINTS');
    expect((await expectLedgerBalanced(shop, m.memberId)).pointsBalance).toBe(0);
  });

  it('announces loyalty.reward_redeemed with the redemption and the member after the debit', async () => {
    const { shop, m } = await shopWithMember(300);
    const reward = await newReward(shop, { pointsCost: 100 });
    const { result, events } = await withEvents(server(), shop.businessId, () =>
      unwrap(redeem(shop, m.email, reward.publicId)),
    );
    expect(events.map((e) => e.type)).toEqual(['loyalty.reward_redeemed']);
    const data = itemAt(events, 0).data as { redemption: Redemption; member: Member };
    const listed = (await redemptions(shop)).find((r) => r.publicId === result.data.redemptionId);
    expect(data.redemption).toEqual(listed);
    const asMember = withoutPhone(await member(shop, m.memberId));
    expect(data.member).toEqual(asMember);
    expect(data.member).toMatchObject({ publicId: m.memberId, pointsBalance: 200 });
  });

  it('refuses when the balance is short (422 INSUFFICIENT_POINTS) and changes nothing', async () => {
    const { shop, m } = await shopWithMember(99);
    const reward = await newReward(shop, { pointsCost: 100 });
    const { result, events } = await withEvents(server(), shop.businessId, () =>
      redeem(shop, m.email, reward.publicId),
    );
    expectResultError(result, 422, 'INSUFFICIENT_POINTS');
    expect(events).toEqual([]);
    expect((await expectLedgerBalanced(shop, m.memberId)).pointsBalance).toBe(99);
    expect((await transactions(shop, m.memberId)).map((t) => t.type)).toEqual(['adjust']);
    expect(await redemptionRows(server(), shop.businessId)).toEqual([]);
    expect(await totalRedemptions(shop, reward.publicId)).toBe(0);
  });

  it('refuses an inactive reward (409 INVALID_STATE) without debiting, and redeems it once reactivated', async () => {
    const { shop, m } = await shopWithMember(500);
    const reward = await newReward(shop, { isActive: false, pointsCost: 100 });
    const { result, events } = await withEvents(server(), shop.businessId, () =>
      redeem(shop, m.email, reward.publicId),
    );
    expectResultError(result, 409, 'INVALID_STATE');
    expect(events).toEqual([]);
    expect((await expectLedgerBalanced(shop, m.memberId)).pointsBalance).toBe(500);
    expect(await redemptionRows(server(), shop.businessId)).toEqual([]);
    await unwrap(
      shop.client.loyalty.rewards.updateReward({
        params: { publicId: reward.publicId },
        body: { isActive: true },
      }),
    );
    expect((await unwrap(redeem(shop, m.email, reward.publicId))).data.newBalance).toBe(400);
  });

  it.each(['suspended', 'inactive'] as const)(
    'refuses a member who is %s (409 INVALID_STATE) without debiting',
    async (status) => {
      const { shop, m } = await shopWithMember(500);
      const reward = await newReward(shop, { pointsCost: 100 });
      await unwrap(
        shop.client.loyalty.members.updateMember({ params: { publicId: m.memberId }, body: { status } }),
      );
      const { result, events } = await withEvents(server(), shop.businessId, () =>
        redeem(shop, m.email, reward.publicId),
      );
      expectResultError(result, 409, 'INVALID_STATE');
      expect(events).toEqual([]);
      expect((await expectLedgerBalanced(shop, m.memberId)).pointsBalance).toBe(500);
      expect(await redemptionRows(server(), shop.businessId)).toEqual([]);
    },
  );

  it('answers 404 NOT_FOUND for an unknown email, a customer who is not a member, and a deleted member', async () => {
    const { shop, m } = await shopWithMember(500);
    const reward = await newReward(shop, { pointsCost: 100 });
    expectResultError(await redeem(shop, uniqueEmail('nobody'), reward.publicId), 404, 'NOT_FOUND');

    const email = uniqueEmail('customer');
    await unwrap(shop.client.general.customers.createCustomer({ body: { name: 'Not A Member', email } }));
    expectResultError(await redeem(shop, email, reward.publicId), 404, 'NOT_FOUND');

    await unwrap(shop.client.loyalty.members.deleteMember({ params: { publicId: m.memberId } }));
    expectResultError(await redeem(shop, m.email, reward.publicId), 404, 'NOT_FOUND');
    expect(await redemptionRows(server(), shop.businessId)).toEqual([]);
  });

  it('refuses an unknown or deleted rewardId (422 VALIDATION_ERROR on rewardId)', async () => {
    const { shop, m } = await shopWithMember(500);
    expectResultError(await redeem(shop, m.email, UNKNOWN_REWARD), 422, 'VALIDATION_ERROR', 'rewardId');
    const reward = await newReward(shop, { pointsCost: 100 });
    await unwrap(shop.client.loyalty.rewards.deleteReward({ params: { publicId: reward.publicId } }));
    expectResultError(await redeem(shop, m.email, reward.publicId), 422, 'VALIDATION_ERROR', 'rewardId');
    expect((await expectLedgerBalanced(shop, m.memberId)).pointsBalance).toBe(500);
    expect(await redemptionRows(server(), shop.businessId)).toEqual([]);
  });

  it.each([
    ['a missing rewardId', { rewardId: undefined }, 'rewardId'],
    ['a rewardId that is not a string', { rewardId: 42 }, 'rewardId'],
    ['a missing email', { email: undefined }, 'email'],
    ['an invalid email', { email: 'nope' }, 'email'],
    ['an unknown field', { pointsCost: 1 }, 'pointsCost'],
  ])('refuses %s (422 VALIDATION_ERROR) and debits nothing', async (_what, change, field) => {
    const { shop, m } = await shopWithMember(500);
    const reward = await newReward(shop, { pointsCost: 100 });
    const res = await rawRedeem(shop, { email: m.email, rewardId: reward.publicId, ...change });
    expectResultError(res, 422, 'VALIDATION_ERROR', field);
    expect((await expectLedgerBalanced(shop, m.memberId)).pointsBalance).toBe(500);
    expect(await redemptionRows(server(), shop.businessId)).toEqual([]);
  });

  it('replays a retried redeem with the same Idempotency-Key instead of debiting twice', async () => {
    const { shop, m } = await shopWithMember(500);
    const reward = await newReward(shop, { pointsCost: 100 });
    const args = {
      body: { email: m.email, rewardId: reward.publicId },
      headers: { 'idempotency-key': `redeem-${m.memberId}` },
    };
    const first = await shop.pos.publicLoyalty.publicRedeem(args);
    const again = await shop.pos.publicLoyalty.publicRedeem(args);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await expectLedgerBalanced(shop, m.memberId)).pointsBalance).toBe(400);
    expect(await redemptionRows(server(), shop.businessId)).toHaveLength(1);
  });
});
