import { afterEach, describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import type { Member, Redemption, Reward } from '../../contract/loyalty/index.js';
import { expireVouchers } from '../../server/loyalty/redemptions/service.js';
import { json, raw, registerBusiness, type TestBusiness } from '../support/business.js';
import { onPostgres } from '../support/database.js';
import { outbox, withEvents } from '../support/events.js';
import { atLeast, expectResultError, itemAt } from '../support/expect.js';
import {
  createProgram,
  enrollMember,
  expectLedgerBalanced,
  member,
  newReward,
  redemptionRows,
  transactions,
} from '../support/loyalty.js';
import { useTestServer } from '../support/setup.js';
import { createCustomer } from '../support/general.js';

// A pool large enough that concurrent redeems really run at once on PostgreSQL (row locks, not the
// pool, serialise them). No worker: the periodic voucher expiry would race the tests that drive it.
const server = useTestServer({ env: { DB_POOL_SIZE: '30' }, worker: false });

afterEach(() => server().clock.reset());

const DAY_MS = 24 * 60 * 60 * 1000;
const VOUCHER = /^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;
const UNKNOWN_MEMBER = 'mem_01JD7X2R5VQ8N3K4M6P9T1W2Y3';
const UNKNOWN_REWARD = 'rew_01JD7X2R5VQ8N3K4M6P9T1W2Y3';
const UNKNOWN_REDEMPTION = 'red_01JD7X2R5VQ8N3K4M6P9T1W2Y3';

interface Shop extends TestBusiness {
  memberId: string;
  customerName: string;
}

let customers = 0;

/** A business with a loyalty program and one member holding `points`. */
async function newShop(points = 1000): Promise<Shop> {
  const business = await registerBusiness(server());
  await createProgram(business.client, { pointsName: 'Points', pointsPerCurrency: 1 });
  const { memberId, customerName } = await enroll(business, points);
  return { ...business, memberId, customerName };
}

/** Enrolls a new customer of the business with `points`. */
async function enroll(t: TestBusiness, points: number): Promise<{ memberId: string; customerName: string }> {
  customers += 1;
  const customerName = `Customer ${customers}`;
  const customer = await createCustomer(t.client, { name: customerName });
  const member = await enrollMember(t.client, { customerId: customer.id, initialPoints: points });
  return { memberId: member.publicId, customerName };
}

const redeemCall = (t: Shop, rewardId: string, extra: { memberId?: string; notes?: string } = {}) =>
  t.client.loyalty.redemptions.createRedemption({ body: { memberId: t.memberId, rewardId, ...extra } });

async function redeem(t: Shop, rewardId: string, extra: { memberId?: string; notes?: string } = {}) {
  return (await unwrap(redeemCall(t, rewardId, extra))).data;
}

const move = (
  t: TestBusiness,
  id: string,
  body: { status: 'pending' | 'fulfilled' | 'cancelled'; notes?: string },
) => t.client.loyalty.redemptions.updateRedemption({ params: { publicId: id }, body });

async function allRedemptions(t: TestBusiness, query: Record<string, string | number> = {}) {
  return unwrap(t.client.loyalty.redemptions.listRedemptions({ query: { limit: 200, ...query } }));
}

async function redemption(t: TestBusiness, id: string): Promise<Redemption | undefined> {
  return (await allRedemptions(t)).data.find((r) => r.publicId === id);
}

async function reward(t: TestBusiness, id: string): Promise<Reward | undefined> {
  return (await unwrap(t.client.loyalty.rewards.listRewards({ query: {} }))).data.find(
    (r) => r.publicId === id,
  );
}

const verify = (t: TestBusiness, code: string) =>
  t.client.loyalty.redemptions.verifyVoucher({ params: { code } });

describe('redeeming a reward', () => {
  it('creates a pending redemption with a voucher that expires after the reward validity (201)', async () => {
    const t = await newShop(500);
    const r = await newReward(t, { name: 'Car wash', pointsCost: 120, voucherValidityDays: 30 });
    const now = '2026-04-10T08:30:00.000Z';
    server().clock.set(now);
    const res = await redeemCall(t, r.publicId, { notes: 'At the front desk' });
    expect(res.status).toBe(201);
    const body = await unwrap(res);
    expect(body).toEqual({
      result: 'success',
      data: {
        publicId: expect.stringMatching(/^red_/),
        memberId: t.memberId,
        memberName: t.customerName,
        rewardId: r.publicId,
        rewardName: 'Car wash',
        pointsSpent: 120,
        status: 'pending',
        voucherCode: expect.stringMatching(VOUCHER),
        notes: 'At the front desk',
        redeemedAt: now,
        fulfilledAt: null,
        expiresAt: '2026-05-10T08:30:00.000Z',
      },
    });
    expect(await redemption(t, body.data.publicId)).toEqual(body.data);
  });

  it('gives vouchers 90 days by default', async () => {
    const t = await newShop();
    const r = await newReward(t);
    const made = await redeem(t, r.publicId);
    expect(Date.parse(made.expiresAt) - Date.parse(made.redeemedAt)).toBe(90 * DAY_MS);
  });

  it('debits the cost through a redeem transaction, keeps lifetime points, and counts the redemption', async () => {
    const t = await newShop(500);
    const r = await newReward(t, { name: 'Car wash', pointsCost: 120 });
    const before = await member(t, t.memberId);
    const made = await redeem(t, r.publicId);

    const after = await expectLedgerBalanced(t, t.memberId);
    expect(after.pointsBalance).toBe(380);
    expect(after.lifetimePoints).toBe(before.lifetimePoints);
    const [latest] = await transactions(t, t.memberId);
    expect(latest).toMatchObject({
      memberId: t.memberId,
      type: 'redeem',
      points: -120,
      balanceAfter: 380,
      description: 'Redeemed Car wash',
      referenceType: 'reward',
      referenceId: made.publicId,
    });
    expect((await reward(t, r.publicId))?.totalRedemptions).toBe(1);
    await redeem(t, r.publicId);
    expect((await reward(t, r.publicId))?.totalRedemptions).toBe(2);
    expect((await expectLedgerBalanced(t, t.memberId)).pointsBalance).toBe(260);
  });

  it('lets a member spend the whole balance, down to exactly 0', async () => {
    const t = await newShop(100);
    const r = await newReward(t, { pointsCost: 100 });
    await redeem(t, r.publicId);
    expect((await expectLedgerBalanced(t, t.memberId)).pointsBalance).toBe(0);
  });

  it('announces loyalty.reward_redeemed with the redemption and the member after the debit', async () => {
    const t = await newShop(300);
    const r = await newReward(t, { pointsCost: 100 });
    const { result: made, events } = await withEvents(server(), t.businessId, () => redeem(t, r.publicId));
    expect(events.map((e) => e.type)).toEqual(['loyalty.reward_redeemed']);
    const data = itemAt(events, 0).data as { redemption: Redemption; member: Member };
    expect(data.redemption).toEqual(made);
    const detail = await member(t, t.memberId);
    expect(data.member).not.toHaveProperty('customerPhone');
    expect({ ...data.member, customerPhone: detail.customerPhone }).toEqual(detail);
    expect(data.member).toMatchObject({ publicId: t.memberId, pointsBalance: 200 });
  });

  it('draws distinct voucher codes of 12 Crockford base32 characters in groups of four', async () => {
    const t = await newShop(10_000);
    const r = await newReward(t, { pointsCost: 1 });
    const codes: string[] = [];
    for (let i = 0; i < 40; i++) codes.push((await redeem(t, r.publicId)).voucherCode);
    for (const code of codes) expect(code).toMatch(VOUCHER);
    expect(new Set(codes).size).toBe(codes.length);
    const rows = await redemptionRows(server(), t.businessId);
    expect(rows.map((row) => row.voucher_code).sort()).toEqual([...codes].sort());
  });

  it('refuses when the balance is short (422 INSUFFICIENT_POINTS) and changes nothing', async () => {
    const t = await newShop(99);
    const r = await newReward(t, { pointsCost: 100 });
    const { result: res, events } = await withEvents(server(), t.businessId, () => redeemCall(t, r.publicId));
    expectResultError(res, 422, 'INSUFFICIENT_POINTS');
    expect(events).toEqual([]);
    const m = await expectLedgerBalanced(t, t.memberId);
    expect(m.pointsBalance).toBe(99);
    expect((await transactions(t, t.memberId)).map((x) => x.type)).toEqual(['adjust']);
    expect(await redemptionRows(server(), t.businessId)).toEqual([]);
    expect((await reward(t, r.publicId))?.totalRedemptions).toBe(0);
  });

  it('refuses an unknown memberId (422 on memberId)', async () => {
    const t = await newShop();
    const r = await newReward(t);
    expectResultError(
      await redeemCall(t, r.publicId, { memberId: UNKNOWN_MEMBER }),
      422,
      'VALIDATION_ERROR',
      'memberId',
    );
    expect(await redemptionRows(server(), t.businessId)).toEqual([]);
  });

  it('refuses a deleted member (422 on memberId)', async () => {
    const t = await newShop();
    const r = await newReward(t);
    await unwrap(t.client.loyalty.members.deleteMember({ params: { publicId: t.memberId } }));
    expectResultError(await redeemCall(t, r.publicId), 422, 'VALIDATION_ERROR', 'memberId');
    expect(await redemptionRows(server(), t.businessId)).toEqual([]);
  });

  it("refuses another business's member (422 on memberId) and leaves its balance alone", async () => {
    const owner = await newShop(500);
    const other = await newShop(500);
    const r = await newReward(other);
    expectResultError(
      await redeemCall(other, r.publicId, { memberId: owner.memberId }),
      422,
      'VALIDATION_ERROR',
      'memberId',
    );
    expect((await member(owner, owner.memberId)).pointsBalance).toBe(500);
  });

  it('refuses an unknown or deleted rewardId (422 on rewardId)', async () => {
    const t = await newShop();
    expectResultError(await redeemCall(t, UNKNOWN_REWARD), 422, 'VALIDATION_ERROR', 'rewardId');
    const r = await newReward(t);
    await unwrap(t.client.loyalty.rewards.deleteReward({ params: { publicId: r.publicId } }));
    expectResultError(await redeemCall(t, r.publicId), 422, 'VALIDATION_ERROR', 'rewardId');
    expect((await member(t, t.memberId)).pointsBalance).toBe(1000);
  });

  it("refuses another business's reward (422 on rewardId)", async () => {
    const owner = await newShop();
    const other = await newShop();
    const theirs = await newReward(owner);
    expectResultError(await redeemCall(other, theirs.publicId), 422, 'VALIDATION_ERROR', 'rewardId');
    expect((await reward(owner, theirs.publicId))?.totalRedemptions).toBe(0);
    expect((await member(other, other.memberId)).pointsBalance).toBe(1000);
  });

  it.each(['suspended', 'inactive'] as const)(
    'refuses a %s member (409 INVALID_STATE) without debiting',
    async (status) => {
      const t = await newShop(500);
      const r = await newReward(t);
      await unwrap(
        t.client.loyalty.members.updateMember({ params: { publicId: t.memberId }, body: { status } }),
      );
      const { result: res, events } = await withEvents(server(), t.businessId, () =>
        redeemCall(t, r.publicId),
      );
      expectResultError(res, 409, 'INVALID_STATE');
      expect(events).toEqual([]);
      expect((await expectLedgerBalanced(t, t.memberId)).pointsBalance).toBe(500);
      expect(await redemptionRows(server(), t.businessId)).toEqual([]);
    },
  );

  it('refuses an inactive reward (409 INVALID_STATE) without debiting, and redeems it once reactivated', async () => {
    const t = await newShop(500);
    const r = await newReward(t, { isActive: false });
    expectResultError(await redeemCall(t, r.publicId), 409, 'INVALID_STATE');
    expect((await member(t, t.memberId)).pointsBalance).toBe(500);
    expect((await reward(t, r.publicId))?.totalRedemptions).toBe(0);
    await unwrap(
      t.client.loyalty.rewards.updateReward({ params: { publicId: r.publicId }, body: { isActive: true } }),
    );
    await redeem(t, r.publicId);
    expect((await member(t, t.memberId)).pointsBalance).toBe(400);
  });

  it('names an unknown member before an inactive reward, and a state refusal before a short balance', async () => {
    const t = await newShop(10);
    const inactive = await newReward(t, { isActive: false, pointsCost: 100 });
    expectResultError(
      await redeemCall(t, inactive.publicId, { memberId: UNKNOWN_MEMBER }),
      422,
      'VALIDATION_ERROR',
      'memberId',
    );
    expectResultError(await redeemCall(t, inactive.publicId), 409, 'INVALID_STATE');
  });

  it('refuses a body without memberId and rewardId, or with unknown fields (422)', async () => {
    const t = await newShop();
    const missing = await raw(server(), 'POST', '/v1/loyalty/redemptions', {
      token: t.accessToken,
      ...json({}),
    });
    const error = expectResultError(missing, 422, 'VALIDATION_ERROR', 'memberId');
    expect(error.details?.map((d) => d.field)).toContain('rewardId');
    const r = await newReward(t);
    const extra = await raw(server(), 'POST', '/v1/loyalty/redemptions', {
      token: t.accessToken,
      ...json({ memberId: t.memberId, rewardId: r.publicId, points: 1 }),
    });
    expectResultError(extra, 422, 'VALIDATION_ERROR', 'points');
    expect(await redemptionRows(server(), t.businessId)).toEqual([]);
  });
});

describe('moving a redemption', () => {
  it('fulfils a pending redemption: status fulfilled, fulfilledAt set, balance unchanged', async () => {
    const t = await newShop(500);
    const r = await newReward(t, { pointsCost: 100 });
    const made = await redeem(t, r.publicId);
    const at = '2026-06-01T12:00:00.000Z';
    server().clock.set(at);
    const res = await move(t, made.publicId, { status: 'fulfilled' });
    expect(res.status).toBe(200);
    expect(await unwrap(res)).toEqual({ result: 'success', message: expect.any(String) });
    expect(await redemption(t, made.publicId)).toEqual({ ...made, status: 'fulfilled', fulfilledAt: at });
    expect((await expectLedgerBalanced(t, t.memberId)).pointsBalance).toBe(400);
  });

  it('cancels a pending redemption and refunds its points with an adjust transaction, lifetime points unchanged', async () => {
    const t = await newShop(500);
    const r = await newReward(t, { pointsCost: 150 });
    const made = await redeem(t, r.publicId);
    const before = await member(t, t.memberId);
    expect(before.pointsBalance).toBe(350);

    await unwrap(move(t, made.publicId, { status: 'cancelled', notes: 'Changed their mind' }));
    expect(await redemption(t, made.publicId)).toEqual({
      ...made,
      status: 'cancelled',
      notes: 'Changed their mind',
      fulfilledAt: null,
    });
    const after = await expectLedgerBalanced(t, t.memberId);
    expect(after.pointsBalance).toBe(500);
    expect(after.lifetimePoints).toBe(before.lifetimePoints);
    const [refund] = await transactions(t, t.memberId);
    expect(refund).toMatchObject({
      type: 'adjust',
      points: 150,
      balanceAfter: 500,
      description: 'Refund of cancelled redemption',
      referenceType: 'reward',
      referenceId: made.publicId,
    });
    // The counter keeps counting redemptions made, cancelled ones included.
    expect((await reward(t, r.publicId))?.totalRedemptions).toBe(1);
  });

  it('lets the refunded points be redeemed again', async () => {
    const t = await newShop(100);
    const r = await newReward(t, { pointsCost: 100 });
    const first = await redeem(t, r.publicId);
    expectResultError(await redeemCall(t, r.publicId), 422, 'INSUFFICIENT_POINTS');
    await unwrap(move(t, first.publicId, { status: 'cancelled' }));
    await redeem(t, r.publicId);
    expect((await expectLedgerBalanced(t, t.memberId)).pointsBalance).toBe(0);
  });

  it('keeps a pending redemption pending and updates only its notes', async () => {
    const t = await newShop();
    const r = await newReward(t);
    const made = await redeem(t, r.publicId, { notes: 'First' });
    await unwrap(move(t, made.publicId, { status: 'pending', notes: 'Second' }));
    expect(await redemption(t, made.publicId)).toEqual({ ...made, notes: 'Second' });
    await unwrap(move(t, made.publicId, { status: 'pending' }));
    expect(await redemption(t, made.publicId)).toEqual({ ...made, notes: 'Second' });
    expect((await member(t, t.memberId)).pointsBalance).toBe(900);
  });

  it('updates the notes along with a move', async () => {
    const t = await newShop();
    const r = await newReward(t);
    const made = await redeem(t, r.publicId, { notes: 'Before' });
    await unwrap(move(t, made.publicId, { status: 'fulfilled', notes: 'Handed over' }));
    expect(await redemption(t, made.publicId)).toMatchObject({ status: 'fulfilled', notes: 'Handed over' });
  });

  it.each([
    ['fulfilled', 'cancelled'],
    ['fulfilled', 'pending'],
    ['fulfilled', 'fulfilled'],
    ['cancelled', 'fulfilled'],
    ['cancelled', 'pending'],
    ['cancelled', 'cancelled'],
  ] as const)('refuses %s -> %s (409 INVALID_STATE) and changes nothing', async (from, to) => {
    const t = await newShop(500);
    const r = await newReward(t, { pointsCost: 100 });
    const made = await redeem(t, r.publicId);
    await unwrap(move(t, made.publicId, { status: from }));
    const stored = await redemption(t, made.publicId);
    const balance = (await member(t, t.memberId)).pointsBalance;
    expectResultError(await move(t, made.publicId, { status: to, notes: 'Try' }), 409, 'INVALID_STATE');
    expect(await redemption(t, made.publicId)).toEqual(stored);
    expect((await expectLedgerBalanced(t, t.memberId)).pointsBalance).toBe(balance);
  });

  it.each(['pending', 'fulfilled', 'cancelled'] as const)(
    'refuses expired -> %s (409 INVALID_STATE), with no refund',
    async (to) => {
      const t = await newShop(500);
      const r = await newReward(t, { pointsCost: 100, voucherValidityDays: 1 });
      const made = await redeem(t, r.publicId);
      server().clock.advance(2 * DAY_MS);
      await expireVouchers(server().deps);
      expect((await redemption(t, made.publicId))?.status).toBe('expired');
      expectResultError(await move(t, made.publicId, { status: to }), 409, 'INVALID_STATE');
      expect((await redemption(t, made.publicId))?.status).toBe('expired');
      expect((await expectLedgerBalanced(t, t.memberId)).pointsBalance).toBe(400);
    },
  );

  it('treats a pending redemption past its expiry as expired before the job has run (409)', async () => {
    const t = await newShop(500);
    const r = await newReward(t, { pointsCost: 100, voucherValidityDays: 1 });
    const made = await redeem(t, r.publicId);
    server().clock.set(made.expiresAt);
    expectResultError(await move(t, made.publicId, { status: 'fulfilled' }), 409, 'INVALID_STATE');
    expectResultError(await move(t, made.publicId, { status: 'cancelled' }), 409, 'INVALID_STATE');
    expect((await redemption(t, made.publicId))?.status).toBe('pending');
    expect((await member(t, t.memberId)).pointsBalance).toBe(400);
  });

  it('refuses to cancel the redemption of a deleted member (409): there is no balance to refund to', async () => {
    const t = await newShop(500);
    const r = await newReward(t, { pointsCost: 100 });
    const made = await redeem(t, r.publicId);
    await unwrap(t.client.loyalty.members.deleteMember({ params: { publicId: t.memberId } }));
    expectResultError(await move(t, made.publicId, { status: 'cancelled' }), 409, 'INVALID_STATE');
    expect((await redemption(t, made.publicId))?.status).toBe('pending');
    const refunds = await server()
      .deps.db.selectFrom('loyalty_transactions')
      .select('id')
      .where('business_id', '=', t.businessId)
      .where('type', '=', 'adjust')
      .where('reference_type', '=', 'reward')
      .execute();
    expect(refunds).toEqual([]);
  });

  it('refunds once when the same redemption is cancelled concurrently', async () => {
    const t = await newShop(500);
    const r = await newReward(t, { pointsCost: 100 });
    const made = await redeem(t, r.publicId);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => move(t, made.publicId, { status: 'cancelled' })),
    );
    expect(results.map((x) => x.status).sort()).toEqual([200, 409, 409, 409, 409]);
    const m = await expectLedgerBalanced(t, t.memberId);
    expect(m.pointsBalance).toBe(500);
    expect(
      (await transactions(t, t.memberId)).filter((x) => x.description === 'Refund of cancelled redemption'),
    ).toHaveLength(1);
  });

  it('refuses a status of expired or an unknown field (422)', async () => {
    const t = await newShop();
    const r = await newReward(t);
    const made = await redeem(t, r.publicId);
    const expired = await raw(server(), 'PUT', `/v1/loyalty/redemptions/${made.publicId}`, {
      token: t.accessToken,
      ...json({ status: 'expired' }),
    });
    expectResultError(expired, 422, 'VALIDATION_ERROR', 'status');
    const noStatus = await raw(server(), 'PUT', `/v1/loyalty/redemptions/${made.publicId}`, {
      token: t.accessToken,
      ...json({ notes: 'x' }),
    });
    expectResultError(noStatus, 422, 'VALIDATION_ERROR', 'status');
    expect((await redemption(t, made.publicId))?.status).toBe('pending');
  });

  it('answers 404 for an unknown redemption', async () => {
    const t = await newShop();
    expectResultError(await move(t, UNKNOWN_REDEMPTION, { status: 'fulfilled' }), 404, 'NOT_FOUND');
  });

  it("answers 404 for another business's redemption and neither moves nor refunds it", async () => {
    const owner = await newShop(500);
    const other = await newShop(500);
    const r = await newReward(owner, { pointsCost: 100 });
    const made = await redeem(owner, r.publicId);
    expectResultError(await move(other, made.publicId, { status: 'cancelled' }), 404, 'NOT_FOUND');
    expectResultError(await move(other, made.publicId, { status: 'fulfilled' }), 404, 'NOT_FOUND');
    expect(await redemption(owner, made.publicId)).toEqual(made);
    expect((await member(owner, owner.memberId)).pointsBalance).toBe(400);
    expect((await member(other, other.memberId)).pointsBalance).toBe(500);
  });
});

