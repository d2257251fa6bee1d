import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import type { CreateInvoiceBody, Invoice } from '../../contract/general/index.js';
import type { CreateProgramBody, Member, Tier, Transaction } from '../../contract/loyalty/index.js';
import { json, raw, registerBusiness, type TestBusiness } from '../support/business.js';
import { onPostgres } from '../support/database.js';
import { withEvents } from '../support/events.js';
import { useTestServer } from '../support/setup.js';
import { atLeast, expectApiError, itemAt } from '../support/expect.js';
import { adjustPoints, createProgram, createTier, enrollMember } from '../support/loyalty.js';
import { createCustomer, issuedInvoice, payInvoice } from '../support/general.js';

// A pool large enough that concurrent requests really run side by side on PostgreSQL.
const server = useTestServer({ env: { DB_POOL_SIZE: '30' } });

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const MISSING_MEMBER = 'mem_01JD7X2R5VQ8N3K4M6P9T1W2Y3';
const DATABASE = onPostgres ? 'PostgreSQL' : 'PGlite';

const loyalty = (biz: TestBusiness) => biz.client.loyalty;

interface Shop {
  biz: TestBusiness;
  bronze: Tier;
  silver: Tier;
  gold: Tier;
}

/** A business with an active USD program (10 points per dollar) and three tiers. */
async function openShop(program: Partial<CreateProgramBody> = {}, goldMultiplier = 1.5): Promise<Shop> {
  const biz = await registerBusiness(server());
  await createProgram(biz.client, { name: 'Coffee Club', pointsName: 'Beans', ...program });
  const tier = (name: string, minPoints: number, color: string, multiplier: number) =>
    createTier(biz.client, { name, minPoints, color, multiplier });
  return {
    biz,
    bronze: await tier('Bronze', 0, '#CD7F32', 1),
    silver: await tier('Silver', 500, '#C0C0C0', 1.25),
    gold: await tier('Gold', 2000, '#FFD700', goldMultiplier),
  };
}

async function newCustomer(biz: TestBusiness, name = 'Ada Lovelace'): Promise<string> {
  const email = `${itemAt(name.split(' '), 0).toLowerCase()}.${randomBytes(3).toString('hex')}@example.test`;
  return (await createCustomer(biz.client, { name, email })).id;
}

const enrollNew = async (
  biz: TestBusiness,
  options: { tierId?: string; initialPoints?: number } = {},
): Promise<Member> => enrollMember(biz.client, { customerId: await newCustomer(biz), ...options });

const getMember = async (biz: TestBusiness, id: string) =>
  (await unwrap(loyalty(biz).members.getMember({ params: { publicId: id } }))).data;

const adjustCall = (biz: TestBusiness, memberId: string, points: number, description = 'Manual correction') =>
  loyalty(biz).transactions.adjustPoints({ body: { memberId, points, description } });

const adjust = (biz: TestBusiness, memberId: string, points: number) =>
  adjustPoints(biz.client, memberId, points);

/** Every transaction of a member, newest first. */
async function allTransactions(biz: TestBusiness, memberId: string): Promise<Transaction[]> {
  const all: Transaction[] = [];
  for (let offset = 0; ; offset += 200) {
    const page = await unwrap(
      loyalty(biz).members.listMemberTransactions({
        params: { publicId: memberId },
        query: { limit: 200, offset },
      }),
    );
    all.push(...page.data);
    if (all.length >= page.totalCount) return all;
  }
}

/**
 * The member's balance equals the sum of its ledger, lifetime points the sum of its credits, and no
 * balance was ever negative. `serial` also checks each balanceAfter against the one before it (for
 * changes made one after another).
 */
