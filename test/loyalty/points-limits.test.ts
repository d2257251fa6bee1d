import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import { isCheckViolation } from '../../server/platform/db/errors.js';
import { json, keyClient, raw, registerShop, type TestShop } from '../support/business.js';
import { onPostgres } from '../support/database.js';
import { outbox } from '../support/events.js';
import { atLeast, expectError, expectResultError } from '../support/expect.js';
import { enrollMember, memberRows, newReward, transactionRows, transactions } from '../support/loyalty.js';
import { useTestServer } from '../support/setup.js';

// Every credit path refuses a credit that would take a balance or a lifetime total past
// Number.MAX_SAFE_INTEGER (422 naming the field), and stores nothing. Members are put near the limit
// by writing their row directly: reaching it through the API would take ninety million adjusts.
// A pool large enough that the concurrent earns really run side by side on PostgreSQL.
const server = useTestServer({ env: { DB_POOL_SIZE: '30' }, worker: false });

const MAX = Number.MAX_SAFE_INTEGER;

/** A shop (10 points per USD, automatic enrollment) with one enrolled customer. */
async function shopWithMember(): Promise<TestShop & { memberId: string; customerId: string; email: string }> {
  const shop = await registerShop(server());
  const email = 'grace@example.com';
  const member = await enrollMember(shop.client, { customer: { name: 'Grace Hopper', email } });
  return { ...shop, memberId: member.publicId, customerId: member.customerId, email };
}

/** Sets the member's balance and lifetime total straight in the database. */
async function setPoints(shop: TestShop, memberId: string, balance: number, lifetime = balance) {
  await server()
    .deps.db.updateTable('loyalty_members')
    .set({ points_balance: balance, lifetime_points: lifetime })
    .where('business_id', '=', shop.businessId)
    .where('id', '=', memberId)
    .execute();
}

/** What a refused credit must leave as it was: the member, the ledger and the outbox. */
async function state(shop: TestShop) {
  return {
    members: await memberRows(server(), shop.businessId),
    ledger: await transactionRows(server(), shop.businessId),
    events: (await outbox(server(), shop.businessId)).map((e) => e.id),
  };
}

const adjust = (shop: TestShop, memberId: string, points: number) =>
  shop.client.loyalty.transactions.adjustPoints({ body: { memberId, points, description: 'Correction' } });

describe('the points limit on manual adjustments', () => {
  it('credits up to exactly 2^53-1 and refuses one point more (422 naming points), changing nothing', async () => {
    const shop = await shopWithMember();
    await setPoints(shop, shop.memberId, MAX - 10);

    const reached = await unwrap(adjust(shop, shop.memberId, 10));
    expect(reached.data).toMatchObject({ points: 10, balanceAfter: MAX });
    const before = await state(shop);
    expectResultError(await adjust(shop, shop.memberId, 1), 422, 'VALIDATION_ERROR', 'points');
    expect(await state(shop)).toEqual(before);

    const detail = await unwrap(
      shop.client.loyalty.members.getMember({ params: { publicId: shop.memberId } }),
    );
    expect(detail.data).toMatchObject({ pointsBalance: MAX, lifetimePoints: MAX });
    // A debit still works at the limit.
    expect((await unwrap(adjust(shop, shop.memberId, -1))).data.balanceAfter).toBe(MAX - 1);
  });

  it('refuses a credit that would take the lifetime total past the limit, even with a small balance', async () => {
    const shop = await shopWithMember();
    await setPoints(shop, shop.memberId, 100, MAX - 5);
    const before = await state(shop);
    expectResultError(await adjust(shop, shop.memberId, 6), 422, 'VALIDATION_ERROR', 'points');
    expect(await state(shop)).toEqual(before);
    expect((await unwrap(adjust(shop, shop.memberId, 5))).data.balanceAfter).toBe(105);
  });

  it('refuses initialPoints over the enrollment maximum (422 naming initialPoints)', async () => {
    const shop = await registerShop(server());
    const customer = await unwrap(shop.client.general.customers.createCustomer({ body: { name: 'Ada' } }));
    const res = await raw(server(), 'POST', '/v1/loyalty/members', {
      token: shop.accessToken,
      ...json({ customerId: customer.data.id, initialPoints: MAX }),
    });
    expectResultError(res, 422, 'VALIDATION_ERROR', 'initialPoints');
    expect(await memberRows(server(), shop.businessId)).toEqual([]);
  });
});