describe('listing redemptions', () => {
  it('lists newest first with totalCount, limit and offset', async () => {
    const t = await newShop();
    const r = await newReward(t, { pointsCost: 10 });
    const made: Redemption[] = [];
    for (let i = 0; i < 5; i++) {
      made.push(await redeem(t, r.publicId));
      server().clock.advance(1000);
    }
    const newestFirst = [...made].reverse().map((x) => x.publicId);
    const all = await allRedemptions(t);
    expect(all.totalCount).toBe(5);
    expect(all.data.map((x) => x.publicId)).toEqual(newestFirst);
    const page = await allRedemptions(t, { limit: 2, offset: 1 });
    expect(page.totalCount).toBe(5);
    expect(page.data.map((x) => x.publicId)).toEqual(newestFirst.slice(1, 3));
    const beyond = await allRedemptions(t, { limit: 2, offset: 5 });
    expect(beyond).toEqual({ result: 'success', data: [], totalCount: 5 });
  });

  it('defaults to 50 per page and refuses a limit over 200 (422)', async () => {
    const t = await newShop(1000);
    const r = await newReward(t, { pointsCost: 1 });
    for (let i = 0; i < 52; i++) await redeem(t, r.publicId);
    const res = await unwrap(t.client.loyalty.redemptions.listRedemptions({ query: {} }));
    expect(res.data).toHaveLength(50);
    expect(res.totalCount).toBe(52);
    const tooMany = await raw(server(), 'GET', '/v1/loyalty/redemptions?limit=201', { token: t.accessToken });
    expectResultError(tooMany, 422, 'VALIDATION_ERROR', 'limit');
  });

  it('filters by status and by memberId', async () => {
    const t = await newShop(1000);
    const { memberId: secondMember } = await enroll(t, 1000);
    const r = await newReward(t, { pointsCost: 10 });
    const pending = await redeem(t, r.publicId);
    const fulfilled = await redeem(t, r.publicId);
    const cancelled = await redeem(t, r.publicId, { memberId: secondMember });
    await unwrap(move(t, fulfilled.publicId, { status: 'fulfilled' }));
    await unwrap(move(t, cancelled.publicId, { status: 'cancelled' }));

    const ids = async (query: Record<string, string>) => {
      const res = await allRedemptions(t, query);
      expect(res.totalCount).toBe(res.data.length);
      return res.data.map((x) => x.publicId);
    };
    expect(await ids({ status: 'pending' })).toEqual([pending.publicId]);
    expect(await ids({ status: 'fulfilled' })).toEqual([fulfilled.publicId]);
    expect(await ids({ status: 'cancelled' })).toEqual([cancelled.publicId]);
    expect(await ids({ status: 'expired' })).toEqual([]);
    expect(await ids({ memberId: secondMember })).toEqual([cancelled.publicId]);
    expect((await ids({ memberId: t.memberId })).sort()).toEqual(
      [pending.publicId, fulfilled.publicId].sort(),
    );
    expect(await ids({ memberId: t.memberId, status: 'fulfilled' })).toEqual([fulfilled.publicId]);
    const badStatus = await raw(server(), 'GET', '/v1/loyalty/redemptions?status=used', {
      token: t.accessToken,
    });
    expectResultError(badStatus, 422, 'VALIDATION_ERROR', 'status');
  });

  it('names the member by its customer and the reward even after both are deleted', async () => {
    const t = await newShop();
    const r = await newReward(t, { name: 'Oil change' });
    const made = await redeem(t, r.publicId);
    expect(made).toMatchObject({ memberName: t.customerName, rewardName: 'Oil change' });
    await unwrap(t.client.loyalty.rewards.deleteReward({ params: { publicId: r.publicId } }));
    await unwrap(t.client.loyalty.members.deleteMember({ params: { publicId: t.memberId } }));
    const listed = await allRedemptions(t);
    expect(listed.data).toEqual([made]);
    expect((await allRedemptions(t, { memberId: t.memberId })).data).toEqual([made]);
  });

  it("shows only the business's own redemptions, whatever memberId is asked for", async () => {
    const owner = await newShop();
    const other = await newShop();
    const r = await newReward(owner);
    await redeem(owner, r.publicId);
    expect(await allRedemptions(other)).toEqual({ result: 'success', data: [], totalCount: 0 });
    expect(await allRedemptions(other, { memberId: owner.memberId })).toEqual({
      result: 'success',
      data: [],
      totalCount: 0,
    });
  });
});