async function expectConsistent(biz: TestBusiness, memberId: string, serial = true): Promise<Member> {
  const member = await getMember(biz, memberId);
  const transactions = await allTransactions(biz, memberId);
  const sum = transactions.reduce((s, t) => s + t.points, 0);
  const credits = transactions.filter((t) => t.points > 0).reduce((s, t) => s + t.points, 0);
  expect(member.pointsBalance, 'balance = sum of transactions').toBe(sum);
  expect(member.lifetimePoints, 'lifetime = sum of credits').toBe(credits);
  expect(transactions.every((t) => t.balanceAfter >= 0)).toBe(true);
  if (serial) {
    let running = 0;
    for (const t of [...transactions].reverse()) {
      running += t.points;
      expect(t.balanceAfter).toBe(running);
    }
  }
  return member;
}

const DUE = '2027-12-31';

/** An invoice created, issued and paid in full; returns it as paid. */
async function paidInvoice(
  biz: TestBusiness,
  customerId: string,
  items: CreateInvoiceBody['items'],
  currency = 'USD',
): Promise<Invoice> {
  const issued = await issuedInvoice(biz.client, { customer_id: customerId, items, due_date: DUE, currency });
  const paid = await payInvoice(biz.client, issued.id, issued.total, { payment_method: 'card' });
  expect(paid.status).toBe('paid');
  return paid;
}

const item = (unit_price: number, quantity = 1, tax_rate?: number) => [
  { description: 'Espresso beans', quantity, unit_price, ...(tax_rate === undefined ? {} : { tax_rate }) },
];

const membersOf = (biz: TestBusiness) =>
  server()
    .deps.db.selectFrom('loyalty_members')
    .selectAll()
    .where('business_id', '=', biz.businessId)
    .execute();
const transactionsOf = (biz: TestBusiness) =>
  server()
    .deps.db.selectFrom('loyalty_transactions')
    .selectAll()
    .where('business_id', '=', biz.businessId)
    .execute();

