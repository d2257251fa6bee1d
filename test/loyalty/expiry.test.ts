import { beforeAll, describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import type { Transaction } from '../../contract/loyalty/index.js';
import { expirePoints } from '../../server/loyalty/expiry/service.js';
import { registerBusiness, type TestBusiness } from '../support/business.js';
import { outbox } from '../support/events.js';
import { useTestServer } from '../support/setup.js';
import {
  adjustPoints,
  createProgram,
  createRedemption,
  enrollMember,
  newReward,
} from '../support/loyalty.js';

// The job is called directly with the clock moved; no worker runs it behind the test's back. The
// clock moves years ahead, so tokens must outlive it.
const server = useTestServer({ worker: false, env: { ACCESS_TOKEN_TTL: '3650d' } });

const DAY = 24 * 60 * 60 * 1000;

/** Sets the server's clock `days` (fractions allowed) after `base`. */
const on = (base: string, days: number) =>
  server().clock.set(new Date(new Date(base).getTime() + days * DAY).toISOString());

const expire = () => expirePoints(server().deps);

async function openShop(pointsExpiryDays: number): Promise<TestBusiness> {
  const biz = await registerBusiness(server());
  await createProgram(biz.client, {
    name: 'Bakery Club',
    pointsName: 'Crumbs',
    pointsPerCurrency: 1,
    pointsExpiryDays,
  });
  return biz;
}

const enroll = (biz: TestBusiness, name = 'Ada Lovelace') => enrollMember(biz.client, { customer: { name } });

const adjust = (biz: TestBusiness, memberId: string, points: number) =>
  adjustPoints(biz.client, memberId, points, `Adjust ${points}`);

/** A redemption by the member of a new product reward costing `pointsCost`. */
async function redeem(biz: TestBusiness, memberId: string, pointsCost: number) {
  const reward = await newReward(biz, { name: `Treat ${pointsCost}`, pointsCost });
  return createRedemption(biz.client, { memberId, rewardId: reward.publicId });
}

const member = async (biz: TestBusiness, id: string) =>
  (await unwrap(biz.client.loyalty.members.getMember({ params: { publicId: id } }))).data;

const history = async (biz: TestBusiness, id: string, type?: Transaction['type']) =>
  (
    await unwrap(
      biz.client.loyalty.members.listMemberTransactions({
        params: { publicId: id },
        query: { limit: 200, ...(type ? { type } : {}) },
      }),
    )
  ).data;

/** The balance always equals the sum of the member's ledger, and the newest row's balanceAfter. */
async function expectBalance(biz: TestBusiness, id: string, balance: number) {
  const m = await member(biz, id);
  const rows = await history(biz, id);
  expect(m.pointsBalance).toBe(balance);
  expect(rows.reduce((sum, t) => sum + t.points, 0)).toBe(balance);
  expect(rows[0]?.balanceAfter ?? 0).toBe(balance);
}

describe('points expiry', () => {
  let biz: TestBusiness;
  beforeAll(async () => {
    biz = await openShop(30);
  });

  it('expires the oldest points first, taking the rest of each credit when its time comes', async () => {
    const day0 = '2030-01-01T10:00:00.000Z';
    const m = await enroll(biz);
    on(day0, 0);
    const first = await adjust(biz, m.publicId, 100);
    on(day0, 5);
    const redemption = await redeem(biz, m.publicId, 30);
    expect(redemption.pointsSpent).toBe(30);
    on(day0, 10);
    await adjust(biz, m.publicId, 50);
    await expectBalance(biz, m.publicId, 120);

    // The first credit expires 30 days after it was earned, to the millisecond.
    on(day0, 30);
    server().clock.advance(-1);
    expect(await expire()).toBe(0);
    await expectBalance(biz, m.publicId, 120);

    on(day0, 31);
    expect(await expire()).toBe(1);
    const [expired] = await history(biz, m.publicId, 'expire');
    expect(expired).toEqual({
      publicId: expect.any(String),
      memberId: m.publicId,
      type: 'expire',
      points: -70,
      balanceAfter: 50,
      description: 'Points expired',
      referenceType: null,
      referenceId: null,
      multiplierApplied: 1,
      dateCreated: new Date(new Date(day0).getTime() + 31 * DAY).toISOString(),
    });
    await expectBalance(biz, m.publicId, 50);
    expect(await expire()).toBe(0);

    on(day0, 40);
    server().clock.advance(-1);
    expect(await expire()).toBe(0);
    on(day0, 41);
    expect(await expire()).toBe(1);
    expect((await history(biz, m.publicId, 'expire')).map((t) => t.points)).toEqual([-50, -70]);
    await expectBalance(biz, m.publicId, 0);

    // Expiry removes points from the balance, never from the lifetime total (or the tier it earned).
    expect((await member(biz, m.publicId)).lifetimePoints).toBe(150);
    expect(first.points).toBe(100);
    on(day0, 400);
    expect(await expire()).toBe(0);
  });

  it('expires only what is left of a credit after debits spanning several credits', async () => {
    const day0 = '2030-06-01T08:00:00.000Z';
    const m = await enroll(biz, 'Grace Hopper');
    on(day0, 0);
    await adjust(biz, m.publicId, 100);
    on(day0, 10);
    await adjust(biz, m.publicId, 50);
    on(day0, 15);
    await adjust(biz, m.publicId, -120);
    await expectBalance(biz, m.publicId, 30);

    // The first credit was used up: nothing of it expires.
    on(day0, 35);
    expect(await expire()).toBe(0);
    await expectBalance(biz, m.publicId, 30);

    on(day0, 45);
    expect(await expire()).toBe(1);
    expect((await history(biz, m.publicId, 'expire')).map((t) => t.points)).toEqual([-30]);
    await expectBalance(biz, m.publicId, 0);
  });

  it('expires nothing of a credit that was spent in full', async () => {
    const day0 = '2030-09-01T12:00:00.000Z';
    const m = await enroll(biz, 'Spent Member');
    on(day0, 0);
    await adjust(biz, m.publicId, 80);
    on(day0, 1);
    await redeem(biz, m.publicId, 80);
    on(day0, 60);
    expect(await expire()).toBe(0);
    expect(await history(biz, m.publicId, 'expire')).toEqual([]);
    await expectBalance(biz, m.publicId, 0);
  });

  it('expires each credit on its own date, even when the expiry period changed in between', async () => {
    const other = await openShop(30);
    const day0 = '2030-11-01T00:00:00.000Z';
    const m = await enroll(other, 'Mixed Periods');
    on(day0, 0);
    await adjust(other, m.publicId, 40);
    await unwrap(other.client.loyalty.program.updateProgram({ body: { pointsExpiryDays: 5 } }));
    on(day0, 1);
    await adjust(other, m.publicId, 25);

    on(day0, 6);
    expect(await expire()).toBe(1);
    expect((await history(other, m.publicId, 'expire')).map((t) => t.points)).toEqual([-25]);
    await expectBalance(other, m.publicId, 40);

    on(day0, 30);
    expect(await expire()).toBe(1);
    expect((await history(other, m.publicId, 'expire')).map((t) => t.points)).toEqual([-40, -25]);
    await expectBalance(other, m.publicId, 0);
  });

  it('expires the points of suspended and inactive members too, but leaves deleted members alone', async () => {
    const day0 = '2031-01-01T00:00:00.000Z';
    const suspended = await enroll(biz, 'Suspended Member');
    const inactive = await enroll(biz, 'Inactive Member');
    const deleted = await enroll(biz, 'Deleted Member');
    on(day0, 0);
    for (const m of [suspended, inactive, deleted]) await adjust(biz, m.publicId, 10);
    await unwrap(
      biz.client.loyalty.members.updateMember({
        params: { publicId: suspended.publicId },
        body: { status: 'suspended' },
      }),
    );
    await unwrap(
      biz.client.loyalty.members.updateMember({
        params: { publicId: inactive.publicId },
        body: { status: 'inactive' },
      }),
    );
    await unwrap(biz.client.loyalty.members.deleteMember({ params: { publicId: deleted.publicId } }));

    on(day0, 31);
    expect(await expire()).toBe(2);
    await expectBalance(biz, suspended.publicId, 0);
    await expectBalance(biz, inactive.publicId, 0);
    const kept = await server()
      .deps.db.selectFrom('loyalty_transactions')
      .select(['type', 'remaining'])
      .where('business_id', '=', biz.businessId)
      .where('member_id', '=', deleted.publicId)
      .execute();
    expect(kept).toEqual([{ type: 'adjust', remaining: 10 }]);
  });

  it('never expires points when the program keeps them forever (pointsExpiryDays 0)', async () => {
    const forever = await openShop(0);
    const day0 = '2031-03-01T00:00:00.000Z';
    const m = await enroll(forever, 'Forever Member');
    on(day0, 0);
    await adjust(forever, m.publicId, 500);
    on(day0, 3000);
    expect(await expire()).toBe(0);
    await expectBalance(forever, m.publicId, 500);
  });

  it('records no event and leaves other businesses untouched', async () => {
    const mine = await openShop(30);
    const theirs = await openShop(0);
    const day0 = '2031-05-01T00:00:00.000Z';
    const a = await enroll(mine, 'Mine');
    const b = await enroll(theirs, 'Theirs');
    on(day0, 0);
    await adjust(mine, a.publicId, 20);
    await adjust(theirs, b.publicId, 20);
    const before = (await outbox(server(), mine.businessId)).length;
    on(day0, 31);
    expect(await expire()).toBe(1);
    expect(await outbox(server(), mine.businessId)).toHaveLength(before);
    await expectBalance(mine, a.publicId, 0);
    await expectBalance(theirs, b.publicId, 20);
  });

  it('expires each credit exactly once when several runs race', async () => {
    const busy = await openShop(30);
    const day0 = '2031-07-01T00:00:00.000Z';
    const members = await Promise.all([1, 2, 3, 4].map((i) => enroll(busy, `Racer ${i}`)));
    for (const [i, m] of members.entries()) {
      on(day0, i);
      await adjust(busy, m.publicId, 10 * (i + 1));
      on(day0, i + 0.5);
      await adjust(busy, m.publicId, 5);
    }
    on(day0, 60);
    const counts = await Promise.all([expire(), expire(), expire()]);
    expect(counts.reduce((x, y) => x + y, 0)).toBe(8);
    for (const m of members) {
      expect(await history(busy, m.publicId, 'expire')).toHaveLength(2);
      await expectBalance(busy, m.publicId, 0);
    }
    expect(await expire()).toBe(0);
  });
});