describe('verifying a voucher', () => {
  it('reports a pending, unexpired voucher as valid', async () => {
    const t = await newShop();
    const r = await newReward(t, { name: 'Free wash' });
    const made = await redeem(t, r.publicId);
    const res = await verify(t, made.voucherCode);
    expect(res.status).toBe(200);
    expect(await unwrap(res)).toEqual({
      result: 'success',
      data: {
        valid: true,
        voucherCode: made.voucherCode,
        rewardName: 'Free wash',
        status: 'pending',
        redeemedAt: made.redeemedAt,
        expiresAt: made.expiresAt,
        memberName: t.customerName,
      },
    });
  });

  it('reads the code case-insensitively, with or without hyphens, and O, I, L as 0, 1, 1', async () => {
    const t = await newShop();
    const r = await newReward(t);
    const made = await redeem(t, r.publicId);
    const expected = (await unwrap(verify(t, made.voucherCode))).data;
    const bare = made.voucherCode.replace(/-/g, '');
    for (const form of [
      made.voucherCode.toLowerCase(),
      bare,
      bare.toLowerCase(),
      `${bare.slice(0, 6)}-${bare.slice(6)}`,
      made.voucherCode.replace(/0/g, 'O').replace(/1/g, 'l'),
    ]) {
      expect((await unwrap(verify(t, form))).data, form).toEqual(expected);
    }
  });

  it('answers 404 for an unknown or malformed code', async () => {
    const t = await newShop();
    const r = await newReward(t);
    const made = await redeem(t, r.publicId);
    const unknown = made.voucherCode.startsWith('0000') ? '1111-1111-1111' : '0000-0000-0000';
    expectResultError(await verify(t, unknown), 404, 'NOT_FOUND');
    expectResultError(await verify(t, 'NOT-A-CODE'), 404, 'NOT_FOUND');
    expectResultError(await verify(t, `${made.voucherCode.replace(/-/g, '')}0`), 404, 'NOT_FOUND');
    expectResultError(await verify(t, 'UUUU-UUUU-UUUU'), 404, 'NOT_FOUND');
  });

  it("answers 404 for another business's voucher", async () => {
    const owner = await newShop();
    const other = await newShop();
    const r = await newReward(owner);
    const made = await redeem(owner, r.publicId);
    expectResultError(await verify(other, made.voucherCode), 404, 'NOT_FOUND');
    expect((await unwrap(verify(owner, made.voucherCode))).data.valid).toBe(true);
  });

  it('reports fulfilled and cancelled vouchers as not valid', async () => {
    const t = await newShop();
    const r = await newReward(t);
    const fulfilled = await redeem(t, r.publicId);
    const cancelled = await redeem(t, r.publicId);
    await unwrap(move(t, fulfilled.publicId, { status: 'fulfilled' }));
    await unwrap(move(t, cancelled.publicId, { status: 'cancelled' }));
    expect((await unwrap(verify(t, fulfilled.voucherCode))).data).toMatchObject({
      valid: false,
      status: 'fulfilled',
    });
    expect((await unwrap(verify(t, cancelled.voucherCode))).data).toMatchObject({
      valid: false,
      status: 'cancelled',
    });
  });

  it('reports a voucher as not valid from its expiresAt on, before and after the expiry job', async () => {
    const t = await newShop();
    const r = await newReward(t, { voucherValidityDays: 2 });
    const made = await redeem(t, r.publicId);
    server().clock.set(new Date(Date.parse(made.expiresAt) - 1).toISOString());
    expect((await unwrap(verify(t, made.voucherCode))).data).toMatchObject({
      valid: true,
      status: 'pending',
    });
    server().clock.set(made.expiresAt);
    expect((await unwrap(verify(t, made.voucherCode))).data).toMatchObject({
      valid: false,
      status: 'pending',
    });
    await expireVouchers(server().deps);
    expect((await unwrap(verify(t, made.voucherCode))).data).toMatchObject({
      valid: false,
      status: 'expired',
    });
  });
});