describe('adjusting points', () => {
  it('adds points (201): an adjust transaction, referenceType manual, with balanceAfter', async () => {
    const { biz } = await openShop();
    const member = await enrollNew(biz, { initialPoints: 100 });
    await expectConsistent(biz, member.publicId);

    const res = await adjustCall(biz, member.publicId, 250, 'Birthday bonus');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      result: 'success',
      data: {
        publicId: expect.stringMatching(/^ltx_[0-9A-HJKMNP-TV-Z]{26}$/),
        memberId: member.publicId,
        type: 'adjust',
        points: 250,
        balanceAfter: 350,
        description: 'Birthday bonus',
        referenceType: 'manual',
        referenceId: null,
        multiplierApplied: 1,
        dateCreated: expect.stringMatching(ISO),
      },
    });
    const after = await expectConsistent(biz, member.publicId);
    expect(after).toMatchObject({ pointsBalance: 350, lifetimePoints: 350 });
  });

  it('removes points: a negative adjust that leaves lifetime points alone', async () => {
    const { biz } = await openShop();
    const member = await enrollNew(biz, { initialPoints: 100 });
    const removed = await adjust(biz, member.publicId, -60);
    expect(removed).toMatchObject({ type: 'adjust', points: -60, balanceAfter: 40, referenceType: 'manual' });
    expect(await expectConsistent(biz, member.publicId)).toMatchObject({
      pointsBalance: 40,
      lifetimePoints: 100,
    });
    // Down to exactly zero is allowed.
    expect(await adjust(biz, member.publicId, -40)).toMatchObject({ balanceAfter: 0 });
    expect(await expectConsistent(biz, member.publicId)).toMatchObject({
      pointsBalance: 0,
      lifetimePoints: 100,
    });
  });

  it('refuses to remove more than the balance (422 INSUFFICIENT_POINTS) and writes nothing', async () => {
    const { biz } = await openShop();
    const member = await enrollNew(biz, { initialPoints: 30 });
    await adjust(biz, member.publicId, 20);
    const before = await transactionsOf(biz);

    const { result, events } = await withEvents(server(), biz.businessId, () =>
      adjustCall(biz, member.publicId, -51),
    );
    await expectApiError(result, 422, 'INSUFFICIENT_POINTS');
    expect(events).toEqual([]);
    expect(await transactionsOf(biz)).toEqual(before);
    expect(await expectConsistent(biz, member.publicId)).toMatchObject({
      pointsBalance: 50,
      lifetimePoints: 50,
    });

    // A member with no points at all.
    const empty = await enrollNew(biz);
    await expectApiError(adjustCall(biz, empty.publicId, -1), 422, 'INSUFFICIENT_POINTS');
    expect(await expectConsistent(biz, empty.publicId)).toMatchObject({ pointsBalance: 0 });
  });

  it.each([
    ['points 0', { points: 0 }, 'points'],
    ['fractional points', { points: 1.5 }, 'points'],
    ['points as a string', { points: '10' }, 'points'],
    ['points beyond 100,000,000', { points: 100_000_001 }, 'points'],
    ['a missing description', { description: undefined }, 'description'],
    ['a blank description', { description: '  ' }, 'description'],
    ['an unknown field', { type: 'earn' }, 'type'],
    ['a missing memberId', { memberId: undefined }, 'memberId'],
  ])(
    'refuses an adjustment with %s (422 VALIDATION_ERROR) and writes nothing',
    async (_, override, field) => {
      const { biz } = await openShop();
      const member = await enrollNew(biz, { initialPoints: 10 });
      const body = { memberId: member.publicId, points: 5, description: 'Manual', ...override };
      await expectApiError(
        raw(server(), 'POST', '/v1/loyalty/transactions/adjust', { token: biz.accessToken, ...json(body) }),
        422,
        'VALIDATION_ERROR',
        field,
      );
      expect(await transactionsOf(biz)).toHaveLength(1);
      expect(await expectConsistent(biz, member.publicId)).toMatchObject({ pointsBalance: 10 });
    },
  );

  it('refuses an unknown member (422 naming memberId)', async () => {
    const { biz } = await openShop();
    await expectApiError(adjustCall(biz, MISSING_MEMBER, 10), 422, 'VALIDATION_ERROR', 'memberId');
    expect(await transactionsOf(biz)).toEqual([]);
  });

  it('keeps the balance equal to the sum of the ledger through a run of credits and debits', async () => {
    const { biz } = await openShop();
    const member = await enrollNew(biz, { initialPoints: 5 });
    for (const points of [10, -3, 400, -412, 1, 77, -78, 1000, -1]) {
      await adjust(biz, member.publicId, points);
      await expectConsistent(biz, member.publicId);
    }
    await expectApiError(adjustCall(biz, member.publicId, -1000), 422, 'INSUFFICIENT_POINTS');
    const final = await expectConsistent(biz, member.publicId);
    expect(final).toMatchObject({ pointsBalance: 999, lifetimePoints: 1493 });
  });
});