describe('the points limit on the public earn', () => {
  const earn = (shop: TestShop, body: { email: string; amount: number; reference?: string }) =>
    keyClient(server(), shop.apiKey).publicLoyalty.publicEarn({ body });

  it('earns up to exactly 2^53-1 and refuses an earn past it (422 naming amount), changing nothing', async () => {
    const shop = await shopWithMember();
    await setPoints(shop, shop.memberId, MAX - 50);

    const reached = await unwrap(earn(shop, { email: shop.email, amount: 5 }));
    expect(reached.data).toMatchObject({ pointsEarned: 50, newBalance: MAX });
    expect((await transactions(shop, shop.memberId))[0]).toMatchObject({ points: 50, balanceAfter: MAX });

    const before = await state(shop);
    const refused = await earn(shop, { email: shop.email, amount: 0.1, reference: 'R-1' });
    expectResultError(refused, 422, 'VALIDATION_ERROR', 'amount');
    expect(await state(shop)).toEqual(before);

    // The refused reference was not consumed.
    await setPoints(shop, shop.memberId, 0, MAX - 1);
    expect(
      (await unwrap(earn(shop, { email: shop.email, amount: 0.1, reference: 'R-1' }))).data,
    ).toMatchObject({
      pointsEarned: 1,
      newBalance: 1,
    });
  });

  it('refuses an earn that would take the lifetime total past the limit (raw HTTP)', async () => {
    const shop = await shopWithMember();
    await setPoints(shop, shop.memberId, 0, MAX - 9);
    const before = await state(shop);
    const res = await raw(server(), 'POST', '/v1/public/loyalty/earn', {
      headers: { 'content-type': 'application/json', 'x-api-key': shop.apiKey },
      body: JSON.stringify({ email: shop.email, amount: 1 }),
    });
    expectResultError(res, 422, 'VALIDATION_ERROR', 'amount');
    expect(await state(shop)).toEqual(before);
  });

  it('still earns exactly on large balances below the limit', async () => {
    const shop = await shopWithMember();
    await setPoints(shop, shop.memberId, 2 ** 53 - 1000, 2 ** 53 - 1000);
    const res = await unwrap(earn(shop, { email: shop.email, amount: 12.34 }));
    expect(res.data).toMatchObject({ pointsEarned: 123, newBalance: 2 ** 53 - 877 });
    const [row] = atLeast(await memberRows(server(), shop.businessId), 1);
    expect([row.points_balance, row.lifetime_points]).toEqual([2 ** 53 - 877, 2 ** 53 - 877]);
  });

  it(`lets concurrent earns fill a balance up to the limit and refuses the rest (${onPostgres ? 'PostgreSQL' : 'PGlite'})`, async () => {
    const shop = await shopWithMember();
    await setPoints(shop, shop.memberId, MAX - 250);
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) => earn(shop, { email: shop.email, amount: 1, reference: `C-${i}` })),
    );
    const ok = responses.filter((r) => r.status === 200);
    expect(ok).toHaveLength(25);
    for (const res of responses.filter((r) => r.status !== 200))
      expectResultError(res, 422, 'VALIDATION_ERROR', 'amount');
    const earns = (await transactions(shop, shop.memberId)).sort((a, b) => a.balanceAfter - b.balanceAfter);
    expect(earns).toHaveLength(25);
    earns.forEach((t, i) => expect(t.balanceAfter).toBe(MAX - 250 + 10 * (i + 1)));
    const [row] = atLeast(await memberRows(server(), shop.businessId), 1);
    expect(row.points_balance).toBe(MAX);
  });
});