describe('voucher expiry', () => {
  const pendingDue = async () => {
    const now = server().clock.now();
    const row = await server()
      .deps.db.selectFrom('loyalty_redemptions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'pending')
      .where('expires_at', '<=', now)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };

  it('expires pending vouchers at their expiresAt, leaves the others, and refunds nothing', async () => {
    const t = await newShop(1000);
    const short = await newReward(t, { name: 'Short', pointsCost: 100, voucherValidityDays: 1 });
    const long = await newReward(t, { name: 'Long', pointsCost: 100, voucherValidityDays: 90 });
    const due = await redeem(t, short.publicId);
    const fulfilled = await redeem(t, short.publicId);
    const cancelled = await redeem(t, short.publicId);
    const later = await redeem(t, long.publicId);
    await unwrap(move(t, fulfilled.publicId, { status: 'fulfilled' }));
    await unwrap(move(t, cancelled.publicId, { status: 'cancelled' }));
    const balance = (await member(t, t.memberId)).pointsBalance;
    expect(balance).toBe(700);
    const ledgerBefore = await transactions(t, t.memberId);

    server().clock.set(due.expiresAt);
    const expected = await pendingDue();
    expect(expected).toBeGreaterThanOrEqual(1);
    const { result: moved, events } = await withEvents(server(), t.businessId, () =>
      expireVouchers(server().deps),
    );
    expect(moved).toBe(expected);
    expect(events).toEqual([]);
    expect(await pendingDue()).toBe(0);

    expect(await redemption(t, due.publicId)).toEqual({ ...due, status: 'expired' });
    expect((await redemption(t, fulfilled.publicId))?.status).toBe('fulfilled');
    expect((await redemption(t, cancelled.publicId))?.status).toBe('cancelled');
    expect((await redemption(t, later.publicId))?.status).toBe('pending');
    expect(await transactions(t, t.memberId)).toEqual(ledgerBefore);
    expect((await expectLedgerBalanced(t, t.memberId)).pointsBalance).toBe(700);
    expect(await expireVouchers(server().deps)).toBe(0);
  });

  it('leaves a voucher one millisecond before its expiry pending', async () => {
    const t = await newShop();
    const r = await newReward(t, { voucherValidityDays: 3 });
    const made = await redeem(t, r.publicId);
    server().clock.set(new Date(Date.parse(made.expiresAt) - 1).toISOString());
    await expireVouchers(server().deps);
    expect((await redemption(t, made.publicId))?.status).toBe('pending');
    server().clock.advance(1);
    await expireVouchers(server().deps);
    expect((await redemption(t, made.publicId))?.status).toBe('expired');
  });

  it('expires the vouchers of every business in one run', async () => {
    const a = await newShop();
    const b = await newShop();
    const ra = await newReward(a, { voucherValidityDays: 5 });
    const rb = await newReward(b, { voucherValidityDays: 5 });
    const va = await redeem(a, ra.publicId);
    const vb = await redeem(b, rb.publicId);
    server().clock.advance(6 * DAY_MS);
    const expected = await pendingDue();
    expect(expected).toBeGreaterThanOrEqual(2);
    expect(await expireVouchers(server().deps)).toBe(expected);
    expect((await redemption(a, va.publicId))?.status).toBe('expired');
    expect((await redemption(b, vb.publicId))?.status).toBe('expired');
  });

  it('expires more vouchers than one batch holds', async () => {
    const t = await newShop(10_000);
    const r = await newReward(t, { pointsCost: 1, voucherValidityDays: 1 });
    const made = await redeem(t, r.publicId);
    // Copies of one redemption make a backlog larger than a batch (500) without 600 requests.
    const [row] = atLeast(await redemptionRows(server(), t.businessId), 1);
    await server()
      .deps.db.insertInto('loyalty_redemptions')
      .values(
        Array.from({ length: 600 }, (_, i) => ({
          ...row,
          id: `${made.publicId}_${i}`,
          voucher_code: `BULK-${String(i).padStart(4, '0')}-${made.voucherCode.slice(0, 4)}`,
        })),
      )
      .execute();
    server().clock.advance(2 * DAY_MS);
    const expected = await pendingDue();
    expect(expected).toBeGreaterThanOrEqual(601);
    expect(await expireVouchers(server().deps)).toBe(expected);
    expect((await allRedemptions(t, { status: 'pending' })).totalCount).toBe(0);
    expect((await allRedemptions(t, { status: 'expired' })).totalCount).toBe(601);
  });
});

describe(`concurrent redeems (${onPostgres ? 'on PostgreSQL, under real concurrency' : 'on PGlite, serialised by the engine'})`, () => {
  it.each([1, 2, 3])(
    'round %i: 50 concurrent 10-point redeems on 100 points give exactly 10 vouchers and a zero balance',
    async () => {
      const t = await newShop(100);
      const r = await newReward(t, { pointsCost: 10 });
      const responses = await Promise.all(Array.from({ length: 50 }, () => redeemCall(t, r.publicId)));

      const ok = responses.filter((res) => res.status === 201);
      const refused = responses.filter((res) => res.status !== 201);
      expect(ok).toHaveLength(10);
      expect(refused).toHaveLength(40);
      for (const res of refused) expectResultError(res, 422, 'INSUFFICIENT_POINTS');

      const m = await expectLedgerBalanced(t, t.memberId);
      expect(m.pointsBalance).toBe(0);
      expect(m.lifetimePoints).toBe(100);
      const ledger = await transactions(t, t.memberId);
      expect(ledger.reduce((s, x) => s + x.points, 0)).toBe(0);
      expect(ledger.filter((x) => x.type === 'redeem')).toHaveLength(10);
      expect(ledger.every((x) => x.balanceAfter >= 0)).toBe(true);

      const codes = (await redemptionRows(server(), t.businessId)).map((row) => row.voucher_code);
      expect(codes).toHaveLength(10);
      expect(new Set(codes).size).toBe(10);
      expect((await reward(t, r.publicId))?.totalRedemptions).toBe(10);
      const redeemed = (await outbox(server(), t.businessId)).filter(
        (e) => e.type === 'loyalty.reward_redeemed',
      );
      expect(redeemed).toHaveLength(10);
    },
  );
});