describe('tiers on credits', () => {
  it('upgrades when a credit takes lifetime points past a tier, announcing loyalty.tier_changed', async () => {
    const { biz, bronze, silver } = await openShop();
    const member = await enrollNew(biz, { initialPoints: 450 });
    expect(member.tierId).toBe(bronze.publicId);

    const below = await withEvents(server(), biz.businessId, () => adjust(biz, member.publicId, 49));
    expect(below.events).toEqual([]);
    expect((await getMember(biz, member.publicId)).tierId).toBe(bronze.publicId);

    const { events } = await withEvents(server(), biz.businessId, () => adjust(biz, member.publicId, 1));
    const upgraded = await expectConsistent(biz, member.publicId);
    expect(upgraded).toMatchObject({
      tierId: silver.publicId,
      tierName: 'Silver',
      tierColor: '#C0C0C0',
      lifetimePoints: 500,
    });
    expect(events.map((e) => [e.type, e.data])).toEqual([
      [
        'loyalty.tier_changed',
        {
          member: expect.objectContaining({
            publicId: member.publicId,
            tierId: silver.publicId,
            lifetimePoints: 500,
          }),
          previousTier: { publicId: bronze.publicId, name: 'Bronze', color: '#CD7F32' },
          newTier: { publicId: silver.publicId, name: 'Silver', color: '#C0C0C0' },
        },
      ],
    ]);
  });

  it('jumps straight to the highest tier a credit qualifies for, with one event', async () => {
    const { biz, bronze, gold } = await openShop();
    const member = await enrollNew(biz);
    const { events } = await withEvents(server(), biz.businessId, () => adjust(biz, member.publicId, 2500));
    expect((await getMember(biz, member.publicId)).tierId).toBe(gold.publicId);
    expect(events).toHaveLength(1);
    expect(events[0]?.data).toMatchObject({
      previousTier: { publicId: bronze.publicId },
      newTier: { publicId: gold.publicId, name: 'Gold', color: '#FFD700' },
    });
  });

  it('never downgrades on a debit', async () => {
    const { biz, gold } = await openShop();
    const member = await enrollNew(biz);
    await adjust(biz, member.publicId, 2000);
    const { events } = await withEvents(server(), biz.businessId, () => adjust(biz, member.publicId, -1990));
    expect(events).toEqual([]);
    expect(await expectConsistent(biz, member.publicId)).toMatchObject({
      tierId: gold.publicId,
      pointsBalance: 10,
      lifetimePoints: 2000,
    });
  });
});

