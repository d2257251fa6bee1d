import { expect } from 'vitest';
import {
  createClient,
  unwrap,
  type ApiKeyScope,
  type Client,
  type CreateProgramBody,
  type CreateRewardBody,
  type CreateTierBody,
  type ErrorObject,
  type Member,
  type MemberDetail,
  type Program,
  type Reward,
  type Tier,
  type Transaction,
} from '../../client/index.js';
import { registerBusiness, uniqueEmail, type TestBusiness } from '../support/business.js';
import type { TestServer } from '../support/server.js';

/** Shared set-up of the public loyalty test files (a helper module, not a test file). */

export const DAY_MS = 24 * 60 * 60 * 1000;
/** 12 Crockford base32 characters in groups of four. */
export const VOUCHER = /^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;
export const UNKNOWN_REWARD = 'rew_01JD7X2R5VQ8N3K4M6P9T1W2Y3';

export type HttpResult = { status: number; body: unknown; headers?: Headers };

/** An error in the result envelope: `{result: 'error', error: {code, message, status, details?}}`. */
export function expectResultError(
  res: HttpResult,
  status: number,
  code: ErrorObject['code'],
  field?: string,
): ErrorObject {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toMatchObject({ result: 'error', error: { code, status, message: expect.any(String) } });
  const { error } = res.body as { error: ErrorObject };
  if (field !== undefined) expect(error.details?.map((d) => d.field)).toContain(field);
  return error;
}

/** A typed client that presents `key` as `X-Api-Key` (and, for a full key, also as Bearer). */
export const keyClient = (server: TestServer, key: string): Client =>
  createClient({ baseUrl: server.baseUrl, apiKey: key, maxRetries: 0 });

export async function createKey(
  business: TestBusiness,
  scope: ApiKeyScope = 'public_loyalty',
): Promise<{ id: string; key: string }> {
  const { data } = await unwrap(
    business.client.auth.createApiKey({ body: { name: `Till ${scope}`, scope } }),
  );
  return { id: data.id, key: data.key };
}

export interface Shop extends TestBusiness {
  program: Program;
  /** A public_loyalty key of the business. */
  key: string;
  /** The typed client with that key: the point-of-sale. */
  pos: Client;
}

/** A business with an active program (10 points per unit, automatic enrollment unless told) and a key. */
export async function newShop(server: TestServer, program: Partial<CreateProgramBody> = {}): Promise<Shop> {
  const business = await registerBusiness(server);
  const created = await unwrap(
    business.client.loyalty.program.createProgram({
      body: { name: 'Club', pointsName: 'Stars', pointsPerCurrency: 10, currency: 'USD', ...program },
    }),
  );
  const { key } = await createKey(business);
  return { ...business, program: created.data, key, pos: keyClient(server, key) };
}

export async function newTier(business: TestBusiness, body: CreateTierBody): Promise<Tier> {
  return (await unwrap(business.client.loyalty.tiers.createTier({ body }))).data;
}

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

export interface Enrolled {
  memberId: string;
  customerId: string;
  email: string;
  name: string;
}

let customers = 0;

/** A new customer with an email, enrolled through the token API with `points` (an adjust). */
export async function enroll(
  business: TestBusiness,
  options: { points?: number; email?: string; name?: string; tierId?: string } = {},
): Promise<Enrolled> {
  customers += 1;
  const email = options.email ?? uniqueEmail('member');
  const name = options.name ?? `Customer ${customers}`;
  const customer = await unwrap(business.client.general.customers.createCustomer({ body: { name, email } }));
  const member = await unwrap(
    business.client.loyalty.members.enrollMember({
      body: {
        customerId: customer.data.id,
        ...(options.points ? { initialPoints: options.points } : {}),
        ...(options.tierId ? { tierId: options.tierId } : {}),
      },
    }),
  );
  return { memberId: member.data.publicId, customerId: customer.data.id, email, name };
}

export async function member(business: TestBusiness, memberId: string): Promise<MemberDetail> {
  return (await unwrap(business.client.loyalty.members.getMember({ params: { publicId: memberId } }))).data;
}

/** A member detail as the events show a member: without customerPhone. */
export function withoutPhone(detail: MemberDetail): Member {
  const copy: Partial<MemberDetail> = { ...detail };
  delete copy.customerPhone;
  return copy as Member;
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

/** The business's members whose name or email contains `search`. */
export async function membersMatching(business: TestBusiness, search: string) {
  return unwrap(business.client.loyalty.members.listMembers({ query: { search, limit: 200 } }));
}

/** The business's customers, straight from the database (whatever the API pages). */
export const customerRows = (server: TestServer, businessId: string) =>
  server.deps.db.selectFrom('customers').selectAll().where('business_id', '=', businessId).execute();

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
