import { beforeAll, describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import type { Stats } from '../../contract/loyalty/index.js';
import { expirePoints } from '../../server/loyalty/expiry/service.js';
import { raw, registerBusiness, uniqueEmail, type TestBusiness } from '../support/business.js';
import { useTestServer } from '../support/setup.js';
import {
  adjustPoints,
  createProgram,
  createRedemption,
  createTier,
  enrollMember,
  newReward,
} from '../support/loyalty.js';

// Expiry is run by hand below; no worker runs it behind the test's back.
const server = useTestServer({ worker: false, env: { ACCESS_TOKEN_TTL: '3650d' } });

const DAY = 24 * 60 * 60 * 1000;

async function stats(biz: TestBusiness): Promise<Stats> {
  const main = await unwrap(biz.client.loyalty.stats.getStats());
  const alias = await unwrap(biz.client.loyalty.stats.getStatsAlias());
  expect(alias, 'GET /v1/get/loyalty/stats answers what GET /v1/loyalty/stats does').toEqual(main);
  expect(main.result).toBe('success');
  return main.data;
}

async function openShop(body: { pointsExpiryDays?: number } = {}): Promise<TestBusiness> {
  const biz = await registerBusiness(server());
  await createProgram(biz.client, { name: 'Book Club', pointsName: 'Pages', pointsPerCurrency: 1, ...body });
  return biz;
}

const enroll = (biz: TestBusiness, name: string, initialPoints?: number) =>
  enrollMember(biz.client, {
    customer: { name, email: uniqueEmail('reader') },
    ...(initialPoints ? { initialPoints } : {}),
  });

const adjust = (biz: TestBusiness, memberId: string, points: number) =>
  adjustPoints(biz.client, memberId, points, 'Test');

const reward = (biz: TestBusiness, pointsCost: number) =>
  newReward(biz, { name: `Book ${pointsCost}`, pointsCost });

const redeem = (biz: TestBusiness, memberId: string, rewardId: string) =>
  createRedemption(biz.client, { memberId, rewardId });

const setStatus = (biz: TestBusiness, redemptionId: string, status: 'fulfilled' | 'cancelled') =>
  unwrap(
    biz.client.loyalty.redemptions.updateRedemption({ params: { publicId: redemptionId }, body: { status } }),
  );

const tier = (biz: TestBusiness, name: string, minPoints: number, color: string) =>
  createTier(biz.client, { name, minPoints, color });

describe('GET /v1/loyalty/stats', () => {
  it('answers zeros and no tiers for a business without a program', async () => {
    const biz = await registerBusiness(server());
    expect(await stats(biz)).toEqual({
      totalMembers: 0,
      activeMembers: 0,
      totalPointsIssued: 0,
      totalPointsRedeemed: 0,
      redemptionRate: 0,
      tierDistribution: [],
    });
  });

  it('lists every tier of the program lowest first, empty ones with count 0', async () => {
    const biz = await openShop();
    await tier(biz, 'Gold', 5000, '#FFD700');
    await tier(biz, 'Bronze', 0, '#CD7F32');
    await tier(biz, 'Silver', 1000, '#C0C0C0');
    expect(await stats(biz)).toEqual({
      totalMembers: 0,
      activeMembers: 0,
      totalPointsIssued: 0,
      totalPointsRedeemed: 0,
      redemptionRate: 0,
      tierDistribution: [
        { name: 'Bronze', count: 0, color: '#CD7F32' },
        { name: 'Silver', count: 0, color: '#C0C0C0' },
        { name: 'Gold', count: 0, color: '#FFD700' },
      ],
    });
  });

  describe('after a known sequence of earns, redemptions and a cancellation', () => {
    let biz: TestBusiness;
    let other: TestBusiness;
    let ids: Record<'m1' | 'm2' | 'm3' | 'm4' | 'm5', string>;

    beforeAll(async () => {
      biz = await openShop();
      other = await openShop();
      await tier(biz, 'Bronze', 0, '#CD7F32');
      await tier(biz, 'Silver', 1000, '#C0C0C0');
      await tier(biz, 'Gold', 5000, '#FFD700');
      const m1 = await enroll(biz, 'Reader One');
      const m2 = await enroll(biz, 'Reader Two', 300);
      const m3 = await enroll(biz, 'Reader Three');
      const m4 = await enroll(biz, 'Reader Four');
      const m5 = await enroll(biz, 'Reader Five');
      ids = { m1: m1.publicId, m2: m2.publicId, m3: m3.publicId, m4: m4.publicId, m5: m5.publicId };
      await enroll(other, 'Somebody Else', 999);
    });

    it('counts issued points, redeemed points less refunds, members, and members per tier', async () => {
      await adjust(biz, ids.m1, 1200); // lifetime 1200: Silver
      await adjust(biz, ids.m3, 100);
      await adjust(biz, ids.m4, 50);
      await adjust(biz, ids.m2, -30); // a manual removal is not a redemption
      await unwrap(
        biz.client.loyalty.members.updateMember({
          params: { publicId: ids.m3 },
          body: { status: 'suspended' },
        }),
      );
      await unwrap(
        biz.client.loyalty.members.updateMember({
          params: { publicId: ids.m5 },
          body: { status: 'inactive' },
        }),
      );

      const book = await reward(biz, 200);
      const first = await redeem(biz, ids.m1, book.publicId);
      const second = await redeem(biz, ids.m1, book.publicId);
      await redeem(biz, ids.m2, book.publicId);
      await setStatus(biz, first.publicId, 'fulfilled');

      const beforeCancel = await stats(biz);
      expect(beforeCancel.totalPointsIssued).toBe(1650);
      expect(beforeCancel.totalPointsRedeemed).toBe(600);
      expect(beforeCancel.redemptionRate).toBe(36.36);

      // The refund of a cancelled redemption is not issued, and takes its points out of redeemed.
      await setStatus(biz, second.publicId, 'cancelled');
      await unwrap(biz.client.loyalty.members.deleteMember({ params: { publicId: ids.m4 } }));

      expect(await stats(biz)).toEqual({
        totalMembers: 4,
        activeMembers: 2,
        totalPointsIssued: 1650, // 1200 + 300 + 100 + 50, the deleted member's included
        totalPointsRedeemed: 400, // 3 x 200 - 200 refunded
        redemptionRate: 24.24, // 400 / 1650 = 24.2424...%
        tierDistribution: [
          { name: 'Bronze', count: 3, color: '#CD7F32' },
          { name: 'Silver', count: 1, color: '#C0C0C0' },
          { name: 'Gold', count: 0, color: '#FFD700' },
        ],
      });
    });

    it('agrees with the ledger the API shows', async () => {
      const { data: all } = await unwrap(
        biz.client.loyalty.transactions.listTransactions({ query: { limit: 200 } }),
      );
      const issued = all
        .filter((t) => t.points > 0 && !(t.type === 'adjust' && t.referenceType === 'reward'))
        .reduce((sum, t) => sum + t.points, 0);
      const redeemed =
        -all.filter((t) => t.type === 'redeem').reduce((sum, t) => sum + t.points, 0) -
        all
          .filter((t) => t.type === 'adjust' && t.referenceType === 'reward')
          .reduce((sum, t) => sum + t.points, 0);
      const current = await stats(biz);
      expect(current.totalPointsIssued).toBe(issued);
      expect(current.totalPointsRedeemed).toBe(redeemed);
    });

    it("keeps each business's numbers apart", async () => {
      expect(await stats(other)).toEqual({
        totalMembers: 1,
        activeMembers: 1,
        totalPointsIssued: 999,
        totalPointsRedeemed: 0,
        redemptionRate: 0,
        tierDistribution: [],
      });
    });

    it('counts expired points neither as redeemed nor as no longer issued', async () => {
      const before = await stats(biz);
      await unwrap(biz.client.loyalty.program.updateProgram({ body: { pointsExpiryDays: 1 } }));
      const start = server().clock.now().getTime();
      await adjust(biz, ids.m2, 10);
      server().clock.set(new Date(start + 2 * DAY).toISOString());
      expect(await expirePoints(server().deps)).toBe(1);
      const after = await stats(biz);
      expect(after.totalPointsIssued).toBe(before.totalPointsIssued + 10);
      expect(after.totalPointsRedeemed).toBe(before.totalPointsRedeemed);
      expect(after.redemptionRate).toBe(Math.round((400 / 1660) * 10_000) / 100);
    });

    it('shows no tiers once the program is deleted, but keeps the totals', async () => {
      const before = await stats(biz);
      await unwrap(biz.client.loyalty.program.deleteProgram());
      expect(await stats(biz)).toEqual({ ...before, tierDistribution: [] });
    });
  });

  it('rounds the redemption rate to two decimals', async () => {
    const biz = await openShop();
    const m = await enroll(biz, 'Rounding Reader', 3);
    const one = await reward(biz, 1);
    await redeem(biz, m.publicId, one.publicId);
    expect((await stats(biz)).redemptionRate).toBe(33.33);
    await redeem(biz, m.publicId, one.publicId);
    expect((await stats(biz)).redemptionRate).toBe(66.67);
    await redeem(biz, m.publicId, one.publicId);
    expect((await stats(biz)).redemptionRate).toBe(100);
  });

  it('refuses a request without credentials (401) on both paths', async () => {
    for (const path of ['/v1/loyalty/stats', '/v1/get/loyalty/stats']) {
      const res = await raw(server(), 'GET', path);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ result: 'error', error: { code: 'UNAUTHORIZED', status: 401 } });
    }
  });
});