describe('earning on paid invoices', () => {
  it('earns floor(total x 10 x multiplier) once when the invoice is paid, announcing loyalty.points_earned', async () => {
    const { biz } = await openShop();
    const customerId = await newCustomer(biz);
    const member = (await unwrap(loyalty(biz).members.enrollMember({ body: { customerId } }))).data;

    const { result: invoice, events } = await withEvents(server(), biz.businessId, () =>
      paidInvoice(biz, customerId, item(12.34, 3)),
    );
    expect(invoice.total).toBe(37.02);
    const transactions = await allTransactions(biz, member.publicId);
    expect(transactions).toEqual([
      {
        publicId: expect.stringMatching(/^ltx_/),
        memberId: member.publicId,
        type: 'earn',
        points: 370,
        balanceAfter: 370,
        description: expect.stringContaining(invoice.number),
        referenceType: 'invoice',
        referenceId: invoice.id,
        multiplierApplied: 1,
        dateCreated: expect.stringMatching(ISO),
      },
    ]);
    const after = await expectConsistent(biz, member.publicId);
    expect(after).toMatchObject({ pointsBalance: 370, lifetimePoints: 370 });

    const earned = events.filter((e) => e.type === 'loyalty.points_earned');
    expect(earned.map((e) => e.data)).toEqual([
      { transaction: transactions[0], member: { ...member, pointsBalance: 370, lifetimePoints: 370 } },
    ]);

    // The invoice cannot be paid again, and nothing more is earned for it.
    const again = await biz.client.general.invoices.createPayment({
      params: { id: invoice.id },
      body: { amount: 1, payment_method: 'card' },
    });
    expect(again.status).toBe(409);
    expect(await allTransactions(biz, member.publicId)).toHaveLength(1);
  });

  it('earns on the total including tax, only once the invoice is fully paid', async () => {
    const { biz } = await openShop();
    const customerId = await newCustomer(biz);
    const member = (await unwrap(loyalty(biz).members.enrollMember({ body: { customerId } }))).data;
    const invoices = biz.client.general.invoices;
    const draft = (
      await unwrap(
        invoices.createInvoice({ body: { customer_id: customerId, items: item(10, 3, 20), due_date: DUE } }),
      )
    ).data;
    const issued = (await unwrap(invoices.issueInvoice({ params: { id: draft.id } }))).data;
    expect(issued.total).toBe(36);

    await unwrap(
      invoices.createPayment({ params: { id: issued.id }, body: { amount: 20, payment_method: 'cash' } }),
    );
    expect(await allTransactions(biz, member.publicId)).toEqual([]);
    await unwrap(
      invoices.createPayment({ params: { id: issued.id }, body: { amount: 16, payment_method: 'cash' } }),
    );
    const [earn] = await allTransactions(biz, member.publicId);
    expect(earn).toMatchObject({ type: 'earn', points: 360, referenceId: issued.id });
    await expectConsistent(biz, member.publicId);
  });

  it("applies the member's tier multiplier, exactly (20.00 x 10 x 1.15 = 230, not 229)", async () => {
    const { biz, gold } = await openShop({}, 1.15);
    const customerId = await newCustomer(biz);
    const member = (
      await unwrap(loyalty(biz).members.enrollMember({ body: { customerId, tierId: gold.publicId } }))
    ).data;
    await paidInvoice(biz, customerId, item(20));
    await paidInvoice(biz, customerId, item(0.99));
    const transactions = await allTransactions(biz, member.publicId);
    // 0.99 x 10 x 1.15 = 11.385 -> 11.
    expect(transactions.map((t) => [t.type, t.points, t.multiplierApplied])).toEqual([
      ['earn', 11, 1.15],
      ['earn', 230, 1.15],
    ]);
    await expectConsistent(biz, member.publicId);
  });

  it('counts three decimals for a three-decimal currency (1.999 KWD x 10 = 19)', async () => {
    const { biz } = await openShop({ currency: 'KWD' });
    const customerId = await newCustomer(biz);
    const member = (await unwrap(loyalty(biz).members.enrollMember({ body: { customerId } }))).data;
    await paidInvoice(biz, customerId, item(1.999), 'KWD');
    expect((await allTransactions(biz, member.publicId)).map((t) => t.points)).toEqual([19]);
  });

  it('upgrades the tier when earning crosses it; the earned event shows the new tier', async () => {
    const { biz, bronze, silver } = await openShop();
    const customerId = await newCustomer(biz);
    const member = (await unwrap(loyalty(biz).members.enrollMember({ body: { customerId } }))).data;
    const { events } = await withEvents(server(), biz.businessId, () =>
      paidInvoice(biz, customerId, item(55)),
    );
    const loyaltyEvents = events.filter((e) => e.type.startsWith('loyalty.'));
    expect(loyaltyEvents.map((e) => e.type)).toEqual(['loyalty.tier_changed', 'loyalty.points_earned']);
    expect(loyaltyEvents[0]?.data).toMatchObject({
      previousTier: { publicId: bronze.publicId },
      newTier: { publicId: silver.publicId },
    });
    expect(loyaltyEvents[1]?.data).toMatchObject({
      transaction: { points: 550, type: 'earn' },
      member: { publicId: member.publicId, tierId: silver.publicId, pointsBalance: 550 },
    });
    expect(await expectConsistent(biz, member.publicId)).toMatchObject({ tierId: silver.publicId });
  });

  it('enrolls a non-member automatically (lowest tier) and lets them earn', async () => {
    const { biz, bronze } = await openShop();
    const customerId = await newCustomer(biz, 'Grace Hopper');
    const { result: invoice, events } = await withEvents(server(), biz.businessId, () =>
      paidInvoice(biz, customerId, item(7.5)),
    );
    const list = await unwrap(loyalty(biz).members.listMembers({ query: {} }));
    expect(list.totalCount).toBe(1);
    const [member] = atLeast(list.data, 1);
    expect(member).toMatchObject({
      customerId,
      customerName: 'Grace Hopper',
      tierId: bronze.publicId,
      status: 'active',
      pointsBalance: 75,
      lifetimePoints: 75,
    });
    expect(
      (await allTransactions(biz, member.publicId)).map((t) => [t.type, t.points, t.referenceId]),
    ).toEqual([['earn', 75, invoice.id]]);
    const loyaltyEvents = events.filter((e) => e.type.startsWith('loyalty.'));
    expect(loyaltyEvents.map((e) => e.type)).toEqual(['loyalty.tier_changed', 'loyalty.points_earned']);
    expect(loyaltyEvents[0]?.data).toMatchObject({
      previousTier: null,
      newTier: { publicId: bronze.publicId },
    });
    await expectConsistent(biz, member.publicId);
  });

  it('earns nothing for a non-member when enrollment is manual', async () => {
    const { biz } = await openShop({ enrollmentType: 'manual' });
    const customerId = await newCustomer(biz);
    const { events } = await withEvents(server(), biz.businessId, () =>
      paidInvoice(biz, customerId, item(100)),
    );
    expect(events.filter((e) => e.type.startsWith('loyalty.'))).toEqual([]);
    expect(await membersOf(biz)).toEqual([]);
    expect(await transactionsOf(biz)).toEqual([]);

    // An enrolled member of a manual program earns as usual.
    const member = (await unwrap(loyalty(biz).members.enrollMember({ body: { customerId } }))).data;
    await paidInvoice(biz, customerId, item(100));
    expect((await getMember(biz, member.publicId)).pointsBalance).toBe(1000);
  });

  it("earns nothing for an invoice in another currency than the program's", async () => {
    const { biz } = await openShop();
    const customerId = await newCustomer(biz);
    const member = (await unwrap(loyalty(biz).members.enrollMember({ body: { customerId } }))).data;
    await paidInvoice(biz, customerId, item(100), 'EUR');
    expect(await allTransactions(biz, member.publicId)).toEqual([]);
    // Nor is a non-member enrolled by it.
    const stranger = await newCustomer(biz, 'Alan Turing');
    await paidInvoice(biz, stranger, item(100), 'EUR');
    expect(await membersOf(biz)).toHaveLength(1);
    expect(await transactionsOf(biz)).toEqual([]);
  });

  it('earns nothing for a suspended or inactive member, and again once active', async () => {
    const { biz } = await openShop();
    const customerId = await newCustomer(biz);
    const member = (
      await unwrap(loyalty(biz).members.enrollMember({ body: { customerId, initialPoints: 5 } }))
    ).data;
    for (const status of ['suspended', 'inactive'] as const) {
      await unwrap(
        loyalty(biz).members.updateMember({ params: { publicId: member.publicId }, body: { status } }),
      );
      await paidInvoice(biz, customerId, item(40));
      expect(await expectConsistent(biz, member.publicId)).toMatchObject({ pointsBalance: 5, status });
    }
    await unwrap(
      loyalty(biz).members.updateMember({
        params: { publicId: member.publicId },
        body: { status: 'active' },
      }),
    );
    await paidInvoice(biz, customerId, item(40));
    expect(await expectConsistent(biz, member.publicId)).toMatchObject({ pointsBalance: 405 });
  });

  it('earns nothing without an active program', async () => {
    const { biz } = await openShop();
    const customerId = await newCustomer(biz);
    const member = (await unwrap(loyalty(biz).members.enrollMember({ body: { customerId } }))).data;
    await unwrap(loyalty(biz).program.updateProgram({ body: { isActive: false } }));
    await paidInvoice(biz, customerId, item(40));
    await unwrap(loyalty(biz).program.updateProgram({ body: { isActive: true } }));
    expect(await allTransactions(biz, member.publicId)).toEqual([]);

    const bare = await registerBusiness(server());
    const customer = await newCustomer(bare);
    const invoice = await paidInvoice(bare, customer, item(40));
    expect(invoice.status).toBe('paid');
    expect(await membersOf(bare)).toEqual([]);
  });
});