describe('the points limit on the other credits', () => {
  it('refuses the payment that completes an invoice whose points would not fit (422 naming amount)', async () => {
    const shop = await shopWithMember();
    const invoice = await unwrap(
      shop.client.general.invoices.createInvoice({
        body: {
          customer_id: shop.customerId,
          items: [{ description: 'Service', quantity: 1, unit_price: 10 }],
          due_date: '2030-01-31',
        },
      }),
    );
    await unwrap(shop.client.general.invoices.issueInvoice({ params: { id: invoice.data.id } }));
    await setPoints(shop, shop.memberId, MAX - 99);
    const before = await state(shop);
    const pay = () =>
      shop.client.general.invoices.createPayment({
        params: { id: invoice.data.id },
        body: { amount: 10, payment_method: 'cash' },
      });
    expectError(await pay(), 422, 'VALIDATION_ERROR', 'amount');
    expect(await state(shop)).toEqual(before);
    const unpaid = await unwrap(shop.client.general.invoices.getInvoice({ params: { id: invoice.data.id } }));
    expect(unpaid.data).toMatchObject({ status: 'unpaid', amount_paid: 0, payments: [] });

    await setPoints(shop, shop.memberId, MAX - 100);
    expect((await unwrap(pay())).data.status).toBe('paid');
    const [row] = atLeast(await memberRows(server(), shop.businessId), 1);
    expect(row.points_balance).toBe(MAX);
  });

  it('refuses a completed service whose bonus would not fit (422 naming memberId), scheduling nothing', async () => {
    const shop = await shopWithMember();
    const reminder = await unwrap(
      shop.client.loyalty.reminders.createReminder({
        body: { name: 'Service', intervalDays: 30, bonusPoints: 50 },
      }),
    );
    await setPoints(shop, shop.memberId, MAX - 49);
    const before = await state(shop);
    const complete = () =>
      shop.client.loyalty.reminders.completeReminder({
        params: { publicId: reminder.data.publicId },
        body: { memberId: shop.memberId },
      });
    expectResultError(await complete(), 422, 'VALIDATION_ERROR', 'memberId');
    expect(await state(shop)).toEqual(before);
    const schedules = await server()
      .deps.db.selectFrom('loyalty_member_reminders')
      .selectAll()
      .where('business_id', '=', shop.businessId)
      .execute();
    expect(schedules).toEqual([]);
    await setPoints(shop, shop.memberId, MAX - 50);
    expect((await unwrap(complete())).data.transaction).toMatchObject({ points: 50, balanceAfter: MAX });
  });

  it('refuses to cancel a redemption whose refund would not fit (422 naming status), keeping it pending', async () => {
    const shop = await shopWithMember();
    const reward = await newReward(shop, { pointsCost: 100 });
    await setPoints(shop, shop.memberId, 1000);
    const redemption = await unwrap(
      shop.client.loyalty.redemptions.createRedemption({
        body: { memberId: shop.memberId, rewardId: reward.publicId },
      }),
    );
    // Credits since the redemption filled the balance up to the limit.
    await setPoints(shop, shop.memberId, MAX - 99, MAX);
    const before = await state(shop);
    const cancel = () =>
      shop.client.loyalty.redemptions.updateRedemption({
        params: { publicId: redemption.data.publicId },
        body: { status: 'cancelled' },
      });
    expectResultError(await cancel(), 422, 'VALIDATION_ERROR', 'status');
    expect(await state(shop)).toEqual(before);
    const [row] = atLeast(
      await server()
        .deps.db.selectFrom('loyalty_redemptions')
        .select('status')
        .where('business_id', '=', shop.businessId)
        .execute(),
      1,
    );
    expect(row.status).toBe('pending');
  });
});

describe('the database constraints behind the limit', () => {
  it.each([
    ['loyalty_members', 'points_balance', 'loyalty_members_points_balance_max'],
    ['loyalty_members', 'lifetime_points', 'loyalty_members_lifetime_points_max'],
    ['loyalty_transactions', 'balance_after', 'loyalty_transactions_balance_after_max'],
    ['loyalty_transactions', 'points', 'loyalty_transactions_points_max'],
  ] as const)('%s.%s cannot hold more than 2^53-1 (%s)', async (table, column, constraint) => {
    const shop = await shopWithMember();
    await unwrap(adjust(shop, shop.memberId, 5));
    const write = sql`UPDATE ${sql.table(table)} SET ${sql.ref(column)} = ${String(BigInt(MAX) + 1n)}::bigint
      WHERE business_id = ${shop.businessId}`.execute(server().deps.db);
    const err = await write.then(
      () => null,
      (e: unknown) => e,
    );
    expect(isCheckViolation(err, constraint), String(err)).toBe(true);
  });
});
