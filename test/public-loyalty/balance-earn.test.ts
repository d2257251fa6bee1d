import { afterEach, describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import type { Member, Transaction } from '../../contract/loyalty/index.js';
import { json, keyClient, raw, registerBusiness, uniqueEmail } from '../support/business.js';
import { outbox, withEvents } from '../support/events.js';
import { expectResultError, itemAt } from '../support/expect.js';
import {
  createTier,
  customerRows,
  expectLedgerBalanced,
  member,
  memberRows,
  newReward,
  transactionRows,
  transactions,
} from '../support/loyalty.js';
import { useTestServer } from '../support/setup.js';
import { enroll, membersMatching, newShop, withoutPhone, type Shop } from '../support/public-loyalty.js';
import { createApiKey } from '../support/auth.js';

const server = useTestServer({ worker: false });

afterEach(() => server().clock.reset());

const balanceOf = (shop: Shop, email: string) =>
  shop.pos.publicLoyalty.publicGetBalance({ query: { email } });

const earn = (
  shop: Shop,
  body: { email: string; amount: number; reference?: string; description?: string },
) => shop.pos.publicLoyalty.publicEarn({ body });

const rawEarn = (shop: Shop, body: unknown) => {
  const { headers, body: text } = json(body);
  return raw(server(), 'POST', '/v1/public/loyalty/earn', {
    headers: { ...headers, 'x-api-key': shop.apiKey },
    body: text,
  });
};

describe('GET /v1/public/loyalty/balance', () => {
  it("answers the member's name, tier, balance, lifetime points and the program's points name", async () => {
    const shop = await newShop(server(), { pointsName: 'Beans' });
    const gold = await createTier(shop.client, {
      name: 'Gold',
      minPoints: 0,
      color: '#FFD700',
      multiplier: 2,
    });
    const m = await enroll(shop, { name: 'Grace Hopper', points: 500 });
    const reward = await newReward(shop, { pointsCost: 120 });
    await unwrap(
      shop.pos.publicLoyalty.publicRedeem({ body: { email: m.email, rewardId: reward.publicId } }),
    );

    const res = await balanceOf(shop, m.email);
    expect(res.status).toBe(200);
    expect(await unwrap(res)).toEqual({
      result: 'success',
      data: {
        customerName: 'Grace Hopper',
        tierName: gold.name,
        tierColor: '#FFD700',
        pointsBalance: 380,
        lifetimePoints: 500,
        pointsName: 'Beans',
      },
    });
  });

  it('answers null tier name and color for a member without a tier', async () => {
    const shop = await newShop(server());
    const m = await enroll(shop, { name: 'No Tier', points: 7 });
    expect((await unwrap(balanceOf(shop, m.email))).data).toEqual({
      customerName: 'No Tier',
      tierName: null,
      tierColor: null,
      pointsBalance: 7,
      lifetimePoints: 7,
      pointsName: 'Stars',
    });
  });

  it('finds the member by email whatever the case, on either side', async () => {
    const shop = await newShop(server());
    const email = `Mixed.Case-${Date.now()}@Example.TEST`;
    await enroll(shop, { email, points: 42 });
    for (const asked of [email, email.toLowerCase(), email.toUpperCase()]) {
      expect((await unwrap(balanceOf(shop, asked))).data.pointsBalance, asked).toBe(42);
    }
  });

  it('answers 404 NOT_FOUND for an unknown email, a customer who is not a member, and a deleted member', async () => {
    const shop = await newShop(server());
    expectResultError(await balanceOf(shop, uniqueEmail('nobody')), 404, 'NOT_FOUND');

    const email = uniqueEmail('customer');
    await unwrap(shop.client.general.customers.createCustomer({ body: { name: 'Not A Member', email } }));
    expectResultError(await balanceOf(shop, email), 404, 'NOT_FOUND');

    const gone = await enroll(shop, { points: 10 });
    await unwrap(shop.client.loyalty.members.deleteMember({ params: { publicId: gone.memberId } }));
    expectResultError(await balanceOf(shop, gone.email), 404, 'NOT_FOUND');
  });

  it('answers 404 NOT_FOUND when the business has no active program', async () => {
    const shop = await newShop(server());
    const m = await enroll(shop, { points: 10 });
    expect((await balanceOf(shop, m.email)).status).toBe(200);
    await unwrap(shop.client.loyalty.program.deleteProgram());
    expectResultError(await balanceOf(shop, m.email), 404, 'NOT_FOUND');

    const bare = await registerBusiness(server());
    const { key } = await createApiKey(bare.client);
    expectResultError(
      await keyClient(server(), key).publicLoyalty.publicGetBalance({ query: { email: uniqueEmail() } }),
      404,
      'NOT_FOUND',
    );
  });

  it('refuses a missing or invalid email (422 VALIDATION_ERROR on email)', async () => {
    const shop = await newShop(server());
    for (const query of ['', '?email=', '?email=not-an-email', `?email=${'a'.repeat(250)}%40example.test`]) {
      const res = await raw(server(), 'GET', `/v1/public/loyalty/balance${query}`, {
        headers: { 'x-api-key': shop.apiKey },
      });
      expectResultError(res, 422, 'VALIDATION_ERROR', 'email');
    }
  });
});

describe('POST /v1/public/loyalty/earn', () => {
  it('earns, enrolls automatically and refuses a reused reference (the original smoke check)', async () => {
    const shop = await newShop(server(), { enrollmentType: 'automatic' });
    await createTier(shop.client, { name: 'Silver', minPoints: 100, multiplier: 1.5 });
    const first = await unwrap(earn(shop, { email: 'New@Example.test', amount: 12.5, reference: 'r1' }));
    // The new member starts in the lowest tier (Silver): 12.5 x 10 x 1.5 = 187.5.
    expect(first.data).toEqual({
      pointsEarned: 187,
      multiplierApplied: 1.5,
      newBalance: 187,
      tierName: 'Silver',
    });
    const second = await unwrap(earn(shop, { email: 'new@example.test', amount: 10 }));
    expect(second.data).toEqual({
      pointsEarned: 150,
      multiplierApplied: 1.5,
      newBalance: 337,
      tierName: 'Silver',
    });
    expectResultError(
      await earn(shop, { email: 'new@example.test', amount: 1, reference: 'r1' }),
      409,
      'CONFLICT',
    );
    const balance = await unwrap(balanceOf(shop, 'new@example.test'));
    expect(balance.data).toMatchObject({
      pointsBalance: 337,
      lifetimePoints: 337,
      pointsName: 'Stars',
      tierName: 'Silver',
    });
    expect((await unwrap(shop.client.loyalty.members.listMembers({ query: {} }))).totalCount).toBe(1);
  });

  it('credits floor(amount x pointsPerCurrency x multiplier): 12.345 x 10 x 1.5 = 185', async () => {
    const shop = await newShop(server());
    await createTier(shop.client, { name: 'Silver', minPoints: 0, multiplier: 1.5 });
    const m = await enroll(shop);
    const res = await earn(shop, { email: m.email, amount: 12.345 });
    expect(res.status).toBe(200);
    expect(await unwrap(res)).toEqual({
      result: 'success',
      data: { pointsEarned: 185, multiplierApplied: 1.5, newBalance: 185, tierName: 'Silver' },
    });
    expect((await expectLedgerBalanced(shop, m.memberId)).pointsBalance).toBe(185);
  });

  it.each([
    // [amount, pointsPerCurrency, multiplier, points]
    [0.99, 10, 1, 9],
    [19.99, 10, 1.25, 249],
    [0.29, 100, 1, 29],
    [1.15, 100, 1, 115],
    [4.35, 100, 1, 435],
    [3, 7, 0.1, 2],
    [1000000, 3, 2.5, 7500000],
  ])(
    'rounds down exactly: %d x %d x %d = %d points',
    async (amount, pointsPerCurrency, multiplier, points) => {
      const shop = await newShop(server(), { pointsPerCurrency });
      await createTier(shop.client, { name: 'Only', minPoints: 0, multiplier });
      const m = await enroll(shop);
      const res = await unwrap(earn(shop, { email: m.email, amount }));
      expect(res.data).toEqual({
        pointsEarned: points,
        multiplierApplied: multiplier,
        newBalance: points,
        tierName: 'Only',
      });
    },
  );

  // The contract accepts any positive amount (no limit on decimals) and documents
  // points = floor(amount x pointsPerCurrency x multiplier), so an amount is never rounded up first.
  it.each([
    [9.99999, 10, 99],
    [0.99999, 1, 0],
    [2.00005, 10_000, 20_000],
    // Exactly as sent, not as a float product: 1.0000000000000002 x 10 is 10.000000000000002.
    [1.0000000000000002, 10, 10],
    [5e-324, 100_000, 0],
    [1_000_000_000, 100_000, 100_000_000_000_000],
  ])(
    'rounds down an amount with more than four decimals too: %d x %d = %d points',
    async (amount, pointsPerCurrency, points) => {
      const shop = await newShop(server(), { pointsPerCurrency });
      const m = await enroll(shop, { points: 1 });
      const res = await unwrap(earn(shop, { email: m.email, amount }));
      expect(res.data).toEqual({
        pointsEarned: points,
        multiplierApplied: 1,
        newBalance: 1 + points,
        tierName: null,
      });
      expect((await expectLedgerBalanced(shop, m.memberId)).pointsBalance).toBe(1 + points);
    },
  );

  it('applies the multiplier of the tier before the earn and answers the tier after it, announcing the change', async () => {
    const shop = await newShop(server());
    const bronze = await createTier(shop.client, {
      name: 'Bronze',
      minPoints: 0,
      multiplier: 1,
      color: '#CD7F32',
    });
    const gold = await createTier(shop.client, {
      name: 'Gold',
      minPoints: 200,
      multiplier: 2,
      color: '#FFD700',
    });
    const m = await enroll(shop);

    const { result, events } = await withEvents(server(), shop.businessId, () =>
      unwrap(earn(shop, { email: m.email, amount: 25, reference: 'SALE-1' })),
    );
    expect(result.data).toEqual({
      pointsEarned: 250,
      multiplierApplied: 1,
      newBalance: 250,
      tierName: 'Gold',
    });
    expect(events.map((e) => e.type).sort()).toEqual(['loyalty.points_earned', 'loyalty.tier_changed']);

    const detail = await member(shop, m.memberId);
    expect(detail).toMatchObject({
      tierId: gold.publicId,
      tierName: 'Gold',
      tierColor: '#FFD700',
      pointsBalance: 250,
    });
    const asMember = withoutPhone(detail);
    const changed = events.find((e) => e.type === 'loyalty.tier_changed')!.data as {
      member: Member;
      previousTier: unknown;
      newTier: unknown;
    };
    expect(changed).toEqual({
      member: asMember,
      previousTier: { publicId: bronze.publicId, name: 'Bronze', color: '#CD7F32' },
      newTier: { publicId: gold.publicId, name: 'Gold', color: '#FFD700' },
    });

    // From now on the Gold multiplier applies, and staying in Gold announces no change.
    const { result: next, events: nextEvents } = await withEvents(server(), shop.businessId, () =>
      unwrap(earn(shop, { email: m.email, amount: 10 })),
    );
    expect(next.data).toEqual({ pointsEarned: 200, multiplierApplied: 2, newBalance: 450, tierName: 'Gold' });
    expect(nextEvents.map((e) => e.type)).toEqual(['loyalty.points_earned']);
    expect((await expectLedgerBalanced(shop, m.memberId)).lifetimePoints).toBe(450);
  });

  it('jumps over several tiers at once to the highest the lifetime points reach', async () => {
    const shop = await newShop(server());
    const bronze = await createTier(shop.client, { name: 'Bronze', minPoints: 0 });
    await createTier(shop.client, { name: 'Silver', minPoints: 100, multiplier: 1.5 });
    const gold = await createTier(shop.client, { name: 'Gold', minPoints: 300, multiplier: 2 });
    await createTier(shop.client, { name: 'Platinum', minPoints: 10_000, multiplier: 3 });
    const m = await enroll(shop);
    const { result, events } = await withEvents(server(), shop.businessId, () =>
      unwrap(earn(shop, { email: m.email, amount: 35 })),
    );
    expect(result.data).toEqual({
      pointsEarned: 350,
      multiplierApplied: 1,
      newBalance: 350,
      tierName: 'Gold',
    });
    const changes = events.filter((e) => e.type === 'loyalty.tier_changed');
    expect(changes).toHaveLength(1);
    expect(changes[0]?.data).toMatchObject({
      previousTier: { publicId: bronze.publicId },
      newTier: { publicId: gold.publicId },
    });
  });

  it('promotes a member who had no tier, announcing previousTier null', async () => {
    const shop = await newShop(server());
    const m = await enroll(shop, { points: 40 });
    const silver = await createTier(shop.client, {
      name: 'Silver',
      minPoints: 100,
      multiplier: 3,
      color: '#C0C0C0',
    });
    const below = await unwrap(earn(shop, { email: m.email, amount: 5 }));
    expect(below.data).toEqual({ pointsEarned: 50, multiplierApplied: 1, newBalance: 90, tierName: null });
    const { result, events } = await withEvents(server(), shop.businessId, () =>
      unwrap(earn(shop, { email: m.email, amount: 1 })),
    );
    expect(result.data).toEqual({
      pointsEarned: 10,
      multiplierApplied: 1,
      newBalance: 100,
      tierName: 'Silver',
    });
    expect(events.find((e) => e.type === 'loyalty.tier_changed')?.data).toMatchObject({
      previousTier: null,
      newTier: { publicId: silver.publicId, name: 'Silver', color: '#C0C0C0' },
      member: { publicId: m.memberId, tierName: 'Silver', pointsBalance: 100 },
    });
  });

  it('writes an earn transaction (referenceType public) that the token API lists, and the ledger sums to the balance', async () => {
    const shop = await newShop(server());
    const m = await enroll(shop, { points: 100 });
    // A second between the earns keeps the newest-first order of the ledger unambiguous.
    server().clock.advance(1000);
    await unwrap(earn(shop, { email: m.email, amount: 4.2, reference: 'POS-1042' }));
    server().clock.advance(1000);
    await unwrap(earn(shop, { email: m.email, amount: 1, description: 'Coffee' }));
    server().clock.advance(1000);
    await unwrap(earn(shop, { email: m.email, amount: 2, reference: 'POS-1043', description: 'Cake' }));

    const ledger = await transactions(shop, m.memberId);
    expect(ledger.map((t) => [t.type, t.points, t.balanceAfter])).toEqual([
      ['earn', 20, 172],
      ['earn', 10, 152],
      ['earn', 42, 142],
      ['adjust', 100, 100],
    ]);
    expect(ledger[2]).toMatchObject({
      memberId: m.memberId,
      referenceType: 'public',
      referenceId: 'POS-1042',
      description: 'Purchase POS-1042',
      multiplierApplied: 1,
    });
    expect(ledger[1]).toMatchObject({ referenceType: 'public', referenceId: null, description: 'Coffee' });
    expect(ledger[0]).toMatchObject({
      referenceType: 'public',
      referenceId: 'POS-1043',
      description: 'Cake',
    });
    const after = await expectLedgerBalanced(shop, m.memberId);
    expect(after).toMatchObject({ pointsBalance: 172, lifetimePoints: 172 });
    const listed = await unwrap(
      shop.client.loyalty.transactions.listTransactions({ query: { type: 'earn', limit: 200 } }),
    );
    expect(listed.data.map((t) => t.publicId).sort()).toEqual(
      ledger
        .filter((t) => t.type === 'earn')
        .map((t) => t.publicId)
        .sort(),
    );
  });

  it('announces loyalty.points_earned with the ledger transaction and the member after the credit', async () => {
    const shop = await newShop(server());
    const m = await enroll(shop, { points: 5 });
    const { result, events } = await withEvents(server(), shop.businessId, () =>
      unwrap(earn(shop, { email: m.email, amount: 3, reference: 'EVT-1' })),
    );
    expect(result.data.newBalance).toBe(35);
    expect(events.map((e) => e.type)).toEqual(['loyalty.points_earned']);
    const data = itemAt(events, 0).data as { transaction: Transaction; member: Member };
    const earned = (await transactions(shop, m.memberId)).filter((t) => t.type === 'earn');
    expect(earned).toHaveLength(1);
    expect(data.transaction).toEqual(earned[0]);
    expect(data.transaction).toMatchObject({ points: 30, balanceAfter: 35, referenceId: 'EVT-1' });
    const asMember = withoutPhone(await member(shop, m.memberId));
    expect(data.member).toEqual(asMember);
    expect(data.member).toMatchObject({ publicId: m.memberId, pointsBalance: 35, lifetimePoints: 35 });
  });

  it('answers 200 with pointsEarned 0 for an amount too small to earn, writing no transaction and no event', async () => {
    const shop = await newShop(server());
    await createTier(shop.client, { name: 'Base', minPoints: 0, multiplier: 1 });
    const m = await enroll(shop, { points: 30 });
    const { result, events } = await withEvents(server(), shop.businessId, () =>
      earn(shop, { email: m.email, amount: 0.09, reference: 'TINY-1' }),
    );
    expect(result.status).toBe(200);
    expect(await unwrap(result)).toEqual({
      result: 'success',
      data: { pointsEarned: 0, multiplierApplied: 1, newBalance: 30, tierName: 'Base' },
    });
    expect(events).toEqual([]);
    expect((await transactions(shop, m.memberId)).map((t) => t.type)).toEqual(['adjust']);
    expect((await expectLedgerBalanced(shop, m.memberId)).pointsBalance).toBe(30);
  });

  it('enrolls an unknown email under automatic enrollment: a customer named from the email and a member', async () => {
    const shop = await newShop(server(), { enrollmentType: 'automatic' });
    await createTier(shop.client, { name: 'Starter', minPoints: 0 });
    const email = 'grace.hopper@example.com';
    const { result, events } = await withEvents(server(), shop.businessId, () =>
      unwrap(earn(shop, { email, amount: 7, reference: 'W-1' })),
    );
    expect(result.data).toEqual({
      pointsEarned: 70,
      multiplierApplied: 1,
      newBalance: 70,
      tierName: 'Starter',
    });

    const customers = await customerRows(server(), shop.businessId);
    expect(customers.map((c) => [c.name, c.first_name, c.last_name, c.email])).toEqual([
      ['Grace Hopper', 'Grace', 'Hopper', email],
    ]);
    const members = await membersMatching(shop, email);
    expect(members.totalCount).toBe(1);
    expect(members.data[0]).toMatchObject({
      customerId: itemAt(customers, 0).id,
      customerName: 'Grace Hopper',
      customerEmail: email,
      tierName: 'Starter',
      status: 'active',
      pointsBalance: 70,
      lifetimePoints: 70,
    });
    expect(events.map((e) => e.type)).toContain('customer.created');
    expect(events.map((e) => e.type)).toContain('loyalty.points_earned');
    expect((await unwrap(balanceOf(shop, email.toUpperCase()))).data).toMatchObject({
      customerName: 'Grace Hopper',
      pointsBalance: 70,
    });
    expect((await expectLedgerBalanced(shop, itemAt(members.data, 0).publicId)).pointsBalance).toBe(70);
  });

  it('names an enrolled customer from the words of the local part, without its +tag', async () => {
    const shop = await newShop(server(), { enrollmentType: 'automatic' });
    const names: [string, string][] = [
      ['Jean-Luc_Picard+till@Example.com', 'Jean-Luc Picard'],
      ['ada@example.com', 'Ada'],
      ['j.r.r.tolkien@example.com', 'J R R Tolkien'],
      ['+@example.com', '+'],
    ];
    for (const [email] of names) await unwrap(earn(shop, { email, amount: 1 }));
    const customers = await customerRows(server(), shop.businessId);
    expect(customers.map((c) => [c.email, c.name]).sort()).toEqual(
      names.map(([email, name]) => [email.toLowerCase(), name]).sort(),
    );
  });

  it('enrolls an existing customer who is not yet a member under automatic enrollment, keeping the customer', async () => {
    const shop = await newShop(server(), { enrollmentType: 'automatic' });
    const email = uniqueEmail('known');
    const customer = await unwrap(
      shop.client.general.customers.createCustomer({ body: { name: 'Known Customer', email } }),
    );
    const res = await unwrap(earn(shop, { email: email.toUpperCase(), amount: 2 }));
    expect(res.data.newBalance).toBe(20);
    expect(await customerRows(server(), shop.businessId)).toHaveLength(1);
    const members = await membersMatching(shop, email);
    expect(members.data.map((x) => [x.customerId, x.customerName, x.pointsBalance])).toEqual([
      [customer.data.id, 'Known Customer', 20],
    ]);
  });

  it('answers 404 for an unknown email under manual enrollment and creates nothing', async () => {
    const shop = await newShop(server(), { enrollmentType: 'manual' });
    const { result, events } = await withEvents(server(), shop.businessId, () =>
      earn(shop, { email: uniqueEmail('stranger'), amount: 50, reference: 'M-1' }),
    );
    expectResultError(result, 404, 'NOT_FOUND');
    expect(events).toEqual([]);
    expect(await customerRows(server(), shop.businessId)).toEqual([]);
    expect(await memberRows(server(), shop.businessId)).toEqual([]);
    expect(await transactionRows(server(), shop.businessId)).toEqual([]);
  });

  it('answers 404 for a customer who is not a member under manual enrollment, and does not enroll them', async () => {
    const shop = await newShop(server(), { enrollmentType: 'manual' });
    const email = uniqueEmail('customer');
    await unwrap(shop.client.general.customers.createCustomer({ body: { name: 'Not Yet', email } }));
    expectResultError(await earn(shop, { email, amount: 50 }), 404, 'NOT_FOUND');
    expect(await memberRows(server(), shop.businessId)).toEqual([]);
    // Enrolled members of a manual program do earn.
    const m = await enroll(shop);
    expect((await unwrap(earn(shop, { email: m.email, amount: 1 }))).data.newBalance).toBe(10);
  });

  it('answers 404 NOT_FOUND when the business has no active program, changing nothing', async () => {
    const shop = await newShop(server());
    const m = await enroll(shop, { points: 10 });
    await unwrap(shop.client.loyalty.program.deleteProgram());
    expectResultError(await earn(shop, { email: m.email, amount: 5 }), 404, 'NOT_FOUND');
    expectResultError(await earn(shop, { email: uniqueEmail(), amount: 5 }), 404, 'NOT_FOUND');
    expect((await expectLedgerBalanced(shop, m.memberId)).pointsBalance).toBe(10);
    expect(await customerRows(server(), shop.businessId)).toHaveLength(1);
  });

  it('refuses a reference the business used before (409 CONFLICT), for any member, leaving the balance alone', async () => {
    const shop = await newShop(server());
    const m = await enroll(shop);
    const other = await enroll(shop);
    await unwrap(earn(shop, { email: m.email, amount: 10, reference: 'RCPT-7' }));

    const { result, events } = await withEvents(server(), shop.businessId, () =>
      earn(shop, { email: m.email, amount: 99, reference: 'RCPT-7' }),
    );
    expectResultError(result, 409, 'CONFLICT');
    expect(events).toEqual([]);
    expectResultError(
      await earn(shop, { email: other.email, amount: 5, reference: 'RCPT-7' }),
      409,
      'CONFLICT',
    );
    // The reference is trimmed before it is compared.
    expectResultError(
      await earn(shop, { email: m.email, amount: 5, reference: '  RCPT-7 ' }),
      409,
      'CONFLICT',
    );

    expect((await expectLedgerBalanced(shop, m.memberId)).pointsBalance).toBe(100);
    expect((await expectLedgerBalanced(shop, other.memberId)).pointsBalance).toBe(0);
    expect(await transactions(shop, m.memberId)).toHaveLength(1);
    // Another reference is fine.
    expect(
      (await unwrap(earn(shop, { email: m.email, amount: 1, reference: 'RCPT-8' }))).data.newBalance,
    ).toBe(110);
  });

  it('refuses a used reference (409) even when the repeated amount would earn 0 points', async () => {
    const shop = await newShop(server());
    const m = await enroll(shop);
    await unwrap(earn(shop, { email: m.email, amount: 10, reference: 'RCPT-9' }));
    expectResultError(
      await earn(shop, { email: m.email, amount: 0.01, reference: 'RCPT-9' }),
      409,
      'CONFLICT',
    );
    expect((await expectLedgerBalanced(shop, m.memberId)).pointsBalance).toBe(100);
  });

  it('accepts a reference another business already used', async () => {
    const a = await newShop(server());
    const b = await newShop(server());
    const ma = await enroll(a);
    const mb = await enroll(b);
    await unwrap(earn(a, { email: ma.email, amount: 1, reference: 'SHARED-1' }));
    const res = await earn(b, { email: mb.email, amount: 2, reference: 'SHARED-1' });
    expect(res.status).toBe(200);
    expect((await member(b, mb.memberId)).pointsBalance).toBe(20);
    expect((await member(a, ma.memberId)).pointsBalance).toBe(10);
  });

  it.each(['suspended', 'inactive'] as const)(
    'refuses a member who is %s (409 INVALID_STATE) without crediting, and credits again once active',
    async (status) => {
      const shop = await newShop(server());
      const m = await enroll(shop, { points: 25 });
      await unwrap(
        shop.client.loyalty.members.updateMember({ params: { publicId: m.memberId }, body: { status } }),
      );
      const { result, events } = await withEvents(server(), shop.businessId, () =>
        earn(shop, { email: m.email, amount: 10, reference: `S-${status}` }),
      );
      expectResultError(result, 409, 'INVALID_STATE');
      expect(events).toEqual([]);
      expect((await expectLedgerBalanced(shop, m.memberId)).pointsBalance).toBe(25);
      await unwrap(
        shop.client.loyalty.members.updateMember({
          params: { publicId: m.memberId },
          body: { status: 'active' },
        }),
      );
      // The refused reference was not consumed.
      const res = await unwrap(earn(shop, { email: m.email, amount: 10, reference: `S-${status}` }));
      expect(res.data.newBalance).toBe(125);
    },
  );

  it.each([
    ['amount 0', { amount: 0 }, 'amount'],
    ['a negative amount', { amount: -5 }, 'amount'],
    ['an amount as a string', { amount: '10' }, 'amount'],
    ['an amount over 1,000,000,000', { amount: 1_000_000_001 }, 'amount'],
    ['a missing amount', { amount: undefined }, 'amount'],
    ['a missing email', { email: undefined }, 'email'],
    ['an invalid email', { email: 'not-an-email' }, 'email'],
    ['an empty reference', { reference: '   ' }, 'reference'],
    ['an unknown field', { points: 1000 }, 'points'],
  ])('refuses %s (422 VALIDATION_ERROR) and writes nothing', async (_what, change, field) => {
    const shop = await newShop(server());
    const m = await enroll(shop, { points: 1 });
    const res = await rawEarn(shop, { email: m.email, amount: 10, ...change });
    expectResultError(res, 422, 'VALIDATION_ERROR', field);
    expect((await expectLedgerBalanced(shop, m.memberId)).pointsBalance).toBe(1);
    expect((await outbox(server(), shop.businessId)).map((e) => e.type)).not.toContain(
      'loyalty.points_earned',
    );
  });

  it('replays a retried earn with the same Idempotency-Key instead of crediting twice', async () => {
    const shop = await newShop(server());
    const m = await enroll(shop);
    const body = { email: m.email, amount: 3 };
    const headers = { 'idempotency-key': `earn-${m.memberId}` };
    const first = await shop.pos.publicLoyalty.publicEarn({ body, headers });
    const again = await shop.pos.publicLoyalty.publicEarn({ body, headers });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await expectLedgerBalanced(shop, m.memberId)).pointsBalance).toBe(30);
    const changed = await shop.pos.publicLoyalty.publicEarn({ body: { ...body, amount: 4 }, headers });
    expectResultError(changed, 422, 'IDEMPOTENCY_KEY_REUSED');
    expect((await member(shop, m.memberId)).pointsBalance).toBe(30);
  });
});
