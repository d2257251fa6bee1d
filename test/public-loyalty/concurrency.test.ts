import { describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import type { Transaction } from '../../contract/loyalty/index.js';
import { uniqueEmail } from '../support/business.js';
import { onPostgres } from '../support/database.js';
import { outbox } from '../support/events.js';
import { expectResultError, itemAt } from '../support/expect.js';
import {
  createTier,
  customerRows,
  expectLedgerBalanced,
  memberRows,
  newReward,
  redemptionRows,
  transactions,
} from '../support/loyalty.js';
import { useTestServer } from '../support/setup.js';
import { enroll, membersMatching, newShop, type Shop } from '../support/public-loyalty.js';

// A pool large enough that concurrent requests really run at once on PostgreSQL (row locks and the
// guarded updates, not the pool, serialise them). On PGlite the engine serialises everything, so
// the same properties hold trivially; the tests run there too, never skipped.
const server = useTestServer({ env: { DB_POOL_SIZE: '30' }, worker: false });

const where = onPostgres ? 'on PostgreSQL, under real concurrency' : 'on PGlite, serialised by the engine';

const earn = (shop: Shop, body: { email: string; amount: number; reference?: string }) =>
  shop.pos.publicLoyalty.publicEarn({ body });

/** The member's earn transactions in the order they were applied (by balance, all being credits). */
const earnsInOrder = (ledger: Transaction[]) =>
  ledger.filter((t) => t.type === 'earn').sort((a, b) => a.balanceAfter - b.balanceAfter);

/** Each credit starts where the previous one ended: the earns were applied one after the other. */
function expectChained(ledger: Transaction[], start: number): void {
  let balance = start;
  for (const t of earnsInOrder(ledger)) {
    expect(t.balanceAfter - t.points, `earn ${t.publicId}`).toBe(balance);
    balance = t.balanceAfter;
  }
}

describe(`concurrent public redeems (${where})`, () => {
  it.each([1, 2, 3])(
    'round %i: 20 concurrent 100-point redeems on 1,000 points give exactly 10 vouchers and a zero balance',
    async () => {
      const shop = await newShop(server());
      const m = await enroll(shop, { points: 1000 });
      const reward = await newReward(shop, { pointsCost: 100 });
      const responses = await Promise.all(
        Array.from({ length: 20 }, () =>
          shop.pos.publicLoyalty.publicRedeem({ body: { email: m.email, rewardId: reward.publicId } }),
        ),
      );

      const ok = responses.filter((res) => res.status === 201);
      const refused = responses.filter((res) => res.status !== 201);
      expect(ok).toHaveLength(10);
      expect(refused).toHaveLength(10);
      for (const res of refused) expectResultError(res, 422, 'INSUFFICIENT_POINTS');
      const balances = (await Promise.all(ok.map((res) => unwrap(res)))).map((b) => b.data.newBalance);
      expect(balances.sort((a, b) => a - b)).toEqual([0, 100, 200, 300, 400, 500, 600, 700, 800, 900]);

      const after = await expectLedgerBalanced(shop, m.memberId);
      expect(after).toMatchObject({ pointsBalance: 0, lifetimePoints: 1000 });
      const ledger = await transactions(shop, m.memberId);
      expect(ledger.filter((t) => t.type === 'redeem')).toHaveLength(10);
      expect(ledger.every((t) => t.balanceAfter >= 0)).toBe(true);
      const codes = (await redemptionRows(server(), shop.businessId)).map((r) => r.voucher_code);
      expect(codes).toHaveLength(10);
      expect(new Set(codes).size).toBe(10);
      const announced = (await outbox(server(), shop.businessId)).filter(
        (e) => e.type === 'loyalty.reward_redeemed',
      );
      expect(announced).toHaveLength(10);
    },
  );

  it('never takes a balance below zero when earns and redeems of one member race', async () => {
    const shop = await newShop(server());
    const m = await enroll(shop, { points: 500 });
    const reward = await newReward(shop, { pointsCost: 100 });
    const calls = Array.from({ length: 40 }, (_, i) =>
      i % 2 === 0
        ? shop.pos.publicLoyalty.publicRedeem({ body: { email: m.email, rewardId: reward.publicId } })
        : earn(shop, { email: m.email, amount: 1 }),
    );
    const responses = await Promise.all(calls);
    const redeems = responses.filter((_, i) => i % 2 === 0);
    const earns = responses.filter((_, i) => i % 2 === 1);
    for (const res of earns) expect(res.status).toBe(200);
    const redeemed = redeems.filter((res) => res.status === 201).length;
    for (const res of redeems.filter((r) => r.status !== 201))
      expectResultError(res, 422, 'INSUFFICIENT_POINTS');
    // 500 + 20 x 10 = 700 points at most: between 5 and 7 vouchers, whatever the interleaving.
    expect(redeemed).toBeGreaterThanOrEqual(5);
    expect(redeemed).toBeLessThanOrEqual(7);

    const after = await expectLedgerBalanced(shop, m.memberId);
    expect(after.pointsBalance).toBe(700 - redeemed * 100);
    expect(after.lifetimePoints).toBe(700);
    expect(await redemptionRows(server(), shop.businessId)).toHaveLength(redeemed);
  });
});

describe(`concurrent public earns (${where})`, () => {
  it('50 concurrent earns for one member add up (the original smoke check)', async () => {
    const shop = await newShop(server(), { pointsPerCurrency: 1, enrollmentType: 'automatic' });
    const email = uniqueEmail('till');
    await unwrap(earn(shop, { email, amount: 1 }));
    const results = await Promise.all(Array.from({ length: 50 }, () => earn(shop, { email, amount: 10 })));
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
    const balance = await unwrap(shop.pos.publicLoyalty.publicGetBalance({ query: { email } }));
    expect(balance.data.pointsBalance).toBe(501);
  });

  it('50 concurrent earns of different amounts for one member: balance = sum, 50 chained transactions', async () => {
    const shop = await newShop(server());
    const m = await enroll(shop, { points: 3 });
    const amounts = Array.from({ length: 50 }, (_, i) => i + 1);
    const responses = await Promise.all(
      amounts.map((amount, i) => earn(shop, { email: m.email, amount, reference: `C-${i}` })),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(50).fill(200));
    const bodies = await Promise.all(responses.map((r) => unwrap(r)));
    expect(bodies.map((b) => b.data.pointsEarned)).toEqual(amounts.map((a) => a * 10));
    const total = 3 + 10 * amounts.reduce((s, a) => s + a, 0);

    const after = await expectLedgerBalanced(shop, m.memberId);
    expect(after).toMatchObject({ pointsBalance: total, lifetimePoints: total });
    const ledger = await transactions(shop, m.memberId);
    expect(ledger.filter((t) => t.type === 'earn')).toHaveLength(50);
    expectChained(ledger, 3);
    // Every answer's newBalance is the balance right after its own transaction.
    expect(bodies.map((b) => b.data.newBalance).sort((a, b) => a - b)).toEqual(
      earnsInOrder(ledger).map((t) => t.balanceAfter),
    );
    const earned = (await outbox(server(), shop.businessId)).filter(
      (e) => e.type === 'loyalty.points_earned',
    );
    expect(earned).toHaveLength(50);
  });

  it('50 concurrent earns over 5 members add up per member', async () => {
    const shop = await newShop(server());
    const members = await Promise.all(Array.from({ length: 5 }, () => enroll(shop)));
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        earn(shop, { email: itemAt(members, i % 5).email, amount: (i % 5) + 1 }),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(50).fill(200));
    for (const [k, m] of members.entries()) {
      const after = await expectLedgerBalanced(shop, m.memberId);
      expect(after.pointsBalance, m.email).toBe(10 * 10 * (k + 1));
      const ledger = await transactions(shop, m.memberId);
      expect(ledger.filter((t) => t.type === 'earn')).toHaveLength(10);
      expectChained(ledger, 0);
    }
  });

  it('applies each concurrent earn at the multiplier of the tier it found, promoting exactly once', async () => {
    const shop = await newShop(server());
    await createTier(shop.client, { name: 'Base', minPoints: 0, multiplier: 1 });
    await createTier(shop.client, { name: 'Silver', minPoints: 100, multiplier: 2 });
    const m = await enroll(shop);
    const responses = await Promise.all(
      Array.from({ length: 30 }, () => earn(shop, { email: m.email, amount: 1 })),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(30).fill(200));

    const ledger = await transactions(shop, m.memberId);
    expectChained(ledger, 0);
    for (const t of earnsInOrder(ledger)) {
      const before = t.balanceAfter - t.points;
      expect(t.points, `earn from ${before}`).toBe(before >= 100 ? 20 : 10);
      expect(t.multiplierApplied).toBe(before >= 100 ? 2 : 1);
    }
    // 10 earns of 10 reach Silver, the other 20 earn 20 each.
    const after = await expectLedgerBalanced(shop, m.memberId);
    expect(after).toMatchObject({ pointsBalance: 500, tierName: 'Silver' });
    const changes = (await outbox(server(), shop.businessId)).filter(
      (e) =>
        e.type === 'loyalty.tier_changed' &&
        (e.data as { newTier: { name: string } }).newTier.name === 'Silver',
    );
    expect(changes).toHaveLength(1);
  });

  it('10 concurrent earns with the same reference: exactly one 200 and nine 409 CONFLICT', async () => {
    const shop = await newShop(server());
    const m = await enroll(shop, { points: 5 });
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) => earn(shop, { email: m.email, amount: i + 1, reference: 'DUP-1' })),
    );
    const ok = responses.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    const refused = responses.filter((r) => r.status !== 200);
    expect(refused).toHaveLength(9);
    for (const res of refused) expectResultError(res, 409, 'CONFLICT');

    const won = (await unwrap(itemAt(ok, 0))).data;
    const after = await expectLedgerBalanced(shop, m.memberId);
    expect(after.pointsBalance).toBe(5 + won.pointsEarned);
    expect(won.newBalance).toBe(after.pointsBalance);
    const earns = (await transactions(shop, m.memberId)).filter((t) => t.type === 'earn');
    expect(earns).toHaveLength(1);
    expect(earns[0]).toMatchObject({ referenceId: 'DUP-1', points: won.pointsEarned });
    const earned = (await outbox(server(), shop.businessId)).filter(
      (e) => e.type === 'loyalty.points_earned',
    );
    expect(earned).toHaveLength(1);
  });

  it('10 concurrent earns for the same new email enroll it once and credit all ten', async () => {
    const shop = await newShop(server(), { enrollmentType: 'automatic' });
    const email = uniqueEmail('rush');
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) => earn(shop, { email, amount: i + 1, reference: `NEW-${i}` })),
    );
    expect(
      responses.map((r) => r.status),
      JSON.stringify(responses.map((r) => r.body)),
    ).toEqual(Array(10).fill(200));

    const customers = await customerRows(server(), shop.businessId);
    expect(customers.map((c) => c.email)).toEqual([email]);
    const members = await memberRows(server(), shop.businessId);
    expect(members).toHaveLength(1);
    const listed = await membersMatching(shop, email);
    expect(listed.totalCount).toBe(1);
    const memberId = itemAt(listed.data, 0).publicId;
    const after = await expectLedgerBalanced(shop, memberId);
    expect(after.pointsBalance).toBe(10 * 55);
    const ledger = await transactions(shop, memberId);
    expect(ledger.filter((t) => t.type === 'earn')).toHaveLength(10);
    expectChained(ledger, 0);
  });
});
