import { expect } from 'vitest';
import {
  unwrap,
  type CreateRewardBody,
  type MemberDetail,
  type Reward,
  type Transaction,
} from '../../client/index.js';
import type { TestBusiness } from './business.js';
import type { TestServer } from './server.js';

/** A reward of the business: a 100-point free coffee unless told. */
export async function newReward(
  business: TestBusiness,
  body: Partial<CreateRewardBody> = {},
): Promise<Reward> {
  return (
    await unwrap(
      business.client.loyalty.rewards.createReward({
        body: { name: 'Free coffee', pointsCost: 100, rewardType: 'product', ...body },
      }),
    )
  ).data;
}

export async function member(business: TestBusiness, memberId: string): Promise<MemberDetail> {
  return (await unwrap(business.client.loyalty.members.getMember({ params: { publicId: memberId } }))).data;
}

/** The member's ledger, newest first. */
export async function transactions(business: TestBusiness, memberId: string): Promise<Transaction[]> {
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
export async function expectLedgerBalanced(business: TestBusiness, memberId: string): Promise<MemberDetail> {
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
