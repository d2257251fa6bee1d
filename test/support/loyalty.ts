import { expect } from 'vitest';
import { unwrap, type Client, type general, type loyalty } from '../../client/index.js';
import { uniqueEmail, type TestBusiness } from './business.js';
import { createCustomer } from './general.js';
import type { TestServer } from './server.js';

/** A program: Club, 10 Stars per USD, automatic enrollment unless told. */
export async function createProgram(
  client: Client,
  overrides: Partial<loyalty.CreateProgramBody> = {},
): Promise<loyalty.Program> {
  const body: loyalty.CreateProgramBody = {
    name: 'Club',
    pointsName: 'Stars',
    pointsPerCurrency: 10,
    currency: 'USD',
    enrollmentType: 'automatic',
    ...overrides,
  };
  return (await unwrap(client.loyalty.program.createProgram({ body }))).data;
}

/** A tier: Gold from 1,000 points unless told. */
export async function createTier(
  client: Client,
  overrides: Partial<loyalty.CreateTierBody> = {},
): Promise<loyalty.Tier> {
  const body = { name: 'Gold', minPoints: 1000, ...overrides };
  return (await unwrap(client.loyalty.tiers.createTier({ body }))).data;
}

/**
 * A member: `customerId` enrolled, or else a new customer (Ada Lovelace with an email of her own,
 * `customer` overriding any of it).
 */
export async function enrollMember(
  client: Client,
  overrides: Partial<loyalty.EnrollMemberBody> & { customer?: Partial<general.CreateCustomerBody> } = {},
): Promise<loyalty.Member> {
  const { customer, ...enrollment } = overrides;
  const customerId =
    enrollment.customerId ?? (await createCustomer(client, { email: uniqueEmail('member'), ...customer })).id;
  return (await unwrap(client.loyalty.members.enrollMember({ body: { ...enrollment, customerId } }))).data;
}

/** A manual adjustment of the member's points; returns its transaction. */
export async function adjustPoints(
  client: Client,
  memberId: string,
  points: number,
  description = 'Manual correction',
): Promise<loyalty.Transaction> {
  const body = { memberId, points, description };
  return (await unwrap(client.loyalty.transactions.adjustPoints({ body }))).data;
}

/** A redemption of the reward for the member (pending, with its voucher). */
export async function createRedemption(
  client: Client,
  body: loyalty.CreateRedemptionBody,
): Promise<loyalty.Redemption> {
  return (await unwrap(client.loyalty.redemptions.createRedemption({ body }))).data;
}

/** A reminder: a bike service every 180 days unless told. */
export async function createReminder(
  client: Client,
  overrides: Partial<loyalty.CreateReminderBody> = {},
): Promise<loyalty.Reminder> {
  const body = { name: 'Bike service', intervalDays: 180, ...overrides };
  return (await unwrap(client.loyalty.reminders.createReminder({ body }))).data;
}

/** A reward of the business: a 100-point free coffee unless told. */
export async function newReward(
  business: TestBusiness,
  body: Partial<loyalty.CreateRewardBody> = {},
): Promise<loyalty.Reward> {
  return (
    await unwrap(
      business.client.loyalty.rewards.createReward({
        body: { name: 'Free coffee', pointsCost: 100, rewardType: 'product', ...body },
      }),
    )
  ).data;
}

export async function member(business: TestBusiness, memberId: string): Promise<loyalty.MemberDetail> {
  return (await unwrap(business.client.loyalty.members.getMember({ params: { publicId: memberId } }))).data;
}

/** The member's ledger, newest first. */
export async function transactions(business: TestBusiness, memberId: string): Promise<loyalty.Transaction[]> {
  return (
    await unwrap(
      business.client.loyalty.members.listMemberTransactions({
        params: { publicId: memberId },
        query: { limit: 200 },
      }),
    )
  ).data;
}

/** The ledger invariant: the balance equals the sum of the member's transactions, none below 0. */
export async function expectLedgerBalanced(
  business: TestBusiness,
  memberId: string,
): Promise<loyalty.MemberDetail> {
  const m = await member(business, memberId);
  const ledger = await transactions(business, memberId);
  expect(m.pointsBalance).toBe(ledger.reduce((s, x) => s + x.points, 0));
  expect(ledger.every((x) => x.balanceAfter >= 0)).toBe(true);
  return m;
}

// The business's rows straight from the database (whatever the API pages).

export const customerRows = (server: TestServer, businessId: string) =>
  server.deps.db
    .selectFrom('customers')
    .selectAll()
    .where('business_id', '=', businessId)
    .orderBy('id')
    .execute();

export const memberRows = (server: TestServer, businessId: string) =>
  server.deps.db.selectFrom('loyalty_members').selectAll().where('business_id', '=', businessId).execute();

export const transactionRows = (server: TestServer, businessId: string) =>
  server.deps.db
    .selectFrom('loyalty_transactions')
    .selectAll()
    .where('business_id', '=', businessId)
    .execute();

export const redemptionRows = (server: TestServer, businessId: string) =>
  server.deps.db
    .selectFrom('loyalty_redemptions')
    .selectAll()
    .where('business_id', '=', businessId)
    .execute();