describe(`concurrent balance changes (${DATABASE}${onPostgres ? '' : ', which serialises them'})`, () => {
  it('adds up 50 concurrent +7 and 50 concurrent -3 adjusts exactly (500 + 350 - 150 = 700)', async () => {
    const { biz } = await openShop();
    const member = await enrollNew(biz, { initialPoints: 500 });
    const calls = [
      ...Array.from({ length: 50 }, () => adjustCall(biz, member.publicId, 7, 'Concurrent credit')),
      ...Array.from({ length: 50 }, () => adjustCall(biz, member.publicId, -3, 'Concurrent debit')),
    ];
    const answers = await Promise.all(calls);
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 201));

    const final = await expectConsistent(biz, member.publicId, false);
    expect(final).toMatchObject({ pointsBalance: 700, lifetimePoints: 850 });
    const transactions = await allTransactions(biz, member.publicId);
    expect(transactions).toHaveLength(101);
    // The changes happened one after another: the balances before each change, with the final
    // balance, are exactly the balances after each change, with the starting zero.
    const before = [...transactions.map((t) => t.balanceAfter - t.points), final.pointsBalance].sort(
      (a, b) => a - b,
    );
    const after = [...transactions.map((t) => t.balanceAfter), 0].sort((a, b) => a - b);
    expect(before).toEqual(after);
    expect(Math.min(...transactions.map((t) => t.balanceAfter))).toBeGreaterThanOrEqual(0);
  });

  it('enrolls a non-member once when several of their invoices are paid at the same time, and each earns', async () => {
    const { biz, silver } = await openShop();
    const customerId = await newCustomer(biz);
    const invoices = biz.client.general.invoices;
    const issued: Invoice[] = [];
    for (let i = 0; i < 6; i++) {
      const draft = (
        await unwrap(
          invoices.createInvoice({ body: { customer_id: customerId, items: item(10), due_date: DUE } }),
        )
      ).data;
      issued.push((await unwrap(invoices.issueInvoice({ params: { id: draft.id } }))).data);
    }
    const answers = await Promise.all(
      issued.map((invoice) =>
        invoices.createPayment({ params: { id: invoice.id }, body: { amount: 10, payment_method: 'card' } }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(issued.map(() => 201));
    const members = await membersOf(biz);
    expect(members).toHaveLength(1);
    const member = await expectConsistent(biz, itemAt(members, 0).id, false);
    // Enrolled in Bronze; five earnings of 100 reach Silver (500), so the last one earns 125.
    expect(member).toMatchObject({
      customerId,
      tierId: silver.publicId,
      pointsBalance: 625,
      lifetimePoints: 625,
    });
    const earned = await allTransactions(biz, member.publicId);
    expect(earned.map((t) => t.referenceId).sort()).toEqual(issued.map((i) => i.id).sort());
    expect(earned.map((t) => [t.points, t.multiplierApplied]).sort()).toEqual([
      [100, 1],
      [100, 1],
      [100, 1],
      [100, 1],
      [100, 1],
      [125, 1.25],
    ]);
  });

  it('never overdraws under concurrent debits: 30 x -7 from 100 lets exactly 14 through', async () => {
    const { biz } = await openShop();
    const member = await enrollNew(biz, { initialPoints: 100 });
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => adjustCall(biz, member.publicId, -7, 'Concurrent debit')),
    );
    const ok = answers.filter((a) => a.status === 201);
    const refused = answers.filter((a) => a.status !== 201);
    expect(ok).toHaveLength(14);
    expect(refused).toHaveLength(16);
    for (const answer of refused) await expectApiError(answer, 422, 'INSUFFICIENT_POINTS');
    const final = await expectConsistent(biz, member.publicId, false);
    expect(final).toMatchObject({ pointsBalance: 2, lifetimePoints: 100 });
    const balances = (await allTransactions(biz, member.publicId))
      .map((t) => t.balanceAfter)
      .sort((a, b) => a - b);
    expect(balances).toEqual([2, 9, 16, 23, 30, 37, 44, 51, 58, 65, 72, 79, 86, 93, 100]);
  });
});
